#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <QString>

#include "Result.h"
#include "sampling/Strategy.h"
#include "tokenizer/Tokenizer.h"

namespace swb {
class Model;
}

// Where two models that share a tokenizer (an original and its quantization) part: for every token of a text,
// teacher forced, the KL divergence of B's next-token distribution from A's, each one's top choice and the log
// probability each gives the token that came; in aggregate what llama.cpp's `llama-perplexity
// --kl-divergence` prints. Every figure in double precision from the float32 logits.

namespace swb::quantization {

struct TokenDivergence {
    TokenId token = 0; // the token that came (predicted from the positions before it)
    double kl = 0;     // KL(A‖B) = Σ pA·(ln pA − ln pB), nats
    TokenId topA = 0;
    TokenId topB = 0;
    double logpA = 0; // ln pA(token)
    double logpB = 0;
};

struct DivergenceSummary {
    std::int64_t tokens = 0;
    double meanKl = 0, medianKl = 0, p90Kl = 0, p99Kl = 0, maxKl = 0;
    double sameTop1 = 0; // fraction of positions where both models' top choice is the same token
    double pplA = 0, pplB = 0;
    // ln(PPL(B)/PPL(A)) = mean of ln pA − ln pB, and its 95% interval (mean ± 1.96 standard errors); the
    // relative change of perplexity, (PPL(B) − PPL(A)) / PPL(A), and its interval from that one.
    double meanLogRatio = 0, logRatioLow = 0, logRatioHigh = 0;
    double deltaPplRelative = 0, deltaPplLow = 0, deltaPplHigh = 0;
    // Δ ln p = ln pB − ln pA of the token that came: mean, standard deviation, 1st and 99th percentiles.
    double meanDeltaLogp = 0, sdDeltaLogp = 0, p1DeltaLogp = 0, p99DeltaLogp = 0;
};

// The tokens either model ranks highest at one position, each with both models' probabilities: the two
// distributions overlaid; and, under a strategy, what its chain kept of each.
struct PositionTop {
    std::vector<TokenId> tokens; // A's top tokens, then B's that A's leave out
    std::vector<float> pA;
    std::vector<float> pB;
    // With a strategy (else empty and -1): whether its chain kept each token for A and for B, and how many
    // tokens it kept for each and for both.
    std::vector<bool> keptA;
    std::vector<bool> keptB;
    int keptCountA = -1;
    int keptCountB = -1;
    int keptBoth = -1;
};

struct DivergenceOptions {
    int keepTop = 0; // > 0: keep each position's PositionTop of that many tokens a model
    // With keepTop: the strategy whose cuts to record for both models (each its own chain, fed the text's
    // tokens as they come), and the tokenizer its samplers may need.
    const Strategy* strategy = nullptr;
    const Tokenizer* tokenizer = nullptr;
};

struct DivergenceResult {
    std::vector<TokenId> ids; // the text's tokens, BOS included: token i + 1 is scored from positions 0…i
    std::vector<TokenDivergence> perToken;
    std::vector<PositionTop> top; // per scored token when asked for (keepTop > 0), else empty
    DivergenceSummary summary;
};

// A's and B's next-token distributions at one position (vocab logits each) compared as TokenDivergence does.
TokenDivergence compareRows(const float* logitsA, const float* logitsB, int vocab, TokenId next);
// The `keep` most probable tokens of each model at one position, with both probabilities.
PositionTop topOfRows(const float* logitsA, const float* logitsB, int vocab, int keep);
DivergenceSummary summarize(const std::vector<TokenDivergence>& perToken);

// B known only by what a served model tells of one position: its N most likely tokens with their log
// probabilities (most likely first), and the log probability it gives the token that came.
struct TopNRow {
    std::vector<std::pair<TokenId, double>> top;
    double logpToken = 0;
};

// A's whole distribution against B's top N. KL is taken over B's N tokens each alone and every other token as
// one (A's and B's remaining mass): a lower bound of the whole KL(A‖B), since merging outcomes never raises
// it, and exact when B's top N hold all of A's mass. The top-1 tokens and both log p are exact.
TokenDivergence compareWithTopN(const float* logitsA, int vocab, const TopNRow& b, TokenId next);

// The two models must read the same vocabulary: an error naming the first difference otherwise.
Status checkSameTokenizer(const Tokenizer& a, const Tokenizer& b);

// Every token of `ids` after the first scored by both models, in windows of the smaller context (consecutive
// windows overlap by one token, so each token is scored once). progress(done, total) after each window;
// false stops with an error.
Result<DivergenceResult> measureDivergence(Model& a, Model& b, std::vector<TokenId> ids,
                                           const std::function<bool(std::int64_t, std::int64_t)>& progress = {},
                                           const DivergenceOptions& options = {});

// measureDivergence against a model known by its top N (compareWithTopN): rowB(prefix, next) asks it about the
// position after `prefix` (the text's tokens A read in the same window), where `next` came.
// keepTop > 0: each position's PositionTop, A's `keepTop` most likely tokens and B's listed ones, B's probability
// 0 for a token outside its top N (unknown, below its N-th); no strategy cuts (B's whole row is not known).
using TopNSource = std::function<Result<TopNRow>(std::span<const TokenId> prefix, TokenId next)>;
Result<DivergenceResult>
measureDivergenceAgainstTopN(Model& a, std::vector<TokenId> ids, const TopNSource& rowB,
                             const std::function<bool(std::int64_t, std::int64_t)>& progress = {}, int keepTop = 0);

} // namespace swb::quantization
