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

// Scale and min j (0…7) of the 12 packed bytes of Q4_K and Q5_K (get_scale_min_k4).
SWB_INLINE void scaleMinK4(int j, const std::uint8_t* q, int& scale, int& min) {
    if (j < 4) {
        scale = q[j] & 63;
        min = q[j + 4] & 63;
    } else {
        scale = (q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4);
        min = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

struct Q2_K {
    static constexpr int kBlock = 256, kBytes = 84, kGroup = 16;
    static constexpr bool kOffsets = true;
    using Quant = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, float* scale, float* offset) {
        const float d = halfAt(b + 80);
        const float dmin = halfAt(b + 82);
        for (int k = 0; k < 16; ++k) {
            scale[k] = d * static_cast<float>(b[k] & 0x0F);
            offset[k] = dmin * static_cast<float>(b[k] >> 4);
        }
        for (int n = 0; n < 2; ++n) {
            const Bytes32 v = loadBytes32(b + 16 + 32 * n);
            for (int j = 0; j < 4; ++j)
                storeBytes32(q + 128 * n + 32 * j, (v >> (2 * j)) & 3);
        }
    }
};

struct Q3_K {
    static constexpr int kBlock = 256, kBytes = 110, kGroup = 16;
    static constexpr bool kOffsets = false;
    using Quant = std::int8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, float* scale, float*) {
        const float d = halfAt(b + 108);
        // The 16 6-bit scales: low nibbles in bytes 0…7, high 2-bit pairs in bytes 8…11.
        const std::uint8_t* s = b + 96;
        for (int k = 0; k < 16; ++k) {
            const int low = k < 8 ? s[k] & 0x0F : s[k - 8] >> 4;
            const int high = (s[8 + k % 4] >> (2 * (k / 4))) & 3;
            scale[k] = d * static_cast<float>((low | (high << 4)) - 32);
        }
        const Bytes32 mask = loadBytes32(b);
        for (int n = 0; n < 2; ++n) {
            const Bytes32 v = loadBytes32(b + 32 + 32 * n);
            for (int j = 0; j < 4; ++j) {
                const Bytes32 h = (mask >> (4 * n + j)) & 1;
                storeBytes32(reinterpret_cast<std::uint8_t*>(q) + 128 * n + 32 * j,
                             ((v >> (2 * j)) & 3) + (h << 2) - 4);
            }
        }
    }
};

struct Q4_K {
    static constexpr int kBlock = 256, kBytes = 144, kGroup = 32;
    static constexpr bool kOffsets = true;
    using Quant = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, float* scale, float* offset) {
        const float d = halfAt(b);
        const float dmin = halfAt(b + 2);
        for (int k = 0; k < 8; ++k) {
            int sc, m;
            scaleMinK4(k, b + 4, sc, m);
            scale[k] = d * static_cast<float>(sc);
            offset[k] = dmin * static_cast<float>(m);
        }
        for (int j = 0; j < 4; ++j) {
            const Bytes32 v = loadBytes32(b + 16 + 32 * j);
            storeBytes32(q + 64 * j, v & 0x0F);
            storeBytes32(q + 64 * j + 32, v >> 4);
        }
    }
};

struct Q5_K {
    static constexpr int kBlock = 256, kBytes = 176, kGroup = 32;
    static constexpr bool kOffsets = true;
    using Quant = std::uint8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::uint8_t* q, float* scale, float* offset) {
        const float d = halfAt(b);
        const float dmin = halfAt(b + 2);
        for (int k = 0; k < 8; ++k) {
            int sc, m;
            scaleMinK4(k, b + 4, sc, m);
            scale[k] = d * static_cast<float>(sc);
            offset[k] = dmin * static_cast<float>(m);
        }
        const Bytes32 high = loadBytes32(b + 16);
        for (int j = 0; j < 4; ++j) {
            const Bytes32 v = loadBytes32(b + 48 + 32 * j);
            storeBytes32(q + 64 * j, (v & 0x0F) | (((high >> (2 * j)) & 1) << 4));
            storeBytes32(q + 64 * j + 32, (v >> 4) | (((high >> (2 * j + 1)) & 1) << 4));
        }
    }
};

struct Q6_K {
    static constexpr int kBlock = 256, kBytes = 210, kGroup = 16;
    static constexpr bool kOffsets = false;
    using Quant = std::int8_t;
    SWB_INLINE static void unpack(const std::uint8_t* b, std::int8_t* q, float* scale, float*) {
        const float d = halfAt(b + 208);
        for (int k = 0; k < 16; ++k)
            scale[k] = d * static_cast<float>(static_cast<std::int8_t>(b[192 + k]));
        auto* out = reinterpret_cast<std::uint8_t*>(q);
        for (int n = 0; n < 2; ++n) {
            const Bytes32 l0 = loadBytes32(b + 64 * n);
            const Bytes32 l1 = loadBytes32(b + 64 * n + 32);
            const Bytes32 h = loadBytes32(b + 128 + 32 * n);
            storeBytes32(out + 128 * n, ((l0 & 0x0F) | ((h & 3) << 4)) - 32);
            storeBytes32(out + 128 * n + 32, ((l1 & 0x0F) | (((h >> 2) & 3) << 4)) - 32);
            storeBytes32(out + 128 * n + 64, ((l0 >> 4) | (((h >> 4) & 3) << 4)) - 32);
            storeBytes32(out + 128 * n + 96, ((l1 >> 4) | (((h >> 6) & 3) << 4)) - 32);
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
