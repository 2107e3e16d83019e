#include "formats/GgufDequantize.h"

namespace swb {

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
