#include <algorithm>

#include "grammar/GrammarAutomaton.h"
#include "grammar/JsonSchemaGrammar.h"
#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

namespace {

// How many of the most probable tokens a grammar refused the trace names.
constexpr std::size_t kRefusedShown = 5;

// Removes every token whose bytes cannot continue a string of the grammar (llama.cpp's grammar sampler,
// placed wherever the strategy puts it), allows the end tokens only where the text is a whole string,
// and advances on the chosen token. threshold: NaN; kept_mass: the mass the grammar let through.
class GrammarSampler final : public ClonableSampler<GrammarSampler> {
public:
    GrammarSampler(std::shared_ptr<GrammarAutomaton> automaton, std::vector<TokenId> endTokens)
        : m_automaton(std::move(automaton))
        , m_endTokens(std::move(endTokens))
        , m_state(m_automaton->start()) {}
    QString name() const override { return QStringLiteral("grammar"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        const std::shared_ptr<const std::vector<std::uint64_t>> allowed =
            GrammarAutomaton::dead(m_state) ? nullptr : m_automaton->allowed(m_state);
        if (!allowed || m_automaton->overflowed()) { // never a silently narrower grammar
            context.deadEnd = m_automaton->overflowed()
                                  ? QStringLiteral("the grammar is too ambiguous to follow: more than %1 ways to read "
                                                   "the text were open at once")
                                        .arg(GrammarAutomaton::kMaxOpenStacks)
                                  : QStringLiteral("the grammar cannot continue the text so far (a token it does not "
                                                   "allow was taken)");
            return;
        }
        const bool complete = m_automaton->complete(m_state);
        const std::span<const TokenId> ends =
            context.endTokens.empty() ? std::span<const TokenId>(m_endTokens) : context.endTokens;
        if (context.tracing)
            (void)candidates.observeSoftmax(); // for the kept mass only: see observeSoftmax()
        const std::uint64_t* bits = allowed->data();
        const std::span<const TokenId> ids = candidates.ids();
        std::vector<std::uint8_t>& keep = m_keep;
        keep.resize(ids.size());
        const auto vocab = static_cast<std::uint32_t>(m_automaton->trie().vocabSize());
        std::size_t kept = 0;
        if (candidates.idOrdered() && ids.size() == vocab) { // the whole vocabulary: index is id
            for (std::size_t i = 0; i < ids.size(); ++i)
                kept += keep[i] = static_cast<std::uint8_t>((bits[i / 64] >> (i % 64)) & 1);
            if (complete)
                for (TokenId end : ends)
                    if (static_cast<std::uint32_t>(end) < vocab && !keep[static_cast<std::size_t>(end)]) {
                        keep[static_cast<std::size_t>(end)] = 1;
                        ++kept;
                    }
        } else {
            for (std::size_t i = 0; i < ids.size(); ++i) {
                const auto id = static_cast<std::uint32_t>(ids[i]);
                bool ok = id < vocab && ((bits[id / 64] >> (id % 64)) & 1);
                if (!ok && complete)
                    ok = std::find(ends.begin(), ends.end(), ids[i]) != ends.end();
                keep[i] = ok;
                kept += ok;
            }
        }
        if (kept == 0) {
            context.deadEnd = candidates.size() < static_cast<std::size_t>(candidates.vocabSize())
                                  ? QStringLiteral("the grammar allows none of the %1 tokens the stages before it left")
                                        .arg(candidates.size())
                                  : QStringLiteral("the grammar allows no token of the vocabulary here");
            return;
        }
        if (candidates.probsValid()) {
            double mass = 0.0;
            for (std::size_t i = 0; i < ids.size(); ++i)
                if (keep[i])
                    mass += candidates.prob(i);
            stage.keptMass = mass;
            if (context.tracing)
                stage.refused = mostProbableRefused(candidates, keep);
        } else {
            stage.keptMass = NAN;
        }
        candidates.keepWhere(keep);
    }

    void accept(TokenId token) override {
        if (std::find(m_endTokens.begin(), m_endTokens.end(), token) != m_endTokens.end())
            return;
        m_state = m_automaton->advance(m_state, m_automaton->trie().piece(token));
    }
    void reset() override { m_state = m_automaton->start(); }

private:
    // The most probable refused tokens (ties by id), kept in a short sorted list in one pass.
    static std::vector<TokenId> mostProbableRefused(const Candidates& candidates,
                                                    const std::vector<std::uint8_t>& keep) {
        std::vector<std::pair<float, TokenId>> best;
        const auto before = [](const std::pair<float, TokenId>& a, const std::pair<float, TokenId>& b) {
            return a.first > b.first || (a.first == b.first && a.second < b.second);
        };
        for (std::size_t i = 0; i < keep.size(); ++i) {
            if (keep[i])
                continue;
            const std::pair<float, TokenId> item{candidates.prob(i), candidates.id(i)};
            if (best.size() == kRefusedShown && !before(item, best.back()))
                continue;
            best.insert(std::upper_bound(best.begin(), best.end(), item, before), item);
            if (best.size() > kRefusedShown)
                best.pop_back();
        }
        std::vector<TokenId> out;
        for (const auto& [p, id] : best)
            out.push_back(id);
        return out;
    }

    std::shared_ptr<GrammarAutomaton> m_automaton;
    std::vector<TokenId> m_endTokens;
    GrammarAutomaton::State m_state;
    std::vector<std::uint8_t> m_keep; // reused between steps
};

// The GBNF text a grammar stage stands for: its gbnf, its json_schema converted, or any JSON.
Result<std::string> grammarText(const QJsonObject& params) {
    const QString gbnf = params.value(QLatin1String("gbnf")).toString();
    const QJsonValue schema = params.value(QLatin1String("json_schema"));
    const bool json = params.value(QLatin1String("json")).toBool();
    const int given = int(!gbnf.isEmpty()) + int(!schema.isNull() && !schema.isUndefined()) + int(json);
    if (given > 1)
        return Error::badInput(QStringLiteral("give one of \"gbnf\", \"json_schema\" and \"json\": true, not several"));
    if (!gbnf.isEmpty())
        return gbnf.toStdString();
    if (given == 0 || json) // a bare grammar stage: any JSON
        return anyJsonGbnf();
    return jsonSchemaToGbnf(schema);
}

Result<Grammar> compileGrammar(const QJsonObject& params) {
    Result<std::string> text = grammarText(params);
    if (!text)
        return text.error();
    return parseGbnf(text.value());
}

} // namespace

SamplerDescriptor grammarDescriptor() {
    return {
        QStringLiteral("grammar"),
        QStringLiteral("llama.cpp"),
        QStringLiteral("Allows only tokens that continue a string of a grammar (GBNF, a JSON schema, or any "
                       "JSON)."),
        {{QStringLiteral("gbnf"), ParamSpec::Kind::Text, 0, 0, false, QString(),
          QStringLiteral("A grammar in llama.cpp's GBNF; its start rule is root.")},
         {QStringLiteral("json_schema"), ParamSpec::Kind::Schema, 0, 0, false, QJsonValue(),
          QStringLiteral("A JSON schema the output must follow (converted as llama.cpp converts it).")},
         {QStringLiteral("json"), ParamSpec::Kind::Flag, 0, 0, false, false,
          QStringLiteral("Any JSON value (also what a grammar stage with none of the three allows).")}},
        false,
        [](const QJsonObject& params, const Tokenizer* tokenizer) -> Result<std::unique_ptr<Sampler>> {
            if (!tokenizer)
                return Error::badInput(QStringLiteral("the grammar stage needs the model's tokenizer"));
            Result<Grammar> grammar = compileGrammar(params);
            if (!grammar)
                return grammar.error();
            auto automaton = std::make_shared<GrammarAutomaton>(std::move(grammar).value(), TokenTrie::of(*tokenizer));
            const SpecialTokens& special = tokenizer->specialTokens();
            std::vector<TokenId> ends = special.endOfTurn;
            if (special.eos >= 0)
                ends.push_back(special.eos);
            return std::unique_ptr<Sampler>(std::make_unique<GrammarSampler>(std::move(automaton), std::move(ends)));
        },
        [](const QJsonObject& params, const QString& where) -> Status {
            Result<Grammar> grammar = compileGrammar(params);
            if (!grammar)
                return Error::badInput(QStringLiteral("%1: %2").arg(where, grammar.error().message));
            return {};
        }};
}

} // namespace swb
