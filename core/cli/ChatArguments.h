#pragma once

#include <optional>
#include <string>

#include <QCommandLineParser>
#include <QString>

#include "chat/ChatTemplate.h"
#include "cli/Subcommand.h"

namespace swb::cli {

// --chat-template FILE: a template to use instead of the model's own.
void declareChatTemplateArgument(QCommandLineParser& parser);

// The chat template for modelPath: --chat-template when given (a bad one fails, exit 2), else the model's
// own. nullopt when there is none to use; *note then says why in one sentence (the model has none, or
// its own does not parse), for the caller to show as it falls back to raw prompts.
std::optional<ChatTemplate> chatTemplateFromArguments(const Invocation& call, const QString& modelPath, QString* note);
// A remote model renders conversations with the engine's own template: --chat-template is refused there
// (exit 2, one sentence) rather than ignored.
void refuseChatTemplateForRemote(const Invocation& call);

// A conversation file ("-": standard input): a JSON array of messages or {"messages": [...], "tools": [...]};
// checked, returned as written.
std::string readConversation(const QString& path);

} // namespace swb::cli
