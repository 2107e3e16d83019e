#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tokenizer/Tokenizer.h"

namespace swb {

// Beam search as Hugging Face transformers does it (BeamSearchScorer, BeamHypotheses): each step every
// running beam's next-token log-probabilities (log-softmax of the raw logits, then the strategy's
// logits processors) are added to the beam's score; the best max(2, 1 + #EOS) x beams candidates are
// walked in order: an EOS candidate among the first `beams` becomes a finished hypothesis scored
// sum / generated_length^length_penalty (its length counting the EOS), any other fills the next beams
// until there are `beams` of them. early_stopping: true stops once `beams` hypotheses are finished;
// false once the best running score, at the current length, cannot beat the worst finished one;
// "never" the same with the longest possible length when length_penalty > 0. At the end the running
// beams join the finished ones, and the best `return` are the result.
struct BeamOptions {
    int beams = 4;
    double lengthPenalty = 1.0;
    enum class EarlyStopping { Never, Heuristic, Immediate };
    EarlyStopping earlyStopping = EarlyStopping::Heuristic; // false in transformers' terms
    int returned = 1;
};

// One candidate a step weighed: which beam it extends, its token, its cumulative score (the beam's
// score plus the processed log-probability) and what became of it.
struct BeamCandidate {
    enum class Fate { Continued, Finished, Pruned };
    int beam = 0;
    TokenId token = -1;
    double score = 0.0;
    Fate fate = Fate::Pruned;
};

// A step of a beam search: the candidates in score order, and the beams it leaves running (each the
// index of its parent beam in the step before, its new token and cumulative score).
struct BeamStep {
    std::vector<BeamCandidate> candidates;
    std::vector<int> parents;
    std::vector<TokenId> tokens;
    std::vector<double> scores;
};

struct BeamHypothesis {
    std::vector<TokenId> tokens; // generated, with the EOS that ended it (when one did)
    std::string text;            // decoded, without the EOS
    double sumLogProb = 0.0;
    double score = 0.0;          // sumLogProb / generated_length^length_penalty
    bool finishedByEos = false;
};

struct BeamResult {
    std::vector<TokenId> promptIds;
    std::vector<BeamHypothesis> hypotheses; // best first, `returned` of them
    std::vector<BeamStep> steps;
    bool cancelled = false;
};

} // namespace swb
