#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "Result.h"

namespace swb {

// Splits text into the pieces BPE merges within ("words"), as a chain of regex splits: each step splits
// every piece of the previous one, looking only inside that piece (lookarounds and $ stop at its ends),
// the way llama.cpp's unicode_regex_split and Hugging Face's Sequence of Split pre-tokenizers do. Text
// between matches is kept as pieces of its own unless the behaviour says otherwise.
//
// Patterns are PCRE2 with Unicode properties (\p{L}, \p{N}, \p{P}...); \s means Unicode White_Space
// (as in llama.cpp and Oniguruma, so U+0085 counts). Invalid UTF-8 never matches: such bytes stay in the
// pieces between matches, so no input byte is ever lost.
class PreTokenizer {
public:
    // What happens to the matches (Hugging Face SplitDelimiterBehavior).
    enum class Behavior { Isolated, Removed, MergedWithPrevious, MergedWithNext, Contiguous };
    // Whose regex semantics a pattern follows: llama.cpp's std::regex ($ only at the very end of the
    // piece) or Hugging Face's Oniguruma (^ and $ also at line breaks).
    enum class Dialect { LlamaCpp, HuggingFace };

    struct Span {
        std::size_t begin = 0;
        std::size_t end = 0;
    };

    PreTokenizer();
    ~PreTokenizer();
    PreTokenizer(const PreTokenizer&);
    PreTokenizer& operator=(const PreTokenizer&);
    PreTokenizer(PreTokenizer&&) noexcept;
    PreTokenizer& operator=(PreTokenizer&&) noexcept;

    // The chain llama.cpp applies for a GGUF tokenizer.ggml.pre value (llama-vocab.cpp); an unknown
    // name is an error, never a silent fallback.
    static Result<PreTokenizer> forGgufType(const std::string& name);
    // GPT-2's pattern, also used by Hugging Face's ByteLevel pre-tokenizer with use_regex.
    static const char* gpt2Pattern();

    // Adds a split step. A literal pattern matches its text exactly. The error names the pattern.
    Status addSplit(const std::string& pattern, bool literal, Behavior behavior, bool invert, Dialect dialect);
    // Hugging Face Digits: each digit (individual) or each run of digits its own piece.
    Status addDigits(bool individual);

    bool empty() const { return m_steps.empty(); }
    std::size_t size() const { return m_steps.size(); }

    // The pieces of text, in order (replacing the contents of pieces). Pieces are never empty; with no
    // steps the whole text is one piece.
    void split(std::string_view text, std::vector<Span>& pieces) const;

private:
    struct Step;
    std::vector<std::shared_ptr<const Step>> m_steps; // compiled patterns are immutable and shared
};

} // namespace swb
