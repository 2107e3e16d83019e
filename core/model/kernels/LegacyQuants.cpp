// The legacy 4- and 5-bit types (ggml-common.h), 32 elements a block; the quants' low nibbles are
// elements 0…15, their high nibbles 16…31.
//   block_q4_0 (18 bytes): ggml_half d; uint8_t qs[16];                    value = d · (q − 8)
//   block_q4_1 (20 bytes): ggml_half d, m; uint8_t qs[16];                 value = d · q + m
//   block_q5_0 (22 bytes): ggml_half d; uint8_t qh[4]; uint8_t qs[16];     value = d · (q − 16)
//   block_q5_1 (24 bytes): ggml_half d, m; uint8_t qh[4]; uint8_t qs[16];  value = d · q + m
// For Q5, bit j of the little-endian uint32 qh is bit 4 of element j's quant.

#include "model/kernels/KernelSupport.h"
#include "model/kernels/TypeKernels.h"

namespace swb::kernels {

namespace {

using detail::Bytes16;
using detail::Bytes32;

using detail::halfAt;

// The 32 quants of a block as bytes, 4-bit ones from qs (low nibbles first) with, for Q5, bit j of qh as
// bit 4 of element j; `bias` subtracted (8 or 16 for the symmetric types, 0 otherwise). Whole-vector byte
// operations, so that every path compiles them to a few vector instructions.
template <bool kFifthBit>
SWB_INLINE void quants(const std::uint8_t* qs, const std::uint8_t* qhBytes, std::uint8_t bias, std::uint8_t* q) {
    Bytes16 v;
    std::memcpy(&v, qs, 16);
    Bytes32 u = __builtin_shufflevector(v & 0x0F, v >> 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    if constexpr (kFifthBit) {
        Bytes16 h{};
        std::memcpy(&h, qhBytes, 4);
        // Byte j of qh (little endian) repeated for elements 8j … 8j + 7, then each element's own bit.
        const Bytes32 spread = __builtin_shufflevector(h, h, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2,
                                                       2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
        const Bytes32 bit = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128,
                             1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
        u |= reinterpret_cast<Bytes32>((spread & bit) != 0) & 0x10;
    }
    u -= bias;
    std::memcpy(q, &u, 32);
}

struct Q4_0 {
    static constexpr int kBlock = 32, kBytes = 18, kGroup = 32;
    static constexpr bool kOffsets = false, kScaleBytes = false;
    using Quant = std::int8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        quants<false>(b + 2, nullptr, 8, reinterpret_cast<std::uint8_t*>(q));
    }
};

struct Q4_1 {
    static constexpr int kBlock = 32, kBytes = 20, kGroup = 32;
    static constexpr bool kOffsets = true, kScaleBytes = false;
    using Quant = std::uint8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        s.dmin = -halfAt(b + 2);
        quants<false>(b + 4, nullptr, 0, q);
    }
};

struct Q5_0 {
    static constexpr int kBlock = 32, kBytes = 22, kGroup = 32;
    static constexpr bool kOffsets = false, kScaleBytes = false;
    using Quant = std::int8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        quants<true>(b + 6, b + 2, 16, reinterpret_cast<std::uint8_t*>(q));
    }
};

struct Q5_1 {
    static constexpr int kBlock = 32, kBytes = 24, kGroup = 32;
    static constexpr bool kOffsets = true, kScaleBytes = false;
    using Quant = std::uint8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        s.dmin = -halfAt(b + 2);
        quants<true>(b + 8, b + 4, 0, q);
    }
};

} // namespace
} // namespace swb::kernels

#include "model/kernels/KernelTargets.inc"

namespace swb::kernels {
const WeightTraits kQ4_0Traits = detail::quantTraits<Q4_0>("q4_0");
const WeightTraits kQ4_1Traits = detail::quantTraits<Q4_1>("q4_1");
const WeightTraits kQ5_0Traits = detail::quantTraits<Q5_0>("q5_0");
const WeightTraits kQ5_1Traits = detail::quantTraits<Q5_1>("q5_1");
} // namespace swb::kernels
