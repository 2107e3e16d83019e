#include <unordered_map>
#include <unordered_set>

#include <QJsonArray>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

namespace {

// DRY ("don't repeat yourself", as llama.cpp implements it): for every earlier occurrence of the
// history's last token, the match length L is how far the text before it agrees with the text before
// the end; the token that followed that occurrence gets logit -= multiplier * base^(L - allowed_length)
// when L >= allowed_length (the largest L per token wins). Matching stops at sequence breakers, and
// only the last last_n tokens are searched (-1: all). Breakers are token ids or strings; a string
// marks every token whose text contains it (llama.cpp also matches breakers spanning several tokens;
// we do not). The exponent is capped so the penalty stays finite. threshold: the largest penalty applied.
class DrySampler final : public ClonableSampler<DrySampler> {
public:
    DrySampler(const QJsonObject& params, std::unordered_set<TokenId> breakers)
        : m_multiplier(support::number(params, "multiplier"))
        , m_base(support::number(params, "base"))
        , m_allowedLength(static_cast<int>(support::number(params, "allowed_length")))
        , m_lastN(static_cast<long long>(support::number(params, "last_n")))
        , m_breakers(std::move(breakers)) {}
    QString name() const override { return QStringLiteral("dry"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        std::span<const TokenId> history = context.history;
        if (m_multiplier <= 0.0 || m_lastN == 0 || history.size() < 2)
            return;
        if (m_lastN > 0 && history.size() > static_cast<std::size_t>(m_lastN))
            history = history.subspan(history.size() - static_cast<std::size_t>(m_lastN));
        const std::size_t n = history.size();
        const TokenId last = history[n - 1];
        if (m_breakers.contains(last))
            return;

        std::unordered_map<TokenId, int> matchLengths;
        for (std::size_t i = 0; i + 1 < n; ++i) {
            if (history[i] != last)
                continue;
            const TokenId next = history[i + 1];
            if (m_breakers.contains(next))
                continue;
            int length = 1;
            for (;;) {
                if (static_cast<std::size_t>(length) > i)
                    break;
                const TokenId earlier = history[i - static_cast<std::size_t>(length)];
                const TokenId recent = history[n - 1 - static_cast<std::size_t>(length)];
                if (earlier != recent || m_breakers.contains(recent))
                    break;
                ++length;
            }
            int& best = matchLengths[next];
            best = std::max(best, length);
        }

        const double maxExponent = std::log(3.0e38 / m_multiplier) / std::log(m_base);
        double largest = 0.0;
        std::span<float> logits = candidates.mutableLogits();
        bool changed = false;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            const auto found = matchLengths.find(candidates.id(i));
            if (found == matchLengths.end() || found->second < m_allowedLength)
                continue;
            const double exponent = std::min<double>(found->second - m_allowedLength, maxExponent);
            const double penalty = m_multiplier * std::pow(m_base, exponent);
            logits[i] -= static_cast<float>(penalty);
            largest = std::max(largest, penalty);
            changed = true;
        }
        if (changed) {
            candidates.logitsChanged(false);
            stage.threshold = largest;
        }
    }

private:
    double m_multiplier;
    double m_base;
    int m_allowedLength;
    long long m_lastN;
    std::unordered_set<TokenId> m_breakers;
};

Result<std::unique_ptr<Sampler>> makeDry(const QJsonObject& params, const Tokenizer* tokenizer) {
    std::unordered_set<TokenId> breakers;
    std::vector<std::string> texts;
    for (const QJsonValue& breaker : params.value(QLatin1String("breakers")).toArray()) {
        if (breaker.isDouble())
            breakers.insert(static_cast<TokenId>(breaker.toDouble()));
        else
            texts.push_back(breaker.toString().toStdString());
    }
    if (!texts.empty()) {
        if (!tokenizer)
            return Error::badInput(
                QStringLiteral("dry: text breakers need a tokenizer; give token ids instead, or a model"));
        for (TokenId id = 0; id < tokenizer->vocabSize(); ++id) {
            const std::string piece = tokenizer->piece(id);
            for (const std::string& text : texts)
                if (!piece.empty() && piece.find(text) != std::string::npos)
                    breakers.insert(id);
        }
    }
    return std::unique_ptr<Sampler>(std::make_unique<DrySampler>(params, std::move(breakers)));
}

} // namespace

SamplerDescriptor dryDescriptor() {
    const QJsonArray defaultBreakers{QStringLiteral("\n"), QStringLiteral(":"), QStringLiteral("\""),
                                     QStringLiteral("*")};
    return {
        QStringLiteral("dry"),
        QStringLiteral("llama.cpp"),
        QStringLiteral("Penalises tokens that would extend a sequence already repeated in the text."),
        {support::real("multiplier", 0, 100, 0.8, QStringLiteral("Penalty scale; 0 turns DRY off.")),
         support::real("base", 1, 100, 1.75, QStringLiteral("Growth of the penalty per extra matched token."), true),
         support::integer("allowed_length", 1, 1e6, 2, QStringLiteral("Repeats this long go unpenalised.")),
         support::integer("last_n", -1, 1e9, -1, QStringLiteral("Tokens of history searched; -1 all, 0 off.")),
         {QStringLiteral("breakers"), ParamSpec::Kind::TokenOrTextList, 0, 0, false, defaultBreakers,
          QStringLiteral("Tokens (ids, or text they contain) that break a repeated sequence.")}},
        false,
        makeDry};
}

} // namespace swb
