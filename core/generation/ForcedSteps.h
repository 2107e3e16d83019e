#pragma once

#include <optional>
#include <span>
#include <vector>

#include "Result.h"
#include "chat/StopStrings.h"
#include "generation/Generator.h"

namespace swb {

// Whether a strategy's chain suits a decoder that uses it as transformers' logits processors (logit_bias,
// banned_tokens, banned_words, repetition_penalty, penalties, no_repeat_ngram; the selector unused) and,
// with warpers, also as its warpers (temperature, top_k, top_p, min_p, typical, epsilon, eta): a stage of
// another kind would change what the decoder means, so it is refused in one sentence naming it.
Status checkDecoderChain(const Strategy& strategy, bool warpers, const QString& decoder);

// Traces tokens that a decoder chose rather than the chain's selector (beam search, contrastive search):
// the strategy's stages before its selector, then a greedy selector, with the decoder's token forced as the
// chosen one (its raw and final probability and raw rank as for any step; no draw).
class ForcedTracer {
public:
    static Result<ForcedTracer> create(const Strategy& strategy, const Tokenizer& tokenizer, int topN);
    Result<StepTrace> trace(std::span<const float> row, std::span<const TokenId> history, TokenId token, TraceLevel level);

private:
    explicit ForcedTracer(SamplerChain chain) : m_chain(std::move(chain)) {}
    SamplerChain m_chain;
    Candidates m_final;
};

// The text side of a run whose tokens come one by one: decoding in context after the prompt, stop tokens,
// stop strings, the result's text and finish reason, as Generator::generate does.
class StepText {
public:
    StepText(const Tokenizer& tokenizer, const std::vector<TokenId>& prompt, const std::vector<std::string>& stop,
             const std::vector<TokenId>& stopTokens);
    // Fills step.text and step.shown, appends the step to result and hands it to onStep; false when the run
    // ends with it (a stop token, a stop string, or onStep returning false: result.finish says which).
    bool add(GeneratedStep step, GenerationResult& result, const std::function<bool(const GeneratedStep&)>& onStep = {});
    // Releases held text at the end of the run.
    void finish(GenerationResult& result);

private:
    StreamingDecoder m_decoder;
    StopStrings m_stopStrings;
    const std::vector<TokenId>& m_stopTokens;
};

} // namespace swb
