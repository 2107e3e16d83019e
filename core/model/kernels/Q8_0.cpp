// Q8_0 (ggml-common.h, block_q8_0): 32 elements in 34 bytes.
//   ggml_half d; int8_t qs[32];        value j = d · qs[j]

#include "model/kernels/KernelSupport.h"
#include "model/kernels/TypeKernels.h"

namespace swb::kernels {

namespace {

struct Q8_0 {
    static constexpr int kBlock = 32, kBytes = 34, kGroup = 32;
    static constexpr bool kOffsets = false, kScaleBytes = false;
    using Quant = std::int8_t;
    using ScaleByte = std::uint8_t;
    static constexpr int kQuantsAt = 2; // the quants are read in place; only the scale is unpacked
    SWB_INLINE static void unpackScales(const std::uint8_t* b, detail::Scales<ScaleByte>& s) {
        s.d = detail::halfAt(b);
    }
};

} // namespace
} // namespace swb::kernels

#include "model/kernels/KernelTargets.inc"

namespace swb::kernels {
const WeightTraits kQ8_0Traits = detail::quantTraits<Q8_0>("q8_0");
} // namespace swb::kernels
