// The stored-weight products of QuantMatVec.h: one warp a row, lane l taking weights l, l + 32, …, each weight
// decoded once and multiplied into every vector's sum, then the warp's butterfly. The arithmetic is
// QuantDecode.h's, which the CPU tests check against the CPU kernels; built with -fmad=false so that nvcc
// fuses nothing beyond the fmaf written there.

#include "model/cuda/QuantMatVec.h"

#include <cuda_runtime.h>

#include "model/cuda/QuantDecode.h"

namespace swb::cuda {

namespace {

constexpr int kWarpsPerBlock = 4;

template <class Blocks, int V>
__global__ void matVecKernel(const std::uint8_t* weights, std::int64_t rows, std::int64_t columns,
                             std::size_t rowBytes, const float* x, float* y) {
    const std::int64_t row = static_cast<std::int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / kWarp;
    const int lane = static_cast<int>(threadIdx.x % kWarp);
    if (row >= rows)
        return; // a whole warp leaves together: rows are per warp
    const std::uint8_t* w = weights + static_cast<std::size_t>(row) * rowBytes;
    float sum[V];
    for (int v = 0; v < V; ++v)
        sum[v] = 0.0f;
    for (std::int64_t i = lane; i < columns; i += kWarp) {
        const float weight = Blocks::weight(w, i);
        for (int v = 0; v < V; ++v)
            sum[v] = fmaf(weight, x[v * columns + i], sum[v]);
    }
    for (int v = 0; v < V; ++v) {
        float s = sum[v];
        for (int offset = kWarp / 2; offset > 0; offset /= 2)
            s = s + __shfl_xor_sync(0xFFFFFFFFu, s, offset);
        if (lane == 0)
            y[v * rows + row] = s;
    }
}

template <class Blocks, int V>
cudaError_t launch(const void* weights, std::int64_t rows, std::int64_t columns, const float* x, float* y,
                   cudaStream_t stream) {
    const std::size_t rowBytes = static_cast<std::size_t>(columns / Blocks::kBlock) * Blocks::kBytes;
    const auto grid = static_cast<unsigned>((rows + kWarpsPerBlock - 1) / kWarpsPerBlock);
    matVecKernel<Blocks, V><<<grid, kWarpsPerBlock * kWarp, 0, stream>>>(
        static_cast<const std::uint8_t*>(weights), rows, columns, rowBytes, x, y);
    return cudaGetLastError();
}

template <class Blocks>
cudaError_t launchFor(int vectors, const void* weights, std::int64_t rows, std::int64_t columns, const float* x,
                      float* y, cudaStream_t stream) {
    switch (vectors) {
    case 1: return launch<Blocks, 1>(weights, rows, columns, x, y, stream);
    case 2: return launch<Blocks, 2>(weights, rows, columns, x, y, stream);
    case 3: return launch<Blocks, 3>(weights, rows, columns, x, y, stream);
    case 4: return launch<Blocks, 4>(weights, rows, columns, x, y, stream);
    case 5: return launch<Blocks, 5>(weights, rows, columns, x, y, stream);
    case 6: return launch<Blocks, 6>(weights, rows, columns, x, y, stream);
    case 7: return launch<Blocks, 7>(weights, rows, columns, x, y, stream);
    default: return launch<Blocks, 8>(weights, rows, columns, x, y, stream);
    }
}

} // namespace

std::string storedMatVec(StoredType type, const void* weights, std::int64_t rows, std::int64_t columns,
                         const float* x, int vectors, float* y, void* stream) {
    const int block = type == StoredType::Q8_0 ? Q8_0Blocks::kBlock : Q4_KBlocks::kBlock;
    if (vectors < 1 || vectors > kMaxVectors || rows < 1 || columns < block || columns % block != 0)
        return "storedMatVec: " + std::to_string(vectors) + " vectors of a " + std::to_string(rows) + " x " +
               std::to_string(columns) + " matrix of blocks of " + std::to_string(block) + " cannot be multiplied";
    const auto s = static_cast<cudaStream_t>(stream);
    const cudaError_t error = type == StoredType::Q8_0
                                  ? launchFor<Q8_0Blocks>(vectors, weights, rows, columns, x, y, s)
                                  : launchFor<Q4_KBlocks>(vectors, weights, rows, columns, x, y, s);
    return error == cudaSuccess ? std::string() : std::string(cudaGetErrorString(error));
}

} // namespace swb::cuda
