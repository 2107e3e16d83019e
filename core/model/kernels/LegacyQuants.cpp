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

using detail::halfAt;

// The 32 nibbles of qs, low ones first, each with `high` added where qh has its bit (Q5).
SWB_INLINE void nibbles(const std::uint8_t* qs, std::uint8_t* q) {
    Bytes16 v;
    std::memcpy(&v, qs, 16);
    const Bytes16 lo = v & 0x0F;
    const Bytes16 hi = v >> 4;
    std::memcpy(q, &lo, 16);
    std::memcpy(q + 16, &hi, 16);
}

SWB_INLINE void fifthBits(const std::uint8_t* qhBytes, std::uint8_t* q) {
    std::uint32_t qh;
    std::memcpy(&qh, qhBytes, 4);
    for (int j = 0; j < 32; ++j)
        q[j] = static_cast<std::uint8_t>(q[j] | (((qh >> j) & 1u) << 4));
}

struct Q4_0 {
    static constexpr int kBlock = 32, kBytes = 18, kGroup = 32;
    static constexpr bool kOffsets = false, kScaleBytes = false;
    using Quant = std::int8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        std::uint8_t u[32];
        nibbles(b + 2, u);
        for (int j = 0; j < 32; ++j)
            q[j] = static_cast<std::int8_t>(u[j] - 8);
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
        nibbles(b + 4, q);
    }
};

struct Q5_0 {
    static constexpr int kBlock = 32, kBytes = 22, kGroup = 32;
    static constexpr bool kOffsets = false, kScaleBytes = false;
    using Quant = std::int8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        std::uint8_t u[32];
        nibbles(b + 6, u);
        fifthBits(b + 2, u);
        for (int j = 0; j < 32; ++j)
            q[j] = static_cast<std::int8_t>(u[j] - 16);
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
        nibbles(b + 8, q);
        fifthBits(b + 4, q);
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
