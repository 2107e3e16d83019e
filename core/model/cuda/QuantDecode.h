#pragma once

// ggml's Q8_0 and Q4_K blocks read one weight at a time, and a row's product with a vector summed the way
// the CUDA kernels (QuantMatVec.cu) sum it: the code both the kernels and the CPU tests compile, so that the
// device's arithmetic is checked against the CPU kernels on a machine without a GPU.
//   - Each weight is what the CPU kernels decode (kernels::traits(type).toFloat): scale · q − offset, with
//     scale = d · sc and offset = dmin · m taken in float32.
//   - A row's product: 32 lanes, lane l summing weights l, l + 32, l + 64, … with fused multiply-adds, then
//     the warp's butterfly (lane l adds lane l ^ 16, then ^ 8, ^ 4, ^ 2, ^ 1).
// Nothing here is fused or reordered by the compiler: the kernels build with -fmad=false, and the host
// functions with fp-contract off.

#include <cmath>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define SWB_HOST_DEVICE __host__ __device__
#define SWB_NO_CONTRACT
#else
#define SWB_HOST_DEVICE
#define SWB_NO_CONTRACT [[gnu::optimize("fp-contract=off")]]
#endif

namespace swb::cuda {

// IEEE binary16 to float32, exactly, from its two bytes (little-endian).
SWB_HOST_DEVICE inline float halfToFloat(const std::uint8_t* p) {
    const std::uint32_t h = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8);
    const std::uint32_t sign = (h & 0x8000u) << 16;
    std::uint32_t exponent = (h >> 10) & 0x1Fu;
    std::uint32_t mantissa = h & 0x3FFu;
    std::uint32_t bits = sign;
    if (exponent == 0x1F) {
        bits |= 0x7F800000u | (mantissa << 13); // infinity, NaN
    } else if (exponent != 0) {
        bits |= ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa != 0) { // subnormal: mantissa · 2^-24, normalised
        exponent = 113;
        while (!(mantissa & 0x400u)) {
            mantissa <<= 1;
            --exponent;
        }
        bits |= (exponent << 23) | ((mantissa & 0x3FFu) << 13);
    }
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
#endif
}

// block_q8_0: ggml_half d; int8_t qs[32]. Weight i = d · qs[i].
struct Q8_0Blocks {
    static constexpr int kBlock = 32, kBytes = 34;
    SWB_HOST_DEVICE SWB_NO_CONTRACT static float weight(const std::uint8_t* row, std::int64_t i) {
        const std::uint8_t* block = row + (i / kBlock) * kBytes;
        const auto q = static_cast<std::int8_t>(block[2 + i % kBlock]);
        return static_cast<float>(q) * halfToFloat(block);
    }
};

// block_q4_K: ggml_half d, dmin; uint8_t scales[12]; uint8_t qs[128]. Eight groups of 32 with 6-bit scales
// and mins (ggml's get_scale_min_k4); quants in 4 runs of 32 bytes, the low nibbles the first 32 weights of a
// run of 64 and the high nibbles the next 32. Weight i = (d · sc) · q − (dmin · m).
struct Q4_KBlocks {
    static constexpr int kBlock = 256, kBytes = 144;
    SWB_HOST_DEVICE SWB_NO_CONTRACT static float weight(const std::uint8_t* row, std::int64_t i) {
        const std::uint8_t* block = row + (i / kBlock) * kBytes;
        const int e = static_cast<int>(i % kBlock);
        const int g = e / 32;
        const std::uint8_t* s = block + 4;
        const int sc = g < 4 ? s[g] & 63 : (s[g + 4] & 0xF) | ((s[g - 4] >> 6) << 4);
        const int m = g < 4 ? s[g + 4] & 63 : (s[g + 4] >> 4) | ((s[g] >> 6) << 4);
        const std::uint8_t byte = block[16 + 32 * (e / 64) + e % 32];
        const int q = (e % 64) < 32 ? byte & 0xF : byte >> 4;
        const float scale = halfToFloat(block) * static_cast<float>(sc);
        const float offset = halfToFloat(block + 2) * static_cast<float>(m);
        return static_cast<float>(q) * scale - offset;
    }
};

constexpr int kWarp = 32;

// Lane `lane`'s share of a row's product with x (n elements): weights lane, lane + 32, … in order.
template <class Blocks>
SWB_HOST_DEVICE SWB_NO_CONTRACT inline float lanePartial(const std::uint8_t* row, const float* x, std::int64_t n,
                                                         int lane) {
    float sum = 0.0f;
    for (std::int64_t i = lane; i < n; i += kWarp)
        sum = fmaf(Blocks::weight(row, i), x[i], sum);
    return sum;
}

#if !defined(__CUDA_ARCH__)
// The row's product as the kernel's warp gives it: every lane's share, then the butterfly.
template <class Blocks> SWB_NO_CONTRACT float warpRowDot(const std::uint8_t* row, const float* x, std::int64_t n) {
    float lanes[kWarp];
    for (int l = 0; l < kWarp; ++l)
        lanes[l] = lanePartial<Blocks>(row, x, n, l);
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
        float next[kWarp];
        for (int l = 0; l < kWarp; ++l)
            next[l] = lanes[l] + lanes[l ^ offset];
        std::memcpy(lanes, next, sizeof lanes);
    }
    return lanes[0];
}
#endif

} // namespace swb::cuda
