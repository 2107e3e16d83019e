// swb quantize (a float GGUF or Hugging Face folder made into a quantized GGUF, as llama.cpp's converter and
// quantizer make it) and swb divergence
// (where two models that share a tokenizer part, token by token).

#include <algorithm>
#include <limits>
#include <optional>
#include <span>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "cli/ModelArguments.h"
#include "cli/OutputFile.h"
#include "cli/RunStoreArgument.h"
#include "cli/Subcommand.h"
#include "evaluation/CsvWriter.h"
#include "model/Model.h"
#include "quantization/Divergence.h"
#include "quantization/Quantizer.h"
#include "quantization/ServedModel.h"
#include "serving/RemoteEngine.h"
#include "storage/RunRepository.h"

namespace swb::cli {

namespace {

QString mebibytes(std::uint64_t bytes) {
    return QStringLiteral("%1 MiB").arg(static_cast<double>(bytes) / (1024.0 * 1024.0), 0, 'f', 2);
}

int runQuantize(const Invocation& call) {
    const QStringList positional = call.args.positionalArguments();
    if (positional.size() != 2)
        failBadInput(
            QStringLiteral("swb quantize takes the input model and the output file (see 'swb help quantize')"));
    quantization::QuantizeOptions options;
    options.input = positional[0];
    options.output = positional[1];
    Result<quantization::Recipe> recipe = quantization::recipeNamed(call.required(QStringLiteral("type")));
    if (!recipe)
        failBadInput(recipe.error().message);
    options.recipe = *recipe;
    options.pure = call.args.isSet(QStringLiteral("pure"));
    for (const QString& keep : call.args.values(QStringLiteral("keep"))) {
        Result<quantization::Override> o = quantization::parseOverride(keep);
        if (!o)
            failBadInput(o.error().message);
        options.overrides.push_back(std::move(o).value());
    }
    options.threads = static_cast<int>(call.integer(QStringLiteral("threads"), 0, 1, 1024));

    bool shown = false; // a progress line is on stderr, to be ended
    Result<quantization::QuantizeReport> report =
        quantization::quantizeModel(options, [&](const quantization::QuantizeProgress& p) {
            if (p.bytesRead == 0 || p.name.empty())
                return true;
            shown = true;
            call.err << QStringLiteral("\r[%1/%2] %3 %4 -> %5, %6%")
                            .arg(p.tensor, 4)
                            .arg(p.tensors)
                            .arg(QString::fromStdString(p.name), p.from, p.to)
                            .arg(100.0 * static_cast<double>(p.bytesRead) / static_cast<double>(p.bytesTotal), 0, 'f',
                                 1);
            call.err.flush();
            return true;
        });
    if (shown)
        call.err << '\n';
    if (!report)
        throw Failure{report.error().kind == ErrorKind::BadInput ? 2 : 1, report.error().message};
    for (const QString& note : report->notes)
        call.err << "swb: " << note << '\n';
    if (call.args.isSet(QStringLiteral("json"))) {
        QJsonArray tensors;
        for (const quantization::QuantizedTensor& t : report->tensors)
            tensors.append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(t.name)},
                                       {QStringLiteral("from"), t.from},
                                       {QStringLiteral("to"), t.to},
                                       {QStringLiteral("bytes"), static_cast<qint64>(t.bytes)}});
        call.out << QJsonDocument(
                        QJsonObject{{QStringLiteral("output"), options.output},
                                    {QStringLiteral("recipe"), options.recipe.name},
                                    {QStringLiteral("file_type"), static_cast<int>(options.recipe.fileType)},
                                    {QStringLiteral("input_data_bytes"), static_cast<qint64>(report->inputDataBytes)},
                                    {QStringLiteral("output_data_bytes"), static_cast<qint64>(report->outputDataBytes)},
                                    {QStringLiteral("output_file_bytes"), static_cast<qint64>(report->outputFileBytes)},
                                    {QStringLiteral("bits_per_weight"), report->bitsPerWeight()},
                                    {QStringLiteral("notes"), QJsonArray::fromStringList(report->notes)},
                                    {QStringLiteral("tensors"), tensors}})
                        .toJson(QJsonDocument::Indented);
    } else {
        call.out << QStringLiteral("wrote %1: %2 tensors, %3 -> %4, %5 bits per weight (%6)\n")
                        .arg(options.output)
                        .arg(report->tensors.size())
                        .arg(mebibytes(report->inputDataBytes), mebibytes(report->outputDataBytes))
                        .arg(report->bitsPerWeight(), 0, 'f', 2)
                        .arg(options.recipe.name);
    }
    return 0;
}

QJsonObject summaryJson(const quantization::DivergenceSummary& s) {
    return {{QStringLiteral("tokens"), static_cast<qint64>(s.tokens)},
            {QStringLiteral("mean_kl"), s.meanKl},
            {QStringLiteral("median_kl"), s.medianKl},
            {QStringLiteral("p90_kl"), s.p90Kl},
            {QStringLiteral("p99_kl"), s.p99Kl},
            {QStringLiteral("max_kl"), s.maxKl},
            {QStringLiteral("same_top1"), s.sameTop1},
            {QStringLiteral("ppl_a"), s.pplA},
            {QStringLiteral("ppl_b"), s.pplB},
            {QStringLiteral("delta_ppl_relative"), s.deltaPplRelative},
            {QStringLiteral("delta_ppl_relative_95"), QJsonArray{s.deltaPplLow, s.deltaPplHigh}},
            {QStringLiteral("mean_ln_ppl_ratio"), s.meanLogRatio},
            {QStringLiteral("mean_delta_logp"), s.meanDeltaLogp},
            {QStringLiteral("sd_delta_logp"), s.sdDeltaLogp},
            {QStringLiteral("p1_delta_logp"), s.p1DeltaLogp},
            {QStringLiteral("p99_delta_logp"), s.p99DeltaLogp}};
}

void writeDivergenceCsv(const quantization::DivergenceResult& r, const Tokenizer& tokenizer, QIODevice& device) {
    CsvWriter csv(device);
    csv.writeRow({QStringLiteral("position"), QStringLiteral("token"), QStringLiteral("piece"), QStringLiteral("kl"),
                  QStringLiteral("top_a"), QStringLiteral("top_b"), QStringLiteral("logp_a"),
                  QStringLiteral("logp_b")});
    for (std::size_t i = 0; i < r.perToken.size(); ++i) {
        const quantization::TokenDivergence& d = r.perToken[i];
        csv.writeRow({QString::number(i + 1), QString::number(d.token),
                      QString::fromStdString(tokenizer.piece(d.token)), CsvWriter::number(d.kl),
                      QString::number(d.topA), QString::number(d.topB), CsvWriter::number(d.logpA),
                      CsvWriter::number(d.logpB)});
    }
}

// The tokens a stored run read and wrote (its prompt's, then each step's), to read again teacher forced.
std::vector<TokenId> storedRunTokens(const Invocation& call) {
    const std::unique_ptr<Database> store =
        openExistingRunStore(call.required(QStringLiteral("db")), Database::Access::ReadOnly);
    const qint64 id = call.integer(QStringLiteral("run"), 0, 1, std::numeric_limits<qint64>::max());
    Result<RunRecord> run = RunRepository(*store).loadRun(id);
    if (!run)
        failBadInput(run.error().message);
    if (run->promptIds.empty())
        failBadInput(QStringLiteral("run %1 does not hold its prompt's tokens (it was saved before the store kept "
                                    "them); compare its text with --text instead")
                         .arg(id));
    std::vector<TokenId> ids = run->promptIds;
    for (const StepTrace& step : run->steps)
        ids.push_back(step.chosen);
    return ids;
}

int runDivergence(const Invocation& call) {
    const QStringList models = call.args.values(QStringLiteral("model"));
    if (models.size() != 2)
        failBadInput(QStringLiteral("swb divergence compares two models: give --model A --model B"));
    if (isRemoteModelAddress(models[0]))
        failBadInput(QStringLiteral("model A must be here: a served model tells only its top tokens, so it can be "
                                    "model B (give it second)"));
    const bool servedB = isRemoteModelAddress(models[1]);
    const int topN = static_cast<int>(call.integer(QStringLiteral("top-n"), 20, 1, 1000));
    const bool fromRun = call.args.isSet(QStringLiteral("run"));
    if (fromRun == call.args.isSet(QStringLiteral("text")))
        failBadInput(QStringLiteral("give the text to read: --text FILE, or a stored run with --db FILE --run ID"));
    std::vector<TokenId> ids;
    QByteArray text;
    if (fromRun) {
        ids = storedRunTokens(call);
    } else {
        const QString textPath = call.required(QStringLiteral("text"));
        QFile textFile;
        openInput(textFile, textPath);
        text = readInput(textFile, textPath);
    }
    LoadedModel a = loadModelFromArguments(call, models[0]);
    std::optional<LoadedModel> b;
    std::optional<RemoteModel> served;
    if (servedB) {
        const std::string textB = text.toStdString();
        Result<RemoteModel> remote =
            quantization::connectServedModelB(models[1], call.args.value(QStringLiteral("api-key")), *a.tokenizer,
                                              a.model->info().vocabSize, fromRun ? nullptr : &textB);
        if (!remote)
            failBadInput(remote.error().message);
        served = *remote;
    } else {
        b.emplace(loadModelFromArguments(call, models[1]));
        if (Status same = quantization::checkSameTokenizer(*a.tokenizer, *b->tokenizer); !same)
            failBadInput(same.error().message);
    }
    if (!fromRun)
        ids = a.tokenizer->encode(text.toStdString(), true, false);
    else if (const auto beyond = std::find_if(ids.begin(), ids.end(),
                                              [&](TokenId id) { return id < 0 || id >= a.model->info().vocabSize; });
             beyond != ids.end())
        failBadInput(QStringLiteral("run %1 holds token %2, which these models do not have: it was made with "
                                    "another vocabulary")
                         .arg(call.args.value(QStringLiteral("run")))
                         .arg(*beyond));
    bool shown = false;
    const auto progress = [&](std::int64_t done, std::int64_t total) {
        shown = true;
        call.err << QStringLiteral("\r%1 of %2 tokens").arg(done).arg(total);
        call.err.flush();
        return true;
    };
    Result<quantization::DivergenceResult> result =
        served ? quantization::measureDivergenceAgainstTopN(*a.model, std::move(ids),
                                                            quantization::servedTopN(*served, topN), progress)
               : quantization::measureDivergence(*a.model, *b->model, std::move(ids), progress);
    if (shown)
        call.err << '\n';
    if (!result)
        throw Failure{result.error().kind == ErrorKind::BadInput ? 2 : 1, result.error().message};
    if (call.args.isSet(QStringLiteral("csv"))) {
        OutputFile csv(call.args.value(QStringLiteral("csv")), QStringLiteral("csv"));
        writeDivergenceCsv(*result, *a.tokenizer, csv.device());
        csv.commit();
    }
    const quantization::DivergenceSummary& s = result->summary;
    if (call.args.isSet(QStringLiteral("json"))) {
        QJsonObject json = summaryJson(s);
        json.insert(QStringLiteral("model_a"), models[0]);
        json.insert(QStringLiteral("model_b"), models[1]);
        if (served) {
            json.insert(QStringLiteral("model_b_engine"), remoteEngineName(served->engine));
            json.insert(QStringLiteral("model_b_top_n"), topN);
            json.insert(QStringLiteral("kl"),
                        QStringLiteral("lower bound: over B's top %1 and the rest as one").arg(topN));
        }
        call.out << QJsonDocument(json).toJson(QJsonDocument::Indented);
        return 0;
    }
    call.out
        << QStringLiteral("A: %1\nB: %2%3\n%4 tokens scored\n")
               .arg(models[0], models[1],
                    served
                        ? QStringLiteral(" (%1, its top %2 a position)").arg(remoteEngineName(served->engine)).arg(topN)
                        : QString())
               .arg(s.tokens)
        << (served ? QStringLiteral("KL(A||B) over B's top %1 and the rest as one (a lower bound): ").arg(topN)
                   : QStringLiteral("KL(A||B): "))
        << QStringLiteral("mean %1, median %2, p90 %3, p99 %4, max %5\n")
               .arg(s.meanKl, 0, 'g', 5)
               .arg(s.medianKl, 0, 'g', 5)
               .arg(s.p90Kl, 0, 'g', 5)
               .arg(s.p99Kl, 0, 'g', 5)
               .arg(s.maxKl, 0, 'g', 5)
        << QStringLiteral("same top-1: %1%\n").arg(100.0 * s.sameTop1, 0, 'f', 2)
        << QStringLiteral("perplexity: A %1, B %2, change %3% (95%: %4% to %5%)\n")
               .arg(s.pplA, 0, 'f', 4)
               .arg(s.pplB, 0, 'f', 4)
               .arg(100.0 * s.deltaPplRelative, 0, 'f', 3)
               .arg(100.0 * s.deltaPplLow, 0, 'f', 3)
               .arg(100.0 * s.deltaPplHigh, 0, 'f', 3)
        << QStringLiteral("ln pB - ln pA of the token that came: mean %1, sd %2, p1 %3, p99 %4\n")
               .arg(s.meanDeltaLogp, 0, 'g', 5)
               .arg(s.sdDeltaLogp, 0, 'g', 5)
               .arg(s.p1DeltaLogp, 0, 'g', 5)
               .arg(s.p99DeltaLogp, 0, 'g', 5);
    return 0;
}

} // namespace

std::vector<Subcommand> quantizationSubcommands() {
    Subcommand quantize{
        QStringLiteral("quantize"),
        QStringLiteral("swb quantize IN OUT --type RECIPE [--pure] [--keep PATTERN=TYPE ...] [--threads N] [--json]"),
        QStringLiteral("Make a quantized GGUF from a float model (a GGUF or a Hugging Face folder; f32, f16, bf16) "
                       "as llama.cpp's converter and quantizer do: its recipes, its reference rounding, no "
                       "importance matrix."),
        [](QCommandLineParser& parser) {
            parser.addOptions({
                {QStringLiteral("type"),
                 QStringLiteral("The recipe, as llama-quantize names it: %1.")
                     .arg(quantization::recipeNames().join(QStringLiteral(", "))),
                 QStringLiteral("RECIPE")},
                {QStringLiteral("pure"),
                 QStringLiteral("Give every quantized tensor the recipe's base type (llama-quantize --pure); rows "
                                "that are not whole blocks still fall back.")},
                {QStringLiteral("keep"),
                 QStringLiteral("Tensors whose name matches the regular expression PATTERN get TYPE (f16, q8_0, "
                                "q6_k, ...); repeat for more. llama-quantize's --tensor-type."),
                 QStringLiteral("PATTERN=TYPE")},
                {QStringLiteral("threads"), QStringLiteral("Threads (default: the CPUs this process may use)."),
                 QStringLiteral("N")},
                {QStringLiteral("json"), QStringLiteral("Print the report as JSON: every tensor's type and size.")},
            });
            parser.addPositionalArgument(QStringLiteral("IN"),
                                         QStringLiteral("The float model: a GGUF file or a Hugging Face folder."));
            parser.addPositionalArgument(QStringLiteral("OUT"), QStringLiteral("The GGUF to write."));
        },
        runQuantize};
    Subcommand divergence{
        QStringLiteral("divergence"),
        QStringLiteral("swb divergence --model A --model B|http://HOST:PORT/v1 (--text FILE | --db FILE --run ID) "
                       "[--top-n N] [--api-key KEY] [--json] [--csv OUT] [--tokenizer PATH] [--threads N]"),
        QStringLiteral("Where two models sharing a tokenizer part on a text, teacher forced: KL(A||B), top-1 "
                       "agreement, log p and perplexity, per token and in aggregate."),
        [](QCommandLineParser& parser) {
            declareModelArguments(parser);
            parser.addOptions({
                {QStringLiteral("text"), QStringLiteral("The text to score ('-': standard input)."),
                 QStringLiteral("FILE")},
                {QStringLiteral("db"), QStringLiteral("With --run: the run store."), QStringLiteral("FILE")},
                {QStringLiteral("run"),
                 QStringLiteral(
                     "Score a stored run instead of a text: its prompt and its tokens, read teacher forced."),
                 QStringLiteral("ID")},
                {QStringLiteral("json"), QStringLiteral("Print the aggregate figures as JSON.")},
                {QStringLiteral("top-n"),
                 QStringLiteral("With a served model B (http://HOST:PORT/v1): how many of its most likely tokens "
                                "each position asks for (default 20). Its KL is then a lower bound, labelled so."),
                 QStringLiteral("N")},
                {QStringLiteral("api-key"), QStringLiteral("The served model B's API key."), QStringLiteral("KEY")},
                {QStringLiteral("csv"),
                 QStringLiteral("Write one row per token: position, token, piece, kl, top_a, top_b, logp_a, logp_b."),
                 QStringLiteral("OUT")},
            });
        },
        runDivergence};
    divergence.outputOptions = {QStringLiteral("csv")};
    return {quantize, divergence};
}

} // namespace swb::cli
