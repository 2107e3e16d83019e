#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/Tokenizer.h"

namespace swb {

// The tokenizer of karpathy/llama2.c (tokenizer.bin / tok512.bin: int32 max_token_length, then per token
// float32 score, int32 length, bytes), encoding exactly as its run.c does: a dummy " " token first (for
// non-empty text), each UTF-8 character as its token or as <0xNN> byte tokens (id = byte + 3), then
// repeatedly the adjacent pair whose concatenated text is the highest-scoring token (leftmost on ties) is
// merged. Ids 0, 1, 2 are <unk>, BOS and EOS. decode() drops a piece's leading space after BOS (run.c's
// rule) and at the very start, so that decode(encode(s)) == s with or without BOS. llama2.c has no
// special-token syntax: parseSpecial changes nothing.
class Llama2cTokenizer final : public Tokenizer {
public:
    // expectedVocabSize: the checkpoint's vocab_size; the file must hold exactly that many tokens.
    // Negative: as many as the file holds.
    static Result<std::unique_ptr<Llama2cTokenizer>> load(const QString& path, int expectedVocabSize);

    QString kind() const override { return QStringLiteral("llama2.c"); }
    int vocabSize() const override { return static_cast<int>(m_tokens.size()); }
    const SpecialTokens& specialTokens() const override { return m_special; }
    std::vector<TokenId> encode(const std::string& text, bool addSpecial, bool parseSpecial) const override;
    std::string decode(const std::vector<TokenId>& ids) const override;
    std::string piece(TokenId id) const override;
    std::string tokenText(TokenId id) const override;
    bool isSpecial(TokenId id) const override;

    // The token's merge score; 0 outside the vocabulary.
    float score(TokenId id) const {
        return id >= 0 && id < vocabSize() ? m_scores[static_cast<std::size_t>(id)] : 0.0f;
    }

private:
    Llama2cTokenizer() = default;
    TokenId find(std::string_view text) const;

    std::vector<std::string> m_tokens;
    std::vector<float> m_scores;
    std::vector<std::string> m_pieces;
    std::unordered_map<std::string_view, TokenId> m_ids; // views into m_tokens
    SpecialTokens m_special;
};

} // namespace swb
