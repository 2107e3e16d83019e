#include "sampling/Kernels.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include <immintrin.h>

namespace swb::kernels {

namespace {

// 8 lanes: one AVX2 register, two SSE2 registers. The same arithmetic in the same order on each, so
// every build and CPU gets the same bits. (16-lane vectors would suit AVX-512, but GCC 12 lowers their
// comparisons to scalar code whenever a vector has to be split across smaller registers.)
constexpr std::size_t kLanes = 8;
using Floats = float __attribute__((vector_size(kLanes * sizeof(float))));
using Ints = std::int32_t __attribute__((vector_size(kLanes * sizeof(std::int32_t))));
using Ints4 = std::int32_t __attribute__((vector_size(4 * sizeof(std::int32_t))));
using Shorts = std::int16_t __attribute__((vector_size(kLanes * sizeof(std::int16_t))));
using UShorts = std::uint16_t __attribute__((vector_size(kLanes * sizeof(std::uint16_t))));
using Bytes = std::uint8_t __attribute__((vector_size(kLanes)));

// Sums run in float lanes over blocks of this many items, each block added to a double total.
constexpr std::size_t kBlock = 2048;
// Shorter arrays are summed in double, in order.
constexpr std::size_t kShort = 64;

[[gnu::always_inline]] inline Floats load(const float* p) {
    Floats v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

[[gnu::always_inline]] inline void store(float* p, Floats v) {
    std::memcpy(p, &v, sizeof v);
}

[[gnu::always_inline]] inline Floats splat(float x) {
    return Floats{} + x;
}

[[gnu::always_inline]] inline bool anyLane(Ints mask) {
    const Ints4 half = __builtin_shufflevector(mask, mask, 0, 1, 2, 3) | __builtin_shufflevector(mask, mask, 4, 5, 6, 7);
    return (half[0] | half[1] | half[2] | half[3]) != 0;
}

// Note for writing these loops: GCC 12 vectorises one float comparison feeding a select, and any
// integer comparison, but falls back to scalar code for float `!=` and for masks combined with | or &.

[[gnu::always_inline]] inline Floats maxOf(Floats a, Floats b) {
    return a < b ? b : a;
}

// Lanes that hold a NaN are -1 (the exponent all ones and a nonzero mantissa), by integer compare.
[[gnu::always_inline]] inline Ints isNaN(Floats v) {
    return (std::bit_cast<Ints>(v) & 0x7FFFFFFF) > 0x7F800000;
}

[[gnu::always_inline]] inline float reduceMax(Floats v) {
    float best = v[0];
    for (std::size_t j = 1; j < kLanes; ++j)
        best = best < v[j] ? v[j] : best;
    return best;
}

// The maximum of the lane accumulators and the tail, or NaN if a NaN was seen.
[[gnu::always_inline]] inline float finishMax(Floats best, Ints nan, const float* tail, std::size_t count) {
    float result = reduceMax(best);
    bool sawNaN = anyLane(nan);
    for (std::size_t i = 0; i < count; ++i) {
        result = result < tail[i] ? tail[i] : result;
        sawNaN = sawNaN || std::isnan(tail[i]);
    }
    return sawNaN ? NAN : result;
}

[[gnu::always_inline]] inline float reduceSum(Floats v) {
    float total = 0.0f;
    for (std::size_t j = 0; j < kLanes; ++j)
        total += v[j];
    return total;
}

// exp(x) for x <= 0; 0 below -87 (where float exp underflows anyway). Cody-Waite range reduction and
// the Cephes expf polynomial. One template for the scalar and the vector forms: the same operations in
// the same order, so a token's value does not depend on whether it fell in a vector or in a tail.
template <typename V, typename I> [[gnu::always_inline]] inline V expNonPositive(V x) {
    const V floor = V{} + -87.0f;
    const V clamped = x < floor ? floor : x;
    // n = round(x / ln 2) with the 1.5 * 2^23 trick, which also leaves n in the low mantissa bits.
    const V shifted = clamped * 1.44269504088896341f + 12582912.0f;
    const auto bits = std::bit_cast<I>(shifted);
    const V n = shifted - 12582912.0f;
    V r = clamped - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    const V z = r * r;
    V p = V{} + 1.9875691500E-4f;
    p = p * r + 1.3981999507E-3f;
    p = p * r + 8.3334519073E-3f;
    p = p * r + 4.1665795894E-2f;
    p = p * r + 1.6666665459E-1f;
    p = p * r + 5.0000001201E-1f;
    p = p * z + r + 1.0f;
    const I exponent = (bits - 0x4B400000 + 127) << 23;
    const V value = p * std::bit_cast<V>(exponent);
    return x < floor ? V{} : value;
}

[[gnu::always_inline]] inline float expNonPositive(float x) {
    return expNonPositive<float, std::int32_t>(x);
}

} // namespace

namespace {

std::atomic<bool>& avx512Paths() {
    static std::atomic<bool> enabled{__builtin_cpu_supports("avx512f") != 0};
    return enabled;
}

} // namespace

[[gnu::target_clones("avx2", "default")]] float maxOf(const float* x, std::size_t n) {
    if (n < kLanes)
        return finishMax(splat(-INFINITY), Ints{}, x, n);
    // Two accumulators hide the compare-and-select latency.
    Floats best0 = load(x);
    Floats best1 = best0;
    Ints nan = isNaN(best0);
    std::size_t i = kLanes;
    for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
        const Floats a = load(x + i);
        const Floats b = load(x + i + kLanes);
        best0 = maxOf(best0, a);
        best1 = maxOf(best1, b);
        nan |= isNaN(a) | isNaN(b);
    }
    return finishMax(maxOf(best0, best1), nan, x + i, n - i);
}

void useAvx512(bool on) {
    avx512Paths().store(on && __builtin_cpu_supports("avx512f"));
}

bool avx512InUse() {
    return avx512Paths().load();
}

namespace {

using Floats16 = float __attribute__((vector_size(2 * kLanes * sizeof(float))));
using Ints16 = std::int32_t __attribute__((vector_size(2 * kLanes * sizeof(std::int32_t))));

// expShift's body. Wide: the exponentials 16 at a time in AVX-512 registers; each value is computed by
// the same operations as in the 8-lane form, and the two halves go into the same 8 accumulator lanes
// in the same order, so the results are identical bit for bit.
template <bool Wide>
[[gnu::always_inline]] inline void expShiftBlocks(const float* x, float* out, std::size_t n, float shift, double* sum,
                                                  double* weightedSum) {
    double total = 0.0;
    double totalWeighted = 0.0;
    const Floats floor = splat(-87.0f);
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t end = std::min(n, start + kBlock);
        const std::size_t full = start + (end - start) / kLanes * kLanes;
        Floats s{};
        Floats w{};
        std::size_t i = start;
        if constexpr (Wide) {
            const Floats16 floor16 = Floats16{} + -87.0f;
            for (; i + 2 * kLanes <= full; i += 2 * kLanes) {
                Floats16 d;
                std::memcpy(&d, x + i, sizeof d);
                d = d - shift;
                const Floats16 e = expNonPositive<Floats16, Ints16>(d);
                std::memcpy(out + i, &e, sizeof e);
                const Floats16 we = e * (d < floor16 ? floor16 : d);
                s += __builtin_shufflevector(e, e, 0, 1, 2, 3, 4, 5, 6, 7);
                w += __builtin_shufflevector(we, we, 0, 1, 2, 3, 4, 5, 6, 7);
                s += __builtin_shufflevector(e, e, 8, 9, 10, 11, 12, 13, 14, 15);
                w += __builtin_shufflevector(we, we, 8, 9, 10, 11, 12, 13, 14, 15);
            }
        }
        for (; i < full; i += kLanes) {
            const Floats d = load(x + i) - shift;
            const Floats e = expNonPositive<Floats, Ints>(d);
            store(out + i, e);
            s += e;
            w += e * (d < floor ? floor : d);
        }
        float blockSum = reduceSum(s);
        float blockWeighted = reduceSum(w);
        for (; i < end; ++i) {
            const float d = x[i] - shift;
            const float e = expNonPositive(d);
            out[i] = e;
            blockSum += e;
            blockWeighted += e * (d < -87.0f ? -87.0f : d);
        }
        total += blockSum;
        totalWeighted += blockWeighted;
    }
    *sum = total;
    *weightedSum = totalWeighted;
}

[[gnu::target("avx512f")]] void expShiftAvx512(const float* x, float* out, std::size_t n, float shift, double* sum,
                                               double* weightedSum) {
    expShiftBlocks<true>(x, out, n, shift, sum, weightedSum);
}

[[gnu::target_clones("avx2", "default")]] void expShiftNarrow(const float* x, float* out, std::size_t n, float shift,
                                                              double* sum, double* weightedSum) {
    expShiftBlocks<false>(x, out, n, shift, sum, weightedSum);
}

} // namespace

void expShift(const float* x, float* out, std::size_t n, float shift, double* sum, double* weightedSum) {
    if (avx512Paths().load())
        expShiftAvx512(x, out, n, shift, sum, weightedSum);
    else
        expShiftNarrow(x, out, n, shift, sum, weightedSum);
}

namespace {

// One block's sum: two float accumulators (even and odd vectors), combined lane by lane, then the
// lanes in order, then the block's tail.
template <bool Scale>
[[gnu::always_inline]] inline float blockSum(float* x, std::size_t start, std::size_t end, float factor) {
    const std::size_t pairs = start + (end - start) / (2 * kLanes) * (2 * kLanes);
    Floats even{};
    Floats odd{};
    std::size_t i = start;
    for (; i < pairs; i += 2 * kLanes) {
        Floats a = load(x + i);
        Floats b = load(x + i + kLanes);
        if constexpr (Scale) {
            a *= factor;
            b *= factor;
            store(x + i, a);
            store(x + i + kLanes, b);
        }
        even += a;
        odd += b;
    }
    float value = reduceSum(even + odd);
    for (; i < end; ++i) {
        if constexpr (Scale)
            x[i] *= factor;
        value += x[i];
    }
    return value;
}

// The blocked sum shared by sum() and scaleAndSum(); drawFromDense() forms the same block sums.
template <bool Scale> [[gnu::always_inline]] inline double blockedSum(float* x, std::size_t n, float factor) {
    if (n <= kShort) {
        double total = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            if constexpr (Scale)
                x[i] *= factor;
            total += x[i];
        }
        return total;
    }
    double total = 0.0;
    for (std::size_t start = 0; start < n; start += kBlock)
        total += blockSum<Scale>(x, start, std::min(n, start + kBlock), factor);
    return total;
}

} // namespace

[[gnu::target_clones("avx2", "default")]] std::size_t drawFromDense(const float* p, std::size_t n, double u) {
    // Block sums exactly as sum() forms them for a long array, then the crossing block walked in order.
    const std::size_t blocks = (n + kBlock - 1) / kBlock;
    std::vector<float> blockSum(blocks);
    double total = 0.0;
    for (std::size_t block = 0; block < blocks; ++block) {
        const std::size_t start = block * kBlock;
        blockSum[block] = kernels::blockSum<false>(const_cast<float*>(p), start, std::min(n, start + kBlock), 1.0f);
        total += blockSum[block];
    }
    const double target = u * total;
    double before = 0.0;
    std::size_t lastPositive = n;
    for (std::size_t block = 0; block < blocks; ++block) {
        if (blockSum[block] <= 0.0f)
            continue;
        const std::size_t start = block * kBlock;
        const std::size_t end = std::min(n, start + kBlock);
        if (before + blockSum[block] > target || block + 1 == blocks) {
            double cumulative = before;
            for (std::size_t i = start; i < end; ++i) {
                if (p[i] <= 0.0f)
                    continue;
                cumulative += p[i];
                lastPositive = i;
                if (cumulative > target)
                    return i;
            }
            if (before + blockSum[block] > target)
                return lastPositive; // the item-by-item sum rounded just below the block's
        }
        before += blockSum[block];
    }
    if (lastPositive == n) // the last block had no mass: the last positive item before it
        for (std::size_t i = n; i-- > 0;)
            if (p[i] > 0.0f)
                return i;
    return lastPositive;
}

[[gnu::target_clones("avx2", "default")]] double sum(const float* x, std::size_t n) {
    return blockedSum<false>(const_cast<float*>(x), n, 1.0f); // reads only
}

[[gnu::target_clones("avx2", "default")]] double scaleAndSum(float* x, std::size_t n, float factor) {
    return blockedSum<true>(x, n, factor);
}

[[gnu::target_clones("avx2", "default")]] std::size_t findNotBelow(const float* x, std::size_t from, std::size_t n,
                                                                   float threshold) {
    const Floats limit = splat(threshold);
    std::size_t i = from;
    // The maximum of four vectors against the threshold: one horizontal test per 64 items.
    for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
        const Floats top = maxOf(maxOf(load(x + i), load(x + i + kLanes)),
                                 maxOf(load(x + i + 2 * kLanes), load(x + i + 3 * kLanes)));
        if (anyLane(top >= limit))
            break;
    }
    for (; i < n; ++i)
        if (x[i] >= threshold)
            return i;
    return n;
}

[[gnu::target_clones("avx2", "default")]] std::size_t countGreater(const float* x, std::size_t n, float value) {
    const Floats limit = splat(value);
    Ints counts{};
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        counts -= load(x + i) > limit; // a true lane is -1
    std::size_t count = 0;
    for (std::size_t j = 0; j < kLanes; ++j)
        count += static_cast<std::uint32_t>(counts[j]);
    for (; i < n; ++i)
        count += x[i] > value ? 1 : 0;
    return count;
}


[[gnu::target_clones("avx2", "default")]] void bucketIndices(const float* x, std::size_t n, float top,
                                                                         float scale, std::uint16_t last,
                                                                         std::uint16_t* out) {
    const float limit = static_cast<float>(last);
    const Floats upper = splat(limit);
    const Floats zero{};
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        Floats offset = (top - load(x + i)) * scale;
        offset = offset < upper ? offset : upper;
        offset = offset > zero ? offset : zero; // also maps NaN to 0
        const UShorts buckets = __builtin_convertvector(__builtin_convertvector(offset, Ints), UShorts);
        std::memcpy(out + i, &buckets, sizeof buckets);
    }
    for (; i < n; ++i) {
        float offset = (top - x[i]) * scale;
        offset = offset < limit ? offset : limit;
        offset = offset > 0.0f ? offset : 0.0f;
        out[i] = static_cast<std::uint16_t>(static_cast<std::int32_t>(offset));
    }
}

[[gnu::target_clones("avx2", "default")]] std::size_t flagBuckets(const std::uint16_t* bucket, std::size_t n,
                                                                   std::uint16_t boundary, std::uint8_t* keep,
                                                                   std::uint32_t* edge, std::size_t* edgeCount) {
    Ints counts{};
    std::size_t edges = 0;
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        UShorts b;
        std::memcpy(&b, bucket + i, sizeof b);
        const Shorts below = b < boundary; // -1 where kept
        counts -= __builtin_convertvector(below, Ints);
        const Bytes flags = __builtin_convertvector(below & 1, Bytes);
        std::memcpy(keep + i, &flags, sizeof flags);
        const auto atBoundary = std::bit_cast<std::array<std::uint64_t, 2>>(b == boundary);
        if ((atBoundary[0] | atBoundary[1]) != 0)
            for (std::size_t j = 0; j < kLanes; ++j)
                if (bucket[i + j] == boundary)
                    edge[edges++] = static_cast<std::uint32_t>(i + j);
    }
    std::size_t count = 0;
    for (std::size_t j = 0; j < kLanes; ++j)
        count += static_cast<std::uint32_t>(counts[j]);
    for (; i < n; ++i) {
        keep[i] = bucket[i] < boundary ? 1 : 0;
        count += keep[i];
        if (bucket[i] == boundary)
            edge[edges++] = static_cast<std::uint32_t>(i);
    }
    *edgeCount = edges;
    return count;
}

[[gnu::target_clones("avx2", "default")]] float minOf(const float* x, std::size_t n) {
    Floats best = splat(INFINITY);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
        const Floats v = load(x + i);
        best = v < best ? v : best;
    }
    float result = INFINITY;
    for (std::size_t j = 0; j < kLanes; ++j)
        result = best[j] < result ? best[j] : result;
    for (; i < n; ++i)
        result = x[i] < result ? x[i] : result;
    return result;
}

namespace {

// For each 8-bit keep mask, the lanes to gather so that the kept ones come first, in order.
struct CompressTable {
    alignas(32) std::uint32_t lanes[256][8];
};

constexpr CompressTable makeCompressTable() {
    CompressTable table{};
    for (std::uint32_t mask = 0; mask < 256; ++mask) {
        std::uint32_t next = 0;
        for (std::uint32_t lane = 0; lane < 8; ++lane)
            if (mask & (1u << lane))
                table.lanes[mask][next++] = lane;
    }
    return table;
}

constexpr CompressTable kCompress = makeCompressTable();

// The items of a chunk are loaded before the chunk's kept ones are stored at out <= i, and the store
// ends before the next chunk begins, so compaction in place is safe.
[[gnu::target("avx2,popcnt")]] std::size_t compactAvx2(const std::uint8_t* keep, std::size_t n,
                                                       const std::int32_t* idsIn, std::int32_t* ids,
                                                       const float* aIn, float* a, float* b, std::size_t& done) {
    std::size_t out = 0;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i flags = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(keep + i));
        const auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpgt_epi8(flags, _mm_setzero_si128()))) & 0xFFu;
        const __m256i order = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompress.lanes[mask]));
        const __m256i idVector = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idsIn + i));
        const __m256 aVector = _mm256_loadu_ps(aIn + i);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(ids + out), _mm256_permutevar8x32_epi32(idVector, order));
        _mm256_storeu_ps(a + out, _mm256_permutevar8x32_ps(aVector, order));
        if (b) {
            const __m256 bVector = _mm256_loadu_ps(b + i);
            _mm256_storeu_ps(b + out, _mm256_permutevar8x32_ps(bVector, order));
        }
        out += static_cast<std::size_t>(_mm_popcnt_u32(mask));
    }
    done = i;
    return out;
}

} // namespace

std::size_t compact(const std::uint8_t* keep, std::size_t n, const std::int32_t* idsIn, std::int32_t* ids,
                    const float* aIn, float* a, float* b) {
    static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    std::size_t out = 0;
    std::size_t i = 0;
    if (avx2)
        out = compactAvx2(keep, n, idsIn, ids, aIn, a, b, i);
    // Branch-free: every item is written to the next free slot, which advances only for kept ones
    // (the slot never passes the item being read, so this works in place).
    for (; i < n; ++i) {
        ids[out] = idsIn[i];
        a[out] = aIn[i];
        if (b)
            b[out] = b[i];
        out += keep[i];
    }
    return out;
}

} // namespace swb::kernels
