#pragma once

// The Jinja engine's parser: recursive descent with Jinja2's precedence (or < and < not < comparisons <
// + - < ~ < * / // % < ** < unary - < filters and tests < postfix . [] ()). Filters and tests are found by
// name here: an unknown one is an error at parse time naming its line, outside an if's branches, as in Jinja2.

#include <vector>

#include "chat/JinjaLexer.h"
#include "chat/JinjaSyntax.h"

namespace swb::jinja {

// The template's body from its tokens; a TemplateError naming the line of what does not parse.
Body parseTokens(std::vector<Token> tokens);

} // namespace swb::jinja
