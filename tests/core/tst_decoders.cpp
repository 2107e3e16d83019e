// Decoders beyond one sampled path, on real models. Beam search (transformers' semantics): one beam is
// greedy decoding; with as many beams as there are continuations it finds what exhaustive search over
// all of them finds, for every early_stopping value and two length penalties; `swb generate --json`
// returns the hypotheses best first. Contrastive decoding: with the expert as its own amateur and
// beta 0 it is greedy decoding, without beta it takes the first plausible token; a larger model with the
// demo model as amateur runs end to end; another vocabulary is refused. The decoder field is validated.

#include <cmath>
#include <functional>

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
#include "tokenizer/TokenizerLoader.h"
#include "training/SafeTensorsWriter.h"

using namespace swb;

namespace {

QString demoModel()
{
    return QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
}

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
                                  << "decoder: unknown type 'viterbi' (known: sample, beam, contrastive_decoding, cfg)";
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
    QTest::newRow("beam sampling") << R"({"decoder": {"type": "beam", "do_sample": true}, "samplers": []})"
                                   << "decoder 'beam': do_sample (beam sampling) is not supported yet; use do_sample false";
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
    // A warper in a beam chain is refused, naming it; and --db is refused for now.
    const auto warper = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--strategy",
        R"({"decoder": {"type": "beam"}, "samplers": [{"type": "top_k", "k": 5}]})"});
    QCOMPARE(warper.status, 2);
    QVERIFY2(warper.err.contains("beam search applies logits processors only") && warper.err.contains("'top_k'"),
             warper.err.constData());
    QTemporaryDir dir;
    const auto stored = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--strategy",
        R"({"decoder": {"type": "beam"}, "samplers": []})", "--db", dir.filePath("runs.sqlite")});
    QCOMPARE(stored.status, 2);
    QVERIFY(stored.err.contains("beam search runs are not saved to the run store yet"));

    const auto run = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--max-tokens", "10", "--json",
        "--trace", dir.filePath("beams.jsonl"), "--strategy",
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
    // One trace line per step, each with its beams and the candidates it weighed.
    QFile trace(dir.filePath("beams.jsonl"));
    QVERIFY(trace.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = trace.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), out.value("steps").toInt());
    const QJsonObject step = QJsonDocument::fromJson(lines.front()).object();
    QCOMPARE(step.value("beams").toArray().size(), 4);
    QCOMPARE(step.value("candidates").toArray().size(), 8); // 2 x beams, one EOS id
    for (const QJsonValue& beam : step.value("beams").toArray())
        QCOMPARE(beam.toObject().value("parent").toInt(), 0); // the first step extends the prompt's beam only
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
