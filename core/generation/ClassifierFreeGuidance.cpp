#include "generation/ClassifierFreeGuidance.h"

#include <cmath>
#include <limits>

#include "model/Model.h"

namespace swb {

struct ClassifierFreeGuidance::State {
    std::unique_ptr<Model::State> cache;
};

ClassifierFreeGuidance::ClassifierFreeGuidance(Model& model, const Tokenizer& tokenizer, const DecoderSpec& decoder)
    : m_model(model), m_tokenizer(tokenizer), m_state(std::make_unique<State>()) {
    m_scale = decoder.params.value(QLatin1String("guidance_scale")).toDouble(1.0);
    m_hasNegativePrompt = decoder.params.contains(QLatin1String("negative_prompt"));
    m_negativePrompt = decoder.params.value(QLatin1String("negative_prompt")).toString().toStdString();
}

ClassifierFreeGuidance::~ClassifierFreeGuidance() = default;

Status ClassifierFreeGuidance::start(const std::vector<TokenId>& prompt) {
    std::vector<TokenId> context;
    if (m_hasNegativePrompt) {
        context = m_tokenizer.encode(m_negativePrompt, true, false);
        if (context.empty() && m_tokenizer.specialTokens().bos >= 0)
            context.push_back(m_tokenizer.specialTokens().bos);
        if (context.empty())
            return Error::badInput(QStringLiteral("the negative prompt is empty and the vocabulary has no BOS token"));
    } else {
        context.push_back(prompt.back()); // transformers: the prompt's last token
    }
    m_state->cache = m_model.newState();
    Result<std::vector<float>> logits = m_model.forward(*m_state->cache, context);
    if (!logits)
        return logits.error();
    m_unconditional = std::move(logits).value();
    return {};
}

Status ClassifierFreeGuidance::advance(TokenId token) {
    Result<std::vector<float>> logits = m_model.forward(*m_state->cache, std::span<const TokenId>(&token, 1));
    if (!logits)
        return logits.error();
    m_unconditional = std::move(logits).value();
    return {};
}


Status ClassifierFreeGuidance::score(std::vector<float>& logits, DecoderStepTrace* trace) {
    const double cond = logPartition(logits);
    const double uncond = logPartition(m_unconditional);
    if (!std::isfinite(cond) || !std::isfinite(uncond))
        return Error::badInput(QStringLiteral("a logits row holds NaN or no finite value"));
    std::vector<double> pc;
    std::vector<double> pu;
    if (trace) {
        pc.resize(logits.size());
        pu.resize(logits.size());
    }
    for (std::size_t v = 0; v < logits.size(); ++v) {
        const double lc = double(logits[v]) - cond;
        const double lu = double(m_unconditional[v]) - uncond;
        logits[v] = float(m_scale == 1.0 ? lc : m_scale * (lc - lu) + lu);
        if (trace) {
            pc[v] = std::exp(lc);
            pu[v] = std::exp(lu);
        }
    }
    if (trace)
        *trace = decoderStepTrace(logits, pc, pu, 32, 0);
    return {};
}

} // namespace swb
