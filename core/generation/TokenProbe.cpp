#include "generation/TokenProbe.h"

#include <algorithm>
#include <cmath>

#include "sampling/Candidates.h"
#include "sampling/SamplerChain.h"

namespace swb {

Result<TokenProbe> probeToken(const RunLogits& logits, std::span<const TokenId> promptIds,
                              std::span<const TokenId> tokens, const Strategy& strategy, std::uint64_t seed,
                              TokenId token, const Tokenizer* tokenizer) {
    if (token < 0 || token >= logits.vocabSize())
        return Error::badInput(QStringLiteral("token %1 is outside the vocabulary (0 to %2)").arg(token).arg(logits.vocabSize() - 1));
    Result<SamplerChain> chain = SamplerChain::build(strategy, tokenizer, strategy.seed.value_or(seed));
    if (!chain)
        return chain.error();
    TokenProbe probe;
    probe.token = token;
    for (std::size_t i = 0; i < chain->size(); ++i)
        probe.stages << chain->sampler(i).name();
    const bool greedy = chain->size() > 0 && chain->sampler(chain->size() - 1).name() == QLatin1String("greedy");

    TokenProbeStep current;
    const auto contains = [token](const Candidates& candidates) {
        const std::span<const TokenId> ids = candidates.ids();
        return std::find(ids.begin(), ids.end(), token) != ids.end();
    };
    chain->setStageObserver([&](std::size_t stage, const Candidates& survivors) {
        if (current.cutBy < 0 && !contains(survivors))
            current.cutBy = static_cast<int>(stage);
    });
    std::vector<TokenId> history(promptIds.begin(), promptIds.end());
    const int steps = std::min(logits.steps(), static_cast<int>(tokens.size()));
    Candidates final;
    for (int i = 0; i < steps; ++i) {
        const std::span<const float> row = logits.step(i);
        current = {};
        // Raw probability and rank, in double over the whole row.
        const float logit = row[static_cast<std::size_t>(token)];
        double maxLogit = -INFINITY;
        for (float x : row)
            maxLogit = std::max(maxLogit, static_cast<double>(x));
        double sum = 0.0;
        int above = 0;
        for (float x : row) {
            sum += std::exp(static_cast<double>(x) - maxLogit);
            above += x > logit ? 1 : 0;
        }
        current.rawP = static_cast<float>(std::exp(static_cast<double>(logit) - maxLogit) / sum);
        current.rawRank = 1 + above;
        Result<StepTrace> trace = chain->sample(row, history, TraceLevel::None, &final);
        if (!trace)
            return trace.error();
        // Greedy keeps every candidate and takes the top one: any other token is cut by it, not "survived".
        if (current.cutBy < 0 && greedy) {
            current.cutBy = trace->chosen == token ? -1 : static_cast<int>(chain->size() - 1);
            current.finalP = trace->chosen == token ? 1.0f : 0.0f;
        } else if (current.cutBy < 0) {
            final.softmax(); // renormalised over the selector's candidates (no-op when already so)
            for (std::size_t c = 0; c < final.size(); ++c)
                if (final.id(c) == token)
                    current.finalP = final.prob(c);
        }
        const TokenId actual = tokens[static_cast<std::size_t>(i)];
        current.drawn = actual == token;
        chain->accept(actual);
        history.push_back(actual);
        probe.steps.push_back(current);
    }
    return probe;
}

} // namespace swb
