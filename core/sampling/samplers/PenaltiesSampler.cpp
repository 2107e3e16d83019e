#include <unordered_map>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// OpenAI frequency and presence penalties: logit -= count * frequency + (count > 0) * presence, with
// count the token's occurrences in the last last_n tokens of the history (-1: all of it).
// threshold: NaN.
class PenaltiesSampler final : public ClonableSampler<PenaltiesSampler> {
public:
    explicit PenaltiesSampler(const QJsonObject& params)
        : m_frequency(support::number(params, "frequency"))
        , m_presence(support::number(params, "presence"))
        , m_lastN(static_cast<long long>(support::number(params, "last_n"))) {}
    QString name() const override { return QStringLiteral("penalties"); }

    void apply(Candidates& candidates, StageTrace&, SamplingContext& context) override {
        std::span<const TokenId> history = context.history;
        if (m_lastN == 0 || history.empty() || (m_frequency == 0.0 && m_presence == 0.0))
            return;
        if (m_lastN > 0 && history.size() > static_cast<std::size_t>(m_lastN))
            history = history.subspan(history.size() - static_cast<std::size_t>(m_lastN));
        std::unordered_map<TokenId, int> counts;
        for (TokenId id : history)
            ++counts[id];
        std::span<float> logits = candidates.mutableLogits();
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            const auto found = counts.find(candidates.id(i));
            if (found == counts.end())
                continue;
            logits[i] -= static_cast<float>(found->second * m_frequency + m_presence);
        }
        candidates.logitsChanged(false);
    }

private:
    double m_frequency;
    double m_presence;
    long long m_lastN;
};

} // namespace

SamplerDescriptor penaltiesDescriptor() {
    return {QStringLiteral("penalties"),
            QStringLiteral("OpenAI"),
            QStringLiteral("Frequency and presence penalties: subtracts count × frequency + presence from the "
                           "logit of every token already used."),
            {support::real("frequency", -2, 2, 0.0, QStringLiteral("Penalty per occurrence.")),
             support::real("presence", -2, 2, 0.0, QStringLiteral("Penalty for occurring at all.")),
             support::integer("last_n", -1, 1e9, -1, QStringLiteral("Tokens of history counted; -1 all, 0 off."))},
            false,
            support::makeFrom<PenaltiesSampler>()};
}

} // namespace swb
