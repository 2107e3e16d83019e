// swb bench serve: streaming clients against an in-process `swb serve` on loopback, at several concurrency
// levels: requests, failures, time to first token and per-token latency (p50/p99), aggregate tokens/s, and
// each level's throughput against one client's, measured in the same run.

#include <algorithm>
#include <cmath>
#include <memory>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTimer>

#include "chat/ChatTemplate.h"
#include "cli/BusyProcesses.h"
#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "evaluation/Statistics.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "serving/OpenAiServer.h"
#include "storage/Database.h"
#include "tokenizer/Tokenizer.h"

namespace swb::cli {

namespace {

struct LevelFigures {
    int requests = 0;
    int failed = 0;
    long long tokens = 0;
    std::vector<double> ttftMs;
    std::vector<double> tokenMs;
};

// One streaming client: sends a request, reads its server-sent events (one per chunk), sends the next on the
// same connection until told to stop.
class StreamingClient {
public:
    StreamingClient(quint16 port, QByteArray body, LevelFigures& figures, const bool& stopping)
        : m_port(port), m_body(std::move(body)), m_figures(figures), m_stopping(stopping) {
        QObject::connect(&m_socket, &QTcpSocket::connected, [this] {
            m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
            send();
        });
        QObject::connect(&m_socket, &QTcpSocket::readyRead, [this] { read(); });
        QObject::connect(&m_socket, &QTcpSocket::disconnected, [this] {
            if (m_inFlight) {
                ++m_figures.failed;
                m_inFlight = false;
            }
        });
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), m_port);
    }
    bool idle() const { return !m_inFlight; }

private:
    void send() {
        if (m_stopping) {
            m_socket.disconnectFromHost();
            return;
        }
        m_buffer.clear();
        m_headDone = false;
        m_first = true;
        m_inFlight = true;
        m_sent.start();
        m_socket.write("POST /v1/completions HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: " +
                       QByteArray::number(m_body.size()) + "\r\n\r\n" + m_body);
    }

    void read() {
        m_buffer += m_socket.readAll();
        if (!m_headDone) {
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            if (!m_buffer.startsWith("HTTP/1.1 200")) {
                ++m_figures.failed;
                m_inFlight = false;
                m_socket.abort();
                return;
            }
            m_buffer.remove(0, end + 4);
            m_headDone = true;
        }
        for (;;) {
            const qsizetype line = m_buffer.indexOf("\r\n");
            if (line < 0)
                return;
            bool ok = false;
            const qsizetype size = m_buffer.left(line).toLongLong(&ok, 16);
            if (!ok) {
                ++m_figures.failed;
                m_inFlight = false;
                m_socket.abort();
                return;
            }
            if (m_buffer.size() < line + 2 + size + 2)
                return;
            const QByteArray event = m_buffer.mid(line + 2, size);
            m_buffer.remove(0, line + 2 + size + 2);
            if (size == 0) {
                ++m_figures.requests;
                m_inFlight = false;
                send();
                return;
            }
            if (!event.startsWith("data: {") || event.contains("\"error\""))
                continue;
            if (!event.contains("\"logprobs\":{"))
                continue; // the finish event carries no token
            const double now = double(m_sent.nsecsElapsed()) / 1e6;
            if (m_first) {
                m_figures.ttftMs.push_back(now);
                m_first = false;
            } else {
                m_figures.tokenMs.push_back(now - m_last);
            }
            m_last = now;
            ++m_figures.tokens;
        }
    }

    QTcpSocket m_socket;
    quint16 m_port;
    QByteArray m_body;
    LevelFigures& m_figures;
    const bool& m_stopping;
    QByteArray m_buffer;
    QElapsedTimer m_sent;
    bool m_headDone = false;
    bool m_first = true;
    bool m_inFlight = false;
    double m_last = 0.0;
};

int runServeBench(const Invocation& call) {
    QList<int> levels;
    for (const QString& part : call.args.value(QStringLiteral("clients")).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.trimmed().toInt(&ok);
        if (!ok || n < 1 || n > 512)
            failBadInput(QStringLiteral("--clients takes counts from 1 to 512 separated by commas, not '%1'").arg(part));
        levels.append(n);
    }
    if (levels.isEmpty())
        levels = {1, 8, 32};
    const double seconds = call.real(QStringLiteral("seconds"), 30.0);
    if (!(seconds > 0.0))
        failBadInput(QStringLiteral("--seconds must be more than 0"));
    const int maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 64, 1, 100000));
    const int parallel = static_cast<int>(call.integer(QStringLiteral("parallel"), *std::max_element(levels.begin(), levels.end()), 1, 512));
    LoadedModel loaded = loadModelFromArguments(call);
    Generator generator(*loaded.model, *loaded.tokenizer);
    // Every request the same length: the end tokens banned.
    QJsonObject bias;
    for (TokenId id : generator.stopTokens())
        bias.insert(QString::number(id), -100);
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("prompt"), QStringLiteral("And God said unto Moses")},
                                                      {QStringLiteral("max_tokens"), maxTokens},
                                                      {QStringLiteral("stream"), true},
                                                      {QStringLiteral("temperature"), 1.0},
                                                      {QStringLiteral("top_k"), 40},
                                                      {QStringLiteral("logit_bias"), bias},
                                                      {QStringLiteral("logprobs"), 0}})
                                .toJson(QJsonDocument::Compact);
    ServeOptions options;
    options.parallel = parallel;
    options.queue = 1024;
    OpenAiServer server(*loaded.model, *loaded.tokenizer, std::nullopt, Strategy::parse(QStringLiteral("greedy")).value(), nullptr,
                        options);
    Result<quint16> port = server.listen(QHostAddress::LocalHost, 0);
    if (!port)
        failInternal(port.error().message);

    // One level: `clients` streaming clients kept busy for the window; their figures and tokens/s.
    const auto runLevel = [&](int clients, LevelFigures& figures) {
        bool stopping = false;
        std::vector<std::unique_ptr<StreamingClient>> pool;
        QElapsedTimer window;
        window.start();
        for (int i = 0; i < clients; ++i)
            pool.push_back(std::make_unique<StreamingClient>(port.value(), body, figures, stopping));
        QEventLoop loop;
        QTimer::singleShot(static_cast<int>(seconds * 1000.0), &loop, [&] {
            stopping = true;
            loop.quit();
        });
        loop.exec();
        const long long tokensInWindow = figures.tokens;
        const double elapsed = double(window.nsecsElapsed()) / 1e9;
        // Let the requests in flight finish (not counted in the throughput), so the next level starts clean.
        QElapsedTimer drain;
        drain.start();
        while (drain.elapsed() < 120000 &&
               std::any_of(pool.begin(), pool.end(), [](const auto& c) { return !c->idle(); }))
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        return double(tokensInWindow) / elapsed;
    };
    const int contenders = static_cast<int>(call.integer(QStringLiteral("contend"), 0, 0, 64));
    QJsonArray results;
    double single = NAN;
    for (int clients : levels) {
        LevelFigures figures;
        const double throughput = runLevel(clients, figures);
        if (clients == levels.front())
            single = throughput;
        QJsonObject level{{QStringLiteral("clients"), clients},
                          {QStringLiteral("requests"), figures.requests},
                          {QStringLiteral("failed"), figures.failed},
                          {QStringLiteral("tokens_per_second"), std::round(throughput * 100.0) / 100.0},
                          {QStringLiteral("vs_first_level"), std::round(throughput / single * 1000.0) / 1000.0},
                          {QStringLiteral("ttft_ms_p50"), stats::percentile(figures.ttftMs, 50.0)},
                          {QStringLiteral("ttft_ms_p99"), stats::percentile(figures.ttftMs, 99.0)},
                          {QStringLiteral("token_ms_p50"), stats::percentile(figures.tokenMs, 50.0)},
                          {QStringLiteral("token_ms_p99"), stats::percentile(figures.tokenMs, 99.0)}};
        // --contend N: the same level again beside N busy processes of our own.
        if (contenders > 0) {
            LevelFigures busyFigures;
            double busyThroughput = 0.0;
            {
                BusyProcesses busy(contenders, static_cast<unsigned>(seconds) + 180);
                busyThroughput = runLevel(clients, busyFigures);
            }
            level.insert(
                QStringLiteral("contended"),
                QJsonObject{{QStringLiteral("busy_processes"), contenders},
                            {QStringLiteral("requests"), busyFigures.requests},
                            {QStringLiteral("failed"), busyFigures.failed},
                            {QStringLiteral("tokens_per_second"), std::round(busyThroughput * 100.0) / 100.0},
                            {QStringLiteral("vs_idle"), std::round(busyThroughput / throughput * 1000.0) / 1000.0},
                            {QStringLiteral("ttft_ms_p50"), stats::percentile(busyFigures.ttftMs, 50.0)},
                            {QStringLiteral("token_ms_p50"), stats::percentile(busyFigures.tokenMs, 50.0)}});
        }
        results.append(level);
    }
    const ModelInfo& info = loaded.model->info();
    call.out << QJsonDocument(QJsonObject{{QStringLiteral("mode"), QStringLiteral("serve")},
                                          {QStringLiteral("model"), info.path},
                                          {QStringLiteral("parameters"), static_cast<double>(info.parameters)},
                                          {QStringLiteral("file_dtype"), info.fileDtype},
                                          {QStringLiteral("parallel"), parallel},
                                          {QStringLiteral("threads"), info.threads},
                                          {QStringLiteral("fast_math"), info.fastMath},
                                          {QStringLiteral("seconds"), seconds},
                                          {QStringLiteral("max_tokens"), maxTokens},
                                          {QStringLiteral("levels"), results}})
                    .toJson(QJsonDocument::Compact)
             << '\n';
    return 0;
}

} // namespace

std::vector<BenchMode> serveBenchModes() {
    return {{QStringLiteral("serve"),
             QStringLiteral("streaming clients against an in-process swb serve: TTFT and per-token p50/p99, tokens/s per "
                            "concurrency level --model PATH [--clients 1,8,32] [--seconds 30] [--max-tokens 64] [--parallel N] [--contend N]"),
             [](QCommandLineParser& parser) {
                 declareModelArguments(parser);
                 parser.addOptions({
                     {QStringLiteral("clients"), QStringLiteral("serve: concurrency levels (default 1,8,32)."), QStringLiteral("LIST")},
                     {QStringLiteral("seconds"), QStringLiteral("serve: length of each level (default 30)."), QStringLiteral("S")},
                     {QStringLiteral("max-tokens"), QStringLiteral("serve: tokens per request, end tokens banned (default 64)."),
                      QStringLiteral("N")},
                     {QStringLiteral("parallel"), QStringLiteral("serve: the server's slots (default: the largest level)."),
                      QStringLiteral("N")},
                     {QStringLiteral("contend"),
                      QStringLiteral("serve: run each level again beside N busy processes of its own (default 0)."),
                      QStringLiteral("N")},
                 });
             },
             runServeBench}};
}

} // namespace swb::cli
