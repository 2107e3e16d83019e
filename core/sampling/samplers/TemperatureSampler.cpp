#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// logits / T (Hugging Face TemperatureLogitsWarper). T = 0 keeps only the most likely token, as
// llama.cpp does (Hugging Face rejects 0). threshold: T.
class TemperatureSampler final : public ClonableSampler<TemperatureSampler> {
public:
    explicit TemperatureSampler(const QJsonObject& params)
        : m_value(support::number(params, "value")) {}
    QString name() const override { return QStringLiteral("temperature"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        stage.threshold = m_value;
        if (m_value <= 0.0) {
            candidates.sortTop(1);
            candidates.keepFirst(1);
            stage.keptMass = NAN;
            return;
        }
        const float inverse = static_cast<float>(1.0 / m_value);
        for (float& logit : candidates.mutableLogits())
            logit *= inverse;
        candidates.logitsChanged(true);
    }

private:
    double m_value;
};

} // namespace

SamplerDescriptor temperatureDescriptor() {
    return {QStringLiteral("temperature"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Divides the logits by T: below 1 sharpens the distribution, above 1 flattens it; "
                           "0 keeps only the most likely token."),
            {support::real("value", 0, 100, 1.0, QStringLiteral("Temperature T."))},
            false,
            support::makeFrom<TemperatureSampler>()};
}

} // namespace swb
