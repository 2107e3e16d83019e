#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "Result.h"
#include "sampling/StepTrace.h"
#include "sampling/Strategy.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

class Model;

// The logits the model produced at each generated step of a run, recomputed in two passes
// (the prompt, then every generated token but the last), so a past step can be inspected or
// re-sampled without generating.
class RunLogits {
public:
    // Logits for steps 0..steps-1 of a run that continued promptIds with tokens.
    static Result<RunLogits> compute(Model& model, std::span<const TokenId> promptIds,
                                     std::span<const TokenId> tokens, int steps);
    // Logits for steps 0..steps-1 known only by each step's top-N raw candidates (a remote engine's answer):
    // each candidate's log-probability at its id, every other token impossible. A chain replayed on these
    // sees only those candidates ("top-N only"). One sentence when a step has no candidate with an id.
    static Result<RunLogits> fromTopCandidates(std::span<const StepTrace> traces, int steps);
    int steps() const { return m_steps; }
    int vocabSize() const { return m_vocab; }
    std::span<const float> step(int i) const;

private:
    std::vector<float> m_logits; // steps × vocab
    int m_steps = 0;
    int m_vocab = 0;
};

// The distribution after one stage of the chain, over the step's top-N raw candidates.
struct StageDistribution {
    StageTrace stage;
    // For each entry of the step's trace.top: its probability among the stage's survivors
    // (renormalised), 0 when the stage or an earlier one cut it.
    std::vector<float> probs;
};

struct ReplayedStep {
    StepTrace trace;                       // what the strategy does at this step
    std::vector<StageDistribution> stages; // one per sampler, in chain order
};

// Applies strategy to step `step` of a run: the chain first sees the run's earlier steps with their
// actual tokens (teacher forced, so penalties, mirostat's state and the RNG are where this strategy
// would have them had those tokens been drawn), then samples the step and records every stage.
Result<ReplayedStep> replayStep(const RunLogits& logits, std::span<const TokenId> promptIds,
                                std::span<const TokenId> tokens, int step, const Strategy& strategy,
                                std::uint64_t seed, const Tokenizer* tokenizer, int topN = 64);

} // namespace swb
