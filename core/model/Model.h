#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

// Tensors, elements and bytes (in the file) of a model's weights of one file type.
struct WeightTypeTally {
    QString fileType; // "f32", "q4_k", ...
    int tensors = 0;
    std::int64_t elements = 0;
    std::int64_t bytes = 0;
};

// What `swb info` reports about a loaded model.
struct ModelInfo {
    QString path;
    // The tokenizer file given with the model when it is not the model's own (a llama2.c tok.bin chosen
    // by the user); recorded with runs so that their texts can be decoded later. From ModelOptions.
    QString tokenizerPath;
    QString format;       // "hf-safetensors", "gguf", "llama2c"
    QString architecture; // "llama", "gpt2", ...
    int layers = 0;
    int heads = 0;
    int kvHeads = 0;
    int dim = 0;
    int hiddenDim = 0;
    int vocabSize = 0;
    int contextLength = 0;
    std::int64_t parameters = 0;
    QString fileDtype;    // dtype of the weights on disk, e.g. "f32", "bf16", "q4_k"
    QString computeDtype; // dtype the model computes in: "f32", "f16", "bf16"
    QString device;       // "cpu" or "cuda"
    std::int64_t fileBytes = 0;
    // Hex SHA-256 of the model files' identity: each file's size, first MiB and last MiB, in order
    // (cheap even for multi-gigabyte files; see ModelWeights::contentHash()).
    QString contentHash;
    // Bytes of weights one decode step reads (every matrix and norm, the classifier, one embedding
    // row), as stored (CPU kernels) or in the compute dtype: what memory bandwidth bounds decode speed by.
    std::int64_t weightBytesPerToken = 0;
    // Whether the matrices stay as the file stores them (CPU, float32 arithmetic) rather than converted
    // to tensors of the compute dtype.
    bool storedWeights = false;
    // The path the products take: our kernels' vector path ("avx512", "avx2", "portable": the widest the CPU
    // has when the model loaded) for stored weights, else "libtorch".
    QString kernelPath;
    // ModelOptions::fastMath took effect: some matrices (the quantized ones, on the CPU kernels) take
    // 8-bit activations. Every surface that shows this model says so.
    bool fastMath = false;
    // The CPU threads its products run on, whether chosen automatically (ThreadChoice), and one line saying
    // why ("auto: 1 (a step of this model is too small to split)", "2 set").
    int threads = 1;
    bool threadsAutomatic = true;
    QString threadsReason;
    // The weights per file type, largest first.
    std::vector<WeightTypeTally> weightTypes;
    // The resident memory the weights take once loaded: the file's pages they are read from, plus what
    // is converted at load (everything, on the libtorch path).
    std::int64_t residentWeightBytes = 0;
    // Special ids from the model's own files (config.json / generation_config.json, llama2.c's
    // convention); -1 / empty where they say nothing. The tokenizer has its own view of these.
    int bosTokenId = -1;
    std::vector<int> eosTokenIds;
};

struct ModelOptions {
    QString device = QStringLiteral("cpu"); // "cpu" or "cuda" (falls back to cpu with a warning)
    QString dtype = QStringLiteral("f32");  // "f32", "f16", "bf16"
    int threads = 0;                        // 0: automatic (chooseThreads in model/ThreadPolicy.h)
    // The labelled fast path, off by default: on the CPU kernels, quantized matrices take activations
    // rounded to 8 bits, as llama.cpp does (kernels::quantizeActivations). Faster, and no longer exact:
    // probabilities move by up to about 1e-2 where the exact path stays within 1e-4 of float64.
    bool fastMath = false;
    QString tokenizerPath;                  // only recorded, as ModelInfo::tokenizerPath
    // Called as the weights load, after each layer (done of total); returning false stops the load,
    // which then fails with "loading ... was cancelled".
    std::function<bool(int done, int total)> progress;
};

// A decoder-only language model (Llama or GPT-2 family) running on libtorch.
// No torch types cross this header. Logits always come back as float32 on the CPU.
class Model {
public:
    // The KV cache and position of one sequence. Opaque; create with newState().
    class State;

    ~Model();
    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

    // path: a Hugging Face folder, a .gguf file, or a llama2.c .bin checkpoint.
    static Result<std::unique_ptr<Model>> load(const QString& path, const ModelOptions& options = {});
    // What load() would report, from the files' headers only (no weights read or converted): for
    // `swb info` on models too large to load casually. Device and compute dtype are resolved as load does.
    static Result<ModelInfo> inspect(const QString& path, const ModelOptions& options = {});

    const ModelInfo& info() const;
    // Warnings from loading (e.g. CUDA requested but unavailable), to be shown to the user.
    const QStringList& warnings() const;

    std::unique_ptr<State> newState() const;
    // An independent copy of a state (its cache and position), e.g. for beam search branches;
    // nullptr when the memory for it cannot be had.
    std::unique_ptr<State> cloneState(const State& state) const;
    // Number of tokens already in the state's cache.
    static int length(const State& state);
    // Drops cached positions from `length` on (branching, replay).
    static void rewind(State& state, int length);

    // Appends tokens (prefill in one pass when several) and returns the logits of the last position
    // (vocabSize floats), or of every new position (tokens.size() × vocabSize) when allPositions.
    // Fails with a clear error at the context limit. hidden, when given, receives the last layer's hidden
    // state (after the final norm: transformers' hidden_states[-1]) of every new position (× dim floats).
    Result<std::vector<float>> forward(State& state, std::span<const TokenId> tokens, bool allPositions = false,
                                       std::vector<float>* hidden = nullptr);
    // One decode step for several sequences in one batched pass; states may be at different positions.
    // Returns states.size() × vocabSize floats (and states.size() × dim hidden floats when asked).
    Result<std::vector<float>> forwardBatch(std::span<State* const> states, std::span<const TokenId> tokens,
                                            std::vector<float>* hidden = nullptr);
    // Several sequences in one pass, each reading its own tokens (one for a sequence decoding, a whole prompt
    // for one joining: continuous batching). Returns each one's last-position logits (states.size() × vocabSize).
    Result<std::vector<float>> forwardMany(std::span<State* const> states, std::span<const std::vector<TokenId>> tokens);

    // Read bandwidth of the model's device in GB/s: the best of several device-to-device copies of `bytes`
    // (counting the bytes read; a copy writes as many). For benchmarks on a GPU; 0 when the memory cannot be had.
    double measureCopyBandwidth(std::size_t bytes) const;

private:
    struct Impl;
    explicit Model(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// Complete here (its content stays private behind Cache) so that any file can destroy the
// unique_ptr<State> that newState() returns. One state is used by one thread at a time; several
// states of one model may run on different threads.
class Model::State {
public:
    ~State();
    State(const State&) = delete;
    State& operator=(const State&) = delete;

private:
    friend class Model;
    struct Cache;
    State();
    std::unique_ptr<Cache> m_cache;
};

} // namespace swb
