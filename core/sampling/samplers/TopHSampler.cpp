#include <algorithm>
#include <cmath>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face transformers' TopHLogitsWarper (top-H decoding, PR #40837): over the 100 most likely
// tokens (probabilities renormalised over them), tau = h times their entropy; keeps the tokens, most
// likely first, while the running sum of -p log p is at most tau, the top one always; every token
// outside the 100 goes. No min_keep (transformers has none). threshold: tau.
class TopHSampler final : public ClonableSampler<TopHSampler> {
public:
    static constexpr std::size_t kTopN = 100;

    explicit TopHSampler(const QJsonObject& params)
        : m_h(support::number(params, "h")) {}
    QString name() const override { return QStringLiteral("top_h"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        const std::size_t n = std::min(kTopN, candidates.size());
        candidates.sortTop(n);
        // Categorical(logits=top_logits): the softmax of the top n alone.
        const float top = candidates.logit(0);
        std::vector<float> p(n);
        float sum = 0.0f;
        for (std::size_t i = 0; i < n; ++i) {
            p[i] = std::exp(candidates.logit(i) - top);
            sum += p[i];
        }
        float entropy = 0.0f;
        for (float& v : p) {
            v /= sum;
            if (v > 0.0f)
                entropy -= v * std::log(v);
        }
        const float tau = entropy * static_cast<float>(m_h);
        stage.threshold = tau;
        std::size_t keep = 1;
        float cumulative = 0.0f;
        for (std::size_t i = 0; i < n; ++i) {
            cumulative += -p[i] * std::log(p[i]); // NaN for p = 0: never kept, as in transformers
            if (!(cumulative <= tau))
                break;
            keep = std::max(keep, i + 1);
        }
        candidates.softmax();
        stage.keptMass = candidates.massOfFirst(keep);
        candidates.keepFirst(keep);
    }

private:
    double m_h;
};

} // namespace

SamplerDescriptor topHDescriptor() {
    return {QStringLiteral("top_h"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Top-H: keeps the most likely tokens while their entropy terms add up to at most h "
                           "times the entropy of the top 100."),
            {support::real("h", 0, 1, 0.4, QStringLiteral("Share of the top 100's entropy."), true)},
            false,
            support::makeFrom<TopHSampler>()};
}

} // namespace swb
