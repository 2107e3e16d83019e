#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/Tokenizer.h"

namespace swb {

// The vocabulary's tokens by their bytes (Tokenizer::piece: byte-fallback tokens are their byte), as a
// trie: a grammar walks it once per step, following only the byte paths its state can take, so tokens
// sharing a prefix are checked together. Special tokens and tokens without bytes are left out (a grammar
// never allows them; the end tokens are the sampler's business).
class TokenTrie {
public:
    static std::shared_ptr<const TokenTrie> build(const Tokenizer& tokenizer);
    // The trie of a tokenizer, built once while any chain uses it (recognised by its vocabulary, not only
    // its address).
    static std::shared_ptr<const TokenTrie> of(const Tokenizer& tokenizer);

    struct Node {
        std::uint32_t firstChild = 0; // into childBytes/childNodes
        std::uint32_t childCount = 0;
        std::uint32_t firstToken = 0; // into tokens: the tokens whose bytes end here
        std::uint32_t tokenCount = 0;
    };

    const Node& node(std::uint32_t i) const { return m_nodes[i]; }
    std::uint8_t childByte(std::uint32_t edge) const { return m_childBytes[edge]; }
    std::uint32_t childNode(std::uint32_t edge) const { return m_childNodes[edge]; }
    std::span<const TokenId> tokensAt(const Node& node) const {
        return {m_tokens.data() + node.firstToken, node.tokenCount};
    }
    // A token's bytes (empty for special tokens).
    std::string_view piece(TokenId id) const {
        const auto i = static_cast<std::size_t>(id);
        return i + 1 < m_pieceStart.size()
                   ? std::string_view(m_pieceBytes).substr(m_pieceStart[i], m_pieceStart[i + 1] - m_pieceStart[i])
                   : std::string_view();
    }
    int vocabSize() const { return m_vocabSize; }
    std::size_t nodeCount() const { return m_nodes.size(); }

private:
    std::vector<Node> m_nodes; // 0 is the root (the empty prefix)
    std::vector<std::uint8_t> m_childBytes;
    std::vector<std::uint32_t> m_childNodes;
    std::vector<TokenId> m_tokens;
    std::string m_pieceBytes; // every token's piece, in id order
    std::vector<std::uint32_t> m_pieceStart;
    int m_vocabSize = 0;
};

} // namespace swb
