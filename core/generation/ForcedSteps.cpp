#include "generation/ForcedSteps.h"

#include <algorithm>
#include <cmath>

#include <QJsonArray>
#include <QJsonObject>

#include "generation/StepScorer.h"
#include "sampling/SamplerRegistry.h"

namespace swb {

Status checkDecoderChain(const Strategy& strategy, bool warpers, const QString& decoder) {
    static const QStringList processors = {QStringLiteral("logit_bias"),      QStringLiteral("banned_tokens"),
                                           QStringLiteral("banned_words"),    QStringLiteral("repetition_penalty"),
                                           QStringLiteral("penalties"),       QStringLiteral("no_repeat_ngram")};
    static const QStringList warperTypes = {QStringLiteral("temperature"), QStringLiteral("top_k"),
                                            QStringLiteral("top_p"),       QStringLiteral("min_p"),
                                            QStringLiteral("typical"),     QStringLiteral("epsilon"),
                                            QStringLiteral("eta")};
    for (const SamplerSpec& spec : strategy.samplers) {
        const SamplerDescriptor* descriptor = findSamplerDescriptor(spec.type);
        // The decoder picks the tokens itself: a plain final draw (greedy, dist) says nothing it would ignore,
        // a selector with a method of its own (mirostat, adaptive_p) would be dropped without a word.
        if (descriptor && descriptor->selector) {
            if (spec.type == QLatin1String("greedy") || spec.type == QLatin1String("dist"))
                continue;
            return Error::badInput(QStringLiteral("%1 picks its tokens itself and cannot use the selector '%2'; "
                                                  "end the chain with greedy or dist, or leave the selector out")
                                       .arg(decoder, spec.type));
        }
        if (processors.contains(spec.type) || (warpers && warperTypes.contains(spec.type)))
            continue;
        if (warpers)
            return Error::badInput(QStringLiteral("%1 applies logits processors (%2) and warpers (%3), not '%4'")
                                       .arg(decoder, processors.join(QStringLiteral(", ")),
                                            warperTypes.join(QStringLiteral(", ")), spec.type));
        return Error::badInput(QStringLiteral("%1 applies logits processors only (%2), not '%3'")
                                   .arg(decoder, processors.join(QStringLiteral(", ")), spec.type));
    }
    return {};
}

Result<ForcedTracer> ForcedTracer::create(const Strategy& strategy, const Tokenizer& tokenizer, int topN) {
    QJsonArray samplers;
    for (const SamplerSpec& spec : strategy.samplers) {
        const SamplerDescriptor* descriptor = findSamplerDescriptor(spec.type);
        if (descriptor && descriptor->selector)
            continue;
        QJsonObject sampler = spec.params;
        sampler.insert(QStringLiteral("type"), spec.type);
        samplers.append(sampler);
    }
    samplers.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("greedy")}});
    Result<Strategy> greedy = Strategy::fromJson(QJsonObject{{QStringLiteral("samplers"), samplers}});
    if (!greedy)
        return greedy.error();
    Result<SamplerChain> chain = SamplerChain::build(greedy.value(), &tokenizer, 0);
    if (!chain)
        return chain.error();
    chain->setTopN(topN);
    return ForcedTracer(std::move(chain).value());
}

Result<StepTrace> ForcedTracer::trace(std::span<const float> row, std::span<const TokenId> history, TokenId token,
                                      TraceLevel level) {
    Result<StepTrace> trace = m_chain.sample(row, history, level == TraceLevel::None ? TraceLevel::Scalars : level, &m_final);
    if (!trace)
        return trace.error();
    trace->chosen = token;
    trace->draw = NAN;
    if (!trace->stages.empty())
        trace->stages.pop_back(); // the greedy selector stands in for the decoder: not a stage of its own
    const double partition = logPartition(row);
    trace->rawP = static_cast<float>(std::exp(double(row[std::size_t(token)]) - partition));
    trace->rawRank = 1 + static_cast<int>(std::count_if(row.begin(), row.end(), [&](float x) { return x > row[std::size_t(token)]; }));
    trace->finalP = 0.0f;
    const auto ids = m_final.ids();
    const auto logits = m_final.logits();
    const double finalPartition = logPartition(logits);
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == token && std::isfinite(finalPartition))
            trace->finalP = static_cast<float>(std::exp(double(logits[i]) - finalPartition));
    m_chain.accept(token);
    return trace;
}

StepText::StepText(const Tokenizer& tokenizer, const std::vector<TokenId>& prompt, const std::vector<std::string>& stop,
                   const std::vector<TokenId>& stopTokens)
    : m_decoder(tokenizer), m_stopStrings(stop), m_stopTokens(stopTokens) {
    for (TokenId id : prompt)
        m_decoder.push(id);
}

bool StepText::add(GeneratedStep step, GenerationResult& result, const std::function<bool(const GeneratedStep&)>& onStep) {
    const bool stop = std::find(m_stopTokens.begin(), m_stopTokens.end(), step.token) != m_stopTokens.end();
    if (!stop)
        step.text = m_decoder.push(step.token);
    step.shown = m_stopStrings.push(step.text);
    result.text += step.shown;
    result.steps.push_back(std::move(step));
    if (onStep && !onStep(result.steps.back())) {
        result.finish = FinishReason::Cancelled;
        return false;
    }
    if (stop) {
        result.finish = FinishReason::Eos;
        return false;
    }
    if (m_stopStrings.stopped()) {
        result.finish = FinishReason::StopString;
        result.stopString = m_stopStrings.matched();
        return false;
    }
    return true;
}

void StepText::finish(GenerationResult& result) {
    result.text += m_stopStrings.push(m_decoder.flush());
    result.text += m_stopStrings.flush();
    if (m_stopStrings.stopped() && result.finish == FinishReason::MaxTokens) {
        result.finish = FinishReason::StopString;
        result.stopString = m_stopStrings.matched();
    }
}

} // namespace swb
