#include "tokenizer/Tokenizer.h"

#include "tokenizer/Utf8.h"

namespace swb {

std::size_t Tokenizer::fewestTokens(std::size_t bytes) const {
    std::call_once(m_longestOnce, [this] {
        for (TokenId id = 0; id < vocabSize(); ++id) {
            m_longestToken = std::max(m_longestToken, piece(id).size());
            if (isSpecial(id))
                m_longestToken = std::max(m_longestToken, tokenText(id).size());
        }
    });
    const std::size_t perToken = 4 * m_longestToken;
    return bytes / perToken;
}

std::string StreamingDecoder::push(TokenId id) {
    // The first token with text goes through decode(), which applies the tokenizer's start-of-text rule
    // (the SentencePiece dummy space, run.c's leading space after BOS); after it a token's text is its
    // piece. Tokens before it (BOS) have no text.
    std::string text = m_tokenizer.piece(id);
    if (m_first && !text.empty()) {
        m_first = false;
        text = m_tokenizer.decode({id});
    }
    m_pending += text;
    const std::size_t ready = utf8::completePrefix(m_pending);
    std::string out = m_pending.substr(0, ready);
    m_pending.erase(0, ready);
    return out;
}

std::string StreamingDecoder::flush() {
    std::string rest;
    rest.swap(m_pending);
    return rest;
}

} // namespace swb
