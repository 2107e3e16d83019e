#pragma once

#include <cmath>
#include <vector>

#include <QString>

#include "tokenizer/Tokenizer.h"

namespace swb {

// What one stage of the chain did at one step.
struct StageTrace {
    QString sampler;        // strategy JSON type, e.g. "top_k"
    int kept = 0;           // survivors after the stage
    double keptMass = 1.0;  // probability mass of the survivors in the distribution the stage received
    double threshold = NAN; // the stage's cutoff in its own terms (each sampler documents it); NaN if none
    // The most probable tokens the stage refused, most probable first (a grammar stage fills it in a full
    // trace; not stored with a run: Explore replays the step).
    std::vector<TokenId> refused = {};
};

// One raw candidate of a step with the probability the chain left it (0 when cut).
struct TopCandidate {
    TokenId id = -1;
    float logit = 0.0f; // raw logit
    float rawP = 0.0f;  // softmax of the unmodified logits
    float finalP = 0.0f;
};

// Everything recorded about one sampling step. "raw" = softmax of the model's unmodified logits;
// "final" = the distribution the selector drew from. Both are always kept and always labelled.
struct StepTrace {
    TokenId chosen = -1;
    float rawP = 0.0f;
    float finalP = 0.0f;
    // Unknown where a remote engine does not say: rawRank 0, entropies NaN, finalCount -1 (stored as NULL).
    int rawRank = 0;           // 1 + number of tokens with a strictly larger raw logit
    double rawEntropy = 0.0;   // nats
    double finalEntropy = 0.0; // nats
    double draw = NAN;         // the uniform [0,1) draw of the selector; NaN for greedy
    int finalCount = 0;        // survivors the selector chose from
    std::vector<StageTrace> stages;
    std::vector<TopCandidate> top; // the top-N raw candidates, by raw probability
};

} // namespace swb
