#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "model/Model.h"
#include "model/ModelConfig.h"
#include "model/kernels/WeightType.h"

namespace swb {

class MappedFile;

// One weight of a model as it lies in its file: in a type the CPU kernels read as stored (F32, F16, BF16
// and ggml's quantized types), viewed in place in the memory map; or in another encoding (llama2.c's
// group-quantized int8) that `dequantize` expands to float32.
struct ModelWeight {
    std::optional<kernels::WeightType> stored; // nullopt: only dequantize() can read it
    // Logical shape in the decoder's convention: [out, in] for matrices, [n] for vectors.
    std::vector<std::int64_t> shape;
    // The file stores the matrix as [in, out] (GPT-2's Conv1D); the decoder views it transposed.
    bool transposed = false;
    const void* data = nullptr; // stored types: the values, in the file's (stored) order
    std::size_t bytes = 0;      // bytes taken in the file
    QString fileType;           // "f32", "bf16", "q4_k", ...
    // Other encodings: writes elements() float32 values, in stored order, to the given buffer.
    std::function<void(float*)> dequantize;
    // Keeps the memory map (or whatever holds the data) alive while the weight is in use.
    std::shared_ptr<const void> owner;
    // The mapped file `data` lies in (nullptr when it is not mapped): a reader done with the weight may
    // release its pages.
    const MappedFile* mapping = nullptr;

    std::int64_t elements() const;
    // Writes elements() float32 values in stored order, whatever the encoding.
    void toFloat(float* out) const;
};

// A model checkpoint opened for loading: its configuration and every weight the decoder needs, under
// the decoder's own names ("embed", "output", "norm", "layers.N.wq", ...), each checked against the
// configuration. Opening maps the files and reads headers only, so it is cheap even for large models.
// Formats: a Hugging Face folder (config.json + safetensors, single or sharded), GGUF, llama2.c .bin.
class ModelWeights {
public:
    static Result<ModelWeights> open(const QString& path);

    const ModelConfig& config() const { return m_config; }
    const QString& format() const { return m_format; } // "hf-safetensors", "gguf", "llama2c"
    // The dtype holding most of the weights' elements on disk ("f32", "bf16", "q4_k", ...).
    const QString& fileDtype() const { return m_fileDtype; }
    // Every file the model consists of (configs first, then weights) and the total of their sizes.
    const QStringList& files() const { return m_files; }
    std::int64_t fileBytes() const { return m_fileBytes; }
    std::int64_t parameterCount() const { return m_parameters; }
    const QStringList& warnings() const { return m_warnings; }
    // Per file type: how many tensors, elements and bytes (largest first).
    std::vector<WeightTypeTally> typeTallies() const;

    // The weight with this decoder name, or nullptr (optional weights such as biases).
    const ModelWeight* find(const std::string& name) const;
    // Every weight the file holds, by decoder name.
    const std::map<std::string, ModelWeight>& all() const { return m_weights; }

    // A cheap identity of the model's files, hex SHA-256: for each file in files() order its size,
    // its first MiB and its last MiB. Reading whole multi-gigabyte files for every run would be slow;
    // this still tells apart any two real checkpoints (headers and the first and last tensors differ).
    Result<QString> contentHash() const;

private:
    Status openHuggingFace(const QString& folder);
    Status openGguf(const QString& file);
    Status openLlama2c(const QString& file);
    // Where a format keeps one decoder weight: the tensor's name in the file and whether the file
    // stores it transposed.
    struct SourceName {
        QString name;
        bool transposed = false;
    };
    using Naming = std::function<SourceName(const std::string& decoderName)>;
    // A tensor of the file by its own name, in the decoder's shape order; nullopt when absent, an
    // error when present but unusable (unsupported dtype).
    using Fetch = std::function<Result<std::optional<ModelWeight>>(const QString& sourceName)>;
    // Looks up every weight the configuration needs, checks presence and shape against the config
    // (`container` and `configSource` name the files in messages), and stores them.
    Status collect(const Naming& naming, const Fetch& fetch, const QString& container, const QString& configSource);

    ModelConfig m_config;
    QString m_format;
    QString m_fileDtype;
    QStringList m_files;
    std::int64_t m_fileBytes = 0;
    std::int64_t m_parameters = 0;
    QStringList m_warnings;
    std::map<std::string, ModelWeight> m_weights;
};

// The name llama.cpp's GGUF files give a decoder weight: "layers.3.wq" is "blk.3.attn_q.weight".
std::string ggufTensorName(const std::string& decoderName);

} // namespace swb
