// ggml's reference quantizers (ggml-quants.c, quantize_row_*_ref) in the project's words. The bytes are the
// contract: every float operation is ggml's, in ggml's order and precision (this file is compiled with
// -ffp-contract=off, as ggml-base is built without FMA), and so is every rounding: nearest_int's magic number
// (halves to even), roundf (halves away from zero), C's truncating casts, the narrowing of ints into bytes.
// The block layouts are ggml-common.h's, as LegacyQuants.cpp, Q8_0.cpp and KQuants.cpp decode them; half-precision
// fields little-endian.

#include "quantization/RowQuantizer.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace swb::quantization {

namespace {

constexpr int kQK = 32;    // elements in a block of Q8_0 and the legacy types
constexpr int kQK_K = 256; // elements in a K-quant super-block

// ggml's GROUP_MAX_EPS: a group whose largest magnitude is below it quantizes to zeros.
constexpr float kGroupMaxEps = 1e-15f;

// ggml_compute_fp32_to_fp16 as ggml-base is built (the portable one, no F16C): multiplying |f| by 2^112 and then
// by 2^-110 sends what a half cannot hold to infinity; adding a power of two scaled to f's exponent then rounds the
// mantissa to a half's precision, to nearest even, subnormals included. Every NaN becomes the quiet 0x7E00.
std::uint16_t toHalf(float f) {
    float base = (std::fabs(f) * 0x1.0p+112f) * 0x1.0p-110f;
    const std::uint32_t w = std::bit_cast<std::uint32_t>(f);
    const std::uint32_t shl1 = w + w;
    const std::uint32_t sign = w & 0x80000000u;
    const std::uint32_t bias = std::max(shl1 & 0xFF000000u, 0x71000000u);
    base = std::bit_cast<float>((bias >> 1) + 0x07800000u) + base;
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(base);
    const std::uint32_t nonsign = ((bits >> 13) & 0x7C00u) + (bits & 0x0FFFu);
    return static_cast<std::uint16_t>((sign >> 16) | (shl1 > 0xFF000000u ? 0x7E00u : nonsign));
}

float fromHalf(std::uint16_t h) {
    return static_cast<float>(std::bit_cast<_Float16>(h)); // exact, as ggml's GGML_FP16_TO_FP32
}

// ggml_compute_fp32_to_bf16: the top 16 bits rounded to nearest even; a NaN keeps its top bits, forced quiet.
std::uint16_t toBFloat16(float f) {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        return static_cast<std::uint16_t>((u >> 16) | 64);
    return static_cast<std::uint16_t>((u + (0x7FFFu + ((u >> 16) & 1))) >> 16);
}

// ggml's nearest_int: adding 1.5·2^23 leaves v rounded (halves to even) in the low mantissa bits, for |v| < 2^22.
int nearestInt(float v) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(v + 12582912.0f);
    return static_cast<int>(bits & 0x007FFFFFu) - 0x00400000;
}

// C's (int8_t)v as ggml's x86-64 build computes it: truncated to 32 bits (cvttss2si, cvttps2dq: INT32_MIN for NaN
// and out of range), then the low byte. A block of tiny values gets NaN here when its 1 / d overflows.
std::int8_t truncatedInt8(float v) {
    const std::int32_t wide = std::fabs(v) < 0x1.0p31f ? static_cast<std::int32_t>(v) : INT32_MIN;
    return static_cast<std::int8_t>(wide);
}

// The legacy types' MIN(top, (int8_t)v), kept in a uint8_t.
std::uint8_t clippedQuant(float v, int top) {
    return static_cast<std::uint8_t>(std::min<int>(top, truncatedInt8(v)));
}

// The element of largest magnitude, sign kept (the first of equals; 0 when all are 0 or NaN), as the symmetric
// types pick the value their scale is set against.
float largestMagnitude(const float* x, int n) {
    float amax = 0.0f;
    float max = 0.0f;
    for (int j = 0; j < n; ++j) {
        if (std::fabs(x[j]) > amax) {
            amax = std::fabs(x[j]);
            max = x[j];
        }
    }
    return max;
}

void range(const float* x, float& min, float& max) {
    min = std::numeric_limits<float>::max();
    max = -std::numeric_limits<float>::max();
    for (int j = 0; j < kQK; ++j) {
        if (x[j] < min)
            min = x[j];
        if (x[j] > max)
            max = x[j];
    }
}

// Float elements, as blocks of one.
struct F16Element {
    static constexpr int kElements = 1;
    std::uint16_t bits;
};
struct BF16Element {
    static constexpr int kElements = 1;
    std::uint16_t bits;
};

void quantizeBlock(const float* x, F16Element& e) {
    e.bits = toHalf(*x);
}

void quantizeBlock(const float* x, BF16Element& e) {
    e.bits = toBFloat16(*x);
}

struct BlockQ8_0 {
    static constexpr int kElements = kQK;
    std::uint16_t d;
    std::int8_t qs[kQK];
};
static_assert(sizeof(BlockQ8_0) == 34);

// Q8_0: d = max |x| / 127, q = roundf(x · (1 / d)).
void quantizeBlock(const float* x, BlockQ8_0& b) {
    float amax = 0.0f;
    for (int j = 0; j < kQK; ++j)
        amax = amax > std::fabs(x[j]) ? amax : std::fabs(x[j]); // ggml's MAX
    const float d = amax / 127.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    b.d = toHalf(d);
    for (int j = 0; j < kQK; ++j)
        b.qs[j] = truncatedInt8(std::round(x[j] * id));
}

struct BlockQ4_0 {
    static constexpr int kElements = kQK;
    std::uint16_t d;
    std::uint8_t qs[kQK / 2];
};
static_assert(sizeof(BlockQ4_0) == 18);

// Q4_0: d = −m / 8 for m the element of largest magnitude, which thus becomes quant 0 exactly;
// q = min(15, trunc(x · (1 / d) + 8.5)).
void quantizeBlock(const float* x, BlockQ4_0& b) {
    const float d = largestMagnitude(x, kQK) / -8.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    b.d = toHalf(d);
    for (int j = 0; j < kQK / 2; ++j) {
        const std::uint8_t q0 = clippedQuant(x[j] * id + 8.5f, 15);
        const std::uint8_t q1 = clippedQuant(x[j + kQK / 2] * id + 8.5f, 15);
        b.qs[j] = static_cast<std::uint8_t>(q0 | (q1 << 4));
    }
}

struct BlockQ4_1 {
    static constexpr int kElements = kQK;
    std::uint16_t d;
    std::uint16_t m;
    std::uint8_t qs[kQK / 2];
};
static_assert(sizeof(BlockQ4_1) == 20);

// Q4_1: m = min x, d = (max x − m) / 15, q = min(15, trunc((x − m) · (1 / d) + 0.5)).
void quantizeBlock(const float* x, BlockQ4_1& b) {
    float min, max;
    range(x, min, max);
    const float d = (max - min) / 15.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    b.d = toHalf(d);
    b.m = toHalf(min);
    for (int j = 0; j < kQK / 2; ++j) {
        const std::uint8_t q0 = clippedQuant((x[j] - min) * id + 0.5f, 15);
        const std::uint8_t q1 = clippedQuant((x[j + kQK / 2] - min) * id + 0.5f, 15);
        b.qs[j] = static_cast<std::uint8_t>(q0 | (q1 << 4));
    }
}

struct BlockQ5_0 {
    static constexpr int kElements = kQK;
    std::uint16_t d;
    std::uint8_t qh[4];
    std::uint8_t qs[kQK / 2];
};
static_assert(sizeof(BlockQ5_0) == 22);

// Q5_0: as Q4_0 with d = −m / 16 and q = min(31, trunc(x · (1 / d) + 16.5)); bit 4 of element j's quant is bit j of
// the little-endian qh.
void quantizeBlock(const float* x, BlockQ5_0& b) {
    const float d = largestMagnitude(x, kQK) / -16.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    b.d = toHalf(d);
    std::uint32_t qh = 0;
    for (int j = 0; j < kQK / 2; ++j) {
        const std::uint8_t q0 = clippedQuant(x[j] * id + 16.5f, 31);
        const std::uint8_t q1 = clippedQuant(x[j + kQK / 2] * id + 16.5f, 31);
        b.qs[j] = static_cast<std::uint8_t>((q0 & 0x0F) | ((q1 & 0x0F) << 4));
        qh |= ((q0 & 0x10u) >> 4) << j;
        qh |= ((q1 & 0x10u) >> 4) << (j + kQK / 2);
    }
    std::memcpy(b.qh, &qh, sizeof qh);
}

struct BlockQ5_1 {
    static constexpr int kElements = kQK;
    std::uint16_t d;
    std::uint16_t m;
    std::uint8_t qh[4];
    std::uint8_t qs[kQK / 2];
};
static_assert(sizeof(BlockQ5_1) == 24);

// Q5_1: m = min x, d = (max x − m) / 31, q = trunc((x − m) · (1 / d) + 0.5) (no clip); qh as Q5_0's.
void quantizeBlock(const float* x, BlockQ5_1& b) {
    float min, max;
    range(x, min, max);
    const float d = (max - min) / 31.0f;
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    b.d = toHalf(d);
    b.m = toHalf(min);
    std::uint32_t qh = 0;
    for (int j = 0; j < kQK / 2; ++j) {
        const auto q0 = static_cast<std::uint8_t>(truncatedInt8((x[j] - min) * id + 0.5f));
        const auto q1 = static_cast<std::uint8_t>(truncatedInt8((x[j + kQK / 2] - min) * id + 0.5f));
        b.qs[j] = static_cast<std::uint8_t>((q0 & 0x0F) | ((q1 & 0x0F) << 4));
        qh |= ((q0 & 0x10u) >> 4) << j;
        qh |= ((q1 & 0x10u) >> 4) << (j + kQK / 2);
    }
    std::memcpy(b.qh, &qh, sizeof qh);
}

// make_qkx2_quants: quants L = clamp(round(iscale·(x − min)), 0, nmax) over the group's range (min ≤ 0), first for
// iscale = nmax / range, then for nstep + 1 trial iscales (nmax + rmin + rdelta·k) / range, each trial refitted to a
// scale and min by weighted least squares; keeps the one of least weighted error (|error| with useMad, else error²).
// Returns the scale; −min in negMin.
float makeQkx2Quants(int n, int nmax, const float* x, const float* weights, std::uint8_t* L, float& negMin, float rmin,
                     float rdelta, int nstep, bool useMad) {
    float min = x[0];
    float max = x[0];
    float sumW = weights[0];
    float sumX = sumW * x[0];
    for (int i = 1; i < n; ++i) {
        if (x[i] < min)
            min = x[i];
        if (x[i] > max)
            max = x[i];
        const float w = weights[i];
        sumW += w;
        sumX += w * x[i];
    }
    if (min > 0)
        min = 0;
    if (max == min) {
        std::fill_n(L, n, 0);
        negMin = -min;
        return 0.0f;
    }
    const auto quant = [&](float iscale, int i) { return std::clamp(nearestInt(iscale * (x[i] - min)), 0, nmax); };
    const auto error = [&](float scale, float offset, const std::uint8_t* q) {
        float sum = 0;
        for (int i = 0; i < n; ++i) {
            float diff = scale * q[i] + offset - x[i];
            diff = useMad ? std::fabs(diff) : diff * diff;
            sum += weights[i] * diff;
        }
        return sum;
    };
    float iscale = nmax / (max - min);
    float scale = 1 / iscale;
    for (int i = 0; i < n; ++i)
        L[i] = static_cast<std::uint8_t>(quant(iscale, i));
    float bestError = error(scale, min, L);
    std::uint8_t trial[kQK];
    for (int is = 0; is <= nstep; ++is) {
        iscale = (rmin + rdelta * is + nmax) / (max - min);
        float sumL = 0, sumL2 = 0, sumXL = 0;
        for (int i = 0; i < n; ++i) {
            const int l = quant(iscale, i);
            trial[i] = static_cast<std::uint8_t>(l);
            const float w = weights[i];
            sumL += w * l;
            sumL2 += w * l * l;
            sumXL += w * l * x[i];
        }
        const float det = sumW * sumL2 - sumL * sumL;
        if (det > 0) {
            float thisScale = (sumW * sumXL - sumX * sumL) / det;
            float thisMin = (sumL2 * sumX - sumL * sumXL) / det;
            if (thisMin > 0) {
                thisMin = 0;
                thisScale = sumXL / sumL2;
            }
            const float curError = error(thisScale, thisMin, trial);
            if (curError < bestError) {
                std::copy_n(trial, n, L);
                bestError = curError;
                scale = thisScale;
                min = thisMin;
            }
        }
    }
    negMin = -min;
    return scale;
}

// make_q3_quants as Q3_K calls it (16 elements, nmax 4, with its refinement): l = clamp(round(−4·x / m), −4, 3) for m
// the element of largest magnitude, then up to five sweeps that move single quants where that raises the x²-weighted
// least-squares fit's (Σ w·x·l)² / Σ w·l². Returns the fit's scale; L biased by 4 (all 0 for a group of zeros).
float makeQ3Quants(const float* x, std::uint8_t* L) {
    constexpr int n = 16, nmax = 4;
    const float max = largestMagnitude(x, n);
    const float amax = std::fabs(max);
    if (amax < kGroupMaxEps) {
        std::fill_n(L, n, 0);
        return 0.0f;
    }
    const float iscale = -nmax / max;
    int l[n];
    float sumlx = 0;
    float suml2 = 0;
    for (int i = 0; i < n; ++i) {
        l[i] = std::clamp(nearestInt(iscale * x[i]), -nmax, nmax - 1);
        const float w = x[i] * x[i];
        sumlx += w * x[i] * l[i];
        suml2 += w * l[i] * l[i];
    }
    for (int sweep = 0; sweep < 5; ++sweep) {
        int changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = x[i] * x[i];
            float slx = sumlx - w * x[i] * l[i];
            if (slx > 0) {
                float sl2 = suml2 - w * l[i] * l[i];
                const int newL = std::clamp(nearestInt(x[i] * sl2 / slx), -nmax, nmax - 1);
                if (newL != l[i]) {
                    slx += w * x[i] * newL;
                    sl2 += w * newL * newL;
                    if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                        l[i] = newL;
                        sumlx = slx;
                        suml2 = sl2;
                        ++changed;
                    }
                }
            }
        }
        if (!changed)
            break;
    }
    for (int i = 0; i < n; ++i)
        L[i] = static_cast<std::uint8_t>(l[i] + nmax);
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

// make_qx_quants as Q6_K calls it (16 elements, nmax 32, rmse_type 1: weights x², no importance): l =
// clamp(round(−s·x / m), −32, 31) for m the element of largest magnitude and s = 32, then s = 32 ± 0.1·k (k = 1…9),
// keeping the quants whose x²-weighted least-squares fit is best. Returns the fit's scale; L biased by 32.
float makeQxQuants(const float* x, std::uint8_t* L) {
    constexpr int n = 16, nmax = 32;
    const float max = largestMagnitude(x, n);
    const float amax = std::fabs(max);
    if (amax < kGroupMaxEps) {
        std::fill_n(L, n, 0);
        return 0.0f;
    }
    const auto quant = [&](float iscale, int i) { return std::clamp(nearestInt(iscale * x[i]), -nmax, nmax - 1); };
    const auto fit = [&](float iscale, float& sumlx, float& suml2) {
        sumlx = 0;
        suml2 = 0;
        for (int i = 0; i < n; ++i) {
            const int l = quant(iscale, i);
            const float w = x[i] * x[i];
            sumlx += w * x[i] * l;
            suml2 += w * l * l;
        }
    };
    const auto keep = [&](float iscale) {
        for (int i = 0; i < n; ++i)
            L[i] = static_cast<std::uint8_t>(quant(iscale, i) + nmax);
    };
    float iscale = -nmax / max;
    float sumlx, suml2;
    fit(iscale, sumlx, suml2);
    keep(iscale);
    float scale = suml2 != 0.0f ? sumlx / suml2 : 0.0f;
    float best = scale * sumlx;
    for (int is = -9; is <= 9; ++is) {
        if (is == 0)
            continue;
        iscale = -(nmax + 0.1f * is) / max;
        fit(iscale, sumlx, suml2);
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            keep(iscale);
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

// Four 2-bit quants a byte (Q2_K, Q3_K): byte l of each 32 holds elements l, l + 32, l + 64, l + 96 of its 128.
void packTwoBits(const std::uint8_t* L, std::uint8_t* qs) {
    for (int j = 0; j < kQK_K; j += 128)
        for (int l = 0; l < 32; ++l)
            qs[j / 4 + l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) |
                                                      (L[j + l + 96] << 6));
}

struct BlockQ2_K {
    static constexpr int kElements = kQK_K;
    std::uint8_t scales[16]; // scale in the low nibble, min in the high one
    std::uint8_t qs[64];
    std::uint16_t d;
    std::uint16_t dmin;
};
static_assert(sizeof(BlockQ2_K) == 84);

// Q2_K: 16 groups of 16, each fitted by makeQkx2Quants (weights |x|, absolute error) to a scale and a min, which are
// rounded to 4 bits of d = max scale / 15 and dmin = max min / 15; then each quant is rounded again, 0…3, against its
// group's rounded scale and min (a group whose rounded scale is 0 keeps the fit's quants).
void quantizeBlock(const float* x, BlockQ2_K& b) {
    std::uint8_t L[kQK_K];
    float scales[16];
    float mins[16];
    float maxScale = 0;
    float maxMin = 0;
    for (int j = 0; j < 16; ++j) {
        float weights[16];
        for (int l = 0; l < 16; ++l)
            weights[l] = std::fabs(x[16 * j + l]);
        scales[j] = makeQkx2Quants(16, 3, x + 16 * j, weights, L + 16 * j, mins[j], -0.5f, 0.1f, 15, true);
        if (scales[j] > maxScale)
            maxScale = scales[j];
        if (mins[j] > maxMin)
            maxMin = mins[j];
    }
    if (maxScale > 0) {
        const float iscale = 15.0f / maxScale;
        for (int j = 0; j < 16; ++j)
            b.scales[j] = static_cast<std::uint8_t>(nearestInt(iscale * scales[j]));
        b.d = toHalf(maxScale / 15.0f);
    }
    if (maxMin > 0) {
        const float iscale = 15.0f / maxMin;
        for (int j = 0; j < 16; ++j)
            b.scales[j] |= static_cast<std::uint8_t>(nearestInt(iscale * mins[j]) << 4);
        b.dmin = toHalf(maxMin / 15.0f);
    }
    const float d = fromHalf(b.d);
    const float dmin = fromHalf(b.dmin);
    for (int j = 0; j < 16; ++j) {
        const float scale = d * (b.scales[j] & 0xF);
        if (scale == 0.0f)
            continue;
        const float offset = dmin * (b.scales[j] >> 4);
        for (int i = 16 * j; i < 16 * j + 16; ++i)
            L[i] = static_cast<std::uint8_t>(std::clamp(nearestInt((x[i] + offset) / scale), 0, 3));
    }
    packTwoBits(L, b.qs);
}

// Fits each of a super-block's 16 groups of 16 with `fit` (quants to L, scales to scales) and returns the fitted
// scale of largest magnitude, the first of equals: what Q3_K and Q6_K round every scale against.
template <typename Fit> float fitGroupsOf16(const float* x, std::uint8_t* L, float* scales, Fit fit) {
    for (int j = 0; j < 16; ++j)
        scales[j] = fit(x + 16 * j, L + 16 * j);
    return largestMagnitude(scales, 16);
}

struct BlockQ3_K {
    static constexpr int kElements = kQK_K;
    std::uint8_t hmask[32];
    std::uint8_t qs[64];
    std::uint8_t scales[12];
    std::uint16_t d;
};
static_assert(sizeof(BlockQ3_K) == 110);

// Q3_K: 16 groups of 16, each fitted by makeQ3Quants to a signed scale; the scales rounded to 6 bits (biased by 32)
// of d = −s / 32 for s the scale of largest magnitude, then each quant rounded again, −4…3, against its group's
// rounded scale (a group whose rounded scale is 0 keeps the fit's quants). Scale j's low nibble: byte j (j < 8) or
// the high nibble of byte j − 8; its top two bits: bits 2·(j / 4) of byte 8 + j % 4. Each quant's bit 2 in hmask.
void quantizeBlock(const float* x, BlockQ3_K& b) {
    std::uint8_t L[kQK_K];
    float scales[16];
    const float maxScale = fitGroupsOf16(x, L, scales, makeQ3Quants);
    if (maxScale != 0.0f) {
        const float iscale = -32.0f / maxScale;
        for (int j = 0; j < 16; ++j) {
            // ggml keeps the rounded scale in an int8_t before clamping it.
            const int l = std::clamp<int>(static_cast<std::int8_t>(nearestInt(iscale * scales[j])), -32, 31) + 32;
            if (j < 8)
                b.scales[j] = static_cast<std::uint8_t>(l & 0xF);
            else
                b.scales[j - 8] |= static_cast<std::uint8_t>((l & 0xF) << 4);
            b.scales[j % 4 + 8] |= static_cast<std::uint8_t>((l >> 4) << (2 * (j / 4)));
        }
        b.d = toHalf(1 / iscale);
    }
    const float d = fromHalf(b.d);
    for (int j = 0; j < 16; ++j) {
        const int low = j < 8 ? b.scales[j] & 0xF : b.scales[j - 8] >> 4;
        const int sc = (low | (((b.scales[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32;
        const float scale = d * sc;
        if (scale == 0.0f)
            continue;
        for (int i = 16 * j; i < 16 * j + 16; ++i)
            L[i] = static_cast<std::uint8_t>(std::clamp(nearestInt(x[i] / scale), -4, 3) + 4);
    }
    for (int j = 0; j < kQK_K; ++j) {
        if (L[j] > 3) {
            b.hmask[j % 32] |= static_cast<std::uint8_t>(1 << (j / 32));
            L[j] -= 4;
        }
    }
    packTwoBits(L, b.qs);
}

struct BlockQ4_K {
    static constexpr int kElements = kQK_K;
    std::uint16_t d;
    std::uint16_t dmin;
    std::uint8_t scales[12];
    std::uint8_t qs[kQK_K / 2];
};
static_assert(sizeof(BlockQ4_K) == 144);

struct BlockQ5_K {
    static constexpr int kElements = kQK_K;
    std::uint16_t d;
    std::uint16_t dmin;
    std::uint8_t scales[12];
    std::uint8_t qh[kQK_K / 8];
    std::uint8_t qs[kQK_K / 2];
};
static_assert(sizeof(BlockQ5_K) == 176);

// ggml's get_scale_min_k4: group j's 6-bit scale and min from the 12 packed bytes.
void scaleMinK4(int j, const std::uint8_t* packed, std::uint8_t& scale, std::uint8_t& min) {
    if (j < 4) {
        scale = packed[j] & 63;
        min = packed[j + 4] & 63;
    } else {
        scale = static_cast<std::uint8_t>((packed[j + 4] & 0xF) | ((packed[j - 4] >> 6) << 4));
        min = static_cast<std::uint8_t>((packed[j + 4] >> 4) | ((packed[j] >> 6) << 4));
    }
}

// What Q4_K and Q5_K share: 8 groups of 32, each fitted by makeQkx2Quants (weights: the group's rms + |x|, squared
// error; nmax, rmin and nstep the type's) to a scale and a min, which are rounded to 6 bits of d = max scale / 63 and
// dmin = max min / 63 and packed as scaleMinK4 reads them; then each quant is rounded again, 0…nmax, against its
// group's rounded scale and min (a group whose rounded scale is 0 keeps the fit's quants).
template <class Block>
void quantizeGroupsK4(const float* x, int nmax, float rmin, int nstep, Block& b, std::uint8_t* L) {
    float scales[8];
    float mins[8];
    float maxScale = 0;
    float maxMin = 0;
    for (int j = 0; j < 8; ++j) {
        const float* group = x + 32 * j;
        float sumX2 = 0;
        for (int l = 0; l < 32; ++l)
            sumX2 += group[l] * group[l];
        const float avX = std::sqrt(sumX2 / 32);
        float weights[32];
        for (int l = 0; l < 32; ++l)
            weights[l] = avX + std::fabs(group[l]);
        scales[j] = makeQkx2Quants(32, nmax, group, weights, L + 32 * j, mins[j], rmin, 0.1f, nstep, false);
        if (scales[j] > maxScale)
            maxScale = scales[j];
        if (mins[j] > maxMin)
            maxMin = mins[j];
    }
    const float invScale = maxScale > 0 ? 63.0f / maxScale : 0.0f;
    const float invMin = maxMin > 0 ? 63.0f / maxMin : 0.0f;
    for (int j = 0; j < 8; ++j) {
        // Narrowed to a byte before the clip, as ggml's uint8_t does.
        const std::uint8_t ls = std::min<std::uint8_t>(63, static_cast<std::uint8_t>(nearestInt(invScale * scales[j])));
        const std::uint8_t lm = std::min<std::uint8_t>(63, static_cast<std::uint8_t>(nearestInt(invMin * mins[j])));
        if (j < 4) {
            b.scales[j] = ls;
            b.scales[j + 4] = lm;
        } else {
            b.scales[j + 4] = static_cast<std::uint8_t>((ls & 0xF) | ((lm & 0xF) << 4));
            b.scales[j - 4] |= static_cast<std::uint8_t>((ls >> 4) << 6);
            b.scales[j] |= static_cast<std::uint8_t>((lm >> 4) << 6);
        }
    }
    b.d = toHalf(maxScale / 63.0f);
    b.dmin = toHalf(maxMin / 63.0f);
    const float d = fromHalf(b.d);
    const float dmin = fromHalf(b.dmin);
    for (int j = 0; j < 8; ++j) {
        std::uint8_t sc, m;
        scaleMinK4(j, b.scales, sc, m);
        const float scale = d * sc;
        if (scale == 0.0f)
            continue;
        const float offset = dmin * m;
        for (int i = 32 * j; i < 32 * j + 32; ++i)
            L[i] = static_cast<std::uint8_t>(std::clamp(nearestInt((x[i] + offset) / scale), 0, nmax));
    }
}

// Q4_K: quantizeGroupsK4 with nmax 15, rmin −1, 20 steps; byte l of each 32 holds elements l (low nibble) and l + 32
// of its 64.
void quantizeBlock(const float* x, BlockQ4_K& b) {
    std::uint8_t L[kQK_K];
    quantizeGroupsK4(x, 15, -1.0f, 20, b, L);
    for (int j = 0; j < kQK_K; j += 64)
        for (int l = 0; l < 32; ++l)
            b.qs[j / 2 + l] = static_cast<std::uint8_t>(L[j + l] | (L[j + l + 32] << 4));
}

// Q5_K: quantizeGroupsK4 with nmax 31, rmin −0.5, 15 steps; nibbles as Q4_K's, and bit 4 of element l + 32·g's quant
// is bit g of qh[l].
void quantizeBlock(const float* x, BlockQ5_K& b) {
    std::uint8_t L[kQK_K];
    quantizeGroupsK4(x, 31, -0.5f, 15, b, L);
    for (int j = 0; j < kQK_K; j += 64) {
        for (int l = 0; l < 32; ++l) {
            const std::uint8_t q0 = L[j + l];
            const std::uint8_t q1 = L[j + l + 32];
            b.qs[j / 2 + l] = static_cast<std::uint8_t>((q0 & 0xF) | ((q1 & 0xF) << 4));
            b.qh[l] |= static_cast<std::uint8_t>(((q0 >> 4) << (j / 32)) | ((q1 >> 4) << (j / 32 + 1)));
        }
    }
}

struct BlockQ6_K {
    static constexpr int kElements = kQK_K;
    std::uint8_t ql[kQK_K / 2];
    std::uint8_t qh[kQK_K / 4];
    std::int8_t scales[16];
    std::uint16_t d;
};
static_assert(sizeof(BlockQ6_K) == 210);

// Q6_K: 16 groups of 16, each fitted by makeQxQuants to a signed scale; the scales rounded to 8 bits of d = −s / 128
// for s the scale of largest magnitude (a block whose s is below kGroupMaxEps is all zeros), then each quant rounded
// again, −32…31, against its group's rounded scale (a group whose rounded scale is 0 keeps the fit's quants), and
// stored biased by 32: in each 128, ql byte l holds elements l and l + 64, byte l + 32 elements l + 32 and l + 96
// (low nibbles), and qh byte l the top two bits of elements l, l + 32, l + 64, l + 96.
void quantizeBlock(const float* x, BlockQ6_K& b) {
    std::uint8_t L[kQK_K];
    float scales[16];
    const float maxScale = fitGroupsOf16(x, L, scales, makeQxQuants);
    const float maxAbsScale = std::fabs(maxScale);
    if (maxAbsScale < kGroupMaxEps)
        return;
    const float iscale = -128.0f / maxScale;
    b.d = toHalf(1 / iscale);
    for (int j = 0; j < 16; ++j)
        b.scales[j] = static_cast<std::int8_t>(std::min(127, nearestInt(iscale * scales[j])));
    const float d = fromHalf(b.d);
    for (int j = 0; j < 16; ++j) {
        const float scale = d * b.scales[j];
        if (scale == 0.0f)
            continue;
        for (int i = 16 * j; i < 16 * j + 16; ++i)
            L[i] = static_cast<std::uint8_t>(std::clamp(nearestInt(x[i] / scale), -32, 31) + 32);
    }
    for (int j = 0; j < kQK_K; j += 128) {
        for (int l = 0; l < 32; ++l) {
            const std::uint8_t* q = L + j + l;
            b.ql[j / 2 + l] = static_cast<std::uint8_t>((q[0] & 0xF) | ((q[64] & 0xF) << 4));
            b.ql[j / 2 + l + 32] = static_cast<std::uint8_t>((q[32] & 0xF) | ((q[96] & 0xF) << 4));
            b.qh[j / 4 + l] = static_cast<std::uint8_t>((q[0] >> 4) | ((q[32] >> 4) << 2) | ((q[64] >> 4) << 4) |
                                                        ((q[96] >> 4) << 6));
        }
    }
}

// Each block is built zeroed (the quantizers write only what is not zero) and copied out: blocks in a row have no
// alignment.
template <class Block> void quantizeBlocks(const float* x, std::uint8_t* out, std::int64_t n) {
    for (std::int64_t i = 0; i < n / Block::kElements; ++i) {
        Block block{};
        quantizeBlock(x + i * Block::kElements, block);
        std::memcpy(out + i * static_cast<std::int64_t>(sizeof(Block)), &block, sizeof(Block));
    }
}

} // namespace

void quantizeRow(kernels::WeightType type, const float* x, std::uint8_t* out, std::int64_t n) {
    using kernels::WeightType;
    switch (type) {
    case WeightType::F32:
        std::memcpy(out, x, static_cast<std::size_t>(n) * sizeof(float));
        return;
    case WeightType::F16:
        return quantizeBlocks<F16Element>(x, out, n);
    case WeightType::BF16:
        return quantizeBlocks<BF16Element>(x, out, n);
    case WeightType::Q8_0:
        return quantizeBlocks<BlockQ8_0>(x, out, n);
    case WeightType::Q4_0:
        return quantizeBlocks<BlockQ4_0>(x, out, n);
    case WeightType::Q4_1:
        return quantizeBlocks<BlockQ4_1>(x, out, n);
    case WeightType::Q5_0:
        return quantizeBlocks<BlockQ5_0>(x, out, n);
    case WeightType::Q5_1:
        return quantizeBlocks<BlockQ5_1>(x, out, n);
    case WeightType::Q2_K:
        return quantizeBlocks<BlockQ2_K>(x, out, n);
    case WeightType::Q3_K:
        return quantizeBlocks<BlockQ3_K>(x, out, n);
    case WeightType::Q4_K:
        return quantizeBlocks<BlockQ4_K>(x, out, n);
    case WeightType::Q5_K:
        return quantizeBlocks<BlockQ5_K>(x, out, n);
    case WeightType::Q6_K:
        return quantizeBlocks<BlockQ6_K>(x, out, n);
    }
}

} // namespace swb::quantization
