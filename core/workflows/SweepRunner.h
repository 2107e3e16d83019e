#pragma once

#include <atomic>
#include <functional>
#include <vector>

#include "Result.h"
#include "evaluation/Sweep.h"
#include "workflows/ComparisonRunner.h"

namespace swb {

class Database;

struct SweepProgress {
    int done = 0;  // runs finished or found already made
    int total = 0; // runs in the sweep
    int batchTokens = 0;    // tokens made so far by the batch now generating (one prompt and sample, every cell)
    int batchMaxTokens = 0; // at most
};

// A cell of a finished (or cancelled) sweep: its strategy and the ids of its runs made so far, prompt-major
// (prompt 0 samples 0..n-1, then prompt 1, ...).
struct SweepCellRuns {
    int column = 0;
    int row = 0;
    Strategy strategy;
    std::vector<qint64> runIds;
};

struct SweepOutcome {
    std::vector<SweepCellRuns> cells; // row-major: row 0 columns 0.., then row 1
    int total = 0;
    int generated = 0;
    int skipped = 0; // found in the store (an earlier, interrupted run of the sweep, or the same run made before)
    bool cancelled = false;
};

// Runs a sweep into the run store, resumably: each run carries runBatchKey(model, prompt, cell strategy, seed,
// max tokens), so the same sweep again skips finished runs, and a cancelled one resumes where it stopped.
// For each prompt and sample, every cell still missing its run goes through the model together (one batched
// forward pass per token). A cell whose strategy equals another's shares its runs.
Result<SweepOutcome> runSweep(const RunSource& source, Database& database, const SweepSpec& spec,
                              const std::function<void(const SweepProgress&)>& progress = {},
                              const std::atomic<bool>* cancel = nullptr);
Result<SweepOutcome> runSweep(Model& model, const Tokenizer& tokenizer, Database& database, const SweepSpec& spec,
                              const std::function<void(const SweepProgress&)>& progress = {},
                              const std::atomic<bool>* cancel = nullptr);

// The metrics of every cell of an outcome, from its stored runs.
Result<std::vector<SweepCellResult>> sweepResults(Database& database, const SweepOutcome& outcome);

} // namespace swb
