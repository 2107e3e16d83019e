#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tokenizer/PreTokenizer.h"
#include "tokenizer/TokenIndex.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

// The one BPE engine behind byte-level vocabularies (GPT-2, Llama 3, Qwen2, SmolLM, StarCoder...) and
// SentencePiece-style ones (Llama 2, TinyLlama, Mistral, Phi-3), whether they come from a tokenizer.json
// or a GGUF file; the loaders only fill in a Config.
//
// encode: split out added/special tokens (longest first, as llama.cpp does), then per remaining section:
// Unicode normalisation, the SentencePiece dummy prefix and space escaping, pre-tokenizer splits, the
// byte-level alphabet, and merges within each piece, either by merge rank (merges given; lowest rank
// first) or by the merged token's score (no merges: SentencePiece/llama.cpp SPM; highest score first).
// Ties go to the leftmost pair. Characters left without a token become <0xNN> byte tokens (byte
// fallback) or UNK.
class BpeTokenizer final : public Tokenizer {
public:
    // GGUF token types (tokenizer.ggml.token_type); tokenizer.json loaders map onto them.
    enum class TokenKind : std::uint8_t {
        Normal = 1,
        Unknown = 2,
        Control = 3,     // special: parsed from text only with parseSpecial, decodes to nothing
        UserDefined = 4, // added token: always parsed from text, decodes to its text
        Unused = 5,
        Byte = 6, // <0xNN>
    };

    struct Token {
        std::string text; // as stored in the vocabulary
        TokenKind kind = TokenKind::Normal;
        float score = 0.0f;
        bool lstrip = false; // when split out of text, swallow the whitespace to its left
        bool rstrip = false; // ... and to its right
    };

    // The SentencePiece dummy prefix: a space before each text section (llama.cpp, HF Prepend normalizer),
    // before sections not already starting with one (HF Metaspace prepend_scheme "always"), or only before
    // the text's first section when it does not (prepend_scheme "first").
    enum class SpacePrefix { None, Always, IfMissing, FirstIfMissing };
    enum class Normalization { None, Nfc, Nfkc, Nfd, Nfkd };

    struct Config {
        QString kind;
        QString source; // file the vocabulary came from, for error messages
        std::vector<Token> tokens;
        // Merge rules by rank, as token texts. Empty: rank pairs by the score of the token they form.
        std::vector<std::pair<std::string, std::string>> merges;
        // The same rules already resolved to (left, right, result) ids by a loader that could (large
        // vocabularies: no text kept per rule); used instead of merges when not empty.
        std::vector<std::array<TokenId, 3>> resolvedMerges;
        // A tokenizer.json BPE model with an empty merges list: nothing merges, pieces stay as their symbols
        // (tokenizers' behaviour), instead of merging by score.
        bool withoutMerges = false;
        bool byteLevel = false;    // pieces go through GPT-2's byte-level alphabet
        bool metaspace = false;    // vocabulary spells spaces as U+2581 (decoding turns them back)
        bool escapeSpaces = false; // ' ' becomes U+2581 before merging
        SpacePrefix spacePrefix = SpacePrefix::None;
        bool byteLevelPrefixSpace = false; // HF ByteLevel add_prefix_space: ' ' before a section lacking one
        bool byteFallback = false;
        bool fuseUnknown = false;
        bool ignoreMerges = false; // a piece that is itself a token stays whole (Llama 3)
        Normalization normalization = Normalization::None;
        PreTokenizer preTokenizer;
        SpecialTokens special;
    };

    // Validates the config (token ids, merges naming missing tokens, duplicates); errors name the source.
    static Result<std::unique_ptr<BpeTokenizer>> create(Config config);

    QString kind() const override { return m_config.kind; }
    int vocabSize() const override { return static_cast<int>(m_config.tokens.size()); }
    const SpecialTokens& specialTokens() const override { return m_config.special; }
    std::vector<TokenId> encode(const std::string& text, bool addSpecial, bool parseSpecial) const override;
    std::string decode(const std::vector<TokenId>& ids) const override;
    std::string piece(TokenId id) const override;
    std::string tokenText(TokenId id) const override;
    bool isSpecial(TokenId id) const override;

    const Config& config() const { return m_config; }
    // The merge rules as (left, right) ids, best rank first (config() no longer holds them once created).
    std::vector<std::pair<TokenId, TokenId>> mergeRules() const;
    // Token id of a vocabulary string, -1 if none.
    TokenId find(std::string_view text) const;

private:
    explicit BpeTokenizer(Config config);

    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    struct Fragment {
        std::size_t begin;
        std::size_t end;
        TokenId token; // -1: text
    };

    std::vector<Fragment> splitAddedTokens(const std::string& text, bool parseSpecial) const;
    void encodeSection(std::string_view section, bool atTextStart, std::vector<TokenId>& out) const;
    void encodePiece(std::string_view piece, std::vector<TokenId>& out) const;
    void mergeWord(std::string_view word, std::vector<TokenId>& out) const;

    Config m_config;
    TokenIndex m_ids;    // views into m_config's token texts
    MergeTable m_merges; // (left, right) -> rank and result; empty: merges by score (SentencePiece)
    std::vector<std::string> m_pieces;                                                // decoded bytes per token
    TokenId m_byteTokens[256];          // <0xNN> per byte, -1 where missing
    std::vector<TokenId> m_addedTokens; // split out of text before BPE, longest text first

    // Pieces repeat a lot in real text (" the", " of"): remember their tokens. Bounded; guarded because
    // encode() is const and may run on several threads.
    mutable std::mutex m_cacheMutex;
    mutable std::unordered_map<std::string, std::vector<TokenId>, StringHash, std::equal_to<>> m_cache;
};

} // namespace swb
