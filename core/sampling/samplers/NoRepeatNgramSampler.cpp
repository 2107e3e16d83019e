#include <unordered_set>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face NoRepeatNGramLogitsProcessor: bans every token that would complete an n-gram already
// present in the history. threshold: NaN.
class NoRepeatNgramSampler final : public ClonableSampler<NoRepeatNgramSampler> {
public:
    explicit NoRepeatNgramSampler(const QJsonObject& params)
        : m_n(support::count(params, "n")) {}
    QString name() const override { return QStringLiteral("no_repeat_ngram"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        const std::span<const TokenId> history = context.history;
        if (history.size() + 1 < m_n)
            return;
        // The last n-1 tokens are the prefix a new token would complete.
        const std::size_t prefix = m_n - 1;
        const std::span<const TokenId> tail = history.subspan(history.size() - prefix);
        std::unordered_set<TokenId> banned;
        for (std::size_t start = 0; start + m_n <= history.size(); ++start)
            if (std::equal(tail.begin(), tail.end(), history.begin() + static_cast<std::ptrdiff_t>(start)))
                banned.insert(history[start + prefix]);
        if (banned.empty())
            return;
        candidates.softmax();
        std::vector<std::uint8_t> keep(candidates.size());
        double mass = 0.0;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            keep[i] = !banned.contains(candidates.id(i));
            if (keep[i])
                mass += candidates.prob(i);
        }
        stage.keptMass = mass;
        candidates.keepWhere(keep);
    }

private:
    std::size_t m_n;
};

} // namespace

SamplerDescriptor noRepeatNgramDescriptor() {
    return {QStringLiteral("no_repeat_ngram"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Bans any token that would repeat an n-gram already in the text."),
            {support::integer("n", 1, 1e6, 3, QStringLiteral("n-gram size."))},
            false,
            support::makeFrom<NoRepeatNgramSampler>()};
}

} // namespace swb
