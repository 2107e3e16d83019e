#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

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
};

const WeightTraits& traits(WeightType type);
// Bytes of one row of n elements; 0 when n is not a whole number of blocks.
std::size_t rowBytes(WeightType type, std::int64_t n);
// From ggml's type id (GGUF); nullopt for a type the kernels do not read.
std::optional<WeightType> fromGgml(std::uint32_t ggmlType);

// Which vector path the kernels take: the best the CPU has, or a narrower one (tests compare their bits).
enum class KernelPath { Avx512, Avx2, Portable };
KernelPath kernelPath();
// Limits the path to `widest` (never beyond what the CPU has); returns the path now in use.
KernelPath setKernelPath(KernelPath widest);
const char* kernelPathName(KernelPath path);

} // namespace swb::kernels
