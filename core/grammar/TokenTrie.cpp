#include "grammar/TokenTrie.h"

#include <algorithm>
#include <mutex>
#include <string>

namespace swb {

std::shared_ptr<const TokenTrie> TokenTrie::build(const Tokenizer& tokenizer) {
    auto trie = std::make_shared<TokenTrie>();
    trie->m_vocabSize = tokenizer.vocabSize();
    std::vector<std::pair<std::string, TokenId>> pieces;
    pieces.reserve(static_cast<std::size_t>(tokenizer.vocabSize()));
    for (TokenId id = 0; id < tokenizer.vocabSize(); ++id) {
        std::string piece = tokenizer.isSpecial(id) ? std::string() : tokenizer.piece(id);
        trie->m_pieceStart.push_back(static_cast<std::uint32_t>(trie->m_pieceBytes.size()));
        trie->m_pieceBytes += piece;
        if (!piece.empty())
            pieces.emplace_back(std::move(piece), id);
    }
    trie->m_pieceStart.push_back(static_cast<std::uint32_t>(trie->m_pieceBytes.size()));
    std::sort(pieces.begin(), pieces.end());

    // Each node's children are laid out together; a node covers the sorted pieces sharing its prefix.
    struct Pending {
        std::uint32_t node;
        std::size_t begin, end, depth;
    };
    trie->m_nodes.push_back({});
    std::vector<Pending> todo{{0, 0, pieces.size(), 0}};
    while (!todo.empty()) {
        const Pending at = todo.back();
        todo.pop_back();
        std::size_t i = at.begin;
        Node& node = trie->m_nodes[at.node];
        node.firstToken = static_cast<std::uint32_t>(trie->m_tokens.size());
        for (; i < at.end && pieces[i].first.size() == at.depth; ++i)
            trie->m_tokens.push_back(pieces[i].second);
        node.tokenCount = static_cast<std::uint32_t>(trie->m_tokens.size()) - node.firstToken;
        node.firstChild = static_cast<std::uint32_t>(trie->m_childBytes.size());
        std::vector<Pending> children;
        while (i < at.end) {
            const char byte = pieces[i].first[at.depth];
            std::size_t j = i;
            while (j < at.end && pieces[j].first[at.depth] == byte)
                ++j;
            const auto child = static_cast<std::uint32_t>(trie->m_nodes.size() + children.size());
            trie->m_childBytes.push_back(static_cast<std::uint8_t>(byte));
            trie->m_childNodes.push_back(child);
            children.push_back({child, i, j, at.depth + 1});
            i = j;
        }
        trie->m_nodes[at.node].childCount = static_cast<std::uint32_t>(children.size());
        trie->m_nodes.resize(trie->m_nodes.size() + children.size());
        todo.insert(todo.end(), children.rbegin(), children.rend());
    }
    return trie;
}

std::shared_ptr<const TokenTrie> TokenTrie::of(const Tokenizer& tokenizer) {
    // A fingerprint of the vocabulary: its size and kind, and a sample of its pieces.
    std::string fingerprint = tokenizer.kind().toStdString() + '/' + std::to_string(tokenizer.vocabSize());
    for (TokenId id = 0; id < tokenizer.vocabSize(); id += std::max(1, tokenizer.vocabSize() / 97))
        fingerprint += '/' + tokenizer.piece(id);
    static std::mutex mutex;
    static std::vector<std::pair<std::string, std::weak_ptr<const TokenTrie>>> known;
    std::lock_guard lock(mutex);
    std::erase_if(known, [](const auto& entry) { return entry.second.expired(); });
    for (const auto& [print, trie] : known)
        if (print == fingerprint)
            if (std::shared_ptr<const TokenTrie> alive = trie.lock())
                return alive;
    std::shared_ptr<const TokenTrie> trie = build(tokenizer);
    known.emplace_back(std::move(fingerprint), trie);
    return trie;
}

} // namespace swb
