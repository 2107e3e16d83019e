// swb batch: prompts x strategies x samples into the run store, with a comparison per prompt x sample.
// Resumable: every run and comparison carries a key derived from what defines it, so running the
// same command again skips finished work and never duplicates a run.

#include <algorithm>
#include <numeric>

#include <QCryptographicHash>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "evaluation/PromptFile.h"
#include "generation/Generator.h"
#include "generation/RunRecording.h"
#include "model/Model.h"
#include "sampling/Rng.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "tokenizer/Tokenizer.h"

namespace swb::cli {

namespace {

QString keyOf(const QStringList& parts) {
    return QString::fromLatin1(
        QCryptographicHash::hash(parts.join(QChar(0x1F)).toUtf8(), QCryptographicHash::Sha256).toHex());
}

std::unique_ptr<Database> openDatabase(const QString& path) {
    Result<std::unique_ptr<Database>> database = Database::open(path);
    if (!database)
        failBadInput(database.error().message);
    return std::move(database).value();
}

int runBatch(const Invocation& call) {
    const QString promptsPath = call.required(QStringLiteral("prompts"));
    const QStringList strategyArgs = call.args.values(QStringLiteral("strategy"));
    if (strategyArgs.size() < 1)
        failBadInput(QStringLiteral("give at least one --strategy"));
    Result<QStringList> prompts = readPromptFile(promptsPath);
    if (!prompts)
        failBadInput(prompts.error().message);
    std::vector<Strategy> strategies;
    for (const QString& text : strategyArgs) {
        Result<Strategy> strategy = Strategy::parse(text);
        if (!strategy)
            failBadInput(strategy.error().message);
        if (strategy->name.isEmpty())
            strategy->name = text.size() <= 40 ? text : text.left(37) + QStringLiteral("...");
        strategies.push_back(std::move(strategy).value());
    }
    const int samples = static_cast<int>(call.integer(QStringLiteral("samples"), 1, 1, 100000));
    const auto baseSeed = static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"), 0, 0, 1LL << 52));
    const int maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 128, 1, 1000000));
    const bool blind = call.args.isSet(QStringLiteral("blind"));
    std::unique_ptr<Database> database = openDatabase(call.required(QStringLiteral("db")));

    LoadedModel loaded = loadModelFromArguments(call);
    const ModelInfo& info = loaded.model->info();
    Generator generator(*loaded.model, *loaded.tokenizer);
    RunRepository runs(*database);
    ComparisonRepository comparisons(*database);

    Result<qint64> promptSet =
        comparisons.savePromptSet(QFileInfo(promptsPath).absoluteFilePath(), QFileInfo(promptsPath).fileName());
    if (!promptSet)
        failBadInput(promptSet.error().message);

    const qsizetype total = prompts->size() * samples * static_cast<qsizetype>(strategies.size());
    qsizetype done = 0;
    int generated = 0;
    int skipped = 0;
    int comparisonsMade = 0;
    for (qsizetype p = 0; p < prompts->size(); ++p) {
        const QString& prompt = prompts->at(p);
        Result<qint64> promptId = comparisons.savePrompt(promptSet.value(), static_cast<int>(p), prompt);
        if (!promptId)
            failBadInput(promptId.error().message);
        for (int s = 0; s < samples; ++s) {
            // Same seed for every strategy of one sample, so strategies differ only in the chain.
            const std::uint64_t seed = baseSeed + static_cast<std::uint64_t>(s);
            std::vector<qint64> runIds;
            QStringList comparisonParts{info.contentHash, prompt, QString::number(s), QString::number(seed),
                                        QString::number(maxTokens)};
            for (const Strategy& strategy : strategies) {
                ++done;
                const QString runKey = keyOf({QStringLiteral("run"), info.contentHash, prompt, strategy.hash(),
                                              QString::number(seed), QString::number(maxTokens)});
                comparisonParts << strategy.hash();
                Result<std::optional<qint64>> existing = runs.findRunByBatchKey(runKey);
                if (!existing)
                    failBadInput(existing.error().message);
                if (existing.value()) {
                    runIds.push_back(*existing.value());
                    ++skipped;
                    continue;
                }
                call.err << QStringLiteral("swb: run %1/%2: %3, prompt %4, sample %5\n")
                                .arg(done)
                                .arg(total)
                                .arg(strategy.name)
                                .arg(p + 1)
                                .arg(s + 1);
                call.err.flush();
                GenerationRequest request;
                request.prompt = prompt.toStdString();
                request.strategy = strategy;
                request.strategy.seed = seed;
                request.maxTokens = maxTokens;
                request.traceLevel = TraceLevel::Full;
                Result<GenerationResult> result = generator.generate(request);
                if (!result)
                    throw Failure{result.error().kind == ErrorKind::BadInput ? 2 : 1, result.error().message};
                RunProvenance provenance;
                provenance.promptId = promptId.value();
                provenance.batchKey = runKey;
                Result<RunRecord> saved = saveGeneration(runs, info, request, result.value(), provenance);
                if (!saved)
                    failBadInput(saved.error().message);
                runIds.push_back(saved->id);
                ++generated;
            }
            const QString comparisonKey = keyOf(comparisonParts);
            Result<std::optional<qint64>> existing = comparisons.findComparisonByBatchKey(comparisonKey);
            if (!existing)
                failBadInput(existing.error().message);
            if (existing.value())
                continue;
            ComparisonRecord comparison;
            comparison.promptId = promptId.value();
            comparison.promptText = prompt;
            comparison.sampleIndex = s;
            comparison.blind = blind;
            comparison.batchKey = comparisonKey;
            // Presentation order: a shuffle seeded by the comparison's key, recorded with its labels.
            std::vector<int> order(runIds.size());
            std::iota(order.begin(), order.end(), 0);
            Pcg64 shuffle(QCryptographicHash::hash(comparisonKey.toLatin1(), QCryptographicHash::Sha256)
                              .left(8)
                              .toHex()
                              .toULongLong(nullptr, 16));
            for (std::size_t i = order.size(); i > 1; --i)
                std::swap(order[i - 1], order[shuffle.next() % i]);
            for (std::size_t position = 0; position < order.size(); ++position) {
                const int slot = order[position];
                comparison.entries.push_back({slot, runIds[static_cast<std::size_t>(slot)],
                                              QString(QChar(static_cast<char16_t>(u'A' + position))),
                                              static_cast<int>(position)});
            }
            std::sort(comparison.entries.begin(), comparison.entries.end(),
                      [](const auto& a, const auto& b) { return a.slot < b.slot; });
            if (Status status = comparisons.saveComparison(comparison); !status)
                failBadInput(status.error().message);
            ++comparisonsMade;
        }
    }
    const QJsonObject summary{{QStringLiteral("runs_total"), static_cast<qint64>(total)},
                              {QStringLiteral("runs_generated"), generated},
                              {QStringLiteral("runs_skipped"), skipped},
                              {QStringLiteral("comparisons_created"), comparisonsMade},
                              {QStringLiteral("db"), database->path()}};
    call.out << QJsonDocument(summary).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

Subcommand batchSubcommand() {
    return {QStringLiteral("batch"),
            QStringLiteral("swb batch [--model PATH] --prompts FILE --strategy A --strategy B [...] [--samples N] "
                           "[--seed S] [--max-tokens N] --db FILE [--blind]"),
            QStringLiteral("Run every prompt with every strategy into the run store, one comparison per prompt and "
                           "sample; resumable."),
            [](QCommandLineParser& parser) {
                declareModelArguments(parser);
                parser.addOptions({
                    {QStringLiteral("prompts"),
                     QStringLiteral("Prompt file: .txt (a prompt per line), .jsonl "
                                    "(\"prompt\" field) or .csv (prompt column)."),
                     QStringLiteral("FILE")},
                    {QStringLiteral("strategy"), QStringLiteral("A strategy (repeat for each)."), QStringLiteral("S")},
                    {QStringLiteral("samples"), QStringLiteral("Samples per prompt and strategy (default 1)."),
                     QStringLiteral("N")},
                    {QStringLiteral("seed"),
                     QStringLiteral("Seed of sample 1; sample k uses seed + k - 1 (default 0)."), QStringLiteral("S")},
                    {QStringLiteral("max-tokens"), QStringLiteral("Most tokens per run (default 128)."),
                     QStringLiteral("N")},
                    {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                    {QStringLiteral("blind"), QStringLiteral("Mark the comparisons for blind rating.")},
                });
            },
            runBatch};
}

} // namespace swb::cli
