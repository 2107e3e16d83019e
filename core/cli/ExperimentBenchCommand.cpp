// swb bench experiment: the statistics of swb serve's experiments validated by simulated users. A real
// `swb serve` (this executable, a child process, a fresh run store) on loopback; simulated users ask for
// completions, are assigned arms by the server, and give thumbs up with a known probability per arm; the
// experiment is read after every --read-every feedbacks. A/A experiments (both arms alike) measure how often a
// winner is declared where there is none; A/B experiments measure the power and the feedbacks to a decision,
// against a fixed-horizon Welch t-test on the same number of feedbacks (and that t-test read as often as the
// sequential one, the peeking it is not made for).

#include <algorithm>
#include <cmath>
#include <random>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>

#include "cli/Subcommand.h"
#include "evaluation/Statistics.h"

namespace swb::cli {

namespace {

// HTTP/1.1 on one kept-alive loopback connection, one request at a time.
class LoopbackClient {
public:
    explicit LoopbackClient(quint16 port) {
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!m_socket.waitForConnected(10000))
            failBadInput(QStringLiteral("cannot connect to the server on port %1").arg(port));
        m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    }

    // The status and the JSON body of one request.
    std::pair<int, QJsonObject> call(const QByteArray& method, const QByteArray& path, const QByteArray& body = {}) {
        m_socket.write(method + ' ' + path +
                       " HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: " +
                       QByteArray::number(body.size()) + "\r\n\r\n" + body);
        QByteArray data;
        qsizetype headEnd = -1;
        qsizetype length = -1;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 60000) {
            if (headEnd < 0 && (headEnd = data.indexOf("\r\n\r\n")) >= 0) {
                static const QRegularExpression contentLength(QStringLiteral("(?i)content-length: *(\\d+)"));
                const QRegularExpressionMatch m = contentLength.match(QString::fromLatin1(data.left(headEnd)));
                length = m.hasMatch() ? m.captured(1).toLongLong() : 0;
            }
            if (headEnd >= 0 && data.size() >= headEnd + 4 + length)
                break;
            if (!m_socket.waitForReadyRead(1000) && m_socket.state() != QAbstractSocket::ConnectedState)
                break;
            data += m_socket.readAll();
        }
        if (headEnd < 0)
            failBadInput(QStringLiteral("the server did not answer %1 %2")
                             .arg(QString::fromLatin1(method), QString::fromLatin1(path)));
        return {data.mid(9, 3).toInt(), QJsonDocument::fromJson(data.mid(headEnd + 4, length)).object()};
    }

private:
    QTcpSocket m_socket;
};

// One simulated experiment's outcome.
struct Outcome {
    int decidedAt = 0;      // feedbacks when the server's test decided; 0: not within the horizon
    QString winner;         // the arm it decided for
    bool fixedT = false;    // Welch's t-test at the horizon: p <= 0.05 with B above A
    bool fixedTAny = false; // ... either way
    bool peekingT = false;  // Welch's t-test read as often: p <= 0.05 at some read
};

Outcome simulate(LoopbackClient& client, const QString& name, double pA, double pB, int horizon, int readEvery,
                 std::mt19937_64& random) {
    const QJsonObject design{
        {QStringLiteral("arms"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("A")},
                                                        {QStringLiteral("strategy"), QStringLiteral("greedy")}},
                                            QJsonObject{{QStringLiteral("name"), QStringLiteral("B")},
                                                        {QStringLiteral("strategy"), QStringLiteral("greedy")}}}}};
    const QByteArray path = "/v1/experiments/" + name.toUtf8();
    if (const auto [status, body] = client.call("PUT", path, QJsonDocument(design).toJson(QJsonDocument::Compact));
        status != 200)
        failBadInput(QStringLiteral("the server refused the experiment: %1")
                         .arg(QString::fromUtf8(QJsonDocument(body).toJson())));
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<double> values[2];
    Outcome outcome;
    for (int k = 1; k <= horizon; ++k) {
        if (outcome.decidedAt > 0) {
            // Decided: the rest only feeds the t-tests, drawn here as the server would assign (equal shares).
            const int a = uniform(random) < 0.5 ? 0 : 1;
            values[a].push_back(uniform(random) < (a == 0 ? pA : pB) ? 1.0 : 0.0);
            if (k % readEvery == 0 && stats::welchTTestPValue(values[0], values[1]) <= 0.05)
                outcome.peekingT = true;
            continue;
        }
        const QJsonObject request{{QStringLiteral("prompt"), QStringLiteral("And")},
                                  {QStringLiteral("max_tokens"), 1},
                                  {QStringLiteral("user"), QStringLiteral("%1-%2").arg(name).arg(k)}};
        const auto [status, answer] =
            client.call("POST", "/v1/completions", QJsonDocument(request).toJson(QJsonDocument::Compact));
        const QString arm = answer.value(QLatin1String("experiment")).toObject().value(QLatin1String("arm")).toString();
        if (status != 200 || arm.isEmpty())
            failBadInput(QStringLiteral("a completion was not assigned an arm (HTTP %1)").arg(status));
        const int a = arm == QLatin1String("A") ? 0 : 1;
        const bool up = uniform(random) < (a == 0 ? pA : pB);
        values[a].push_back(up ? 1.0 : 0.0);
        const QJsonObject feedback{{QStringLiteral("id"), answer.value(QLatin1String("id"))},
                                   {QStringLiteral("thumbs"), up ? QStringLiteral("up") : QStringLiteral("down")}};
        if (client.call("POST", "/v1/feedback", QJsonDocument(feedback).toJson(QJsonDocument::Compact)).first != 200)
            failBadInput(QStringLiteral("the server refused a feedback"));
        if (k % readEvery != 0)
            continue;
        if (stats::welchTTestPValue(values[0], values[1]) <= 0.05)
            outcome.peekingT = true;
        const QJsonObject state = client.call("GET", path).second;
        if (state.value(QLatin1String("verdict")).toString() == QLatin1String("winner")) {
            outcome.decidedAt = k;
            outcome.winner = state.value(QLatin1String("winner")).toString();
        }
    }
    const double p = stats::welchTTestPValue(values[0], values[1]);
    outcome.fixedTAny = p <= 0.05;
    outcome.fixedT = outcome.fixedTAny && stats::mean(values[1]) > stats::mean(values[0]);
    client.call("PUT", path, R"({"state": "stopped"})");
    return outcome;
}

std::pair<double, double> probabilities(const QString& text) {
    const QStringList parts = text.split(QLatin1Char(':'));
    bool okA = false;
    bool okB = false;
    const double a = parts.value(0).toDouble(&okA);
    const double b = parts.value(1).toDouble(&okB);
    if (parts.size() != 2 || !okA || !okB || a < 0 || a > 1 || b < 0 || b > 1)
        failBadInput(
            QStringLiteral("--effect reads PA:PB, the thumbs-up rates of A and B (0.5:0.55), not '%1'").arg(text));
    return {a, b};
}

int runExperimentBench(const Invocation& call) {
    const int aaRuns = static_cast<int>(call.integer(QStringLiteral("aa"), 1000, 0, 1000000));
    const int horizon = static_cast<int>(call.integer(QStringLiteral("horizon"), 200, 20, 1000000));
    const int readEvery = static_cast<int>(call.integer(QStringLiteral("read-every"), 10, 1, 1000000));
    const int abRuns = static_cast<int>(call.integer(QStringLiteral("ab"), 200, 0, 1000000));
    const int abHorizon = static_cast<int>(call.integer(QStringLiteral("ab-horizon"), 1000, 20, 1000000));
    const QStringList effects = call.args.isSet(QStringLiteral("effect")) ? call.args.values(QStringLiteral("effect"))
                                                                          : QStringList{QStringLiteral("0.5:0.6")};
    std::mt19937_64 random(static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"), 1, 0, 1LL << 62)));

    QTemporaryDir dir;
    QProcess server;
    QStringList arguments{QStringLiteral("serve"),
                          QStringLiteral("--port"),
                          QStringLiteral("0"),
                          QStringLiteral("--db"),
                          dir.filePath(QStringLiteral("experiments.sqlite")),
                          QStringLiteral("--parallel"),
                          QStringLiteral("1")};
    if (call.args.isSet(QStringLiteral("model")))
        arguments << QStringLiteral("--model") << call.args.value(QStringLiteral("model"));
    // The server's log (a line per request) goes to a file: a pipe nobody reads would stop it when full.
    const QString logPath = dir.filePath(QStringLiteral("serve.log"));
    server.setStandardOutputFile(QProcess::nullDevice());
    server.setStandardErrorFile(logPath);
    server.start(QCoreApplication::applicationFilePath(), arguments);
    QByteArray err;
    quint16 port = 0;
    static const QRegularExpression listening(QStringLiteral("listening on http://127\\.0\\.0\\.1:(\\d+)/"));
    QElapsedTimer started;
    started.start();
    while (port == 0 && started.elapsed() < 60000 && server.state() != QProcess::NotRunning) {
        server.waitForFinished(100);
        QFile log(logPath);
        err = log.open(QIODevice::ReadOnly) ? log.readAll() : QByteArray();
        if (const QRegularExpressionMatch m = listening.match(QString::fromUtf8(err)); m.hasMatch())
            port = static_cast<quint16>(m.captured(1).toUInt());
    }
    if (port == 0)
        failBadInput(QStringLiteral("swb serve did not start: %1").arg(QString::fromUtf8(err.right(500))));
    LoopbackClient client(port);
    QElapsedTimer clock;
    clock.start();

    int falseWinners = 0;
    int peekingFalse = 0;
    int fixedFalse = 0;
    for (int i = 0; i < aaRuns; ++i) {
        const Outcome o = simulate(client, QStringLiteral("aa-%1").arg(i), 0.5, 0.5, horizon, readEvery, random);
        falseWinners += o.decidedAt > 0;
        peekingFalse += o.peekingT;
        fixedFalse += o.fixedTAny;
    }
    const double aaSeconds = double(clock.elapsed()) / 1000.0;
    const auto rate = [](int count, int runs) {
        return runs > 0 ? std::round(double(count) / runs * 10000.0) / 10000.0 : 0.0;
    };
    QJsonObject aa{{QStringLiteral("experiments"), aaRuns},
                   {QStringLiteral("feedbacks_each"), horizon},
                   {QStringLiteral("read_every"), readEvery},
                   {QStringLiteral("false_winner_rate"), rate(falseWinners, aaRuns)},
                   {QStringLiteral("t_test_read_as_often_false_rate"), rate(peekingFalse, aaRuns)},
                   {QStringLiteral("t_test_at_the_end_false_rate"), rate(fixedFalse, aaRuns)},
                   {QStringLiteral("seconds"), aaSeconds}};
    QJsonArray power;
    for (int e = 0; e < effects.size() && abRuns > 0; ++e) {
        const auto [pA, pB] = probabilities(effects[e]);
        int decidedB = 0;
        int decidedA = 0;
        int fixedB = 0;
        std::vector<double> decidedAt;
        for (int i = 0; i < abRuns; ++i) {
            const Outcome o =
                simulate(client, QStringLiteral("ab%1-%2").arg(e).arg(i), pA, pB, abHorizon, readEvery, random);
            decidedB += o.winner == QLatin1String("B");
            decidedA += o.winner == QLatin1String("A");
            fixedB += o.fixedT;
            if (o.decidedAt > 0)
                decidedAt.push_back(o.decidedAt);
        }
        power.append(QJsonObject{
            {QStringLiteral("thumbs_up_a"), pA},
            {QStringLiteral("thumbs_up_b"), pB},
            {QStringLiteral("experiments"), abRuns},
            {QStringLiteral("feedbacks_at_most"), abHorizon},
            {QStringLiteral("sequential_power"), rate(decidedB, abRuns)},
            {QStringLiteral("sequential_wrong_winner_rate"), rate(decidedA, abRuns)},
            {QStringLiteral("median_feedbacks_to_decision"),
             decidedAt.empty() ? QJsonValue(QJsonValue::Null) : QJsonValue(stats::percentile(decidedAt, 50.0))},
            {QStringLiteral("fixed_horizon_t_test_power"), rate(fixedB, abRuns)}});
    }
    server.terminate();
    server.waitForFinished(30000);
    call.out << QJsonDocument(QJsonObject{{QStringLiteral("mode"), QStringLiteral("experiment")},
                                          {QStringLiteral("test"), QStringLiteral("mixture SPRT, alpha 0.05")},
                                          {QStringLiteral("aa"), aa},
                                          {QStringLiteral("ab"), power},
                                          {QStringLiteral("seconds"), double(clock.elapsed()) / 1000.0}})
                    .toJson(QJsonDocument::Compact)
             << '\n';
    return 0;
}

} // namespace

std::vector<BenchMode> experimentBenchModes() {
    return {
        {QStringLiteral("experiment"),
         QStringLiteral(
             "simulated users against swb serve's experiments: false winners over A/A experiments, power "
             "and feedbacks to a decision against a fixed-horizon t-test [--aa 1000] [--horizon 200] "
             "[--read-every 10] [--ab 200] [--effect 0.5:0.6]... [--ab-horizon 1000] [--seed N] [--model PATH]"),
         [](QCommandLineParser& parser) {
             parser.addOptions({
                 {QStringLiteral("aa"), QStringLiteral("experiment: A/A experiments (default 1000)."),
                  QStringLiteral("N")},
                 {QStringLiteral("horizon"), QStringLiteral("experiment: feedbacks per A/A experiment (default 200)."),
                  QStringLiteral("N")},
                 {QStringLiteral("read-every"), QStringLiteral("experiment: feedbacks between reads (default 10)."),
                  QStringLiteral("N")},
                 {QStringLiteral("ab"), QStringLiteral("experiment: A/B experiments per effect (default 200)."),
                  QStringLiteral("N")},
                 {QStringLiteral("effect"),
                  QStringLiteral("experiment: thumbs-up rates of A and B, PA:PB (repeatable; default 0.5:0.6)."),
                  QStringLiteral("PA:PB")},
                 {QStringLiteral("ab-horizon"),
                  QStringLiteral("experiment: most feedbacks per A/B experiment (default 1000)."), QStringLiteral("N")},
                 {QStringLiteral("seed"), QStringLiteral("experiment: the simulated users' seed (default 1)."),
                  QStringLiteral("N")},
                 {QStringLiteral("model"), QStringLiteral("experiment: the model served (default the demo model)."),
                  QStringLiteral("PATH")},
             });
         },
         runExperimentBench}};
}

} // namespace swb::cli
