// swb bench sampling --grammar FILE: the grammar stage's cost per step.

#include <chrono>
#include <cmath>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "Rng.h"
#include "cli/Subcommand.h"
#include "sampling/GrammarStage.h"
#include "sampling/SamplerChain.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb::cli {

namespace {

// A vocabulary grown to `size` tokens: the first are the real ones, each one after them the pieces of two
// real tokens joined (a seeded choice), so that a grammar meets as many tokens as a larger vocabulary
// gives it, with pieces made of what real tokens are made of.
class GrownTokenizer final : public Tokenizer {
public:
    GrownTokenizer(std::unique_ptr<Tokenizer> base, int size)
        : m_base(std::move(base))
        , m_size(size) {
        Pcg64 rng(17);
        const int n = m_base->vocabSize();
        for (int id = n; id < size; ++id) {
            std::string piece;
            while (piece.empty() || piece.size() > 24) {
                const auto a = static_cast<TokenId>(rng.uniform() * n);
                const auto b = static_cast<TokenId>(rng.uniform() * n);
                piece = m_base->piece(a) + m_base->piece(b);
                if (m_base->isSpecial(a) || m_base->isSpecial(b))
                    piece.clear();
            }
            m_extra.push_back(std::move(piece));
        }
    }
    QString kind() const override { return m_base->kind() + QStringLiteral(" grown to %1").arg(m_size); }
    int vocabSize() const override { return m_size; }
    const SpecialTokens& specialTokens() const override { return m_base->specialTokens(); }
    std::vector<TokenId> encode(const std::string& text, bool addSpecial, bool parseSpecial) const override {
        return m_base->encode(text, addSpecial, parseSpecial);
    }
    std::string decode(const std::vector<TokenId>& ids) const override {
        std::string out;
        for (TokenId id : ids)
            out += piece(id);
        return out;
    }
    std::string piece(TokenId id) const override {
        return id < m_base->vocabSize() ? m_base->piece(id)
                                        : m_extra[static_cast<std::size_t>(id - m_base->vocabSize())];
    }
    std::string tokenText(TokenId id) const override {
        return id < m_base->vocabSize() ? m_base->tokenText(id) : piece(id);
    }
    bool isSpecial(TokenId id) const override { return id < m_base->vocabSize() && m_base->isSpecial(id); }

private:
    std::unique_ptr<Tokenizer> m_base;
    int m_size;
    std::vector<std::string> m_extra;
};

double normal(Pcg64& rng) { // Box-Muller
    const double u = 1.0 - rng.uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * rng.uniform());
}

// A row of logits per step: N(0, 2.5) with the end token at a fixed logit, so that a document, once
// complete, ends after a few steps on average.
std::vector<float> noisyRow(std::size_t vocab, Pcg64& rng, TokenId end) {
    std::vector<float> row(vocab);
    for (float& x : row)
        x = static_cast<float>(normal(rng) * 2.5);
    if (end >= 0 && static_cast<std::size_t>(end) < vocab)
        row[static_cast<std::size_t>(end)] = 12.0f;
    return row;
}

struct Timing {
    double meanUs = 0.0;
    double firstDocumentUs = 0.0; // mean over the first document's steps (cold caches)
    double maxUs = 0.0;
    int documents = 0;
    int deadEnds = 0;
    QString firstDeadEnd;
};

Timing timeChain(SamplerChain chain, const std::vector<std::vector<float>>& rows, int steps, const Tokenizer& tokenizer,
                 bool grammar) {
    Timing timing;
    std::vector<TokenId> history;
    double total = 0.0;
    double first = 0.0;
    int firstSteps = 0;
    const std::vector<TokenId>& endOfTurn = tokenizer.specialTokens().endOfTurn;
    const auto isEnd = [&](TokenId id) {
        return id == tokenizer.specialTokens().eos ||
               std::find(endOfTurn.begin(), endOfTurn.end(), id) != endOfTurn.end();
    };
    for (int i = 0; i < steps; ++i) {
        const std::vector<float>& row = rows[static_cast<std::size_t>(i) % rows.size()];
        const auto start = std::chrono::steady_clock::now();
        Result<StepTrace> trace = chain.sample(row, history, TraceLevel::Full);
        if (trace)
            chain.accept(trace->chosen);
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        total += us;
        timing.maxUs = std::max(timing.maxUs, us);
        if (timing.documents == 0) {
            first += us;
            ++firstSteps;
        }
        const bool ended = !trace || isEnd(trace->chosen);
        if (trace && !ended) {
            history.push_back(trace->chosen);
        }
        if (ended && grammar) {
            ++timing.documents;
            timing.deadEnds += !trace;
            if (!trace && timing.firstDeadEnd.isEmpty())
                timing.firstDeadEnd = trace.error().message;
            chain.reset(static_cast<std::uint64_t>(i));
            history.clear();
        }
    }
    timing.meanUs = total / steps;
    timing.firstDocumentUs = firstSteps ? first / firstSteps : 0.0;
    return timing;
}

} // namespace

int runGrammarBench(const Invocation& call) {
    const int steps = static_cast<int>(call.integer(QStringLiteral("steps"), 2000, 1, 1'000'000));
    if (!call.args.isSet(QStringLiteral("tokenizer")))
        failBadInput(QStringLiteral("--grammar needs --tokenizer PATH (a .gguf, tokenizer.json or model folder)"));
    const QString tokenizerPath = call.args.value(QStringLiteral("tokenizer"));
    Result<std::unique_ptr<Tokenizer>> loaded = loadTokenizer(tokenizerPath);
    if (!loaded)
        failBadInput(loaded.error().message);
    std::unique_ptr<Tokenizer> tokenizer = std::move(loaded).value();
    const int realVocab = tokenizer->vocabSize();
    if (call.args.isSet(QStringLiteral("vocab"))) {
        const int size = static_cast<int>(call.integer(QStringLiteral("vocab"), realVocab, 2, 4'000'000));
        if (size < realVocab)
            failBadInput(
                QStringLiteral("--vocab %1 is smaller than the tokenizer's %2 tokens").arg(size).arg(realVocab));
        tokenizer = std::make_unique<GrownTokenizer>(std::move(tokenizer), size);
    }
    const QString grammarPath = call.args.value(QStringLiteral("grammar"));
    QFile file;
    openInput(file, grammarPath);
    Result<SamplerSpec> stage = grammarStageFromFile(grammarPath, readInput(file, grammarPath));
    if (!stage)
        failBadInput(stage.error().message);
    const Strategy plain = Strategy::parse(QStringLiteral("llamacpp-default")).value();
    Result<Strategy> withGrammar = withGrammarFirst(plain, stage.value());
    if (!withGrammar)
        failBadInput(withGrammar.error().message);

    const auto buildStart = std::chrono::steady_clock::now();
    Result<SamplerChain> grammarChain = SamplerChain::build(withGrammar.value(), tokenizer.get(), 1);
    const double buildMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - buildStart).count();
    if (!grammarChain)
        failBadInput(grammarChain.error().message);
    Result<SamplerChain> plainChain = SamplerChain::build(plain, tokenizer.get(), 1);

    Pcg64 rng(11);
    std::vector<std::vector<float>> rows;
    for (int i = 0; i < 64; ++i)
        rows.push_back(noisyRow(static_cast<std::size_t>(tokenizer->vocabSize()), rng, tokenizer->specialTokens().eos));
    const Timing without = timeChain(std::move(plainChain).value(), rows, steps, *tokenizer, false);
    const Timing with = timeChain(std::move(grammarChain).value(), rows, steps, *tokenizer, true);
    const QJsonObject out{{QStringLiteral("benchmark"), QStringLiteral("sampling --grammar")},
                          {QStringLiteral("tokenizer"), tokenizer->kind()},
                          {QStringLiteral("vocab"), tokenizer->vocabSize()},
                          {QStringLiteral("real_tokens"), realVocab},
                          {QStringLiteral("steps"), steps},
                          {QStringLiteral("chain"), QStringLiteral("llamacpp-default, the grammar first")},
                          {QStringLiteral("logits"), QStringLiteral("N(0, 2.5), the end token at 12")},
                          {QStringLiteral("chain_build_ms"), buildMs},
                          {QStringLiteral("us_per_step_without"), without.meanUs},
                          {QStringLiteral("us_per_step_with"), with.meanUs},
                          {QStringLiteral("grammar_us_per_step"), with.meanUs - without.meanUs},
                          {QStringLiteral("us_per_step_first_document"), with.firstDocumentUs},
                          {QStringLiteral("us_max_step"), with.maxUs},
                          {QStringLiteral("ratio_with_vs_without"), with.meanUs / without.meanUs},
                          {QStringLiteral("documents"), with.documents},
                          {QStringLiteral("dead_ends"), with.deadEnds},
                          {QStringLiteral("first_dead_end"), with.firstDeadEnd}};
    call.out << QJsonDocument(out).toJson(QJsonDocument::Indented);
    return 0;
}

} // namespace swb::cli
