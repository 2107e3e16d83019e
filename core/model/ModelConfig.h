#pragma once

#include <vector>

#include <QJsonObject>
#include <QString>

#include "Result.h"

namespace swb {

class GgufFile;

// How a RoPE implementation pairs the dimensions of a head: (2i, 2i+1) as in Meta's Llama code,
// llama2.c and GGUF "llama" files, or (i, i + d/2) as in Hugging Face's rotate_half (whose conversion
// script permutes the Q/K rows so that both give the same model) and GGUF's NeoX-style archs (qwen2).
enum class RopeStyle { Interleaved, Halves };

// The two block designs the one decoder implementation knows.
enum class BlockFamily {
    Llama, // RMSNorm, RoPE, SwiGLU, grouped-query attention (Llama 1/2/3, Mistral, Qwen2, SmolLM, TinyLlama)
    Gpt2,  // LayerNorm, learned positions, fused QKV, GELU (tanh)
};

// rope_scaling as Hugging Face writes it; type "" means none.
struct RopeScaling {
    QString type; // "", "linear", "llama3"
    double factor = 1.0;
    double lowFreqFactor = 1.0;
    double highFreqFactor = 4.0;
    int originalContext = 8192;
};

// The shape and numerics of a model, whatever file it came from.
struct ModelConfig {
    QString architecture; // "llama", "mistral", "qwen2", "gpt2"
    BlockFamily family = BlockFamily::Llama;
    int dim = 0;
    int hiddenDim = 0;
    int layers = 0;
    int heads = 0;
    int kvHeads = 0;
    int headDim = 0;
    int vocabSize = 0;
    int contextLength = 0;
    double normEps = 1e-5;
    double ropeTheta = 10000.0;
    RopeScaling ropeScaling;
    RopeStyle ropeStyle = RopeStyle::Halves;
    bool tiedEmbeddings = false;
    bool qkvBias = false; // Qwen2, Llama with attention_bias
    int bosTokenId = -1;
    std::vector<int> eosTokenIds;

    // From a Hugging Face config.json (file names the file in error messages).
    static Result<ModelConfig> fromHuggingFace(const QJsonObject& config, const QString& file);
    // From GGUF metadata (general.architecture, then "<arch>.*" keys); vocabSize is left 0 when the
    // file does not say, for the caller to take from the embedding tensor.
    static Result<ModelConfig> fromGguf(const GgufFile& file, const QString& fileName);
    // From a llama2.c header (dim, hidden, layers, heads, kv heads, vocab, seq_len).
    static ModelConfig fromLlama2c(int dim, int hiddenDim, int layers, int heads, int kvHeads, int vocabSize,
                                   int seqLen, bool sharedClassifier);

    // Checks that the numbers describe a buildable model; names `source` in the error.
    Status validate(const QString& source) const;
};

} // namespace swb
