#include <QJsonArray>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Adds a fixed bias to chosen tokens' logits (OpenAI logit_bias; Hugging Face SequenceBiasLogitsProcessor
// for single tokens). Ids outside the vocabulary are ignored. threshold: NaN.
class LogitBiasSampler final : public ClonableSampler<LogitBiasSampler> {
public:
    explicit LogitBiasSampler(const QJsonObject& params) {
        const QJsonObject bias = params.value(QLatin1String("bias")).toObject();
        for (auto it = bias.begin(); it != bias.end(); ++it)
            m_bias.emplace_back(it.key().toInt(), static_cast<float>(it.value().toDouble()));
    }
    QString name() const override { return QStringLiteral("logit_bias"); }

    void apply(Candidates& candidates, StageTrace&, SamplingContext&) override {
        if (m_bias.empty())
            return;
        std::span<float> logits = candidates.mutableLogits();
        const std::span<const TokenId> ids = candidates.ids();
        const bool denseIdOrder = candidates.size() == static_cast<std::size_t>(candidates.vocabSize()) &&
                                  candidates.sortedCount() == 0 && std::is_sorted(ids.begin(), ids.end());
        for (const auto& [id, bias] : m_bias) {
            if (denseIdOrder) {
                if (id < candidates.vocabSize())
                    logits[static_cast<std::size_t>(id)] += bias;
                continue;
            }
            const auto found = std::find(ids.begin(), ids.end(), id);
            if (found != ids.end())
                logits[static_cast<std::size_t>(found - ids.begin())] += bias;
        }
        candidates.logitsChanged(false);
    }

private:
    std::vector<std::pair<TokenId, float>> m_bias;
};

} // namespace

SamplerDescriptor logitBiasDescriptor() {
    return {QStringLiteral("logit_bias"),
            QStringLiteral("OpenAI"),
            QStringLiteral("Adds a fixed amount to the logits of chosen tokens."),
            {{QStringLiteral("bias"), ParamSpec::Kind::BiasMap, 0, 0, false, QJsonObject(),
              QStringLiteral("Object of \"token id\": bias.")}},
            false,
            support::makeFrom<LogitBiasSampler>()};
}

} // namespace swb
