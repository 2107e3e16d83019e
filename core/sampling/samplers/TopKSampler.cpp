#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face TopKLogitsWarper: removes tokens whose logit is below the k-th largest; tokens tied
// with the k-th survive. k = max(k, min_keep). threshold: the k-th largest logit.
class TopKSampler final : public ClonableSampler<TopKSampler> {
public:
    explicit TopKSampler(const QJsonObject& params)
        : m_k(std::max(support::count(params, "k"), support::count(params, "min_keep"))) {}
    QString name() const override { return QStringLiteral("top_k"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        if (m_k >= candidates.size())
            return;
        if (context.tracing)
            (void)candidates.observeSoftmax(); // for the kept mass only: see observeSoftmax()
        const bool massKnown = candidates.probsValid();
        // Ties with the k-th survive: keepLargest keeps them.
        candidates.keepLargest(m_k);
        stage.threshold = candidates.logit(m_k - 1);
        if (massKnown)
            stage.keptMass = candidates.massOfFirst(candidates.size());
    }

private:
    std::size_t m_k;
};

} // namespace

SamplerDescriptor topKDescriptor() {
    return {QStringLiteral("top_k"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Keeps the k most likely tokens (and any tied with the k-th)."),
            {support::integer("k", 1, 1e9, 50, QStringLiteral("Number of tokens to keep.")), support::minKeep()},
            false,
            support::makeFrom<TopKSampler>()};
}

} // namespace swb
