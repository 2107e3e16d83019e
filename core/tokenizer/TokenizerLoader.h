#pragma once

#include <memory>

#include <QString>

#include "Result.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

// Loads the tokenizer that belongs to a model:
// - modelPath a Hugging Face folder: its tokenizer.json (and tokenizer_config.json when present);
// - a .gguf file: its tokenizer.ggml.* vocabulary;
// - a llama2.c checkpoint (.bin): its tok.bin, which must hold exactly the checkpoint's vocab_size tokens:
//   tokenizerPath, or else the one llama2cTokenizerBeside() finds.
// tokenizerPath, when given, overrides: a folder or tokenizer.json, a .gguf file, or a llama2.c tok.bin.
// Errors are one sentence naming the file and the problem.
Result<std::unique_ptr<Tokenizer>> loadTokenizer(const QString& modelPath, const QString& tokenizerPath = {});

// The llama2.c tokenizer found beside a checkpoint: tokenizer.bin, else the first tok*.bin by name, that
// holds exactly the checkpoint's vocab_size tokens; empty when none does (or the file is no checkpoint).
QString llama2cTokenizerBeside(const QString& checkpoint);

// Whether a model file needs a tokenizer file of its own (a llama2.c checkpoint).
bool needsSeparateTokenizer(const QString& modelPath);

} // namespace swb
