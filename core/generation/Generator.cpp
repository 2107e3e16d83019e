#include "generation/Generator.h"

#include <algorithm>
#include <chrono>

#include "model/Model.h"

namespace swb {

QString finishReasonName(FinishReason reason) {
    switch (reason) {
    case FinishReason::Eos:
        return QStringLiteral("eos");
    case FinishReason::MaxTokens:
        return QStringLiteral("max_tokens");
    case FinishReason::ContextLimit:
        return QStringLiteral("context_limit");
    case FinishReason::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

Generator::Generator(Model& model, const Tokenizer& tokenizer)
    : m_model(model)
    , m_tokenizer(tokenizer) {
    const ModelInfo& info = model.info();
    if (info.format == QLatin1String("llama2c")) {
        // run.c ends a sample when the model produces BOS (id 1).
        m_stopTokens = {tokenizer.specialTokens().bos >= 0 ? tokenizer.specialTokens().bos : 1};
    } else {
        m_stopTokens.assign(info.eosTokenIds.begin(), info.eosTokenIds.end());
        if (tokenizer.specialTokens().eos >= 0 &&
            std::find(m_stopTokens.begin(), m_stopTokens.end(), tokenizer.specialTokens().eos) == m_stopTokens.end())
            m_stopTokens.push_back(tokenizer.specialTokens().eos);
    }
}

std::vector<TokenId> Generator::encodePrompt(const std::string& prompt, bool parseSpecial) const {
    std::vector<TokenId> ids = m_tokenizer.encode(prompt, true, parseSpecial);
    if (ids.empty() && m_tokenizer.specialTokens().bos >= 0)
        ids.push_back(m_tokenizer.specialTokens().bos);
    return ids;
}

Result<GenerationResult> Generator::generate(const GenerationRequest& request,
                                             const std::function<bool(const GeneratedStep&)>& onStep,
                                             const std::atomic<bool>* cancel) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();

    GenerationResult result;
    result.promptIds = request.usePromptIds ? request.promptIds : encodePrompt(request.prompt, request.parseSpecial);
    if (result.promptIds.empty())
        return Error::badInput(QStringLiteral("the prompt is empty and the vocabulary has no BOS token to start from"));
    const int context = m_model.info().contextLength;
    if (context > 0 && static_cast<int>(result.promptIds.size()) >= context)
        return Error::badInput(QStringLiteral("the prompt is %1 tokens long; the model's context holds %2")
                                   .arg(result.promptIds.size())
                                   .arg(context));
    for (TokenId id : result.promptIds)
        if (id < 0 || id >= m_model.info().vocabSize)
            return Error::badInput(QStringLiteral("prompt token %1 is outside the model's vocabulary of %2")
                                       .arg(id)
                                       .arg(m_model.info().vocabSize));

    result.seed = request.strategy.seed.value_or(request.seed);
    Result<SamplerChain> chain = SamplerChain::build(request.strategy, &m_tokenizer, result.seed);
    if (!chain)
        return chain.error();
    chain->setTopN(request.topN);

    std::unique_ptr<Model::State> state = m_model.newState();
    Result<std::vector<float>> logits = m_model.forward(*state, result.promptIds);
    if (!logits)
        return logits.error();

    std::vector<TokenId> history = result.promptIds;
    StreamingDecoder decoder(m_tokenizer);
    // Prime the decoder with the prompt so the first generated piece is decoded in context
    // (e.g. SentencePiece's leading-space rule after BOS).
    for (TokenId id : result.promptIds)
        decoder.push(id);

    Clock::time_point firstToken;
    result.finish = FinishReason::MaxTokens;
    for (int step = 0; step < request.maxTokens; ++step) {
        if (cancel && cancel->load()) {
            result.finish = FinishReason::Cancelled;
            break;
        }
        Result<StepTrace> trace = chain->sample(logits.value(), history, request.traceLevel);
        if (!trace)
            return trace.error();
        GeneratedStep generated;
        generated.token = trace->chosen;
        generated.trace = std::move(trace).value();
        chain->accept(generated.token);
        history.push_back(generated.token);
        const bool stop = std::find(m_stopTokens.begin(), m_stopTokens.end(), generated.token) != m_stopTokens.end();
        if (!stop)
            generated.text = decoder.push(generated.token);
        result.text += generated.text;
        if (step == 0)
            firstToken = Clock::now();
        result.steps.push_back(std::move(generated));
        if (onStep && !onStep(result.steps.back())) {
            result.finish = FinishReason::Cancelled;
            break;
        }
        if (stop) {
            result.finish = FinishReason::Eos;
            break;
        }
        if (step + 1 == request.maxTokens)
            break;
        // Decoding the new token needs one more cache position.
        if (context > 0 && static_cast<int>(history.size()) > context) {
            result.finish = FinishReason::ContextLimit;
            break;
        }
        const TokenId next = history.back();
        logits = m_model.forward(*state, std::span<const TokenId>(&next, 1));
        if (!logits)
            return logits.error();
    }
    result.text += decoder.flush();

    const auto end = Clock::now();
    if (!result.steps.empty()) {
        result.timeToFirstTokenMs = std::chrono::duration<double, std::milli>(firstToken - start).count();
        const double decodeSeconds = std::chrono::duration<double>(end - firstToken).count();
        if (result.steps.size() > 1 && decodeSeconds > 0)
            result.tokensPerSecond = static_cast<double>(result.steps.size() - 1) / decodeSeconds;
    }
    return result;
}

} // namespace swb
