#include "sampling/SamplerChain.h"

#include <algorithm>
#include <cmath>

#include "sampling/SamplerRegistry.h"

namespace swb {

Result<SamplerChain> SamplerChain::build(const Strategy& strategy, const Tokenizer* tokenizer, std::uint64_t seed) {
    SamplerChain chain;
    for (const SamplerSpec& spec : strategy.samplers) {
        const SamplerDescriptor* descriptor = findSamplerDescriptor(spec.type);
        if (!descriptor)
            return Error::badInput(QStringLiteral("unknown sampler type '%1'").arg(spec.type));
        Result<std::unique_ptr<Sampler>> sampler = descriptor->make(spec.params, tokenizer);
        if (!sampler)
            return sampler.error();
        chain.m_samplers.push_back(std::move(sampler).value());
    }
    if (chain.m_samplers.empty() || !chain.m_samplers.back()->isSelector())
        return Error::badInput(QStringLiteral("a strategy must end with a selector (dist, greedy, mirostat)"));
    chain.m_rng.seedWith(strategy.seed.value_or(seed));
    return chain;
}

SamplerChain::SamplerChain(const SamplerChain& other)
    : m_rng(other.m_rng)
    , m_topN(other.m_topN)
    , m_observer(other.m_observer)
    , m_endTokens(other.m_endTokens) {
    for (const auto& sampler : other.m_samplers)
        m_samplers.push_back(sampler->clone());
}

SamplerChain& SamplerChain::operator=(const SamplerChain& other) {
    if (this != &other) {
        SamplerChain copy(other);
        *this = std::move(copy);
    }
    return *this;
}

void SamplerChain::accept(TokenId token) {
    for (const auto& sampler : m_samplers)
        sampler->accept(token);
}

void SamplerChain::reset(std::uint64_t seed) {
    m_rng.seedWith(seed);
    for (const auto& sampler : m_samplers)
        sampler->reset();
}

void SamplerChain::process(Candidates& candidates, std::span<const TokenId> history) {
    SamplingContext context{m_rng, history, false, m_endTokens};
    for (const auto& sampler : m_samplers) {
        if (sampler->isSelector())
            break;
        StageTrace stage{sampler->name()};
        sampler->apply(candidates, stage, context);
        if (!context.deadEnd.isEmpty())
            break;
    }
}

Result<StepTrace> SamplerChain::sample(std::span<const float> logits, std::span<const TokenId> history,
                                       TraceLevel level, Candidates* final) {
    if (logits.empty())
        return Error::badInput(QStringLiteral("the logits row is empty"));
    Candidates& candidates = m_work;
    candidates.assign(logits);
    StepTrace trace;
    SamplingContext context{m_rng, history, level == TraceLevel::Full, m_endTokens};
    m_deadEnd.clear();

    // The maximum is NaN if any logit is (one pass, whose group maxima top-k and the trace reuse).
    if (!std::isfinite(candidates.maxLogit()))
        return Error::badInput(QStringLiteral("the logits row holds NaN, +inf or no finite value"));
    double rawLogPartition = 0.0;
    if (level != TraceLevel::None) {
        trace.rawEntropy = candidates.observeSoftmax();
        rawLogPartition = candidates.logPartition();
    }
    if (level == TraceLevel::Full) {
        // Selected in place, not sorted to the front: the candidates stay in id order, which the
        // samplers' cuts keep and the draw then walks directly.
        const std::vector<std::size_t> largest = candidates.largest(static_cast<std::size_t>(m_topN));
        const std::size_t top = std::min(static_cast<std::size_t>(m_topN), largest.size());
        trace.top.reserve(top);
        for (std::size_t i = 0; i < top; ++i) {
            const std::size_t index = largest[i];
            trace.top.push_back({candidates.id(index), candidates.logit(index), candidates.prob(index), 0.0f});
        }
        trace.stages.reserve(m_samplers.size());
    }

    for (std::size_t i = 0; i < m_samplers.size(); ++i) {
        StageTrace stage{m_samplers[i]->name()};
        m_samplers[i]->apply(candidates, stage, context);
        if (!context.deadEnd.isEmpty()) {
            m_deadEnd = context.deadEnd;
            return Error::badInput(m_deadEnd);
        }
        stage.kept = static_cast<int>(candidates.size());
        if (level == TraceLevel::Full)
            trace.stages.push_back(std::move(stage));
        if (m_observer)
            m_observer(i, candidates);
    }
    if (candidates.selected < 0 || static_cast<std::size_t>(candidates.selected) >= candidates.size())
        return Error::internal(QStringLiteral("the selector %1 chose no token").arg(m_samplers.back()->name()));

    const auto chosenIndex = static_cast<std::size_t>(candidates.selected);
    trace.chosen = candidates.id(chosenIndex);
    trace.draw = candidates.draw;
    trace.finalCount = static_cast<int>(candidates.size());
    if (level != TraceLevel::None) {
        candidates.softmax();
        trace.finalP = candidates.prob(chosenIndex);
        trace.finalEntropy = candidates.entropy();
        const float chosenLogit = logits[static_cast<std::size_t>(trace.chosen)];
        trace.rawP = static_cast<float>(std::exp(static_cast<double>(chosenLogit) - rawLogPartition));
        // The rank comes from the raw top-N when the chosen token is among them (the top list is the
        // sorted prefix, closed under ties), else from a count over the row.
        const auto inTop = std::find_if(trace.top.begin(), trace.top.end(),
                                        [&](const TopCandidate& top) { return top.logit <= chosenLogit; });
        if (inTop != trace.top.end() && inTop->logit == chosenLogit)
            trace.rawRank = 1 + static_cast<int>(inTop - trace.top.begin());
        else
            trace.rawRank = 1 + static_cast<int>(kernels::countGreater(logits.data(), logits.size(), chosenLogit));
    }
    if (level == TraceLevel::Full) {
        // Final probability of each top-N raw candidate: binary searches while the survivors are in id
        // order, else one pass over them against a bit set of the top ids.
        const std::span<const TokenId> ids = candidates.ids();
        if (candidates.idOrdered()) {
            for (TopCandidate& top : trace.top) {
                const auto found = std::lower_bound(ids.begin(), ids.end(), top.id);
                if (found != ids.end() && *found == top.id)
                    top.finalP = candidates.prob(static_cast<std::size_t>(found - ids.begin()));
            }
        } else {
            thread_local std::vector<std::uint64_t> isTop; // all zero between uses
            isTop.resize(logits.size() / 64 + 1, 0);
            for (const TopCandidate& top : trace.top)
                isTop[static_cast<std::size_t>(top.id) / 64] |= std::uint64_t{1} << (top.id % 64);
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const auto id = static_cast<std::size_t>(ids[i]);
                if ((isTop[id / 64] >> (id % 64)) & 1)
                    std::find_if(trace.top.begin(), trace.top.end(), [&](const TopCandidate& top) {
                        return top.id == ids[i];
                    })->finalP = candidates.prob(i);
            }
            for (const TopCandidate& top : trace.top)
                isTop[static_cast<std::size_t>(top.id) / 64] = 0;
        }
    }
    if (final)
        *final = candidates;
    return trace;
}

} // namespace swb
