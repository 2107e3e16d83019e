#include "formats/GgufDequantize.h"

#include <bit>

namespace swb {

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

} // namespace swb
