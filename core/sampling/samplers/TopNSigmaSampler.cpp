#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// llama.cpp top-n-sigma (Tang et al. 2024): removes tokens whose logit is below max - n * sigma,
// sigma the standard deviation of the current logits. threshold: max - n * sigma (a logit).
class TopNSigmaSampler final : public ClonableSampler<TopNSigmaSampler> {
public:
    explicit TopNSigmaSampler(const QJsonObject& params)
        : m_n(support::number(params, "n")) {}
    QString name() const override { return QStringLiteral("top_n_sigma"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        const std::size_t n = candidates.size();
        if (n <= 1)
            return;
        if (context.tracing)
            (void)candidates.observeSoftmax(); // for the kept mass only: see observeSoftmax()
        const std::span<const float> logits = candidates.logits();
        float max = -INFINITY;
        double sum = 0.0;
        for (float logit : logits) {
            max = std::max(max, logit);
            sum += logit;
        }
        const double mean = sum / static_cast<double>(n);
        double squares = 0.0;
        for (float logit : logits)
            squares += (logit - mean) * (logit - mean);
        const float sigma = static_cast<float>(std::sqrt(squares / static_cast<double>(n)));
        const float threshold = max - static_cast<float>(m_n) * sigma;
        std::vector<std::uint8_t> keep(n);
        double mass = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            keep[i] = !(logits[i] < threshold);
            if (keep[i] && candidates.probsValid())
                mass += candidates.prob(i);
        }
        stage.threshold = threshold;
        stage.keptMass = candidates.probsValid() ? mass : NAN;
        candidates.keepWhere(keep);
    }

private:
    double m_n;
};

} // namespace

SamplerDescriptor topNSigmaDescriptor() {
    return {QStringLiteral("top_n_sigma"),
            QStringLiteral("llama.cpp"),
            QStringLiteral("Keeps tokens whose logit is within n standard deviations of the largest logit."),
            {support::real("n", 0, 100, 1.0, QStringLiteral("Number of standard deviations."), true)},
            false,
            support::makeFrom<TopNSigmaSampler>()};
}

} // namespace swb
