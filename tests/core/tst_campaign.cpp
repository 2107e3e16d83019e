// Rating campaigns end to end, without a browser: `swb campaign create` over a store of comparisons,
// `swb serve --rating` on loopback, two raters answering through the page's API (one resuming midway), a
// wrong token refused, answers sent twice stored once, bad answers refused by field, and the store holding
// exactly the ratings and preferences sent. The page itself in a real browser: tst_rating_page.

#include <map>
#include <set>

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "TestSupport.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"

using namespace swb;

namespace {

QJsonObject object(const QByteArray& json) {
    return QJsonDocument::fromJson(json).object();
}

struct Reply {
    int status = 0;
    QByteArray body;
};

Reply call(const QString& url, const QByteArray& method = "GET", const QByteArray& body = {}) {
    QNetworkAccessManager network;
    QNetworkRequest request{QUrl(url)};
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
    QNetworkReply* reply = network.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    loop.exec();
    Reply out{reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), reply->readAll()};
    reply->deleteLater();
    return out;
}

// The answer a rater gives to an item, deterministic in (rater, position): scores per label and dimension,
// and a preference.
QJsonObject answerFor(const QJsonObject& item, int rater) {
    const int position = item.value("position").toInt();
    const QJsonArray outputs = item.value("outputs").toArray();
    QJsonObject scores;
    for (int i = 0; i < outputs.size(); ++i) {
        const int base = (position + rater + i) % 3;
        scores.insert(outputs[i].toObject().value("label").toString(),
                      QJsonObject{{"relevance", base}, {"fluency", base % 3 == 2 ? 2 : base}, {"usefulness", base + 1}});
    }
    const QString preference = (position + rater) % 4 == 3 ? QStringLiteral("tie") : outputs[(position + rater) % outputs.size()].toObject().value("label").toString();
    return QJsonObject{{"position", position}, {"scores", scores}, {"preference", preference},
                       {"note", QStringLiteral("r%1 p%2").arg(rater).arg(position)}};
}

} // namespace

class TestCampaign : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db;

    // The campaign createsACampaignWithALinkPerRater makes (ann and bob, two ratings per output, no gold,
    // comparison 7 an anchor): made here when a function that serves it runs alone.
    void ensurePilotCampaign() {
        if (swb::test::runSwbProcess({"campaign", "status", "--db", m_db, "--name", "pilot"}).status == 0)
            return;
        const auto created = swb::test::runSwbProcess({"campaign", "create", "--db", m_db, "--name", "pilot",
                                                       "--raters", "ann,bob", "--ratings-per-output", "2",
                                                       "--gold-share", "0", "--anchor", "7=high:Fluent and on topic"});
        QVERIFY2(created.status == 0, created.err.constData());
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath("campaign.sqlite");
        QFile prompts(m_dir.filePath("prompts.txt"));
        QVERIFY(prompts.open(QIODevice::WriteOnly));
        prompts.write("And God said\nIn the beginning\nBlessed are the meek\nThe Lord is my shepherd\nLet there be light\n"
                      "And the earth was\nHonour thy father\n");
        prompts.close();
        const auto batch = swb::test::runSwbProcess({"batch", "--db", m_db, "--prompts", prompts.fileName(), "--strategy",
                                                     "greedy", "--strategy", "creative", "--max-tokens", "8"});
        QVERIFY2(batch.status == 0, batch.err.constData());
    }

    void createsACampaignWithALinkPerRater() {
        // Six comparisons to rate (the seventh is an anchor), two raters each, no gold.
        const auto created = swb::test::runSwbProcess({"campaign", "create", "--db", m_db, "--name", "pilot", "--raters",
                                                       "ann,bob", "--ratings-per-output", "2", "--gold-share", "0",
                                                       "--anchor", "7=high:Fluent and on topic"});
        QVERIFY2(created.status == 0, created.err.constData());
        const QJsonObject campaign = object(created.out);
        QCOMPARE(campaign.value("comparisons").toInt(), 6);
        const QJsonArray raters = campaign.value("raters").toArray();
        QCOMPARE(raters.size(), 2);
        for (const QJsonValue& r : raters) {
            QCOMPARE(r.toObject().value("total").toInt(), 6); // every comparison, each rater
            QVERIFY(r.toObject().value("link").toString().size() == QStringLiteral("/rate/").size() + 32);
        }
        // The same name again, too many ratings per output, a bad anchor: one sentence each, exit 2.
        QCOMPARE(swb::test::runSwbProcess({"campaign", "create", "--db", m_db, "--name", "pilot", "--raters", "ann,bob", "--gold-share", "0"}).status, 2);
        const auto tooMany = swb::test::runSwbProcess({"campaign", "create", "--db", m_db, "--name", "x", "--raters", "ann,bob", "--gold-share", "0"});
        QCOMPARE(tooMany.status, 2);
        QVERIFY2(tooMany.err.contains("3 ratings per output need at least 3 raters"), tooMany.err.constData());
        QCOMPARE(swb::test::runSwbProcess({"campaign", "create", "--db", m_db, "--name", "y", "--raters", "a,b,c", "--anchor", "7=great"}).status, 2);
    }

    void ratersRateThroughTheServer() {
        ensurePilotCampaign();
        const QJsonObject status = object(swb::test::runSwbProcess({"campaign", "status", "--db", m_db, "--name", "pilot"}).out);
        std::map<QString, QString> links;
        for (const QJsonValue& r : status.value("raters").toArray())
            links[r.toObject().value("rater").toString()] = r.toObject().value("link").toString();
        swb::test::ServeProcess serve({"--rating", "--db", m_db});
        QVERIFY2(serve.port() > 0, serve.stderrText().constData());
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(serve.port());

        // No token, no access; a token sees only its own queue.
        QCOMPARE(call(base + "/api/rate/0123456789abcdef0123456789abcdef").status, 403);
        QCOMPARE(call(base + "/rate/nothing").status, 403);
        const Reply page = call(base + links["ann"]);
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains("<script>") && !page.body.contains("http://") && !page.body.contains("https://"));

        std::map<std::pair<QString, int>, QJsonObject> sent; // (rater, position) -> answer
        for (const auto& [rater, link] : links) {
            const QString api = base + "/api" + link;
            const QJsonObject state = object(call(api).body);
            QCOMPARE(state.value("rater").toString(), rater);
            QCOMPARE(state.value("total").toInt(), 6);
            QCOMPARE(state.value("anchors").toArray().size(), 1);
            QCOMPARE(state.value("rubric").toArray().size(), 3);
            const QJsonArray items = state.value("items").toArray();
            const int raterIndex = rater == QLatin1String("ann") ? 0 : 1;
            // Bob stops after three, as if he closed the tab; his next visit resumes with the rest.
            const int first = rater == QLatin1String("bob") ? 3 : 6;
            for (int i = 0; i < first; ++i) {
                const QJsonObject answer = answerFor(items[i].toObject(), raterIndex);
                const Reply saved = call(api + "/answer", "POST", QJsonDocument(answer).toJson());
                QVERIFY2(saved.status == 200, saved.body.constData());
                QCOMPARE(object(saved.body).value("done").toInt(), i + 1);
                sent[{rater, items[i].toObject().value("position").toInt()}] = answer;
            }
            if (rater == QLatin1String("bob")) {
                const QJsonObject resumed = object(call(api).body);
                QCOMPARE(resumed.value("done").toInt(), 3);
                const QJsonArray again = resumed.value("items").toArray();
                for (int i = 0; i < 6; ++i) {
                    const QJsonObject item = again[i].toObject();
                    QCOMPARE(item.contains("answer"), i < 3);
                    if (i < 3) { // the answers come back as given
                        const QJsonObject given = sent[{rater, item.value("position").toInt()}];
                        QCOMPARE(item.value("answer").toObject().value("scores"), given.value("scores"));
                        QCOMPARE(item.value("answer").toObject().value("preference"), given.value("preference"));
                        QCOMPARE(item.value("answer").toObject().value("note"), given.value("note"));
                    }
                }
                for (int i = 3; i < 6; ++i) {
                    const QJsonObject answer = answerFor(again[i].toObject(), raterIndex);
                    QCOMPARE(call(api + "/answer", "POST", QJsonDocument(answer).toJson()).status, 200);
                    sent[{rater, again[i].toObject().value("position").toInt()}] = answer;
                }
                // The last answer sent twice (a double click, a retry): stored once.
                const QJsonObject last = sent[{rater, again[5].toObject().value("position").toInt()}];
                QCOMPARE(object(call(api + "/answer", "POST", QJsonDocument(last).toJson()).body).value("done").toInt(), 6);
            }
            // Bad answers name the field and change nothing.
            QJsonObject bad = answerFor(items[0].toObject(), raterIndex);
            QJsonObject scores = bad.value("scores").toObject();
            QJsonObject a = scores.value("A").toObject();
            a.insert("relevance", 9);
            scores.insert("A", a);
            bad.insert("scores", scores);
            Reply refused = call(api + "/answer", "POST", QJsonDocument(bad).toJson());
            QCOMPARE(refused.status, 400);
            QVERIFY2(refused.body.contains("scores.A.relevance"), refused.body.constData());
            QCOMPARE(call(api + "/answer", "POST", "[1, 2]").status, 400);
            bad = answerFor(items[0].toObject(), raterIndex);
            bad.insert("preference", "Q");
            QCOMPARE(call(api + "/answer", "POST", QJsonDocument(bad).toJson()).status, 400);
            bad.insert("position", 99);
            QCOMPARE(call(api + "/answer", "POST", QJsonDocument(bad).toJson()).status, 400);
            QCOMPARE(call(api, "POST").status, 405);
        }

        // The store holds exactly what was sent: per rater, 6 comparisons x 2 outputs x 3 dimensions, 6 preferences.
        Result<std::unique_ptr<Database>> db = Database::open(m_db, Database::Access::ReadOnly);
        QVERIFY(db);
        RatingRepository ratings(*db.value());
        const std::vector<RatingRecord> stored = ratings.listRatings().value();
        QCOMPARE(stored.size(), std::size_t(2 * 6 * 2 * 3));
        const std::vector<PreferenceRecord> preferences = ratings.listPreferences().value();
        QCOMPARE(preferences.size(), std::size_t(12));
        // Each stored score is the one sent for that output, found through the rater's own order of outputs.
        ComparisonRepository comparisons(*db.value());
        QSqlQuery order = db.value()->prepare("SELECT r.name, i.position, i.comparison_id, i.shown_order FROM campaign_items i "
                                              "JOIN raters r ON r.id = i.rater_id");
        QVERIFY(db.value()->exec(order, "read").ok());
        int checked = 0;
        while (order.next()) {
            const QJsonObject answer = sent.at({order.value(0).toString(), order.value(1).toInt()});
            const ComparisonRecord comparison = comparisons.loadComparison(order.value(2).toLongLong()).value();
            const QJsonArray shown = QJsonDocument::fromJson(order.value(3).toByteArray()).array();
            for (int i = 0; i < shown.size(); ++i) {
                const qint64 run = comparison.entries[std::size_t(shown[i].toInt())].runId;
                const QJsonObject expected = answer.value("scores").toObject().value(QString(QChar(u'A' + i))).toObject();
                for (const RatingRecord& r : stored)
                    if (r.runId == run && r.raterName == order.value(0).toString()) {
                        QCOMPARE(r.score, expected.value(r.dimension).toDouble());
                        ++checked;
                    }
            }
            for (const PreferenceRecord& p : preferences)
                if (p.comparisonId == comparison.id && p.raterName == order.value(0).toString()) {
                    QCOMPARE(p.note, answer.value("note").toString());
                    const QString preference = answer.value("preference").toString();
                    if (preference == QLatin1String("tie")) {
                        QCOMPARE(p.winner, PreferenceWinner::Tie);
                    } else {
                        const int label = preference.at(0).unicode() - u'A';
                        QCOMPARE(p.winnerSlot, std::optional<int>(comparison.entries[std::size_t(shown[label].toInt())].slot));
                    }
                }
        }
        QCOMPARE(checked, 72);
        // One log line per request, naming the rater, never the token.
        const auto log = serve.log();
        QVERIFY(!log.isEmpty());
        for (const QJsonObject& line : log)
            QVERIFY2(!QJsonDocument(line).toJson().contains(links["ann"].mid(6).toUtf8()), "a token in the log");
        const QJsonObject done = object(swb::test::runSwbProcess({"campaign", "status", "--db", m_db, "--name", "pilot"}).out);
        QCOMPARE(done.value("comparisons_complete").toInt(), 6);
    }

    // Issue 34: a note over 4,000 characters was cut to 4,000 while the page said "Saved.", and a score of 1.5
    // was stored in a field that takes whole numbers. Both are refused now, with the reason; a note of 4,000
    // is kept whole.
    void answersAreRefusedRatherThanBent() {
        ensurePilotCampaign();
        const QJsonObject status =
            object(swb::test::runSwbProcess({"campaign", "status", "--db", m_db, "--name", "pilot"}).out);
        const QString link = status.value("raters").toArray().at(0).toObject().value("link").toString();
        swb::test::ServeProcess serve({"--rating", "--db", m_db});
        QVERIFY2(serve.port() > 0, serve.stderrText().constData());
        const QString api = QStringLiteral("http://127.0.0.1:%1/api%2").arg(serve.port()).arg(link);
        const QJsonObject item = object(call(api).body).value("items").toArray().at(0).toObject();
        const QJsonObject answer = answerFor(item, 0);

        QJsonObject fractional = answer;
        QJsonObject scores = fractional.value("scores").toObject();
        const QString label = scores.begin().key();
        QJsonObject own = scores.value(label).toObject();
        own.insert("relevance", 1.5);
        scores.insert(label, own);
        fractional.insert("scores", scores);
        Reply reply = call(api + "/answer", "POST", QJsonDocument(fractional).toJson());
        QCOMPARE(reply.status, 400);
        QVERIFY2(reply.body.contains("whole number"), reply.body.constData());

        QJsonObject longNote = answer;
        longNote.insert("note", QString(4001, QLatin1Char('n')));
        reply = call(api + "/answer", "POST", QJsonDocument(longNote).toJson());
        QCOMPARE(reply.status, 400);
        QVERIFY2(reply.body.contains("at most 4000"), reply.body.constData());

        longNote.insert("note", QString(4000, QLatin1Char('n')));
        reply = call(api + "/answer", "POST", QJsonDocument(longNote).toJson());
        QCOMPARE(reply.status, 200);
        for (const QJsonValue& again : object(call(api).body).value("items").toArray())
            if (again.toObject().value("position") == item.value("position"))
                QCOMPARE(again.toObject().value("answer").toObject().value("note").toString().size(), 4000);
    }
};

QTEST_GUILESS_MAIN(TestCampaign)
#include "tst_campaign.moc"
