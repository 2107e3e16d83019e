#pragma once

#include <cstdint>

#include "model/kernels/WeightType.h"

// Float rows written as the stored weight types, with the bytes ggml's reference quantizers (quantize_row_*_ref,
// what llama-quantize runs without an importance matrix) give them, so that a model quantized here is the model
// llama-quantize would have written.

namespace swb::quantization {

// Writes the n floats of x (n a multiple of the type's block) as `type`'s blocks at out (kernels::rowBytes(type,
// n) bytes), bit for bit as ggml's reference quantizer writes them.
void quantizeRow(kernels::WeightType type, const float* x, std::uint8_t* out, std::int64_t n);

} // namespace swb::quantization
