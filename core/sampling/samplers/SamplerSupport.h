#pragma once

// Small pieces shared by the sampler implementations.

#include <cmath>
#include <limits>

#include <QJsonObject>

#include "sampling/SamplerRegistry.h"

namespace swb::support {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline ParamSpec real(const char* name, double min, double max, double fallback, const QString& doc,
                      bool minExclusive = false) {
    return {QLatin1String(name), ParamSpec::Kind::Real, min, max, minExclusive, QJsonValue(fallback), doc};
}

inline ParamSpec integer(const char* name, double min, double max, double fallback, const QString& doc) {
    return {QLatin1String(name), ParamSpec::Kind::Integer, min, max, false, QJsonValue(fallback), doc};
}

inline ParamSpec minKeep() {
    return integer("min_keep", 1, 1e9, 1, QStringLiteral("Never keep fewer than this many tokens."));
}

inline double number(const QJsonObject& params, const char* name) {
    return params.value(QLatin1String(name)).toDouble();
}

inline std::size_t count(const QJsonObject& params, const char* name) {
    return static_cast<std::size_t>(params.value(QLatin1String(name)).toDouble());
}

// Factory for samplers whose constructor takes the validated params.
template <typename T> auto makeFrom() {
    return [](const QJsonObject& params, const Tokenizer*) -> Result<std::unique_ptr<Sampler>> {
        return std::unique_ptr<Sampler>(std::make_unique<T>(params));
    };
}

// Applies a cut whose kept set is monotone in probability (p >= some threshold), keeping at least
// the top minKeep tokens by logit: the union is then just the top max(kept, minKeep).
inline void cutMonotone(Candidates& candidates, std::vector<std::uint8_t>& keep, std::size_t kept, std::size_t minKeep) {
    if (kept >= minKeep) {
        candidates.keepWhere(keep);
        return;
    }
    candidates.sortTop(minKeep);
    candidates.keepFirst(std::min(minKeep, candidates.size()));
}

// Removes tokens with p < threshold (probabilities must be valid), keeping the top minKeep; records the
// stage's threshold and kept mass. Shared by min_p, epsilon and eta.
inline void cutBelow(Candidates& candidates, StageTrace& stage, float threshold, std::size_t minKeep) {
    const std::span<const float> probs = candidates.probs();
    std::vector<std::uint8_t> keep(probs.size());
    std::size_t kept = 0;
    double mass = 0.0;
    for (std::size_t i = 0; i < probs.size(); ++i) {
        keep[i] = probs[i] >= threshold;
        if (keep[i]) {
            ++kept;
            mass += probs[i];
        }
    }
    stage.threshold = threshold;
    support::cutMonotone(candidates, keep, kept, minKeep);
    stage.keptMass = kept >= minKeep ? mass : candidates.massOfFirst(candidates.size());
}

} // namespace swb::support
