#pragma once

#include <memory>

#include <QString>

#include "Result.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

class GgufFile;

// Builds the tokenizer of a GGUF file from its tokenizer.ggml.* metadata, as llama.cpp's llama_vocab
// does: model "llama" is SentencePiece BPE ranked by token scores with byte fallback and a dummy
// prefix; model "gpt2" is byte-level BPE ranked by tokenizer.ggml.merges, split by the pre-tokenizer
// that tokenizer.ggml.pre names (an unknown name is an error). Token types, special ids and the
// add_bos/add_eos flags come from the file, with llama.cpp's defaults where it is silent.
class GgufVocabLoader {
public:
    static Result<std::unique_ptr<Tokenizer>> load(const QString& path);
    static Result<std::unique_ptr<Tokenizer>> load(const GgufFile& file);
};

} // namespace swb
