#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "Result.h"

namespace swb {

// One element of a compiled grammar rule, in the form llama.cpp's GBNF parser produces: a rule is its
// alternatives one after another, each ended by Alt (the last by End); a character set is a Char or
// CharNot followed by CharRangeUpper (the upper end of a range started by the element before it) and
// CharAlt (one more character or range start) elements.
struct GrammarElement {
    enum class Type : std::uint8_t { End, Alt, RuleRef, Char, CharNot, CharRangeUpper, CharAlt, CharAny };
    Type type = Type::End;
    std::uint32_t value = 0; // a code point, or a rule index for RuleRef
};

// A context-free grammar over Unicode code points, as GBNF writes it; start symbol `root`.
struct Grammar {
    std::vector<std::vector<GrammarElement>> rules;
    std::vector<std::string> names; // the rule's GBNF name; generated rules get "parent_N"
    std::uint32_t root = 0;
};

// The most bytes of GBNF text parseGbnf() accepts (a grammar is a page or two; a megabyte is already
// thousands of rules).
inline constexpr std::size_t kMaxGbnfBytes = 1 << 20;

// Parses llama.cpp's GBNF: `name ::= alternatives`, `|`, sequences of "literals" (escapes \n \r \t \\ \"
// \[ \] \xHH \uHHHH \UHHHHHHHH), [character classes] with ranges and ^ negation, `.`, (groups), rule
// names, repetition * + ? {m} {m,} {m,n} {,n}, and # comments. Refused with one sentence naming the line
// and column: a syntax error, a rule used but never defined, no `root`, left recursion (which GBNF
// forbids), a grammar that accepts no string, and one larger than kMaxGbnfBytes.
Result<Grammar> parseGbnf(std::string_view text);

// Whether a character-set element (Char, CharNot or CharAny, with the elements after it) matches cp.
bool grammarCharMatches(const GrammarElement* set, std::uint32_t cp);
// The element after a character set's last part.
const GrammarElement* grammarCharSetEnd(const GrammarElement* set);

} // namespace swb
