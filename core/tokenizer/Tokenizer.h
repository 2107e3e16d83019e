#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <QString>

#include "Result.h"

namespace swb {

using TokenId = std::int32_t;

// Special token ids of a vocabulary; -1 where the vocabulary has none.
struct SpecialTokens {
    TokenId bos = -1;
    TokenId eos = -1;
    TokenId unk = -1;
    TokenId pad = -1;
    bool addBos = false; // whether encode(..., addSpecial = true) prepends BOS
    bool addEos = false; // whether encode(..., addSpecial = true) appends EOS
    // Tokens that end an assistant's turn besides EOS (GGUF's eot/eom ids, or the vocabulary's own
    // <|eot_id|>, <|im_end|>, <end_of_turn>...): generation stops at them too.
    std::vector<TokenId> endOfTurn;
};

// Turns text into token ids and back, exactly as the model's own stack does.
// Implementations: HF tokenizer.json, GGUF vocabularies, llama2.c tok.bin.
class Tokenizer {
public:
    virtual ~Tokenizer() = default;

    // Human-readable kind, e.g. "gguf:gpt2/gpt-2", "tokenizer.json:bpe (byte-level)", "llama2.c".
    virtual QString kind() const = 0;
    virtual int vocabSize() const = 0;
    virtual const SpecialTokens& specialTokens() const = 0;

    // text is UTF-8. addSpecial: add BOS/EOS as the vocabulary asks. parseSpecial: text such as "<s>"
    // that spells a special/added token becomes that token; otherwise it is ordinary text.
    virtual std::vector<TokenId> encode(const std::string& text, bool addSpecial, bool parseSpecial) const = 0;
    // Concatenated bytes of the tokens' text (byte tokens decoded, SentencePiece spaces restored).
    virtual std::string decode(const std::vector<TokenId>& ids) const = 0;
    // The exact bytes token id stands for when decoded in the middle of a text (may be part of a
    // UTF-8 character); empty for special/control tokens.
    virtual std::string piece(TokenId id) const = 0;
    // The token's vocabulary string as stored (e.g. "▁the", "Ġthe", "<0x0A>", "<s>"), for display.
    virtual std::string tokenText(TokenId id) const = 0;
    virtual bool isSpecial(TokenId id) const = 0;

    // Fewer tokens than any text of `bytes` bytes can encode to, without encoding it: a prompt too long
    // for the context by its bytes alone is refused before it is tokenized (a 50 MB prompt took its
    // whole tokenization to be told so). A token covers at most the longest token's bytes (a special
    // token's text counts), times 4 for normalizers that shrink text (NFKC makes the 4-byte "𝐀" an "A").
    // The longest token is found once, on first use, thread-safely.
    std::size_t fewestTokens(std::size_t bytes) const;

private:
    mutable std::once_flag m_longestOnce;
    mutable std::size_t m_longestToken = 1;
};

// Decodes a stream of tokens into UTF-8 text without ever emitting half a character: bytes of a
// character split across tokens are held until the character completes.
class StreamingDecoder {
public:
    explicit StreamingDecoder(const Tokenizer& tokenizer) : m_tokenizer(tokenizer) {}
    // Text that became complete with this token (possibly empty).
    std::string push(TokenId id);
    // Whatever is still held (an incomplete character at the end of the stream), as is.
    std::string flush();

private:
    const Tokenizer& m_tokenizer;
    std::string m_pending;
    bool m_first = true;
};

} // namespace swb
