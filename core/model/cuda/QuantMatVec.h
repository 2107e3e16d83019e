#pragma once

// Matrix-vector and small-batch products of weights kept on the GPU as the file stores them (Q8_0, Q4_K),
// exact in float32 as the CPU kernels are: each weight decoded to the CPU kernels' value, float32 sums
// (model/cuda/QuantDecode.h). Built only with SWB_CUDA_KERNELS (nvcc); no CUDA or libtorch header here, so
// any code may call it with device pointers.

#include <cstdint>
#include <string>

namespace swb::cuda {

enum class StoredType { Q8_0, Q4_K };

// The most activation vectors one launch multiplies (each weight is decoded once for all of them).
constexpr int kMaxVectors = 8;

// y[v · rows + r] = Σ_i w[r][i] · x[v · columns + i] for v < vectors (1 … kMaxVectors): weights `rows` rows of
// `columns` elements (a whole number of blocks) in `type`, all pointers on the device, queued on `stream` (a
// cudaStream_t; nullptr: the default stream). Empty on success, else CUDA's error message.
std::string storedMatVec(StoredType type, const void* weights, std::int64_t rows, std::int64_t columns, const float* x,
                         int vectors, float* y, void* stream);

} // namespace swb::cuda
