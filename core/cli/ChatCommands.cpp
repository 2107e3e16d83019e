// swb render-template: the prompt a chat template makes of a conversation.
// swb chat: a conversation in the terminal, streamed, with /system, /reset and /quit.

#include <cstdio>
#include <iostream>
#include <string>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "chat/ChatTemplate.h"
#include "cli/ChatArguments.h"
#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "sampling/Strategy.h"

namespace swb::cli {

namespace {

int runRenderTemplate(const Invocation& call)
{
    const QString modelPath = modelPathArgument(call);
    const std::string conversation = readConversation(call.required(QStringLiteral("messages")));
    QString note;
    std::optional<ChatTemplate> chatTemplate = chatTemplateFromArguments(call, modelPath, &note);
    if (!chatTemplate)
        failBadInput(note + QStringLiteral("; give one with --chat-template"));
    Result<std::string> prompt =
        chatTemplate->render(conversation, call.args.isSet(QStringLiteral("add-generation-prompt")));
    if (!prompt)
        failBadInput(prompt.error().message);
    writeBytes(call.out, prompt.value());
    return 0;
}

QJsonObject message(const QString& role, const QString& content)
{
    return QJsonObject{{QStringLiteral("role"), role}, {QStringLiteral("content"), content}};
}

int runChat(const Invocation& call)
{
    Result<Strategy> strategy = Strategy::parse(
        call.args.isSet(QStringLiteral("strategy")) ? call.args.value(QStringLiteral("strategy")) : QStringLiteral("greedy"));
    if (!strategy)
        failBadInput(strategy.error().message);
    for (const QString& stop : call.args.values(QStringLiteral("stop")))
        strategy->stop.push_back(stop.toStdString());
    const int maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 512, 1, 10'000'000));
    std::uint64_t seed = static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"), 0, 0, std::numeric_limits<long long>::max()));

    LoadedModel loaded = loadModelFromArguments(call);
    QString note;
    std::optional<ChatTemplate> chatTemplate = chatTemplateFromArguments(call, modelPathArgument(call), &note);
    if (!chatTemplate)
        call.err << "swb: " << note << "; each line you type is used as a raw prompt\n";
    call.err.flush();
    Generator generator(*loaded.model, *loaded.tokenizer);

    QString system = call.args.value(QStringLiteral("system"));
    QJsonArray turns;
    QTextStream in(stdin);
    for (;;) {
        call.err << "> ";
        call.err.flush();
        QString line;
        if (!in.readLineInto(&line))
            break;
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty())
            continue;
        if (trimmed == QLatin1String("/quit") || trimmed == QLatin1String("/exit"))
            break;
        if (trimmed == QLatin1String("/reset")) {
            turns = {};
            call.err << "(conversation cleared)\n";
            continue;
        }
        if (trimmed.startsWith(QLatin1String("/system"))) {
            system = trimmed.mid(7).trimmed();
            turns = {};
            call.err << (system.isEmpty() ? "(system prompt removed; conversation cleared)\n"
                                          : "(system prompt set; conversation cleared)\n");
            continue;
        }
        if (trimmed == QLatin1String("/help")) {
            call.err << "/system TEXT  set the system prompt (and start over)\n/reset  start over\n/quit  leave\n";
            continue;
        }
        turns.append(message(QStringLiteral("user"), line));
        GenerationRequest request;
        request.strategy = strategy.value();
        request.seed = seed++;
        request.maxTokens = maxTokens;
        request.traceLevel = TraceLevel::Scalars;
        if (chatTemplate) {
            QJsonArray messages;
            if (!system.isEmpty())
                messages.append(message(QStringLiteral("system"), system));
            for (const QJsonValue& turn : turns)
                messages.append(turn);
            request.conversationJson = QJsonDocument(messages).toJson(QJsonDocument::Compact).toStdString();
            Result<std::string> prompt = chatTemplate->render(request.conversationJson, true);
            if (!prompt) {
                call.err << "swb: " << prompt.error().message << '\n';
                turns.removeLast();
                continue;
            }
            request.prompt = prompt.value();
            request.addSpecial = false;
            request.parseSpecial = true;
        } else {
            request.prompt = line.toStdString();
        }
        Result<GenerationResult> result = generator.generate(request, [&](const GeneratedStep& step) {
            if (!step.shown.empty())
                writeBytes(call.out, step.shown);
            return true;
        });
        if (!result) {
            call.err << "swb: " << result.error().message << '\n';
            turns.removeLast();
            continue;
        }
        std::size_t streamed = 0;
        for (const GeneratedStep& step : result->steps)
            streamed += step.shown.size();
        if (streamed < result->text.size())
            writeBytes(call.out, result->text.substr(streamed));
        writeBytes(call.out, "\n");
        turns.append(message(QStringLiteral("assistant"), QString::fromStdString(result->text)));
        if (result->finish != FinishReason::Eos && result->finish != FinishReason::StopString)
            call.err << "(" << finishReasonName(result->finish) << ")\n";
    }
    call.err.flush();
    return 0;
}

} // namespace

std::vector<Subcommand> chatSubcommands()
{
    return {
        {QStringLiteral("render-template"),
            QStringLiteral("swb render-template [--model PATH] --messages FILE.json [--add-generation-prompt] "
                           "[--chat-template FILE]"),
            QStringLiteral("Print the prompt the model's chat template makes of a conversation."),
            [](QCommandLineParser& parser) {
                declareModelArguments(parser, false);
                declareChatTemplateArgument(parser);
                parser.addOptions({
                    {QStringLiteral("messages"),
                        QStringLiteral("Conversation: a JSON array of messages, or {\"messages\", \"tools\"}; - for stdin."),
                        QStringLiteral("FILE")},
                    {QStringLiteral("add-generation-prompt"),
                        QStringLiteral("End with the header of the assistant's next turn.")},
                });
            },
            runRenderTemplate},
        {QStringLiteral("chat"),
            QStringLiteral("swb chat [--model PATH] [--strategy S] [--system T] [--stop S]... [--max-tokens N] "
                           "[--seed S] [--chat-template FILE]"),
            QStringLiteral("Talk with the model in the terminal (/system TEXT, /reset, /quit)."),
            [](QCommandLineParser& parser) {
                declareModelArguments(parser);
                declareChatTemplateArgument(parser);
                parser.addOptions({
                    {QStringLiteral("strategy"), QStringLiteral("Preset, JSON file or JSON; default greedy."),
                        QStringLiteral("S")},
                    {QStringLiteral("system"), QStringLiteral("System prompt."), QStringLiteral("T")},
                    {QStringLiteral("stop"), QStringLiteral("Stop string (repeatable)."), QStringLiteral("S")},
                    {QStringLiteral("max-tokens"), QStringLiteral("Most tokens per reply (default 512)."),
                        QStringLiteral("N")},
                    {QStringLiteral("seed"), QStringLiteral("RNG seed of the first reply (default 0)."),
                        QStringLiteral("S")},
                });
            },
            runChat},
    };
}

} // namespace swb::cli
