#include "sampling/Kernels.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>
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

[[gnu::always_inline]] inline float reduceSum(Floats v) {
    float total = 0.0f;
    for (std::size_t j = 0; j < kLanes; ++j)
        total += v[j];
    return total;
}

// 16 lanes: expShift() on AVX-512 only.
using Floats16 = float __attribute__((vector_size(2 * kLanes * sizeof(float))));
using Ints16 = std::int32_t __attribute__((vector_size(2 * kLanes * sizeof(std::int32_t))));

// a * b + c with one rounding (fused), lane by lane: the vectoriser turns the lanes into FMA
// instructions where the function's target has them; elsewhere fmaf() computes the same bits.
template <typename V> [[gnu::always_inline]] inline V mulAdd(V a, V b, V c) {
    if constexpr (std::is_same_v<V, float>) {
        return __builtin_fmaf(a, b, c);
    } else {
        V r;
        for (std::size_t j = 0; j < sizeof(V) / sizeof(float); ++j)
            r[j] = __builtin_fmaf(a[j], b[j], c[j]);
        return r;
    }
}

// exp(x) for x <= 0; 0 below -87 (where float exp underflows anyway). Cody-Waite range reduction and
// the Cephes expf polynomial, in fused multiply-adds. One template for the scalar and the vector forms:
// the same operations in the same order, so a token's value does not depend on whether it fell in a
// vector or in a tail, or on the instruction set.
template <typename V, typename I> [[gnu::always_inline]] inline V expNonPositive(V x) {
    const V floor = V{} + -87.0f;
    const V clamped = x < floor ? floor : x;
    // n = round(x / ln 2) with the 1.5 * 2^23 trick, which also leaves n in the low mantissa bits.
    const V shifted = mulAdd(clamped, V{} + 1.44269504088896341f, V{} + 12582912.0f);
    const auto bits = std::bit_cast<I>(shifted);
    const V n = shifted - 12582912.0f;
    V r = mulAdd(n, V{} + -0.693359375f, clamped);
    r = mulAdd(n, V{} + 2.12194440e-4f, r);
    const V z = r * r;
    V p = V{} + 1.9875691500E-4f;
    p = mulAdd(p, r, V{} + 1.3981999507E-3f);
    p = mulAdd(p, r, V{} + 8.3334519073E-3f);
    p = mulAdd(p, r, V{} + 4.1665795894E-2f);
    p = mulAdd(p, r, V{} + 1.6666665459E-1f);
    p = mulAdd(p, r, V{} + 5.0000001201E-1f);
    p = mulAdd(p, z, r) + 1.0f;
    const I exponent = (bits - 0x4B400000 + 127) << 23;
    const V value = p * std::bit_cast<V>(exponent);
    return x < floor ? V{} : value;
}

[[gnu::always_inline]] inline float expNonPositive(float x) {
    return expNonPositive<float, std::int32_t>(x);
}

std::atomic<bool>& avx512Paths() {
    static std::atomic<bool> enabled{__builtin_cpu_supports("avx512f") != 0};
    return enabled;
}

// The hand-written AVX2 gathers (bucketSelect, splitAtBoundary, compact); tests switch them off to
// run the portable loops.
std::atomic<bool>& avx2Gathers() {
    static std::atomic<bool> enabled{__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt")};
    return enabled;
}

} // namespace

void useAvx512(bool on) {
    avx512Paths().store(on && __builtin_cpu_supports("avx512f"));
}

bool avx512InUse() {
    return avx512Paths().load();
}

void useAvx2Gathers(bool on) {
    avx2Gathers().store(on && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"));
}

bool avx2GathersInUse() {
    return avx2Gathers().load(std::memory_order_relaxed);
}

namespace {

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

[[gnu::target("avx512f,fma")]] void expShiftAvx512(const float* x, float* out, std::size_t n, float shift,
                                                   double* sum, double* weightedSum) {
    expShiftBlocks<true>(x, out, n, shift, sum, weightedSum);
}

[[gnu::target("avx2,fma")]] void expShiftAvx2(const float* x, float* out, std::size_t n, float shift, double* sum,
                                              double* weightedSum) {
    expShiftBlocks<false>(x, out, n, shift, sum, weightedSum);
}

// Without FMA instructions (CPUs before 2013) fmaf() does the fused steps in software: slower, same bits.
void expShiftPortable(const float* x, float* out, std::size_t n, float shift, double* sum, double* weightedSum) {
    expShiftBlocks<false>(x, out, n, shift, sum, weightedSum);
}

} // namespace

void expShift(const float* x, float* out, std::size_t n, float shift, double* sum, double* weightedSum) {
    static const bool fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (avx512Paths().load())
        expShiftAvx512(x, out, n, shift, sum, weightedSum);
    else if (fma)
        expShiftAvx2(x, out, n, shift, sum, weightedSum);
    else
        expShiftPortable(x, out, n, shift, sum, weightedSum);
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

[[gnu::target_clones("avx2", "default")]] double scaleAndWeigh(float* p, const float* x, std::size_t n, float factor,
                                                                   float shift, double* weightedSum) {
    const double total = blockedSum<true>(p, n, factor); // exactly as scaleAndSum()
    double totalWeighted = 0.0;
    const Floats floor = splat(-87.0f);
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t end = std::min(n, start + kBlock);
        const std::size_t full = start + (end - start) / kLanes * kLanes;
        Floats w{};
        std::size_t i = start;
        for (; i < full; i += kLanes) {
            const Floats d = load(x + i) - shift;
            w += load(p + i) * (d < floor ? floor : d);
        }
        float blockWeighted = reduceSum(w);
        for (; i < end; ++i) {
            const float d = x[i] - shift;
            blockWeighted += p[i] * (d < -87.0f ? -87.0f : d);
        }
        totalWeighted += blockWeighted;
    }
    *weightedSum = totalWeighted;
    return total;
}

[[gnu::target_clones("avx2", "default")]] bool groupMaxima(const float* x, std::size_t n, float* out) {
    // Groups are independent, so their compare-and-select chains overlap.
    Ints nan{};
    std::size_t g = 0;
    std::size_t i = 0;
    for (; i + kGroup <= n; i += kGroup, ++g) {
        Floats best = load(x + i);
        nan |= isNaN(best);
        for (std::size_t j = kLanes; j < kGroup; j += kLanes) {
            const Floats v = load(x + i + j);
            best = maxOf(best, v);
            nan |= isNaN(v);
        }
        out[g] = reduceMax(best);
    }
    bool sawNaN = anyLane(nan);
    if (i < n) {
        float best = x[i];
        sawNaN = sawNaN || std::isnan(x[i]);
        for (++i; i < n; ++i) {
            best = best < x[i] ? x[i] : best;
            sawNaN = sawNaN || std::isnan(x[i]);
        }
        out[g] = best;
    }
    return sawNaN;
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

// The bucket of one logit below top, as bucketSelect() forms it (NaN goes to the last bucket).
inline std::uint32_t bucketOf(float x, float top, float scale, float last) {
    float offset = (top - x) * scale;
    offset = offset < last ? offset : last;
    offset = offset > 0.0f ? offset : 0.0f;
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(offset));
}

// bucketSelect() takes eight items per step: the buckets computed in a vector (the arithmetic of
// bucketOf()), the mass of those not kept added in float lanes (each block of kBlock items then added
// to a double total, lanes in order), the kept lanes gathered to the front and stored whole (the
// stores end at or before i + 8 <= n), the next free slot advanced by their number. On AVX2 the
// gathering is a table-driven permute; elsewhere a branch-free loop over the lanes. The arithmetic is
// shared, so the bits are the same either way.
struct BucketLanes {
    Ints bucket;
    Ints dropped; // -1 where the bucket is beyond keepUpTo
};

[[gnu::always_inline]] inline BucketLanes bucketLanes(const float* x, const float* p, float top, float scale,
                                                      Floats upper, Ints keep, Floats& rest) {
    const Floats zero{};
    Floats offset = (top - load(x)) * scale;
    offset = offset < upper ? offset : upper;
    offset = offset > zero ? offset : zero;
    const Ints bucket = __builtin_convertvector(offset, Ints);
    const Ints dropped = bucket > keep;
    rest += dropped ? load(p) : zero;
    return {bucket, dropped};
}

// The items after the last whole vector, one by one, after bucketSelect()'s vector loop.
[[gnu::always_inline]] inline std::size_t finishBucketSelect(const float* x, const float* p, std::size_t i,
                                                             std::size_t n, float top, float scale, std::uint32_t last,
                                                             std::uint32_t keepUpTo, std::uint32_t* bucket,
                                                             std::uint32_t* index, std::size_t count, double total,
                                                             double* restMass) {
    const float lastF = static_cast<float>(last);
    for (; i < n; ++i) { // branch-free, as in compact()
        const std::uint32_t b = bucketOf(x[i], top, scale, lastF);
        bucket[count] = b;
        index[count] = static_cast<std::uint32_t>(i);
        const bool kept = b <= keepUpTo;
        count += kept ? 1 : 0;
        total += kept ? 0.0 : static_cast<double>(p[i]);
    }
    *restMass = total;
    return count;
}

[[gnu::target("avx2,popcnt")]] std::size_t bucketSelectAvx2(const float* x, const float* p, std::size_t n, float top,
                                                            float scale, std::uint32_t last, std::uint32_t keepUpTo,
                                                            std::uint32_t* bucket, std::uint32_t* index,
                                                            double* restMass) {
    const Floats upper = splat(static_cast<float>(last));
    const Ints keep = Ints{} + static_cast<std::int32_t>(keepUpTo);
    const __m256i step = _mm256_set1_epi32(kLanes);
    __m256i at = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    double total = 0.0;
    std::size_t count = 0;
    std::size_t i = 0;
    const std::size_t whole = n / kLanes * kLanes;
    while (i < whole) {
        const std::size_t blockEnd = std::min(whole, i + kBlock);
        Floats rest{};
        for (; i < blockEnd; i += kLanes) {
            const BucketLanes lanes = bucketLanes(x + i, p + i, top, scale, upper, keep, rest);
            const auto mask = static_cast<unsigned>(_mm256_movemask_ps(reinterpret_cast<__m256>(lanes.dropped))) ^ 0xFFu;
            const __m256i order = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompress.lanes[mask]));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(bucket + count),
                                _mm256_permutevar8x32_epi32(reinterpret_cast<__m256i>(lanes.bucket), order));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(index + count), _mm256_permutevar8x32_epi32(at, order));
            count += static_cast<std::size_t>(_mm_popcnt_u32(mask));
            at = _mm256_add_epi32(at, step);
        }
        total += reduceSum(rest);
    }
    return finishBucketSelect(x, p, i, n, top, scale, last, keepUpTo, bucket, index, count, total, restMass);
}

std::size_t bucketSelectPortable(const float* x, const float* p, std::size_t n, float top, float scale,
                                 std::uint32_t last, std::uint32_t keepUpTo, std::uint32_t* bucket,
                                 std::uint32_t* index, double* restMass) {
    const Floats upper = splat(static_cast<float>(last));
    const Ints keep = Ints{} + static_cast<std::int32_t>(keepUpTo);
    double total = 0.0;
    std::size_t count = 0;
    std::size_t i = 0;
    const std::size_t whole = n / kLanes * kLanes;
    while (i < whole) {
        const std::size_t blockEnd = std::min(whole, i + kBlock);
        Floats rest{};
        for (; i < blockEnd; i += kLanes) {
            const BucketLanes lanes = bucketLanes(x + i, p + i, top, scale, upper, keep, rest);
            for (std::size_t j = 0; j < kLanes; ++j) {
                bucket[count] = static_cast<std::uint32_t>(lanes.bucket[j]);
                index[count] = static_cast<std::uint32_t>(i + j);
                count += lanes.dropped[j] ? 0 : 1;
            }
        }
        total += reduceSum(rest);
    }
    return finishBucketSelect(x, p, i, n, top, scale, last, keepUpTo, bucket, index, count, total, restMass);
}

// The same for splitAtBoundary(): two masks, two gathers, per eight items.
[[gnu::target("avx2,popcnt")]] void splitAtBoundaryAvx2(const std::uint32_t* bucket, const std::uint32_t* index,
                                                        std::size_t n, std::uint32_t boundary, std::uint32_t* below,
                                                        std::size_t& belowCount, std::uint32_t* at,
                                                        std::size_t& atCount, std::size_t& done) {
    // Buckets are below 2^31, so signed compares order them correctly.
    const __m256i limit = _mm256_set1_epi32(static_cast<int>(boundary));
    for (; done + 8 <= n; done += 8) {
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(bucket + done));
        const __m256i items = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(index + done));
        const auto lessMask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(limit, b))));
        const auto equalMask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(b, limit))));
        const __m256i lessOrder = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompress.lanes[lessMask]));
        const __m256i equalOrder = _mm256_load_si256(reinterpret_cast<const __m256i*>(kCompress.lanes[equalMask]));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(below + belowCount), _mm256_permutevar8x32_epi32(items, lessOrder));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(at + atCount), _mm256_permutevar8x32_epi32(items, equalOrder));
        belowCount += static_cast<std::size_t>(_mm_popcnt_u32(lessMask));
        atCount += static_cast<std::size_t>(_mm_popcnt_u32(equalMask));
    }
}

} // namespace

std::size_t bucketSelect(const float* x, const float* p, std::size_t n, float top, float scale, std::uint32_t last,
                         std::uint32_t keepUpTo, std::uint32_t* bucket, std::uint32_t* index, double* restMass) {
    return avx2GathersInUse() ? bucketSelectAvx2(x, p, n, top, scale, last, keepUpTo, bucket, index, restMass)
                           : bucketSelectPortable(x, p, n, top, scale, last, keepUpTo, bucket, index, restMass);
}

void splitAtBoundary(const std::uint32_t* bucket, const std::uint32_t* index, std::size_t n, std::uint32_t boundary,
                     std::uint32_t* below, std::size_t* belowCount, std::uint32_t* at, std::size_t* atCount) {
    std::size_t nBelow = 0;
    std::size_t nAt = 0;
    std::size_t k = 0;
    if (avx2GathersInUse())
        splitAtBoundaryAvx2(bucket, index, n, boundary, below, nBelow, at, nAt, k);
    for (; k < n; ++k) {
        below[nBelow] = index[k];
        nBelow += bucket[k] < boundary ? 1 : 0;
        at[nAt] = index[k];
        nAt += bucket[k] == boundary ? 1 : 0;
    }
    *belowCount = nBelow;
    *atCount = nAt;
}

std::size_t compact(const std::uint8_t* keep, std::size_t n, const std::int32_t* idsIn, std::int32_t* ids,
                    const float* aIn, float* a, float* b) {
    std::size_t out = 0;
    std::size_t i = 0;
    if (avx2GathersInUse())
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
