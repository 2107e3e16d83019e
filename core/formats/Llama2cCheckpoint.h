#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <QString>

#include "Result.h"

namespace swb {

class MappedFile;

// A llama2.c checkpoint (karpathy/llama2.c export.py), memory-mapped:
// - legacy (version 0): 7 int32 (dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size,
//   seq_len; a negative vocab_size means an untied classifier follows), then float32 weights in
//   run.c order, with the obsolete freq_cis tables before the classifier (skipped);
// - version 1: a 256-byte header ("ak42" magic, version, the 7 int32, shared-classifier flag),
//   then float32 weights in export.py's version-1 order;
// - version 2: the same header plus the group size, the norms in float32 and every matrix as
//   symmetric int8 groups with one float32 scale per group (Q8_0, runq.c).
// Tensors keep llama2.c/Meta layout: [out, in], Q/K rows with RoPE pairs interleaved.
class Llama2cCheckpoint {
public:
    struct Header {
        int version = 0;
        int dim = 0;
        int hiddenDim = 0;
        int layers = 0;
        int heads = 0;
        int kvHeads = 0;
        int vocabSize = 0; // always positive here; see sharedClassifier
        int seqLen = 0;
        bool sharedClassifier = true;
        int groupSize = 0; // version 2 only
    };

    // One weight matrix or vector. Float32 tensors point into the mapping; version-2 matrices
    // point at their int8 values and float32 group scales (use dequantize()).
    struct Tensor {
        std::string
            name; // "tok_embeddings", "norm", "output", "layers.N.{attention_norm,wq,wk,wv,wo,ffn_norm,w1,w2,w3}"
        std::vector<std::int64_t> shape;
        const float* f32 = nullptr;
        const std::int8_t* q8 = nullptr;
        const float* scales = nullptr;
        int groupSize = 0;

        std::int64_t elements() const;
        // Writes the tensor's values as float32 into out (elements() floats).
        void dequantize(std::span<float> out) const;
    };

    static Result<Llama2cCheckpoint> open(const QString& path);

    const QString& path() const { return m_path; }
    const Header& header() const { return m_header; }
    std::size_t fileSize() const;
    const std::vector<Tensor>& tensors() const { return m_tensors; }
    const Tensor* tensor(const std::string& name) const;
    const std::shared_ptr<const MappedFile>& mapping() const { return m_file; }

private:
    QString m_path;
    std::shared_ptr<const MappedFile> m_file;
    Header m_header;
    std::vector<Tensor> m_tensors;
};

} // namespace swb
