// swb bench storage: save a 1000-step run with 64 alternatives per step, load it back, and list
// 10,000 runs with their strategy names, in a temporary run store.

#include <algorithm>
#include <chrono>

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/Subcommand.h"
#include "sampling/Rng.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"

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
             runStorageBench}};
}

} // namespace swb::cli
