#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <QString>

#include "Result.h"
#include "generation/StepReplay.h"

namespace swb {

// One step of a run as one token saw it ("why is this token never chosen?").
struct TokenProbeStep {
    float rawP = 0.0f; // its softmax probability under the raw logits
    int rawRank = 0;   // 1 + the number of tokens with a strictly larger raw logit
    // The stage of the chain that removed it (an index into TokenProbe::stages); -1 when it survived every
    // stage, the selector's included.
    int cutBy = -1;
    float finalP = 0.0f; // its probability among the candidates the selector drew from (0 when cut)
    bool drawn = false;  // the run drew it at this step
};

struct TokenProbe {
    TokenId token = -1;
    QStringList stages; // the chain's samplers, in order
    std::vector<TokenProbeStep> steps;
};

// Follows `token` through every step of a run: its raw probability and rank on the step's logits, and the
// strategy's chain applied as the run went (teacher forced with the run's tokens, as replayStep does, so
// penalties, mirostat's state and the RNG are where the strategy would have them), stage by stage.
Result<TokenProbe> probeToken(const RunLogits& logits, std::span<const TokenId> promptIds,
                              std::span<const TokenId> tokens, const Strategy& strategy, std::uint64_t seed,
                              TokenId token, const Tokenizer* tokenizer);

} // namespace swb
