// swb sample and swb bench sampling.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "JsonError.h"
#include "cli/Subcommand.h"
#include "interop/StrategyFormats.h"
#include "sampling/SamplerChain.h"
#include "sampling/StepTraceJson.h"

namespace swb::cli {

int runGrammarBench(const Invocation& call); // BenchGrammarCommand.cpp

namespace {

std::vector<float> readLogitsFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        failBadInput(QStringLiteral("cannot read logits file %1: %2").arg(path, file.errorString()));
    QJsonParseError error;
    const QByteArray bytes = readInput(file, path);
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (!document.isObject())
        failBadInput(error.error != QJsonParseError::NoError
                         ? QStringLiteral("logits file %1 is not valid JSON: %2").arg(path, jsonErrorWhere(bytes, error))
                         : QStringLiteral("logits file %1 holds JSON of another shape; it must be an object "
                                          "{\"logits\": [...]}")
                               .arg(path));
    const QJsonValue logits = document.object().value(QLatin1String("logits"));
    if (!logits.isArray() || logits.toArray().isEmpty())
        failBadInput(QStringLiteral("logits file %1 has no non-empty \"logits\" array").arg(path));
    std::vector<float> row;
    for (const QJsonValue& value : logits.toArray()) {
        if (!value.isDouble() || !std::isfinite(value.toDouble()))
            failBadInput(QStringLiteral("logits file %1: entry %2 is not a finite number").arg(path).arg(row.size()));
        row.push_back(static_cast<float>(value.toDouble()));
    }
    return row;
}

std::vector<TokenId> parseIds(const QString& text, const QString& option, int vocabSize) {
    std::vector<TokenId> ids;
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int id = part.toInt(&ok);
        if (!ok || id < 0 || (vocabSize > 0 && id >= vocabSize))
            failBadInput(QStringLiteral("--%1: '%2' is not a token id below %3").arg(option, part).arg(vocabSize));
        ids.push_back(id);
    }
    return ids;
}

int runSample(const Invocation& call) {
    const std::vector<float> logits = readLogitsFile(call.required(QStringLiteral("logits")));
    Result<Strategy> strategy = Strategy::parse(call.required(QStringLiteral("strategy")));
    if (!strategy)
        failBadInput(strategy.error().message);
    const auto seed = static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"),
                                                              static_cast<long long>(strategy->seed.value_or(0)), 0,
                                                              std::numeric_limits<long long>::max()));
    strategy->seed = seed;
    const std::vector<TokenId> history = parseIds(call.args.value(QStringLiteral("history")), QStringLiteral("history"),
                                                  static_cast<int>(logits.size()));
    const long long draws = call.integer(QStringLiteral("draws"), 0, 0, 10'000'000);

    Result<SamplerChain> chain = SamplerChain::build(strategy.value());
    if (!chain)
        failBadInput(chain.error().message);
    Candidates final;
    Result<StepTrace> trace = chain->sample(logits, history, TraceLevel::Full, &final);
    if (!trace)
        failBadInput(trace.error().message);

    QJsonObject out = stepTraceToJson(trace.value());
    std::vector<std::size_t> order(final.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return final.prob(a) > final.prob(b) || (final.prob(a) == final.prob(b) && final.id(a) < final.id(b));
    });
    QJsonArray finalList;
    for (std::size_t index : order)
        if (final.prob(index) > 0.0f)
            finalList.append(QJsonObject{{QStringLiteral("id"), final.id(index)},
                                         {QStringLiteral("p"), static_cast<double>(final.prob(index))}});
    out.insert(QStringLiteral("final"), finalList);
    if (draws > 0) {
        QJsonArray drawn;
        for (long long i = 0; i < draws; ++i)
            drawn.append(final.id(kernels::drawIndex(final, chain->rng().uniform())));
        out.insert(QStringLiteral("draws"), drawn);
    }
    call.out << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

// Logits shaped like a language model's: a Gaussian bulk (sd 2.5) and a handful of strong tokens.
std::vector<float> syntheticLogits(std::size_t vocab, std::uint64_t seed) {
    Pcg64 rng(seed);
    std::vector<float> logits(vocab);
    for (std::size_t i = 0; i < vocab; ++i) {
        const double u1 = 1.0 - rng.uniform();
        const double u2 = rng.uniform();
        logits[i] = static_cast<float>(2.5 * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2));
    }
    for (int i = 0; i < 12; ++i)
        logits[rng.next() % vocab] = static_cast<float>(9.0 + 6.0 * rng.uniform());
    return logits;
}

// What an engine without partial sorting does for top-p: sort the whole vocabulary, softmax,
// cumulative sum, cut, draw.
TokenId naiveTopP(std::span<const float> logits, double p, Pcg64& rng) {
    std::vector<std::pair<float, TokenId>> sorted(logits.size());
    for (std::size_t i = 0; i < logits.size(); ++i)
        sorted[i] = {logits[i], static_cast<TokenId>(i)};
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<double> probs(sorted.size());
    double sum = 0.0;
    for (std::size_t i = 0; i < sorted.size(); ++i)
        sum += probs[i] = std::exp(static_cast<double>(sorted[i].first - sorted[0].first));
    double cumulative = 0.0;
    std::size_t kept = 0;
    while (kept < probs.size() && cumulative < p * sum)
        cumulative += probs[kept++];
    const double target = rng.uniform() * cumulative;
    double walk = 0.0;
    for (std::size_t i = 0; i < kept; ++i)
        if ((walk += probs[i]) > target)
            return sorted[i].second;
    return sorted[kept - 1].second;
}

template <typename F> double microsecondsPerCall(int steps, F&& call) {
    call(); // warm caches and lazy allocations
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i)
        call();
    const auto elapsed = std::chrono::steady_clock::now() - start;
    return std::chrono::duration<double, std::micro>(elapsed).count() / steps;
}

int runSamplingBench(const Invocation& call) {
    if (call.args.isSet(QStringLiteral("grammar")))
        return runGrammarBench(call);
    const int steps = static_cast<int>(call.integer(QStringLiteral("steps"), 200, 1, 1'000'000));
    std::vector<long long> vocabs;
    if (call.args.isSet(QStringLiteral("vocab"))) {
        for (const QString& value : call.args.values(QStringLiteral("vocab"))) {
            bool ok = false;
            const long long v = value.toLongLong(&ok);
            if (!ok || v < 2 || v > 10'000'000)
                failBadInput(QStringLiteral("--vocab must be an integer from 2 to 10000000, not '%1'").arg(value));
            vocabs.push_back(v);
        }
    } else {
        vocabs = {32000, 128256, 151936};
    }

    const struct {
        const char* name;
        const char* strategy;
    } chains[] = {
        {"llamacpp-default", "llamacpp-default"},
        {"top_p_0.95", R"({"samplers":[{"type":"top_p","p":0.95},{"type":"dist"}]})"},
    };
    QJsonArray results;
    for (long long vocab : vocabs) {
        const std::vector<float> logits = syntheticLogits(static_cast<std::size_t>(vocab), 11);
        QJsonObject entry{{QStringLiteral("vocab"), vocab}};
        double topPFull = 0.0;
        for (const auto& spec : chains) {
            const Strategy strategy = Strategy::parse(QLatin1String(spec.strategy)).value();
            QJsonObject figures;
            double none = 0.0;
            double scalars = 0.0;
            double full = 0.0;
            for (const auto& [level, target, key] : {std::tuple{TraceLevel::None, &none, "us_trace_none"},
                                                     std::tuple{TraceLevel::Scalars, &scalars, "us_trace_scalars"},
                                                     std::tuple{TraceLevel::Full, &full, "us_trace_full"}}) {
                SamplerChain chain = SamplerChain::build(strategy).value();
                const TraceLevel traced = level; // clang 14 cannot capture a structured binding
                *target = microsecondsPerCall(steps, [&] { (void)chain.sample(logits, {}, traced); });
                figures.insert(QLatin1String(key), *target);
            }
            figures.insert(QStringLiteral("trace_overhead_full_vs_scalars"), full / scalars - 1.0);
            figures.insert(QStringLiteral("trace_overhead_full_vs_none"), full / none - 1.0);
            entry.insert(QLatin1String(spec.name), figures);
            if (QLatin1String(spec.name) == QLatin1String("top_p_0.95"))
                topPFull = full;
        }
        Pcg64 rng(5);
        const double naive = microsecondsPerCall(std::max(steps / 10, 5), [&] { (void)naiveTopP(logits, 0.95, rng); });
        entry.insert(QStringLiteral("naive_full_sort_top_p_us"), naive);
        entry.insert(QStringLiteral("top_p_speedup_vs_naive"), naive / topPFull);
        results.append(entry);
    }
    const QJsonObject out{
        {QStringLiteral("benchmark"), QStringLiteral("sampling")},
        {QStringLiteral("steps"), steps},
        {QStringLiteral("logits"), QStringLiteral("synthetic: N(0, 2.5) bulk plus 12 tokens at 9-15")},
        {QStringLiteral("results"), results}};
    call.out << QJsonDocument(out).toJson(QJsonDocument::Indented);
    return 0;
}

} // namespace

// swb convert-strategy: a strategy from or to another tool's settings (interop/StrategyFormats.h); "swb" is
// ours (strategy JSON). What does not translate goes to stderr as notes.
int runConvertStrategy(const Invocation& call) {
    const QStringList formats = QStringList{QStringLiteral("swb")} + strategyFormatNames();
    const QString from = call.args.isSet(QStringLiteral("from")) ? call.args.value(QStringLiteral("from")) : QStringLiteral("swb");
    const QString to = call.args.isSet(QStringLiteral("to")) ? call.args.value(QStringLiteral("to")) : QStringLiteral("swb");
    for (const QString& format : {from, to})
        if (!formats.contains(format))
            failBadInput(QStringLiteral("'%1' is not a format; formats: %2").arg(format, formats.join(QStringLiteral(", "))));
    if (call.args.isSet(QStringLiteral("strategy")) == call.args.isSet(QStringLiteral("file")))
        failBadInput(QStringLiteral("give the settings with --strategy TEXT or --file FILE (- for standard input)"));
    QString text = call.args.value(QStringLiteral("strategy"));
    if (call.args.isSet(QStringLiteral("file"))) {
        QFile file;
        openInput(file, call.args.value(QStringLiteral("file")));
        const QByteArray bytes = readInput(file, call.args.value(QStringLiteral("file")));
        text = QString::fromUtf8(bytes);
        if (text.toUtf8() != bytes)
            failBadInput(QStringLiteral("%1 is not UTF-8 text").arg(call.args.value(QStringLiteral("file"))));
    }
    QStringList notes;
    Strategy strategy;
    if (from == QLatin1String("swb")) {
        Result<Strategy> parsed = Strategy::parse(text);
        if (!parsed)
            failBadInput(parsed.error().message);
        strategy = parsed.value();
    } else {
        Result<ImportedStrategy> imported = importStrategy(text, *strategyFormatFromName(from));
        if (!imported)
            failBadInput(imported.error().message);
        strategy = imported->strategy;
        notes << imported->notes;
    }
    QString output;
    if (to == QLatin1String("swb")) {
        output = QString::fromUtf8(QJsonDocument(strategy.toJson()).toJson(QJsonDocument::Indented));
    } else {
        Result<ExportedStrategy> exported = exportStrategy(strategy, *strategyFormatFromName(to));
        if (!exported)
            failBadInput(exported.error().message);
        output = exported->text;
        notes << exported->notes;
    }
    for (const QString& note : notes)
        call.err << QStringLiteral("swb: note: %1\n").arg(note);
    call.err.flush();
    call.out << output;
    return 0;
}

std::vector<Subcommand> samplingSubcommands() {
    Subcommand sample{
        QStringLiteral("sample"),
        QStringLiteral("swb sample --logits FILE --strategy PRESET|FILE|JSON [--seed S] [--history IDS] [--draws N]"),
        QStringLiteral("Run a sampler chain on one logits row and print its trace as JSON."),
        [](QCommandLineParser& parser) {
            parser.addOptions({
                {QStringLiteral("logits"), QStringLiteral("JSON file {\"logits\": [floats]}."), QStringLiteral("FILE")},
                {QStringLiteral("strategy"),
                 QStringLiteral("Preset name (preset@hf|llamacpp|vllm), JSON file or JSON."), QStringLiteral("S")},
                {QStringLiteral("seed"), QStringLiteral("RNG seed (default: the strategy's, else 0)."),
                 QStringLiteral("S")},
                {QStringLiteral("history"), QStringLiteral("Prior token ids, for penalties."), QStringLiteral("IDS")},
                {QStringLiteral("draws"), QStringLiteral("Also draw N tokens from the final distribution."),
                 QStringLiteral("N")},
            });
        },
        runSample};
    Subcommand convert{
        QStringLiteral("convert-strategy"),
        QStringLiteral("swb convert-strategy [--from FORMAT] [--to FORMAT] (--strategy TEXT | --file FILE)"),
        QStringLiteral("Convert a strategy to or from llama.cpp, text-generation-webui, SillyTavern or transformers "
                       "settings; notes say what does not translate."),
        [](QCommandLineParser& parser) {
            parser.addOptions({
                {QStringLiteral("from"),
                 QStringLiteral("swb (default: a preset, strategy file or JSON), llamacpp-json, llamacpp-flags, "
                                "webui-yaml, sillytavern or generation-config."),
                 QStringLiteral("FORMAT")},
                {QStringLiteral("to"), QStringLiteral("The same formats (default: swb, our strategy JSON)."),
                 QStringLiteral("FORMAT")},
                {QStringLiteral("strategy"), QStringLiteral("The settings as text."), QStringLiteral("TEXT")},
                {QStringLiteral("file"), QStringLiteral("The settings from a file (- for standard input)."),
                 QStringLiteral("FILE")},
            });
        },
        runConvertStrategy};
    return {sample, convert};
}

std::vector<BenchMode> samplingBenchModes() {
    BenchMode mode{
        QStringLiteral("sampling"),
        QStringLiteral("µs per step of sampler chains at large vocabularies, with a naive full-sort baseline"),
        [](QCommandLineParser& parser) {
            parser.addOptions({
                {QStringLiteral("vocab"),
                 QStringLiteral("Vocabulary size (repeatable; default 32000, "
                                "128256, 151936)."),
                 QStringLiteral("V")},
                {QStringLiteral("steps"), QStringLiteral("Steps timed per figure (default 200; 2000 with --grammar)."),
                 QStringLiteral("N")},
                {QStringLiteral("grammar"),
                 QStringLiteral("Time the llama.cpp chain with this grammar first (GBNF, or a JSON schema in a .json "
                                "file) against it without, on --tokenizer's vocabulary (grown to --vocab tokens "
                                "with pairs of its pieces)."),
                 QStringLiteral("FILE")},
                {QStringLiteral("tokenizer"),
                 QStringLiteral("The vocabulary for --grammar (.gguf, tokenizer.json, model)."),
                 QStringLiteral("PATH")},
            });
        },
        runSamplingBench};
    return {mode};
}

} // namespace swb::cli
