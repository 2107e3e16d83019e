#pragma once

#include <memory>

#include <QString>

#include "Result.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

// Loads the tokenizer that belongs to a model:
// - modelPath a Hugging Face folder: its tokenizer.json (and tokenizer_config.json when present);
// - a .gguf file: its tokenizer.ggml.* vocabulary;
// - a llama2.c checkpoint (.bin): tokenizerPath must name its tok.bin, which must hold exactly the
//   checkpoint's vocab_size tokens.
// tokenizerPath, when given, overrides: a folder or tokenizer.json, a .gguf file, or a llama2.c tok.bin.
// Errors are one sentence naming the file and the problem.
Result<std::unique_ptr<Tokenizer>> loadTokenizer(const QString& modelPath, const QString& tokenizerPath = {});

} // namespace swb
