// transformers as the reference, on the CPU: small random Llama, Qwen2 and GPT-2 models that transformers
// 5.17 made (save_pretrained: safetensors, config.json with rope_parameters) and its results on them,
// computed on an H200 in float32 with PyTorch 2.11 (tests/data/transformers-reference, written by
// packaging/cuda_reference.py through packaging/cuda-check.sh; see its README.md):
//   - greedy: the same 64 tokens, and each step's top-16 logits within 1e-4;
//   - beam search: num_beams 4, every hypothesis returned, length_penalty 0.5 / 1 / 2 × early_stopping
//     true / false / "never", with an end token the search meets: the same hypotheses in the same order,
//     scores within 1e-4;
//   - logits processors (temperature, top_k, top_p, typical, epsilon, eta, min_p, repetition_penalty then
//     top_k, no_repeat_ngram) on three rows: the same surviving tokens.

#include <algorithm>
#include <set>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include "generation/Generator.h"
#include "model/Model.h"
#include "sampling/Candidates.h"
#include "sampling/SamplerChain.h"
#include "sampling/Strategy.h"
#include "tokenizer/TokenizerLoader.h"

using namespace swb;

namespace {

QString dataDir() {
    return QStringLiteral(SWB_TEST_DATA_DIR "/transformers-reference");
}

const QJsonObject& expected() {
    static const QJsonObject json = [] {
        QFile file(dataDir() + QStringLiteral("/expected.json"));
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
    }();
    return json;
}

std::vector<TokenId> ids(const QJsonValue& value) {
    std::vector<TokenId> out;
    for (const QJsonValue& v : value.toArray())
        out.push_back(v.toInt());
    return out;
}

bool rewriteEos(const QString& file, int eos) {
    QFile f(file);
    if (!f.exists())
        return true;
    if (!f.open(QIODevice::ReadOnly))
        return false;
    QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    json[QStringLiteral("eos_token_id")] = eos;
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QJsonDocument(json).toJson()) > 0;
}

} // namespace

class TestTransformersReference : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(!expected().isEmpty(), qPrintable(dataDir() + QStringLiteral("/expected.json cannot be read")));
        QCOMPARE(expected().value(QStringLiteral("transformers")).toString(), QStringLiteral("5.17.0"));
    }

    void greedy_data() {
        QTest::addColumn<QString>("kind");
        for (const QString& kind : expected().value(QStringLiteral("greedy")).toObject().keys())
            QTest::newRow(qPrintable(kind)) << kind;
    }
    void greedy() {
        QFETCH(QString, kind);
        const QJsonObject ref = expected().value(QStringLiteral("greedy")).toObject().value(kind).toObject();
        auto model = Model::load(dataDir() + QLatin1Char('/') + kind);
        QVERIFY2(model, qPrintable(model ? QString() : model.error().message));
        const std::vector<TokenId> tokens = ids(ref.value(QStringLiteral("tokens")));
        const QJsonArray top = ref.value(QStringLiteral("top")).toArray();
        QCOMPARE(tokens.size(), std::size_t(64));
        auto state = model.value()->newState();
        Result<std::vector<float>> logits = model.value()->forward(*state, ids(ref.value(QStringLiteral("prompt"))));
        double worst = 0.0;
        for (std::size_t step = 0; step < tokens.size(); ++step) {
            QVERIFY(logits);
            const std::vector<float>& row = logits.value();
            const auto chosen = TokenId(std::max_element(row.begin(), row.end()) - row.begin());
            QVERIFY2(chosen == tokens[step], qPrintable(QStringLiteral("step %1: %2, transformers %3")
                                                            .arg(step)
                                                            .arg(chosen)
                                                            .arg(tokens[step])));
            for (const QJsonValue& pair : top[qsizetype(step)].toArray()) {
                const QJsonArray p = pair.toArray();
                worst = std::max(worst, std::abs(double(row[std::size_t(p[0].toInt())]) - p[1].toDouble()));
            }
            logits = model.value()->forward(*state, std::vector<TokenId>{chosen});
        }
        QVERIFY2(worst <= 1e-4, qPrintable(QString::number(worst)));
    }

    void beamSearch_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("index");
        const QJsonObject beams = expected().value(QStringLiteral("beam")).toObject();
        for (const QString& kind : beams.keys()) {
            const QJsonArray cases = beams.value(kind).toObject().value(QStringLiteral("cases")).toArray();
            for (qsizetype i = 0; i < cases.size(); ++i) {
                const QJsonObject c = cases[i].toObject();
                const QJsonValue early = c.value(QStringLiteral("early_stopping"));
                const QString name = QStringLiteral("%1, length_penalty %2, early_stopping %3")
                                         .arg(kind)
                                         .arg(c.value(QStringLiteral("length_penalty")).toDouble())
                                         .arg(early.isBool() ? (early.toBool() ? "true" : "false") : early.toString());
                QTest::newRow(qPrintable(name)) << kind << int(i);
            }
        }
    }
    void beamSearch() {
        QFETCH(QString, kind);
        QFETCH(int, index);
        const QJsonObject ref = expected().value(QStringLiteral("beam")).toObject().value(kind).toObject();
        const QJsonObject c = ref.value(QStringLiteral("cases")).toArray()[index].toObject();
        const int eos = ref.value(QStringLiteral("eos")).toInt();
        // The model with that end token (transformers took it from generate's eos_token_id).
        QTemporaryDir dir;
        const QDir source(dataDir() + QLatin1Char('/') + kind);
        for (const QString& name : source.entryList(QDir::Files))
            QVERIFY(QFile::copy(source.filePath(name), dir.filePath(name)));
        QVERIFY(rewriteEos(dir.filePath(QStringLiteral("config.json")), eos));
        QVERIFY(rewriteEos(dir.filePath(QStringLiteral("generation_config.json")), eos));
        auto model = Model::load(dir.path());
        QVERIFY(model);
        auto tokenizer = loadTokenizer(dir.path());
        QVERIFY(tokenizer);
        Generator generator(*model.value(), *tokenizer.value());
        GenerationRequest request;
        request.promptIds = ids(ref.value(QStringLiteral("prompt")));
        request.usePromptIds = true;
        request.maxTokens = ref.value(QStringLiteral("max_new_tokens")).toInt();
        auto strategy = Strategy::fromJson(QJsonObject{
            {QStringLiteral("samplers"), QJsonArray()},
            {QStringLiteral("decoder"), QJsonObject{{QStringLiteral("type"), QStringLiteral("beam")},
                                                    {QStringLiteral("beams"), 4},
                                                    {QStringLiteral("return"), 4},
                                                    {QStringLiteral("length_penalty"), c.value(QStringLiteral("length_penalty"))},
                                                    {QStringLiteral("early_stopping"), c.value(QStringLiteral("early_stopping"))}}}});
        QVERIFY2(strategy, qPrintable(strategy ? QString() : strategy.error().message));
        request.strategy = strategy.value();
        auto result = generator.beamSearch(request, {});
        QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
        const QJsonArray theirs = c.value(QStringLiteral("hypotheses")).toArray();
        QCOMPARE(result->hypotheses.size(), std::size_t(theirs.size()));
        for (std::size_t i = 0; i < result->hypotheses.size(); ++i) {
            const BeamHypothesis& ours = result->hypotheses[i];
            const QJsonObject their = theirs[qsizetype(i)].toObject();
            QCOMPARE(ours.tokens, ids(their.value(QStringLiteral("tokens"))));
            const double diff = std::abs(ours.score - their.value(QStringLiteral("score")).toDouble());
            QVERIFY2(diff <= 1e-4, qPrintable(QStringLiteral("hypothesis %1: score off by %2").arg(i).arg(diff)));
        }
    }

    void processors_data() {
        QTest::addColumn<int>("index");
        QTest::addColumn<int>("row");
        const QJsonArray cases =
            expected().value(QStringLiteral("processors")).toObject().value(QStringLiteral("cases")).toArray();
        for (qsizetype i = 0; i < cases.size(); ++i)
            for (int row = 0; row < 3; ++row)
                QTest::newRow(qPrintable(QStringLiteral("%1, row %2")
                                             .arg(cases[i].toObject().value(QStringLiteral("name")).toString())
                                             .arg(row)))
                    << int(i) << row;
    }
    void processors() {
        QFETCH(int, index);
        QFETCH(int, row);
        const QJsonObject ref = expected().value(QStringLiteral("processors")).toObject();
        const QJsonObject c = ref.value(QStringLiteral("cases")).toArray()[index].toObject();
        std::vector<float> logits;
        for (const QJsonValue& v : ref.value(QStringLiteral("rows")).toArray()[row].toArray())
            logits.push_back(float(v.toDouble()));
        QJsonArray samplers = c.value(QStringLiteral("samplers")).toArray();
        samplers.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("dist")}});
        auto strategy = Strategy::fromJson(QJsonObject{{QStringLiteral("samplers"), samplers}});
        QVERIFY(strategy);
        auto chain = SamplerChain::build(strategy.value());
        QVERIFY(chain);
        Candidates final;
        const std::vector<TokenId> history = ids(ref.value(QStringLiteral("history")));
        QVERIFY(chain->sample(logits, history, TraceLevel::None, &final));
        std::set<TokenId> ours;
        for (std::size_t i = 0; i < final.size(); ++i)
            if (final.prob(i) > 0.0f)
                ours.insert(final.id(i));
        const std::vector<TokenId> kept = ids(c.value(QStringLiteral("kept")).toArray()[row]);
        QCOMPARE(ours.size(), kept.size());
        QVERIFY(std::equal(ours.begin(), ours.end(), kept.begin()));
    }
};

QTEST_GUILESS_MAIN(TestTransformersReference)
#include "tst_transformers_reference.moc"
