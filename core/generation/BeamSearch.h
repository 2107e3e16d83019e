#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "Result.h"
#include "sampling/Strategy.h"
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
//
// Three variants share that loop:
// - beam sampling (do_sample): the chain's warpers (temperature, top_k, top_p, min_p, typical, epsilon, eta)
//   act on each beam's processed log-probabilities too, and the candidates are drawn from the softmax of the
//   cumulative scores, without replacement, then sorted by score (transformers' torch.multinomial step);
// - diverse beam search (group_beam; Vijayakumar et al. 2016 as transformers' group beam search): the beams
//   form `groups` groups searched one after another within a step, each with its own finished hypotheses;
//   a group's scores lose diversity_penalty x (how often earlier groups chose the token at this step);
// - constrained beam search (force_words; transformers' ConstrainedBeamSearchScorer): each step also offers,
//   for every beam, the next token of each word it has not yet written, and the beams kept are taken round
//   robin from banks of constraint progress (most progress first); a hypothesis may end only when every
//   word is in it. Progress counts the generated tokens only (transformers, on decoder-only models, also
//   counts the prompt's), so a forced word is in the output itself.
struct BeamOptions {
    int beams = 4;
    double lengthPenalty = 1.0;
    enum class EarlyStopping { Never, Heuristic, Immediate };
    EarlyStopping earlyStopping = EarlyStopping::Heuristic; // false in transformers' terms
    int returned = 1;
    int groups = 1;
    double diversityPenalty = 0.0;
    bool doSample = false;
    // Each forced word as the token sequences that may spell it (one for a phrase; several alternatives,
    // none a prefix of another, for a disjunctive constraint).
    std::vector<std::vector<std::vector<TokenId>>> forcedWords;
};

// One candidate a step weighed: which beam it extends, its token, its cumulative score (the beam's
// score plus the processed log-probability) and what became of it.
struct BeamCandidate {
    enum class Fate { Continued, Finished, Pruned };
    int beam = 0;
    TokenId token = -1;
    double score = 0.0;
    Fate fate = Fate::Pruned;
    bool forced = false; // offered by a forced word rather than by the top-scoring candidates
    int group = 0;
};

// A step of a beam search: the candidates in score order, and the beams it leaves running (each the
// index of its parent beam in the step before, its new token and cumulative score).
struct BeamStep {
    std::vector<BeamCandidate> candidates;
    std::vector<int> parents;
    std::vector<TokenId> tokens;
    std::vector<double> scores;
    std::vector<int> groups; // the group of each running beam (0 without groups)
};

struct BeamHypothesis {
    std::vector<TokenId> tokens; // generated, with the EOS that ended it (when one did)
    std::string text;            // decoded, without the EOS
    double sumLogProb = 0.0;
    double score = 0.0;          // sumLogProb / generated_length^length_penalty
    bool finishedByEos = false;
    bool wordsForced = true; // every forced word is in tokens (always true without force_words)
};

struct BeamResult {
    std::vector<TokenId> promptIds;
    std::vector<BeamHypothesis> hypotheses; // best first, `returned` of them
    std::vector<BeamStep> steps;
    bool cancelled = false;
};

// A strategy's beam options (decoder beam or group_beam, validated by Strategy), with force_words
// tokenized by tokenizer (without special tokens); fails when a word is empty once tokenized or one of its
// spellings is a prefix of another.
Result<BeamOptions> beamOptions(const DecoderSpec& decoder, const Tokenizer& tokenizer);
bool isBeamDecoder(const DecoderSpec& decoder);

} // namespace swb
