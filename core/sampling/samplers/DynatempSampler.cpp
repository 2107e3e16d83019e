#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// llama.cpp dynamic temperature (temp_ext): T = lo + (hi - lo) * (H / log n)^exponent, lo = max(0, value - range),
// hi = value + range,
// with H the entropy and n the number of current candidates; range 0 is a plain temperature.
// threshold: the temperature used.
class DynatempSampler final : public ClonableSampler<DynatempSampler> {
public:
    explicit DynatempSampler(const QJsonObject& params)
        : m_value(support::number(params, "value"))
        , m_range(support::number(params, "range"))
        , m_exponent(support::number(params, "exponent")) {}
    QString name() const override { return QStringLiteral("dynatemp"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        double temperature = m_value;
        if (m_range > 0.0) {
            if (candidates.size() <= 1)
                return;
            const double minTemp = std::max(0.0, m_value - m_range);
            const double maxTemp = m_value + m_range;
            const double maxEntropy = std::log(static_cast<double>(candidates.size()));
            const double normalized = candidates.entropy() / maxEntropy;
            temperature = minTemp + (maxTemp - minTemp) * std::pow(normalized, m_exponent);
        }
        stage.threshold = temperature;
        if (temperature <= 0.0) {
            candidates.sortTop(1);
            candidates.keepFirst(1);
            return;
        }
        const float inverse = static_cast<float>(1.0 / temperature);
        for (float& logit : candidates.mutableLogits())
            logit *= inverse;
        candidates.logitsChanged(true);
    }

private:
    double m_value;
    double m_range;
    double m_exponent;
};

} // namespace

SamplerDescriptor dynatempDescriptor() {
    return {QStringLiteral("dynatemp"),
            QStringLiteral("llama.cpp"),
            QStringLiteral("Dynamic temperature: hotter when the model is unsure (high entropy), colder when sure."),
            {support::real("value", 0, 100, 1.0, QStringLiteral("Centre temperature.")),
             support::real("range", 0, 100, 0.0, QStringLiteral("Temperatures span value ± range.")),
             support::real("exponent", 0, 100, 1.0, QStringLiteral("Exponent applied to the normalised entropy."))},
            false,
            support::makeFrom<DynatempSampler>()};
}

} // namespace swb
