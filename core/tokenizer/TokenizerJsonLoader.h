#pragma once

#include <memory>

#include <QString>

#include "Result.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

// Builds a tokenizer from a Hugging Face tokenizer.json (the `tokenizers` library's format) with a BPE
// model, plus the tokenizer_config.json beside it when there is one (add_bos_token, add_eos_token and
// the bos/eos/unk/pad token names override what tokenizer.json implies).
//
// Understood: normalizers NFC/NFKC/NFD/NFKD, Prepend("▁"), Replace(" " -> "▁") and Sequences of them;
// pre-tokenizers ByteLevel, Split (regex or string, every behaviour, invert), Digits, Metaspace and
// Sequences; BPE options byte_fallback, fuse_unk, ignore_merges, unk_token; post-processors
// TemplateProcessing, RobertaProcessing/BertProcessing (which special tokens addSpecial adds). Anything
// else is refused with an error naming it rather than tokenized differently from the model's stack.
// Added tokens are matched on the raw text (not the normalized one); special ones only with parseSpecial.
class TokenizerJsonLoader {
public:
    // configPath: tokenizer_config.json to use; empty: the one beside tokenizer.json, if any.
    static Result<std::unique_ptr<Tokenizer>> load(const QString& tokenizerJsonPath, const QString& configPath = {});
};

} // namespace swb
