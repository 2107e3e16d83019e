// Generator::beamSearch: transformers' beam search on our model, step by step, with its trace.

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "generation/Generator.h"
#include "generation/StepScorer.h"
#include "model/Model.h"
#include "sampling/SamplerRegistry.h"

namespace swb {

namespace {

// The chain's stages that are logits processors in transformers' beam search; anything else (a warper
// such as top_k, or a sampler of another engine) would change what beam search means, so it is refused.
bool isBeamProcessor(const QString& type) {
    static const QStringList processors = {QStringLiteral("logit_bias"),      QStringLiteral("banned_tokens"),
                                           QStringLiteral("banned_words"),    QStringLiteral("repetition_penalty"),
                                           QStringLiteral("penalties"),       QStringLiteral("no_repeat_ngram")};
    return processors.contains(type);
}

// transformers' BeamHypotheses: the finished hypotheses, at most `beams` of them, and the worst score.
class FinishedHypotheses {
public:
    FinishedHypotheses(const BeamOptions& options, int maxGenerated)
        : m_options(options), m_maxGenerated(maxGenerated) {}

    void add(std::vector<TokenId> tokens, double sumLogProb, int generatedLength, bool byEos) {
        const double score = sumLogProb / std::pow(double(generatedLength), m_options.lengthPenalty);
        if (int(m_items.size()) < m_options.beams || score > m_worst) {
            m_items.push_back({std::move(tokens), {}, sumLogProb, score, byEos});
            if (int(m_items.size()) > m_options.beams) {
                // drop the worst (the first of the lowest, as a stable sort finds it)
                std::size_t worst = 0;
                for (std::size_t i = 1; i < m_items.size(); ++i)
                    if (m_items[i].score < m_items[worst].score)
                        worst = i;
                m_items.erase(m_items.begin() + std::ptrdiff_t(worst));
                m_worst = std::numeric_limits<double>::infinity();
                for (const BeamHypothesis& h : m_items)
                    m_worst = std::min(m_worst, h.score);
            } else {
                m_worst = std::min(score, m_worst);
            }
        }
    }

    // Whether no running beam can do better (generatedLength: the length the best score is at).
    bool isDone(double bestSumLogProb, int generatedLength) const {
        if (int(m_items.size()) < m_options.beams)
            return false;
        switch (m_options.earlyStopping) {
        case BeamOptions::EarlyStopping::Immediate: return true;
        case BeamOptions::EarlyStopping::Heuristic:
            return m_worst >= bestSumLogProb / std::pow(double(generatedLength), m_options.lengthPenalty);
        case BeamOptions::EarlyStopping::Never: {
            const int length = m_options.lengthPenalty > 0.0 ? m_maxGenerated : generatedLength;
            return m_worst >= bestSumLogProb / std::pow(double(length), m_options.lengthPenalty);
        }
        }
        return false;
    }

    // The best `count`, best first (equal scores: the one added last first, as transformers pops them).
    std::vector<BeamHypothesis> best(int count) {
        std::stable_sort(m_items.begin(), m_items.end(),
                         [](const BeamHypothesis& a, const BeamHypothesis& b) { return a.score < b.score; });
        std::vector<BeamHypothesis> out;
        for (int i = 0; i < count && !m_items.empty(); ++i) {
            out.push_back(std::move(m_items.back()));
            m_items.pop_back();
        }
        return out;
    }

private:
    BeamOptions m_options;
    int m_maxGenerated;
    std::vector<BeamHypothesis> m_items;
    double m_worst = 1e9;
};

struct Beam {
    std::shared_ptr<Model::State> state; // shared by beams with the same prefix until one moves on
    std::vector<TokenId> tokens;         // generated so far
    double score = 0.0;
    std::vector<float> logits;           // next-token logits after `tokens`
};

} // namespace

Result<BeamResult> Generator::beamSearch(const GenerationRequest& request,
                                         const std::function<bool(const BeamStep&)>& onStep,
                                         const std::atomic<bool>* cancel) {
    const Strategy& strategy = request.strategy;
    if (strategy.decoder.type != QLatin1String("beam"))
        return Error::internal(QStringLiteral("beamSearch needs a strategy whose decoder is beam"));
    for (const SamplerSpec& spec : strategy.samplers) {
        const SamplerDescriptor* descriptor = findSamplerDescriptor(spec.type);
        if (descriptor && descriptor->selector)
            continue;
        if (!isBeamProcessor(spec.type))
            return Error::badInput(QStringLiteral("beam search applies logits processors only (logit_bias, banned_tokens, "
                                                  "banned_words, repetition_penalty, penalties, no_repeat_ngram), not "
                                                  "'%1'")
                                       .arg(spec.type));
    }
    BeamOptions options;
    const QJsonObject& p = strategy.decoder.params;
    options.beams = p.value(QLatin1String("beams")).toInt(4);
    options.lengthPenalty = p.value(QLatin1String("length_penalty")).toDouble(1.0);
    options.returned = p.value(QLatin1String("return")).toInt(1);
    const QJsonValue early = p.value(QLatin1String("early_stopping"));
    options.earlyStopping = early.isBool() ? (early.toBool() ? BeamOptions::EarlyStopping::Immediate
                                                             : BeamOptions::EarlyStopping::Heuristic)
                                           : BeamOptions::EarlyStopping::Never;

    BeamResult result;
    result.promptIds = request.usePromptIds ? request.promptIds
                                            : encodePrompt(request.prompt, request.parseSpecial, request.addSpecial);
    if (result.promptIds.empty())
        return Error::badInput(QStringLiteral("the prompt is empty and the vocabulary has no BOS token to start from"));
    const int context = m_model.info().contextLength;
    const int promptLength = static_cast<int>(result.promptIds.size());
    if (context > 0 && promptLength >= context)
        return Error::badInput(
            QStringLiteral("the prompt is %1 tokens long; the model's context holds %2").arg(promptLength).arg(context));
    const int maxGenerated = context > 0 ? std::min(request.maxTokens, context - promptLength) : request.maxTokens;
    if (maxGenerated < 1)
        return result;

    Result<SamplerChain> chain = SamplerChain::build(strategy, &m_tokenizer, strategy.seed.value_or(request.seed));
    if (!chain)
        return chain.error();

    std::shared_ptr<Model::State> promptState = m_model.newState();
    Result<std::vector<float>> first = m_model.forward(*promptState, result.promptIds);
    if (!first)
        return first.error();
    const int k = options.beams;
    // transformers starts every beam from the prompt, all but the first at -1e9 so that the first step
    // draws from one beam only.
    std::vector<Beam> beams(static_cast<std::size_t>(k));
    for (int b = 0; b < k; ++b) {
        beams[std::size_t(b)].state = promptState;
        beams[std::size_t(b)].score = b == 0 ? 0.0 : -1e9;
        beams[std::size_t(b)].logits = first.value();
    }

    FinishedHypotheses finished(options, maxGenerated);
    const std::size_t keep = static_cast<std::size_t>(std::max<std::size_t>(2, 1 + m_stopTokens.size()) * std::size_t(k));
    const auto isEos = [&](TokenId t) { return std::find(m_stopTokens.begin(), m_stopTokens.end(), t) != m_stopTokens.end(); };

    struct Scored {
        double score;
        int beam;
        TokenId token;
    };
    std::vector<Scored> scored;
    std::vector<float> logProbs;
    std::vector<TokenId> history;
    Candidates candidates;
    bool done = false;
    for (int step = 0; step < maxGenerated; ++step) {
        if (cancel && cancel->load()) {
            result.cancelled = true;
            break;
        }
        // Every beam's processed log-probabilities, plus its score.
        scored.clear();
        for (int b = 0; b < k; ++b) {
            const Beam& beam = beams[std::size_t(b)];
            const std::vector<float>& row = beam.logits;
            const double partition = logPartition(row);
            if (!std::isfinite(partition))
                return Error::badInput(QStringLiteral("the model's logits hold NaN or no finite value"));
            logProbs.resize(row.size());
            for (std::size_t v = 0; v < row.size(); ++v)
                logProbs[v] = static_cast<float>(double(row[v]) - partition);
            history = result.promptIds;
            history.insert(history.end(), beam.tokens.begin(), beam.tokens.end());
            candidates.assign(logProbs);
            chain->process(candidates, history);
            const auto ids = candidates.ids();
            const auto values = candidates.logits();
            for (std::size_t i = 0; i < ids.size(); ++i)
                if (values[i] > -std::numeric_limits<float>::infinity())
                    scored.push_back({beam.score + double(values[i]), b, ids[i]});
        }
        const std::size_t considered = std::min(keep, scored.size());
        const auto better = [](const Scored& a, const Scored& c) {
            if (a.score != c.score)
                return a.score > c.score;
            return a.beam != c.beam ? a.beam < c.beam : a.token < c.token;
        };
        std::partial_sort(scored.begin(), scored.begin() + std::ptrdiff_t(considered), scored.end(), better);

        // transformers' BeamSearchScorer.process
        BeamStep trace;
        std::vector<Beam> next;
        const int generatedLength = step + 1;
        for (std::size_t rank = 0; rank < considered; ++rank) {
            const Scored& c = scored[rank];
            BeamCandidate candidate{c.beam, c.token, c.score, BeamCandidate::Fate::Pruned};
            if (int(next.size()) < k) {
                if (isEos(c.token)) {
                    if (int(rank) < k) {
                        std::vector<TokenId> tokens = beams[std::size_t(c.beam)].tokens;
                        tokens.push_back(c.token);
                        finished.add(std::move(tokens), c.score, generatedLength, true);
                        candidate.fate = BeamCandidate::Fate::Finished;
                    }
                } else {
                    Beam beam;
                    beam.state = beams[std::size_t(c.beam)].state;
                    beam.tokens = beams[std::size_t(c.beam)].tokens;
                    beam.tokens.push_back(c.token);
                    beam.score = c.score;
                    next.push_back(std::move(beam));
                    trace.parents.push_back(c.beam);
                    trace.tokens.push_back(c.token);
                    trace.scores.push_back(c.score);
                    candidate.fate = BeamCandidate::Fate::Continued;
                }
            }
            trace.candidates.push_back(candidate);
        }
        if (considered > 0)
            done = finished.isDone(scored.front().score, generatedLength);
        beams = std::move(next);
        result.steps.push_back(trace);
        if (onStep && !onStep(result.steps.back())) {
            result.cancelled = true;
            break;
        }
        if (done || beams.empty() || step + 1 == maxGenerated)
            break;

        // One batched forward pass for every beam; a state shared by several beams is copied first.
        std::vector<Model::State*> states;
        std::vector<TokenId> tokens;
        for (std::size_t i = 0; i < beams.size(); ++i) {
            if (beams[i].state.use_count() > 1)
                beams[i].state = std::shared_ptr<Model::State>(m_model.cloneState(*beams[i].state));
            if (!beams[i].state)
                return Error::internal(QStringLiteral("out of memory for another beam's cache"));
            states.push_back(beams[i].state.get());
            tokens.push_back(beams[i].tokens.back());
        }
        Result<std::vector<float>> logits = m_model.forwardBatch(states, tokens);
        if (!logits)
            return logits.error();
        const std::size_t vocab = logits->size() / beams.size();
        for (std::size_t i = 0; i < beams.size(); ++i)
            beams[i].logits.assign(logits->begin() + std::ptrdiff_t(i * vocab), logits->begin() + std::ptrdiff_t((i + 1) * vocab));
    }
    // transformers' finalize: the running beams join the finished hypotheses unless the search was done.
    if (!done)
        for (const Beam& beam : beams)
            finished.add(beam.tokens, beam.score, static_cast<int>(beam.tokens.size()), false);
    result.hypotheses = finished.best(options.returned);
    for (BeamHypothesis& h : result.hypotheses) {
        StreamingDecoder decoder(m_tokenizer);
        for (TokenId id : result.promptIds)
            decoder.push(id);
        for (TokenId id : h.tokens)
            if (!isEos(id))
                h.text += decoder.push(id);
        h.text += decoder.flush();
    }
    return result;
}

} // namespace swb
