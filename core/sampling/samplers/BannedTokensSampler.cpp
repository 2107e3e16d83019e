#include <unordered_set>

#include <QJsonArray>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

namespace {

// Removes token sequences (Hugging Face NoBadWordsLogitsProcessor): a one-token sequence is always
// banned; for a longer one, its last token is banned when the history ends with the rest of it.
// banned_tokens gives single ids; banned_words gives words, each banned as the tokenizer spells it
// both bare and after a space ("word" and " word"). threshold: NaN.
class BannedSequencesSampler final : public ClonableSampler<BannedSequencesSampler> {
public:
    BannedSequencesSampler(QString name, std::vector<std::vector<TokenId>> sequences)
        : m_name(std::move(name))
        , m_sequences(std::move(sequences)) {}
    QString name() const override { return m_name; }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        std::unordered_set<TokenId> banned;
        const std::span<const TokenId> history = context.history;
        for (const std::vector<TokenId>& sequence : m_sequences) {
            const std::size_t prefix = sequence.size() - 1;
            if (prefix > history.size())
                continue;
            if (std::equal(sequence.begin(), sequence.end() - 1, history.end() - static_cast<std::ptrdiff_t>(prefix)))
                banned.insert(sequence.back());
        }
        if (banned.empty())
            return;
        if (context.tracing)
            (void)candidates.observeSoftmax(); // for the kept mass only: see observeSoftmax()
        std::vector<std::uint8_t> keep(candidates.size());
        double mass = 0.0;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            keep[i] = !banned.contains(candidates.id(i));
            if (keep[i] && candidates.probsValid())
                mass += candidates.prob(i);
        }
        stage.keptMass = candidates.probsValid() ? mass : NAN;
        candidates.keepWhere(keep);
    }

private:
    QString m_name;
    std::vector<std::vector<TokenId>> m_sequences;
};

} // namespace

SamplerDescriptor bannedTokensDescriptor() {
    return {QStringLiteral("banned_tokens"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Never produces the listed token ids."),
            {{QStringLiteral("ids"), ParamSpec::Kind::IdList, 0, 0, false, QJsonArray(),
              QStringLiteral("Token ids to ban.")}},
            false,
            [](const QJsonObject& params, const Tokenizer*) -> Result<std::unique_ptr<Sampler>> {
                std::vector<std::vector<TokenId>> sequences;
                for (const QJsonValue& id : params.value(QLatin1String("ids")).toArray())
                    sequences.push_back({static_cast<TokenId>(id.toDouble())});
                return std::unique_ptr<Sampler>(
                    std::make_unique<BannedSequencesSampler>(QStringLiteral("banned_tokens"), std::move(sequences)));
            }};
}

SamplerDescriptor bannedWordsDescriptor() {
    return {QStringLiteral("banned_words"),
            QStringLiteral("Hugging Face transformers"),
            QStringLiteral("Never produces the listed words (as the model's tokenizer spells them)."),
            {{QStringLiteral("words"), ParamSpec::Kind::TextList, 0, 0, false, QJsonArray(),
              QStringLiteral("Words or phrases to ban.")}},
            false,
            [](const QJsonObject& params, const Tokenizer* tokenizer) -> Result<std::unique_ptr<Sampler>> {
                const QJsonArray words = params.value(QLatin1String("words")).toArray();
                if (!words.isEmpty() && !tokenizer)
                    return Error::badInput(QStringLiteral("banned_words needs a tokenizer: give a model, or use "
                                                          "banned_tokens with ids"));
                std::vector<std::vector<TokenId>> sequences;
                for (const QJsonValue& word : words) {
                    const std::string text = word.toString().toStdString();
                    for (const std::string& spelling : {text, " " + text}) {
                        std::vector<TokenId> ids = tokenizer->encode(spelling, false, false);
                        if (!ids.empty() && std::find(sequences.begin(), sequences.end(), ids) == sequences.end())
                            sequences.push_back(std::move(ids));
                    }
                }
                return std::unique_ptr<Sampler>(
                    std::make_unique<BannedSequencesSampler>(QStringLiteral("banned_words"), std::move(sequences)));
            }};
}

} // namespace swb
