#pragma once

#include <QString>

#include "Result.h"

namespace swb {

struct BpeVocabulary;

// Writes a byte-level BPE vocabulary as a Hugging Face tokenizer.json (the `tokenizers` library's
// format, as GPT-2's): ByteLevel pre-tokenizer and decoder, the special tokens as added tokens, and a
// TemplateProcessing post-processor that starts every sequence with the first special token (the
// demo model's <|endoftext|>, which also ends every verse), so that encoding with special tokens gives
// the model what it saw in training.
class TokenizerJsonWriter {
public:
    static Status write(const BpeVocabulary& vocabulary, const QString& file);
};

} // namespace swb
