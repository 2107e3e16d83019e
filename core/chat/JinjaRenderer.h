#pragma once

// The Jinja engine's renderer: a parsed template run over its context's variables and the globals, within
// the render budget (JinjaSyntax.h).

#include <string>

#include "chat/JinjaSyntax.h"

namespace swb::jinja {

// The template's text; a TemplateError naming the line of what fails.
std::string renderProgram(const Program& program, const Value& context);

} // namespace swb::jinja
