// Generator::contrastiveSearch: Su et al. 2022 as transformers' contrastive search does it.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "generation/ForcedSteps.h"
#include "generation/Generator.h"
#include "generation/StepScorer.h"
#include "model/Model.h"

namespace swb {

namespace {

// Unit-length copy of one hidden state (a zero vector stays zero: its cosine with anything is 0).
std::vector<double> normalised(std::span<const float> h) {
    double norm = 0.0;
    for (float x : h)
        norm += double(x) * double(x);
    norm = std::sqrt(norm);
    std::vector<double> out(h.size(), 0.0);
    if (norm > 0.0)
        for (std::size_t i = 0; i < h.size(); ++i)
            out[i] = double(h[i]) / norm;
    return out;
}

} // namespace

// Each step: the chain (as logits processors) on the logits, the top_k most probable tokens as candidates,
// one batched forward pass of every candidate (each on its own copy of the cache), and the candidate with
// the best (1 - alpha) p - alpha * max_j cos(h_candidate, h_j) over every earlier position j (prompt
// included) is kept, with its cache, hidden state and next logits.
Result<GenerationResult> Generator::contrastiveSearch(const GenerationRequest& request,
                                                     const std::function<bool(const GeneratedStep&)>& onStep,
                                                     const std::atomic<bool>* cancel) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const Strategy& strategy = request.strategy;
    if (Status chainFits = checkDecoderChain(strategy, false, QStringLiteral("contrastive search")); !chainFits)
        return chainFits.error();
    const double alpha = strategy.decoder.params.value(QLatin1String("penalty_alpha")).toDouble(0.6);
    const int topK = strategy.decoder.params.value(QLatin1String("top_k")).toInt(4);

    GenerationResult result;
    result.seed = strategy.seed.value_or(request.seed);
    Result<std::vector<TokenId>> prompt = promptTokens(request);
    if (!prompt)
        return prompt.error();
    result.promptIds = std::move(prompt).value();
    const int context = m_model.info().contextLength;
    const int dim = m_model.info().dim;
    Result<ForcedTracer> tracer = ForcedTracer::create(strategy, m_tokenizer, request.topN);
    if (!tracer)
        return tracer.error();
    Result<SamplerChain> chain = SamplerChain::build(strategy, &m_tokenizer, result.seed);
    if (!chain)
        return chain.error();

    std::unique_ptr<Model::State> state = m_model.newState();
    std::vector<float> hidden;
    Result<std::vector<float>> first = m_model.forward(*state, result.promptIds, false, &hidden);
    if (!first)
        return first.error();
    std::vector<float> logits = std::move(first).value();
    const std::size_t vocab = logits.size();
    std::vector<std::vector<double>> contextHidden; // unit-length, one per position so far
    for (std::size_t p = 0; p < result.promptIds.size(); ++p)
        contextHidden.push_back(normalised(std::span<const float>(hidden).subspan(p * std::size_t(dim), std::size_t(dim))));

    StepText text(m_tokenizer, result.promptIds, strategy.stop, m_stopTokens);
    std::vector<TokenId> history = result.promptIds;
    Candidates candidates;
    Clock::time_point firstToken;
    result.finish = FinishReason::MaxTokens;
    for (int step = 0; step < request.maxTokens; ++step) {
        if (cancel && cancel->load()) {
            result.finish = FinishReason::Cancelled;
            break;
        }
        if (context > 0 && static_cast<int>(history.size()) >= context) {
            result.finish = FinishReason::ContextLimit;
            break;
        }
        if (!std::isfinite(logPartition(logits)))
            return Error::badInput(QStringLiteral("the model's logits hold NaN or no finite value"));
        // The candidates: the top_k of softmax(processed logits).
        candidates.assign(logits);
        chain->process(candidates, history);
        std::vector<float> processed(vocab, -std::numeric_limits<float>::infinity());
        for (std::size_t i = 0; i < candidates.size(); ++i)
            processed[std::size_t(candidates.ids()[i])] = candidates.logits()[i];
        const double partition = logPartition(processed);
        std::vector<TokenId> ids;
        for (std::size_t v = 0; v < vocab; ++v)
            if (processed[v] > -std::numeric_limits<float>::infinity())
                ids.push_back(TokenId(v));
        const std::size_t k = std::min<std::size_t>(std::size_t(topK), ids.size());
        if (k == 0)
            return Error::badInput(QStringLiteral("the chain left no candidate for contrastive search"));
        std::partial_sort(ids.begin(), ids.begin() + std::ptrdiff_t(k), ids.end(), [&](TokenId a, TokenId b) {
            return processed[std::size_t(a)] != processed[std::size_t(b)] ? processed[std::size_t(a)] > processed[std::size_t(b)]
                                                                            : a < b;
        });
        ids.resize(k);

        // Every candidate one position further, in one batched pass.
        std::vector<std::unique_ptr<Model::State>> branches;
        std::vector<Model::State*> states;
        for (std::size_t c = 0; c < k; ++c) {
            branches.push_back(c + 1 == k ? std::move(state) : m_model.cloneState(*state));
            if (!branches.back())
                return Error::internal(QStringLiteral("out of memory for a contrastive search candidate's cache"));
            states.push_back(branches.back().get());
        }
        if (k > 1)
            state = nullptr;
        std::vector<float> candidateHidden;
        Result<std::vector<float>> next = m_model.forwardBatch(states, ids, &candidateHidden);
        if (!next)
            return next.error();

        DecoderStepTrace decoderTrace;
        std::size_t selected = 0;
        double best = -std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < k; ++c) {
            const std::vector<double> h =
                normalised(std::span<const float>(candidateHidden).subspan(c * std::size_t(dim), std::size_t(dim)));
            double penalty = -std::numeric_limits<double>::infinity();
            for (const std::vector<double>& context : contextHidden) {
                double cosine = 0.0;
                for (int i = 0; i < dim; ++i)
                    cosine += context[std::size_t(i)] * h[std::size_t(i)];
                penalty = std::max(penalty, cosine);
            }
            const double p = std::exp(double(processed[std::size_t(ids[c])]) - partition);
            const double score = (1.0 - alpha) * p - alpha * penalty;
            decoderTrace.candidates.push_back({ids[c], p, penalty, score, false});
            if (score > best) { // the first of equal scores, as torch.max picks it
                best = score;
                selected = c;
            }
        }
        decoderTrace.candidates[selected].kept = true;
        std::stable_sort(decoderTrace.candidates.begin(), decoderTrace.candidates.end(),
                         [](const DecoderCandidate& a, const DecoderCandidate& b) { return a.score > b.score; });

        const TokenId token = ids[selected];
        Result<StepTrace> trace = tracer->trace(logits, history, token, request.traceLevel);
        if (!trace)
            return trace.error();
        chain->accept(token);
        GeneratedStep generated;
        generated.token = token;
        generated.trace = std::move(trace).value();
        if (request.traceLevel == TraceLevel::Full)
            generated.decoder = std::move(decoderTrace);
        history.push_back(token);
        state = std::move(branches[selected]);
        contextHidden.push_back(
            normalised(std::span<const float>(candidateHidden).subspan(selected * std::size_t(dim), std::size_t(dim))));
        logits.assign(next->begin() + std::ptrdiff_t(selected * vocab), next->begin() + std::ptrdiff_t((selected + 1) * vocab));
        if (step == 0)
            firstToken = Clock::now();
        if (!text.add(std::move(generated), result, onStep))
            break;
    }
    text.finish(result);
    setTimings(result, start, firstToken, Clock::now(), result.steps.size());
    return result;
}

} // namespace swb
