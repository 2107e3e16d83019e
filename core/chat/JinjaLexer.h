#pragma once

// The Jinja engine's lexer: text, tags and the tokens inside tags, with Jinja2's whitespace control
// (trim_blocks, lstrip_blocks, "-" and "+" markers) applied as the tags are found.

#include <string>
#include <vector>

namespace swb::jinja {

struct Token {
    enum class Kind { Text, VariableBegin, VariableEnd, BlockBegin, BlockEnd, Name, String, Number, Operator, End };
    Kind kind = Kind::End;
    std::string text;
    int line = 1;
};

// A template's tokens, ending with an End token; a TemplateError (JinjaSyntax.h) naming the line of what
// it cannot read.
std::vector<Token> tokenize(std::string source);

} // namespace swb::jinja
