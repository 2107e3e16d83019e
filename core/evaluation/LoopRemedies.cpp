#include "evaluation/LoopRemedies.h"

#include <algorithm>

#include <QJsonObject>

namespace swb {

namespace {

const SamplerSpec* findSampler(const Strategy& strategy, const QString& type) {
    for (const SamplerSpec& sampler : strategy.samplers)
        if (sampler.type == type)
            return &sampler;
    return nullptr;
}

} // namespace

std::vector<LoopRemedy> loopRemedies(const Strategy& strategy, const stats::RepetitionLoop& loop) {
    std::vector<LoopRemedy> remedies;
    const auto stepAt = [&](int offset) { return std::clamp(loop.start + loop.period + offset, loop.start, loop.end - 1); };
    const auto add = [&](LoopRemedy::Kind kind, double value, Result<Strategy> changed, int step) {
        if (changed)
            remedies.push_back({kind, value, std::move(changed).value(), step});
    };

    const SamplerSpec* penalty = findSampler(strategy, QStringLiteral("repetition_penalty"));
    const double penaltyValue =
        penalty ? std::max(1.3, penalty->params.value(QStringLiteral("penalty")).toDouble() + 0.2) : 1.3;
    add(LoopRemedy::Kind::RepetitionPenalty, penaltyValue,
        withSamplerParams(strategy, QStringLiteral("repetition_penalty"), {{QStringLiteral("penalty"), penaltyValue}}),
        stepAt(0));

    const SamplerSpec* dry = findSampler(strategy, QStringLiteral("dry"));
    const double multiplier = dry ? std::max(0.8, 2 * dry->params.value(QStringLiteral("multiplier")).toDouble()) : 0.8;
    Result<Strategy> withDry =
        withSamplerParams(strategy, QStringLiteral("dry"), {{QStringLiteral("multiplier"), multiplier}});
    const int allowed =
        withDry ? findSampler(withDry.value(), QStringLiteral("dry"))->params.value(QStringLiteral("allowed_length")).toInt()
                : 0;
    add(LoopRemedy::Kind::Dry, multiplier, std::move(withDry), stepAt(allowed));

    if (!findSampler(strategy, QStringLiteral("no_repeat_ngram")))
        add(LoopRemedy::Kind::NoRepeatNgram, 3,
            withSamplerParams(strategy, QStringLiteral("no_repeat_ngram"), {{QStringLiteral("n"), 3}}), stepAt(2));

    const bool greedy = !strategy.samplers.empty() && strategy.samplers.back().type == QLatin1String("greedy");
    if (greedy) {
        Strategy sampled = strategy;
        sampled.samplers.pop_back(); // dist is appended again when the chain ends without a selector
        Result<Strategy> changed = Strategy::fromJson(sampled.toJson());
        if (changed)
            changed = withSamplerParams(changed.value(), QStringLiteral("temperature"), {{QStringLiteral("value"), 0.8}});
        add(LoopRemedy::Kind::SampleInsteadOfGreedy, 0.8, std::move(changed), stepAt(0));
    } else {
        const SamplerSpec* temperature = findSampler(strategy, QStringLiteral("temperature"));
        const double value = temperature ? temperature->params.value(QStringLiteral("value")).toDouble() + 0.3 : 1.3;
        add(LoopRemedy::Kind::Temperature, value,
            withSamplerParams(strategy, QStringLiteral("temperature"), {{QStringLiteral("value"), value}}), stepAt(0));
    }
    return remedies;
}

} // namespace swb
