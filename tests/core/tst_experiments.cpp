// Online experiments of swb serve over loopback: sticky assignment by user or X-Experiment-Unit and the split,
// the experiment named in answers, headers and log lines, feedback stored as ratings and its refusals, the
// per-arm figures and the sequential test's decision, auto-promotion (the strategy, /metrics, the log, a
// restart), experiments over PUT, and the statistics validated by simulated users (swb bench experiment).

#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "HttpSupport.h"
#include "TestSupport.h"
#include "storage/Database.h"
#include "storage/ExperimentRepository.h"
#include "storage/RatingRepository.h"

using namespace swb;
using swb::test::exchange;
using swb::test::HttpReply;
using swb::test::object;
using swb::test::request;
using swb::test::ServeProcess;

namespace {

const char* kTopK = R"({"name": "k20", "samplers": [{"type": "top_k", "k": 20}, {"type": "dist"}]})";

// A completion for a user (none: empty); its id and arm.
std::pair<QString, QString> complete(quint16 port, const QString& user, const QByteArray& headers = {}) {
    QJsonObject body{{"prompt", "And God said"}, {"max_tokens", 2}};
    if (!user.isEmpty())
        body.insert("user", user);
    const HttpReply reply =
        exchange(port, request("POST", "/v1/completions", QJsonDocument(body).toJson(QJsonDocument::Compact), headers));
    const QJsonObject answer = object(reply.body);
    return {answer.value("id").toString(), answer.value("experiment").toObject().value("arm").toString()};
}

HttpReply feedback(quint16 port, const QByteArray& json) {
    return exchange(port, request("POST", "/v1/feedback", json));
}

QString errorCode(const HttpReply& reply) {
    return object(reply.body).value("error").toObject().value("code").toString();
}

QJsonObject armOf(const QJsonObject& experiment, const QString& name) {
    for (const QJsonValue& arm : experiment.value("arms").toArray())
        if (arm.toObject().value("name").toString() == name)
            return arm.toObject();
    return {};
}

} // namespace

class TestExperiments : public QObject {
    Q_OBJECT

private slots:
    // 10,000 units on a 80/20 split: each unit always gets the same arm, and 80% +- 1.5% (about 4 standard
    // deviations of a binomial share) get the first. Units of another experiment are assigned independently.
    void assignmentIsStickyAndFollowsTheSplit() {
        ExperimentRecord experiment;
        experiment.name = QStringLiteral("split");
        experiment.arms = {{QStringLiteral("A"), {}, 80.0}, {QStringLiteral("B"), {}, 20.0}};
        ExperimentRecord other = experiment;
        other.name = QStringLiteral("other");
        int first = 0;
        int agree = 0;
        for (int i = 0; i < 10000; ++i) {
            const QString unit = QStringLiteral("user-%1").arg(i);
            const std::size_t arm = experiment.armFor(unit);
            QCOMPARE(experiment.armFor(unit), arm);
            first += arm == 0;
            agree += other.armFor(unit) == arm;
        }
        QVERIFY2(std::abs(first - 8000) <= 150, qPrintable(QString::number(first)));
        // Independent: P(same) = 0.8^2 + 0.2^2 = 0.68.
        QVERIFY2(std::abs(agree - 6800) <= 200, qPrintable(QString::number(agree)));
    }

    void experimentOverHttp() {
        QTemporaryDir dir;
        const QString store = dir.filePath("runs.sqlite");
        {
            ServeProcess serve({"--db", store, "--experiment", "k-vs-greedy", "--arm", "A=greedy", "--arm",
                                QStringLiteral("B=%1").arg(QString::fromUtf8(kTopK))});
            QVERIFY2(serve.port() > 0, serve.stderrText().constData());
            // Sticky per user, and per X-Experiment-Unit; without a unit the arm is drawn per request.
            QSet<QString> arms;
            for (int u = 0; u < 12; ++u) {
                const QString user = QStringLiteral("user%1").arg(u);
                const QString arm = complete(serve.port(), user).second;
                QVERIFY(arm == "A" || arm == "B");
                QCOMPARE(complete(serve.port(), user).second, arm);
                arms.insert(arm);
            }
            QCOMPARE(arms.size(), 2);
            const QString byHeader = complete(serve.port(), {}, "X-Experiment-Unit: device-7\r\n").second;
            for (int i = 0; i < 4; ++i)
                QCOMPARE(complete(serve.port(), {}, "X-Experiment-Unit: device-7\r\n").second, byHeader);
            arms.clear();
            for (int i = 0; i < 16; ++i)
                arms.insert(complete(serve.port(), {}).second);
            QCOMPARE(arms.size(), 2); // 2 * 0.5^16: a test that would fail once in 30,000 runs
            // The answer's headers and the log line name the experiment and the arm; a request naming its
            // own strategy is not in the experiment.
            HttpReply reply = exchange(serve.port(), request("POST", "/v1/completions",
                                                             R"({"prompt": "And", "max_tokens": 1, "user": "user1"})"));
            QVERIFY(reply.head.contains("X-Experiment: k-vs-greedy"));
            QVERIFY(reply.head.contains("X-Experiment-Arm: " + complete(serve.port(), "user1").second.toUtf8()));
            reply = exchange(serve.port(), request("POST", "/v1/completions",
                                                   R"({"prompt": "And", "max_tokens": 1, "temperature": 0})"));
            QVERIFY(!object(reply.body).contains("experiment"));
            QCOMPARE(object(reply.body).value("strategy").toObject().value("source").toString(),
                     QStringLiteral("fields"));
            const QString unassigned = object(reply.body).value("id").toString();
            const auto logged = [&serve] {
                for (const QJsonObject& line : serve.log())
                    if (line.value("experiment").toString() == "k-vs-greedy" && !line.value("arm").toString().isEmpty())
                        return true;
                return false;
            };
            QTRY_VERIFY(logged());

            // Feedback: stored once, replaced only when asked, refused with one sentence otherwise.
            const auto [id, arm] = complete(serve.port(), "user3");
            reply = feedback(serve.port(),
                             QStringLiteral(R"({"id": "%1", "thumbs": "up", "user": "user3"})").arg(id).toUtf8());
            QCOMPARE(reply.status, 200);
            QCOMPARE(object(reply.body).value("experiment").toObject().value("arm").toString(), arm);
            reply = feedback(serve.port(), QStringLiteral(R"({"id": "%1", "thumbs": "down"})").arg(id).toUtf8());
            QCOMPARE(reply.status, 409);
            QCOMPARE(errorCode(reply), QStringLiteral("feedback_exists"));
            reply = feedback(serve.port(),
                             QStringLiteral(R"({"id": "%1", "thumbs": "down", "replace": true})").arg(id).toUtf8());
            QCOMPARE(reply.status, 200);
            QCOMPARE(object(reply.body).value("replaced").toBool(), true);
            QCOMPARE(feedback(serve.port(), R"({"id": "cmpl-none", "thumbs": "up"})").status, 404);
            QCOMPARE(errorCode(feedback(serve.port(), R"({"id": "cmpl-none", "thumbs": "up"})")),
                     QStringLiteral("completion_not_found"));
            QCOMPARE(
                feedback(serve.port(), QStringLiteral(R"({"id": "%1", "index": 1, "thumbs": "up"})").arg(id).toUtf8())
                    .status,
                404);
            // The experiment compares thumbs: a score is refused for its runs, and is checked as a score.
            reply =
                feedback(serve.port(), QStringLiteral(R"({"id": "%1", "score": 4, "replace": true})").arg(id).toUtf8());
            QCOMPARE(reply.status, 400);
            QVERIFY(
                object(reply.body).value("error").toObject().value("message").toString().contains("measures thumbs"));
            for (const char* bad :
                 {R"("score": 6)", R"("score": 0)", R"("score": 1.5)", R"("score": "5")", R"("thumbs": "sideways")",
                  R"("thumbs": "up", "score": 5)", R"("thumbs": "up", "colour": 1)"}) {
                reply = feedback(serve.port(),
                                 QStringLiteral(R"({"id": "%1", %2})").arg(unassigned, QLatin1String(bad)).toUtf8());
                QVERIFY2(reply.status == 400, bad);
                QVERIFY2(!object(reply.body).value("error").toObject().value("message").toString().isEmpty(), bad);
            }
            // A run outside the experiment takes either kind.
            QCOMPARE(feedback(serve.port(),
                              QStringLiteral(R"({"id": "%1", "score": 5, "comment": "fine"})").arg(unassigned).toUtf8())
                         .status,
                     200);

            // The experiment's figures: requests, units and feedback per arm.
            reply = exchange(serve.port(), request("GET", "/v1/experiments/k-vs-greedy"));
            QCOMPARE(reply.status, 200);
            const QJsonObject state = object(reply.body);
            QCOMPARE(state.value("state").toString(), QStringLiteral("running"));
            QCOMPARE(state.value("control").toString(), QStringLiteral("A"));
            QCOMPARE(state.value("verdict").toString(), QStringLiteral("waiting"));
            int requests = 0;
            int feedbacks = 0;
            for (const QJsonValue& a : state.value("arms").toArray()) {
                requests += a.toObject().value("requests").toInt();
                feedbacks += a.toObject().value("feedback").toInt();
            }
            QCOMPARE(requests, 12 * 2 + 5 + 16 + 1 + 1 + 1); // the request naming its own sampling is not counted
            QCOMPARE(feedbacks, 1);
            QCOMPARE(armOf(state, arm).value("feedback").toInt(), 1);
            QCOMPARE(armOf(state, arm).value("mean").toDouble(), 0.0); // replaced by "down"
            QCOMPARE(exchange(serve.port(), request("GET", "/v1/experiments/nothing")).status, 404);
        }
        // In the store: the runs tagged with experiment and arm, the feedback a rating of rubric "feedback".
        std::unique_ptr<Database> db = Database::open(store).value();
        ExperimentRepository experiments(*db);
        const ExperimentRecord experiment = experiments.find("k-vs-greedy").value().value();
        QCOMPARE(experiment.arms.size(), std::size_t(2));
        QCOMPARE(experiment.arms[1].strategy.name, QStringLiteral("k20"));
        const std::vector<ExperimentArmUsage> usage = experiments.usage(experiment.id).value();
        int units = 0;
        for (const ExperimentArmUsage& u : usage)
            units += u.units;
        QCOMPARE(units, 12 + 1 + 16); // 12 users, one device, 16 requests without a unit
        int feedbackRatings = 0;
        for (const RatingRecord& rating : RatingRepository(*db).listRatings().value())
            feedbackRatings += rating.raterName == QLatin1String(ExperimentRepository::kFeedbackRater);
        QCOMPARE(feedbackRatings, 2);
    }

    void experimentsOverPut() {
        QTemporaryDir dir;
        {
            ServeProcess plain({});
            QVERIFY(plain.port() > 0);
            const HttpReply reply = exchange(plain.port(), request("PUT", "/v1/experiments/x", R"({"arms": []})"));
            QCOMPARE(reply.status, 400);
            QVERIFY(object(reply.body).value("error").toObject().value("message").toString().contains("--db"));
        }
        ServeProcess serve({"--db", dir.filePath("runs.sqlite")});
        QVERIFY(serve.port() > 0);
        const QByteArray design =
            R"({"arms": [{"name": "A", "strategy": "greedy"}, {"name": "B", "strategy": "creative", "weight": 3}], "metric": "score"})";
        HttpReply reply = exchange(serve.port(), request("PUT", "/v1/experiments/first", design));
        QCOMPARE(reply.status, 200);
        QCOMPARE(object(reply.body).value("served").toBool(), true);
        QCOMPARE(armOf(object(reply.body), "B").value("weight").toDouble(), 3.0);
        QCOMPARE(exchange(serve.port(), request("PUT", "/v1/experiments/first", design)).status, 200); // restated
        reply = exchange(
            serve.port(),
            request("PUT", "/v1/experiments/first",
                    R"({"arms": [{"name": "A", "strategy": "greedy"}, {"name": "B", "strategy": "greedy"}]})"));
        QCOMPARE(reply.status, 409);
        for (
            const char* bad :
            {R"({"arms": [{"name": "A", "strategy": "greedy"}]})",
             R"({"arms": [{"name": "A", "strategy": "greedy"}, {"name": "A", "strategy": "creative"}]})",
             R"({"arms": [{"name": "A", "strategy": "greedy"}, {"name": "B", "strategy": "no-such-preset"}]})",
             R"({"arms": [{"name": "A", "strategy": "greedy"}, {"name": "B", "strategy": "greedy", "weight": 0}]})",
             R"({"arms": [{"name": "A b", "strategy": "greedy"}, {"name": "B", "strategy": "greedy"}]})",
             R"({"arms": [{"name": "A", "strategy": "greedy"}, {"name": "B", "strategy": "greedy"}], "metric": "stars"})"}) {
            reply = exchange(serve.port(), request("PUT", "/v1/experiments/second", bad));
            QVERIFY2(reply.status == 400, bad);
        }
        QCOMPARE(exchange(serve.port(), request("PUT", "/v1/experiments/bad%20name", design)).status, 400);
        // A score experiment: requests are assigned, scores counted.
        const auto [id, arm] = complete(serve.port(), "u1");
        QVERIFY(!arm.isEmpty());
        QCOMPARE(feedback(serve.port(), QStringLiteral(R"({"id": "%1", "score": 4})").arg(id).toUtf8()).status, 200);
        // Stopped: no longer served, its data kept.
        reply = exchange(serve.port(), request("PUT", "/v1/experiments/first", R"({"state": "stopped"})"));
        QCOMPARE(reply.status, 200);
        QCOMPARE(object(reply.body).value("state").toString(), QStringLiteral("stopped"));
        QCOMPARE(object(reply.body).value("decision").toString(), QStringLiteral("stopped without a decision"));
        QVERIFY(complete(serve.port(), "u1").second.isEmpty());
        reply = exchange(serve.port(), request("GET", "/v1/experiments"));
        QCOMPARE(object(reply.body).value("data").toArray().size(), 1);
        QCOMPARE(armOf(object(reply.body).value("data").toArray().first().toObject(), arm).value("feedback").toInt(),
                 1);
    }

    // B always pleases, A never: once each arm has its 10 feedbacks the test decides within a few more, the
    // winner becomes the default strategy (also after a restart), /metrics counts the promotion, the log says it.
    void winnerIsPromoted() {
        QTemporaryDir dir;
        const QString store = dir.filePath("runs.sqlite");
        {
            ServeProcess serve({"--db", store, "--experiment", "promote", "--arm", "A=greedy", "--arm",
                                QStringLiteral("B=%1").arg(QString::fromUtf8(kTopK)), "--auto-promote"});
            QVERIFY(serve.port() > 0);
            QString decided;
            for (int u = 0; u < 200 && decided.isEmpty(); ++u) {
                const auto [id, arm] = complete(serve.port(), QStringLiteral("user%1").arg(u));
                if (arm.isEmpty()) { // no experiment any more: promoted
                    decided = QStringLiteral("yes");
                    break;
                }
                QCOMPARE(
                    feedback(
                        serve.port(),
                        QStringLiteral(R"({"id": "%1", "thumbs": "%2"})").arg(id, arm == "B" ? "up" : "down").toUtf8())
                        .status,
                    200);
            }
            QVERIFY(!decided.isEmpty());
            HttpReply reply = exchange(serve.port(), request("GET", "/v1/experiments/promote"));
            const QJsonObject state = object(reply.body);
            QVERIFY2(reply.status == 200, reply.body.constData());
            QCOMPARE(state.value("state").toString(), QStringLiteral("stopped"));
            QCOMPARE(state.value("winner").toString(), QStringLiteral("B"));
            QCOMPARE(state.value("decision").toString(), QStringLiteral("stopped: B"));
            QVERIFY(armOf(state, "A").value("feedback").toInt() >= 10);
            QVERIFY(armOf(state, "B").value("versus_control").toObject().value("p_value").toDouble() <= 0.05);
            reply = exchange(serve.port(), request("GET", "/v1/strategy"));
            QCOMPARE(object(reply.body).value("name").toString(), QStringLiteral("k20"));
            reply = exchange(serve.port(), request("GET", "/metrics"));
            QVERIFY2(reply.body.contains("swb_experiment_promotions_total{experiment=\"promote\",arm=\"B\"} 1"),
                     reply.body.constData());
            QVERIFY(reply.body.contains("swb_experiment_feedback_total{experiment=\"promote\",arm=\"A\"}"));
            const auto logged = [&serve] {
                for (const QJsonObject& line : serve.log())
                    if (line.value("event").toString() == "promoted" && line.value("arm").toString() == "B")
                        return true;
                return false;
            };
            QTRY_VERIFY(logged());
        }
        // The report: a row per arm, B's with the decision.
        const auto report = swb::test::runSwbProcess({"export", "--db", store, "--report", "experiments"});
        QVERIFY2(report.status == 0, report.err.constData());
        const QList<QByteArray> rows = report.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 3);
        QVERIFY(rows[0].startsWith("experiment,state,metric,arm,control,strategy,"));
        QVERIFY2(rows[2].startsWith("promote,stopped,thumbs,B,no,k20,"), rows[2].constData());
        QVERIFY(rows[2].trimmed().endsWith(",stopped,B,stopped: B"));
        ServeProcess again({"--db", store});
        QVERIFY(again.port() > 0);
        QCOMPARE(object(exchange(again.port(), request("GET", "/v1/strategy")).body).value("name").toString(),
                 QStringLiteral("k20"));
        QVERIFY(complete(again.port(), "user1").second.isEmpty());
        // A decided experiment is not served again under its name.
        const QByteArray design =
            QStringLiteral(R"({"arms": [{"name": "A", "strategy": "greedy"}, {"name": "B", "strategy": %1}]})")
                .arg(QString::fromUtf8(kTopK))
                .toUtf8();
        const HttpReply restart = exchange(again.port(), request("PUT", "/v1/experiments/promote", design));
        QCOMPARE(restart.status, 409);
        QVERIFY2(object(restart.body).value("error").toObject().value("message").toString().contains("B won"),
                 restart.body.constData());
        QVERIFY(complete(again.port(), "user1").second.isEmpty());
    }

    // The statistics against simulated users on a real server (swb bench experiment, small): over 60 A/A
    // experiments of 100 feedbacks read every 10, the sequential test declares no more than 5% winners while
    // a t-test read as often declares more (what the bench exists to show); a large effect (30% against 80%
    // thumbs up) is found every time, for B. The README's table is the same bench at full size.
    void simulatedUsersFindFewFalseWinners() {
        const auto run = swb::test::runSwbProcess({"bench", "experiment", "--aa", "60", "--horizon", "100", "--ab",
                                                   "10", "--effect", "0.3:0.8", "--ab-horizon", "300", "--seed", "2"},
                                                  300000);
        QVERIFY2(run.status == 0, run.err.constData());
        const QJsonObject result = object(run.out);
        const QJsonObject aa = result.value("aa").toObject();
        QCOMPARE(aa.value("experiments").toInt(), 60);
        QVERIFY2(aa.value("false_winner_rate").toDouble() <= 0.05, run.out.constData());
        QVERIFY2(aa.value("t_test_read_as_often_false_rate").toDouble() > 0.05, run.out.constData());
        const QJsonObject ab = result.value("ab").toArray().first().toObject();
        QCOMPARE(ab.value("sequential_power").toDouble(), 1.0);
        QCOMPARE(ab.value("sequential_wrong_winner_rate").toDouble(), 0.0);
        QVERIFY(ab.value("median_feedbacks_to_decision").toDouble() < 300);
    }
};

QTEST_MAIN(TestExperiments)
#include "tst_experiments.moc"
