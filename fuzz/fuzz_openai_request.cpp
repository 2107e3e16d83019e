// A completions or chat request body as `swb serve` reads it: JSON, fields, the strategy they make, the
// prompt through the demo tokenizer and a real chat template.
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "chat/ChatTemplate.h"
#include "serving/OpenAiApi.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const swb::ChatTemplate chatTemplate =
        swb::ChatTemplate::fromFile(QStringLiteral(SWB_SOURCE_DIR "/tests/data/chat-templates/templates/qwen2_5.jinja")).value();
    if (size == 0)
        return 0;
    swb::ApiContext context;
    context.tokenizer = &swb::fuzz::demoTokenizer();
    context.chatTemplate = &chatTemplate;
    context.defaultStrategy = swb::Strategy::parse(QStringLiteral("greedy")).value();
    context.vocabSize = context.tokenizer->vocabSize();
    context.contextLength = 128;
    const QByteArray body(reinterpret_cast<const char*>(data) + 1, static_cast<qsizetype>(size - 1));
    auto parsed = swb::parseApiRequest(body, data[0] & 1, context);
    if (auto* error = std::get_if<swb::ApiError>(&parsed))
        (void)error->body();
    return 0;
}
