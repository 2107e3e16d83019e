// swb bench storage: save a 1000-step run with 64 alternatives per step, load it back, and list
// 10,000 runs with their strategy names, in a temporary run store.
// swb bench soak: one long batch (10,000 runs by default) on a model into a temporary run store, with the
// process's resident memory sampled as it goes: flat after warm-up, or something leaks per run.

#include <algorithm>
#include <chrono>
#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "Rng.h"
#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "workflows/ComparisonRunner.h"

namespace swb::cli {

namespace {

RunRecord syntheticRun(qint64 modelId, qint64 strategyId, int steps, int alternatives, std::uint64_t seed) {
    Pcg64 rng(seed);
    RunRecord run;
    run.modelId = modelId;
    run.strategyId = strategyId;
    run.promptText = QStringLiteral("In the beginning");
    run.promptIds = {1, 2, 3, 4};
    run.seed = seed;
    run.text = QString(steps * 4, QLatin1Char('x'));
    run.finishReason = QStringLiteral("max_tokens");
    for (int i = 0; i < steps; ++i) {
        StepTrace trace;
        trace.chosen = static_cast<TokenId>(rng.next() % 32000);
        trace.rawP = static_cast<float>(rng.uniform());
        trace.finalP = static_cast<float>(rng.uniform());
        trace.rawRank = 1;
        trace.rawEntropy = rng.uniform();
        trace.finalEntropy = rng.uniform();
        trace.draw = rng.uniform();
        trace.finalCount = 40;
        trace.stages = {{QStringLiteral("top_k"), 40, 0.9, 2.0},
                        {QStringLiteral("top_p"), 20, 0.95, 0.01},
                        {QStringLiteral("min_p"), 18, 0.99, 0.02},
                        {QStringLiteral("temperature"), 18, 1.0, 0.8},
                        {QStringLiteral("dist"), 18, 1.0, NAN}};
        for (int t = 0; t < alternatives; ++t)
            trace.top.push_back({static_cast<TokenId>(rng.next() % 32000), static_cast<float>(rng.uniform()),
                                 static_cast<float>(rng.uniform()), static_cast<float>(rng.uniform())});
        run.steps.push_back(std::move(trace));
    }
    return run;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

int runStorageBench(const Invocation& call) {
    const int steps = static_cast<int>(call.integer(QStringLiteral("steps"), 1000, 1, 1000000));
    const int listed = static_cast<int>(call.integer(QStringLiteral("runs"), 10000, 1, 10000000));
    QTemporaryDir dir;
    Result<std::unique_ptr<Database>> db = Database::open(dir.filePath(QStringLiteral("bench.sqlite")));
    if (!db)
        failInternal(db.error().message);
    RunRepository runs(*db.value());
    const qint64 modelId = runs.saveModel({0, QStringLiteral("bench"), QStringLiteral("gguf"), QStringLiteral("llama"),
                                           QStringLiteral("hash"), 1, QStringLiteral("{}")})
                               .value();
    std::vector<qint64> strategyIds;
    for (const QString& preset : strategyPresetNames())
        strategyIds.push_back(runs.saveStrategy(strategyPreset(preset).value()).value());

    // Save: median of 5 runs of `steps` steps.
    std::vector<double> saves;
    qint64 savedId = 0;
    for (int i = 0; i < 5; ++i) {
        RunRecord run = syntheticRun(modelId, strategyIds[0], steps, 64, static_cast<std::uint64_t>(i));
        const auto start = std::chrono::steady_clock::now();
        if (Status status = runs.saveRun(run); !status)
            failInternal(status.error().message);
        saves.push_back(millisecondsSince(start));
        savedId = run.id;
    }
    std::vector<double> loads;
    for (int i = 0; i < 5; ++i) {
        const auto start = std::chrono::steady_clock::now();
        Result<RunRecord> loaded = runs.loadRun(savedId);
        if (!loaded || static_cast<int>(loaded->steps.size()) != steps)
            failInternal(QStringLiteral("the saved run did not load back"));
        loads.push_back(millisecondsSince(start));
    }
    // Fill up to `listed` small runs (2 steps each), then list them all with strategy names.
    for (int i = 5; i < listed; ++i) {
        RunRecord run = syntheticRun(modelId, strategyIds[static_cast<std::size_t>(i) % strategyIds.size()], 2, 4,
                                     static_cast<std::uint64_t>(i));
        if (Status status = runs.saveRun(run); !status)
            failInternal(status.error().message);
    }
    std::vector<double> lists;
    std::size_t count = 0;
    for (int i = 0; i < 5; ++i) {
        const auto start = std::chrono::steady_clock::now();
        Result<std::vector<RunSummary>> all = runs.listRuns();
        if (!all)
            failInternal(all.error().message);
        count = all->size();
        lists.push_back(millisecondsSince(start));
    }
    const auto median = [](std::vector<double> values) {
        std::sort(values.begin(), values.end());
        return values[values.size() / 2];
    };
    const QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("storage")},
                          {QStringLiteral("steps_per_run"), steps},
                          {QStringLiteral("alternatives_per_step"), 64},
                          {QStringLiteral("save_ms"), median(saves)},
                          {QStringLiteral("load_ms"), median(loads)},
                          {QStringLiteral("runs_listed"), static_cast<qint64>(count)},
                          {QStringLiteral("list_ms"), median(lists)},
                          {QStringLiteral("target_save_ms"), 50},
                          {QStringLiteral("target_load_ms"), 30},
                          {QStringLiteral("target_list_ms"), 100}};
    call.out << QJsonDocument(out).toJson(QJsonDocument::Indented);
    return 0;
}

int runSoakBench(const Invocation& call) {
    const int runs = static_cast<int>(call.integer(QStringLiteral("runs"), 10000, 10, 10000000));
    const int every = static_cast<int>(call.integer(QStringLiteral("every"), 250, 1, 10000000));
    ComparisonPlan plan;
    plan.prompts = {QStringLiteral("In the beginning"), QStringLiteral("And the LORD said"),
                    QStringLiteral("Blessed are"), QStringLiteral("The earth"), QStringLiteral("And it came to pass")};
    for (const char* preset : {"creative", "chat"}) {
        Strategy strategy = strategyPreset(QString::fromLatin1(preset)).value();
        strategy.name = QString::fromLatin1(preset);
        plan.strategies.push_back(std::move(strategy));
    }
    const int perSample = static_cast<int>(plan.prompts.size() * static_cast<qsizetype>(plan.strategies.size()));
    plan.samples = std::max(1, runs / perSample);
    plan.maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 16, 1, 4096));
    plan.promptSetName = QStringLiteral("soak");
    plan.promptSetSource = QStringLiteral("swb bench soak");
    LoadedModel loaded = loadModelFromArguments(call);
    QTemporaryDir dir;
    Result<std::unique_ptr<Database>> db = Database::open(dir.filePath(QStringLiteral("soak.sqlite")));
    if (!db)
        failInternal(db.error().message);

    struct Sample {
        int done;
        ProcessMemory memory;
    };
    std::vector<Sample> samples{{0, processMemory()}};
    const auto start = std::chrono::steady_clock::now();
    Result<ComparisonOutcome> outcome = runComparisonPlan(
        *loaded.model, *loaded.tokenizer, *db.value(), plan, [&](const ComparisonProgress& progress) {
            if (progress.done >= samples.back().done + every)
                samples.push_back({progress.done, processMemory()});
        });
    if (!outcome)
        failInternal(outcome.error().message);
    samples.push_back({outcome->total, processMemory()});
    const double seconds = millisecondsSince(start) / 1000.0;

    // After warm-up (the first fifth of the runs: caches, SQLite's page cache, the allocator's pools), every
    // sample's resident memory against their mean, and the drift from the first such sample to the last (a
    // steady leak shows there in full, where against the mean it would show by half).
    const int warmUp = outcome->total / 5;
    double sum = 0.0, lowest = HUGE_VAL, highest = 0.0, first = 0.0, last = 0.0;
    int counted = 0;
    QJsonArray series;
    for (const Sample& sample : samples) {
        series.append(QJsonObject{{QStringLiteral("runs"), sample.done},
                                  {QStringLiteral("rss_mb"), std::round(sample.memory.resident / 1e5) / 10},
                                  {QStringLiteral("rss_anon_mb"), std::round(sample.memory.anonymous / 1e5) / 10}});
        if (sample.done < warmUp)
            continue;
        const double mb = sample.memory.resident / 1e6;
        if (counted == 0)
            first = mb;
        last = mb;
        sum += mb;
        lowest = std::min(lowest, mb);
        highest = std::max(highest, mb);
        ++counted;
    }
    const double mean = counted > 0 ? sum / counted : 0.0;
    const double spread = mean > 0 ? 100.0 * std::max(highest - mean, mean - lowest) / mean : 0.0;
    const double drift = first > 0 ? 100.0 * (last - first) / first : 0.0;
    const QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("soak")},
                          {QStringLiteral("runs"), outcome->total},
                          {QStringLiteral("tokens_per_run"), plan.maxTokens},
                          {QStringLiteral("seconds"), std::round(seconds * 10) / 10},
                          {QStringLiteral("warm_up_runs"), warmUp},
                          {QStringLiteral("rss_after_warm_up_mean_mb"), std::round(mean * 10) / 10},
                          {QStringLiteral("rss_after_warm_up_min_mb"), std::round(lowest * 10) / 10},
                          {QStringLiteral("rss_after_warm_up_max_mb"), std::round(highest * 10) / 10},
                          {QStringLiteral("rss_spread_percent"), std::round(spread * 100) / 100},
                          {QStringLiteral("rss_drift_percent"), std::round(drift * 100) / 100},
                          {QStringLiteral("target_percent"), 5},
                          {QStringLiteral("flat"), spread <= 5.0 && std::abs(drift) <= 5.0},
                          {QStringLiteral("peak_rss_mb"), std::round(processMemory().peak / 1e5) / 10},
                          {QStringLiteral("series"), series}};
    call.out << QJsonDocument(out).toJson(QJsonDocument::Indented);
    return 0;
}

} // namespace

std::vector<BenchMode> storageBenchModes() {
    return {{QStringLiteral("storage"), QStringLiteral("run store: save and load a 1000-step run, list 10,000 runs"),
             [](QCommandLineParser& parser) {
                 parser.addOptions({
                     {QStringLiteral("steps"), QStringLiteral("Steps of the saved run (default 1000)."),
                      QStringLiteral("N")},
                     {QStringLiteral("runs"), QStringLiteral("Runs to list (default 10000)."), QStringLiteral("N")},
                 });
             },
             runStorageBench},
            {QStringLiteral("soak"),
             QStringLiteral("one long batch on a model (the demo model by default) into a temporary store: resident memory "
                            "sampled as it runs, flat within 5% after warm-up [--runs 10000] [--max-tokens 16] [--every 250]"),
             [](QCommandLineParser& parser) {
                 declareModelArguments(parser);
                 parser.addOptions({
                     {QStringLiteral("runs"), QStringLiteral("Runs in the batch (default 10000)."), QStringLiteral("N")},
                     {QStringLiteral("max-tokens"), QStringLiteral("Tokens per run (default 16)."), QStringLiteral("N")},
                     {QStringLiteral("every"), QStringLiteral("Runs between memory samples (default 250)."),
                      QStringLiteral("N")},
                 });
             },
             runSoakBench}};
}

} // namespace swb::cli
