#pragma once

#include <vector>

#include <QString>

#include "evaluation/Statistics.h"
#include "sampling/Strategy.h"

namespace swb {

// A sampler that could break a repetition loop, as a change to the strategy that made it, and the step where
// a what-if replay shows whether it acts: the first step of the loop at which that sampler can see the repeat.
struct LoopRemedy {
    enum class Kind { RepetitionPenalty, Dry, NoRepeatNgram, Temperature, SampleInsteadOfGreedy };
    Kind kind;
    double value = 0; // the penalty, DRY multiplier, n-gram size or temperature set
    Strategy strategy;
    int step = 0; // 0-based step of the run
};

// The remedies for a loop of a run made with `strategy`:
// - repetition penalty (transformers' repetition_penalty) 1.3, or 0.2 above the strategy's own (at least 1.3),
//   from the loop's first repeated token (start + period);
// - DRY (llama.cpp) with multiplier 0.8, or twice the strategy's own, from start + period + allowed_length
//   (DRY lets repeats of allowed_length tokens pass);
// - no-repeat n-grams of 3 (transformers), from start + period + 2 (the first repeated 3-gram); left out when
//   the strategy has one (a loop of three copies cannot form under it, so it is not what failed);
// - temperature 0.3 above the strategy's (1.3 when it has none), from start + period; for a greedy strategy
//   instead: sampling (the greedy selector replaced by dist) at temperature 0.8.
// Steps are clamped to the loop. A remedy the strategy cannot take (a value out of range) is left out.
std::vector<LoopRemedy> loopRemedies(const Strategy& strategy, const stats::RepetitionLoop& loop);

} // namespace swb
