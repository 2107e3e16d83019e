// swb export: one evaluation report of a run store as CSV (evaluation/Reports.h), to a file or stdout.

#include <optional>

#include <QBuffer>
#include <QFileInfo>
#include <QHash>

#include "cli/OutputFile.h"
#include "cli/RunStoreArgument.h"
#include "cli/Subcommand.h"
#include "evaluation/Reports.h"
#include "storage/Database.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb::cli {

namespace {

int runExport(const Invocation& call) {
    const QString kindName = call.required(QStringLiteral("report"));
    const std::optional<ReportKind> kind = Reports::kindFromName(kindName);
    if (!kind)
        failBadInput(QStringLiteral("--report must be one of %1, not '%2'")
                         .arg(Reports::kindNames().join(QStringLiteral(", ")), kindName));
    ReportOptions options;
    options.bootstrapRounds = static_cast<int>(call.integer(QStringLiteral("bootstrap"), 1000, 0, 1000000));
    options.seed = static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"), 0, 0, 1LL << 52));
    options.goldAccuracyThreshold = call.real(QStringLiteral("gold-threshold"), options.goldAccuracyThreshold);
    options.alphaRiseThreshold = call.real(QStringLiteral("alpha-rise"), options.alphaRiseThreshold);
    if (options.goldAccuracyThreshold < 0.0 || options.goldAccuracyThreshold > 1.0)
        failBadInput(QStringLiteral("--gold-threshold is an accuracy from 0 to 1, not %1").arg(options.goldAccuracyThreshold));
    std::unique_ptr<Database> database =
        openExistingRunStore(call.required(QStringLiteral("db")), Database::Access::ReadOnly);

    // Open the destination first: an unwritable path (or the run store itself) fails before any work.
    const QString outPath = call.args.value(QStringLiteral("out"));
    std::optional<OutputFile> file;
    QBuffer buffer;
    QIODevice* device = &buffer;
    if (!outPath.isEmpty()) {
        file.emplace(outPath, QStringLiteral("out"));
        device = &file->device();
    } else {
        buffer.open(QIODevice::WriteOnly);
    }

    // Token texts for the steps report, from each run's model tokenizer where it still loads.
    QHash<QString, std::shared_ptr<Tokenizer>> tokenizers;
    Reports::TokenText tokenText = [&](const QString& modelPath, int tokenId) -> QString {
        auto found = tokenizers.find(modelPath);
        if (found == tokenizers.end()) {
            Result<std::unique_ptr<Tokenizer>> loaded = loadTokenizer(modelPath);
            if (!loaded)
                call.err << QStringLiteral("swb: note: token_text is empty for the runs of %1: %2\n")
                                .arg(modelPath, loaded.error().message);
            found =
                tokenizers.insert(modelPath, loaded ? std::shared_ptr<Tokenizer>(std::move(loaded).value()) : nullptr);
        }
        const std::shared_ptr<Tokenizer>& tokenizer = found.value();
        if (!tokenizer || tokenId < 0 || tokenId >= tokenizer->vocabSize())
            return {};
        return QString::fromUtf8(tokenizer->piece(tokenId));
    };

    // --model: one model's report (its runs, their ratings, the comparisons of its outputs).
    QString modelHash;
    if (call.args.isSet(QStringLiteral("model"))) {
        Result<QString> resolved = Reports::resolveModel(*database, call.args.value(QStringLiteral("model")));
        if (!resolved)
            failBadInput(resolved.error().message);
        modelHash = resolved.value();
    }
    Reports reports(*database, modelHash);
    if (Status status = reports.writeCsv(*kind, *device, options, tokenText); !status)
        throw Failure{status.error().kind == ErrorKind::BadInput ? 2 : 1, status.error().message};
    if (file) {
        file->commit();
    } else {
        call.out << QString::fromUtf8(buffer.data());
    }
    return 0;
}

} // namespace

Subcommand exportSubcommand() {
    return {
        QStringLiteral("export"),
        QStringLiteral(
            "swb export --db FILE --report runs|steps|ratings|preferences|summary|pairwise|agreement|"
            "raters|experiments [--model PATH|HASH] [--out FILE.csv] [--bootstrap N] [--seed S] [--gold-threshold X] "
            "[--alpha-rise X]"),
        QStringLiteral("Write an evaluation report of the run store as CSV (stdout without --out)."),
        [](QCommandLineParser& parser) {
            parser.addOptions({
                {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                {QStringLiteral("report"), QStringLiteral("Which report: %1.").arg(Reports::kindNames().join(", ")),
                 QStringLiteral("NAME")},
                {QStringLiteral("out"), QStringLiteral("CSV file to write (default: stdout)."), QStringLiteral("FILE")},
                {QStringLiteral("model"),
                 QStringLiteral("Only this model's runs (its path as recorded, or its content hash or 8+ digits of "
                                "it), with their ratings and the comparisons of its outputs."),
                 QStringLiteral("M")},
                {QStringLiteral("bootstrap"),
                 QStringLiteral("Bootstrap resamples for the summary's intervals (default 1000)."),
                 QStringLiteral("N")},
                {QStringLiteral("seed"), QStringLiteral("Seed of the bootstrap (default 0)."), QStringLiteral("S")},
                {QStringLiteral("gold-threshold"),
                 QStringLiteral("raters: suggest setting aside raters whose gold accuracy is below X (default 0.6)."),
                 QStringLiteral("X")},
                {QStringLiteral("alpha-rise"),
                 QStringLiteral("raters: ... or without whom ordinal alpha rises by X or more (default 0.05)."),
                 QStringLiteral("X")},
            });
        },
        runExport};
}

} // namespace swb::cli
