#include <algorithm>
#include <cmath>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// llama.cpp's adaptive-p sampler (llama_sampler_init_adaptive_p, PR #17927), a selector: it steers the
// probability of the tokens it draws toward `target`. Each step, from the candidates' probabilities p, the
// adapted target t' = clamp(2 target - weighted_sum / total_weight, 0, 1) (the running average of the
// chosen tokens' probabilities, decayed by `decay`, pulls it the other way); every logit becomes
// 5 - 10 d^2 / (1 + d) with d = |p - t'| / 0.3, and the token is drawn from their softmax. Accepting the
// drawn token adds its original p: weighted_sum = p + decay weighted_sum, total_weight = 1 + decay
// total_weight (both start at target / (1 - decay) and 1 / (1 - decay)). In float, as llama.cpp computes
// it. threshold: t'.
class AdaptivePSelector final : public ClonableSampler<AdaptivePSelector> {
public:
    static constexpr float kInverseWidth = 1.0f / 0.3f;
    static constexpr float kPeak = 5.0f;
    static constexpr float kSharpness = 10.0f;

    explicit AdaptivePSelector(const QJsonObject& params)
        : m_target(static_cast<float>(support::number(params, "target")))
        , m_decay(std::clamp(static_cast<float>(support::number(params, "decay")), 0.0f, 0.99f)) {
        reset();
    }
    QString name() const override { return QStringLiteral("adaptive_p"); }
    bool isSelector() const override { return true; }
    void reset() override {
        m_weightedSum = m_target / (1.0f - m_decay);
        m_totalWeight = 1.0f / (1.0f - m_decay);
        m_pendingId = -1;
    }
    void accept(TokenId token) override {
        if (token == m_pendingId && m_pendingId >= 0) {
            m_weightedSum = m_pendingProb + m_decay * m_weightedSum;
            m_totalWeight = 1.0f + m_decay * m_totalWeight;
        }
        m_pendingId = -1;
    }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        candidates.softmax();
        std::vector<float> original(candidates.probs().begin(), candidates.probs().end());
        const float target = std::clamp(m_target, 0.0f, 1.0f);
        const float adapted = std::clamp(
            m_totalWeight == 0.0f ? target : 2.0f * target - m_weightedSum / m_totalWeight, 0.0f, 1.0f);
        stage.threshold = adapted;
        std::span<float> logits = candidates.mutableLogits();
        for (std::size_t i = 0; i < logits.size(); ++i) {
            const float d = std::abs((original[i] - adapted) * kInverseWidth);
            logits[i] = kPeak - kSharpness * d * d / (1.0f + d);
        }
        candidates.logitsChanged(false);
        candidates.softmax();
        candidates.draw = context.rng.uniform();
        candidates.selected = static_cast<std::ptrdiff_t>(kernels::drawIndex(candidates, candidates.draw));
        m_pendingId = candidates.id(static_cast<std::size_t>(candidates.selected));
        m_pendingProb = original[static_cast<std::size_t>(candidates.selected)];
    }

private:
    float m_target;
    float m_decay;
    float m_weightedSum = 0.0f;
    float m_totalWeight = 0.0f;
    TokenId m_pendingId = -1;
    float m_pendingProb = 0.0f;
};

} // namespace

SamplerDescriptor adaptivePDescriptor() {
    return {QStringLiteral("adaptive_p"),
            QStringLiteral("llama.cpp"),
            QStringLiteral("Draws tokens whose probability stays near a target on average: reshapes the "
                           "distribution around a target that adapts to the probabilities drawn so far."),
            {support::real("target", 0, 1, 0.5, QStringLiteral("Probability the drawn tokens should have on average.")),
             support::real("decay", 0, 0.99, 0.9, QStringLiteral("Weight of the history in the running average."))},
            true,
            support::makeFrom<AdaptivePSelector>()};
}

} // namespace swb
