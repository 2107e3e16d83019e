#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "quantization/Recipe.h"

namespace swb::quantization {

struct QuantizeOptions {
    QString input;  // a GGUF whose weights are F32, F16 or BF16, or a Hugging Face folder (openQuantizeSource)
    QString output; // the GGUF to write; never the input
    Recipe recipe;
    bool pure = false; // llama-quantize's --pure: the recipe's base type everywhere the rules would choose
    std::vector<Override> overrides;
    int threads = 0; // 0: the CPUs this process may use
};

struct QuantizeProgress {
    int tensor = 0; // 1-based
    int tensors = 0;
    std::string name;
    QString from;                // "f16"
    QString to;                  // "q4_k"
    std::uint64_t bytesRead = 0; // input tensor data read so far, of bytesTotal
    std::uint64_t bytesTotal = 0;
};

struct QuantizedTensor {
    std::string name;
    QString from;
    QString to;
    std::uint64_t bytes = 0;
};

struct QuantizeReport {
    std::vector<QuantizedTensor> tensors; // in the written order
    std::uint64_t inputDataBytes = 0;     // what the input stores for its tensors (a GGUF: its tensor data)
    std::uint64_t outputDataBytes = 0;
    std::uint64_t outputFileBytes = 0;
    std::int64_t elements = 0;
    QStringList notes; // fallbacks, one sentence each
    double bitsPerWeight() const { return elements > 0 ? 8.0 * static_cast<double>(outputDataBytes) / elements : 0.0; }
};

// Called before each tensor and after each chunk of rows; returning false abandons the work (the output is
// not written, whatever was at its path stays).
using QuantizeProgressFn = std::function<bool(const QuantizeProgress&)>;

// Writes options.output: the input's metadata and vocabulary carried over (general.file_type and
// general.quantization_version set as llama.cpp sets them), each tensor in the type the recipe chooses,
// quantized as ggml's reference quantizers do, in llama.cpp's tensor order. Tensors stream to the file a
// chunk of rows at a time: the memory taken is the input's mapping and one chunk. Errors: a refused input
// (not a GGUF, already quantized tensors that would need requantizing, output = input), a failed write (a
// full disk: the partial output is removed), a cancel.
Result<QuantizeReport> quantizeModel(const QuantizeOptions& options, const QuantizeProgressFn& progress = {});

} // namespace swb::quantization
