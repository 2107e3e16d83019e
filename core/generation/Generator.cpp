#include "generation/Generator.h"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <optional>

#include "generation/ForcedSteps.h"
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
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();

    GenerationResult result;
    Result<std::vector<TokenId>> prompt = promptTokens(request);
    if (!prompt)
        return prompt.error();
    result.promptIds = std::move(prompt).value();
    const int context = m_model.info().contextLength;

    result.seed = request.strategy.seed.value_or(request.seed);
    Result<SamplerChain> chain = SamplerChain::build(request.strategy, &m_tokenizer, result.seed);
    if (!chain)
        return chain.error();
    chain->setTopN(request.topN);
    if (isBeamDecoder(request.strategy.decoder))
        return generateWithBeams(request, onStep, cancel);
    if (request.strategy.decoder.type == QLatin1String("contrastive_search"))
        return contrastiveSearch(request, onStep, cancel);
    // Contrastive decoding and guidance rewrite each step's logits from a second view kept in step.
    Result<std::unique_ptr<StepScorer>> scorer = makeStepScorer(request.strategy.decoder, m_model, m_tokenizer);
    if (!scorer)
        return scorer.error();
    std::unique_ptr<StepScorer> contrastive = std::move(scorer).value();
    if (contrastive)
        if (Status s = contrastive->start(result.promptIds); !s)
            return s.error();

    std::unique_ptr<Model::State> state = m_model.newState();
    Result<std::vector<float>> logits = m_model.forward(*state, result.promptIds);
    if (!logits)
        return logits.error();

    std::vector<TokenId> history = result.promptIds;
    StepText text(m_tokenizer, result.promptIds, request.strategy.stop, m_stopTokens);

    Clock::time_point firstToken;
    result.finish = FinishReason::MaxTokens;
    for (int step = 0; step < request.maxTokens; ++step) {
        if (cancel && cancel->load()) {
            result.finish = FinishReason::Cancelled;
            break;
        }
        GeneratedStep generated;
        if (contrastive) {
            const auto overflowed = [&] {
                return std::any_of(logits->begin(), logits->end(), [](float x) { return std::isnan(x) || x == INFINITY; });
            };
            const bool modelOverflowed = overflowed(); // then the chain names the logits row, as without a decoder
            if (Status s = contrastive->score(logits.value(), request.traceLevel == TraceLevel::Full ? &generated.decoder : nullptr);
                !s)
                return s.error();
            if (!modelOverflowed && overflowed()) // the decoder's own arithmetic
                return Error::badInput(QStringLiteral("decoder '%1' overflowed at step %2: its scores hold NaN or +inf "
                                                      "(its parameters are too large for float arithmetic)")
                                           .arg(request.strategy.decoder.type)
                                           .arg(result.steps.size() + 1));
        }
        Result<StepTrace> trace = chain->sample(logits.value(), history, request.traceLevel);
        if (!trace)
            return trace.error();
        generated.token = trace->chosen;
        generated.trace = std::move(trace).value();
        chain->accept(generated.token);
        history.push_back(generated.token);
        if (step == 0)
            firstToken = Clock::now();
        if (!text.add(std::move(generated), result, onStep))
            break;
        if (step + 1 == request.maxTokens)
            break;
        // Decoding the new token needs one more cache position.
        if (contextFull(history.size(), context)) {
            result.finish = FinishReason::ContextLimit;
            break;
        }
        const TokenId next = history.back();
        logits = m_model.forward(*state, std::span<const TokenId>(&next, 1));
        if (!logits)
            return logits.error();
        if (contrastive)
            if (Status s = contrastive->advance(next); !s)
                return s.error();
    }
    text.finish(result);

    setTimings(result, start, firstToken, Clock::now(), result.steps.size());
    return result;
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
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
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
    const int context = m_model.info().contextLength;

    struct Sequence {
        GenerationResult result;
        std::optional<SamplerChain> chain;
        std::unique_ptr<Model::State> state;
        std::vector<TokenId> history;
        std::optional<StepText> text;
        std::vector<float> logits;
        Clock::time_point firstToken;
        bool done = false;
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
        const GenerationRequest& request = requests[i];
        seq.result.promptIds = promptIds;
        seq.result.seed = request.strategy.seed.value_or(request.seed);
        seq.result.finish = FinishReason::MaxTokens;
        Result<SamplerChain> chain = SamplerChain::build(request.strategy, &m_tokenizer, seq.result.seed);
        if (!chain) {
            seq.error = chain.error();
            seq.done = true;
            continue;
        }
        chain->setTopN(request.topN);
        seq.chain.emplace(std::move(chain).value());
        seq.state = i + 1 == n ? std::move(prefilled) : m_model.cloneState(*prefilled);
        if (!seq.state) {
            seq.error = Error::internal(QStringLiteral("out of memory for another sequence's cache"));
            seq.done = true;
            continue;
        }
        seq.history = promptIds;
        seq.text.emplace(m_tokenizer, promptIds, request.strategy.stop, m_stopTokens);
        seq.logits = first.value();
        if (request.maxTokens < 1)
            seq.done = true;
    }

    const auto vocab = static_cast<std::size_t>(m_model.info().vocabSize);
    for (;;) {
        std::vector<Model::State*> states;
        std::vector<TokenId> next;
        std::vector<std::size_t> advancing;
        for (std::size_t i = 0; i < n; ++i) {
            Sequence& seq = sequences[i];
            if (seq.done)
                continue;
            const GenerationRequest& request = requests[i];
            if (cancel && cancel->load()) {
                seq.result.finish = FinishReason::Cancelled;
                seq.done = true;
                continue;
            }
            Result<StepTrace> trace = seq.chain->sample(seq.logits, seq.history, request.traceLevel);
            if (!trace) {
                seq.error = trace.error();
                seq.done = true;
                continue;
            }
            GeneratedStep generated;
            generated.token = trace->chosen;
            generated.trace = std::move(trace).value();
            seq.chain->accept(generated.token);
            seq.history.push_back(generated.token);
            if (seq.result.steps.empty())
                seq.firstToken = Clock::now();
            const bool goesOn = seq.text->add(std::move(generated), seq.result,
                                              [&](const GeneratedStep& step) { return !onStep || onStep(i, step); });
            const int produced = static_cast<int>(seq.result.steps.size());
            if (!goesOn) {
                seq.done = true;
            } else if (produced == request.maxTokens) {
                seq.done = true;
            } else if (contextFull(seq.history.size(), context)) {
                seq.result.finish = FinishReason::ContextLimit;
                seq.done = true;
            }
            if (!seq.done) {
                states.push_back(seq.state.get());
                next.push_back(seq.history.back());
                advancing.push_back(i);
            }
        }
        if (advancing.empty())
            break;
        Result<std::vector<float>> logits = m_model.forwardBatch(states, next);
        if (!logits)
            return failAll(logits.error());
        for (std::size_t k = 0; k < advancing.size(); ++k) {
            Sequence& seq = sequences[advancing[k]];
            seq.logits.assign(logits->begin() + static_cast<std::ptrdiff_t>(k * vocab),
                              logits->begin() + static_cast<std::ptrdiff_t>((k + 1) * vocab));
        }
    }

    const auto end = Clock::now();
    for (Sequence& seq : sequences) {
        if (seq.error) {
            results.emplace_back(*seq.error);
            continue;
        }
        if (seq.text)
            seq.text->finish(seq.result);
        setTimings(seq.result, start, seq.firstToken, end, seq.result.steps.size());
        results.emplace_back(std::move(seq.result));
    }
    return results;
}

} // namespace swb
