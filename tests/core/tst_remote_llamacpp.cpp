// The remote-engine client against llama.cpp's server (issue 40): strategies sent as llama.cpp's fields give
// the local run's tokens for every greedy chain the mapping accepts; a stop string's end, the prompt ids from
// /tokenize and the model row from /v1/models come through; a grammar or JSON schema with greedy decoding
// gives the local run's tokens (issue 36). Against a real llama-server when one is given
// (LLAMA_SERVER_URL=http://HOST:PORT/v1 for a running one, or LLAMA_SERVER=path/to/llama-server with
// LLAMA_SERVER_MODEL=stories260K.gguf to start one); otherwise against the exchanges such a server answered,
// recorded in tests/data/llama-server (its README says how), replayed by a local server that answers only
// the requests recorded. The local side is the stories260K reference model (skipped without it).

#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include "HttpSupport.h"
#include "TestSupport.h"
#include "serving/HttpMessage.h"
#include "serving/RemoteEngine.h"

using namespace swb;
using swb::test::object;

namespace {

QString dataDir() {
    return QStringLiteral(SWB_TEST_DATA_DIR "/llama-server");
}

// Answers each request with the recorded exchange of the same method, path and JSON body; anything else gets
// 404 and is remembered (the test then names what was not recorded).
class ReplayServer {
public:
    explicit ReplayServer(QJsonArray exchanges)
        : m_exchanges(std::move(exchanges)) {
        QObject::connect(&m_server, &QTcpServer::newConnection, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                auto parser = std::make_shared<HttpRequestParser>();
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, parser] {
                    const QByteArray data = socket->readAll();
                    parser->feed(data.constData(), data.size());
                    while (parser->state() == HttpRequestParser::State::Complete) {
                        answer(*socket, parser->take());
                        parser->feed("", 0);
                    }
                });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QString address() const { return QStringLiteral("http://127.0.0.1:%1/v1").arg(m_server.serverPort()); }
    const QStringList& unmatched() const { return m_unmatched; }

private:
    void answer(QTcpSocket& socket, const HttpRequest& request) {
        const QJsonValue body = request.body.isEmpty() ? QJsonValue(QJsonValue::Null)
                                                       : QJsonValue(QJsonDocument::fromJson(request.body).object());
        for (const QJsonValue& e : m_exchanges) {
            const QJsonObject exchange = e.toObject();
            if (exchange.value("method").toString().toUtf8() != request.method ||
                exchange.value("path").toString().toUtf8() != request.path || exchange.value("request") != body)
                continue;
            const QByteArray response = exchange.value("response").toString().toUtf8();
            socket.write("HTTP/1.1 " + QByteArray::number(exchange.value("status").toInt()) +
                         " OK\r\nContent-Type: " + exchange.value("content_type").toString().toUtf8() +
                         "\r\nContent-Length: " + QByteArray::number(response.size()) + "\r\n\r\n" + response);
            return;
        }
        m_unmatched << QString::fromUtf8(request.method + ' ' + request.path + ' ' + request.body);
        socket.write("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    }

    QTcpServer m_server;
    QJsonArray m_exchanges;
    QStringList m_unmatched;
};

// The engine the test talks to: a real llama-server (given), or the replay of the recorded one.
class LlamaServer {
public:
    LlamaServer() {
        const QString url = qEnvironmentVariable("LLAMA_SERVER_URL");
        const QString binary = qEnvironmentVariable("LLAMA_SERVER");
        if (!url.isEmpty()) {
            m_address = url;
        } else if (!binary.isEmpty()) {
            QTcpServer probe; // a free port for it
            probe.listen(QHostAddress::LocalHost);
            const quint16 port = probe.serverPort();
            probe.close();
            m_process.start(binary, {"-m", qEnvironmentVariable("LLAMA_SERVER_MODEL"), "--port", QString::number(port),
                                     "-t", "2", "-c", "512", "-np", "1", "--no-webui"});
            m_address = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
            for (int i = 0; i < 300 && swb::test::exchange(port, swb::test::request("GET", "/health")).status != 200;
                 ++i)
                QTest::qWait(100);
        } else {
            QFile file(dataDir() + "/exchanges.qz");
            if (file.open(QIODevice::ReadOnly)) {
                m_replay = std::make_unique<ReplayServer>(QJsonDocument::fromJson(qUncompress(file.readAll())).array());
                m_address = m_replay->address();
            }
        }
    }
    ~LlamaServer() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            m_process.waitForFinished(10000);
        }
    }
    QString address() const { return m_address; }
    bool live() const { return !m_replay; }
    QString unmatched() const { return m_replay ? m_replay->unmatched().join('\n') : QString(); }

private:
    QString m_address;
    QProcess m_process;
    std::unique_ptr<ReplayServer> m_replay;
};

QStringList localModel() {
    const QString dir = swb::test::referenceDir() + "/stories260K/";
    return {"--model", dir + "stories260K.bin", "--tokenizer", dir + "tok512.bin"};
}

QJsonArray tokensOf(const RemoteResult& result) {
    QJsonArray tokens;
    for (const RemoteStep& step : result.steps)
        tokens.append(step.chosen.id);
    return tokens;
}

} // namespace

class TestRemoteLlamaCpp : public QObject {
    Q_OBJECT

private slots:
    // Greedy after each sampler the mapping takes, for three seeds: the local run's tokens (before, greedy
    // after top_k was sampled at temperature 1 and every seed gave another text).
    void greedyChainsGiveTheLocalTokens_data() {
        QTest::addColumn<QString>("strategy");
        const auto row = [](const char* name, const char* samplers) {
            QTest::newRow(name)
                << QStringLiteral(R"({"samplers": [%1, {"type": "greedy"}]})").arg(QLatin1String(samplers));
        };
        row("top_k", R"({"type": "top_k", "k": 3})");
        row("penalties", R"({"type": "penalties", "frequency": 0.6, "presence": 0.4})");
        row("repetition_penalty", R"({"type": "repetition_penalty", "penalty": 1.5})");
        row("top_p", R"({"type": "top_p", "p": 0.5})");
        row("min_p", R"({"type": "min_p", "p": 0.2})");
        row("typical", R"({"type": "typical", "p": 0.5})");
        row("top_n_sigma", R"({"type": "top_n_sigma", "n": 1.0})");
        row("temperature, top_k", R"({"type": "temperature", "value": 0.7}, {"type": "top_k", "k": 5})");
        row("penalties, top_k",
            R"({"type": "penalties", "frequency": 1.0, "presence": 0.0}, {"type": "top_k", "k": 2})");
        row("logit_bias", R"({"type": "logit_bias", "bias": {"263": 5.0, "322": -100}})");
        row("dry", R"({"type": "dry", "multiplier": 0.8, "base": 1.75, "allowed_length": 2})");
        row("xtc at probability 1", R"({"type": "xtc", "threshold": 0.1, "probability": 1.0})");
    }
    void greedyChainsGiveTheLocalTokens() {
        QFETCH(QString, strategy);
        SWB_REQUIRE_REFERENCE();
        LlamaServer server;
        if (server.address().isEmpty())
            QSKIP("no llama-server given and no recorded exchanges");
        const Result<RemoteModel> model = connectRemoteModel(server.address(), {});
        QVERIFY2(model, qPrintable(model ? QString() : model.error().message + '\n' + server.unmatched()));
        QCOMPARE(model->engine, RemoteEngineKind::LlamaCpp);
        // Greedy: the local run is the same for every seed.
        const auto local = swb::test::runSwbProcess(
            QStringList{"generate"} + localModel() +
            QStringList{"--prompt", "Once upon a time", "--max-tokens", "24", "--json", "--strategy", strategy});
        QVERIFY2(local.status == 0, local.err.constData());
        for (const int seed : {0, 1, 2}) {
            RemoteRequest request;
            for (const QJsonValue& id : object(local.out).value("prompt_ids").toArray())
                request.promptIds.push_back(id.toInt());
            request.strategy = Strategy::parse(strategy).value();
            request.seed = std::uint64_t(seed);
            request.maxTokens = 24;
            request.topN = 2; // what is compared is the chosen tokens: the recorded answers stay small
            const Result<RemoteResult> remote = remoteGenerate(model.value(), request);
            QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message + '\n' + server.unmatched()));
            QCOMPARE(tokensOf(remote.value()), object(local.out).value("tokens").toArray());
        }
    }

    // Issue 36: a grammar (GBNF as llama.cpp's grammar field, a JSON schema as its json_schema field, converted
    // by llama.cpp's own converter) with greedy decoding gives the local run's tokens on the same model.
    void grammarGreedyGivesTheLocalTokens_data();
    void grammarGreedyGivesTheLocalTokens();

    // A text prompt: its ids from the server's /tokenize equal ours; a stop string ends the run as
    // "stop_string" with the local text; the model row has the server's context, vocabulary and parameters.
    void stopStringsPromptIdsAndTheModelRow() {
        SWB_REQUIRE_REFERENCE();
        LlamaServer server;
        if (server.address().isEmpty())
            QSKIP("no llama-server given and no recorded exchanges");
        const Result<RemoteModel> model = connectRemoteModel(server.address(), {});
        QVERIFY2(model, qPrintable(model ? QString() : model.error().message + '\n' + server.unmatched()));
        QCOMPARE(model->vocabSize, 512);
        QVERIFY(model->parameters > 0);
        QVERIFY(model->contextLength > 0);
        const auto local = swb::test::runSwbProcess(QStringList{"generate"} + localModel() +
                                                    QStringList{"--prompt", "Once upon a time", "--max-tokens", "40",
                                                                "--json", "--stop", ".", "--strategy", "greedy"});
        QVERIFY2(local.status == 0, local.err.constData());
        QCOMPARE(object(local.out).value("finish_reason").toString(), QStringLiteral("stop_string"));
        const std::optional<std::vector<int>> ids = remoteTokenize(model.value(), "Once upon a time");
        QVERIFY2(ids, qPrintable(server.unmatched()));
        QJsonArray remoteIds;
        for (int id : *ids)
            remoteIds.append(id);
        QCOMPARE(remoteIds, object(local.out).value("prompt_ids").toArray());
        RemoteRequest request;
        request.prompt = "Once upon a time";
        request.strategy = Strategy::parse(R"({"samplers": [{"type": "greedy"}], "stop": ["."]})").value();
        request.seed = 0;
        request.maxTokens = 40;
        const Result<RemoteResult> remote = remoteGenerate(model.value(), request);
        QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message + '\n' + server.unmatched()));
        QCOMPARE(QString::fromStdString(remote->text), object(local.out).value("text").toString());
        const GenerationResult generated = toGenerationResult(remote.value(), request);
        QCOMPARE(generated.finish, FinishReason::StopString);
        // llama.cpp is not asked for its probabilities after the samplers: unknown, not 0 (issue 40, point 2).
        QVERIFY(!generated.steps.empty());
        for (const GeneratedStep& step : generated.steps) {
            QVERIFY(std::isnan(step.trace.finalP) && std::isnan(step.trace.rawEntropy) && step.trace.finalCount == -1);
            QVERIFY(step.trace.rawRank >= 1); // greedy: the chosen token is the engine's top candidate
        }
    }

    // A seeded sampling chain the server can run: our request through /v1/completions gives the tokens its
    // native /completion endpoint gives for the same fields and seed (our draw and the server's differ, so
    // the local run is no reference here).
    void seededSamplingEqualsTheNativeEndpoint() {
        LlamaServer server;
        if (server.address().isEmpty())
            QSKIP("no llama-server given and no recorded exchanges");
        const Result<RemoteModel> model = connectRemoteModel(server.address(), {});
        QVERIFY2(model, qPrintable(model ? QString() : model.error().message + '\n' + server.unmatched()));
        RemoteRequest request;
        request.promptIds = {1, 403, 407, 261, 378}; // "Once upon a time" after BOS, as /tokenize gives it
        request.strategy =
            Strategy::parse(
                R"({"samplers": [{"type": "top_k", "k": 20}, {"type": "temperature", "value": 0.9}, {"type": "dist"}]})")
                .value();
        request.maxTokens = 24;
        for (const std::uint64_t seed : {5, 6}) {
            request.seed = seed;
            const Result<RemoteResult> remote = remoteGenerate(model.value(), request);
            QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message + '\n' + server.unmatched()));
            QJsonObject native =
                remoteSamplingFields(request.strategy, RemoteEngineKind::LlamaCpp, model->contextLength).value();
            native.insert("prompt", QJsonArray{1, 403, 407, 261, 378});
            native.insert("n_predict", 24);
            native.insert("seed", double(seed));
            native.insert("return_tokens", true);
            QNetworkAccessManager network;
            QNetworkRequest post(QUrl(server.address().chopped(3) + "/completion"));
            post.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
            QNetworkReply* reply = network.post(post, QJsonDocument(native).toJson(QJsonDocument::Compact));
            QSignalSpy done(reply, &QNetworkReply::finished);
            QVERIFY(done.wait(60000));
            const QJsonObject answer = object(reply->readAll());
            reply->deleteLater();
            QVERIFY2(answer.contains("tokens"), qPrintable(server.unmatched()));
            QCOMPARE(tokensOf(remote.value()), answer.value("tokens").toArray());
            QCOMPARE(QString::fromStdString(remote->text), answer.value("content").toString());
        }
    }
};

void TestRemoteLlamaCpp::grammarGreedyGivesTheLocalTokens_data() {
    QTest::addColumn<QString>("stage");
    QTest::newRow("lowercase words") << R"({"type": "grammar", "gbnf": "root ::= (\" \" [a-z]+)+ \".\""})";
    QTest::newRow("a name, then words")
        << R"({"type": "grammar", "gbnf": "root ::= \" \" [A-Z] [a-z]+ (\" \" [a-z]+){3,8} \".\""})";
    QTest::newRow("digits") << R"({"type": "grammar", "gbnf": "root ::= [0-9]+"})";
    QTest::newRow("two-byte characters")
        << R"({"type": "grammar", "gbnf": "root ::= (\"\u00e9\" | \"\u00fc\" | \" \")+"})";
    QTest::newRow("alternatives")
        << R"({"type": "grammar", "gbnf": "root ::= \" the\" (\" cat\" | \" dog\" | \" bird\")* \" ran.\""})";
    QTest::newRow("schema: object")
        << R"({"type": "grammar", "json_schema": {"type": "object", "properties": {"age": {"type": "integer"}, "name": {"type": "string", "maxLength": 12}}, "required": ["age", "name"]}})";
    QTest::newRow("schema: enum") << R"({"type": "grammar", "json_schema": {"enum": ["yes", "no", "maybe"]}})";
    QTest::newRow("schema: array")
        << R"({"type": "grammar", "json_schema": {"type": "array", "items": {"type": "integer"}, "maxItems": 3}})";
    QTest::newRow("any JSON") << R"({"type": "grammar", "json": true})";
}
void TestRemoteLlamaCpp::grammarGreedyGivesTheLocalTokens() {
    QFETCH(QString, stage);
    SWB_REQUIRE_REFERENCE();
    LlamaServer server;
    if (server.address().isEmpty())
        QSKIP("no llama-server given and no recorded exchanges");
    const Result<RemoteModel> model = connectRemoteModel(server.address(), {});
    QVERIFY2(model, qPrintable(model ? QString() : model.error().message + '\n' + server.unmatched()));
    const QString strategy = QStringLiteral(R"({"samplers": [%1, {"type": "greedy"}]})").arg(stage);
    const auto local = swb::test::runSwbProcess(
        QStringList{"generate"} + localModel() +
        QStringList{"--prompt", "Once upon a time", "--max-tokens", "24", "--json", "--strategy", strategy});
    QVERIFY2(local.status == 0, local.err.constData());
    QJsonArray localTokens = object(local.out).value("tokens").toArray();
    // llama2.c stops at BOS (run.c), llama.cpp at the GGUF's EOS: the end token itself is not compared.
    if (object(local.out).value("finish_reason").toString() == QLatin1String("eos"))
        localTokens.removeLast();
    RemoteRequest request;
    for (const QJsonValue& id : object(local.out).value("prompt_ids").toArray())
        request.promptIds.push_back(id.toInt());
    request.strategy = Strategy::parse(strategy).value();
    request.seed = 0;
    request.maxTokens = 24;
    request.topN = 2;
    const Result<RemoteResult> remote = remoteGenerate(model.value(), request);
    QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message + '\n' + server.unmatched()));
    QJsonArray remoteTokens = tokensOf(remote.value());
    if (remote->finishReason == QLatin1String("stop") && !remoteTokens.isEmpty())
        remoteTokens.removeLast(); // llama.cpp's answer ends with its EOS
    QCOMPARE(remoteTokens, localTokens);
    QCOMPARE(remote->finishReason == QLatin1String("stop"),
             object(local.out).value("finish_reason").toString() == QLatin1String("eos"));
}

QTEST_MAIN(TestRemoteLlamaCpp)
#include "tst_remote_llamacpp.moc"
