#pragma once

// ggml's weight types as the tests know them, independently of core: block layouts from ggml-common.h
// and values from dequantize_row_* in ggml-quants.c, written out plainly, one type at a time. Random blocks
// of each type (random quants, scales chosen so that values stay near ±scale) and their reference values.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <QByteArray>

#include "CheckpointWriters.h"

namespace swb::test {

struct QuantType {
    const char* name;
    std::uint32_t ggml;
    int blockElements;
    int blockBytes;
};

inline const std::vector<QuantType>& quantTypes() {
    static const std::vector<QuantType> types = {
        {"f32", 0, 1, 4},       {"f16", 1, 1, 2},       {"bf16", 30, 1, 2},     {"q8_0", 8, 32, 34},
        {"q4_0", 2, 32, 18},    {"q4_1", 3, 32, 20},    {"q5_0", 6, 32, 22},    {"q5_1", 7, 32, 24},
        {"q2_k", 10, 256, 84},  {"q3_k", 11, 256, 110}, {"q4_k", 12, 256, 144}, {"q5_k", 13, 256, 176},
        {"q6_k", 14, 256, 210},
    };
    return types;
}

inline const QuantType& quantType(const std::string& name) {
    for (const QuantType& t : quantTypes())
        if (name == t.name)
            return t;
    return quantTypes().front();
}

// IEEE binary16 of a value in the normal range, rounded to nearest even; and back.
inline std::uint16_t halfBits(float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    const std::uint32_t sign = (bits >> 16) & 0x8000;
    if (std::fabs(f) < std::ldexp(1.0f, -14)) // subnormal half: a multiple of 2^-24
        return static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::lround(std::fabs(f) * 16777216.0f)));
    const int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
    const std::uint32_t mantissa = bits & 0x7FFFFF;
    std::uint32_t h = sign | (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        ++h;
    return static_cast<std::uint16_t>(h);
}
inline float halfValue(std::uint16_t h) {
    const int exponent = (h >> 10) & 0x1F;
    const int mantissa = h & 0x3FF;
    const float sign = (h & 0x8000) ? -1.0f : 1.0f;
    if (exponent == 0)
        return sign * std::ldexp(static_cast<float>(mantissa), -24);
    if (exponent == 31)
        return mantissa ? std::nanf("") : sign * INFINITY;
    return sign * std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
}
inline float halfAt(const std::uint8_t* p) {
    return halfValue(static_cast<std::uint16_t>(p[0] | (p[1] << 8)));
}
inline void putHalf(std::uint8_t* p, float f) {
    const std::uint16_t h = halfBits(f);
    p[0] = static_cast<std::uint8_t>(h & 0xFF);
    p[1] = static_cast<std::uint8_t>(h >> 8);
}

// Reference values of `count` elements of a type, straight from ggml's dequantize_row_*.
inline Floats referenceValues(const QuantType& t, const std::uint8_t* p, std::size_t count) {
    Floats y;
    y.reserve(count);
    const std::string name = t.name;
    for (std::size_t done = 0; done < count; done += static_cast<std::size_t>(t.blockElements), p += t.blockBytes) {
        if (name == "f32") {
            float v;
            std::memcpy(&v, p, 4);
            y.push_back(v);
        } else if (name == "f16") {
            y.push_back(halfAt(p));
        } else if (name == "bf16") {
            const std::uint32_t bits = static_cast<std::uint32_t>(p[0] | (p[1] << 8)) << 16;
            float v;
            std::memcpy(&v, &bits, 4);
            y.push_back(v);
        } else if (name == "q8_0") {
            const float d = halfAt(p);
            for (int j = 0; j < 32; ++j)
                y.push_back(static_cast<float>(static_cast<std::int8_t>(p[2 + j])) * d);
        } else if (name == "q4_0" || name == "q4_1") {
            const bool min = name == "q4_1";
            const float d = halfAt(p);
            const float m = min ? halfAt(p + 2) : 0.0f;
            const std::uint8_t* qs = p + (min ? 4 : 2);
            float out[32];
            for (int j = 0; j < 16; ++j) {
                const int x0 = qs[j] & 0x0F, x1 = qs[j] >> 4;
                out[j] = min ? static_cast<float>(x0) * d + m : static_cast<float>(x0 - 8) * d;
                out[j + 16] = min ? static_cast<float>(x1) * d + m : static_cast<float>(x1 - 8) * d;
            }
            y.insert(y.end(), out, out + 32);
        } else if (name == "q5_0" || name == "q5_1") {
            const bool min = name == "q5_1";
            const float d = halfAt(p);
            const float m = min ? halfAt(p + 2) : 0.0f;
            std::uint32_t qh;
            std::memcpy(&qh, p + (min ? 4 : 2), 4);
            const std::uint8_t* qs = p + (min ? 8 : 6);
            float out[32];
            for (int j = 0; j < 16; ++j) {
                const int xh0 = static_cast<int>(((qh >> j) << 4) & 0x10);
                const int xh1 = static_cast<int>((qh >> (j + 12)) & 0x10);
                const int x0 = (qs[j] & 0x0F) | xh0, x1 = (qs[j] >> 4) | xh1;
                out[j] = min ? static_cast<float>(x0) * d + m : static_cast<float>(x0 - 16) * d;
                out[j + 16] = min ? static_cast<float>(x1) * d + m : static_cast<float>(x1 - 16) * d;
            }
            y.insert(y.end(), out, out + 32);
        } else if (name == "q2_k") {
            const float d = halfAt(p + 80), dmin = halfAt(p + 82);
            const std::uint8_t* q = p + 16;
            int is = 0;
            for (int n = 0; n < 256; n += 128) {
                for (int shift = 0; shift < 8; shift += 2) {
                    for (int half = 0; half < 2; ++half) {
                        const std::uint8_t sc = p[is++];
                        const float dl = d * static_cast<float>(sc & 0xF), ml = dmin * static_cast<float>(sc >> 4);
                        for (int l = 0; l < 16; ++l)
                            y.push_back(dl * static_cast<float>((q[l + 16 * half] >> shift) & 3) - ml);
                    }
                }
                q += 32;
            }
        } else if (name == "q3_k") {
            const float d = halfAt(p + 108);
            const std::uint8_t* hm = p;
            const std::uint8_t* q = p + 32;
            const std::uint8_t* sc = p + 96;
            int scales[16];
            for (int k = 0; k < 16; ++k) {
                // kmask juggling of ggml, element by element.
                const int low = k < 8 ? (sc[k] & 0xF) : (sc[k - 8] >> 4);
                const int high = (sc[8 + (k % 4)] >> (2 * (k / 4))) & 3;
                scales[k] = (low | (high << 4)) - 32;
            }
            int is = 0;
            std::uint8_t m = 1;
            for (int n = 0; n < 256; n += 128) {
                for (int shift = 0; shift < 8; shift += 2) {
                    for (int half = 0; half < 2; ++half) {
                        const float dl = d * static_cast<float>(scales[is++]);
                        for (int l = 0; l < 16; ++l) {
                            const int v = ((q[l + 16 * half] >> shift) & 3) - ((hm[l + 16 * half] & m) ? 0 : 4);
                            y.push_back(dl * static_cast<float>(v));
                        }
                    }
                    m = static_cast<std::uint8_t>(m << 1);
                }
                q += 32;
            }
        } else if (name == "q4_k" || name == "q5_k") {
            const bool five = name == "q5_k";
            const float d = halfAt(p), dmin = halfAt(p + 2);
            const std::uint8_t* s = p + 4;
            const std::uint8_t* qh = p + 16;
            const std::uint8_t* ql = p + (five ? 48 : 16);
            const auto scaleMin = [&](int j, int& sc, int& mn) {
                if (j < 4) {
                    sc = s[j] & 63;
                    mn = s[j + 4] & 63;
                } else {
                    sc = (s[j + 4] & 0xF) | ((s[j - 4] >> 6) << 4);
                    mn = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
                }
            };
            for (int j = 0; j < 4; ++j) {
                int sc, mn;
                scaleMin(2 * j, sc, mn);
                const float d1 = d * static_cast<float>(sc), m1 = dmin * static_cast<float>(mn);
                scaleMin(2 * j + 1, sc, mn);
                const float d2 = d * static_cast<float>(sc), m2 = dmin * static_cast<float>(mn);
                for (int l = 0; l < 32; ++l) {
                    const int high = five && (qh[l] & (1 << (2 * j))) ? 16 : 0;
                    y.push_back(d1 * static_cast<float>((ql[32 * j + l] & 0xF) + high) - m1);
                }
                for (int l = 0; l < 32; ++l) {
                    const int high = five && (qh[l] & (2 << (2 * j))) ? 16 : 0;
                    y.push_back(d2 * static_cast<float>((ql[32 * j + l] >> 4) + high) - m2);
                }
            }
        } else if (name == "q6_k") {
            const float d = halfAt(p + 208);
            const std::uint8_t* ql = p;
            const std::uint8_t* qh = p + 128;
            const auto* sc = reinterpret_cast<const std::int8_t*>(p + 192);
            float out[256];
            for (int n = 0; n < 2; ++n) {
                for (int l = 0; l < 32; ++l) {
                    const int is = l / 16;
                    const int q1 = ((ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
                    const int q2 = ((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
                    const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
                    const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
                    out[128 * n + l] = d * static_cast<float>(sc[is]) * static_cast<float>(q1);
                    out[128 * n + l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
                    out[128 * n + l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
                    out[128 * n + l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
                }
                ql += 64;
                qh += 32;
                sc += 8;
            }
            y.insert(y.end(), out, out + 256);
        }
    }
    return y;
}

// `count` random elements of a type, about ±scale: random quants, then the block's scale fields set.
inline QByteArray randomBlocks(const QuantType& t, std::size_t count, float scale, TestRandom& rng) {
    const std::string name = t.name;
    const std::size_t blocks = count / static_cast<std::size_t>(t.blockElements);
    QByteArray out(static_cast<qsizetype>(blocks * static_cast<std::size_t>(t.blockBytes)), '\0');
    auto* p = reinterpret_cast<std::uint8_t*>(out.data());
    for (std::size_t b = 0; b < blocks; ++b, p += t.blockBytes) {
        if (name == "f32") {
            const float v = rng.uniform(scale);
            std::memcpy(p, &v, 4);
            continue;
        }
        if (name == "f16") {
            putHalf(p, rng.uniform(scale));
            continue;
        }
        if (name == "bf16") {
            const float v = rng.uniform(scale);
            std::uint32_t bits;
            std::memcpy(&bits, &v, 4);
            p[0] = static_cast<std::uint8_t>(bits >> 16);
            p[1] = static_cast<std::uint8_t>(bits >> 24);
            continue;
        }
        for (int i = 0; i < t.blockBytes; ++i)
            p[i] = static_cast<std::uint8_t>(rng.next() >> 56);
        // Scale fields: random around the magnitude that keeps values within about ±scale.
        const auto around = [&](float x) { return x * (0.5f + 0.5f * std::fabs(rng.uniform(1.0f))); };
        if (name == "q8_0")
            putHalf(p, around(scale / 127));
        else if (name == "q4_0")
            putHalf(p, around(scale / 8));
        else if (name == "q5_0")
            putHalf(p, around(scale / 16));
        else if (name == "q4_1" || name == "q5_1") {
            putHalf(p, around(2 * scale / (name == "q4_1" ? 15 : 31)));
            putHalf(p + 2, -around(scale));
        } else if (name == "q2_k") {
            putHalf(p + 80, around(2 * scale / 45));
            putHalf(p + 82, around(scale / 15));
        } else if (name == "q3_k") {
            putHalf(p + 108, around(scale / 128));
        } else if (name == "q4_k" || name == "q5_k") {
            putHalf(p, around(2 * scale / (name == "q4_k" ? 945 : 1953)));
            putHalf(p + 2, around(scale / 63));
        } else if (name == "q6_k") {
            putHalf(p + 208, around(scale / 4096));
        }
    }
    return out;
}

} // namespace swb::test
