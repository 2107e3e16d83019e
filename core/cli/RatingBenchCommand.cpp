// swb bench rating: raters posting answers to `swb serve --rating` at once. A campaign over comparisons of the
// demo model in a temporary store; each simulated rater answers its queue over and over (each round's scores
// differ) on its own keep-alive connection for the given time. Then the store is checked against what each
// rater last sent: no answer lost, none duplicated. Reports requests, failures and response time p50/p99.

#include <algorithm>
#include <map>
#include <memory>

#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>

#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "evaluation/Statistics.h"
#include "model/Model.h"
#include "serving/RatingServer.h"
#include "storage/CampaignRepository.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "tokenizer/Tokenizer.h"
#include "workflows/CampaignSetup.h"
#include "workflows/ComparisonRunner.h"

namespace swb::cli {

namespace {

// The score a rater gives output `output` of queue item `position` on dimension `dimension` in round `round`:
// within the default rubric's ranges (relevance 0-3, fluency 0-2, usefulness 0-4), changing every round.
int scoreOf(int rater, int position, int output, int dimension, int round) {
    static const int top[] = {3, 2, 4};
    return (rater + position + output + round) % (top[dimension] + 1);
}

const char* const kDimensions[] = {"relevance", "fluency", "usefulness"};

// One rater: answers its queue in order, round after round, one request at a time on one connection.
class RaterClient {
public:
    RaterClient(quint16 port, QString token, int rater, std::vector<int> outputs, std::vector<double>& latencies,
                int& failed, const bool& stopping)
        : m_token(std::move(token)), m_rater(rater), m_outputs(std::move(outputs)), m_latencies(latencies),
          m_failed(failed), m_stopping(stopping), m_lastRound(m_outputs.size(), -1) {
        QObject::connect(&m_socket, &QTcpSocket::connected, [this] {
            m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
            send();
        });
        QObject::connect(&m_socket, &QTcpSocket::readyRead, [this] { read(); });
        QObject::connect(&m_socket, &QTcpSocket::disconnected, [this] {
            if (m_inFlight) {
                ++m_failed;
                m_inFlight = false;
            }
        });
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    }
    bool idle() const { return !m_inFlight; }
    // The round whose answer the store must hold for each queue position (-1: never answered).
    const std::vector<int>& lastRound() const { return m_lastRound; }

private:
    void send() {
        if (m_stopping) {
            m_socket.disconnectFromHost();
            return;
        }
        const int position = m_next % static_cast<int>(m_outputs.size());
        const int round = m_next / static_cast<int>(m_outputs.size());
        QJsonObject scores;
        for (int o = 0; o < m_outputs[static_cast<std::size_t>(position)]; ++o) {
            QJsonObject own;
            for (int d = 0; d < 3; ++d)
                own.insert(QLatin1String(kDimensions[d]), scoreOf(m_rater, position, o, d, round));
            scores.insert(QString(QChar(u'A' + o)), own);
        }
        const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("position"), position},
                                                          {QStringLiteral("scores"), scores},
                                                          {QStringLiteral("preference"), round % 2 ? QStringLiteral("A") : QStringLiteral("tie")},
                                                          {QStringLiteral("note"), QStringLiteral("round %1").arg(round)}})
                                    .toJson(QJsonDocument::Compact);
        m_buffer.clear();
        m_inFlight = true;
        m_position = position;
        m_round = round;
        m_sent.start();
        m_socket.write("POST /api/rate/" + m_token.toLatin1() + "/answer HTTP/1.1\r\nHost: bench\r\nContent-Type: "
                       "application/json\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
    }

    void read() {
        m_buffer += m_socket.readAll();
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const qsizetype at = m_buffer.toLower().indexOf("content-length:");
        if (at < 0 || at > end)
            return;
        const qsizetype lineEnd = m_buffer.indexOf("\r\n", at);
        const qsizetype length = m_buffer.mid(at + 15, lineEnd - at - 15).trimmed().toLongLong();
        if (m_buffer.size() < end + 4 + length)
            return;
        m_latencies.push_back(static_cast<double>(m_sent.nsecsElapsed()) / 1e6);
        if (m_buffer.startsWith("HTTP/1.1 200"))
            m_lastRound[static_cast<std::size_t>(m_position)] = m_round;
        else
            ++m_failed;
        m_inFlight = false;
        ++m_next;
        send();
    }

    QTcpSocket m_socket;
    QString m_token;
    int m_rater;
    std::vector<int> m_outputs; // outputs of each queue item
    std::vector<double>& m_latencies;
    int& m_failed;
    const bool& m_stopping;
    std::vector<int> m_lastRound;
    QByteArray m_buffer;
    QElapsedTimer m_sent;
    bool m_inFlight = false;
    int m_next = 0;
    int m_position = 0;
    int m_round = 0;
};

// The bench's store: `comparisons` comparisons of two strategies on the model (four tokens each), then a
// campaign dealing them to `raters` raters.
CampaignRecord makeBenchCampaign(const Invocation& call, Database& database, int raters, int comparisons) {
    LoadedModel loaded = loadModelFromArguments(call);
    ComparisonPlan plan;
    plan.promptSetName = QStringLiteral("bench");
    plan.promptSetSource = QStringLiteral("swb bench rating");
    for (int i = 0; i < comparisons; ++i)
        plan.prompts << QStringLiteral("And God said %1").arg(i);
    plan.strategies = {Strategy::parse(QStringLiteral("greedy")).value(), Strategy::parse(QStringLiteral("creative")).value()};
    plan.strategies[0].name = QStringLiteral("greedy");
    plan.strategies[1].name = QStringLiteral("creative");
    plan.maxTokens = 4;
    if (Result<ComparisonOutcome> ran = runComparisonPlan(*loaded.model, *loaded.tokenizer, database, plan); !ran)
        failBadInput(ran.error().message);
    QStringList names;
    for (int r = 0; r < raters; ++r)
        names << QStringLiteral("rater%1").arg(r);
    RatingRepository ratings(database);
    Result<Rubric> rubric = ratings.defaultRubric();
    if (!rubric)
        failBadInput(rubric.error().message);
    CampaignPlan campaignPlan;
    campaignPlan.goldShare = 0.0;
    Result<CampaignRecord> campaign =
        createCampaign(database, QStringLiteral("bench"), rubric->id, names, campaignPlan, {});
    if (!campaign)
        failBadInput(campaign.error().message);
    return campaign.value();
}

int runRatingBench(const Invocation& call) {
    const int raters = static_cast<int>(call.integer(QStringLiteral("raters"), 20, 3, 1000));
    const int seconds = static_cast<int>(call.integer(QStringLiteral("seconds"), 60, 1, 3600));
    const int comparisons = static_cast<int>(call.integer(QStringLiteral("comparisons"), 100, 1, 100000));
    QTemporaryDir dir;
    if (!dir.isValid())
        failInternal(QStringLiteral("cannot make a temporary folder"));
    const QString path = dir.filePath(QStringLiteral("bench.sqlite"));
    Result<std::unique_ptr<Database>> opened = Database::open(path);
    if (!opened)
        failBadInput(opened.error().message);

    const CampaignRecord campaign = makeBenchCampaign(call, *opened.value(), raters, comparisons);
    RatingRepository ratings(*opened.value());
    CampaignRepository campaigns(*opened.value());
    Result<std::vector<CampaignRater>> links = campaigns.raters(campaign.id);
    if (!links)
        failBadInput(links.error().message);

    Result<std::unique_ptr<Database>> served = Database::open(path);
    if (!served)
        failBadInput(served.error().message);
    RatingServer server(std::move(served).value());
    Result<quint16> port = server.listen(QHostAddress::LocalHost, 0);
    if (!port)
        failBadInput(port.error().message);

    std::vector<double> latencies;
    int failed = 0;
    bool stopping = false;
    std::vector<std::unique_ptr<RaterClient>> clients;
    std::vector<std::vector<CampaignQueueItem>> queues;
    for (std::size_t r = 0; r < links->size(); ++r) {
        Result<std::vector<CampaignQueueItem>> queue = campaigns.queue(campaign.id, (*links)[r].raterId);
        if (!queue)
            failBadInput(queue.error().message);
        std::vector<int> outputs;
        for (const CampaignQueueItem& item : queue.value())
            outputs.push_back(static_cast<int>(item.item.shownOrder.size()));
        queues.push_back(queue.value());
        clients.push_back(std::make_unique<RaterClient>(port.value(), (*links)[r].token, static_cast<int>(r), outputs,
                                                        latencies, failed, stopping));
    }
    QElapsedTimer wall;
    wall.start();
    QEventLoop loop;
    QTimer::singleShot(seconds * 1000, &loop, [&] { stopping = true; });
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (stopping && std::all_of(clients.begin(), clients.end(), [](const auto& c) { return c->idle(); }))
            loop.quit();
    });
    poll.start(20);
    loop.exec();
    const double elapsed = static_cast<double>(wall.elapsed()) / 1000.0;

    // The store against what each rater last sent: every answered item once, with that round's scores.
    ComparisonRepository comparisonRepository(*opened.value());
    int lost = 0, mismatched = 0, answered = 0;
    Result<std::vector<RatingRecord>> all = ratings.listRatings();
    if (!all)
        failBadInput(all.error().message);
    std::map<std::tuple<qint64, qint64, QString>, double> scoreOfRating;
    for (const RatingRecord& r : all.value())
        scoreOfRating[{r.runId, r.raterId, r.dimension}] = r.score;
    Result<std::vector<PreferenceRecord>> preferences = ratings.listPreferences();
    if (!preferences)
        failBadInput(preferences.error().message);
    std::map<std::pair<qint64, qint64>, int> preferenceCount;
    for (const PreferenceRecord& p : preferences.value())
        ++preferenceCount[{p.comparisonId, p.raterId}];
    int duplicated = 0;
    for (const auto& [key, count] : preferenceCount)
        duplicated += count > 1 ? count - 1 : 0;
    for (std::size_t r = 0; r < clients.size(); ++r) {
        const qint64 raterId = (*links)[r].raterId;
        const int rater = static_cast<int>(r);
        for (std::size_t p = 0; p < queues[r].size(); ++p) {
            const int round = clients[r]->lastRound()[p];
            if (round < 0)
                continue;
            ++answered;
            const CampaignItem& item = queues[r][p].item;
            if (!preferenceCount.count({item.comparisonId, raterId})) {
                ++lost;
                continue;
            }
            Result<ComparisonRecord> comparison = comparisonRepository.loadComparison(item.comparisonId);
            if (!comparison)
                failBadInput(comparison.error().message);
            for (std::size_t o = 0; o < item.shownOrder.size(); ++o) {
                const qint64 run = comparison->entries[static_cast<std::size_t>(item.shownOrder[o])].runId;
                for (int d = 0; d < 3; ++d) {
                    const auto found = scoreOfRating.find({run, raterId, QLatin1String(kDimensions[d])});
                    if (found == scoreOfRating.end())
                        ++lost;
                    else if (found->second != scoreOf(rater, static_cast<int>(p), static_cast<int>(o), d, round))
                        ++mismatched;
                }
            }
        }
    }
    const int ratingsExpected = [&] {
        int n = 0;
        for (std::size_t r = 0; r < clients.size(); ++r)
            for (std::size_t p = 0; p < queues[r].size(); ++p)
                if (clients[r]->lastRound()[p] >= 0)
                    n += static_cast<int>(queues[r][p].item.shownOrder.size()) * 3;
        return n;
    }();
    QJsonObject out{{QStringLiteral("mode"), QStringLiteral("rating")},
                    {QStringLiteral("raters"), raters},
                    {QStringLiteral("comparisons"), comparisons},
                    {QStringLiteral("seconds"), elapsed},
                    {QStringLiteral("requests"), static_cast<int>(latencies.size())},
                    {QStringLiteral("failed"), failed},
                    {QStringLiteral("answers_per_second"), static_cast<double>(latencies.size()) / elapsed},
                    {QStringLiteral("response_ms_p50"), stats::percentile(latencies, 50.0)},
                    {QStringLiteral("response_ms_p99"), stats::percentile(latencies, 99.0)},
                    {QStringLiteral("response_ms_max"), latencies.empty() ? 0.0 : *std::max_element(latencies.begin(), latencies.end())},
                    {QStringLiteral("items_answered"), answered},
                    {QStringLiteral("ratings_stored"), static_cast<int>(all->size())},
                    {QStringLiteral("ratings_expected"), ratingsExpected},
                    {QStringLiteral("lost"), lost},
                    {QStringLiteral("duplicated"), duplicated},
                    {QStringLiteral("mismatched"), mismatched}};
    call.out << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
    return lost + duplicated + mismatched + failed == 0 ? 0 : 1;
}

} // namespace

std::vector<BenchMode> ratingBenchModes() {
    return {{QStringLiteral("rating"),
             QStringLiteral("raters posting answers at once to swb serve --rating: response time p50/p99, no answer lost "
                            "or duplicated [--raters 20] [--seconds 60] [--comparisons 100]"),
             [](QCommandLineParser& parser) {
                 declareModelArguments(parser);
                 parser.addOptions({
                     {QStringLiteral("raters"), QStringLiteral("rating: raters posting at once (default 20)."), QStringLiteral("N")},
                     {QStringLiteral("seconds"), QStringLiteral("rating: how long they post (default 60)."), QStringLiteral("S")},
                     {QStringLiteral("comparisons"), QStringLiteral("rating: comparisons in the campaign (default 100)."),
                      QStringLiteral("N")},
                 });
             },
             runRatingBench}};
}

} // namespace swb::cli
