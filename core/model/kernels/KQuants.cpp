// The K-quants (ggml-common.h, QK_K = 256 elements a super-block), decoded as ggml's dequantize_row_*.
//   block_q2_K  (84 bytes): uint8_t scales[16]; uint8_t qs[64]; ggml_half d, dmin;
//                           16 groups of 16: value = d·(sc & 15)·q − dmin·(sc >> 4), q 2 bits
//   block_q3_K (110 bytes): uint8_t hmask[32]; uint8_t qs[64]; uint8_t scales[12]; ggml_half d;
//                           16 groups of 16: value = d·(s − 32)·(q − 4·!h), s 6 bits, q 2 bits, h 1 bit
//   block_q4_K (144 bytes): ggml_half d, dmin; uint8_t scales[12]; uint8_t qs[128];
//                           8 groups of 32: value = d·sc·q − dmin·m, sc and m 6 bits, q 4 bits
//   block_q5_K (176 bytes): ggml_half d, dmin; uint8_t scales[12]; uint8_t qh[32]; uint8_t qs[128];
//                           as Q4_K with a fifth bit of q from qh
//   block_q6_K (210 bytes): uint8_t ql[128]; uint8_t qh[64]; int8_t scales[16]; ggml_half d;
//                           16 groups of 16: value = d·sc·(q − 32), q 6 bits
// The 2-bit fields of Q2_K/Q3_K and the nibbles of Q4_K/Q5_K cover 32 consecutive elements per shift.

#include "model/kernels/KernelSupport.h"
#include "model/kernels/TypeKernels.h"

namespace swb::kernels {

namespace {

using detail::Bytes32;
using detail::loadBytes32;
using detail::storeBytes32;

using detail::halfAt;

// The eight 6-bit scales and eight 6-bit mins packed in 12 bytes (Q4_K, Q5_K; ggml's get_scale_min_k4):
// scale j < 4 is the low 6 bits of byte j, min j < 4 of byte j + 4; for j ≥ 4 the low nibble (scale) or high
// nibble (min) of byte j + 4, with the top two bits of byte j − 4 (scale) or j (min) above them.
template <class S> SWB_INLINE void scalesK4(const std::uint8_t* packed, S& s) {
    std::uint32_t u[3];
    std::memcpy(u, packed, 12);
    const std::uint32_t scalesLow = u[0] & 0x3F3F3F3F;
    const std::uint32_t minsLow = u[1] & 0x3F3F3F3F;
    const std::uint32_t scalesHigh = (u[2] & 0x0F0F0F0F) | (((u[0] >> 6) & 0x03030303) << 4);
    const std::uint32_t minsHigh = ((u[2] >> 4) & 0x0F0F0F0F) | (((u[1] >> 6) & 0x03030303) << 4);
    // Each array written by one 16-byte store, so that a 16-byte load of it is forwarded from the store.
    // (SSE2, which every x86-64 has.)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(s.scale),
                     _mm_setr_epi32(static_cast<int>(scalesLow), static_cast<int>(scalesHigh), 0, 0));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(s.min),
                     _mm_setr_epi32(static_cast<int>(minsLow), static_cast<int>(minsHigh), 0, 0));
}

struct Q2_K {
    static constexpr int kBlock = 256, kBytes = 84, kGroup = 16;
    static constexpr bool kOffsets = true, kScaleBytes = true;
    using Quant = std::uint8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b + 80);
        s.dmin = halfAt(b + 82);
        detail::Bytes16 packed;
        std::memcpy(&packed, b, 16);
        const detail::Bytes16 scale = packed & 0x0F;
        const detail::Bytes16 min = packed >> 4;
        std::memcpy(s.scale, &scale, 16);
        std::memcpy(s.min, &min, 16);
        for (int n = 0; n < 2; ++n) {
            const Bytes32 v = loadBytes32(b + 16 + 32 * n);
            for (int j = 0; j < 4; ++j)
                storeBytes32(q + 128 * n + 32 * j, (v >> (2 * j)) & 3);
        }
    }
};

struct Q3_K {
    static constexpr int kBlock = 256, kBytes = 110, kGroup = 16;
    static constexpr bool kOffsets = false, kScaleBytes = true;
    using Quant = std::int8_t;
    using ScaleByte = std::int8_t;
    // unpack<true> leaves the quants biased by +4 (0 … 7), as the fast path's unsigned bytes want them.
    static constexpr int kBias = 4;
    template <bool kBiased = false>
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b + 108);
        // The 16 6-bit scales: low nibbles of bytes 0…7 (then their high nibbles), and as their top two bits
        // scale k takes bits 2·(k / 4) of byte 8 + k % 4. Whole-vector byte operations.
        detail::Bytes16 packed{};
        std::memcpy(&packed, b + 96, 12);
        const detail::Bytes16 low = __builtin_shufflevector(packed & 0x0F, packed >> 4, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17,
                                                            18, 19, 20, 21, 22, 23);
        const detail::Bytes16 top = __builtin_shufflevector(packed, packed, 8, 9, 10, 11, 8, 9, 10, 11, 8, 9, 10, 11, 8,
                                                            9, 10, 11);
        const detail::Bytes16 first = __builtin_shufflevector(top & 3, (top >> 2) & 3, 0, 1, 2, 3, 20, 21, 22, 23, 0, 0,
                                                              0, 0, 0, 0, 0, 0);
        const detail::Bytes16 second = __builtin_shufflevector((top >> 4) & 3, top >> 6, 8, 9, 10, 11, 28, 29, 30, 31,
                                                               0, 0, 0, 0, 0, 0, 0, 0);
        const detail::Bytes16 high = __builtin_shufflevector(first, second, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20,
                                                             21, 22, 23);
        const detail::Bytes16 scales = (low | (high << 4)) - 32;
        std::memcpy(s.scale, &scales, 16);
        const Bytes32 mask = loadBytes32(b);
        for (int n = 0; n < 2; ++n) {
            const Bytes32 v = loadBytes32(b + 32 + 32 * n);
            for (int j = 0; j < 4; ++j) {
                const int k = 4 * n + j; // bit k of the mask, moved to bit 2 by one shift and a mask
                const Bytes32 h = (k <= 2 ? mask << (2 - k) : mask >> (k - 2)) & 4;
                storeBytes32(reinterpret_cast<std::uint8_t*>(q) + 128 * n + 32 * j,
                             (((v >> (2 * j)) & 3) | h) - static_cast<std::uint8_t>(kBiased ? 0 : kBias));
            }
        }
    }
};

struct Q4_K {
    static constexpr int kBlock = 256, kBytes = 144, kGroup = 32;
    static constexpr bool kOffsets = true, kScaleBytes = true;
    using Quant = std::uint8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        s.dmin = halfAt(b + 2);
        scalesK4(b + 4, s);
        for (int j = 0; j < 4; ++j) {
            const Bytes32 v = loadBytes32(b + 16 + 32 * j);
            storeBytes32(q + 64 * j, v & 0x0F);
            storeBytes32(q + 64 * j + 32, v >> 4);
        }
    }
};

struct Q5_K {
    static constexpr int kBlock = 256, kBytes = 176, kGroup = 32;
    static constexpr bool kOffsets = true, kScaleBytes = true;
    using Quant = std::uint8_t;
    using ScaleByte = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b);
        s.dmin = halfAt(b + 2);
        scalesK4(b + 4, s);
        const Bytes32 high = loadBytes32(b + 16);
        // Bit k of `high` moved to bit 4 by one shift and a mask (the mask also drops what a 16-bit shift
        // brings in from the neighbouring byte).
        const auto fifth = [&high](int k) -> Bytes32 { return (k <= 4 ? high << (4 - k) : high >> (k - 4)) & 0x10; };
        for (int j = 0; j < 4; ++j) {
            const Bytes32 v = loadBytes32(b + 48 + 32 * j);
            storeBytes32(q + 64 * j, (v & 0x0F) | fifth(2 * j));
            storeBytes32(q + 64 * j + 32, (v >> 4) | fifth(2 * j + 1));
        }
    }
};

struct Q6_K {
    static constexpr int kBlock = 256, kBytes = 210, kGroup = 16;
    static constexpr bool kOffsets = false, kScaleBytes = true;
    using Quant = std::int8_t;
    using ScaleByte = std::int8_t;
    // unpack<true> leaves the quants biased by +32 (0 … 63), as the fast path's unsigned bytes want them.
    static constexpr int kBias = 32;
    template <bool kBiased = false>
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, detail::Scales<ScaleByte>& s) {
        s.d = halfAt(b + 208);
        std::memcpy(s.scale, b + 192, 16);
        auto* out = reinterpret_cast<std::uint8_t*>(q);
        for (int n = 0; n < 2; ++n) {
            const Bytes32 l0 = loadBytes32(b + 64 * n);
            const Bytes32 l1 = loadBytes32(b + 64 * n + 32);
            const Bytes32 h = loadBytes32(b + 128 + 32 * n);
            // Bits 2k, 2k + 1 of h become bits 4, 5 of quant group k.
            const std::uint8_t bias = kBiased ? 0 : kBias;
            storeBytes32(out + 128 * n, ((l0 & 0x0F) | ((h << 4) & 0x30)) - bias);
            storeBytes32(out + 128 * n + 32, ((l1 & 0x0F) | ((h << 2) & 0x30)) - bias);
            storeBytes32(out + 128 * n + 64, ((l0 >> 4) | (h & 0x30)) - bias);
            storeBytes32(out + 128 * n + 96, ((l1 >> 4) | ((h >> 2) & 0x30)) - bias);
        }
    }
};

} // namespace
} // namespace swb::kernels

#include "model/kernels/KernelTargets.inc"

namespace swb::kernels {
const WeightTraits kQ2_KTraits = detail::quantTraits<Q2_K>("q2_k");
const WeightTraits kQ3_KTraits = detail::quantTraits<Q3_K>("q3_k");
const WeightTraits kQ4_KTraits = detail::quantTraits<Q4_K>("q4_k");
const WeightTraits kQ5_KTraits = detail::quantTraits<Q5_K>("q5_k");
const WeightTraits kQ6_KTraits = detail::quantTraits<Q6_K>("q6_k");
} // namespace swb::kernels
