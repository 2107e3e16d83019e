// Decoders beyond one sampled path, on real models. Beam search (transformers' semantics): one beam is
// greedy decoding; with as many beams as there are continuations it finds what exhaustive search over
// all of them finds, for every early_stopping value and two length penalties; `swb generate --json`
// returns the hypotheses best first. Contrastive decoding: with the expert as its own amateur and
// beta 0 it is greedy decoding, without beta it takes the first plausible token; a larger model with the
// demo model as amateur runs end to end; another vocabulary is refused. The decoder field is validated.

#include <cmath>
#include <functional>
#include <map>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "TestSupport.h"
#include "cli/RandomModelWriter.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "sampling/Strategy.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "tokenizer/TokenizerLoader.h"
#include "training/SafeTensorsWriter.h"
#include "workflows/RunRecording.h"

using namespace swb;
using swb::test::demoModel;

namespace {

// A strategy whose chain bans every token but `allowed` (a cut: -inf, the others' log-probs unchanged).
Strategy beamStrategy(int beams, const QJsonValue& earlyStopping, double lengthPenalty, const std::vector<int>& allowed,
                      int vocab, int returned = 1)
{
    QJsonArray banned;
    for (int id = 0; id < vocab; ++id)
        if (std::find(allowed.begin(), allowed.end(), id) == allowed.end())
            banned.append(id);
    QJsonObject json{{"decoder", QJsonObject{{"type", "beam"}, {"beams", beams}, {"early_stopping", earlyStopping},
                                             {"length_penalty", lengthPenalty}, {"return", returned}}},
                     {"samplers", QJsonArray{QJsonObject{{"type", "banned_tokens"}, {"ids", banned}}}}};
    Result<Strategy> strategy = Strategy::fromJson(json);
    if (!strategy)
        qFatal("%s", qPrintable(strategy.error().message));
    return strategy.value();
}

std::vector<float> logSoftmax(const std::vector<float>& row)
{
    double maxLogit = -INFINITY;
    for (float x : row)
        maxLogit = std::max(maxLogit, double(x));
    double sum = 0;
    for (float x : row)
        sum += std::exp(double(x) - maxLogit);
    const double logPartition = maxLogit + std::log(sum);
    std::vector<float> out(row.size());
    for (std::size_t i = 0; i < row.size(); ++i)
        out[i] = float(double(row[i]) - logPartition);
    return out;
}

struct Loaded {
    std::unique_ptr<Model> model;
    std::unique_ptr<Tokenizer> tokenizer;
};

Loaded loadDemo()
{
    Loaded loaded;
    loaded.model = Model::load(demoModel()).value();
    loaded.tokenizer = loadTokenizer(demoModel()).value();
    return loaded;
}

QJsonObject banStops(const Generator& generator)
{
    QJsonArray stops;
    for (TokenId id : generator.stopTokens())
        stops.append(id);
    return QJsonObject{{"type", "banned_tokens"}, {"ids", stops}};
}

Strategy strategyOf(const QJsonObject& json)
{
    Result<Strategy> strategy = Strategy::fromJson(json);
    if (!strategy)
        qFatal("%s", qPrintable(strategy.error().message));
    return strategy.value();
}

std::vector<TokenId> tokensOfSteps(const GenerationResult& result)
{
    std::vector<TokenId> tokens;
    for (const GeneratedStep& step : result.steps)
        tokens.push_back(step.token);
    return tokens;
}

// Unit-length copy, in double.
std::vector<double> unit(const float* h, int dim)
{
    double norm = 0;
    for (int i = 0; i < dim; ++i)
        norm += double(h[i]) * h[i];
    norm = std::sqrt(norm);
    std::vector<double> out(std::size_t(dim), 0.0);
    for (int i = 0; i < dim; ++i)
        out[std::size_t(i)] = h[i] / norm;
    return out;
}

} // namespace

class TestDecoders : public QObject {
    Q_OBJECT

private slots:
    void oneBeamIsGreedy();
    void manyBeamsFindTheExhaustiveBest_data();
    void manyBeamsFindTheExhaustiveBest();
    void decoderFieldIsValidated_data();
    void decoderFieldIsValidated();
    void generateReturnsHypotheses();
    void contrastiveWithItselfAndBetaZeroIsGreedy();
    void contrastiveWithItselfTakesTheFirstPlausibleToken();
    void contrastiveWithTheDemoModelAsAmateur();
    void guidance();
    void beamSamplingDrawsWithoutReplacement();
    void beamSamplingWithAsManyDrawsAsCandidatesIsGreedy();
    void groupBeamWithOneGroupIsBeamSearch();
    void groupBeamDiversityPenaltyMovesLaterGroups();
    void forcedWordsAppearInEveryHypothesis();
    void contrastiveSearchWithoutPenaltyIsGreedy();
    void contrastiveSearchScoresAsWorkedOut();
    void beamDecodersRunInBatch();
};

void TestDecoders::oneBeamIsGreedy()
{
    Result<std::unique_ptr<Model>> model = Model::load(demoModel());
    QVERIFY(model);
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
    QVERIFY(tokenizer);
    Generator generator(*model.value(), *tokenizer.value());
    // With the end tokens banned, one beam takes the most likely token every step: greedy decoding.
    QJsonArray stops;
    for (TokenId id : generator.stopTokens())
        stops.append(id);
    const QJsonObject ban{{"type", "banned_tokens"}, {"ids", stops}};
    GenerationRequest greedy;
    greedy.prompt = "And God said";
    greedy.maxTokens = 24;
    greedy.strategy = Strategy::fromJson(QJsonObject{{"samplers", QJsonArray{ban, QJsonObject{{"type", "greedy"}}}}}).value();
    const Result<GenerationResult> expected = generator.generate(greedy);
    QVERIFY(expected);
    GenerationRequest beam = greedy;
    beam.strategy = Strategy::fromJson(QJsonObject{{"decoder", QJsonObject{{"type", "beam"}, {"beams", 1}}},
                                                   {"samplers", QJsonArray{ban}}})
                        .value();
    const Result<BeamResult> result = generator.beamSearch(beam);
    QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
    QCOMPARE(result->hypotheses.size(), std::size_t(1));
    std::vector<TokenId> tokens;
    for (const GeneratedStep& step : expected->steps)
        tokens.push_back(step.token);
    QCOMPARE(result->hypotheses[0].tokens, tokens);
    QCOMPARE(result->hypotheses[0].text, expected->text);
    QCOMPARE(result->steps.size(), tokens.size());
}

void TestDecoders::manyBeamsFindTheExhaustiveBest_data()
{
    QTest::addColumn<QJsonValue>("earlyStopping");
    QTest::addColumn<double>("lengthPenalty");
    for (double penalty : {1.0, 2.0})
        for (const QJsonValue& early : {QJsonValue(true), QJsonValue(false), QJsonValue(QStringLiteral("never"))}) {
            const QString name = QStringLiteral("early_stopping %1, length_penalty %2")
                                     .arg(early.isBool() ? (early.toBool() ? "true" : "false") : "never")
                                     .arg(penalty);
            QTest::newRow(qPrintable(name)) << early << penalty;
        }
}

void TestDecoders::manyBeamsFindTheExhaustiveBest()
{
    QFETCH(QJsonValue, earlyStopping);
    QFETCH(double, lengthPenalty);
    QTemporaryDir dir;
    cli::RandomShape shape;
    shape.dim = 32;
    shape.layers = 2;
    shape.heads = 4;
    shape.hidden = 64;
    shape.vocab = 300;
    shape.context = 32;
    const QString path = dir.filePath("random.gguf");
    QCOMPARE(cli::writeRandomGguf(path, shape, QStringLiteral("f32"), 7), QString());
    Result<std::unique_ptr<Model>> model = Model::load(path);
    QVERIFY(model);
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(path);
    QVERIFY(tokenizer);
    Generator generator(*model.value(), *tokenizer.value());
    QCOMPARE(generator.stopTokens(), std::vector<TokenId>{2});

    // Six tokens, EOS (2) among them; continuations of up to three tokens: 6 + 36 + 216 of them at most.
    const std::vector<int> allowed{2, 40, 41, 77, 150, 299};
    const std::vector<TokenId> prompt{1, 100, 101};
    const int n = 3;

    // Exhaustive search: every sequence that ends with EOS or reaches n tokens, scored as transformers
    // scores a hypothesis: the sum of its log-probabilities over its length (EOS counted) ^ penalty.
    double bestScore = -INFINITY;
    std::vector<TokenId> bestTokens;
    std::function<void(std::vector<TokenId>&, std::unique_ptr<Model::State>&, const std::vector<float>&, double)> walk =
        [&](std::vector<TokenId>& tokens, std::unique_ptr<Model::State>& state, const std::vector<float>& logits,
            double sum) {
            const std::vector<float> lp = logSoftmax(logits);
            for (int t : allowed) {
                const double s = sum + double(lp[std::size_t(t)]);
                tokens.push_back(t);
                if (t == 2 || int(tokens.size()) == n) {
                    const double score = s / std::pow(double(tokens.size()), lengthPenalty);
                    if (score > bestScore) {
                        bestScore = score;
                        bestTokens = tokens;
                    }
                } else {
                    std::unique_ptr<Model::State> next = model.value()->cloneState(*state);
                    const TokenId token = t;
                    Result<std::vector<float>> nextLogits = model.value()->forward(*next, std::span<const TokenId>(&token, 1));
                    QVERIFY(nextLogits);
                    walk(tokens, next, nextLogits.value(), s);
                }
                tokens.pop_back();
            }
        };
    std::unique_ptr<Model::State> state = model.value()->newState();
    Result<std::vector<float>> first = model.value()->forward(*state, prompt);
    QVERIFY(first);
    std::vector<TokenId> tokens;
    walk(tokens, state, first.value(), 0.0);
    QVERIFY(!bestTokens.empty());

    GenerationRequest request;
    request.promptIds = prompt;
    request.usePromptIds = true;
    request.maxTokens = n;
    request.strategy = beamStrategy(216, earlyStopping, lengthPenalty, allowed, shape.vocab, 3);
    const Result<BeamResult> result = generator.beamSearch(request);
    QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
    QCOMPARE(result->hypotheses.size(), std::size_t(3));
    QCOMPARE(result->hypotheses[0].tokens, bestTokens);
    QVERIFY(std::abs(result->hypotheses[0].score - bestScore) < 1e-5);
    // Best first.
    QVERIFY(result->hypotheses[0].score >= result->hypotheses[1].score);
    QVERIFY(result->hypotheses[1].score >= result->hypotheses[2].score);
    for (const BeamHypothesis& h : result->hypotheses)
        for (TokenId t : h.tokens)
            QVERIFY(std::find(allowed.begin(), allowed.end(), t) != allowed.end());
}

void TestDecoders::decoderFieldIsValidated_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown type") << R"({"decoder": {"type": "viterbi"}, "samplers": []})"
                                  << "decoder: unknown type 'viterbi' (known: sample, beam, group_beam, contrastive_search, contrastive_decoding, cfg)";
    QTest::newRow("no beams") << R"({"decoder": {"type": "beam", "beams": 0}, "samplers": []})"
                              << "decoder 'beam': field 'beams' must be an integer from 1 to 256";
    QTest::newRow("return above beams") << R"({"decoder": {"type": "beam", "beams": 2, "return": 3}, "samplers": []})"
                                        << "decoder 'beam': field 'return' must be an integer from 1 to beams (2)";
    QTest::newRow("early stopping word") << R"({"decoder": {"type": "beam", "early_stopping": "soon"}, "samplers": []})"
                                         << "decoder 'beam': field 'early_stopping' must be true, false or \"never\"";
    QTest::newRow("unknown field") << R"({"decoder": {"type": "beam", "width": 3}, "samplers": []})"
                                   << "decoder 'beam': unknown field 'width'";
    QTest::newRow("not an object") << R"({"decoder": "beam", "samplers": []})"
                                   << "strategy: field 'decoder' must be an object such as {\"type\": \"beam\"}";
    QTest::newRow("contrastive without amateur") << R"({"decoder": {"type": "contrastive_decoding"}, "samplers": []})"
        << "decoder 'contrastive_decoding': field 'amateur' must name the amateur model (a folder or file path)";
    QTest::newRow("contrastive alpha 0") << R"({"decoder": {"type": "contrastive_decoding", "amateur": "m", "alpha": 0}, "samplers": []})"
                                         << "decoder 'contrastive_decoding': field 'alpha' must be a number in (0, 1]";
    QTest::newRow("contrastive beta negative")
        << R"({"decoder": {"type": "contrastive_decoding", "amateur": "m", "beta": -1}, "samplers": []})"
        << "decoder 'contrastive_decoding': field 'beta' must be a number of 0 or more";
    QTest::newRow("do_sample not a bool") << R"({"decoder": {"type": "beam", "do_sample": 1}, "samplers": []})"
                                          << "decoder 'beam': field 'do_sample' must be true or false";
    QTest::newRow("forced words sampled")
        << R"({"decoder": {"type": "beam", "do_sample": true, "force_words": ["light"]}, "samplers": []})"
        << "decoder 'beam': force_words and do_sample do not go together (transformers' constrained beam search is not sampled)";
    QTest::newRow("forced word empty") << R"({"decoder": {"type": "beam", "force_words": ["light", ""]}, "samplers": []})"
        << "decoder 'beam': field 'force_words' must be a list of up to 16 words, each a non-empty string or a list of "
           "alternative strings";
    QTest::newRow("forced words not a list") << R"({"decoder": {"type": "beam", "force_words": "light"}, "samplers": []})"
        << "decoder 'beam': field 'force_words' must be a list of up to 16 words, each a non-empty string or a list of "
           "alternative strings";
    QTest::newRow("groups not dividing") << R"({"decoder": {"type": "group_beam", "beams": 4, "groups": 3}, "samplers": []})"
                                         << "decoder 'group_beam': field 'groups' must be an integer that divides beams (4)";
    QTest::newRow("diversity NaN-like") << R"({"decoder": {"type": "group_beam", "diversity_penalty": "x"}, "samplers": []})"
                                        << "decoder 'group_beam': field 'diversity_penalty' must be a number of 0 or more";
    QTest::newRow("group beam sampled") << R"({"decoder": {"type": "group_beam", "do_sample": true}, "samplers": []})"
                                        << "decoder 'group_beam': unknown field 'do_sample'";
    QTest::newRow("search alpha") << R"({"decoder": {"type": "contrastive_search", "penalty_alpha": 1.5}, "samplers": []})"
                                  << "decoder 'contrastive_search': field 'penalty_alpha' must be a number in [0, 1]";
    QTest::newRow("search top_k") << R"({"decoder": {"type": "contrastive_search", "top_k": 0}, "samplers": []})"
                                  << "decoder 'contrastive_search': field 'top_k' must be an integer from 1 to 256";
}

void TestDecoders::decoderFieldIsValidated()
{
    QFETCH(QString, json);
    QFETCH(QString, error);
    const Result<Strategy> strategy = Strategy::parse(json);
    QVERIFY(!strategy);
    QCOMPARE(strategy.error().message, error);
    const auto run = swb::test::runSwbProcess({"generate", "--prompt", "x", "--strategy", json});
    QCOMPARE(run.status, 2);
    QCOMPARE(QString::fromUtf8(run.err).trimmed(), QStringLiteral("swb: ") + error);
}

void TestDecoders::generateReturnsHypotheses()
{
    // A warper in a beam chain is refused, naming it (beam sampling takes warpers; mirostat is neither).
    const auto warper = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--strategy",
        R"({"decoder": {"type": "beam"}, "samplers": [{"type": "top_k", "k": 5}]})"});
    QCOMPARE(warper.status, 2);
    QVERIFY2(warper.err.contains("beam search applies logits processors only") && warper.err.contains("'top_k'"),
             warper.err.constData());
    const auto mirostat = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--strategy",
        R"({"decoder": {"type": "beam", "do_sample": true}, "samplers": [{"type": "xtc"}]})"});
    QCOMPARE(mirostat.status, 2);
    QVERIFY2(mirostat.err.contains("beam search applies logits processors") && mirostat.err.contains("'xtc'"),
             mirostat.err.constData());
    QTemporaryDir dir;
    const QString store = dir.filePath("runs.sqlite");

    const auto run = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--max-tokens", "10", "--json",
        "--db", store, "--trace", dir.filePath("beams.jsonl"), "--strategy",
        R"({"decoder": {"type": "beam", "beams": 4, "return": 4, "length_penalty": 0.7}, "samplers": []})"});
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    const QJsonArray hypotheses = out.value("hypotheses").toArray();
    QCOMPARE(hypotheses.size(), 4);
    QCOMPARE(out.value("text").toString(), hypotheses.at(0).toObject().value("text").toString());
    for (int i = 0; i < hypotheses.size(); ++i) {
        const QJsonObject h = hypotheses.at(i).toObject();
        const double length = h.value("tokens").toArray().size();
        // score = sum / length^0.7, best first
        QVERIFY(std::abs(h.value("score").toDouble() - h.value("sum_logprob").toDouble() / std::pow(length, 0.7)) < 1e-9);
        if (i > 0)
            QVERIFY(hypotheses.at(i - 1).toObject().value("score").toDouble() >= h.value("score").toDouble());
    }
    // The run's tokens are the best hypothesis.
    QJsonArray best = hypotheses.at(0).toObject().value("tokens").toArray();
    QCOMPARE(out.value("tokens").toArray(), best);
    // One trace line per step of the search, each with its beams and the candidates it weighed, and the best
    // hypothesis's token and distribution where it has one.
    QFile trace(dir.filePath("beams.jsonl"));
    QVERIFY(trace.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = trace.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), out.value("beam_steps").toInt());
    const QJsonObject step = QJsonDocument::fromJson(lines.front()).object();
    const QJsonObject beamStep = step.value("beam").toObject();
    QCOMPARE(beamStep.value("beams").toArray().size(), 4);
    QCOMPARE(beamStep.value("candidates").toArray().size(), 8); // 2 x beams, one EOS id
    for (const QJsonValue& beam : beamStep.value("beams").toArray())
        QCOMPARE(beam.toObject().value("parent").toInt(), 0); // the first step extends the prompt's beam only
    QCOMPARE(step.value("chosen").toInt(), best.at(0).toInt());

    // The run store keeps the run (its text, the best hypothesis) and the whole search.
    Result<std::unique_ptr<Database>> db = Database::open(store);
    QVERIFY(db);
    RunRepository runs(*db.value());
    const Result<RunRecord> saved = runs.loadRun(out.value("run_id").toInteger());
    QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().message));
    QCOMPARE(saved->text, out.value("text").toString());
    QCOMPARE(int(saved->steps.size()), best.size());
    const Result<DecoderRecord> record = decoderRecord(saved.value());
    QVERIFY(record);
    QCOMPARE(record->type, QStringLiteral("beam"));
    QVERIFY(record->beam);
    QCOMPARE(int(record->beam->steps.size()), out.value("beam_steps").toInt());
    QCOMPARE(int(record->beam->hypotheses.size()), 4);
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(QString::fromStdString(record->beam->hypotheses[std::size_t(i)].text),
                 hypotheses.at(i).toObject().value("text").toString());
        QCOMPARE(record->beam->hypotheses[std::size_t(i)].score, hypotheses.at(i).toObject().value("score").toDouble());
    }
    QCOMPARE(int(record->beam->steps.front().candidates.size()), 8);
}

namespace {

Strategy contrastive(const QString& amateur, const QJsonValue& beta, double alpha = 0.1)
{
    QJsonObject decoder{{"type", "contrastive_decoding"}, {"amateur", amateur}, {"alpha", alpha}};
    if (!beta.isUndefined())
        decoder.insert("beta", beta);
    return Strategy::fromJson(QJsonObject{{"decoder", decoder}, {"samplers", QJsonArray{QJsonObject{{"type", "greedy"}}}}})
        .value();
}

std::vector<TokenId> tokensOf(const GenerationResult& result)
{
    std::vector<TokenId> tokens;
    for (const GeneratedStep& step : result.steps)
        tokens.push_back(step.token);
    return tokens;
}

} // namespace

void TestDecoders::contrastiveWithItselfAndBetaZeroIsGreedy()
{
    Result<std::unique_ptr<Model>> model = Model::load(demoModel());
    QVERIFY(model);
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
    QVERIFY(tokenizer);
    Generator generator(*model.value(), *tokenizer.value());
    GenerationRequest request;
    request.prompt = "In the beginning";
    request.maxTokens = 30;
    request.strategy = Strategy::parse("greedy").value();
    const Result<GenerationResult> greedy = generator.generate(request);
    QVERIFY(greedy);
    // (1 + 0) logit_expert - 0 logit_amateur: the expert's own logits on the plausible set, whose best is
    // the expert's best.
    request.strategy = contrastive(demoModel(), 0.0);
    const Result<GenerationResult> cd = generator.generate(request);
    QVERIFY2(cd, qPrintable(cd ? QString() : cd.error().message));
    QCOMPARE(tokensOf(cd.value()), tokensOf(greedy.value()));
    QCOMPARE(cd->text, greedy->text);
}

void TestDecoders::contrastiveWithItselfTakesTheFirstPlausibleToken()
{
    Result<std::unique_ptr<Model>> model = Model::load(demoModel());
    QVERIFY(model);
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
    QVERIFY(tokenizer);
    Generator generator(*model.value(), *tokenizer.value());
    GenerationRequest request;
    request.prompt = "In the beginning";
    request.maxTokens = 20;
    request.strategy = contrastive(demoModel(), QJsonValue(QJsonValue::Undefined), 0.2);
    const Result<GenerationResult> cd = generator.generate(request);
    QVERIFY2(cd, qPrintable(cd ? QString() : cd.error().message));
    // log p_e - log p_a = 0 for every plausible token: the greedy selector takes the lowest id among those
    // with p >= 0.2 max p. Worked out here from the expert's own logits, step by step.
    std::unique_ptr<Model::State> state = model.value()->newState();
    Result<std::vector<float>> logits = model.value()->forward(*state, cd->promptIds);
    QVERIFY(logits);
    for (const GeneratedStep& step : cd->steps) {
        const std::vector<float>& row = logits.value();
        const float best = *std::max_element(row.begin(), row.end());
        TokenId expected = -1;
        for (std::size_t v = 0; v < row.size() && expected < 0; ++v)
            if (double(row[v]) >= double(best) + std::log(0.2))
                expected = TokenId(v);
        QCOMPARE(step.token, expected);
        const TokenId token = step.token;
        logits = model.value()->forward(*state, std::span<const TokenId>(&token, 1));
        QVERIFY(logits);
    }
}

void TestDecoders::contrastiveWithTheDemoModelAsAmateur()
{
    // A larger expert (random weights, twice the width, six layers) that reads the demo model's tokenizer.
    QTemporaryDir dir;
    QVERIFY(QFile::copy(demoModel() + "/tokenizer.json", dir.filePath("tokenizer.json")));
    const int vocab = 2048, dim = 256, layers = 6, hidden = 768;
    QJsonObject config{{"architectures", QJsonArray{"LlamaForCausalLM"}}, {"model_type", "llama"},
        {"hidden_size", dim}, {"intermediate_size", hidden}, {"num_attention_heads", 8}, {"num_key_value_heads", 8},
        {"num_hidden_layers", layers}, {"vocab_size", vocab}, {"max_position_embeddings", 128}, {"rms_norm_eps", 1e-5},
        {"rope_theta", 10000}, {"tie_word_embeddings", true}, {"bos_token_id", 0}, {"eos_token_id", 0},
        {"torch_dtype", "float32"}};
    QFile configFile(dir.filePath("config.json"));
    QVERIFY(configFile.open(QIODevice::WriteOnly));
    configFile.write(QJsonDocument(config).toJson());
    configFile.close();
    std::uint64_t seed = 12345;
    const auto random = [&](std::int64_t count, float scale) {
        QByteArray data(int(count * 4), Qt::Uninitialized);
        auto* f = reinterpret_cast<float*>(data.data());
        for (std::int64_t i = 0; i < count; ++i) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            f[i] = scale * (float((seed >> 40) & 0xFFFFFF) / float(1 << 24) - 0.5f);
        }
        return data;
    };
    const auto ones = [](std::int64_t count) {
        std::vector<float> v(std::size_t(count), 1.0f);
        return QByteArray(reinterpret_cast<const char*>(v.data()), int(count * 4));
    };
    SafeTensorsWriter writer;
    writer.add("model.embed_tokens.weight", "F32", {vocab, dim}, random(std::int64_t(vocab) * dim, 0.1f));
    for (int l = 0; l < layers; ++l) {
        const QString p = QStringLiteral("model.layers.%1.").arg(l);
        writer.add(p + "input_layernorm.weight", "F32", {dim}, ones(dim));
        writer.add(p + "post_attention_layernorm.weight", "F32", {dim}, ones(dim));
        for (const char* m : {"q_proj", "k_proj", "v_proj", "o_proj"})
            writer.add(p + "self_attn." + m + ".weight", "F32", {dim, dim}, random(std::int64_t(dim) * dim, 0.1f));
        writer.add(p + "mlp.gate_proj.weight", "F32", {hidden, dim}, random(std::int64_t(hidden) * dim, 0.1f));
        writer.add(p + "mlp.up_proj.weight", "F32", {hidden, dim}, random(std::int64_t(hidden) * dim, 0.1f));
        writer.add(p + "mlp.down_proj.weight", "F32", {dim, hidden}, random(std::int64_t(hidden) * dim, 0.1f));
    }
    writer.add("model.norm.weight", "F32", {dim}, ones(dim));
    QVERIFY(writer.write(dir.filePath("model.safetensors")));

    const QString strategy = QStringLiteral(R"({"decoder": {"type": "contrastive_decoding", "amateur": "%1"}, )"
                                            R"("samplers": [{"type": "greedy"}]})")
                                 .arg(demoModel());
    const auto run = swb::test::runSwbProcess({"generate", "--model", dir.path(), "--prompt", "And God said", "--max-tokens",
                                               "12", "--json", "--strategy", strategy});
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(out.value("tokens").toArray().size(), 12);
    QCOMPARE(out.value("strategy").toObject().value("decoder").toObject().value("amateur").toString(), demoModel());
    // An amateur with another vocabulary: one sentence, exit 2.
    if (!swb::test::referenceDir().isEmpty()) {
        const auto other = swb::test::runSwbProcess({"generate", "--model", dir.path(), "--prompt", "x", "--strategy",
            QStringLiteral(R"({"decoder": {"type": "contrastive_decoding", "amateur": "%1"}, "samplers": []})")
                .arg(swb::test::referenceDir() + "/stories260K/stories260K.bin")});
        QCOMPARE(other.status, 2);
        QVERIFY2(other.err.contains("does not share the expert's vocabulary (512 tokens against 2048"), other.err.constData());
    }
}

void TestDecoders::guidance()
{
    Result<std::unique_ptr<Model>> model = Model::load(demoModel());
    QVERIFY(model);
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
    QVERIFY(tokenizer);
    Generator generator(*model.value(), *tokenizer.value());
    const auto run = [&](const std::string& prompt, const char* strategy) {
        GenerationRequest request;
        request.prompt = prompt;
        request.maxTokens = 24;
        request.strategy = Strategy::parse(QString::fromUtf8(strategy)).value();
        Result<GenerationResult> result = generator.generate(request);
        if (!result)
            qFatal("%s", qPrintable(result.error().message));
        return tokensOf(result.value());
    };
    const std::vector<TokenId> greedy = run("And God said", "greedy");
    // Scale 1: the conditional log-probabilities alone, so greedy decoding.
    QCOMPARE(run("And God said", R"({"decoder": {"type": "cfg", "guidance_scale": 1}, "samplers": [{"type": "greedy"}]})"),
             greedy);
    // Scale 0: the unconditional side alone, which reads the negative prompt and then the same tokens, so
    // greedy decoding from the negative prompt.
    QCOMPARE(run("And God said",
                 R"({"decoder": {"type": "cfg", "guidance_scale": 0, "negative_prompt": "In the beginning"}, )"
                 R"("samplers": [{"type": "greedy"}]})"),
             run("In the beginning", "greedy"));
    // Guidance away from the negative prompt changes the text.
    QVERIFY(run("And God said", R"({"decoder": {"type": "cfg", "guidance_scale": 3, "negative_prompt": "And the LORD"}, )"
                                R"("samplers": [{"type": "greedy"}]})")
            != greedy);
    const Result<Strategy> bad = Strategy::parse(R"({"decoder": {"type": "cfg", "guidance_scale": "big"}, "samplers": []})");
    QVERIFY(!bad);
    QCOMPARE(bad.error().message, QStringLiteral("decoder 'cfg': field 'guidance_scale' must be a finite number"));
}

QTEST_GUILESS_MAIN(TestDecoders)
#include "tst_decoders.moc"

void TestDecoders::beamSamplingDrawsWithoutReplacement()
{
    // One beam, one step, top_k 6: the candidates are `keep` = max(2, 1 + #EOS) tokens drawn without replacement
    // with probability proportional to p among the six, and the one with the best score is kept. Worked out
    // here by enumerating every ordered draw, then compared with 3,000 seeded searches.
    Loaded demo = loadDemo();
    Generator generator(*demo.model, *demo.tokenizer);
    GenerationRequest request;
    request.prompt = "And God said";
    request.maxTokens = 1;
    const QJsonObject ban = banStops(generator);
    const std::size_t keep = std::max<std::size_t>(2, 1 + generator.stopTokens().size());

    std::unique_ptr<Model::State> state = demo.model->newState();
    const std::vector<TokenId> prompt = generator.encodePrompt(request.prompt, false);
    const std::vector<float> logits = demo.model->forward(*state, prompt).value();
    std::vector<float> lp = logSoftmax(logits);
    for (TokenId id : generator.stopTokens())
        lp[std::size_t(id)] = -INFINITY;
    std::vector<int> top(lp.size());
    for (std::size_t i = 0; i < top.size(); ++i)
        top[i] = int(i);
    std::partial_sort(top.begin(), top.begin() + 6, top.end(), [&](int a, int b) { return lp[std::size_t(a)] > lp[std::size_t(b)]; });
    top.resize(6);
    double mass = 0;
    for (int t : top)
        mass += std::exp(double(lp[std::size_t(t)]));
    std::map<int, double> expected;
    std::function<void(std::vector<int>&, double, double)> walk = [&](std::vector<int>& drawn, double p, double taken) {
        if (drawn.size() == keep) {
            expected[*std::max_element(drawn.begin(), drawn.end(), [&](int a, int b) { return lp[std::size_t(a)] < lp[std::size_t(b)]; })] += p;
            return;
        }
        for (int t : top) {
            if (std::find(drawn.begin(), drawn.end(), t) != drawn.end())
                continue;
            const double q = std::exp(double(lp[std::size_t(t)])) / mass;
            drawn.push_back(t);
            walk(drawn, p * q / (1.0 - taken), taken + q);
            drawn.pop_back();
        }
    };
    std::vector<int> drawn;
    walk(drawn, 1.0, 0.0);

    const int trials = 3000;
    std::map<int, int> counts;
    for (int seed = 0; seed < trials; ++seed) {
        request.strategy = strategyOf(QJsonObject{
            {"seed", seed},
            {"decoder", QJsonObject{{"type", "beam"}, {"beams", 1}, {"do_sample", true}}},
            {"samplers", QJsonArray{ban, QJsonObject{{"type", "top_k"}, {"k", 6}}}}});
        const Result<BeamResult> result = generator.beamSearch(request);
        QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
        ++counts[result->hypotheses.at(0).tokens.at(0)];
    }
    for (int t : top) {
        const double p = expected[t];
        const double observed = double(counts[t]) / trials;
        const double sigma = std::sqrt(p * (1 - p) / trials);
        QVERIFY2(std::abs(observed - p) <= 4.5 * sigma + 1e-3,
                 qPrintable(QStringLiteral("token %1: drawn %2, expected %3").arg(t).arg(observed).arg(p)));
    }
    // The least likely of the six can never be the best of two or more draws.
    QCOMPARE(counts[top.back()], 0);
}

void TestDecoders::beamSamplingWithAsManyDrawsAsCandidatesIsGreedy()
{
    // top_k 2 leaves each step two candidates; with one beam both are drawn and the better kept: greedy.
    Loaded demo = loadDemo();
    Generator generator(*demo.model, *demo.tokenizer);
    const QJsonObject ban = banStops(generator);
    GenerationRequest request;
    request.prompt = "In the beginning";
    request.maxTokens = 16;
    request.strategy = strategyOf(QJsonObject{{"samplers", QJsonArray{ban, QJsonObject{{"type", "greedy"}}}}});
    const Result<GenerationResult> greedy = generator.generate(request);
    QVERIFY(greedy);
    request.strategy = strategyOf(QJsonObject{
        {"seed", 7},
        {"decoder", QJsonObject{{"type", "beam"}, {"beams", 1}, {"do_sample", true}}},
        {"samplers", QJsonArray{ban, QJsonObject{{"type", "top_k"}, {"k", 2}}}}});
    const Result<GenerationResult> sampled = generator.generate(request);
    QVERIFY2(sampled, qPrintable(sampled ? QString() : sampled.error().message));
    QCOMPARE(tokensOfSteps(sampled.value()), tokensOfSteps(greedy.value()));
    // Each step is traced with the distribution the warpers left: two candidates, the chosen one's share.
    for (const GeneratedStep& step : sampled->steps) {
        QCOMPARE(step.trace.finalCount, 2);
        QVERIFY(step.trace.finalP >= 0.5f);
        QVERIFY(std::isnan(step.trace.draw));
    }
}

void TestDecoders::groupBeamWithOneGroupIsBeamSearch()
{
    Loaded demo = loadDemo();
    Generator generator(*demo.model, *demo.tokenizer);
    GenerationRequest request;
    request.prompt = "And the earth was";
    request.maxTokens = 12;
    request.strategy = strategyOf(QJsonObject{
        {"decoder", QJsonObject{{"type", "beam"}, {"beams", 4}, {"return", 4}, {"length_penalty", 0.8}}},
        {"samplers", QJsonArray{}}});
    const Result<BeamResult> beam = generator.beamSearch(request);
    QVERIFY(beam);
    request.strategy = strategyOf(QJsonObject{
        {"decoder", QJsonObject{{"type", "group_beam"}, {"beams", 4}, {"groups", 1}, {"return", 4}, {"length_penalty", 0.8},
                                {"diversity_penalty", 5.0}}},
        {"samplers", QJsonArray{}}});
    const Result<BeamResult> group = generator.beamSearch(request);
    QVERIFY2(group, qPrintable(group ? QString() : group.error().message));
    QCOMPARE(group->hypotheses.size(), beam->hypotheses.size());
    for (std::size_t i = 0; i < beam->hypotheses.size(); ++i) {
        QCOMPARE(group->hypotheses[i].tokens, beam->hypotheses[i].tokens);
        QCOMPARE(group->hypotheses[i].score, beam->hypotheses[i].score);
    }
}

void TestDecoders::groupBeamDiversityPenaltyMovesLaterGroups()
{
    // Two groups of one beam, one step, end tokens banned. Group 0 takes the most likely token; group 1 loses
    // diversity_penalty on that token: with 0 it takes it too, with 1,000 it takes the second most likely.
    // With 0.5 it takes the second only when log p1 - 0.5 < log p2, worked out here.
    Loaded demo = loadDemo();
    Generator generator(*demo.model, *demo.tokenizer);
    const QJsonObject ban = banStops(generator);
    GenerationRequest request;
    request.prompt = "And God said";
    request.maxTokens = 1;
    std::unique_ptr<Model::State> state = demo.model->newState();
    std::vector<float> lp = logSoftmax(demo.model->forward(*state, generator.encodePrompt(request.prompt, false)).value());
    for (TokenId id : generator.stopTokens())
        lp[std::size_t(id)] = -INFINITY;
    std::vector<int> order(lp.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::partial_sort(order.begin(), order.begin() + 2, order.end(), [&](int a, int b) { return lp[std::size_t(a)] > lp[std::size_t(b)]; });
    for (double penalty : {0.0, 0.5, 1000.0}) {
        request.strategy = strategyOf(QJsonObject{
            {"decoder", QJsonObject{{"type", "group_beam"}, {"beams", 2}, {"groups", 2}, {"return", 2},
                                    {"diversity_penalty", penalty}}},
            {"samplers", QJsonArray{ban}}});
        const Result<BeamResult> result = generator.beamSearch(request);
        QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
        QCOMPARE(result->steps.size(), std::size_t(1));
        const BeamStep& step = result->steps.front();
        QCOMPARE(step.tokens.size(), std::size_t(2));
        QCOMPARE(step.groups, (std::vector<int>{0, 1}));
        QCOMPARE(step.tokens[0], order[0]);
        const bool second = double(lp[std::size_t(order[0])]) - penalty < double(lp[std::size_t(order[1])]);
        QCOMPARE(step.tokens[1], second ? order[1] : order[0]);
        // Group 1's score is its log-probability less the penalty it paid.
        const double paid = second ? 0.0 : penalty;
        QVERIFY(std::abs(step.scores[1] - (double(lp[std::size_t(step.tokens[1])]) - paid)) < 1e-5);
    }
}

void TestDecoders::forcedWordsAppearInEveryHypothesis()
{
    Loaded demo = loadDemo();
    Generator generator(*demo.model, *demo.tokenizer);
    GenerationRequest request;
    request.prompt = "In the beginning";
    request.maxTokens = 24;
    request.strategy = strategyOf(QJsonObject{
        {"decoder", QJsonObject{{"type", "beam"}, {"beams", 4}, {"return", 3}}}, {"samplers", QJsonArray{}}});
    const Result<BeamResult> free = generator.beamSearch(request);
    QVERIFY(free);
    // A word the unconstrained search does not write, and a choice of two.
    const QString word = QStringLiteral(" water");
    for (const BeamHypothesis& h : free->hypotheses)
        QVERIFY2(!QString::fromStdString(h.text).contains(word), h.text.c_str());
    request.strategy = strategyOf(QJsonObject{
        {"decoder", QJsonObject{{"type", "beam"}, {"beams", 8}, {"return", 3},
                                {"force_words", QJsonArray{word, QJsonArray{" night", " day"}}}}},
        {"samplers", QJsonArray{}}});
    const Result<BeamResult> forced = generator.beamSearch(request);
    QVERIFY2(forced, qPrintable(forced ? QString() : forced.error().message));
    QCOMPARE(forced->hypotheses.size(), std::size_t(3));
    for (const BeamHypothesis& h : forced->hypotheses) {
        const QString text = QString::fromStdString(h.text);
        QVERIFY2(text.contains(word) && (text.contains(" night") || text.contains(" day")), h.text.c_str());
        QVERIFY(h.wordsForced);
    }
    // With four beams and 24 tokens only two hypotheses manage both words: they come first, then the best of
    // the others, marked.
    request.strategy.decoder.params.insert("beams", 4);
    const Result<BeamResult> narrow = generator.beamSearch(request);
    QVERIFY(narrow);
    QCOMPARE(narrow->hypotheses.size(), std::size_t(3));
    QVERIFY(narrow->hypotheses[0].wordsForced && narrow->hypotheses[1].wordsForced);
    QVERIFY(!narrow->hypotheses[2].wordsForced);
    QVERIFY(narrow->hypotheses[2].score > narrow->hypotheses[0].score);
    // The steps that forced a word show it: a forced candidate that continued.
    bool sawForced = false;
    for (const BeamStep& step : forced->steps)
        for (const BeamCandidate& c : step.candidates)
            sawForced |= c.forced && c.fate == BeamCandidate::Fate::Continued;
    QVERIFY(sawForced);
    // Alternatives where one begins another are refused in one sentence.
    request.strategy = strategyOf(QJsonObject{
        {"decoder", QJsonObject{{"type", "beam"}, {"force_words", QJsonArray{QJsonArray{" the", " the"}}}}},
        {"samplers", QJsonArray{}}});
    const Result<BeamResult> prefix = generator.beamSearch(request);
    QVERIFY(!prefix);
    QVERIFY2(prefix.error().message.contains("no alternative may begin another"), qPrintable(prefix.error().message));
}

void TestDecoders::contrastiveSearchWithoutPenaltyIsGreedy()
{
    Loaded demo = loadDemo();
    Generator generator(*demo.model, *demo.tokenizer);
    GenerationRequest request;
    request.prompt = "And God said";
    request.maxTokens = 20;
    request.strategy = Strategy::parse("greedy").value();
    const Result<GenerationResult> greedy = generator.generate(request);
    QVERIFY(greedy);
    request.strategy = strategyOf(QJsonObject{
        {"decoder", QJsonObject{{"type", "contrastive_search"}, {"penalty_alpha", 0.0}, {"top_k", 5}}}, {"samplers", QJsonArray{}}});
    const Result<GenerationResult> search = generator.generate(request);
    QVERIFY2(search, qPrintable(search ? QString() : search.error().message));
    QCOMPARE(tokensOfSteps(search.value()), tokensOfSteps(greedy.value()));
    QCOMPARE(search->text, greedy->text);
}

void TestDecoders::contrastiveSearchScoresAsWorkedOut()
{
    // Every step: the top_k tokens by p; each candidate's last hidden state from a fresh forward pass over the
    // whole text so far plus the candidate (not the search's cache copies); its penalty the largest cosine
    // with the hidden states of every earlier position; score (1 - a) p - a penalty; the best is taken.
    Loaded demo = loadDemo();
    Generator generator(*demo.model, *demo.tokenizer);
    const double alpha = 0.6;
    const int topK = 4;
    GenerationRequest request;
    request.prompt = "And the LORD said unto Moses";
    request.maxTokens = 6;
    request.strategy = strategyOf(QJsonObject{
        {"decoder", QJsonObject{{"type", "contrastive_search"}, {"penalty_alpha", alpha}, {"top_k", topK}}},
        {"samplers", QJsonArray{}}});
    const Result<GenerationResult> search = generator.generate(request);
    QVERIFY2(search, qPrintable(search ? QString() : search.error().message));
    QVERIFY(!search->steps.empty());
    const int dim = demo.model->info().dim;
    std::vector<TokenId> text = search->promptIds;
    for (const GeneratedStep& step : search->steps) {
        std::unique_ptr<Model::State> state = demo.model->newState();
        std::vector<float> hidden;
        const std::vector<float> logits = demo.model->forward(*state, text, false, &hidden).value();
        QCOMPARE(hidden.size(), text.size() * std::size_t(dim));
        const std::vector<float> lp = logSoftmax(logits);
        std::vector<int> order(lp.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = int(i);
        std::partial_sort(order.begin(), order.begin() + topK, order.end(),
                          [&](int a, int b) { return lp[std::size_t(a)] > lp[std::size_t(b)]; });
        QCOMPARE(int(step.decoder.candidates.size()), topK);
        int best = -1;
        double bestScore = -INFINITY;
        for (int c = 0; c < topK; ++c) {
            const TokenId token = order[std::size_t(c)];
            std::vector<TokenId> extended = text;
            extended.push_back(token);
            std::unique_ptr<Model::State> fresh = demo.model->newState();
            std::vector<float> all;
            QVERIFY(demo.model->forward(*fresh, extended, false, &all));
            const std::vector<double> h = unit(all.data() + text.size() * std::size_t(dim), dim);
            double penalty = -INFINITY;
            for (std::size_t j = 0; j < text.size(); ++j) {
                const std::vector<double> u = unit(all.data() + j * std::size_t(dim), dim);
                double cosine = 0;
                for (int i = 0; i < dim; ++i)
                    cosine += u[std::size_t(i)] * h[std::size_t(i)];
                penalty = std::max(penalty, cosine);
            }
            const double p = std::exp(double(lp[std::size_t(token)]));
            const double score = (1 - alpha) * p - alpha * penalty;
            if (score > bestScore) {
                bestScore = score;
                best = token;
            }
            const auto it = std::find_if(step.decoder.candidates.begin(), step.decoder.candidates.end(),
                                         [&](const DecoderCandidate& d) { return d.token == token; });
            QVERIFY(it != step.decoder.candidates.end());
            QVERIFY2(std::abs(it->first - p) < 1e-5, qPrintable(QStringLiteral("p %1 vs %2").arg(it->first).arg(p)));
            QVERIFY2(std::abs(it->second - penalty) < 1e-4,
                     qPrintable(QStringLiteral("penalty %1 vs %2").arg(it->second).arg(penalty)));
            QVERIFY(std::abs(it->score - score) < 1e-4);
        }
        QCOMPARE(step.token, best);
        QVERIFY(step.decoder.candidates.front().kept);
        QCOMPARE(step.decoder.candidates.front().token, best);
        text.push_back(step.token);
    }
}

void TestDecoders::beamDecodersRunInBatch()
{
    // `swb batch` takes any decoder as a strategy: a beam search and a sampled strategy, each run stored with
    // its decoder's record.
    QTemporaryDir dir;
    QFile prompts(dir.filePath("prompts.txt"));
    QVERIFY(prompts.open(QIODevice::WriteOnly));
    prompts.write("And God said\nIn the beginning\n");
    prompts.close();
    const QString store = dir.filePath("runs.sqlite");
    const auto run = swb::test::runSwbProcess({"batch", "--prompts", dir.filePath("prompts.txt"), "--max-tokens", "8",
        "--db", store, "--strategy", R"({"name": "beam3", "decoder": {"type": "beam", "beams": 3}, "samplers": []})",
        "--strategy", R"({"name": "search", "decoder": {"type": "contrastive_search", "top_k": 3}, "samplers": []})",
        "--strategy", "greedy"});
    QVERIFY2(run.status == 0, run.err.constData());
    Result<std::unique_ptr<Database>> db = Database::open(store);
    QVERIFY(db);
    RunRepository runs(*db.value());
    const Result<std::vector<RunSummary>> list = runs.listRuns();
    QVERIFY(list);
    QCOMPARE(list->size(), std::size_t(6));
    int beamRuns = 0, searchRuns = 0;
    for (const RunSummary& summary : list.value()) {
        const Result<RunRecord> record = runs.loadRun(summary.id);
        QVERIFY(record);
        const Result<DecoderRecord> decoder = decoderRecord(record.value());
        QVERIFY(decoder);
        if (summary.strategyName == QLatin1String("beam3")) {
            ++beamRuns;
            QVERIFY(decoder->beam);
            QCOMPARE(QString::fromStdString(decoder->beam->hypotheses.front().text), record->text);
        } else if (summary.strategyName == QLatin1String("search")) {
            ++searchRuns;
            QCOMPARE(decoder->type, QStringLiteral("contrastive_search"));
            QCOMPARE(decoder->steps.size(), record->steps.size());
        } else {
            QVERIFY(decoder->empty());
        }
    }
    QCOMPARE(beamRuns, 2);
    QCOMPARE(searchRuns, 2);
}
