#include "generation/ContrastiveDecoding.h"

#include <cmath>
#include <limits>

#include "model/Model.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb {

struct ContrastiveDecoding::State {
    std::unique_ptr<Model::State> cache;
};

ContrastiveDecoding::~ContrastiveDecoding() = default;

Result<std::unique_ptr<ContrastiveDecoding>> ContrastiveDecoding::create(const DecoderSpec& decoder,
                                                                          const Tokenizer& expertTokenizer) {
    const QString path = decoder.params.value(QLatin1String("amateur")).toString();
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(path);
    if (!tokenizer)
        return Error::badInput(QStringLiteral("the amateur model's tokenizer does not load: %1").arg(tokenizer.error().message));
    const Tokenizer& amateurTokens = *tokenizer.value();
    bool same = amateurTokens.vocabSize() == expertTokenizer.vocabSize();
    for (TokenId id = 0; same && id < expertTokenizer.vocabSize(); ++id)
        same = amateurTokens.tokenText(id) == expertTokenizer.tokenText(id);
    if (!same)
        return Error::badInput(QStringLiteral("the amateur model %1 does not share the expert's vocabulary (%2 tokens "
                                              "against %3, or other token texts); contrastive decoding needs one tokenizer")
                                   .arg(path)
                                   .arg(amateurTokens.vocabSize())
                                   .arg(expertTokenizer.vocabSize()));
    Result<std::unique_ptr<Model>> amateur = Model::load(path);
    if (!amateur)
        return Error::badInput(QStringLiteral("the amateur model does not load: %1").arg(amateur.error().message));
    std::unique_ptr<ContrastiveDecoding> cd(new ContrastiveDecoding);
    cd->m_amateur = std::move(amateur).value();
    cd->m_state = std::make_unique<State>();
    cd->m_alpha = decoder.params.value(QLatin1String("alpha")).toDouble(0.1);
    if (decoder.params.contains(QLatin1String("beta")))
        cd->m_beta = decoder.params.value(QLatin1String("beta")).toDouble();
    return cd;
}

Status ContrastiveDecoding::start(const std::vector<TokenId>& prompt) {
    m_state->cache = m_amateur->newState();
    Result<std::vector<float>> logits = m_amateur->forward(*m_state->cache, prompt);
    if (!logits)
        return logits.error();
    m_amateurLogits = std::move(logits).value();
    return {};
}

Status ContrastiveDecoding::advance(TokenId token) {
    Result<std::vector<float>> logits = m_amateur->forward(*m_state->cache, std::span<const TokenId>(&token, 1));
    if (!logits)
        return logits.error();
    m_amateurLogits = std::move(logits).value();
    return {};
}


Status ContrastiveDecoding::score(std::vector<float>& expert, DecoderStepTrace* trace) {
    if (m_amateurLogits.size() != expert.size())
        return Error::badInput(QStringLiteral("the amateur model gives %1 logits a step, the expert %2: they need one "
                                              "vocabulary")
                                   .arg(m_amateurLogits.size())
                                   .arg(expert.size()));
    const double expertPartition = logPartition(expert);
    const double amateurPartition = logPartition(m_amateurLogits);
    if (!std::isfinite(expertPartition) || !std::isfinite(amateurPartition))
        return Error::badInput(QStringLiteral("a logits row holds NaN or no finite value"));
    double maxExpert = -std::numeric_limits<double>::infinity();
    for (float x : expert)
        maxExpert = std::max(maxExpert, double(x));
    // p_e >= alpha * max p_e  <=>  logit_e >= max logit_e + log alpha
    const double threshold = maxExpert + std::log(m_alpha);
    std::vector<double> pe;
    std::vector<double> pa;
    if (trace) {
        pe.resize(expert.size());
        pa.resize(expert.size());
        for (std::size_t v = 0; v < expert.size(); ++v) {
            pe[v] = std::exp(double(expert[v]) - expertPartition);
            pa[v] = std::exp(double(m_amateurLogits[v]) - amateurPartition);
        }
    }
    for (std::size_t v = 0; v < expert.size(); ++v) {
        const double logitE = expert[v];
        if (logitE < threshold) {
            expert[v] = -std::numeric_limits<float>::infinity();
            continue;
        }
        const double logitA = m_amateurLogits[v];
        expert[v] = m_beta ? float((1.0 + *m_beta) * logitE - *m_beta * logitA)
                           : float((logitE - expertPartition) - (logitA - amateurPartition));
    }
    if (trace) {
        *trace = decoderStepTrace(expert, pe, pa);
        trace->threshold = m_alpha * std::exp(maxExpert - expertPartition);
    }
    return {};
}

} // namespace swb
