#include "formats/GgufDequantize.h"

#include <bit>
#include <cstring>

namespace swb {

namespace {

std::uint16_t load16(const std::uint8_t* p) {
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

// Block layouts (ggml-common.h). Fields are read byte by byte: GGUF data need not be aligned for them.
constexpr int kQK = 32;                                  // Q8_0, Q4_0
constexpr int kQKK = 256;                                // K-quants super-block
constexpr int kQ8_0Bytes = 2 + kQK;                      // half d; int8 qs[32]
constexpr int kQ4_0Bytes = 2 + kQK / 2;                  // half d; uint8 qs[16]
constexpr int kQ4_KBytes = 2 + 2 + 12 + kQKK / 2;        // half d, dmin; uint8 scales[12]; uint8 qs[128]
constexpr int kQ6_KBytes = kQKK / 2 + kQKK / 4 + 16 + 2; // uint8 ql[128], qh[64]; int8 scales[16]; half d

void dequantizeQ8_0(const std::uint8_t* block, float* y) {
    const float d = halfToFloat(load16(block));
    const auto* qs = reinterpret_cast<const std::int8_t*>(block + 2);
    for (int j = 0; j < kQK; ++j)
        y[j] = static_cast<float>(qs[j]) * d;
}

void dequantizeQ4_0(const std::uint8_t* block, float* y) {
    const float d = halfToFloat(load16(block));
    const std::uint8_t* qs = block + 2;
    // Low nibbles are elements 0..15, high nibbles 16..31; both offset by 8.
    for (int j = 0; j < kQK / 2; ++j) {
        y[j] = static_cast<float>((qs[j] & 0x0F) - 8) * d;
        y[j + kQK / 2] = static_cast<float>((qs[j] >> 4) - 8) * d;
    }
}

// The 12 scale bytes of Q4_K pack eight 6-bit scales and eight 6-bit mins (get_scale_min_k4).
void scaleMinK4(int j, const std::uint8_t* q, std::uint8_t& scale, std::uint8_t& min) {
    if (j < 4) {
        scale = q[j] & 63;
        min = q[j + 4] & 63;
    } else {
        scale = static_cast<std::uint8_t>((q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4));
        min = static_cast<std::uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

void dequantizeQ4_K(const std::uint8_t* block, float* y) {
    const float d = halfToFloat(load16(block));
    const float dmin = halfToFloat(load16(block + 2));
    const std::uint8_t* scales = block + 4;
    const std::uint8_t* q = block + 16;
    int is = 0;
    for (int j = 0; j < kQKK; j += 64) {
        std::uint8_t sc;
        std::uint8_t m;
        scaleMinK4(is, scales, sc, m);
        const float d1 = d * sc;
        const float m1 = dmin * m;
        scaleMinK4(is + 1, scales, sc, m);
        const float d2 = d * sc;
        const float m2 = dmin * m;
        for (int l = 0; l < 32; ++l)
            *y++ = d1 * static_cast<float>(q[l] & 0x0F) - m1;
        for (int l = 0; l < 32; ++l)
            *y++ = d2 * static_cast<float>(q[l] >> 4) - m2;
        q += 32;
        is += 2;
    }
}

void dequantizeQ6_K(const std::uint8_t* block, float* y) {
    const std::uint8_t* ql = block;
    const std::uint8_t* qh = block + kQKK / 2;
    const auto* sc = reinterpret_cast<const std::int8_t*>(block + kQKK / 2 + kQKK / 4);
    const float d = halfToFloat(load16(block + kQKK / 2 + kQKK / 4 + 16));
    for (int n = 0; n < kQKK; n += 128) {
        for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            const int q1 = ((ql[l] & 0x0F) | (((qh[l] >> 0) & 3) << 4)) - 32;
            const int q2 = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) - 32;
            const int q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
            const int q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
            y[l] = d * static_cast<float>(sc[is]) * static_cast<float>(q1);
            y[l + 32] = d * static_cast<float>(sc[is + 2]) * static_cast<float>(q2);
            y[l + 64] = d * static_cast<float>(sc[is + 4]) * static_cast<float>(q3);
            y[l + 96] = d * static_cast<float>(sc[is + 6]) * static_cast<float>(q4);
        }
        y += 128;
        ql += 64;
        qh += 32;
        sc += 8;
    }
}

} // namespace

float halfToFloat(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1F;
    const std::uint32_t mantissa = bits & 0x03FF;
    if (exponent == 0) {
        // Zero or subnormal: mantissa × 2^-24, exact in float32.
        const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
        return sign ? -magnitude : magnitude;
    }
    std::uint32_t out;
    if (exponent == 0x1F)
        out = sign | 0x7F800000u | (mantissa << 13); // infinity or NaN
    else
        out = sign | ((exponent + 112) << 23) | (mantissa << 13);
    return std::bit_cast<float>(out);
}

float bfloat16ToFloat(std::uint16_t bits) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

QString ggmlTypeName(std::uint32_t type) {
    switch (type) {
    case GgmlTypeId::F32:
        return QStringLiteral("f32");
    case GgmlTypeId::F16:
        return QStringLiteral("f16");
    case GgmlTypeId::Q4_0:
        return QStringLiteral("q4_0");
    case GgmlTypeId::Q4_1:
        return QStringLiteral("q4_1");
    case GgmlTypeId::Q5_0:
        return QStringLiteral("q5_0");
    case GgmlTypeId::Q5_1:
        return QStringLiteral("q5_1");
    case GgmlTypeId::Q8_0:
        return QStringLiteral("q8_0");
    case GgmlTypeId::Q8_1:
        return QStringLiteral("q8_1");
    case GgmlTypeId::Q2_K:
        return QStringLiteral("q2_k");
    case GgmlTypeId::Q3_K:
        return QStringLiteral("q3_k");
    case GgmlTypeId::Q4_K:
        return QStringLiteral("q4_k");
    case GgmlTypeId::Q5_K:
        return QStringLiteral("q5_k");
    case GgmlTypeId::Q6_K:
        return QStringLiteral("q6_k");
    case GgmlTypeId::Q8_K:
        return QStringLiteral("q8_k");
    case GgmlTypeId::BF16:
        return QStringLiteral("bf16");
    default:
        return QStringLiteral("type %1").arg(type);
    }
}

int ggmlBlockElements(std::uint32_t type) {
    switch (type) {
    case GgmlTypeId::F32:
    case GgmlTypeId::F16:
    case GgmlTypeId::BF16:
        return 1;
    case GgmlTypeId::Q8_0:
    case GgmlTypeId::Q4_0:
        return kQK;
    case GgmlTypeId::Q4_K:
    case GgmlTypeId::Q6_K:
        return kQKK;
    default:
        return 0;
    }
}

int ggmlBlockBytes(std::uint32_t type) {
    switch (type) {
    case GgmlTypeId::F32:
        return 4;
    case GgmlTypeId::F16:
    case GgmlTypeId::BF16:
        return 2;
    case GgmlTypeId::Q8_0:
        return kQ8_0Bytes;
    case GgmlTypeId::Q4_0:
        return kQ4_0Bytes;
    case GgmlTypeId::Q4_K:
        return kQ4_KBytes;
    case GgmlTypeId::Q6_K:
        return kQ6_KBytes;
    default:
        return 0;
    }
}

bool ggmlTypeSupported(std::uint32_t type) {
    return ggmlBlockElements(type) != 0;
}

std::size_t ggmlTensorBytes(std::uint32_t type, std::int64_t elements) {
    const int block = ggmlBlockElements(type);
    if (block == 0 || elements < 0 || elements % block != 0)
        return 0;
    return static_cast<std::size_t>(elements / block) * static_cast<std::size_t>(ggmlBlockBytes(type));
}

bool dequantizeGgml(std::uint32_t type, const void* src, std::int64_t elements, float* dst) {
    const int block = ggmlBlockElements(type);
    if (block == 0 || elements < 0 || elements % block != 0)
        return false;
    const auto* p = static_cast<const std::uint8_t*>(src);
    const std::int64_t blocks = elements / block;
    switch (type) {
    case GgmlTypeId::F32:
        std::memcpy(dst, src, static_cast<std::size_t>(elements) * sizeof(float));
        return true;
    case GgmlTypeId::F16:
        for (std::int64_t i = 0; i < elements; ++i)
            dst[i] = halfToFloat(load16(p + 2 * i));
        return true;
    case GgmlTypeId::BF16:
        for (std::int64_t i = 0; i < elements; ++i)
            dst[i] = bfloat16ToFloat(load16(p + 2 * i));
        return true;
    default:
        break;
    }
    const int bytes = ggmlBlockBytes(type);
    for (std::int64_t b = 0; b < blocks; ++b, p += bytes, dst += block) {
        switch (type) {
        case GgmlTypeId::Q8_0:
            dequantizeQ8_0(p, dst);
            break;
        case GgmlTypeId::Q4_0:
            dequantizeQ4_0(p, dst);
            break;
        case GgmlTypeId::Q4_K:
            dequantizeQ4_K(p, dst);
            break;
        case GgmlTypeId::Q6_K:
            dequantizeQ6_K(p, dst);
            break;
        default:
            return false;
        }
    }
    return true;
}

} // namespace swb
