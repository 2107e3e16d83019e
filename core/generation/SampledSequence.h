#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "Result.h"
#include "generation/ForcedSteps.h"
#include "generation/Generator.h"
#include "generation/StepScorer.h"

namespace swb {

// A request's sampler chain: built against the tokenizer, seeded with the strategy's seed or the request's,
// tracing the request's top N. One sentence when the strategy cannot be built.
Result<SamplerChain> requestChain(const GenerationRequest& request, const Tokenizer& tokenizer);

// One sampled sequence as it decodes: the one per-token loop of Generator::generate, Generator::generateBatch
// and the server's continuous batching. The caller runs the model: it hands step() the logits of the last
// token read and, while the sequence goes on, reads next(). A step samples (after a step scorer's rewrite of
// the logits: contrastive decoding, guidance), accepts the token, adds its text (stop tokens, stop strings)
// and ends the sequence, in this order, on cancel, on onStep returning false, at an end token, at a stop
// string, at max tokens and when the context is full.
class SampledSequence {
public:
    using Clock = std::chrono::steady_clock;

    // The sequence of `request` from its checked prompt (Generator::promptTokens) with its chain
    // (requestChain). scorer: null for plain sampling; started here on the prompt. stopTokens must outlive
    // the sequence; context is the model's (0: unbounded).
    static Result<SampledSequence> start(const GenerationRequest& request, std::vector<TokenId> prompt,
                                         SamplerChain chain, const Tokenizer& tokenizer,
                                         const std::vector<TokenId>& stopTokens, int context,
                                         std::unique_ptr<StepScorer> scorer = nullptr);

    // One token from the logits of the last token read (which a scorer rewrites in place): whether the
    // sequence goes on (then next() is the token to read), or why it failed. onStep as in Generator.
    Result<bool> step(std::vector<float>& logits, const std::function<bool(const GeneratedStep&)>& onStep = {},
                      const std::atomic<bool>* cancel = nullptr);
    TokenId next() const { return m_history.back(); }
    bool done() const { return m_done; }
    // Tokens produced so far (the index of the one onStep is given is produced() - 1).
    int produced() const { return static_cast<int>(m_result.steps.size()); }
    // Ends the sequence before its next step (finish reason Cancelled).
    void cancel();
    // The run, once done: held text released, its timings counted from `started`.
    GenerationResult finish(Clock::time_point started);

private:
    SampledSequence(const GenerationRequest& request, std::vector<TokenId> prompt, SamplerChain chain,
                    const Tokenizer& tokenizer, const std::vector<TokenId>& stopTokens, int context,
                    std::unique_ptr<StepScorer> scorer);

    SamplerChain m_chain;
    StepText m_text;
    std::unique_ptr<StepScorer> m_scorer;
    std::vector<TokenId> m_history; // the prompt, then every token drawn
    GenerationResult m_result;
    QString m_decoderType; // for the scorer's overflow sentence
    TraceLevel m_traceLevel;
    int m_maxTokens;
    int m_context;
    Clock::time_point m_firstToken;
    bool m_done = false;
};

} // namespace swb
