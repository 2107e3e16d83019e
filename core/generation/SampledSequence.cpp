#include "generation/SampledSequence.h"

#include <algorithm>
#include <cmath>

namespace swb {

Result<SamplerChain> requestChain(const GenerationRequest& request, const Tokenizer& tokenizer) {
    Result<SamplerChain> chain =
        SamplerChain::build(request.strategy, &tokenizer, request.strategy.seed.value_or(request.seed));
    if (chain)
        chain->setTopN(request.topN);
    return chain;
}

SampledSequence::SampledSequence(const GenerationRequest& request, std::vector<TokenId> prompt, SamplerChain chain,
                                 const Tokenizer& tokenizer, const std::vector<TokenId>& stopTokens, int context,
                                 std::unique_ptr<StepScorer> scorer)
    : m_chain(std::move(chain))
    , m_text(tokenizer, prompt, request.strategy.stop, stopTokens)
    , m_scorer(std::move(scorer))
    , m_history(prompt)
    , m_decoderType(request.strategy.decoder.type)
    , m_traceLevel(request.traceLevel)
    , m_maxTokens(request.maxTokens)
    , m_context(context) {
    m_result.promptIds = std::move(prompt);
    m_result.seed = request.strategy.seed.value_or(request.seed);
    m_result.finish = FinishReason::MaxTokens;
    m_done = m_maxTokens < 1;
    m_chain.setEndTokens(stopTokens);
}

Result<SampledSequence> SampledSequence::start(const GenerationRequest& request, std::vector<TokenId> prompt,
                                               SamplerChain chain, const Tokenizer& tokenizer,
                                               const std::vector<TokenId>& stopTokens, int context,
                                               std::unique_ptr<StepScorer> scorer) {
    if (scorer)
        if (Status s = scorer->start(prompt); !s)
            return s.error();
    return SampledSequence(request, std::move(prompt), std::move(chain), tokenizer, stopTokens, context,
                           std::move(scorer));
}

void SampledSequence::cancel() {
    if (m_done)
        return;
    m_result.finish = FinishReason::Cancelled;
    m_done = true;
}

Result<bool> SampledSequence::step(std::vector<float>& logits, const std::function<bool(const GeneratedStep&)>& onStep,
                                   const std::atomic<bool>* cancel) {
    if (cancel && cancel->load())
        this->cancel();
    if (m_done)
        return false;
    const auto fail = [this](Error error) -> Result<bool> {
        m_done = true;
        return error;
    };
    GeneratedStep generated;
    if (m_scorer) {
        const auto overflowed = [&] {
            return std::any_of(logits.begin(), logits.end(), [](float x) { return std::isnan(x) || x == INFINITY; });
        };
        const bool modelOverflowed = overflowed(); // then the chain names the logits row, as without a decoder
        if (Status s = m_scorer->score(logits, m_traceLevel == TraceLevel::Full ? &generated.decoder : nullptr); !s)
            return fail(s.error());
        if (!modelOverflowed && overflowed()) // the decoder's own arithmetic
            return fail(
                Error::badInput(QStringLiteral("decoder '%1' overflowed at step %2: its scores hold NaN or +inf "
                                               "(its parameters are too large for float arithmetic)")
                                    .arg(m_decoderType)
                                    .arg(m_result.steps.size() + 1)));
    }
    Result<StepTrace> trace = m_chain.sample(logits, m_history, m_traceLevel);
    if (!trace && !m_chain.deadEnd().isEmpty()) {
        m_result.finish = FinishReason::GrammarDeadEnd;
        m_result.finishDetail = QStringLiteral("%1 (step %2)").arg(m_chain.deadEnd()).arg(m_result.steps.size() + 1);
        m_done = true;
        return false;
    }
    if (!trace)
        return fail(trace.error());
    generated.token = trace->chosen;
    generated.trace = std::move(trace).value();
    const TokenId token = generated.token;
    m_chain.accept(token);
    m_history.push_back(token);
    if (m_result.steps.empty())
        m_firstToken = Clock::now();
    if (!m_text.add(std::move(generated), m_result, onStep) || produced() >= m_maxTokens) {
        m_done = true;
        return false;
    }
    // Decoding the new token needs one more cache position.
    if (contextFull(m_history.size(), m_context)) {
        m_result.finish = FinishReason::ContextLimit;
        m_done = true;
        return false;
    }
    if (m_scorer)
        if (Status s = m_scorer->advance(token); !s)
            return fail(s.error());
    return true;
}

GenerationResult SampledSequence::finish(Clock::time_point started) {
    m_text.finish(m_result);
    setTimings(m_result, started, m_firstToken, Clock::now(), m_result.steps.size());
    return std::move(m_result);
}

} // namespace swb
