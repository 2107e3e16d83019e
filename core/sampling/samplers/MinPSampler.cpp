#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face MinPLogitsWarper: removes tokens whose probability is below p times the top
// token's probability; the top min_keep survive. One pass, no sort. threshold: p * p_max.
class MinPSampler final : public ClonableSampler<MinPSampler> {
public:
    explicit MinPSampler(const QJsonObject& params)
        : m_p(support::number(params, "p"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("min_p"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        candidates.softmax();
        const std::span<const float> probs = candidates.probs();
        float top = 0.0f;
        for (float p : probs)
            top = std::max(top, p);
        support::cutBelow(candidates, stage, static_cast<float>(m_p) * top, m_minKeep);
    }

private:
    double m_p;
    std::size_t m_minKeep;
};

} // namespace

SamplerDescriptor minPDescriptor() {
    return {QStringLiteral("min_p"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Keeps tokens at least p times as likely as the most likely token."),
            {support::real("p", 0, 1, 0.05, QStringLiteral("Fraction of the top probability.")), support::minKeep()},
            false,
            support::makeFrom<MinPSampler>()};
}

} // namespace swb
