#include <algorithm>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// text-generation-webui's TopALogitsWarper (modules/sampler_hijack.py): removes tokens whose probability
// is below a times the square of the top probability (p < a * p_max^2; one at the threshold stays); the
// top min_keep survive. threshold: a * p_max^2.
class TopASampler final : public ClonableSampler<TopASampler> {
public:
    explicit TopASampler(const QJsonObject& params)
        : m_a(support::number(params, "a"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("top_a"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        candidates.softmax();
        float top = 0.0f;
        for (float p : candidates.probs())
            top = std::max(top, p);
        support::cutBelow(candidates, stage, static_cast<float>(m_a) * top * top, m_minKeep);
    }

private:
    double m_a;
    std::size_t m_minKeep;
};

// text-generation-webui's TailFreeLogitsWarper (tail-free sampling): over the probabilities sorted
// descending, the absolute second differences |p[i] - 2 p[i+1] + p[i+2]|, normalised to sum 1 and
// accumulated; sorted position i + 1 is removed when the sum up to i exceeds z, the top token always
// stays and the last one always goes (as webui's code does it: its mask is [False] + (cdf > z) + [True]);
// the top min_keep survive. z = 1 is off (webui applies it only for z < 1). threshold: z.
class TfsSampler final : public ClonableSampler<TfsSampler> {
public:
    explicit TfsSampler(const QJsonObject& params)
        : m_z(support::number(params, "z"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("tfs"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        stage.threshold = m_z;
        const std::size_t n = candidates.size();
        if (m_z >= 1.0 || n < 2)
            return;
        candidates.sortAll();
        candidates.softmax();
        std::vector<float> d2(n - 2);
        float sum = 0.0f;
        for (std::size_t i = 0; i + 2 < n; ++i) {
            const float first = candidates.prob(i + 1) - candidates.prob(i);
            const float second = candidates.prob(i + 2) - candidates.prob(i + 1);
            d2[i] = std::abs(second - first);
            sum += d2[i];
        }
        // Kept: position 0, and position i + 1 while the cumulative share up to i is at most z (a zero sum
        // makes every share NaN, and NaN > z is false: all but the last stay).
        std::size_t keep = 1;
        float cumulative = 0.0f;
        for (std::size_t i = 0; i + 2 < n; ++i) {
            cumulative += d2[i] / sum;
            if (cumulative > static_cast<float>(m_z))
                break;
            keep = i + 2;
        }
        keep = std::max(keep, std::min(m_minKeep, n));
        stage.keptMass = candidates.massOfFirst(keep);
        candidates.keepFirst(keep);
    }

private:
    double m_z;
    std::size_t m_minKeep;
};

// text-generation-webui's QuadraticSamplingLogitsWarper (quadratic / smooth sampling): with m the largest
// logit and d = logit - m (<= 0), each logit becomes m - factor k d^2 + factor s d^3, k = (3 - curve) / 2,
// s = (curve - 1) / 2: curve 1 is the plain quadratic, larger curves bend the tail down faster. factor 0
// is off. threshold: factor.
class SmoothingSampler final : public ClonableSampler<SmoothingSampler> {
public:
    explicit SmoothingSampler(const QJsonObject& params)
        : m_factor(support::number(params, "factor"))
        , m_curve(support::number(params, "curve")) {}
    QString name() const override { return QStringLiteral("smoothing"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        stage.threshold = m_factor;
        if (m_factor <= 0.0)
            return;
        const float top = candidates.maxLogit();
        const float factor = static_cast<float>(m_factor);
        const float k = static_cast<float>((3.0 - m_curve) / 2.0);
        const float s = static_cast<float>((m_curve - 1.0) / 2.0);
        for (float& logit : candidates.mutableLogits()) {
            const float d = logit - top;
            logit = -(k * factor * d * d) + (s * factor * d * d * d) + top;
        }
        // For curves in [1, 3] the map falls as d falls: the order stays.
        candidates.logitsChanged(m_curve >= 1.0 && m_curve <= 3.0);
    }

private:
    double m_factor;
    double m_curve;
};

} // namespace

SamplerDescriptor topADescriptor() {
    return {QStringLiteral("top_a"),
            QStringLiteral("text-generation-webui"),
            QStringLiteral("Removes tokens less likely than a times the square of the top probability."),
            {support::real("a", 0, 1, 0.2, QStringLiteral("Multiplier of the squared top probability.")), support::minKeep()},
            false,
            support::makeFrom<TopASampler>()};
}

SamplerDescriptor tfsDescriptor() {
    return {QStringLiteral("tfs"),
            QStringLiteral("text-generation-webui"),
            QStringLiteral("Tail-free sampling: cuts where the sorted probabilities' curvature has added up to z."),
            {support::real("z", 0, 1, 0.95, QStringLiteral("Share of the total curvature kept; 1 is off.")), support::minKeep()},
            false,
            support::makeFrom<TfsSampler>()};
}

SamplerDescriptor smoothingDescriptor() {
    return {QStringLiteral("smoothing"),
            QStringLiteral("text-generation-webui"),
            QStringLiteral("Quadratic sampling: bends the logits below the top one down by factor times their "
                           "squared (and, with curve, cubed) distance from it."),
            {support::real("factor", 0, 100, 0.3, QStringLiteral("Smoothing factor; 0 is off.")),
             support::real("curve", 0, 10, 1.0, QStringLiteral("Smoothing curve; 1 is the plain quadratic."))},
            false,
            support::makeFrom<SmoothingSampler>()};
}

} // namespace swb
