// swb serve on the demo model, over loopback, through raw sockets: the HTTP reader on its own (whole,
// split, pipelined, refused), completions and chat with and without streaming, logprobs raw and post-chain
// against `swb generate --trace` for the same strategy and seed, n choices, /v1/strategy switching and its
// persistence, /metrics as Prometheus text, OpenAI error objects for malformed requests, the API key, a
// full queue, cancellation when the client goes away, and served runs in the run store.

#include <cmath>
#include <future>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include "HttpSupport.h"
#include "JsonSchemaCheck.h"
#include "TestSupport.h"
#include "evaluation/PromptFile.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "serving/HttpMessage.h"
#include "serving/OpenAiApi.h"
#include "serving/RemoteEngine.h"
#include "serving/ServingEngine.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "tokenizer/TokenizerLoader.h"

using namespace swb;
using swb::test::exchange;
using swb::test::HttpReply;
using swb::test::object;
using swb::test::readUntilClosed;
using swb::test::request;
using swb::test::ServeProcess;

namespace {

// The JSON events of a server-sent event stream, without the final [DONE] (reported apart).
QList<QJsonObject> events(const QByteArray& body, bool* done = nullptr) {
    QList<QJsonObject> out;
    if (done)
        *done = false;
    for (const QByteArray& block : body.split('\n')) {
        if (!block.startsWith("data: "))
            continue;
        const QByteArray payload = block.mid(6);
        if (payload == "[DONE]") {
            if (done)
                *done = true;
            continue;
        }
        out.append(object(payload));
    }
    return out;
}


const char* kStrategy = R"({"name": "k20", "seed": 5, "samplers": [{"type": "top_k", "k": 20}, {"type": "temperature", "value": 0.9}, {"type": "dist"}]})";

QString chatTemplatePath() {
    return QStringLiteral(SWB_TEST_DATA_DIR "/chat-templates/templates/qwen2_5.jinja");
}

} // namespace

class TestServe : public QObject {
    Q_OBJECT

private slots:
    void parserReadsWholeSplitAndPipelinedRequests();
    void parserRefusesWhatItWillNotRead_data();
    void parserRefusesWhatItWillNotRead();
    void completionsMatchGenerateAndItsTrace();
    void contextLimitIsTheSameServedAndGenerated();
    void oneLoopEndsRunsAlike_data();
    void oneLoopEndsRunsAlike();
    void streamingSendsTheSameText();
    void chatRendersTheTemplate();
    void severalChoices();
    void strategySwitchesAndPersists();
    void metricsAreValidPrometheusText();
    void malformedRequestsGetErrorObjects_data();
    void malformedRequestsGetErrorObjects();
    void apiKey();
    void fullQueueAnswers503();
    void metricsFoldUnknownPathsAndStayParsable();
    void modelsAreLookedUpByName();
    void slowClientsAreCutAndConnectionsLimited();
    void sigtermDrainsStreamsInFlight();
    void apiKeyFromAFile();
    void clientsShapesAreReadAsOpenAiMeansThem();
    void officialOpenAiClientMakesEveryDocumentedCall();
    void disconnectCancels();
    void remoteModelMatchesLocalGenerate();
    void divergenceReadsAServedModelB();
    void remoteModelErrors();
    void remoteRunsKeepWhatTheEngineTold();
    void remoteBatchMatchesLocalBatch();
    void remoteChatUsesTheEnginesTemplate();
    void remoteSamplingFieldsPerEngine_data();
    void remoteSamplingFieldsPerEngine();
    void structuredOutputFollowsItsConstraint();
};

void TestServe::parserReadsWholeSplitAndPipelinedRequests() {
    const QByteArray a = request("POST", "/v1/completions?x=1", R"({"prompt": "hi"})");
    const QByteArray b = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
    // Whole, then byte by byte: the same request.
    for (int piece : {int(a.size()), 1, 7}) {
        HttpRequestParser parser;
        HttpRequestParser::State state = HttpRequestParser::State::NeedMore;
        for (qsizetype i = 0; i < a.size(); i += piece)
            state = parser.feed(a.constData() + i, std::min<qsizetype>(piece, a.size() - i));
        QCOMPARE(state, HttpRequestParser::State::Complete);
        const HttpRequest r = parser.take();
        QCOMPARE(r.method, QByteArray("POST"));
        QCOMPARE(r.path, QByteArray("/v1/completions"));
        QCOMPARE(r.query, QByteArray("x=1"));
        QCOMPARE(r.body, QByteArray(R"({"prompt": "hi"})"));
        QCOMPARE(r.header("content-type"), QByteArray("application/json"));
        QVERIFY(!r.keepAlive);
    }
    // Two requests in one read: both, in order.
    HttpRequestParser parser;
    const QByteArray both = b + b.left(b.size() - 2) + "\r\n";
    QCOMPARE(parser.feed(both.constData(), both.size()), HttpRequestParser::State::Complete);
    QCOMPARE(parser.take().path, QByteArray("/health"));
    QCOMPARE(parser.state(), HttpRequestParser::State::Complete);
    const HttpRequest second = parser.take();
    QCOMPARE(second.path, QByteArray("/health"));
    QVERIFY(second.keepAlive);
    QCOMPARE(parser.state(), HttpRequestParser::State::NeedMore);
}

void TestServe::parserRefusesWhatItWillNotRead_data() {
    QTest::addColumn<QByteArray>("raw");
    QTest::addColumn<int>("status");
    QTest::newRow("no version") << QByteArray("GET /\r\n\r\n") << 400;
    QTest::newRow("relative target") << QByteArray("GET health HTTP/1.1\r\n\r\n") << 400;
    QTest::newRow("HTTP/2") << QByteArray("GET / HTTP/2\r\n\r\n") << 505;
    QTest::newRow("header without colon") << QByteArray("GET / HTTP/1.1\r\nnocolon\r\n\r\n") << 400;
    QTest::newRow("bad length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: -4\r\n\r\n") << 400;
    QTest::newRow("two lengths") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n") << 400;
    QTest::newRow("chunked body") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") << 501;
    QTest::newRow("body too large") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 5000000\r\n\r\n") << 413;
    QTest::newRow("head too large") << (QByteArray("GET / HTTP/1.1\r\nX: ") + QByteArray(20000, 'a')) << 431;
    QByteArray many = "GET / HTTP/1.1\r\n";
    for (int i = 0; i < 120; ++i)
        many += "X-" + QByteArray::number(i) + ": 1\r\n";
    QTest::newRow("too many headers") << many + "\r\n" << 431;
}

void TestServe::parserRefusesWhatItWillNotRead() {
    QFETCH(QByteArray, raw);
    QFETCH(int, status);
    HttpRequestParser parser;
    QCOMPARE(parser.feed(raw.constData(), raw.size()), HttpRequestParser::State::Failed);
    QCOMPARE(parser.errorStatus(), status);
    QVERIFY(!parser.errorMessage().isEmpty());
}

void TestServe::completionsMatchGenerateAndItsTrace() {
    QTemporaryDir dir;
    const QString store = dir.filePath("served.sqlite");
    ServeProcess serve({"--db", store});
    QVERIFY2(serve.port() > 0, serve.stderrText().constData());
    const QByteArray body = QJsonDocument(QJsonObject{{"prompt", "And God said"}, {"max_tokens", 12}, {"logprobs", 5},
                                                      {"post_sampling_probs", true},
                                                      {"strategy", QJsonDocument::fromJson(kStrategy).object()}})
                                .toJson(QJsonDocument::Compact);
    const HttpReply reply = exchange(serve.port(), request("POST", "/v1/completions", body));
    QCOMPARE(reply.status, 200);
    const QJsonObject out = object(reply.body);
    const QJsonObject choice = out.value("choices").toArray().at(0).toObject();
    QCOMPARE(out.value("object").toString(), QStringLiteral("text_completion"));
    QCOMPARE(out.value("strategy").toObject().value("name").toString(), QStringLiteral("k20"));

    // The same strategy and seed through `swb generate`: the same text, and per step the same raw and
    // post-chain probabilities.
    const auto generated = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--max-tokens", "12", "--json",
                                                     "--trace", dir.filePath("trace.jsonl"), "--strategy", kStrategy});
    QCOMPARE(generated.status, 0);
    QCOMPARE(choice.value("text").toString(), object(generated.out).value("text").toString());
    QFile traceFile(dir.filePath("trace.jsonl"));
    QVERIFY(traceFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = traceFile.readAll().trimmed().split('\n');
    const QJsonObject logprobs = choice.value("logprobs").toObject();
    const QJsonArray tokenLogprobs = logprobs.value("token_logprobs").toArray();
    const QJsonArray top = logprobs.value("top_logprobs").toArray();
    const QJsonArray post = logprobs.value("post_sampling_probs").toArray();
    QCOMPARE(tokenLogprobs.size(), lines.size());
    QCOMPARE(post.size(), lines.size());
    for (int i = 0; i < lines.size(); ++i) {
        const QJsonObject step = QJsonDocument::fromJson(lines[i]).object();
        QVERIFY(std::abs(tokenLogprobs.at(i).toDouble() - std::log(step.value("raw_p").toDouble())) < 1e-5);
        QVERIFY(std::abs(post.at(i).toObject().value("prob").toDouble() - step.value("final_p").toDouble()) < 1e-6);
        // The top 5 raw log-probabilities are the trace's first five candidates.
        const QJsonArray candidates = step.value("top").toArray();
        const QJsonObject topHere = top.at(i).toObject();
        QVERIFY(topHere.size() >= 1 && topHere.size() <= 5);
        double best = -INFINITY;
        for (auto it = topHere.begin(); it != topHere.end(); ++it)
            best = std::max(best, it.value().toDouble());
        QVERIFY(std::abs(best - std::log(candidates.at(0).toObject().value("raw_p").toDouble())) < 1e-5);
    }
    // The run is in the store, with its strategy.
    Result<std::unique_ptr<Database>> db = Database::open(store);
    QVERIFY(db);
    RunRepository runs(*db.value());
    const Result<std::vector<RunSummary>> list = runs.listRuns();
    QVERIFY(list);
    QCOMPARE(list->size(), std::size_t(1));
    QCOMPARE(list->front().strategyName, QStringLiteral("k20"));
    QCOMPARE(list->front().text, choice.value("text").toString());
    // One log line for the request, naming its strategy.
    QTRY_VERIFY(!serve.log().isEmpty());
    const QJsonObject line = serve.log().last();
    QCOMPARE(line.value("strategy").toString(), QStringLiteral("k20"));
    QCOMPARE(line.value("completion_tokens").toInt(), 12);
}

// Issue 33: the server stopped a token before the context was full (history >= context) where `swb generate`
// and batches stop when it is (history > context): 123 tokens against 124 on a 128-token model. With the end
// token banned, greedy runs into the demo model's 1,024 positions: both give the same tokens, and the
// server's finish is OpenAI's "length".
void TestServe::contextLimitIsTheSameServedAndGenerated() {
    const char* strategy = R"({"samplers": [{"type": "banned_tokens", "ids": [0]}, {"type": "greedy"}]})";
    const auto generated = swb::test::runSwbProcess(
        {"generate", "--prompt", "In the beginning", "--max-tokens", "1100", "--json", "--strategy", strategy});
    QVERIFY2(generated.status == 0, generated.err.constData());
    const QJsonObject local = object(generated.out);
    QCOMPARE(local.value("finish_reason").toString(), QStringLiteral("context_limit"));
    const QJsonArray tokens = local.value("tokens").toArray();
    // Every position used: the prompt's ids and the tokens drawn, less the last one (drawn, never decoded).
    QCOMPARE(local.value("prompt_ids").toArray().size() + tokens.size() - 1, 1024);

    QTemporaryDir dir;
    ServeProcess serve({"--db", dir.filePath("served.sqlite")});
    QVERIFY2(serve.port() > 0, serve.stderrText().constData());
    const QByteArray body = QJsonDocument(QJsonObject{{"prompt", "In the beginning"}, {"max_tokens", 1100},
                                                      {"strategy", QJsonDocument::fromJson(strategy).object()}})
                                .toJson(QJsonDocument::Compact);
    const HttpReply reply = exchange(serve.port(), request("POST", "/v1/completions", body), 120000);
    QCOMPARE(reply.status, 200);
    const QJsonObject served = object(reply.body);
    QCOMPARE(served.value("usage").toObject().value("completion_tokens").toInt(), tokens.size());
    const QJsonObject choice = served.value("choices").toArray().at(0).toObject();
    QCOMPARE(choice.value("finish_reason").toString(), QStringLiteral("length"));
    QCOMPARE(choice.value("text").toString(), local.value("text").toString());
}

// The one stepping loop (generation/SampledSequence.h): a run alone, a batch of one and the server's
// continuous batching give the same tokens, text and finish reason at each way a run ends.
void TestServe::oneLoopEndsRunsAlike_data() {
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<int>("maxTokens");
    QTest::addColumn<QString>("finish");
    QTest::addColumn<int>("tokens"); // expected count; -1 when the finish reason alone says it
    const QString noEnd = R"({"samplers": [{"type": "banned_tokens", "ids": [0]}, {"type": "greedy"}]})";
    // The demo model's context holds 1024 positions: the prompt's ids and every token drawn but the last.
    QTest::newRow("context limit") << noEnd << 2000 << "context_limit" << -1;
    QTest::newRow("max tokens") << noEnd << 7 << "max_tokens" << 7;
    QTest::newRow("stop string")
        << QString(R"({"stop": " and", "samplers": [{"type": "banned_tokens", "ids": [0]}, {"type": "greedy"}]})")
        << 200 << "stop_string" << -1;
    // Token 0 is the demo model's end token: pushed up until a draw takes it.
    QTest::newRow("end token")
        << QString(R"({"seed": 3, "samplers": [{"type": "logit_bias", "bias": {"0": 6}}, {"type": "dist"}]})") << 500
        << "eos" << -1;
}

void TestServe::oneLoopEndsRunsAlike() {
    QFETCH(QString, strategy);
    QFETCH(int, maxTokens);
    QFETCH(QString, finish);
    QFETCH(int, tokens);
    Result<std::unique_ptr<Model>> model = Model::load(swb::test::demoModel());
    QVERIFY2(model, qPrintable(model ? QString() : model.error().message));
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(swb::test::demoModel());
    QVERIFY2(tokenizer, qPrintable(tokenizer ? QString() : tokenizer.error().message));
    Generator generator(*model.value(), *tokenizer.value());
    GenerationRequest request;
    request.prompt = "In the beginning";
    request.strategy = swb::test::strategyFromJson(strategy.toUtf8().constData());
    request.maxTokens = maxTokens;
    request.traceLevel = TraceLevel::Scalars;

    const Result<GenerationResult> alone = generator.generate(request);
    QVERIFY2(alone, qPrintable(alone ? QString() : alone.error().message));
    QCOMPARE(finishReasonName(alone->finish), finish);
    if (tokens >= 0)
        QCOMPARE(static_cast<int>(alone->steps.size()), tokens);
    if (finish == QLatin1String("context_limit"))
        QCOMPARE(alone->promptIds.size() + alone->steps.size() - 1, std::size_t(1024));
    if (finish == QLatin1String("stop_string"))
        QVERIFY(!alone->text.empty() && alone->text.find(" and") == std::string::npos);

    const std::vector<Result<GenerationResult>> batch = generator.generateBatch({request});
    QCOMPARE(batch.size(), std::size_t(1));

    ServingEngine engine(*model.value(), *tokenizer.value(), 2, 4);
    auto job = std::make_shared<ServeJob>();
    job->request = request;
    job->request.promptIds = alone->promptIds;
    job->request.usePromptIds = true;
    std::promise<Result<GenerationResult>> servedPromise;
    job->onStep = [](const ServedStep&) {};
    job->onFinished = [&](Result<GenerationResult> result) { servedPromise.set_value(std::move(result)); };
    QVERIFY(engine.submit(job));
    const Result<GenerationResult> served = servedPromise.get_future().get();

    const auto ids = [](const GenerationResult& result) {
        std::vector<TokenId> out;
        for (const GeneratedStep& step : result.steps)
            out.push_back(step.token);
        return out;
    };
    for (const Result<GenerationResult>* other : {&batch.front(), &served}) {
        QVERIFY2(*other, qPrintable(*other ? QString() : other->error().message));
        QCOMPARE(ids(other->value()), ids(alone.value()));
        QCOMPARE(finishReasonName(other->value().finish), finish);
        QCOMPARE(other->value().text, alone->text);
    }
}

void TestServe::streamingSendsTheSameText() {
    ServeProcess serve({});
    QVERIFY(serve.port() > 0);
    const QByteArray plain = R"({"prompt": "In the beginning", "max_tokens": 20, "temperature": 0.8, "seed": 11})";
    const HttpReply whole = exchange(serve.port(), request("POST", "/v1/completions", plain));
    QCOMPARE(whole.status, 200);
    const QByteArray streamed = R"({"prompt": "In the beginning", "max_tokens": 20, "temperature": 0.8, "seed": 11, "stream": true, "stream_options": {"include_usage": true}})";
    const HttpReply stream = exchange(serve.port(), request("POST", "/v1/completions", streamed));
    QCOMPARE(stream.status, 200);
    QVERIFY(stream.head.contains("text/event-stream"));
    bool done = false;
    const QList<QJsonObject> chunks = events(stream.body, &done);
    QVERIFY(done);
    QString text;
    QString finish;
    int usageTokens = -1;
    for (const QJsonObject& chunk : chunks) {
        if (chunk.contains("usage"))
            usageTokens = chunk.value("usage").toObject().value("completion_tokens").toInt();
        for (const QJsonValue& c : chunk.value("choices").toArray()) {
            text += c.toObject().value("text").toString();
            if (!c.toObject().value("finish_reason").isNull())
                finish = c.toObject().value("finish_reason").toString();
        }
    }
    const QJsonObject choice = object(whole.body).value("choices").toArray().at(0).toObject();
    QCOMPARE(text, choice.value("text").toString());
    QCOMPARE(finish, choice.value("finish_reason").toString());
    QCOMPARE(usageTokens, object(whole.body).value("usage").toObject().value("completion_tokens").toInt());
}

void TestServe::chatRendersTheTemplate() {
    ServeProcess serve({"--chat-template", chatTemplatePath()});
    QVERIFY2(serve.port() > 0, serve.stderrText().constData());
    const QByteArray body = R"({"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Who spoke?"}], "max_tokens": 8, "logprobs": true, "top_logprobs": 3})";
    const HttpReply reply = exchange(serve.port(), request("POST", "/v1/chat/completions", body));
    QCOMPARE(reply.status, 200);
    const QJsonObject out = object(reply.body);
    QCOMPARE(out.value("object").toString(), QStringLiteral("chat.completion"));
    const QJsonObject choice = out.value("choices").toArray().at(0).toObject();
    QCOMPARE(choice.value("message").toObject().value("role").toString(), QStringLiteral("assistant"));
    const QJsonArray content = choice.value("logprobs").toObject().value("content").toArray();
    QCOMPARE(content.size(), out.value("usage").toObject().value("completion_tokens").toInt());
    for (const QJsonValue& entry : content) {
        QCOMPARE(entry.toObject().value("top_logprobs").toArray().size(), 3);
        QVERIFY(entry.toObject().value("logprob").toDouble() <= 0.0);
    }
    // The prompt is the template's rendering: the same conversation through `swb render-template` has as many tokens.
    QTemporaryDir dir;
    QFile messages(dir.filePath("m.json"));
    QVERIFY(messages.open(QIODevice::WriteOnly));
    messages.write(R"([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Who spoke?"}])");
    messages.close();
    const auto rendered = swb::test::runSwbProcess({"render-template", "--messages", dir.filePath("m.json"), "--chat-template",
                                                    chatTemplatePath(), "--add-generation-prompt"});
    QCOMPARE(rendered.status, 0);
    QVERIFY(rendered.out.contains("<|im_start|>assistant"));
    const auto tokens = swb::test::runSwbProcess({"tokenize", "--parse-special", "--text", QString::fromUtf8(rendered.out)});
    QCOMPARE(tokens.status, 0);
    QCOMPARE(out.value("usage").toObject().value("prompt_tokens").toInt(), int(tokens.out.trimmed().split(' ').size()));
    // Streaming chat: the first delta carries the role.
    const QByteArray streamed = R"({"messages": [{"role": "user", "content": "Who spoke?"}], "max_tokens": 4, "stream": true})";
    const HttpReply stream = exchange(serve.port(), request("POST", "/v1/chat/completions", streamed));
    QCOMPARE(stream.status, 200);
    bool done = false;
    const QList<QJsonObject> chunks = events(stream.body, &done);
    QVERIFY(done && !chunks.isEmpty());
    QCOMPARE(chunks.front().value("object").toString(), QStringLiteral("chat.completion.chunk"));
    QCOMPARE(chunks.front().value("choices").toArray().at(0).toObject().value("delta").toObject().value("role").toString(),
             QStringLiteral("assistant"));
}

void TestServe::severalChoices() {
    ServeProcess serve({"--parallel", "3"});
    QVERIFY(serve.port() > 0);
    const QByteArray body = R"({"prompt": "And God said", "max_tokens": 16, "n": 3, "temperature": 1.0, "top_k": 40, "seed": 3})";
    const HttpReply reply = exchange(serve.port(), request("POST", "/v1/completions", body));
    QCOMPARE(reply.status, 200);
    const QJsonArray choices = object(reply.body).value("choices").toArray();
    QCOMPARE(choices.size(), 3);
    QSet<QString> texts;
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(choices.at(i).toObject().value("index").toInt(), i);
        texts.insert(choices.at(i).toObject().value("text").toString());
    }
    QVERIFY(texts.size() >= 2); // three seeds, three draws
    // The same request again: the same three texts (seeded).
    const HttpReply again = exchange(serve.port(), request("POST", "/v1/completions", body));
    QCOMPARE(object(again.body).value("choices").toArray(), choices);
}

void TestServe::strategySwitchesAndPersists() {
    QTemporaryDir dir;
    const QString store = dir.filePath("runs.sqlite");
    qputenv("SAMPLING_STRATEGY", "creative");
    {
        ServeProcess serve({"--db", store});
        qunsetenv("SAMPLING_STRATEGY");
        QVERIFY(serve.port() > 0);
        HttpReply reply = exchange(serve.port(), request("GET", "/v1/strategy"));
        QCOMPARE(reply.status, 200);
        QCOMPARE(object(reply.body).value("name").toString(), QStringLiteral("creative"));
        reply = exchange(serve.port(), request("PUT", "/v1/strategy", kStrategy));
        QCOMPARE(reply.status, 200);
        QCOMPARE(object(reply.body).value("name").toString(), QStringLiteral("k20"));
        // A request without sampling fields now uses it.
        reply = exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": "And God said", "max_tokens": 4})"));
        QCOMPARE(object(reply.body).value("strategy").toObject().value("name").toString(), QStringLiteral("k20"));
        QCOMPARE(object(reply.body).value("strategy").toObject().value("source").toString(), QStringLiteral("default"));
        // One with sampling fields builds its own.
        reply = exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": "And God said", "max_tokens": 4, "temperature": 0})"));
        QCOMPARE(object(reply.body).value("strategy").toObject().value("source").toString(), QStringLiteral("fields"));
        // An invalid one is refused and changes nothing.
        reply = exchange(serve.port(), request("PUT", "/v1/strategy", R"({"samplers": [{"type": "top_k", "k": -3}]})"));
        QCOMPARE(reply.status, 400);
        QVERIFY(object(reply.body).value("error").toObject().value("message").toString().contains("top_k"));
        reply = exchange(serve.port(), request("PUT", "/v1/strategy", R"({"strategy": "greedy"})"));
        QCOMPARE(object(reply.body).value("name").toString(), QStringLiteral("greedy"));
    }
    // Restarted on the same store without --strategy: the strategy put last.
    ServeProcess again({"--db", store});
    QVERIFY(again.port() > 0);
    const HttpReply reply = exchange(again.port(), request("GET", "/v1/strategy"));
    QCOMPARE(object(reply.body).value("strategy").toObject().value("samplers").toArray().last().toObject().value("type").toString(),
             QStringLiteral("greedy"));
    // Issue 34: each strategy put was renamed "serve default", so reports told them apart only as "serve default
    // #2", "#5". They keep their own names: the served runs are reported as k20's.
    const auto summary = swb::test::runSwbProcess({"export", "--report", "summary", "--db", store});
    QCOMPARE(summary.status, 0);
    QVERIFY2(!summary.out.contains("serve default"), summary.out.constData());
    QVERIFY2(summary.out.contains(",k20,"), summary.out.constData());
}

void TestServe::metricsAreValidPrometheusText() {
    ServeProcess serve({});
    QVERIFY(serve.port() > 0);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": "And", "max_tokens": 5})")).status, 200);
    exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": 5})"));
    const HttpReply reply = exchange(serve.port(), request("GET", "/metrics"));
    QCOMPARE(reply.status, 200);
    QVERIFY(reply.head.contains("text/plain; version=0.0.4"));
    // Every line a comment (# HELP / # TYPE) or `name{labels} value`; histogram buckets cumulative, +Inf = count.
    static const QRegularExpression sample(QStringLiteral(R"(^([a-z_]+)(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? (-?[0-9.e+]+)$)"));
    QMap<QString, double> values;
    for (const QByteArray& line : reply.body.trimmed().split('\n')) {
        if (line.startsWith("# HELP ") || line.startsWith("# TYPE "))
            continue;
        const QRegularExpressionMatch m = sample.match(QString::fromUtf8(line));
        QVERIFY2(m.hasMatch(), line.constData());
        values.insert(m.captured(1) + m.captured(2), m.captured(4).toDouble());
    }
    QCOMPARE(values.value("swb_requests_total{endpoint=\"/v1/completions\",status=\"200\"}"), 3.0);
    QCOMPARE(values.value("swb_requests_total{endpoint=\"/v1/completions\",status=\"400\"}"), 1.0);
    QCOMPARE(values.value("swb_generated_tokens_total"), 15.0);
    QCOMPARE(values.value("swb_request_duration_seconds_count"), 3.0);
    QCOMPARE(values.value("swb_request_duration_seconds_bucket{le=\"+Inf\"}"), 3.0);
    QCOMPARE(values.value("swb_time_to_first_token_seconds_count"), 3.0);
    QVERIFY(values.contains("swb_queue_length") && values.contains("swb_busy_slots"));
    double previous = 0;
    for (const char* le : {"0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10"}) {
        const double v = values.value(QStringLiteral("swb_time_to_first_token_seconds_bucket{le=\"%1\"}").arg(QLatin1String(le)));
        QVERIFY(v >= previous);
        previous = v;
    }
}

void TestServe::malformedRequestsGetErrorObjects_data() {
    QTest::addColumn<QByteArray>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("param");
    QTest::newRow("not JSON") << QByteArray("/v1/completions") << QByteArray("{\"prompt\": ") << 400 << QString();
    QTest::newRow("an array") << QByteArray("/v1/completions") << QByteArray("[1, 2]") << 400 << QString();
    QTest::newRow("unknown field") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "best_of": 2})") << 400 << "best_of";
    QTest::newRow("no prompt") << QByteArray("/v1/completions") << QByteArray(R"({"max_tokens": 3})") << 400 << "prompt";
    QTest::newRow("prompt object") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": {"a": 1}})") << 400 << "prompt";
    QTest::newRow("token past vocabulary") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": [1, 99999]})") << 400 << "prompt";
    QTest::newRow("temperature 5") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "temperature": 5})") << 400 << "temperature";
    QTest::newRow("top_p 0") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "top_p": 0})") << 400 << "top_p";
    QTest::newRow("n 0") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "n": 0})") << 400 << "n";
    QTest::newRow("max_tokens negative") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "max_tokens": -1})") << 400 << "max_tokens";
    QTest::newRow("max_tokens a string") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "max_tokens": "9"})") << 400 << "max_tokens";
    QTest::newRow("stream yes") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "stream": "yes"})") << 400 << "stream";
    QTest::newRow("stop empty") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "stop": [""]})") << 400 << "stop";
    QTest::newRow("logit_bias key") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "logit_bias": {"x": 1}})") << 400 << "logit_bias";
    QTest::newRow("logit_bias value") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "logit_bias": {"5": 500}})") << 400 << "logit_bias";
    QTest::newRow("logprobs 30") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "logprobs": 30})") << 400 << "logprobs";
    QTest::newRow("seed fraction") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "seed": 1.5})") << 400 << "seed";
    QTest::newRow("bad strategy") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "strategy": "no-such-preset"})") << 400 << "strategy";
    QTest::newRow("echo") << QByteArray("/v1/completions") << QByteArray(R"({"prompt": "a", "echo": true})") << 400 << "echo";
    QTest::newRow("chat without messages") << QByteArray("/v1/chat/completions") << QByteArray(R"({"prompt": "a"})") << 400 << "prompt";
    QTest::newRow("chat role") << QByteArray("/v1/chat/completions") << QByteArray(R"({"messages": [{"role": "robot", "content": "x"}]})") << 400 << "messages";
    QTest::newRow("top_logprobs alone") << QByteArray("/v1/chat/completions") << QByteArray(R"({"messages": [{"role": "user", "content": "x"}], "top_logprobs": 2})") << 400 << "top_logprobs";
    QTest::newRow("schema keyword")
        << QByteArray("/v1/chat/completions")
        << QByteArray(
               R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_schema", "json_schema": {"name": "n", "schema": {"type": "integer", "minimum": 3}}}})")
        << 400 << "response_format";
    QTest::newRow("schema missing")
        << QByteArray("/v1/chat/completions")
        << QByteArray(
               R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_schema", "json_schema": {"name": "n"}}})")
        << 400 << "response_format";
    QTest::newRow("format type")
        << QByteArray("/v1/chat/completions")
        << QByteArray(R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "xml"}})") << 400
        << "response_format";
    QTest::newRow("GBNF syntax") << QByteArray("/v1/completions")
                                 << QByteArray(R"({"prompt": "a", "grammar": "root ::= [a-"})") << 400 << "grammar";
    QTest::newRow("two constraints")
        << QByteArray("/v1/completions")
        << QByteArray(R"({"prompt": "a", "grammar": "root ::= \"a\"", "json_schema": {"type": "integer"}})") << 400
        << "json_schema";
    QTest::newRow("unknown path") << QByteArray("/v1/embeddings") << QByteArray("{}") << 404 << QString();
}

void TestServe::malformedRequestsGetErrorObjects() {
    static ServeProcess* serve = nullptr;
    if (!serve)
        serve = new ServeProcess({"--chat-template", chatTemplatePath()});
    QVERIFY(serve->port() > 0);
    QFETCH(QByteArray, path);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, param);
    const HttpReply reply = exchange(serve->port(), request("POST", path, body));
    QCOMPARE(reply.status, status);
    const QJsonObject error = object(reply.body).value("error").toObject();
    QVERIFY2(!error.value("message").toString().isEmpty(), reply.body.constData());
    QVERIFY(error.contains("type"));
    if (!param.isEmpty())
        QCOMPARE(error.value("param").toString(), param);
    // The server took no harm.
    QCOMPARE(exchange(serve->port(), request("GET", "/health")).status, 200);
    // HTTP-level refusals also get the error object: a wrong method, a chunked body.
    if (QByteArray(QTest::currentDataTag()) == "unknown path") {
        HttpReply wrong = exchange(serve->port(), request("GET", "/v1/completions"));
        QCOMPARE(wrong.status, 405);
        wrong = exchange(serve->port(), "POST /v1/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
        QCOMPARE(wrong.status, 501);
        QVERIFY(object(wrong.body).value("error").toObject().value("message").toString().contains("Content-Length"));
        delete serve;
        serve = nullptr;
    }
}

void TestServe::apiKey() {
    // Off loopback without a key: refused before anything is loaded.
    const auto open = swb::test::runSwbProcess({"serve", "--host", "0.0.0.0", "--port", "0"});
    QCOMPARE(open.status, 2);
    QVERIFY2(open.err.contains("needs --api-key"), open.err.constData());
    ServeProcess serve({"--api-key", "sekrit"});
    QVERIFY(serve.port() > 0);
    HttpReply reply = exchange(serve.port(), request("GET", "/v1/models"));
    QCOMPARE(reply.status, 401);
    QCOMPARE(object(reply.body).value("error").toObject().value("type").toString(), QStringLiteral("authentication_error"));
    reply = exchange(serve.port(), request("GET", "/v1/models", {}, "Authorization: Bearer wrong\r\n"));
    QCOMPARE(reply.status, 401);
    reply = exchange(serve.port(), request("GET", "/v1/models", {}, "Authorization: Bearer sekrit\r\n"));
    QCOMPARE(reply.status, 200);
    QCOMPARE(object(reply.body).value("data").toArray().at(0).toObject().value("id").toString(), QStringLiteral("kjv-tiny"));
    QCOMPARE(exchange(serve.port(), request("GET", "/health")).status, 200);
}

void TestServe::fullQueueAnswers503() {
    // One slot, no queue: while a long generation runs, the next request is turned away with Retry-After.
    ServeProcess serve({"--parallel", "1", "--queue", "0"});
    QVERIFY(serve.port() > 0);
    QTcpSocket first;
    first.connectToHost(QStringLiteral("127.0.0.1"), serve.port());
    QVERIFY(first.waitForConnected(5000));
    first.write(request("POST", "/v1/completions", R"({"prompt": "And", "max_tokens": 120, "stream": true, "temperature": 1, "seed": 1, "logit_bias": {"0": -100, "1": -100, "2": -100}})"));
    QVERIFY(first.waitForReadyRead(10000)); // the stream has begun: the slot is taken
    const HttpReply second = exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": "And", "max_tokens": 4})"));
    QCOMPARE(second.status, 503);
    QVERIFY(second.head.contains("Retry-After: 1"));
    QCOMPARE(object(second.body).value("error").toObject().value("type").toString(), QStringLiteral("server_busy"));
    // Once the first is done (the server closes its connection), the slot serves again.
    QElapsedTimer timer;
    timer.start();
    while (first.state() == QAbstractSocket::ConnectedState && timer.elapsed() < 120000)
        if (first.waitForReadyRead(1000))
            first.readAll();
    QCOMPARE(first.state(), QAbstractSocket::UnconnectedState);
    QTRY_COMPARE_WITH_TIMEOUT(exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": "And", "max_tokens": 4})")).status,
                              200, 30000);
    // A client that sends its next request as soon as it has an answer is never refused: the slot is free
    // before the answer leaves (it was not, under load, when the engine marked it free after answering).
    for (int i = 0; i < 30; ++i)
        QCOMPARE(exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": "And", "max_tokens": 2})")).status, 200);
}

// Issue 34: a `"` in one unauthenticated request's path made /metrics unparsable for the rest of the process's
// life, and every raw path became a label (20,000 requests grew it to 21 MB). Unknown paths now count as
// "other", and the text stays in the exposition format whatever the clients sent.
void TestServe::metricsFoldUnknownPathsAndStayParsable() {
    ServeProcess serve({"--api-key", "sekrit"});
    QVERIFY(serve.port() > 0);
    QCOMPARE(exchange(serve.port(), "GET /v1/models\"}\\ HTTP/1.1\r\nConnection: close\r\n\r\n").status, 401);
    for (int i = 0; i < 30; ++i)
        QCOMPARE(exchange(serve.port(), request("GET", "/x" + QByteArray::number(i))).status, 401);
    const QByteArray key = "Authorization: Bearer sekrit\r\n";
    for (int i = 0; i < 5; ++i)
        QCOMPARE(exchange(serve.port(), request("GET", "/no/such/" + QByteArray::number(i), {}, key)).status, 404);
    QCOMPARE(exchange(serve.port(), request("GET", "/health")).status, 200);
    const HttpReply reply = exchange(serve.port(), request("GET", "/metrics", {}, key));
    QCOMPARE(reply.status, 200);
    static const QRegularExpression sample(QStringLiteral(
        R"(^([a-z_]+)(\{[a-z_]+="(?:[^"\\\n]|\\.)*"(,[a-z_]+="(?:[^"\\\n]|\\.)*")*\})? (-?[0-9.e+]+)$)"));
    QMap<QString, double> values;
    QSet<QString> endpoints;
    static const QRegularExpression endpoint(QStringLiteral(R"re(endpoint="([^"]*)")re"));
    for (const QByteArray& line : reply.body.trimmed().split('\n')) {
        if (line.startsWith("# HELP ") || line.startsWith("# TYPE "))
            continue;
        const QRegularExpressionMatch m = sample.match(QString::fromUtf8(line));
        QVERIFY2(m.hasMatch(), line.constData());
        values.insert(m.captured(1) + m.captured(2), m.captured(4).toDouble());
        if (const QRegularExpressionMatch e = endpoint.match(QString::fromUtf8(line)); e.hasMatch())
            endpoints.insert(e.captured(1));
    }
    QCOMPARE(values.value("swb_requests_total{endpoint=\"other\",status=\"401\"}"), 31.0);
    QCOMPARE(values.value("swb_requests_total{endpoint=\"other\",status=\"404\"}"), 5.0);
    QCOMPARE(endpoints, (QSet<QString>{"other", "/health"}));
    // Prometheus' own checker, where it is installed (Debian's prometheus package).
    const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
    if (promtool.isEmpty())
        QSKIP("promtool is not installed (Debian package prometheus): the format was checked by pattern only");
    QProcess check;
    check.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
    QVERIFY(check.waitForStarted(10000));
    check.write(reply.body);
    check.closeWriteChannel();
    QVERIFY(check.waitForFinished(30000));
    const QByteArray said = check.readAllStandardOutput() + check.readAllStandardError();
    QVERIFY2(check.exitCode() == 0, said.constData());
}

// Issue 34: a model the server does not have was served with 200 as if asked for, and GET /v1/models/{id}
// was 404 for the model it has.
void TestServe::modelsAreLookedUpByName() {
    ServeProcess serve({});
    QVERIFY(serve.port() > 0);
    HttpReply reply = exchange(serve.port(), request("GET", "/v1/models/kjv-tiny"));
    QCOMPARE(reply.status, 200);
    QCOMPARE(object(reply.body).value("id").toString(), QStringLiteral("kjv-tiny"));
    QCOMPARE(object(reply.body).value("object").toString(), QStringLiteral("model"));
    reply = exchange(serve.port(), request("GET", "/v1/models/gpt-4o"));
    QCOMPARE(reply.status, 404);
    QCOMPARE(object(reply.body).value("error").toObject().value("code").toString(), QStringLiteral("model_not_found"));
    reply = exchange(serve.port(),
                     request("POST", "/v1/completions", R"({"model": "gpt-4o", "prompt": "And", "max_tokens": 2})"));
    QCOMPARE(reply.status, 404);
    const QJsonObject error = object(reply.body).value("error").toObject();
    QCOMPARE(error.value("code").toString(), QStringLiteral("model_not_found"));
    QCOMPARE(error.value("param").toString(), QStringLiteral("model"));
    QVERIFY2(error.value("message").toString().contains("kjv-tiny"), reply.body.constData());
    reply = exchange(serve.port(),
                     request("POST", "/v1/completions", R"({"model": "kjv-tiny", "prompt": "And", "max_tokens": 2})"));
    QCOMPARE(reply.status, 200);
}

// Issue 34: a head dribbled a byte at a time was never cut (each byte restarted the timer), a head without its
// body was held 120 s and closed without an answer, connections were unlimited, and "Expect: 100-continue"
// went unanswered (curl waits a second before sending a large body).
void TestServe::slowClientsAreCutAndConnectionsLimited() {
    ServeProcess serve({"--request-timeout", "1", "--max-connections", "3"});
    QVERIFY(serve.port() > 0);
    {
        QTcpSocket dribbler;
        dribbler.connectToHost(QStringLiteral("127.0.0.1"), serve.port());
        QVERIFY(dribbler.waitForConnected(5000));
        const QByteArray head =
            "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
        QElapsedTimer timer;
        timer.start();
        QByteArray answer;
        for (int i = 0; i < head.size() && dribbler.state() == QAbstractSocket::ConnectedState; ++i) {
            dribbler.write(head.mid(i, 1));
            dribbler.flush();
            if (dribbler.waitForReadyRead(150))
                answer += dribbler.readAll();
        }
        answer += readUntilClosed(dribbler, 3000);
        QVERIFY2(answer.startsWith("HTTP/1.1 408 "), answer.constData());
        QVERIFY2(timer.elapsed() < 2500, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(answer.contains("head did not arrive within 1 s"));
    }
    {
        QTcpSocket bodiless;
        bodiless.connectToHost(QStringLiteral("127.0.0.1"), serve.port());
        QVERIFY(bodiless.waitForConnected(5000));
        QElapsedTimer timer;
        timer.start();
        bodiless.write("POST /v1/completions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 40\r\n\r\n{\"prompt\"");
        const QByteArray answer = readUntilClosed(bodiless, 5000);
        QVERIFY2(answer.startsWith("HTTP/1.1 408 "), answer.constData());
        QVERIFY2(timer.elapsed() < 2500, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(answer.contains("body did not arrive within 1 s"));
    }
    {
        QTcpSocket expecting;
        expecting.connectToHost(QStringLiteral("127.0.0.1"), serve.port());
        QVERIFY(expecting.waitForConnected(5000));
        const QByteArray body = R"({"prompt": "And", "max_tokens": 2})";
        expecting.write(
            "POST /v1/completions HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nExpect: 100-continue\r\n"
            "Content-Length: " +
            QByteArray::number(body.size()) + "\r\n\r\n");
        QVERIFY(expecting.waitForReadyRead(900));
        QCOMPARE(expecting.readAll(), QByteArray("HTTP/1.1 100 Continue\r\n\r\n"));
        expecting.write(body);
        QVERIFY(readUntilClosed(expecting, 10000).startsWith("HTTP/1.1 200 "));
    }
    // Three connections open and idle: the fourth is answered 503 and closed, and once one goes, it is served.
    std::vector<std::unique_ptr<QTcpSocket>> idle;
    for (int i = 0; i < 3; ++i) {
        idle.push_back(std::make_unique<QTcpSocket>());
        idle.back()->connectToHost(QStringLiteral("127.0.0.1"), serve.port());
        QVERIFY(idle.back()->waitForConnected(5000));
    }
    QTest::qWait(200);
    HttpReply turnedAway = exchange(serve.port(), request("GET", "/health"));
    QCOMPARE(turnedAway.status, 503);
    QVERIFY(object(turnedAway.body).value("error").toObject().value("message").toString().contains("connections"));
    idle.front()->abort();
    QTRY_COMPARE_WITH_TIMEOUT(exchange(serve.port(), request("GET", "/health")).status, 200, 5000);
}

// Issue 34: SIGTERM cut the streams in flight (no [DONE]). Now the server stops accepting, lets every request
// in flight finish, and exits 0.
void TestServe::sigtermDrainsStreamsInFlight() {
    ServeProcess serve({"--parallel", "4", "--queue", "8"});
    QVERIFY(serve.port() > 0);
    std::vector<std::unique_ptr<QTcpSocket>> streams;
    for (int i = 0; i < 8; ++i) {
        streams.push_back(std::make_unique<QTcpSocket>());
        streams.back()->connectToHost(QStringLiteral("127.0.0.1"), serve.port());
        QVERIFY(streams.back()->waitForConnected(5000));
        streams.back()->write(
            request("POST", "/v1/completions",
                    R"({"prompt": "And", "max_tokens": 600, "stream": true, "temperature": 1, "seed": )" +
                        QByteArray::number(i) + R"(, "logit_bias": {"0": -100, "1": -100, "2": -100}})"));
        streams.back()->flush();
    }
    QVERIFY(streams.front()->waitForReadyRead(10000)); // generation has begun
    QByteArray first = streams.front()->readAll();
    const int status = serve.terminateAndWait(60000);
    QCOMPARE(status, 0);
    for (std::size_t i = 0; i < streams.size(); ++i) {
        const QByteArray data = (i == 0 ? first : QByteArray()) + readUntilClosed(*streams[i], 5000);
        QVERIFY2(data.startsWith("HTTP/1.1 200 "), data.left(200).constData());
        QVERIFY2(data.contains("data: [DONE]"), qPrintable(QStringLiteral("stream %1 was cut").arg(i)));
    }
    // The signal came while they ran: the server said how many it let finish.
    const QByteArray log = serve.stderrText();
    static const QRegularExpression stopping(QStringLiteral(R"(stopping; (\d+) request\(s\) in flight)"));
    const QRegularExpressionMatch m = stopping.match(QString::fromUtf8(log));
    QVERIFY2(m.hasMatch() && m.captured(1).toInt() >= 4, log.right(600).constData());
    QVERIFY(log.contains("swb serve: stopped"));
}

// --api-key-file: the key out of the process list; both ways of giving it at once are refused.
void TestServe::apiKeyFromAFile() {
    QTemporaryDir dir;
    QFile file(dir.filePath("key"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("from-a-file\n");
    file.close();
    ServeProcess serve({"--api-key-file", file.fileName()});
    QVERIFY(serve.port() > 0);
    QCOMPARE(exchange(serve.port(), request("GET", "/v1/models")).status, 401);
    QCOMPARE(exchange(serve.port(), request("GET", "/v1/models", {}, "Authorization: Bearer from-a-file\r\n")).status,
             200);
    const auto both =
        swb::test::runSwbProcess({"serve", "--port", "0", "--api-key", "k", "--api-key-file", file.fileName()});
    QCOMPARE(both.status, 2);
    QVERIFY2(both.err.contains("not both"), both.err.constData());
}

// Issue 34: OpenAI content parts reached the template as a Python list's text (46 prompt tokens instead of 17),
// content 5 was accepted, response_format and tool_choice were refused as unknown fields, n past every slot and
// queue place was told to retry, and text_offset counted bytes.
void TestServe::clientsShapesAreReadAsOpenAiMeansThem() {
    ServeProcess serve({"--chat-template", chatTemplatePath(), "--parallel", "2", "--queue", "3"});
    QVERIFY(serve.port() > 0);
    const auto usage = [&](const QByteArray& body) {
        const HttpReply reply = exchange(serve.port(), request("POST", "/v1/chat/completions", body));
        return std::pair{reply.status, object(reply.body).value("usage").toObject().value("prompt_tokens").toInt()};
    };
    const auto plain = usage(R"({"messages": [{"role": "user", "content": "Who spoke?"}], "max_tokens": 2})");
    QCOMPARE(plain.first, 200);
    const auto parts = usage(
        R"({"messages": [{"role": "user", "content": [{"type": "text", "text": "Who spoke?"}]}], "max_tokens": 2})");
    QCOMPARE(parts, plain);
    // Two parts are one text with a line break between them, as vLLM joins them.
    const auto joined = usage(R"({"messages": [{"role": "user", "content": "Who\nspoke?"}], "max_tokens": 2})");
    QCOMPARE(
        usage(
            R"({"messages": [{"role": "user", "content": [{"type": "text", "text": "Who"}, {"type": "text", "text": "spoke?"}]}], "max_tokens": 2})"),
        joined);
    // text_offset and the rest: tool_choice "auto" and response_format "text" are served; what is not is refused
    // with what is.
    QCOMPARE(
        usage(
            R"({"messages": [{"role": "user", "content": "Who spoke?"}], "max_tokens": 2, "tool_choice": "auto", "response_format": {"type": "text"}})"),
        plain);
    struct Refused {
        QByteArray body;
        QString param;
        QString says;
    };
    for (const Refused& refused : {
             Refused{R"({"messages": [{"role": "user", "content": 5}]})", "messages",
                     "must be a string or an array of text parts"},
             Refused{
                 R"({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]})",
                 "messages", "'image_url' are not supported"},
             // json_object and json_schema are served since issue 36 (structuredOutputFollowsItsConstraint).
             Refused{R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "xml"}})",
                     "response_format", "type 'xml' is not supported (text, json_object and json_schema are)"},
             Refused{R"({"messages": [{"role": "user", "content": "x"}], "tool_choice": "required"})", "tool_choice",
                     "only \"none\" and \"auto\""},
             Refused{R"({"messages": [{"role": "user", "content": "x"}], "n": 6})", "n", "at most 5 choices fit"},
         }) {
        const HttpReply reply = exchange(serve.port(), request("POST", "/v1/chat/completions", refused.body));
        QCOMPARE(reply.status, 400);
        const QJsonObject error = object(reply.body).value("error").toObject();
        QCOMPARE(error.value("param").toString(), refused.param);
        QVERIFY2(error.value("message").toString().contains(refused.says), reply.body.constData());
    }
    // text_offset counts characters (textLength: code points, where it counted bytes).
    const HttpReply completion =
        exchange(serve.port(),
                 request("POST", "/v1/completions", R"({"prompt": "And God said", "max_tokens": 24, "logprobs": 1})"));
    QCOMPARE(completion.status, 200);
    const QJsonObject choice = object(completion.body).value("choices").toArray().at(0).toObject();
    const QJsonArray offsets = choice.value("logprobs").toObject().value("text_offset").toArray();
    QCOMPARE(offsets.size(), 24);
    QCOMPARE(offsets.first().toInt(), 0);
    for (qsizetype i = 1; i < offsets.size(); ++i)
        QVERIFY(offsets[i].toInt() >= offsets[i - 1].toInt());
    QVERIFY(offsets.last().toInt() <= choice.value("text").toString().size());
    QCOMPARE(swb::textLength("a\xC3\xA9\xE6\x97\xA5\xF0\x9F\x98\x80"), std::size_t(4)); // a, é, 日, 😀
    // Completions' top_logprobs list their tokens most likely first, as written (they came in alphabetical order).
    const HttpReply tops =
        exchange(serve.port(),
                 request("POST", "/v1/completions", R"({"prompt": "And God said", "max_tokens": 8, "logprobs": 5})"));
    QCOMPARE(tops.status, 200);
    const qsizetype start = tops.body.indexOf("\"top_logprobs\":[");
    QVERIFY(start >= 0);
    const QByteArray list = tops.body.mid(start, tops.body.indexOf(']', start) - start);
    static const QRegularExpression entry(QStringLiteral(R"re(\{([^{}]*)\})re"));
    static const QRegularExpression number(QStringLiteral(R"re(":(-?[0-9.eE+-]+))re"));
    int checked = 0;
    for (auto objects = entry.globalMatch(QString::fromUtf8(list)); objects.hasNext();) {
        double previous = 1.0;
        int members = 0;
        for (auto values = number.globalMatch(objects.next().captured(1)); values.hasNext(); ++members) {
            const double logprob = values.next().captured(1).toDouble();
            QVERIFY2(logprob <= previous, list.constData());
            previous = logprob;
        }
        QCOMPARE(members, 5);
        ++checked;
    }
    QCOMPARE(checked, 8);
}

// The official `openai` npm client (6.x) makes every call the README documents (tests/data/openai-client/calls.mjs):
// models, completions and chat, streamed and not, n, logprobs, content parts, stop, and the errors it maps to its
// own classes (400 with param, 404 model_not_found, 401). Installed into the test's own folder; skipped where npm
// or the network is not there.
void TestServe::officialOpenAiClientMakesEveryDocumentedCall() {
    const QString npm = QStandardPaths::findExecutable(QStringLiteral("npm"));
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (npm.isEmpty() || node.isEmpty())
        QSKIP("npm and node are not installed: the official openai client cannot be tried");
    QTemporaryDir dir;
    QVERIFY(QFile::copy(QStringLiteral(SWB_TEST_DATA_DIR "/openai-client/calls.mjs"), dir.filePath("calls.mjs")));
    QProcess install;
    install.start(npm, {"install", "openai@6", "--prefix", dir.path(), "--ignore-scripts", "--no-audit", "--no-fund",
                        "--loglevel=error"});
    if (!install.waitForFinished(180000) || install.exitCode() != 0)
        QSKIP(qPrintable(QStringLiteral("cannot install the openai client (no network?): %1")
                             .arg(QString::fromUtf8(install.readAllStandardError().trimmed().right(200)))));
    ServeProcess serve({"--api-key", "k", "--chat-template", chatTemplatePath()});
    QVERIFY(serve.port() > 0);
    QProcess client;
    client.start(
        node, {dir.filePath("calls.mjs"), QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port()), "k", "kjv-tiny"});
    QVERIFY(client.waitForFinished(120000));
    const QByteArray out = client.readAllStandardOutput();
    QVERIFY2(client.exitCode() == 0, (out + client.readAllStandardError()).constData());
    QCOMPARE(out.count("ok "), 7);
}

void TestServe::disconnectCancels() {
    ServeProcess serve({"--parallel", "1"});
    QVERIFY(serve.port() > 0);
    QTcpSocket client;
    client.connectToHost(QStringLiteral("127.0.0.1"), serve.port());
    QVERIFY(client.waitForConnected(5000));
    client.write(request("POST", "/v1/completions", R"({"prompt": "And", "max_tokens": 120, "stream": true, "temperature": 1, "seed": 1, "logit_bias": {"0": -100, "1": -100, "2": -100}})"));
    QVERIFY(client.waitForReadyRead(10000));
    client.abort(); // gone after the first bytes
    // The request ends early, logged as the client's going (499), and the slot is free again.
    QTRY_VERIFY_WITH_TIMEOUT(!serve.log().isEmpty(), 10000);
    const QJsonObject line = serve.log().last();
    QCOMPARE(line.value("status").toInt(), 499);
    QVERIFY2(line.value("completion_tokens").toInt() < 120, QJsonDocument(line).toJson().constData());
    QCOMPARE(exchange(serve.port(), request("POST", "/v1/completions", R"({"prompt": "And", "max_tokens": 4})")).status, 200);
}

QTEST_GUILESS_MAIN(TestServe)
// `swb divergence` with model B served (here the same model behind swb serve): B's top 5 a position and, forced by a
// logit bias, the log probability of each token of the text; so the perplexities agree and the KL, a lower bound
// labelled so, is zero to rounding. A served model cannot be A.
void TestServe::divergenceReadsAServedModelB() {
    QTemporaryDir dir;
    ServeProcess serve({});
    QVERIFY(serve.port() > 0);
    const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
    const QString text = dir.filePath(QStringLiteral("text.txt"));
    QFile file(text);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("And God said, Let there be light: and there was light.\nAnd God saw the light, that it was good.\n");
    file.close();
    const QString demo = QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
    const auto r = swb::test::runSwbProcess(
        {"divergence", "--model", demo, "--model", address, "--text", text, "--top-n", "5", "--json"});
    QVERIFY2(r.status == 0, r.err.constData());
    const QJsonObject json = object(r.out);
    QVERIFY(json.value("tokens").toInt() > 20);
    QCOMPARE(json.value("model_b_top_n").toInt(), 5);
    QCOMPARE(json.value("model_b_engine").toString(), QStringLiteral("swb serve"));
    QVERIFY(json.value("kl").toString().startsWith(QStringLiteral("lower bound")));
    QCOMPARE(json.value("same_top1").toDouble(), 1.0);
    QVERIFY2(json.value("max_kl").toDouble() < 1e-9, r.out.constData());
    const double pplA = json.value("ppl_a").toDouble(), pplB = json.value("ppl_b").toDouble();
    QVERIFY2(std::fabs(pplA - pplB) < 1e-5 * pplA, r.out.constData());

    const auto refused = swb::test::runSwbProcess({"divergence", "--model", address, "--model", demo, "--text", text});
    QCOMPARE(refused.status, 2);
    QVERIFY2(refused.err.contains("model A must be here"), refused.err.constData());
}

// `swb generate --model http://…/v1` on `swb serve`: the engine samples, and the tokens, text, and each
// step's raw and post-chain probabilities are those of `swb generate` on the same model, strategy and seed.
void TestServe::remoteModelMatchesLocalGenerate() {
    QTemporaryDir dir;
    ServeProcess serve({"--api-key", "sekrit"});
    QVERIFY(serve.port() > 0);
    const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
    const QString store = dir.filePath("remote.sqlite");
    const auto remote = swb::test::runSwbProcess({"generate", "--model", address, "--api-key", "sekrit", "--prompt",
                                                  "And God said", "--max-tokens", "12", "--json", "--top-logprobs", "5",
                                                  "--trace", dir.filePath("remote.jsonl"), "--strategy", kStrategy,
                                                  "--db", store});
    QVERIFY2(remote.status == 0, remote.err.constData());
    const auto local = swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--max-tokens", "12", "--json",
                                                 "--trace", dir.filePath("local.jsonl"), "--strategy", kStrategy});
    QCOMPARE(local.status, 0);
    const QJsonObject r = object(remote.out), l = object(local.out);
    QCOMPARE(r.value("engine").toString(), QStringLiteral("swb serve"));
    QCOMPARE(r.value("model").toString(), QStringLiteral("kjv-tiny"));
    QCOMPARE(r.value("text").toString(), l.value("text").toString());
    QCOMPARE(r.value("tokens").toArray(), l.value("tokens").toArray());
    // The same words for the same end, remote or local (the remote said the engine's "length").
    QCOMPARE(r.value("finish_reason").toString(), QStringLiteral("max_tokens"));
    QCOMPARE(r.value("finish_reason").toString(), l.value("finish_reason").toString());
    // swb info on the address: what its server says of it; commands that need the model here say so.
    const auto info = swb::test::runSwbProcess({"info", "--model", address, "--api-key", "sekrit"});
    QCOMPARE(info.status, 0);
    QCOMPARE(object(info.out).value("engine").toString(), QStringLiteral("swb serve"));
    QCOMPARE(object(info.out).value("model").toString(), QStringLiteral("kjv-tiny"));
    // Exported, what the engine did not give is empty, not 0 (it said a mean raw entropy of 0).
    const auto steps = swb::test::runSwbProcess({"export", "--report", "steps", "--db", store});
    QCOMPARE(steps.status, 0);
    const QList<QByteArray> rows = steps.out.trimmed().split('\n');
    QCOMPARE(rows.size(), 13);
    QVERIFY2(rows[0].trimmed().endsWith("raw_rank,raw_entropy,final_entropy,final_count"), rows[0].constData());
    for (qsizetype i = 1; i < rows.size(); ++i) // CSV rows end in CR LF
        QVERIFY2(rows[i].trimmed().endsWith(",,,"), rows[i].constData());
    const auto summary = swb::test::runSwbProcess({"export", "--report", "summary", "--db", store});
    QCOMPARE(summary.status, 0);
    const QList<QByteArray> lines = summary.out.trimmed().split('\n');
    const int column = int(lines[0].trimmed().split(',').indexOf("mean_raw_entropy"));
    QVERIFY2(column > 0, lines[0].constData());
    QCOMPARE(lines[1].trimmed().split(',').value(column), QByteArray());
    const auto served = swb::test::runSwbProcess({"serve", "--port", "0", "--model", address});
    QCOMPARE(served.status, 2);
    QVERIFY2(served.err.contains("is a server address"), served.err.constData());
    QFile remoteTrace(dir.filePath("remote.jsonl")), localTrace(dir.filePath("local.jsonl"));
    QVERIFY(remoteTrace.open(QIODevice::ReadOnly) && localTrace.open(QIODevice::ReadOnly));
    const QList<QByteArray> remoteLines = remoteTrace.readAll().trimmed().split('\n');
    const QList<QByteArray> localLines = localTrace.readAll().trimmed().split('\n');
    QCOMPARE(remoteLines.size(), 12);
    QCOMPARE(remoteLines.size(), localLines.size());
    for (int i = 0; i < remoteLines.size(); ++i) {
        const QJsonObject a = object(remoteLines[i]), b = object(localLines[i]);
        QVERIFY(a.value("top_n_only").toBool());
        QCOMPARE(a.value("chosen").toInt(), b.value("chosen").toInt());
        QVERIFY(std::abs(a.value("raw_p").toDouble() - b.value("raw_p").toDouble()) < 1e-6);
        QVERIFY(std::abs(a.value("final_p").toDouble() - b.value("final_p").toDouble()) < 1e-6);
        // The engine's top 5 are the local trace's first five candidates, with their raw probabilities.
        const QJsonArray top = a.value("top").toArray(), candidates = b.value("top").toArray();
        QCOMPARE(top.size(), 5);
        for (int j = 0; j < top.size(); ++j) {
            QCOMPARE(top[j].toObject().value("id").toInt(), candidates[j].toObject().value("id").toInt());
            QVERIFY(std::abs(top[j].toObject().value("raw_p").toDouble() - candidates[j].toObject().value("raw_p").toDouble()) < 1e-6);
        }
        QVERIFY(!a.value("final_top").toArray().isEmpty());
    }
    // The run is stored like any run: its model the address, its steps the engine's tokens and probabilities.
    Result<std::unique_ptr<Database>> db = Database::open(store);
    QVERIFY(db);
    RunRepository runs(*db.value());
    const Result<std::vector<RunSummary>> list = runs.listRuns();
    QVERIFY(list && list->size() == 1);
    QCOMPARE(list->front().strategyName, QStringLiteral("k20"));
    QCOMPARE(list->front().text, l.value("text").toString());
    const Result<RunRecord> run = runs.loadRun(list->front().id);
    QVERIFY(run);
    QCOMPARE(run->steps.size(), std::size_t(12));
    const Result<ModelRecord> model = runs.loadModel(run->modelId);
    QVERIFY(model);
    QCOMPARE(model->path, address);
    QCOMPARE(model->format, QStringLiteral("remote"));
    for (std::size_t i = 0; i < run->steps.size(); ++i) {
        const QJsonObject b = object(localLines[int(i)]);
        QCOMPARE(run->steps[i].chosen, b.value("chosen").toInt());
        QVERIFY(std::abs(run->steps[i].rawP - b.value("raw_p").toDouble()) < 1e-6);
        QVERIFY(std::abs(run->steps[i].finalP - b.value("final_p").toDouble()) < 1e-6);
    }
}

// Issue 40, points 3 to 7, on swb serve as the engine: a stop string's end is "stop_string"; --echo prints the prompt;
// the prompt's ids come from the engine's /tokenize (equal to the local run's); the model row has the engine's context,
// vocabulary and parameters (its /v1/models "meta"); the steps report gives each token's text as the store kept it,
// without a note about a tokenizer; --chat-template is refused with a sentence.
void TestServe::remoteRunsKeepWhatTheEngineTold() {
    QTemporaryDir dir;
    ServeProcess serve({});
    QVERIFY(serve.port() > 0);
    const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
    const QString store = dir.filePath("remote.sqlite");
    const auto echoed = swb::test::runSwbProcess(
        {"generate", "--model", address, "--prompt", "And God said", "--max-tokens", "6", "--echo"});
    QVERIFY2(echoed.status == 0, echoed.err.constData());
    const auto local =
        swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--max-tokens", "6", "--json"});
    QCOMPARE(local.status, 0);
    QCOMPARE(QString::fromUtf8(echoed.out).trimmed(),
             "And God said" + object(local.out).value("text").toString().trimmed().prepend(' '));
    const auto remote = swb::test::runSwbProcess(
        {"generate", "--model", address, "--prompt", "And God said", "--max-tokens", "6", "--json", "--db", store});
    QVERIFY2(remote.status == 0, remote.err.constData());
    QVERIFY(!object(local.out).value("prompt_ids").toArray().isEmpty());
    QCOMPARE(object(remote.out).value("prompt_ids").toArray(), object(local.out).value("prompt_ids").toArray());
    {
        std::unique_ptr<swb::Database> db = swb::Database::open(store).value();
        swb::RunRepository runs(*db);
        const swb::RunRecord run = runs.loadRun(object(remote.out).value("run_id").toInteger()).value();
        QCOMPARE(int(run.promptIds.size()), int(object(local.out).value("prompt_ids").toArray().size()));
        const swb::ModelRecord model = runs.loadModel(run.modelId).value();
        const QJsonObject info = QJsonDocument::fromJson(model.infoJson.toUtf8()).object();
        const auto localInfo = swb::test::runSwbProcess({"info"});
        QCOMPARE(info.value("context_length").toInt(), object(localInfo.out).value("context_length").toInt());
        QCOMPARE(info.value("vocab_size").toInt(), object(localInfo.out).value("vocab_size").toInt());
        QVERIFY(info.value("vocab_size").toInt() > 0);
        QCOMPARE(double(model.parameters), object(localInfo.out).value("parameters").toDouble());
    }
    const auto steps = swb::test::runSwbProcess({"export", "--report", "steps", "--db", store});
    QCOMPARE(steps.status, 0);
    QVERIFY2(!steps.err.contains("note"), steps.err.constData());
    const auto table = swb::parseCsv(QString::fromUtf8(steps.out)).value();
    QString joined;
    for (qsizetype r = 1; r < table.size(); ++r)
        joined += table[r][3];
    QCOMPARE(joined, object(remote.out).value("text").toString());
    // Point 4: a stop string ends a remote run as it ends a local one (it was "eos").
    const QStringList stopAt{"generate", "--prompt", "And God said", "--max-tokens", "20", "--stop", ",", "--json"};
    const auto stoppedLocal = swb::test::runSwbProcess(stopAt);
    const auto stoppedRemote = swb::test::runSwbProcess(QStringList(stopAt) << "--model" << address);
    QCOMPARE(object(stoppedLocal.out).value("finish_reason").toString(), QStringLiteral("stop_string"));
    QCOMPARE(object(stoppedRemote.out).value("finish_reason").toString(), QStringLiteral("stop_string"));
    QCOMPARE(object(stoppedRemote.out).value("text").toString(), object(stoppedLocal.out).value("text").toString());
    const auto templated = swb::test::runSwbProcess(
        {"generate", "--model", address, "--chat", "--prompt", "hi", "--chat-template", chatTemplatePath()});
    QCOMPARE(templated.status, 2);
    QVERIFY2(templated.err.contains("renders conversations with its own template"), templated.err.constData());
    QFile prompts(dir.filePath("prompts.txt"));
    QVERIFY(prompts.open(QIODevice::WriteOnly));
    prompts.write("And God said\n");
    prompts.close();
    const auto batch =
        swb::test::runSwbProcess({"batch", "--model", address, "--prompts", prompts.fileName(), "--strategy", "greedy",
                                  "--db", dir.filePath("batch.sqlite"), "--chat-template", chatTemplatePath()});
    QCOMPARE(batch.status, 2);
    QVERIFY2(batch.err.contains("renders conversations with its own template"), batch.err.constData());
}

void TestServe::remoteModelErrors() {
    ServeProcess serve({"--api-key", "sekrit"});
    QVERIFY(serve.port() > 0);
    const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
    // No key: one sentence that says so, exit 2.
    auto run = swb::test::runSwbProcess({"generate", "--model", address, "--prompt", "And", "--max-tokens", "2"});
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains("HTTP 401") && run.err.contains("--api-key"), run.err.constData());
    QCOMPARE(run.err.count('\n'), 1);
    // Nothing listening there.
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 closed = probe.serverPort();
        probe.close();
        run = swb::test::runSwbProcess({"generate", "--model", QStringLiteral("http://127.0.0.1:%1/v1").arg(closed), "--prompt", "x"});
        QCOMPARE(run.status, 2);
        QVERIFY2(run.err.contains("cannot reach"), run.err.constData());
    }
    // What the engine refuses comes back as its own message.
    run = swb::test::runSwbProcess({"generate", "--model", address, "--api-key", "sekrit", "--prompt", "And", "--max-tokens", "5000000"});
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains("HTTP 400") && run.err.contains("max_tokens"), run.err.constData());
    run = swb::test::runSwbProcess({"generate", "--model", "http://", "--prompt", "x"});
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains("not a server address"), run.err.constData());
}

// swb batch on a remote model: the same runs as on the local model (texts), resumable the same way, and the
// comparisons made.
void TestServe::remoteBatchMatchesLocalBatch() {
    QTemporaryDir dir;
    ServeProcess serve({});
    QVERIFY(serve.port() > 0);
    const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
    QFile prompts(dir.filePath("prompts.txt"));
    QVERIFY(prompts.open(QIODevice::WriteOnly));
    prompts.write("And God said\nIn the beginning\n");
    prompts.close();
    const QStringList plan = {"--prompts", dir.filePath("prompts.txt"), "--strategy", "greedy", "--strategy", kStrategy,
                              "--samples", "2", "--max-tokens", "8", "--seed", "3"};
    const auto remote = swb::test::runSwbProcess(QStringList{"batch", "--model", address, "--db", dir.filePath("remote.sqlite")} + plan);
    QVERIFY2(remote.status == 0, remote.err.constData());
    QCOMPARE(object(remote.out).value("runs_generated").toInt(), 8);
    QCOMPARE(object(remote.out).value("comparisons_created").toInt(), 4);
    const auto again = swb::test::runSwbProcess(QStringList{"batch", "--model", address, "--db", dir.filePath("remote.sqlite")} + plan);
    QCOMPARE(object(again.out).value("runs_skipped").toInt(), 8);
    const auto local = swb::test::runSwbProcess(QStringList{"batch", "--db", dir.filePath("local.sqlite")} + plan);
    QCOMPARE(local.status, 0);
    const auto texts = [](const QString& store) {
        Result<std::unique_ptr<Database>> db = Database::open(store);
        QStringList out;
        if (!db)
            return out;
        RunRepository runs(*db.value());
        const Result<std::vector<RunSummary>> list = runs.listRuns();
        for (const RunSummary& r : list ? list.value() : std::vector<RunSummary>()) {
            // Issue 40: a remote run keeps its prompt's ids too (from the engine's /tokenize).
            QStringList ids;
            const RunRecord run = runs.loadRun(r.id).value();
            for (TokenId id : run.promptIds)
                ids << QString::number(id);
            out << r.strategyName + ": " + ids.join(' ') + " | " + r.text;
        }
        out.sort();
        return out;
    };
    const QStringList remoteTexts = texts(dir.filePath("remote.sqlite"));
    QCOMPARE(remoteTexts.size(), 8);
    const QStringList localTexts = texts(dir.filePath("local.sqlite"));
    QVERIFY2(remoteTexts == localTexts, qPrintable(remoteTexts.join(" | ") + "\n vs \n" + localTexts.join(" | ")));
    // Exported like any runs: the model is the server's address; each step's raw p is the local run's.
    const auto exported = [&](const char* store, const char* report) {
        const auto result = swb::test::runSwbProcess({"export", "--db", dir.filePath(store), "--report", report});
        return result.status == 0 ? QString::fromUtf8(result.out).split("\r\n", Qt::SkipEmptyParts) : QStringList();
    };
    const QStringList runRows = exported("remote.sqlite", "runs");
    QCOMPARE(runRows.size(), 9);
    for (int i = 1; i < runRows.size(); ++i)
        QVERIFY2(runRows[i].contains("," + address + ","), qPrintable(runRows[i]));
    const auto rawPs = [](const QStringList& rows) {
        // The steps' raw_p column, sorted; counted from the end, as a token's text may hold a comma.
        QStringList out;
        const int fromEnd = int(rows.value(0).split(',').size()) - int(rows.value(0).split(',').indexOf("raw_p"));
        for (int i = 1; i < rows.size(); ++i) {
            const QStringList cells = rows[i].split(',');
            out << QString::number(cells.value(cells.size() - fromEnd).toDouble(), 'f', 5);
        }
        out.sort();
        return out;
    };
    const QStringList remoteSteps = exported("remote.sqlite", "steps");
    QCOMPARE(remoteSteps.size(), 1 + 8 * 8);
    QCOMPARE(rawPs(remoteSteps), rawPs(exported("local.sqlite", "steps")));
    // An engine that cannot be reached: one sentence, before any run (what engines refuse to apply is
    // remoteSamplingFieldsPerEngine's).
    const auto refused = swb::test::runSwbProcess(QStringList{"batch", "--model", "http://127.0.0.1:1/v1", "--db",
                                                              dir.filePath("none.sqlite")} + plan);
    QCOMPARE(refused.status, 2);
    QVERIFY2(refused.err.contains("cannot reach"), refused.err.constData());
}

// A conversation on a remote model goes to /v1/chat/completions and the engine's own template renders it: the
// same text and probabilities as `swb generate --chat` here with that template; and a batch of conversations.
void TestServe::remoteChatUsesTheEnginesTemplate() {
    QTemporaryDir dir;
    ServeProcess serve({"--chat-template", chatTemplatePath()});
    QVERIFY(serve.port() > 0);
    const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
    const QStringList common = {"--chat", "--system", "Answer briefly.", "--prompt", "Who made the light?",
                                "--max-tokens", "10", "--json", "--strategy", kStrategy};
    const auto remote = swb::test::runSwbProcess(QStringList{"generate", "--model", address, "--trace",
                                                             dir.filePath("remote.jsonl")} + common);
    QVERIFY2(remote.status == 0, remote.err.constData());
    const auto local = swb::test::runSwbProcess(QStringList{"generate", "--chat-template", chatTemplatePath(), "--trace",
                                                            dir.filePath("local.jsonl")} + common);
    QVERIFY2(local.status == 0, local.err.constData());
    QCOMPARE(object(remote.out).value("text").toString(), object(local.out).value("text").toString());
    QCOMPARE(object(remote.out).value("tokens").toArray(), object(local.out).value("tokens").toArray());
    QFile remoteTrace(dir.filePath("remote.jsonl")), localTrace(dir.filePath("local.jsonl"));
    QVERIFY(remoteTrace.open(QIODevice::ReadOnly) && localTrace.open(QIODevice::ReadOnly));
    const QList<QByteArray> a = remoteTrace.readAll().trimmed().split('\n'), b = localTrace.readAll().trimmed().split('\n');
    QCOMPARE(a.size(), b.size());
    QCOMPARE(a.size(), object(local.out).value("tokens").toArray().size());
    QVERIFY(object(a.first()).contains("chosen"));
    for (int i = 0; i < a.size(); ++i) {
        QCOMPARE(object(a[i]).value("chosen").toInt(), object(b[i]).value("chosen").toInt());
        QVERIFY(std::abs(object(a[i]).value("raw_p").toDouble() - object(b[i]).value("raw_p").toDouble()) < 1e-6);
        QVERIFY(std::abs(object(a[i]).value("final_p").toDouble() - object(b[i]).value("final_p").toDouble()) < 1e-6);
    }
    // A prompt file of conversations: the engine renders each; no template is needed here.
    QFile prompts(dir.filePath("chats.jsonl"));
    QVERIFY(prompts.open(QIODevice::WriteOnly));
    prompts.write(R"({"messages": [{"role": "user", "content": "Who made the light?"}]})" "\n");
    prompts.close();
    const auto batch = swb::test::runSwbProcess({"batch", "--model", address, "--prompts", dir.filePath("chats.jsonl"),
                                                 "--strategy", "greedy", "--strategy", kStrategy, "--max-tokens", "6",
                                                 "--db", dir.filePath("chats.sqlite")});
    QVERIFY2(batch.status == 0, batch.err.constData());
    QCOMPARE(object(batch.out).value("runs_generated").toInt(), 2);
}

// The fields a strategy becomes for each engine, or the one sentence naming what it cannot apply.
void TestServe::remoteSamplingFieldsPerEngine_data() {
    QTest::addColumn<int>("engine");
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<QString>("fields"); // expected fields (a subset), or empty
    QTest::addColumn<QString>("error");  // expected words of the error, or empty
    const int llama = int(swb::RemoteEngineKind::LlamaCpp), vllm = int(swb::RemoteEngineKind::Vllm),
              openai = int(swb::RemoteEngineKind::OpenAi);
    const QString kTopKTemp = R"({"samplers": [{"type": "top_k", "k": 40}, {"type": "temperature", "value": 0.7}]})";
    QTest::newRow("llama.cpp: its order and defaults off")
        << llama << kTopKTemp
        << R"({"top_k": 40, "temperature": 0.7, "top_p": 1, "min_p": 0, "samplers": ["top_k", "temperature"]})" << "";
    QTest::newRow("llama.cpp: mirostat 2") << llama << R"({"samplers": [{"type": "mirostat_v2", "tau": 4, "eta": 0.2}]})"
                                           << R"({"mirostat": 2, "mirostat_tau": 4, "mirostat_eta": 0.2})" << "";
    QTest::newRow("llama.cpp: xtc and dry") << llama
        << R"({"samplers": [{"type": "dry", "multiplier": 0.8}, {"type": "xtc", "threshold": 0.1, "probability": 0.5}]})"
        << R"({"dry_multiplier": 0.8, "xtc_threshold": 0.1, "xtc_probability": 0.5, "samplers": ["dry", "xtc"]})" << "";
    QTest::newRow("llama.cpp: no eta sampler") << llama << R"({"samplers": [{"type": "eta", "epsilon": 0.0003}]})" << ""
                                               << "llama.cpp server cannot apply the eta sampler";
    QTest::newRow("vLLM: its order") << vllm
        << R"({"samplers": [{"type": "temperature", "value": 0.7}, {"type": "top_k", "k": 40}, {"type": "greedy"}]})"
        << R"({"temperature": 0, "top_k": 40})" << "";
    QTest::newRow("vLLM: another order") << vllm << kTopKTemp << "" << "give it \"order\": \"vllm\"";
    QTest::newRow("vLLM: no xtc") << vllm << R"({"samplers": [{"type": "xtc", "threshold": 0.1, "probability": 0.5}]})"
                                  << "" << "vLLM cannot apply the xtc sampler";
    QTest::newRow("OpenAI: no top_k") << openai << kTopKTemp << "" << "cannot apply the top_k sampler";
    QTest::newRow("OpenAI: temperature, penalties")
        << openai << R"({"samplers": [{"type": "penalties", "frequency": 0.5, "presence": 0.2}, {"type": "temperature", "value": 0.5}]})"
        << R"({"frequency_penalty": 0.5, "presence_penalty": 0.2, "temperature": 0.5})" << "";
    QTest::newRow("a decoder") << vllm << R"({"samplers": [], "decoder": {"type": "beam", "beams": 2}})" << ""
                               << "cannot run the beam decoder";
    QTest::newRow("llama.cpp: penalties over the whole history")
        << llama << R"({"samplers": [{"type": "repetition_penalty", "penalty": 1.2}, {"type": "dist"}]})"
        << R"({"repeat_penalty": 1.2, "repeat_last_n": 131072, "samplers": ["penalties"]})"
        << "";
    QTest::newRow("vLLM: its generation_config defaults neutralised")
        << vllm << R"({"samplers": [{"type": "temperature", "value": 0.7}, {"type": "dist"}]})"
        << R"({"temperature": 0.7, "top_p": 1, "top_k": -1, "min_p": 0, "repetition_penalty": 1, "presence_penalty": 0})" << "";
    QTest::newRow("OpenAI: neutral top_p") << openai << R"({"samplers": [{"type": "temperature", "value": 0.7}]})"
                                           << R"({"temperature": 0.7, "top_p": 1})" << "";
    QTest::newRow("logit_bias after another sampler") << llama
        << R"({"samplers": [{"type": "temperature", "value": 0.7}, {"type": "logit_bias", "bias": {"5": 1}}]})" << ""
        << "applies logit_bias before every other sampler";
    QTest::newRow("llama.cpp: mirostat m") << llama << R"({"samplers": [{"type": "mirostat", "tau": 5, "eta": 0.1, "m": 50}]})"
                                           << "" << "its m is 100";
    // Issue 40: greedy is llama.cpp's temperature 0 *in* its samplers list (without it the filtered
    // distribution was sampled at temperature 1).
    QTest::newRow("llama.cpp: greedy after top_k")
        << llama << R"({"samplers": [{"type": "top_k", "k": 3}, {"type": "greedy"}]})"
        << R"({"top_k": 3, "temperature": 0, "samplers": ["top_k", "temperature"]})"
        << "";
    QTest::newRow("llama.cpp: greedy after penalties")
        << llama << R"({"samplers": [{"type": "penalties", "frequency": 0.5, "presence": 0.5}, {"type": "greedy"}]})"
        << R"({"frequency_penalty": 0.5, "temperature": 0, "samplers": ["penalties", "temperature"]})"
        << "";
    QTest::newRow("llama.cpp: greedy alone") << llama << R"({"samplers": [{"type": "greedy"}]})"
                                             << R"({"temperature": 0, "samplers": ["temperature"]})"
                                             << "";
    QTest::newRow("llama.cpp: greedy after temperature and top_p")
        << llama
        << R"({"samplers": [{"type": "temperature", "value": 0.7}, {"type": "top_p", "p": 0.9}, {"type": "greedy"}]})"
        << R"({"temperature": 0, "top_p": 0.9, "samplers": ["temperature", "top_p"]})"
        << "";
    QTest::newRow("llama.cpp: greedy after temperature and penalties")
        << llama
        << R"({"samplers": [{"type": "temperature", "value": 0.7}, {"type": "repetition_penalty", "penalty": 1.2}, {"type": "greedy"}]})"
        << ""
        << "greedy after temperature and then repetition_penalty cannot run exactly";
    QTest::newRow("llama.cpp: greedy after a random xtc")
        << llama << R"({"samplers": [{"type": "xtc", "threshold": 0.1, "probability": 0.5}, {"type": "greedy"}]})"
        << ""
        << "xtc with probability 0.5 before greedy";
    // Issue 36: a grammar goes as the engine's own field, first like a logit bias.
    const QString kSchema = R"({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]})";
    QTest::newRow("llama.cpp: json_schema")
        << llama
        << QString(R"({"samplers": [{"type": "grammar", "json_schema": %1}, {"type": "greedy"}]})").arg(kSchema)
        << QString(R"({"json_schema": %1, "temperature": 0})").arg(kSchema) << "";
    QTest::newRow("llama.cpp: grammar")
        << llama
        << R"({"samplers": [{"type": "logit_bias", "bias": {"5": 1}}, {"type": "grammar", "gbnf": "root ::= \"a\""}]})"
        << R"({"grammar": "root ::= \"a\"", "logit_bias": {"5": 1}})"
        << "";
    QTest::newRow("vLLM: guided_json")
        << vllm << QString(R"({"samplers": [{"type": "grammar", "json_schema": %1}]})").arg(kSchema)
        << QString(R"({"guided_json": %1})").arg(kSchema) << "";
    QTest::newRow("vLLM: guided_grammar") << vllm << R"({"samplers": [{"type": "grammar", "gbnf": "root ::= [ab]+"}]})"
                                          << R"({"guided_grammar": "root ::= [ab]+"})"
                                          << "";
    QTest::newRow("OpenAI: response_format")
        << openai << QString(R"({"samplers": [{"type": "grammar", "json_schema": %1}]})").arg(kSchema)
        << QString(
               R"({"response_format": {"type": "json_schema", "json_schema": {"name": "output", "schema": %1, "strict": true}}})")
               .arg(kSchema)
        << "";
    QTest::newRow("OpenAI: no GBNF") << openai << R"({"samplers": [{"type": "grammar", "gbnf": "root ::= [ab]+"}]})"
                                     << ""
                                     << "takes no grammar";
    QTest::newRow("grammar after another sampler")
        << llama << R"({"samplers": [{"type": "top_k", "k": 5}, {"type": "grammar", "json": true}]})"
        << ""
        << "applies grammar before every other sampler";
    QTest::newRow("top_k with min_keep") << llama << R"({"samplers": [{"type": "top_k", "k": 40, "min_keep": 3}]})" << ""
                                         << "takes only the k of the top_k sampler";
}

void TestServe::remoteSamplingFieldsPerEngine() {
    QFETCH(int, engine);
    QFETCH(QString, strategy);
    QFETCH(QString, fields);
    QFETCH(QString, error);
    const auto parsed = swb::Strategy::parse(strategy);
    QVERIFY2(parsed, qPrintable(parsed ? QString() : parsed.error().message));
    auto out = swb::remoteSamplingFields(parsed.value(), swb::RemoteEngineKind(engine));
    if (!error.isEmpty()) {
        QVERIFY(!out);
        QVERIFY2(out.error().message.contains(error), qPrintable(out.error().message));
        return;
    }
    QVERIFY2(out, qPrintable(out ? QString() : out.error().message));
    const QJsonObject expected = QJsonDocument::fromJson(fields.toUtf8()).object();
    for (auto it = expected.begin(); it != expected.end(); ++it)
        QVERIFY2(out->value(it.key()) == it.value(),
                 qPrintable(it.key() + ": " + QString::fromUtf8(QJsonDocument(*out).toJson(QJsonDocument::Compact))));
}

#include "tst_serve.moc"

// Issue 36: response_format json_schema and json_object on chat, llama.cpp's grammar and json_schema on completions;
// what comes back follows its constraint (read and checked by the test's own JSON reader and validator).
void TestServe::structuredOutputFollowsItsConstraint() {
    ServeProcess serve({"--chat-template", chatTemplatePath()});
    QVERIFY2(serve.port() > 0, serve.stderrText().constData());
    const QJsonObject schema = object(R"({"type": "object", "properties": {"name": {"type": "string", "maxLength": 6},
        "n": {"type": "integer"}, "ok": {"type": "boolean"}}, "required": ["name", "n", "ok"]})");
    for (int seed = 0; seed < 5; ++seed) {
        const QJsonObject body{
            {"messages", QJsonArray{QJsonObject{{"role", "user"}, {"content", "Give me JSON."}}}},
            {"max_tokens", 200},
            {"seed", seed},
            {"response_format",
             QJsonObject{{"type", "json_schema"},
                         {"json_schema", QJsonObject{{"name", "person"}, {"schema", schema}, {"strict", true}}}}}};
        const HttpReply reply =
            exchange(serve.port(), request("POST", "/v1/chat/completions", QJsonDocument(body).toJson()));
        QCOMPARE(reply.status, 200);
        const QJsonObject choice = object(reply.body).value("choices").toArray().at(0).toObject();
        QCOMPARE(choice.value("finish_reason").toString(), QStringLiteral("stop"));
        const std::string content = choice.value("message").toObject().value("content").toString().toStdString();
        swb::test::JsonReader reader;
        const std::optional<swb::test::JsonNode> value = reader.read(content);
        QVERIFY2(value, (reader.error() + " in " + content).c_str());
        const std::string problem = swb::test::validate(*value, schema, schema);
        QVERIFY2(problem.empty(), (problem + " in " + content).c_str());
    }
    // json_object: any JSON value.
    const QByteArray anyJson = R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 200, "seed": 3,
        "response_format": {"type": "json_object"}})";
    HttpReply reply = exchange(serve.port(), request("POST", "/v1/chat/completions", anyJson));
    QCOMPARE(reply.status, 200);
    QJsonObject choice = object(reply.body).value("choices").toArray().at(0).toObject();
    if (choice.value("finish_reason").toString() == QLatin1String("stop")) {
        swb::test::JsonReader reader;
        const std::string content = choice.value("message").toObject().value("content").toString().toStdString();
        QVERIFY2(reader.read(content), (reader.error() + " in " + content).c_str());
    }
    // llama.cpp's grammar field on completions, greedy: the text is one of the grammar's strings.
    reply = exchange(serve.port(), request("POST", "/v1/completions",
                                           R"({"prompt": "In the beginning", "max_tokens": 20, "temperature": 0,
                                               "grammar": "root ::= (\" God\" | \" the\" | \" was\")+ \".\""})"));
    QCOMPARE(reply.status, 200);
    choice = object(reply.body).value("choices").toArray().at(0).toObject();
    const QString text = choice.value("text").toString();
    if (choice.value("finish_reason").toString() == QLatin1String("stop"))
        QVERIFY2(QRegularExpression("^( God| the| was)+\\.$").match(text).hasMatch(), qPrintable(text));
    else
        QVERIFY2(QRegularExpression("^( God| the| was)+$").match(text).hasMatch(), qPrintable(text));
    // json_schema on completions.
    reply =
        exchange(serve.port(),
                 request("POST", "/v1/completions",
                         R"({"prompt": "x", "max_tokens": 50, "seed": 1, "json_schema": {"enum": ["yes", "no"]}})"));
    QCOMPARE(reply.status, 200);
    const QString answer = object(reply.body).value("choices").toArray().at(0).toObject().value("text").toString();
    QVERIFY2(answer == QLatin1String("\"yes\"") || answer == QLatin1String("\"no\""), qPrintable(answer));
}
