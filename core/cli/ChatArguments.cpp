#include "cli/ChatArguments.h"

#include <cstdio>

#include <QFile>

namespace swb::cli {

void declareChatTemplateArgument(QCommandLineParser& parser)
{
    parser.addOption({QStringLiteral("chat-template"),
        QStringLiteral("Chat template to use instead of the model's: a .jinja file, or a tokenizer_config.json."),
        QStringLiteral("FILE")});
}

std::optional<ChatTemplate> chatTemplateFromArguments(const Invocation& call, const QString& modelPath, QString* note)
{
    if (call.args.isSet(QStringLiteral("chat-template"))) {
        Result<ChatTemplate> t = ChatTemplate::fromFile(call.args.value(QStringLiteral("chat-template")), modelPath);
        if (!t)
            failBadInput(t.error().message);
        return std::move(t).value();
    }
    Result<std::optional<ChatTemplate>> own = ChatTemplate::forModel(modelPath);
    if (!own) {
        *note = own.error().message;
        return std::nullopt;
    }
    if (!own.value())
        *note = QStringLiteral("%1 has no chat template").arg(modelPath);
    return std::move(own).value();
}

std::string readConversation(const QString& path)
{
    QFile file;
    openInput(file, path);
    const std::string text = readInput(file, path).toStdString();
    if (Status valid = validateConversation(text); !valid)
        failBadInput(QStringLiteral("%1: %2").arg(path == QLatin1String("-") ? QStringLiteral("standard input") : path,
            valid.error().message));
    return text;
}

void refuseChatTemplateForRemote(const Invocation& call) {
    if (call.args.isSet(QStringLiteral("chat-template")))
        failBadInput(
            QStringLiteral("--chat-template cannot apply to a remote model: the engine renders conversations with "
                           "its own template (start the server with the template instead)"));
}

} // namespace swb::cli
