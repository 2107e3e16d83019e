// swb sweep: a grid of one or two parameters of a strategy over prompts and samples, into the run store, with
// automatic metrics per cell as CSV. Resumable: runs carry keys derived from what defines them.

#include <algorithm>
#include <optional>

#include <QBuffer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include "JsonError.h"
#include "cli/GrammarArgument.h"
#include "cli/ModelArguments.h"
#include "cli/OutputFile.h"
#include "cli/Subcommand.h"
#include "evaluation/PromptFile.h"
#include "model/Model.h"
#include "serving/RemoteEngine.h"
#include "storage/Database.h"
#include "tokenizer/Tokenizer.h"
#include "workflows/SweepRunner.h"

namespace swb::cli {

namespace {

SweepSpec sweepFromArguments(const Invocation& call) {
    const QString specPath = call.args.value(QStringLiteral("spec"));
    if (!specPath.isEmpty()) {
        for (const char* option : {"strategy", "x", "y", "prompts", "samples", "seed", "max-tokens"})
            if (call.args.isSet(QLatin1String(option)))
                failBadInput(QStringLiteral("--spec holds the whole sweep; --%1 cannot be given with it").arg(QLatin1String(option)));
        QFile file;
        openInput(file, specPath);
        QJsonParseError error;
        const QByteArray text = readInput(file, specPath);
        const QJsonDocument document = QJsonDocument::fromJson(text, &error);
        if (error.error != QJsonParseError::NoError)
            failBadInput(QStringLiteral("%1 is not valid JSON: %2").arg(specPath, jsonErrorWhere(text, error)));
        if (!document.isObject())
            failBadInput(QStringLiteral("%1 must hold a sweep (a JSON object)").arg(specPath));
        Result<SweepSpec> spec = SweepSpec::fromJson(document.object());
        if (!spec)
            failBadInput(QStringLiteral("%1: %2").arg(specPath, spec.error().message));
        return spec.value();
    }
    SweepSpec spec;
    Result<Strategy> base = Strategy::parse(call.args.isSet(QStringLiteral("strategy")) ? call.args.value(QStringLiteral("strategy"))
                                                                                       : QStringLiteral("llamacpp-default"));
    if (!base)
        failBadInput(base.error().message);
    spec.base = applyGrammarArgument(call, base.value());
    Result<SweepAxis> x = SweepAxis::parse(call.required(QStringLiteral("x")));
    if (!x)
        failBadInput(x.error().message);
    spec.x = x.value();
    if (call.args.isSet(QStringLiteral("y"))) {
        Result<SweepAxis> y = SweepAxis::parse(call.args.value(QStringLiteral("y")));
        if (!y)
            failBadInput(y.error().message);
        spec.y = y.value();
    }
    const QString promptsPath = call.required(QStringLiteral("prompts"));
    Result<QStringList> prompts = readPromptFile(promptsPath);
    if (!prompts)
        failBadInput(prompts.error().message);
    if (std::any_of(prompts->begin(), prompts->end(), isConversationJson))
        failBadInput(QStringLiteral("%1 holds conversations; a sweep runs raw prompts").arg(promptsPath));
    spec.prompts = prompts.value();
    spec.samples = static_cast<int>(call.integer(QStringLiteral("samples"), 4, 1, 1000));
    spec.seed = static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"), 0, 0, (1LL << 53) - 1));
    spec.maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 64, 1, 4096));
    if (Status status = spec.validate(); !status)
        failBadInput(status.error().message);
    return spec;
}

int runSweepCommand(const Invocation& call) {
    const SweepSpec spec = sweepFromArguments(call);
    Result<std::unique_ptr<Database>> database = Database::open(call.required(QStringLiteral("db")));
    if (!database)
        failBadInput(database.error().message);

    const QString outPath = call.args.value(QStringLiteral("out"));
    std::optional<OutputFile> file;
    if (!outPath.isEmpty())
        file.emplace(outPath, QStringLiteral("out"));

    std::optional<LoadedModel> loaded;
    std::optional<RemoteModel> remote;
    RunSource source;
    if (isRemoteModelAddress(call.args.value(QStringLiteral("model")))) {
        Result<RemoteModel> connected =
            connectRemoteModel(call.args.value(QStringLiteral("model")), call.args.value(QStringLiteral("api-key")));
        if (!connected)
            failBadInput(connected.error().message);
        remote = connected.value();
        for (int row = 0; row < spec.rows(); ++row)
            for (int column = 0; column < spec.columns(); ++column)
                if (Result<QJsonObject> fields = remoteSamplingFields(sweepCellStrategy(spec, column, row).value(), remote->engine);
                    !fields)
                    failBadInput(QStringLiteral("sweep cell %1: %2")
                                     .arg(sweepCellStrategy(spec, column, row)->name, fields.error().message));
        source = remoteRunSource(*remote);
    } else {
        loaded.emplace(loadModelFromArguments(call));
    }

    int reported = -1;
    const auto report = [&](const SweepProgress& progress) {
        if (progress.done == reported)
            return;
        reported = progress.done;
        call.err << QStringLiteral("swb: sweep %1/%2 runs\n").arg(progress.done).arg(progress.total);
        call.err.flush();
    };
    Result<SweepOutcome> outcome = remote ? runSweep(source, *database.value(), spec, report)
                                          : runSweep(*loaded->model, *loaded->tokenizer, *database.value(), spec, report);
    if (!outcome)
        throw Failure{outcome.error().kind == ErrorKind::BadInput ? 2 : 1, outcome.error().message};
    Result<std::vector<SweepCellResult>> results = sweepResults(*database.value(), outcome.value());
    if (!results)
        failInternal(results.error().message);
    call.err << QStringLiteral("swb: %1 runs: %2 generated, %3 found in %4\n")
                    .arg(outcome->total)
                    .arg(outcome->generated)
                    .arg(outcome->skipped)
                    .arg(database.value()->path());
    if (file) {
        if (!writeSweepCsv(file->device(), spec, results.value()))
            failBadInput(QStringLiteral("cannot write --out %1").arg(outPath));
        file->commit();
    } else {
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        writeSweepCsv(buffer, spec, results.value());
        call.out << QString::fromUtf8(buffer.data());
    }
    return 0;
}

} // namespace

Subcommand sweepSubcommand() {
    return {QStringLiteral("sweep"),
            QStringLiteral("swb sweep [--model PATH|http://HOST:PORT/v1] [--strategy S] --x SAMPLER.PARAM=V1,V2,... "
                           "[--y SAMPLER.PARAM=V1,...] --prompts FILE [--samples N] [--seed S] [--max-tokens N] "
                           "--db FILE [--out CSV] | --spec FILE --db FILE"),
            QStringLiteral("Run a grid of one or two parameters of a strategy over prompts and samples; metrics per "
                           "cell as CSV; resumable."),
            [](QCommandLineParser& parser) {
                declareModelArguments(parser);
                parser.addOption(grammarOption());
                parser.addOptions({
                    {QStringLiteral("strategy"), QStringLiteral("The base strategy (default: the llamacpp-default preset)."),
                     QStringLiteral("S")},
                    {QStringLiteral("x"),
                     QStringLiteral("The first axis: a sampler's parameter and its values, e.g. "
                                    "temperature.value=0.5,0.7,1 (a sampler the strategy lacks is added)."),
                     QStringLiteral("AXIS")},
                    {QStringLiteral("y"), QStringLiteral("The second axis (optional), e.g. min_p.p=0,0.05,0.1."),
                     QStringLiteral("AXIS")},
                    {QStringLiteral("prompts"),
                     QStringLiteral("Prompt file: .txt (a prompt per line), .jsonl (\"prompt\" field) or .csv."),
                     QStringLiteral("FILE")},
                    {QStringLiteral("samples"), QStringLiteral("Samples per prompt and cell (default 4)."),
                     QStringLiteral("N")},
                    {QStringLiteral("seed"),
                     QStringLiteral("Seed of sample 1; sample k uses seed + k - 1 in every cell (default 0)."),
                     QStringLiteral("S")},
                    {QStringLiteral("max-tokens"), QStringLiteral("Most tokens per run (default 64)."), QStringLiteral("N")},
                    {QStringLiteral("spec"),
                     QStringLiteral("A sweep as JSON (base, x, y, prompts, samples, seed, max_tokens), as the GUI "
                                    "saves it, instead of the options above."),
                     QStringLiteral("FILE")},
                    {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                    {QStringLiteral("out"), QStringLiteral("CSV file to write (default: stdout)."), QStringLiteral("FILE")},
                    {QStringLiteral("api-key"),
                     QStringLiteral("With --model http(s)://HOST:PORT/v1: the engine's API key."), QStringLiteral("KEY")},
                });
            },
            runSweepCommand};
}

} // namespace swb::cli
