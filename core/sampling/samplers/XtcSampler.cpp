#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// llama.cpp XTC ("exclude top choices"): with chance `probability` (one RNG draw per step, taken only
// when the sampler can act), removes every token at least `threshold` likely except the least likely
// of them, unless fewer than min_keep would remain. No-op when threshold > 0.5. The draw comes
// from the chain's seeded generator, not llama.cpp's. threshold: the threshold when it fired, else NaN.
class XtcSampler final : public ClonableSampler<XtcSampler> {
public:
    explicit XtcSampler(const QJsonObject& params)
        : m_threshold(support::number(params, "threshold"))
        , m_probability(support::number(params, "probability"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("xtc"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        if (m_probability <= 0.0 || m_threshold > 0.5 || candidates.size() < 2)
            return;
        if (context.rng.uniform() > m_probability)
            return;
        candidates.softmax();
        // Tokens at or above the threshold form a prefix of the descending order.
        std::size_t window = 16;
        std::size_t above = 0;
        for (;;) {
            candidates.sortTop(window);
            const std::size_t sorted = candidates.sortedCount();
            while (above < sorted && candidates.prob(above) >= m_threshold)
                ++above;
            if (above < sorted || sorted == candidates.size())
                break;
            window *= 8;
        }
        if (above < 2)
            return; // pos_last = above - 1 must be > 0
        const std::size_t removed = above - 1;
        if (candidates.size() - removed < m_minKeep)
            return;
        stage.threshold = m_threshold;
        stage.keptMass = 1.0 - candidates.massOfFirst(removed) / candidates.totalProb();
        std::vector<std::uint8_t> keep(candidates.size(), 1);
        std::fill(keep.begin(), keep.begin() + static_cast<std::ptrdiff_t>(removed), 0);
        candidates.keepWhere(keep);
    }

private:
    double m_threshold;
    double m_probability;
    std::size_t m_minKeep;
};

} // namespace

SamplerDescriptor xtcDescriptor() {
    return {
        QStringLiteral("xtc"),
        QStringLiteral("llama.cpp"),
        QStringLiteral("Exclude top choices: sometimes removes all likely tokens but the least likely of them."),
        {support::real("threshold", 0, 1, 0.1, QStringLiteral("Probability a token needs to count as a top choice.")),
         support::real("probability", 0, 1, 0.5, QStringLiteral("Chance that XTC acts at a step.")),
         support::minKeep()},
        false,
        support::makeFrom<XtcSampler>()};
}

} // namespace swb
