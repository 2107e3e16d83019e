#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "quantization/Recipe.h"

namespace swb {
class GgufWriter;
}

namespace swb::quantization {

// One tensor of the model swb quantize reads, as the float GGUF it stands for holds it: its GGUF name, its
// dims in ggml order (the row first) and that file's type.
struct SourceTensor {
    std::string name;
    std::vector<std::int64_t> dims;
    kernels::WeightType type = kernels::WeightType::F32;
    kernels::WeightType stored = kernels::WeightType::F32; // what the input holds (bf16 widened to f32: bf16)
    // The tensor's bytes in `type`, to be copied when the output keeps that type; nullptr when it is rebuilt
    // row by row (reordered, transposed or widened from what the input stores).
    const std::uint8_t* data = nullptr;
    std::uint64_t inputBytes = 0; // what the input stores for it (progress counts these)
    // Writes row `row` (dims[0] values) of the tensor, in the output's order, as floats.
    std::function<void(std::int64_t row, float* out)> readRow;
    // Lets the input's pages for the tensor go, once it is written.
    std::function<void()> release;

    std::int64_t elements() const;
    std::int64_t rows() const { return dims.empty() || dims[0] == 0 ? 0 : elements() / dims[0]; }
};

// A model to quantize: its tensors, the hyperparameters the recipes read and the metadata the output carries.
struct QuantizeSource {
    QString format;    // "gguf" or "hf-safetensors"
    QStringList files; // every file of the input
    ModelShape shape;
    std::vector<SourceTensor> tensors;
    // Sets the output's metadata, before the quantizer sets general.file_type and quantization_version.
    std::function<void(GgufWriter&)> writeMetadata;
    QStringList notes;                 // what a conversion chose or padded, one sentence each
    std::shared_ptr<const void> owner; // keeps the input's mappings and any rebuilt data alive
};

// A float model (F32, F16, BF16 tensors) to quantize: a GGUF file, or a Hugging Face folder (config.json,
// safetensors, tokenizer.json; a path to one of its files names the folder) converted on the way as llama.cpp's
// convert_hf_to_gguf.py converts it (GGUF names and metadata, the vocabulary, Llama's Q/K rows in Meta's
// interleaved order, GPT-2's Conv1D matrices transposed, Llama 3 RoPE scaling as a rope_freqs tensor, norms
// and biases in F32), each tensor standing for its F32 conversion.
Result<QuantizeSource> openQuantizeSource(const QString& path);

} // namespace swb::quantization
