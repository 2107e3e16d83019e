#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "Result.h"
#include "Rng.h"
#include "sampling/Candidates.h"
#include "sampling/Sampler.h"
#include "sampling/StepTrace.h"
#include "sampling/Strategy.h"

namespace swb {

class Tokenizer;

// How much of a StepTrace to compute. None: just the token (what a plain engine does). Scalars: also
// raw/final probability, rank and entropy (what every stored step keeps). Full: also every stage's
// survivors and the top-N raw candidates with their final probabilities.
enum class TraceLevel { None, Scalars, Full };

// A strategy made runnable: its samplers in order, ending with a selector, and the seeded RNG.
// The chain is itself a sampler in spirit (apply/accept/reset/clone) but returns a whole StepTrace.
class SamplerChain {
public:
    // tokenizer: needed only by samplers that take text (banned_words, dry breakers given as text).
    static Result<SamplerChain> build(const Strategy& strategy, const Tokenizer* tokenizer = nullptr,
                                      std::uint64_t seed = 0);

    SamplerChain(const SamplerChain& other);
    SamplerChain& operator=(const SamplerChain& other);
    SamplerChain(SamplerChain&&) noexcept = default;
    SamplerChain& operator=(SamplerChain&&) noexcept = default;

    // Runs the chain on one logits row. history: prompt and generated tokens so far. final, when
    // given, receives the candidates the selector chose from (probabilities renormalised).
    // Fails on a row with NaN or no finite logit.
    Result<StepTrace> sample(std::span<const float> logits, std::span<const TokenId> history,
                             TraceLevel level = TraceLevel::Full, Candidates* final = nullptr);
    void accept(TokenId token);
    // Applies the chain's stages before its selector to candidates, untraced: the chain as logits
    // processors (beam search runs them on each beam's log-probabilities).
    void process(Candidates& candidates, std::span<const TokenId> history);
    void reset(std::uint64_t seed);

    Pcg64& rng() { return m_rng; }
    std::size_t size() const { return m_samplers.size(); }
    const Sampler& sampler(std::size_t i) const { return *m_samplers[i]; }
    void setTopN(int n) { m_topN = n; }
    // Called after each stage of sample() with the stage's index and its survivors (for inspecting a
    // step stage by stage; costs nothing when unset).
    using StageObserver = std::function<void(std::size_t stage, const Candidates& survivors)>;
    void setStageObserver(StageObserver observer) { m_observer = std::move(observer); }
    int topN() const { return m_topN; }
    // The tokens that end a run (the model's EOS and end-of-turn ids): a grammar stage allows them where
    // its text is complete. Unset, a stage falls back on the tokenizer's EOS and end-of-turn ids.
    void setEndTokens(std::vector<TokenId> tokens) { m_endTokens = std::move(tokens); }
    // Non-empty when the last sample() failed because a stage found that no token can continue (a grammar
    // in a dead end): the sentence saying so. A run then ends with finish reason grammar_dead_end.
    const QString& deadEnd() const { return m_deadEnd; }

private:
    SamplerChain() = default;

    std::vector<std::unique_ptr<Sampler>> m_samplers;
    Candidates m_work; // reused between steps
    Pcg64 m_rng;
    int m_topN = 64;
    StageObserver m_observer;
    std::vector<TokenId> m_endTokens;
    QString m_deadEnd;
};

} // namespace swb
