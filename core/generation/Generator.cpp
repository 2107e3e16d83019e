#include "generation/Generator.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "generation/ForcedSteps.h"
#include "generation/SampledSequence.h"
#include "generation/StepScorer.h"
#include "model/Model.h"

namespace swb {

QString finishReasonName(FinishReason reason) {
    switch (reason) {
    case FinishReason::Eos:
        return QStringLiteral("eos");
    case FinishReason::StopString:
        return QStringLiteral("stop_string");
    case FinishReason::MaxTokens:
        return QStringLiteral("max_tokens");
    case FinishReason::ContextLimit:
        return QStringLiteral("context_limit");
    case FinishReason::Cancelled:
        return QStringLiteral("cancelled");
    case FinishReason::GrammarDeadEnd:
        return QStringLiteral("grammar_dead_end");
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
        for (TokenId id : tokenizer.specialTokens().endOfTurn)
            if (std::find(m_stopTokens.begin(), m_stopTokens.end(), id) == m_stopTokens.end())
                m_stopTokens.push_back(id);
    }
}

std::vector<TokenId> Generator::encodePrompt(const std::string& prompt, bool parseSpecial, bool addSpecial) const {
    std::vector<TokenId> ids = m_tokenizer.encode(prompt, addSpecial, parseSpecial);
    if (ids.empty() && m_tokenizer.specialTokens().bos >= 0)
        ids.push_back(m_tokenizer.specialTokens().bos);
    return ids;
}

Result<std::vector<TokenId>> Generator::promptTokens(const GenerationRequest& request) const {
    const int context = m_model.info().contextLength;
    if (!request.usePromptIds && context > 0) {
        const std::size_t fewest = m_tokenizer.fewestTokens(request.prompt.size());
        if (fewest >= static_cast<std::size_t>(context))
            return Error::badInput(promptTooLong(request.prompt.size(), fewest, context));
    }
    std::vector<TokenId> ids =
        request.usePromptIds ? request.promptIds : encodePrompt(request.prompt, request.parseSpecial, request.addSpecial);
    if (ids.empty())
        return Error::badInput(QStringLiteral("the prompt is empty and the vocabulary has no BOS token to start from"));
    if (context > 0 && static_cast<int>(ids.size()) >= context)
        return Error::badInput(
            QStringLiteral("the prompt is %1 tokens long; the model's context holds %2").arg(ids.size()).arg(context));
    for (TokenId id : ids)
        if (id < 0 || id >= m_model.info().vocabSize)
            return Error::badInput(QStringLiteral("prompt token %1 is outside the model's vocabulary of %2")
                                       .arg(id)
                                       .arg(m_model.info().vocabSize));
    return ids;
}

Result<GenerationResult> Generator::generate(const GenerationRequest& request,
                                             const std::function<bool(const GeneratedStep&)>& onStep,
                                             const std::atomic<bool>* cancel) {
    const auto start = SampledSequence::Clock::now();
    Result<std::vector<TokenId>> prompt = promptTokens(request);
    if (!prompt)
        return prompt.error();
    Result<SamplerChain> chain = requestChain(request, m_tokenizer);
    if (!chain)
        return chain.error();
    if (isBeamDecoder(request.strategy.decoder))
        return generateWithBeams(request, onStep, cancel);
    if (decoderFamily(request.strategy.decoder) == DecoderFamily::Search)
        return contrastiveSearch(request, onStep, cancel);
    // Contrastive decoding and guidance rewrite each step's logits from a second view kept in the scorer.
    Result<std::unique_ptr<StepScorer>> scorer = makeStepScorer(request.strategy.decoder, m_model, m_tokenizer);
    if (!scorer)
        return scorer.error();
    std::unique_ptr<Model::State> state = m_model.newState();
    Result<std::vector<float>> logits = m_model.forward(*state, prompt.value());
    if (!logits)
        return logits.error();
    Result<SampledSequence> sequence =
        SampledSequence::start(request, std::move(prompt).value(), std::move(chain).value(), m_tokenizer, m_stopTokens,
                               m_model.info().contextLength, std::move(scorer).value());
    if (!sequence)
        return sequence.error();
    for (;;) {
        Result<bool> goesOn = sequence->step(logits.value(), onStep, cancel);
        if (!goesOn)
            return goesOn.error();
        if (!goesOn.value())
            break;
        const TokenId next = sequence->next();
        logits = m_model.forward(*state, std::span<const TokenId>(&next, 1));
        if (!logits)
            return logits.error();
    }
    return sequence->finish(start);
}

void setTimings(GenerationResult& result, std::chrono::steady_clock::time_point start,
                std::chrono::steady_clock::time_point firstToken, std::chrono::steady_clock::time_point end,
                std::size_t tokens) {
    if (tokens == 0)
        return;
    result.timeToFirstTokenMs = std::chrono::duration<double, std::milli>(firstToken - start).count();
    const double decodeSeconds = std::chrono::duration<double>(end - firstToken).count();
    if (tokens > 1 && decodeSeconds > 0)
        result.tokensPerSecond = static_cast<double>(tokens - 1) / decodeSeconds;
}

} // namespace swb

namespace swb {

std::vector<Result<GenerationResult>> Generator::generateBatch(
    const std::vector<GenerationRequest>& requests, const std::function<bool(std::size_t, const GeneratedStep&)>& onStep,
    const std::atomic<bool>* cancel) {
    const auto start = SampledSequence::Clock::now();
    const std::size_t n = requests.size();
    std::vector<Result<GenerationResult>> results;
    results.reserve(n);
    if (n == 0)
        return results;
    // A decoder with a model of its own (contrastive decoding) runs each request on its own, in turn.
    if (std::any_of(requests.begin(), requests.end(), [](const GenerationRequest& r) { return !r.strategy.decoder.isSample(); })) {
        for (std::size_t i = 0; i < n; ++i)
            results.push_back(generate(
                requests[i], [&](const GeneratedStep& step) { return !onStep || onStep(i, step); }, cancel));
        return results;
    }
    const auto failAll = [&](const Error& error) {
        results.clear();
        for (std::size_t i = 0; i < n; ++i)
            results.emplace_back(error);
        return results;
    };
    const Result<std::vector<TokenId>> prompt = promptTokens(requests.front());
    if (!prompt)
        return failAll(prompt.error());
    const std::vector<TokenId>& promptIds = prompt.value();
    for (const GenerationRequest& request : requests) {
        const std::vector<TokenId> own =
            request.usePromptIds ? request.promptIds : encodePrompt(request.prompt, request.parseSpecial, request.addSpecial);
        if (own != promptIds)
            return failAll(Error::internal(QStringLiteral("a batched generation needs one prompt for every request")));
    }
    struct Sequence {
        std::optional<SampledSequence> sequence;
        std::unique_ptr<Model::State> state;
        std::vector<float> logits;
        std::optional<Error> error;
    };
    std::vector<Sequence> sequences(n);

    // Prefill once; every sequence starts from a copy of that cache.
    std::unique_ptr<Model::State> prefilled = m_model.newState();
    Result<std::vector<float>> first = m_model.forward(*prefilled, promptIds);
    if (!first)
        return failAll(first.error());
    for (std::size_t i = 0; i < n; ++i) {
        Sequence& seq = sequences[i];
        Result<SamplerChain> chain = requestChain(requests[i], m_tokenizer);
        if (!chain) {
            seq.error = chain.error();
            continue;
        }
        Result<SampledSequence> sequence = SampledSequence::start(
            requests[i], promptIds, std::move(chain).value(), m_tokenizer, m_stopTokens, m_model.info().contextLength);
        if (!sequence) {
            seq.error = sequence.error();
            continue;
        }
        seq.sequence.emplace(std::move(sequence).value());
        seq.state = i + 1 == n ? std::move(prefilled) : m_model.cloneState(*prefilled);
        if (!seq.state) {
            seq.error = Error::internal(QStringLiteral("out of memory for another sequence's cache"));
            continue;
        }
        seq.logits = first.value();
    }

    const auto vocab = static_cast<std::size_t>(m_model.info().vocabSize);
    for (;;) {
        std::vector<Model::State*> states;
        std::vector<TokenId> next;
        std::vector<std::size_t> advancing;
        for (std::size_t i = 0; i < n; ++i) {
            Sequence& seq = sequences[i];
            if (seq.error || seq.sequence->done())
                continue;
            Result<bool> goesOn = seq.sequence->step(
                seq.logits, [&](const GeneratedStep& step) { return !onStep || onStep(i, step); }, cancel);
            if (!goesOn) {
                seq.error = goesOn.error();
            } else if (goesOn.value()) {
                states.push_back(seq.state.get());
                next.push_back(seq.sequence->next());
                advancing.push_back(i);
            }
        }
        if (advancing.empty())
            break;
        Result<std::vector<float>> logits = m_model.forwardBatch(states, next);
        if (!logits)
            return failAll(logits.error());
        for (std::size_t k = 0; k < advancing.size(); ++k)
            sequences[advancing[k]].logits.assign(logits->begin() + static_cast<std::ptrdiff_t>(k * vocab),
                                                  logits->begin() + static_cast<std::ptrdiff_t>((k + 1) * vocab));
    }

    for (Sequence& seq : sequences) {
        if (seq.error)
            results.emplace_back(*seq.error);
        else
            results.emplace_back(seq.sequence->finish(start));
    }
    return results;
}

} // namespace swb
