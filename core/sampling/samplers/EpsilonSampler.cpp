#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face EpsilonLogitsWarper (Hewitt et al. 2022): removes tokens with probability below
// epsilon; the top min_keep survive. threshold: epsilon.
class EpsilonSampler final : public ClonableSampler<EpsilonSampler> {
public:
    explicit EpsilonSampler(const QJsonObject& params)
        : m_epsilon(support::number(params, "epsilon"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("epsilon"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        candidates.softmax();
        support::cutBelow(candidates, stage, static_cast<float>(m_epsilon), m_minKeep);
    }

private:
    double m_epsilon;
    std::size_t m_minKeep;
};

// Hugging Face EtaLogitsWarper (eta sampling, Hewitt et al. 2022), as HF's code computes it:
// eta = min(epsilon, sqrt(epsilon) * exp(-H)) with H the entropy of the distribution it receives;
// removes tokens with probability below eta; the top min_keep survive. threshold: eta.
class EtaSampler final : public ClonableSampler<EtaSampler> {
public:
    explicit EtaSampler(const QJsonObject& params)
        : m_epsilon(support::number(params, "epsilon"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("eta"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        const double entropy = candidates.entropy();
        const double eta = std::min(m_epsilon, std::sqrt(m_epsilon) * std::exp(-entropy));
        support::cutBelow(candidates, stage, static_cast<float>(eta), m_minKeep);
    }

private:
    double m_epsilon;
    std::size_t m_minKeep;
};

} // namespace

SamplerDescriptor epsilonDescriptor() {
    return {QStringLiteral("epsilon"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Removes tokens whose probability is below epsilon."),
            {support::real("epsilon", 0, 1, 0.0003, QStringLiteral("Probability floor."), true), support::minKeep()},
            false,
            support::makeFrom<EpsilonSampler>()};
}

SamplerDescriptor etaDescriptor() {
    return {QStringLiteral("eta"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Entropy-dependent floor: removes tokens below min(epsilon, sqrt(epsilon) exp(-H))."),
            {support::real("epsilon", 0, 1, 0.0009, QStringLiteral("epsilon of the eta formula."), true),
             support::minKeep()},
            false,
            support::makeFrom<EtaSampler>()};
}

} // namespace swb
