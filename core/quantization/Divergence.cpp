#include "quantization/Divergence.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

#include "evaluation/Statistics.h"
#include "model/Model.h"
#include "sampling/SamplerChain.h"

namespace swb::quantization {

namespace {

// ln of the softmax normaliser, Σ exp(x − max) taken in double: log p(v) = x_v − logNorm.
double logNormaliser(const float* logits, int vocab) {
    const float top = *std::max_element(logits, logits + vocab);
    double sum = 0;
    for (int v = 0; v < vocab; ++v)
        sum += std::exp(static_cast<double>(logits[v]) - top);
    return top + std::log(sum);
}

TokenId argmax(const float* logits, int vocab) {
    return static_cast<TokenId>(std::max_element(logits, logits + vocab) - logits);
}

} // namespace

TokenDivergence compareRows(const float* logitsA, const float* logitsB, int vocab, TokenId next) {
    const double normA = logNormaliser(logitsA, vocab);
    const double normB = logNormaliser(logitsB, vocab);
    double kl = 0;
    for (int v = 0; v < vocab; ++v) {
        const double lpA = logitsA[v] - normA;
        const double lpB = logitsB[v] - normB;
        kl += std::exp(lpA) * (lpA - lpB);
    }
    TokenDivergence d;
    d.token = next;
    d.kl = std::max(0.0, kl); // rounding can leave −1e-17 for identical rows
    d.topA = argmax(logitsA, vocab);
    d.topB = argmax(logitsB, vocab);
    d.logpA = logitsA[next] - normA;
    d.logpB = logitsB[next] - normB;
    return d;
}

TokenDivergence compareWithTopN(const float* logitsA, int vocab, const TopNRow& b, TokenId next) {
    const double normA = logNormaliser(logitsA, vocab);
    double kl = 0, restA = 1, restB = 1;
    for (const auto& [token, lpB] : b.top) {
        const double lpA = logitsA[token] - normA;
        const double pA = std::exp(lpA);
        kl += pA * (lpA - lpB);
        restA -= pA;
        restB -= std::exp(lpB);
    }
    // The other tokens as one outcome; B's rest is at least what rounding leaves of it.
    restA = std::max(0.0, restA);
    restB = std::max(restB, 1e-12);
    if (restA > 0)
        kl += restA * (std::log(restA) - std::log(restB));
    TokenDivergence d;
    d.token = next;
    d.kl = std::max(0.0, kl);
    d.topA = argmax(logitsA, vocab);
    d.topB = b.top.empty() ? -1 : b.top.front().first;
    d.logpA = logitsA[next] - normA;
    d.logpB = b.logpToken;
    return d;
}

PositionTop topOfRows(const float* logitsA, const float* logitsB, int vocab, int keep) {
    const auto best = [vocab, keep](const float* logits) {
        std::vector<TokenId> order(static_cast<std::size_t>(vocab));
        for (int v = 0; v < vocab; ++v)
            order[static_cast<std::size_t>(v)] = v;
        const auto n = static_cast<std::ptrdiff_t>(std::min(keep, vocab));
        std::partial_sort(order.begin(), order.begin() + n, order.end(), [logits](TokenId x, TokenId y) {
            return logits[x] > logits[y] || (logits[x] == logits[y] && x < y);
        });
        order.resize(static_cast<std::size_t>(n));
        return order;
    };
    PositionTop top;
    top.tokens = best(logitsA);
    for (TokenId t : best(logitsB))
        if (std::find(top.tokens.begin(), top.tokens.end(), t) == top.tokens.end())
            top.tokens.push_back(t);
    const double normA = logNormaliser(logitsA, vocab);
    const double normB = logNormaliser(logitsB, vocab);
    for (TokenId t : top.tokens) {
        top.pA.push_back(static_cast<float>(std::exp(logitsA[t] - normA)));
        top.pB.push_back(static_cast<float>(std::exp(logitsB[t] - normB)));
    }
    return top;
}

namespace {

// What each chain keeps of its model's row (the selector's candidates), marked on the position's tokens; then
// both chains take the text's next token, as they would had they drawn it.
Status recordCuts(SamplerChain& chainA, SamplerChain& chainB, const float* logitsA, const float* logitsB, int vocab,
                  std::span<const TokenId> history, TokenId next, PositionTop& top) {
    std::set<TokenId> keptA, keptB;
    for (auto [chain, logits, kept] : {std::tuple{&chainA, logitsA, &keptA}, std::tuple{&chainB, logitsB, &keptB}}) {
        Candidates survivors;
        Result<StepTrace> trace =
            chain->sample({logits, static_cast<std::size_t>(vocab)}, history, TraceLevel::None, &survivors);
        if (!trace)
            return trace.error();
        for (TokenId id : survivors.ids())
            kept->insert(id);
        chain->accept(next);
    }
    top.keptCountA = static_cast<int>(keptA.size());
    top.keptCountB = static_cast<int>(keptB.size());
    top.keptBoth =
        static_cast<int>(std::count_if(keptA.begin(), keptA.end(), [&](TokenId t) { return keptB.count(t); }));
    for (TokenId t : top.tokens) {
        top.keptA.push_back(keptA.count(t) > 0);
        top.keptB.push_back(keptB.count(t) > 0);
    }
    return {};
}

} // namespace

DivergenceSummary summarize(const std::vector<TokenDivergence>& perToken) {
    DivergenceSummary s;
    s.tokens = static_cast<std::int64_t>(perToken.size());
    if (perToken.empty())
        return s;
    std::vector<double> kl, logRatio, delta;
    double nllA = 0, nllB = 0;
    std::int64_t same = 0;
    for (const TokenDivergence& d : perToken) {
        kl.push_back(d.kl);
        logRatio.push_back(d.logpA - d.logpB);
        delta.push_back(d.logpB - d.logpA);
        nllA -= d.logpA;
        nllB -= d.logpB;
        same += d.topA == d.topB ? 1 : 0;
    }
    const double n = static_cast<double>(perToken.size());
    s.meanKl = stats::mean(kl);
    s.medianKl = stats::percentile(kl, 50);
    s.p90Kl = stats::percentile(kl, 90);
    s.p99Kl = stats::percentile(kl, 99);
    s.maxKl = *std::max_element(kl.begin(), kl.end());
    s.sameTop1 = static_cast<double>(same) / n;
    s.pplA = std::exp(nllA / n);
    s.pplB = std::exp(nllB / n);
    s.meanLogRatio = stats::mean(logRatio);
    double squares = 0;
    for (double r : logRatio)
        squares += (r - s.meanLogRatio) * (r - s.meanLogRatio);
    const double sd = perToken.size() > 1 ? std::sqrt(squares / (n - 1)) : 0.0;
    const double halfWidth = 1.96 * sd / std::sqrt(n);
    s.logRatioLow = s.meanLogRatio - halfWidth;
    s.logRatioHigh = s.meanLogRatio + halfWidth;
    s.deltaPplRelative = std::expm1(s.meanLogRatio);
    s.deltaPplLow = std::expm1(s.logRatioLow);
    s.deltaPplHigh = std::expm1(s.logRatioHigh);
    s.meanDeltaLogp = -s.meanLogRatio;
    s.sdDeltaLogp = sd;
    s.p1DeltaLogp = stats::percentile(delta, 1);
    s.p99DeltaLogp = stats::percentile(delta, 99);
    return s;
}

Status checkSameTokenizer(const Tokenizer& a, const Tokenizer& b) {
    if (a.vocabSize() != b.vocabSize())
        return Error::badInput(QStringLiteral("the two models do not share a tokenizer: %1 tokens against %2")
                                   .arg(a.vocabSize())
                                   .arg(b.vocabSize()));
    for (TokenId id = 0; id < a.vocabSize(); ++id)
        if (a.tokenText(id) != b.tokenText(id))
            return Error::badInput(
                QStringLiteral("the two models do not share a tokenizer: token %1 is '%2' in one "
                               "and '%3' in the other")
                    .arg(id)
                    .arg(QString::fromStdString(a.tokenText(id)), QString::fromStdString(b.tokenText(id))));
    return {};
}

namespace {

// The text read in windows of `context` tokens, consecutive windows sharing one token so that every token
// after the first is scored once: read(start, window) for each, stopping at its first error.
Status forEachWindow(const std::vector<TokenId>& ids, std::size_t context,
                     const std::function<Status(std::size_t, std::span<const TokenId>)>& read) {
    if (ids.size() < 2)
        return Error::badInput(
            QStringLiteral("there is no text to compare: it needs at least one token after the first"));
    for (std::size_t start = 0; start + 1 < ids.size(); start += context - 1)
        if (Status s = read(start, std::span<const TokenId>(ids.data() + start, std::min(context, ids.size() - start)));
            !s)
            return s;
    return {};
}

Error cancelled() {
    return Error::badInput(QStringLiteral("the comparison was cancelled"));
}

} // namespace

Result<DivergenceResult> measureDivergence(Model& a, Model& b, std::vector<TokenId> ids,
                                           const std::function<bool(std::int64_t, std::int64_t)>& progress,
                                           const DivergenceOptions& options) {
    const int keepTop = options.keepTop;
    std::optional<SamplerChain> chainA, chainB;
    if (keepTop > 0 && options.strategy) {
        Result<SamplerChain> built = SamplerChain::build(*options.strategy, options.tokenizer);
        if (!built)
            return built.error();
        chainA = *built;
        chainB = std::move(built).value();
    }
    const int vocab = a.info().vocabSize;
    if (b.info().vocabSize != vocab)
        return Error::badInput(QStringLiteral("the two models' outputs differ in size (%1 and %2 tokens)")
                                   .arg(vocab)
                                   .arg(b.info().vocabSize));
    const std::size_t context =
        static_cast<std::size_t>(std::max(2, std::min(a.info().contextLength, b.info().contextLength)));
    DivergenceResult result;
    const auto total = static_cast<std::int64_t>(ids.size() - 1);
    const Status read = forEachWindow(ids, context, [&](std::size_t start, std::span<const TokenId> window) -> Status {
        std::unique_ptr<Model::State> stateA = a.newState();
        std::unique_ptr<Model::State> stateB = b.newState();
        Result<std::vector<float>> logitsA = a.forward(*stateA, window, true);
        if (!logitsA)
            return logitsA.error();
        Result<std::vector<float>> logitsB = b.forward(*stateB, window, true);
        if (!logitsB)
            return logitsB.error();
        for (std::size_t i = 0; i + 1 < window.size(); ++i) {
            const std::size_t row = i * static_cast<std::size_t>(vocab);
            result.perToken.push_back(compareRows(logitsA->data() + row, logitsB->data() + row, vocab, window[i + 1]));
            if (keepTop <= 0)
                continue;
            result.top.push_back(topOfRows(logitsA->data() + row, logitsB->data() + row, vocab, keepTop));
            if (chainA) {
                const std::span<const TokenId> history(ids.data(), start + i + 1);
                Status cut = recordCuts(*chainA, *chainB, logitsA->data() + row, logitsB->data() + row, vocab, history,
                                        window[i + 1], result.top.back());
                if (!cut)
                    return cut.error();
            }
        }
        if (progress && !progress(static_cast<std::int64_t>(result.perToken.size()), total))
            return cancelled();
        return {};
    });
    if (!read)
        return read.error();
    result.summary = summarize(result.perToken);
    result.ids = std::move(ids);
    return result;
}

namespace {

// A's top tokens (topOfRows of A against itself) and then B's listed ones it leaves out, each with both
// probabilities; B's is 0 where its top N leave the token out.
PositionTop topWithTopN(const float* logitsA, int vocab, const TopNRow& b, int keep) {
    PositionTop top = topOfRows(logitsA, logitsA, vocab, keep);
    for (int i = 0; i < keep && i < static_cast<int>(b.top.size()); ++i)
        if (std::find(top.tokens.begin(), top.tokens.end(), b.top[static_cast<std::size_t>(i)].first) ==
            top.tokens.end())
            top.tokens.push_back(b.top[static_cast<std::size_t>(i)].first);
    const double normA = logNormaliser(logitsA, vocab);
    top.pA.clear();
    top.pB.clear();
    for (TokenId t : top.tokens) {
        top.pA.push_back(static_cast<float>(std::exp(logitsA[t] - normA)));
        const auto listed = std::find_if(b.top.begin(), b.top.end(), [t](const auto& e) { return e.first == t; });
        top.pB.push_back(listed == b.top.end() ? 0.0f : static_cast<float>(std::exp(listed->second)));
    }
    return top;
}

} // namespace

Result<DivergenceResult> measureDivergenceAgainstTopN(Model& a, std::vector<TokenId> ids, const TopNSource& rowB,
                                                      const std::function<bool(std::int64_t, std::int64_t)>& progress,
                                                      int keepTop) {
    const int vocab = a.info().vocabSize;
    const std::size_t context = static_cast<std::size_t>(std::max(2, a.info().contextLength));
    DivergenceResult result;
    const auto total = static_cast<std::int64_t>(ids.size() - 1);
    const Status read = forEachWindow(ids, context, [&](std::size_t, std::span<const TokenId> window) -> Status {
        std::unique_ptr<Model::State> state = a.newState();
        Result<std::vector<float>> logits = a.forward(*state, window, true);
        if (!logits)
            return logits.error();
        for (std::size_t i = 0; i + 1 < window.size(); ++i) {
            Result<TopNRow> b = rowB(window.first(i + 1), window[i + 1]);
            if (!b)
                return b.error();
            for (const auto& [token, lp] : b->top)
                if (token < 0 || token >= vocab)
                    return Error::badInput(
                        QStringLiteral("model B named token %1, which model A does not have").arg(token));
            const float* row = logits->data() + i * static_cast<std::size_t>(vocab);
            result.perToken.push_back(compareWithTopN(row, vocab, *b, window[i + 1]));
            if (keepTop > 0)
                result.top.push_back(topWithTopN(row, vocab, *b, keepTop));
            if (progress && !progress(static_cast<std::int64_t>(result.perToken.size()), total))
                return cancelled();
        }
        return {};
    });
    if (!read)
        return read.error();
    result.summary = summarize(result.perToken);
    result.ids = std::move(ids);
    return result;
}

} // namespace swb::quantization
