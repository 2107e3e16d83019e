#pragma once

// Shared by the kernel files only: 16-lane vector types, the fixed order every dot product follows, and
// what the generic loops (KernelBody.inc, built for each path by KernelTargets.inc) ask of a type.
//
// The order of operations is the contract: lane l of an accumulator takes elements l, l + 16, …; groups
// alternate between two accumulators (four for plain float rows); lanes are combined by one fixed tree;
// every multiply-add is fused (an FMA instruction where the target has one, fmaf() where it does not:
// the same bits). These files are compiled with -ffp-contract=off so that nothing else is fused.

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <immintrin.h>

#include "model/kernels/WeightType.h"

namespace swb::kernels::detail {

constexpr int kLanes = 16;
using Floats = float __attribute__((vector_size(kLanes * sizeof(float))));
using Bytes16 = std::uint8_t __attribute__((vector_size(16)));
using Bytes32 = std::uint8_t __attribute__((vector_size(32)));

#define SWB_INLINE [[gnu::always_inline]] inline

SWB_INLINE Floats loadFloats(const float* p) {
    Floats v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
SWB_INLINE Bytes32 loadBytes32(const std::uint8_t* p) {
    Bytes32 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
SWB_INLINE void storeBytes32(std::uint8_t* p, Bytes32 v) {
    std::memcpy(p, &v, sizeof v);
}
SWB_INLINE Floats splat(float x) {
    return Floats{} + x;
}

// Lane by lane a * b + c, rounded once (the portable path; the vector paths use FMA instructions).
SWB_INLINE Floats fma(Floats a, Floats b, Floats c) {
    Floats r;
    for (int i = 0; i < kLanes; ++i)
        r[i] = __builtin_fmaf(a[i], b[i], c[i]);
    return r;
}

// The one reduction tree: halves, then quarters, … (as a 512-bit register folds into 256, 128, 64, 32).
SWB_INLINE float reduce(Floats v) {
    float a[8];
    for (int i = 0; i < 8; ++i)
        a[i] = v[i] + v[i + 8];
    for (int i = 0; i < 4; ++i)
        a[i] = a[i] + a[i + 4];
    a[0] = a[0] + a[2];
    a[1] = a[1] + a[3];
    return a[0] + a[1];
}

// The eight 32-bit lanes of an AVX2 register added (integers: in any order, the same sum). Only called
// from functions compiled for AVX2 or wider.
[[gnu::always_inline, gnu::target("avx2")]] inline std::int32_t sumLanes(__m256i v) {
    const __m128i half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    const __m128i quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    return _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 1)));
}

// sumLanes of up to four registers at once (fewer horizontal steps than one sumLanes each): out[r] for
// r < R.
template <int R>
[[gnu::always_inline, gnu::target("avx2")]] inline void sumLanesRows(const __m256i* v, std::int32_t* out) {
    static_assert(R >= 1 && R <= 4);
    if constexpr (R == 1) {
        out[0] = sumLanes(v[0]);
    } else {
        const __m256i zero = _mm256_setzero_si256();
        __m256i high = zero;
        if constexpr (R == 3)
            high = _mm256_hadd_epi32(v[2], zero);
        else if constexpr (R == 4)
            high = _mm256_hadd_epi32(v[2], v[3]);
        const __m256i both = _mm256_hadd_epi32(_mm256_hadd_epi32(v[0], v[1]), high);
        alignas(16) std::int32_t sums[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(sums),
                        _mm_add_epi32(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1)));
        for (int r = 0; r < R; ++r)
            out[r] = sums[r];
    }
}

// Eight float lanes added by the tail of detail::reduce's tree: lanes i and i + 4, then i + 2, then 1.
[[gnu::always_inline, gnu::target("avx2")]] inline float reduce8(__m256 a) {
    const __m128 half = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    const __m128 quarter = _mm_add_ps(half, _mm_movehl_ps(half, half));
    return _mm_cvtss_f32(_mm_add_ss(quarter, _mm_shuffle_ps(quarter, quarter, 1)));
}

// IEEE binary16 to float32, exactly: F16C's vcvtph2ps once inlined into an F16C path, libgcc elsewhere.
SWB_INLINE float halfAt(const std::uint8_t* p) {
    _Float16 h;
    std::memcpy(&h, p, 2);
    return static_cast<float>(h);
}

// A quantized type as the generic loops see it. Each provides:
//   kBlock, kBytes: elements and bytes of a block; kGroup: elements sharing one scale (16 or 32);
//   Quant: int8_t (symmetric: the value is scale · q) or uint8_t with kOffsets (value scale · q − offset);
//   unpack(block, q, scales): the block's quants as bytes, and its groups' scales and offsets as
//   Scales: one float each (a block of one group), or small integers times d and dmin (the K-quants,
//   whose groups' scales are then multiplied out sixteen lanes at a time).
// dot = Σ_groups scale_g · Σ_j q_j x_j − Σ_groups offset_g · Σ_j x_j.
template <class Byte> struct Scales {
    alignas(16) Byte scale[16];       // K-quants: scale_g = d · scale[g] (all 16 set, unused ones 0)
    alignas(16) std::uint8_t min[16]; // K-quants with offsets: offset_g = dmin · min[g] (likewise)
    float d;
    float dmin; // blocks of one group: the offset itself
};

template <class T> SWB_INLINE float groupSum(const float* xSums, std::int64_t element) {
    if constexpr (T::kGroup == 16)
        return xSums[element / 16];
    else
        return xSums[element / 16] + xSums[element / 16 + 1];
}

// Plain float rows: the element encodings the float kernels read.
enum class FloatKind { F32, F16, BF16 };

// The path in use (WeightType.h); read on every call, so tests can switch it.
extern std::atomic<int> g_path;

} // namespace swb::kernels::detail
