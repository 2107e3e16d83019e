// F32, F16 and BF16 rows: each element converted exactly to float32 (F16 by F16C where the CPU has it,
// BF16 by a shift), then the fused multiply-add order of KernelSupport.h.

#include "model/kernels/KernelSupport.h"
#include "model/kernels/TypeKernels.h"

namespace swb::kernels {
namespace {

struct F32 {
    static constexpr detail::FloatKind kFloatKind = detail::FloatKind::F32;
};
struct F16 {
    static constexpr detail::FloatKind kFloatKind = detail::FloatKind::F16;
};
struct BF16 {
    static constexpr detail::FloatKind kFloatKind = detail::FloatKind::BF16;
};

} // namespace
} // namespace swb::kernels

#include "model/kernels/KernelTargets.inc"

namespace swb::kernels {

const WeightTraits kF32Traits{"f32", 1, 4, detail::toFloatOf<F32>, detail::dotOf<F32>, detail::dotBatchOf<F32>, false};
const WeightTraits kF16Traits{"f16", 1, 2, detail::toFloatOf<F16>, detail::dotOf<F16>, detail::dotBatchOf<F16>, false};
const WeightTraits kBF16Traits{"bf16", 1, 2, detail::toFloatOf<BF16>, detail::dotOf<BF16>, detail::dotBatchOf<BF16>,
                               false};

} // namespace swb::kernels
