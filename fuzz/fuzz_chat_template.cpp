// A chat template: parsed, then rendered on a conversation with tools and every message kind.
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "chat/ChatTemplate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string conversation =
        R"({"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi <b> ünï"},)"
        R"( {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {"x": 1}}}]},)"
        R"( {"role": "tool", "content": "42"}, {"role": "user", "content": "More"}],)"
        R"( "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]})";
    const std::string source(reinterpret_cast<const char*>(data), size);
    swb::Result<swb::ChatTemplate> parsed = swb::ChatTemplate::fromText(source, QStringLiteral("fuzz"));
    if (!parsed)
        return 0;
    (void)parsed->render(conversation, true);
    (void)parsed->render(R"([{"role": "user", "content": "x"}])", false);
    return 0;
}
