#pragma once

#include <memory>
#include <span>

#include <QString>

#include "Rng.h"
#include "sampling/Candidates.h"
#include "sampling/StepTrace.h"

namespace swb {

// What a sampler may consult besides the candidates: the chain's seeded RNG and the token history
// (prompt and generated tokens so far, oldest first) that penalties and n-gram samplers look at.
struct SamplingContext {
    Pcg64& rng;
    std::span<const TokenId> history;
    bool tracing = false; // samplers may compute extra figures (kept mass) for the trace
    // The tokens that end the run (the model's EOS and end-of-turn ids) where the chain knows them.
    std::span<const TokenId> endTokens = {};
    // Set by a stage that finds no token can continue (a grammar's dead end): the chain stops there and
    // sample() fails with this sentence.
    QString deadEnd = {};
};

// One stage of a sampler chain, in the spirit of llama.cpp's llama_sampler_i. apply() cuts or
// reshapes the candidates and fills in its StageTrace (kept is set by the chain); a selector also
// sets Candidates' selected index. Stateful samplers update in accept() and clear in reset().
class Sampler {
public:
    virtual ~Sampler() = default;

    virtual QString name() const = 0;
    virtual void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) = 0;
    virtual void accept(TokenId) {}
    virtual void reset() {}
    virtual std::unique_ptr<Sampler> clone() const = 0;
    // Selectors come last in a chain and choose the token.
    virtual bool isSelector() const { return false; }
};

// Helper for the common clone(): copy-construct the concrete sampler.
template <typename Derived> class ClonableSampler : public Sampler {
public:
    std::unique_ptr<Sampler> clone() const override {
        return std::make_unique<Derived>(static_cast<const Derived&>(*this));
    }
};

} // namespace swb
