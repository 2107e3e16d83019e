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
    , m_observer(other.m_observer) {
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

namespace {

[[gnu::target_clones("avx2", "default")]] int countGreater(const float* x, std::size_t n, float value) {
    int count = 0;
    for (std::size_t i = 0; i < n; ++i)
        count += x[i] > value ? 1 : 0;
    return count;
}

} // namespace

Result<StepTrace> SamplerChain::sample(std::span<const float> logits, std::span<const TokenId> history,
                                       TraceLevel level, Candidates* final) {
    if (logits.empty())
        return Error::badInput(QStringLiteral("the logits row is empty"));
    Candidates& candidates = m_work;
    candidates.assign(logits);
    StepTrace trace;
    SamplingContext context{m_rng, history, level == TraceLevel::Full};

    double rawLogPartition = 0.0;
    if (level != TraceLevel::None) {
        candidates.softmax();
        rawLogPartition = candidates.logPartition();
        if (!std::isfinite(rawLogPartition))
            return Error::badInput(QStringLiteral("the logits row holds NaN or no finite value"));
        trace.rawEntropy = candidates.entropy();
    }
    if (level == TraceLevel::Full) {
        candidates.sortTop(static_cast<std::size_t>(m_topN));
        const std::size_t top = std::min(static_cast<std::size_t>(m_topN), candidates.size());
        trace.top.reserve(top);
        for (std::size_t i = 0; i < top; ++i)
            trace.top.push_back({candidates.id(i), candidates.logit(i), candidates.prob(i), 0.0f});
        trace.stages.reserve(m_samplers.size());
    }

    for (std::size_t i = 0; i < m_samplers.size(); ++i) {
        StageTrace stage{m_samplers[i]->name()};
        m_samplers[i]->apply(candidates, stage, context);
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
        trace.rawRank = 1 + countGreater(logits.data(), logits.size(), chosenLogit);
    }
    if (level == TraceLevel::Full) {
        // Final probability of each top-N raw candidate: a sorted lookup for small survivor sets, a
        // dense by-id table for large ones (no sort of a large set).
        if (candidates.size() <= 4096) {
            std::vector<std::pair<TokenId, float>> byId(candidates.size());
            for (std::size_t i = 0; i < candidates.size(); ++i)
                byId[i] = {candidates.id(i), candidates.prob(i)};
            std::sort(byId.begin(), byId.end());
            for (TopCandidate& top : trace.top) {
                const auto found = std::lower_bound(byId.begin(), byId.end(), std::pair<TokenId, float>{top.id, -1.0f});
                top.finalP = found != byId.end() && found->first == top.id ? found->second : 0.0f;
            }
        } else {
            thread_local std::vector<float> byId; // all zero between uses
            byId.resize(logits.size(), 0.0f);
            for (std::size_t i = 0; i < candidates.size(); ++i)
                byId[static_cast<std::size_t>(candidates.id(i))] = candidates.prob(i);
            for (TopCandidate& top : trace.top)
                top.finalP = byId[static_cast<std::size_t>(top.id)];
            for (std::size_t i = 0; i < candidates.size(); ++i)
                byId[static_cast<std::size_t>(candidates.id(i))] = 0.0f;
        }
    }
    if (final)
        *final = candidates;
    return trace;
}

} // namespace swb
