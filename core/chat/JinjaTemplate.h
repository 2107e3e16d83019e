#pragma once

#include <memory>
#include <string>

#include "Result.h"
#include "chat/JinjaValue.h"

namespace swb::jinja {

struct Program;

// A Jinja2 template as Hugging Face transformers renders chat templates: trim_blocks and lstrip_blocks on,
// loop controls (break, continue), the globals raise_exception, strftime_now, range, namespace and dict,
// and the filters, tests and str/dict methods that real chat templates use. Undefined values are lenient
// (an attribute of an undefined value is undefined), as in the reference renderer @huggingface/jinja.
// Errors are one sentence naming the template line; rendering is bounded (recursion depth, output size,
// loop length), so a hostile template cannot hang or exhaust memory.
class Template {
public:
    static Result<Template> parse(const std::string& source);
    // context: a map of the variables (messages, add_generation_prompt, bos_token, ...).
    Result<std::string> render(const Value& context) const;

private:
    explicit Template(std::shared_ptr<const Program> program) : m_program(std::move(program)) {}
    std::shared_ptr<const Program> m_program;
};

} // namespace swb::jinja
