#include <unordered_set>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face RepetitionPenaltyLogitsProcessor (Keskar et al. 2019): every token that occurs in the
// history (prompt and generated tokens) has its logit divided by the penalty when positive and
// multiplied by it when negative. threshold: the penalty.
class RepetitionPenaltySampler final : public ClonableSampler<RepetitionPenaltySampler> {
public:
    explicit RepetitionPenaltySampler(const QJsonObject& params)
        : m_penalty(support::number(params, "penalty")) {}
    QString name() const override { return QStringLiteral("repetition_penalty"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        stage.threshold = m_penalty;
        if (m_penalty == 1.0 || context.history.empty())
            return;
        const std::unordered_set<TokenId> seen(context.history.begin(), context.history.end());
        std::span<float> logits = candidates.mutableLogits();
        const auto penalty = static_cast<float>(m_penalty);
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            if (!seen.contains(candidates.id(i)))
                continue;
            logits[i] = logits[i] < 0.0f ? logits[i] * penalty : logits[i] / penalty;
        }
        candidates.logitsChanged(false);
    }

private:
    double m_penalty;
};

} // namespace

SamplerDescriptor repetitionDescriptor() {
    return {QStringLiteral("repetition_penalty"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Makes every token already in the text less likely: positive logits divided by the "
                           "penalty, negative ones multiplied."),
            {support::real("penalty", 0, 100, 1.1, QStringLiteral("Above 1 discourages repetition."), true)},
            false,
            support::makeFrom<RepetitionPenaltySampler>()};
}

} // namespace swb
