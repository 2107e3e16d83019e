#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"

namespace swb {
class GgufWriter;
struct ModelConfig;
} // namespace swb

namespace swb::quantization {

// A Hugging Face tokenizer as GGUF tokenizer.ggml.* metadata, in the forms llama.cpp's convert_hf_to_gguf.py
// writes: byte-level BPE as model "gpt2" with its merge rules and the tokenizer.ggml.pre name whose splitting
// matches tokenizer.json's; SentencePiece-style BPE (metaspace, byte fallback) as model "llama", its merge
// ranks turned into token scores. The token list is padded to the model's embedding rows with "[PADn]"
// tokens, as the converter pads it.
struct GgufVocabulary {
    std::string model; // "gpt2" or "llama"
    std::string pre;   // gpt2: llama.cpp's name for the pre-tokenizer
    std::vector<std::string> tokens;
    std::vector<std::int32_t> types; // GGUF token types (1 normal ... 6 byte)
    std::vector<float> scores;       // llama: higher merges first
    std::vector<std::string> merges; // gpt2: "left right", best first
    bool addSpacePrefix = true;      // llama
    std::int64_t bos = -1, eos = -1, unk = -1, pad = -1;
    bool addBos = false;
    bool addEos = false;
    std::string chatTemplate;
    QStringList files; // the folder's files it was read from (tokenizer.json, tokenizer_config.json, ...)

    void write(GgufWriter& writer) const;
};

// The vocabulary of the folder's tokenizer.json for a model of `config`, read back through our GGUF
// tokenizer (the one that splits as llama.cpp does) and checked to give the same ids as tokenizer.json on a
// text of every kind of character, with and without the special tokens added. An error, one sentence,
// when tokenizer.json is missing or no form GGUF holds splits text as it does. notes receives what the
// conversion chose or padded.
Result<GgufVocabulary> ggufVocabulary(const QString& folder, const ModelConfig& config, QStringList& notes);

} // namespace swb::quantization
