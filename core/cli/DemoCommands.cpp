// swb train-demo (the recipe of the bundled demo model) and swb perplexity (how well a model predicts
// a text file). Both are hidden from `swb --help`: tools for maintainers and for checking the model card.

#include <algorithm>
#include <limits>
#include <utility>

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "model/Model.h"
#include "tokenizer/Tokenizer.h"
#include "training/DemoCorpus.h"
#include "training/DemoTrainer.h"
#include "training/Perplexity.h"

namespace swb::cli {

namespace {

[[noreturn]] void fail(const Error& error) {
    if (error.kind == ErrorKind::BadInput)
        failBadInput(error.message);
    failInternal(error.message);
}

int runTrainDemo(const Invocation& inv) {
    const QString out = inv.required(QStringLiteral("out"));
    if (inv.args.isSet(QStringLiteral("corpus-only"))) {
        Result<DemoCorpus> corpus = DemoCorpus::extract();
        if (!corpus)
            fail(corpus.error());
        if (!QDir().mkpath(out)) // as the training itself does
            failBadInput(QStringLiteral("cannot create the folder %1").arg(out));
        for (const auto& [name, chapters] :
             {std::pair{QStringLiteral("train.txt"), &corpus->trainingChapters()},
              std::pair{QStringLiteral("validation.txt"), &corpus->validationChapters()}})
            if (Status s = DemoCorpus::writeChapters(*chapters, out + QLatin1Char('/') + name); !s)
                fail(s.error());
        return 0;
    }
    DemoTrainingOptions o;
    o.outputDir = out;
    o.seed = static_cast<std::uint64_t>(
        inv.integer(QStringLiteral("seed"), static_cast<long long>(o.seed), 0, std::numeric_limits<long long>::max()));
    o.threads = static_cast<int>(inv.integer(QStringLiteral("threads"), o.threads, 1, 256));
    o.steps = static_cast<int>(inv.integer(QStringLiteral("steps"), o.steps, 1, 10'000'000));
    o.warmupSteps = std::min(o.warmupSteps, o.steps);
    o.dim = static_cast<int>(inv.integer(QStringLiteral("dim"), o.dim, 8, 4096));
    o.layers = static_cast<int>(inv.integer(QStringLiteral("layers"), o.layers, 1, 64));
    o.heads = static_cast<int>(inv.integer(QStringLiteral("heads"), o.heads, 1, 64));
    o.hiddenDim = static_cast<int>(inv.integer(QStringLiteral("hidden-dim"), o.hiddenDim, 8, 16384));
    o.batch = static_cast<int>(inv.integer(QStringLiteral("batch"), o.batch, 1, 4096));
    o.context = static_cast<int>(inv.integer(QStringLiteral("context"), o.context, 8, 8192));
    o.window = static_cast<int>(inv.integer(QStringLiteral("window"), std::min(o.window, o.context), 8, o.context));
    o.longEvery = static_cast<int>(inv.integer(QStringLiteral("long-every"), o.longEvery, 0, 1'000'000));
    o.vocabularySize = static_cast<int>(inv.integer(QStringLiteral("vocab"), o.vocabularySize, 300, 65536));
    o.learningRate = inv.real(QStringLiteral("lr"), o.learningRate);
    o.minLearningRate = o.learningRate / 10;
    o.progress = [&inv](const QString& line) {
        inv.err << line << '\n';
        inv.err.flush();
    };
    Result<DemoTrainingReport> report = DemoTrainer::run(o);
    if (!report)
        fail(report.error());
    const DemoTrainingReport& r = report.value();
    const QJsonObject json{
        {QStringLiteral("training_chapters"), static_cast<qint64>(r.trainingChapters)},
        {QStringLiteral("training_verses"), static_cast<qint64>(r.trainingVerses)},
        {QStringLiteral("training_bytes"), static_cast<qint64>(r.trainingBytes)},
        {QStringLiteral("training_tokens"), static_cast<qint64>(r.trainingTokens)},
        {QStringLiteral("validation_chapters"), static_cast<qint64>(r.validationChapters)},
        {QStringLiteral("validation_verses"), static_cast<qint64>(r.validationVerses)},
        {QStringLiteral("validation_bytes"), static_cast<qint64>(r.validationBytes)},
        {QStringLiteral("validation_tokens"), static_cast<qint64>(r.validationTokens)},
        {QStringLiteral("parameters"), static_cast<qint64>(r.parameters)},
        {QStringLiteral("steps"), static_cast<qint64>(r.steps)},
        {QStringLiteral("tokens_seen"), static_cast<qint64>(r.tokensSeen)},
        {QStringLiteral("final_training_loss"), r.finalTrainingLoss},
        {QStringLiteral("tokenizer_seconds"), r.tokenizerSeconds},
        {QStringLiteral("training_seconds"), r.trainingSeconds},
        {QStringLiteral("validation_perplexity"), r.validationPerplexity},
    };
    inv.out << QJsonDocument(json).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

int runPerplexity(const Invocation& inv) {
    const QString file = inv.required(QStringLiteral("text-file"));
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        failBadInput(QStringLiteral("cannot read %1: %2").arg(file, in.errorString()));
    // Each non-empty line a document, or with --paragraphs each run of lines between blank lines (its
    // lines joined by '\n').
    const bool paragraphs = inv.args.isSet(QStringLiteral("paragraphs"));
    std::vector<std::string> documents;
    std::string paragraph;
    for (const QByteArray& line : in.readAll().split('\n')) {
        if (line.trimmed().isEmpty()) {
            if (!paragraph.empty())
                documents.push_back(std::move(paragraph));
            paragraph.clear();
        } else if (!paragraphs) {
            documents.push_back(line.toStdString());
        } else {
            if (!paragraph.empty())
                paragraph += '\n';
            paragraph += line.toStdString();
        }
    }
    if (!paragraph.empty())
        documents.push_back(std::move(paragraph));
    LoadedModel loaded = loadModelFromArguments(inv);
    Result<PerplexityResult> result = Perplexity::ofDocuments(*loaded.model, *loaded.tokenizer, documents);
    if (!result)
        fail(result.error());
    const QJsonObject json{
        {QStringLiteral("model"), loaded.model->info().path},
        {QStringLiteral("file"), file},
        {QStringLiteral("documents"), static_cast<qint64>(result->documents)},
        {QStringLiteral("tokens"), static_cast<qint64>(result->tokens)},
        {QStringLiteral("mean_nll"), result->meanNll},
        {QStringLiteral("perplexity"), result->perplexity},
    };
    inv.out << QJsonDocument(json).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

std::vector<Subcommand> demoSubcommands() {
    Subcommand train{
        QStringLiteral("train-demo"),
        QStringLiteral("swb train-demo --out DIR [--seed S] [--threads N] [--steps N] [--corpus-only]"),
        QStringLiteral("Rebuild the bundled demo model (KJV corpus, BPE tokenizer, Llama training) in DIR."),
        [](QCommandLineParser& parser) {
            parser.addOptions({
                {QStringLiteral("out"), QStringLiteral("Folder to write the model files to."), QStringLiteral("DIR")},
                {QStringLiteral("corpus-only"),
                 QStringLiteral("Only write the corpus splits (train.txt, validation.txt): chapters of one "
                                "verse a line, a blank line after each.")},
                {QStringLiteral("seed"), QStringLiteral("Seed of initialisation and batches."), QStringLiteral("S")},
                {QStringLiteral("threads"), QStringLiteral("CPU threads (default 1, as the bundled files were made)."),
                 QStringLiteral("N")},
                {QStringLiteral("steps"), QStringLiteral("Optimizer steps."), QStringLiteral("N")},
                {QStringLiteral("dim"), QStringLiteral("Model width."), QStringLiteral("N")},
                {QStringLiteral("layers"), QStringLiteral("Decoder layers."), QStringLiteral("N")},
                {QStringLiteral("heads"), QStringLiteral("Attention heads."), QStringLiteral("N")},
                {QStringLiteral("hidden-dim"), QStringLiteral("Feed-forward width."), QStringLiteral("N")},
                {QStringLiteral("batch"), QStringLiteral("Windows per step."), QStringLiteral("N")},
                {QStringLiteral("context"), QStringLiteral("Context length (and the long windows' length)."),
                 QStringLiteral("N")},
                {QStringLiteral("window"), QStringLiteral("Length of the short windows."), QStringLiteral("N")},
                {QStringLiteral("long-every"),
                 QStringLiteral("Every Nth step takes whole-context windows (0: never)."), QStringLiteral("N")},
                {QStringLiteral("vocab"), QStringLiteral("Tokenizer vocabulary size."), QStringLiteral("N")},
                {QStringLiteral("lr"), QStringLiteral("Peak learning rate."), QStringLiteral("X")},
            });
        },
        runTrainDemo};
    train.hidden = true;
    Subcommand perplexity{
        QStringLiteral("perplexity"),
        QStringLiteral("swb perplexity [--model PATH] [--tokenizer PATH] --text-file F [--paragraphs] [--threads N]"),
        QStringLiteral("Perplexity of a model on a text file, each non-empty line one document (or each paragraph "
                       "with --paragraphs), as JSON."),
        [](QCommandLineParser& parser) {
            declareModelArguments(parser);
            parser.addOptions({
                {QStringLiteral("text-file"), QStringLiteral("UTF-8 text, one document per line."), QStringLiteral("F")},
                {QStringLiteral("paragraphs"),
                 QStringLiteral("Documents are paragraphs: lines between blank lines, kept with their line breaks.")},
            });
        },
        runPerplexity};
    perplexity.hidden = true;
    return {train, perplexity};
}

} // namespace swb::cli
