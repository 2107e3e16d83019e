// swb batch: prompts x strategies x samples into the run store, with a comparison per prompt x sample.
// Resumable: every run and comparison carries a key derived from what defines it, so running the
// same command again skips finished work and never duplicates a run.

#include <algorithm>
#include <optional>

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "chat/ChatTemplate.h"
#include "cli/ChatArguments.h"
#include "cli/GrammarArgument.h"
#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "evaluation/PromptFile.h"
#include "model/Model.h"
#include "serving/RemoteEngine.h"
#include "storage/Database.h"
#include "tokenizer/Tokenizer.h"
#include "workflows/ComparisonRunner.h"

namespace swb::cli {

namespace {

int runBatch(const Invocation& call) {
    const QString promptsPath = call.required(QStringLiteral("prompts"));
    const QStringList strategyArgs = call.args.values(QStringLiteral("strategy"));
    if (strategyArgs.size() < 1)
        failBadInput(QStringLiteral("give at least one --strategy"));
    Result<QStringList> prompts = readPromptFile(promptsPath);
    if (!prompts)
        failBadInput(prompts.error().message);
    ComparisonPlan plan;
    plan.prompts = prompts.value();
    plan.promptSetName = QFileInfo(promptsPath).absoluteFilePath();
    plan.promptSetSource = QFileInfo(promptsPath).fileName();
    for (const QString& text : strategyArgs) {
        Result<Strategy> strategy = Strategy::parse(text);
        if (!strategy)
            failBadInput(strategy.error().message);
        if (strategy->name.isEmpty())
            strategy->name = text.size() <= 40 ? text : text.left(37) + QStringLiteral("...");
        plan.strategies.push_back(applyGrammarArgument(call, std::move(strategy).value()));
    }
    plan.samples = static_cast<int>(call.integer(QStringLiteral("samples"), 1, 1, 100000));
    plan.baseSeed = static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"), 0, 0, 1LL << 52));
    plan.maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 128, 1, 1000000));
    plan.blind = call.args.isSet(QStringLiteral("blind"));
    const QString policy = call.args.value(QStringLiteral("seed-policy"));
    if (policy == QLatin1String("independent"))
        plan.seedPolicy = SeedPolicy::Independent;
    else if (!policy.isEmpty() && policy != QLatin1String("shared"))
        failBadInput(QStringLiteral("--seed-policy takes shared or independent, not '%1'").arg(policy));

    // Conversations in the prompt file run through the model's chat template (or --chat-template); checked
    // before anything is generated.
    // (A remote engine renders them with its own template.)
    const bool remoteModel = isRemoteModelAddress(call.args.value(QStringLiteral("model")));
    if (remoteModel)
        refuseChatTemplateForRemote(call);
    if (!remoteModel && std::any_of(plan.prompts.begin(), plan.prompts.end(), isConversationJson)) {
        QString note;
        plan.chatTemplate = chatTemplateFromArguments(call, modelPathArgument(call), &note);
        if (!plan.chatTemplate)
            failBadInput(QStringLiteral("%1 holds conversations, but %2; give one with --chat-template")
                             .arg(promptsPath, note));
        for (qsizetype i = 0; i < plan.prompts.size(); ++i)
            if (isConversationJson(plan.prompts[i]))
                if (Result<std::string> rendered = plan.chatTemplate->render(plan.prompts[i].toStdString(), true); !rendered)
                    failBadInput(QStringLiteral("%1, prompt %2: %3").arg(promptsPath).arg(i + 1).arg(rendered.error().message));
    }

    Result<std::unique_ptr<Database>> database = Database::open(call.required(QStringLiteral("db")));
    if (!database)
        failBadInput(database.error().message);
    // The runs' source: the local model, or (--model http://…/v1) another engine, request by request.
    std::optional<LoadedModel> loaded;
    RunSource source;
    std::optional<RemoteModel> remote;
    if (remoteModel) {
        Result<RemoteModel> connected =
            connectRemoteModel(call.args.value(QStringLiteral("model")), call.args.value(QStringLiteral("api-key")));
        if (!connected)
            failBadInput(connected.error().message);
        remote = connected.value();
        for (const Strategy& strategy : plan.strategies) // everything checked before anything is sent
            if (Result<QJsonObject> fields = remoteSamplingFields(strategy, remote->engine); !fields)
                failBadInput(QStringLiteral("strategy '%1': %2").arg(strategy.name, fields.error().message));
        source = remoteRunSource(*remote);
    } else {
        loaded.emplace(loadModelFromArguments(call));
    }

    int reported = -1;
    const auto report = [&](const ComparisonProgress& progress) {
            const int item = progress.prompt * plan.samples + progress.sample;
            if (item == reported)
                return;
            reported = item;
            call.err << QStringLiteral("swb: prompt %1/%2, sample %3 (%4/%5 runs done)\n")
                            .arg(progress.prompt + 1)
                            .arg(plan.prompts.size())
                            .arg(progress.sample + 1)
                            .arg(progress.done)
                            .arg(progress.total);
            call.err.flush();
    };
    Result<ComparisonOutcome> outcome = remote ? runComparisonPlan(source, *database.value(), plan, report)
                                               : runComparisonPlan(*loaded->model, *loaded->tokenizer, *database.value(), plan, report);
    if (!outcome)
        throw Failure{outcome.error().kind == ErrorKind::BadInput ? 2 : 1, outcome.error().message};
    const QJsonObject summary{{QStringLiteral("runs_total"), outcome->total},
                              {QStringLiteral("runs_generated"), outcome->generated},
                              {QStringLiteral("runs_skipped"), outcome->skipped},
                              {QStringLiteral("comparisons_created"), outcome->comparisonsCreated},
                              {QStringLiteral("db"), database.value()->path()}};
    call.out << QJsonDocument(summary).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

Subcommand batchSubcommand() {
    return {QStringLiteral("batch"),
            QStringLiteral("swb batch [--model PATH|http://HOST:PORT/v1 [--api-key KEY]] --prompts FILE --strategy A --strategy B [...] [--samples N] "
                           "[--seed S] [--seed-policy shared|independent] [--max-tokens N] --db FILE [--blind] "
                           "[--chat-template FILE]"),
            QStringLiteral("Run every prompt with every strategy into the run store, one comparison per prompt and "
                           "sample; resumable."),
            [](QCommandLineParser& parser) {
                declareModelArguments(parser);
                parser.addOption(grammarOption());
                parser.addOptions({
                    {QStringLiteral("prompts"),
                     QStringLiteral("Prompt file: .txt (a prompt per line), .jsonl (\"prompt\" field, or "
                                    "\"messages\": a conversation for the chat template) or .csv (prompt column)."),
                     QStringLiteral("FILE")},
                    {QStringLiteral("strategy"), QStringLiteral("A strategy (repeat for each)."), QStringLiteral("S")},
                    {QStringLiteral("samples"), QStringLiteral("Samples per prompt and strategy (default 1)."),
                     QStringLiteral("N")},
                    {QStringLiteral("seed"),
                     QStringLiteral("Seed of sample 1; sample k uses seed + k - 1 (default 0)."), QStringLiteral("S")},
                    {QStringLiteral("seed-policy"),
                     QStringLiteral("shared: every strategy of a sample uses its seed (default); independent: a "
                                    "seed of its own per strategy."),
                     QStringLiteral("P")},
                    {QStringLiteral("max-tokens"), QStringLiteral("Most tokens per run (default 128)."),
                     QStringLiteral("N")},
                    {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                    {QStringLiteral("blind"), QStringLiteral("Mark the comparisons for blind rating.")},
                    {QStringLiteral("api-key"),
                     QStringLiteral("With --model http(s)://HOST:PORT/v1 (a model another engine serves): its API key."),
                     QStringLiteral("KEY")},
                });
                declareChatTemplateArgument(parser);
            },
            runBatch};
}

} // namespace swb::cli
