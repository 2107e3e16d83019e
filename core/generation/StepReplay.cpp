#include "generation/StepReplay.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/Model.h"
#include "sampling/Candidates.h"
#include "sampling/SamplerChain.h"

namespace swb {

Result<RunLogits> RunLogits::compute(Model& model, std::span<const TokenId> promptIds, std::span<const TokenId> tokens,
                                     int steps) {
    if (promptIds.empty())
        return Error::badInput(QStringLiteral("the run has no prompt tokens to replay"));
    if (steps < 1 || static_cast<std::size_t>(steps) > tokens.size())
        return Error::badInput(QStringLiteral("step %1 is not a step of this run of %2 tokens").arg(steps).arg(tokens.size()));
    RunLogits result;
    result.m_vocab = model.info().vocabSize;
    result.m_steps = steps;
    std::unique_ptr<Model::State> state = model.newState();
    Result<std::vector<float>> first = model.forward(*state, promptIds);
    if (!first)
        return first.error();
    result.m_logits = std::move(first).value();
    if (steps > 1) {
        Result<std::vector<float>> rest = model.forward(*state, tokens.first(static_cast<std::size_t>(steps - 1)), true);
        if (!rest)
            return rest.error();
        result.m_logits.insert(result.m_logits.end(), rest->begin(), rest->end());
    }
    return result;
}

Result<RunLogits> RunLogits::fromTopCandidates(std::span<const StepTrace> traces, int steps) {
    if (steps < 1 || static_cast<std::size_t>(steps) > traces.size())
        return Error::badInput(QStringLiteral("step %1 is not a step of this run of %2 tokens").arg(steps).arg(traces.size()));
    TokenId largest = -1;
    for (int i = 0; i < steps; ++i) {
        const StepTrace& trace = traces[static_cast<std::size_t>(i)];
        largest = std::max(largest, trace.chosen);
        bool any = false;
        for (const TopCandidate& c : trace.top)
            if (c.id >= 0 && c.rawP > 0.0f) {
                largest = std::max(largest, c.id);
                any = true;
            }
        if (!any)
            return Error::badInput(QStringLiteral("step %1 came without the ids of its candidates (the engine gave "
                                                  "token texts only)").arg(i + 1));
    }
    RunLogits result;
    result.m_vocab = largest + 1;
    result.m_steps = steps;
    result.m_logits.assign(static_cast<std::size_t>(steps) * static_cast<std::size_t>(result.m_vocab),
                           -std::numeric_limits<float>::infinity());
    for (int i = 0; i < steps; ++i)
        for (const TopCandidate& c : traces[static_cast<std::size_t>(i)].top)
            if (c.id >= 0 && c.rawP > 0.0f)
                result.m_logits[static_cast<std::size_t>(i) * static_cast<std::size_t>(result.m_vocab) +
                                static_cast<std::size_t>(c.id)] = std::log(c.rawP);
    return result;
}

std::span<const float> RunLogits::step(int i) const {
    return std::span<const float>(m_logits).subspan(static_cast<std::size_t>(i) * static_cast<std::size_t>(m_vocab),
                                                    static_cast<std::size_t>(m_vocab));
}

Result<ReplayedStep> replayStep(const RunLogits& logits, std::span<const TokenId> promptIds,
                                std::span<const TokenId> tokens, int step, const Strategy& strategy,
                                std::uint64_t seed, const Tokenizer* tokenizer, int topN) {
    if (step < 0 || step >= logits.steps() || static_cast<std::size_t>(step) > tokens.size())
        return Error::badInput(QStringLiteral("step %1 has no recomputed logits").arg(step));
    Result<SamplerChain> chain = SamplerChain::build(strategy, tokenizer, strategy.seed.value_or(seed));
    if (!chain)
        return chain.error();
    chain->setTopN(topN);

    std::vector<TokenId> history(promptIds.begin(), promptIds.end());
    for (int i = 0; i < step; ++i) {
        Result<StepTrace> earlier = chain->sample(logits.step(i), history, TraceLevel::None);
        if (!earlier)
            return earlier.error();
        const TokenId actual = tokens[static_cast<std::size_t>(i)];
        chain->accept(actual);
        history.push_back(actual);
    }

    ReplayedStep replay;
    std::vector<std::vector<std::pair<TokenId, float>>> survivorsByStage;
    chain->setStageObserver([&survivorsByStage](std::size_t, const Candidates& survivors) {
        Candidates copy = survivors;
        copy.softmax();
        std::vector<std::pair<TokenId, float>> byId(copy.size());
        for (std::size_t i = 0; i < copy.size(); ++i)
            byId[i] = {copy.id(i), copy.prob(i)};
        std::sort(byId.begin(), byId.end());
        survivorsByStage.push_back(std::move(byId));
    });
    Result<StepTrace> trace = chain->sample(logits.step(step), history, TraceLevel::Full);
    if (!trace)
        return trace.error();
    replay.trace = std::move(trace).value();
    for (std::size_t s = 0; s < replay.trace.stages.size() && s < survivorsByStage.size(); ++s) {
        StageDistribution distribution{replay.trace.stages[s], {}};
        const auto& byId = survivorsByStage[s];
        distribution.probs.reserve(replay.trace.top.size());
        for (const TopCandidate& candidate : replay.trace.top) {
            const auto found = std::lower_bound(byId.begin(), byId.end(), std::pair<TokenId, float>{candidate.id, -1.0f});
            distribution.probs.push_back(found != byId.end() && found->first == candidate.id ? found->second : 0.0f);
        }
        replay.stages.push_back(std::move(distribution));
    }
    return replay;
}

} // namespace swb
