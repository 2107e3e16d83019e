#include "training/BpeTrainer.h"

#include <cstdint>
#include <map>
#include <unordered_map>

#include "tokenizer/ByteLevelAlphabet.h"
#include "tokenizer/PreTokenizer.h"

namespace swb {

namespace {

struct Word {
    std::vector<int> symbols;
    std::int64_t count = 0;
};

std::uint64_t pairKey(int a, int b) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

void countPairs(const Word& w, std::int64_t sign, std::unordered_map<std::uint64_t, std::int64_t>& pairs) {
    for (std::size_t i = 0; i + 1 < w.symbols.size(); ++i) {
        const std::uint64_t key = pairKey(w.symbols[i], w.symbols[i + 1]);
        std::int64_t& c = pairs[key];
        c += sign * w.count;
        if (c == 0)
            pairs.erase(key);
    }
}

} // namespace

Result<BpeVocabulary> BpeTrainer::train(const std::vector<std::string>& documents, int vocabularySize,
                                        const std::vector<std::string>& specialTokens) {
    BpeVocabulary vocab;
    vocab.specialCount = static_cast<int>(specialTokens.size());
    vocab.tokens = specialTokens;
    const ByteLevelAlphabet& alphabet = ByteLevelAlphabet::instance();
    const int firstByte = vocab.specialCount;
    for (int b = 0; b < 256; ++b) {
        std::string text;
        const char byte = static_cast<char>(b);
        alphabet.encode(std::string_view(&byte, 1), text);
        vocab.tokens.push_back(std::move(text));
    }

    // Count the pre-tokenized words, exactly as the ByteLevel pre-tokenizer will split text later.
    PreTokenizer pre;
    if (Status added = pre.addSplit(PreTokenizer::gpt2Pattern(), false, PreTokenizer::Behavior::Isolated, false,
                                    PreTokenizer::Dialect::HuggingFace);
        !added)
        return added.error();
    std::map<std::string, std::int64_t> counts; // ordered: the same word order on every run
    std::vector<PreTokenizer::Span> pieces;
    for (const std::string& doc : documents) {
        pre.split(doc, pieces);
        for (const PreTokenizer::Span& p : pieces)
            ++counts[doc.substr(p.begin, p.end - p.begin)];
    }
    std::vector<Word> words;
    words.reserve(counts.size());
    for (const auto& [text, count] : counts) {
        Word w;
        w.count = count;
        for (const char c : text)
            w.symbols.push_back(firstByte + static_cast<unsigned char>(c));
        words.push_back(std::move(w));
    }
    std::unordered_map<std::uint64_t, std::int64_t> pairs;
    for (const Word& w : words)
        countPairs(w, 1, pairs);

    while (static_cast<int>(vocab.tokens.size()) < vocabularySize && !pairs.empty()) {
        std::uint64_t best = 0;
        std::int64_t bestCount = 0;
        for (const auto& [key, count] : pairs)
            if (count > bestCount || (count == bestCount && key < best)) {
                best = key;
                bestCount = count;
            }
        const int a = static_cast<int>(best >> 32);
        const int b = static_cast<int>(best & 0xffffffffu);
        const int merged = static_cast<int>(vocab.tokens.size());
        vocab.merges.emplace_back(vocab.tokens[static_cast<std::size_t>(a)], vocab.tokens[static_cast<std::size_t>(b)]);
        vocab.tokens.push_back(vocab.tokens[static_cast<std::size_t>(a)] + vocab.tokens[static_cast<std::size_t>(b)]);
        for (Word& w : words) {
            bool present = false;
            for (std::size_t i = 0; i + 1 < w.symbols.size() && !present; ++i)
                present = w.symbols[i] == a && w.symbols[i + 1] == b;
            if (!present)
                continue;
            countPairs(w, -1, pairs);
            std::vector<int> out;
            out.reserve(w.symbols.size());
            for (std::size_t i = 0; i < w.symbols.size(); ++i) {
                if (i + 1 < w.symbols.size() && w.symbols[i] == a && w.symbols[i + 1] == b) {
                    out.push_back(merged);
                    ++i;
                } else {
                    out.push_back(w.symbols[i]);
                }
            }
            w.symbols = std::move(out);
            countPairs(w, 1, pairs);
        }
    }
    return vocab;
}

} // namespace swb
