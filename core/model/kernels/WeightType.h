#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

// The weight types the CPU kernels read as stored, and their traits table (in the spirit of ggml's
// type_traits): the decoder asks the table and never switches on the type itself. No torch types.

namespace swb::kernels {

enum class WeightType : std::uint8_t { F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K };

// Floats of x summed over each run of 16 (n / 16 of them): the quantized types with an additive
// minimum need these sums per group; computed once per activation row and shared by every weight row.
void groupSums16(const float* x, std::int64_t n, float* sums);

struct WeightTraits {
    const char* name; // as ggml names it: "f32", "q4_k", ...
    int blockElements;
    int blockBytes;
    // Writes n floats decoded from a row (n a multiple of blockElements) exactly as ggml's dequantize_row_*
    // defines the values: d·q, d·q − m, and so on, in float32.
    void (*toFloat)(const std::uint8_t* row, float* out, std::int64_t n);
    // The dot product of a stored row with x (n floats; xSums its groupSums16), in float32 arithmetic with
    // a fixed order of operations: every CPU path (AVX-512, AVX2, portable) gives the same bits.
    float (*dot)(const std::uint8_t* row, const float* x, const float* xSums, std::int64_t n);
    // The dot products of one row with `count` (1…4) activation rows x + r·stride (sums at
    // xSums + r·(stride / 16)), each bit-identical to dot(); the row is decoded once for all of them.
    void (*dotBatch)(const std::uint8_t* row, const float* x, const float* xSums, std::int64_t stride, int count,
                     std::int64_t n, float* out);
    bool needsSums; // whether dot reads xSums
    // The labelled fast path (ModelOptions::fastMath, off by default; nullptr for the float types): the
    // dot product of the stored weights with x rounded by quantizeActivations to 8 bits per block of
    // blockElements (xq; xd a scale per block; xqSums the sums of each 16 of xq), as llama.cpp rounds it,
    // in integer arithmetic. Not exact: exact weights times rounded activations, see quantizeActivations.
    // Every path gives the same bits.
    float (*dotFast)(const std::uint8_t* row, const std::int8_t* xq, const float* xd, const std::int16_t* xqSums,
                     std::int64_t n) = nullptr;
    // dotFast for `count` rounded activation rows one after another (xq + r·n, xd + r·n / blockElements,
    // xqSums + r·n / 16), each bit-identical to dotFast; the row is unpacked once for every four, so batched
    // decode (the server's clients, Compare, sweeps, beams) shares the work as well as the weight reads.
    void (*dotFastBatch)(const std::uint8_t* row, const std::int8_t* xq, const float* xd, const std::int16_t* xqSums,
                         int count, std::int64_t n, float* out) = nullptr;
};

// x rounded to 8 bits for dotFast, per block of `block` elements as ggml's Q8_0 and Q8_K round it: d =
// max|x| / 127, q = round(x / d), halves to even; sums: n / 16 sums of 16 quants. Each value moves by up
// to d / 2 (0.4% of its block's largest). A block holding a NaN or an infinity gets a NaN scale, so that
// a non-finite activation still reaches the output (as NaN).
void quantizeActivations(const float* x, std::int64_t n, int block, std::int8_t* q, float* d, std::int16_t* sums);

const WeightTraits& traits(WeightType type);
// Bytes of one row of n elements; 0 when n is not a whole number of blocks.
std::size_t rowBytes(WeightType type, std::int64_t n);
// From ggml's type id (GGUF); nullopt for a type the kernels do not read.
std::optional<WeightType> fromGgml(std::uint32_t ggmlType);
std::uint32_t toGgml(WeightType type);
// From ggml's lower-case name ("q4_k"); nullopt for any other.
std::optional<WeightType> fromName(std::string_view name);

// Which vector path the kernels take: the best the CPU has, or a narrower one (tests compare their bits).
enum class KernelPath { Avx512, Avx2, Portable };
KernelPath kernelPath();
// Limits the path to `widest` (never beyond what the CPU has); returns the path now in use.
KernelPath setKernelPath(KernelPath widest);
const char* kernelPathName(KernelPath path);

} // namespace swb::kernels
