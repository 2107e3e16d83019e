#include "workflows/SweepRunner.h"

#include <map>

#include "generation/Generator.h"
#include "model/Model.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "workflows/RunRecording.h"

namespace swb {

Result<SweepOutcome> runSweep(Model& model, const Tokenizer& tokenizer, Database& database, const SweepSpec& spec,
                              const std::function<void(const SweepProgress&)>& progress,
                              const std::atomic<bool>* cancel) {
    Generator generator(model, tokenizer);
    return runSweep(localRunSource(model, generator), database, spec, progress, cancel);
}

Result<SweepOutcome> runSweep(const RunSource& source, Database& database, const SweepSpec& spec,
                              const std::function<void(const SweepProgress&)>& progress,
                              const std::atomic<bool>* cancel) {
    if (Status status = spec.validate(); !status)
        return status.error();
    SweepOutcome outcome;
    for (int row = 0; row < spec.rows(); ++row)
        for (int column = 0; column < spec.columns(); ++column) {
            Result<Strategy> strategy = sweepCellStrategy(spec, column, row);
            if (!strategy)
                return strategy.error();
            outcome.cells.push_back({column, row, strategy.value(), {}});
        }
    outcome.total = static_cast<int>(outcome.cells.size()) * spec.runsPerCell();
    SweepProgress state;
    state.total = outcome.total;
    if (progress)
        progress(state);
    RunRepository runs(database);
    for (qsizetype p = 0; p < spec.prompts.size(); ++p) {
        const QString& prompt = spec.prompts.at(p);
        for (int s = 0; s < spec.samples; ++s) {
            if (cancel && cancel->load()) {
                outcome.cancelled = true;
                return outcome;
            }
            const std::uint64_t seed = spec.seed + static_cast<std::uint64_t>(s);
            // Cells with one strategy (by hash) share one request and one run.
            std::map<QString, std::vector<std::size_t>> cellsOfKey;
            std::vector<QString> keys;
            std::vector<GenerationRequest> requests;
            for (std::size_t c = 0; c < outcome.cells.size(); ++c) {
                const QString key = runBatchKey(source.info, prompt, outcome.cells[c].strategy, seed, spec.maxTokens);
                auto [slot, fresh] = cellsOfKey.try_emplace(key);
                slot->second.push_back(c);
                if (!fresh)
                    continue;
                Result<std::optional<qint64>> existing = runs.findRunByBatchKey(key);
                if (!existing)
                    return existing.error();
                if (existing.value())
                    continue;
                GenerationRequest request;
                request.prompt = prompt.toStdString();
                request.strategy = outcome.cells[c].strategy;
                request.strategy.seed = seed;
                request.maxTokens = spec.maxTokens;
                request.traceLevel = TraceLevel::Full;
                requests.push_back(std::move(request));
                keys.push_back(key);
            }
            std::map<QString, qint64> runOfKey;
            if (!requests.empty()) {
                state.batchTokens = 0;
                state.batchMaxTokens = static_cast<int>(requests.size()) * spec.maxTokens;
                std::vector<Result<GenerationResult>> results = source.generateBatch(
                    requests,
                    [&](std::size_t, const GeneratedStep&) {
                        ++state.batchTokens;
                        if (progress)
                            progress(state);
                        return true;
                    },
                    cancel);
                if (cancel && cancel->load()) {
                    outcome.cancelled = true; // runs cut short are not saved: the sweep resumes from here
                    return outcome;
                }
                for (std::size_t k = 0; k < results.size(); ++k) {
                    if (!results[k])
                        return results[k].error();
                    RunProvenance provenance;
                    provenance.batchKey = keys[k];
                    Result<RunRecord> saved = saveGeneration(runs, source.info, requests[k], results[k].value(), provenance);
                    if (!saved)
                        return saved.error();
                    runOfKey[keys[k]] = saved->id;
                }
            }
            for (const auto& [key, cells] : cellsOfKey) {
                qint64 id = 0;
                if (auto made = runOfKey.find(key); made != runOfKey.end()) {
                    id = made->second;
                    outcome.generated += static_cast<int>(cells.size());
                } else {
                    Result<std::optional<qint64>> existing = runs.findRunByBatchKey(key);
                    if (!existing)
                        return existing.error();
                    id = existing.value().value_or(0);
                    outcome.skipped += static_cast<int>(cells.size());
                }
                for (std::size_t c : cells)
                    outcome.cells[c].runIds.push_back(id);
            }
            state.done += static_cast<int>(outcome.cells.size());
            state.batchTokens = state.batchMaxTokens = 0;
            if (progress)
                progress(state);
        }
    }
    return outcome;
}

Result<std::vector<SweepCellResult>> sweepResults(Database& database, const SweepOutcome& outcome) {
    RunRepository runs(database);
    std::vector<SweepCellResult> results;
    std::map<qint64, std::vector<StepTrace>> loaded;
    for (const SweepCellRuns& cell : outcome.cells) {
        std::vector<std::vector<StepTrace>> traces;
        for (qint64 id : cell.runIds) {
            auto it = loaded.find(id);
            if (it == loaded.end()) {
                Result<RunRecord> run = runs.loadRun(id);
                if (!run)
                    return run.error();
                it = loaded.emplace(id, std::move(run->steps)).first;
            }
            traces.push_back(it->second);
        }
        results.push_back({cell.column, cell.row, sweepCellMetrics(traces)});
    }
    return results;
}

} // namespace swb
