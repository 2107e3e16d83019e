#pragma once

#include <cstddef>
#include <cstdint>

// The loops over the whole vocabulary that a sampling step runs: vectorised, and identical in
// result on every x86-64 CPU. Each is written once with 8-lane GCC vector types and compiled for
// AVX2 and baseline SSE2 (picked at load time); lanes are combined in a fixed order, the compiler
// contracts nothing into FMA, and the exp's explicit fused multiply-adds are FMA instructions where
// the CPU has them and fmaf() where not, so the lane structure, not the instruction set, fixes the bits.
namespace swb::kernels {

// Where the CPU has AVX-512, expShift() computes the exponentials 16 at a time, with the same bits
// (each value by the same operations, the sums in the same 8 lanes). Tests switch it off to compare.
// (The other kernels are bound by memory traffic in a sampling step: 16 lanes gained nothing there.)
void useAvx512(bool on);
bool avx512InUse();
// The same for the selection kernels' AVX2 gathers (table-driven permutes), whose portable loops give
// the same results.
void useAvx2Gathers(bool on);
bool avx2GathersInUse();

// out[i] = exp(x[i] - shift), with sum = sum of out and weightedSum = sum of out[i] * max(x[i] - shift,
// -87) (finite even for -inf logits), in one pass. exp is our own (Cephes-style, max relative error
// about 1e-7, exactly 0 below -87).
void expShift(const float* x, float* out, std::size_t n, float shift, double* sum, double* weightedSum);

// Sum of x. Up to 64 elements in double, in order; longer arrays in 8 float lanes over blocks of
// 2048, each block added to a double total (relative error near 1e-7 for any length).
double sum(const float* x, std::size_t n);
// Index of the item a uniform draw u in [0, 1) selects from weights p (non-negative, at least one
// positive): the first whose cumulative weight, in index order, exceeds u times sum(p).
std::size_t drawFromDense(const float* p, std::size_t n, double u);
// x[i] *= factor, returning sum(x) of the scaled values.
double scaleAndSum(float* x, std::size_t n, float factor);
// p[i] *= factor, returning sum(p) of the scaled values (as scaleAndSum()), with weightedSum = sum of p[i] * max(x[i] - shift,
// -87) as expShift() forms it: renormalises probabilities after a cut without new exponentials.
double scaleAndWeigh(float* p, const float* x, std::size_t n, float factor, float shift, double* weightedSum);
// Index of the first element in [from, n) that is >= threshold, or n (x holds no NaN).
std::size_t findNotBelow(const float* x, std::size_t from, std::size_t n, float threshold);
// out[g] = the largest of x[64 g, 64 g + 64) (the last group may be shorter; unspecified for a group
// holding a NaN); returns whether x holds a NaN.
inline constexpr std::size_t kGroup = 64;
bool groupMaxima(const float* x, std::size_t n, float* out);
// Number of elements strictly greater than value.
std::size_t countGreater(const float* x, std::size_t n, float value);
// The bucket of each logit below top, min(last, floor((top - x[i]) * scale)) (NaN: last; last < 2^31),
// for histograms: writes the bucket and the index i of the items whose bucket is <= keepUpTo to the
// front of bucket and index (room for n each), ascending, and returns how many; restMass = the sum of p
// over the others (as sum() adds a long array: float lanes over blocks, relative error near 1e-7).
std::size_t bucketSelect(const float* x, const float* p, std::size_t n, float top, float scale, std::uint32_t last,
                         std::uint32_t keepUpTo, std::uint32_t* bucket, std::uint32_t* index, double* restMass);
// Of n items given by bucket and index: writes the indices of those below the boundary bucket to below,
// and of those in it to at (room for n each), in order, with their numbers.
void splitAtBoundary(const std::uint32_t* bucket, const std::uint32_t* index, std::size_t n, std::uint32_t boundary,
                     std::uint32_t* below, std::size_t* belowCount, std::uint32_t* at, std::size_t* atCount);
// Smallest element (x holds no NaN); +inf for an empty array.
float minOf(const float* x, std::size_t n);
// Writes the items whose keep flag is set to the front of ids and a (read from idsIn and aIn, which may
// be the same arrays) and of b in place (b may be null), in order; returns how many were kept.
std::size_t compact(const std::uint8_t* keep, std::size_t n, const std::int32_t* idsIn, std::int32_t* ids,
                    const float* aIn, float* a, float* b);

} // namespace swb::kernels
