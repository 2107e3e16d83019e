// The rating page in a real browser: Debian's chromium driven through chromedriver (the W3C WebDriver protocol,
// spoken here over QtNetwork), against `swb serve --rating` on loopback. Two raters rate a six-comparison
// campaign with the keyboard only, one closes the tab midway and resumes, a wrong link is refused, the store
// holds exactly the ratings typed, and the layout is checked at 390 px (outputs stacked) and 1280 px (side by
// side), with screenshots. Skips, saying so, where chromium or chromedriver is not installed.

#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "TestSupport.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"

using namespace swb;

namespace {

// WebDriver's key codes.
const QString kTab = QString(QChar(0xE004));
const QString kEnter = QString(QChar(0xE007));
const QString kControl = QString(QChar(0xE009));
const QString kRelease = QString(QChar(0xE000));

quint16 freePort() {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

// A chromedriver process and one browser session on it.
class Browser {
public:
    bool start(const QString& driver, const QString& chromium, QString* why) {
        m_port = freePort();
        m_driver.start(driver, {QStringLiteral("--port=%1").arg(m_port)});
        if (!m_driver.waitForStarted(10000)) {
            *why = QStringLiteral("chromedriver did not start");
            return false;
        }
        for (int i = 0; i < 100 && status() != 200; ++i)
            QTest::qWait(100);
        return open(chromium, why);
    }
    bool open(const QString& chromium, QString* why) {
        const QJsonObject options{{"binary", chromium},
                                  {"args", QJsonArray{"--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                                      "--disable-dev-shm-usage", "--window-size=1280,900"}}};
        const QJsonObject reply = send("POST", "/session",
                                       {{"capabilities", QJsonObject{{"alwaysMatch", QJsonObject{{"goog:chromeOptions", options}}}}}});
        m_session = reply.value("value").toObject().value("sessionId").toString();
        if (m_session.isEmpty())
            *why = QStringLiteral("no browser session: %1").arg(QString::fromUtf8(QJsonDocument(reply).toJson(QJsonDocument::Compact)).left(300));
        return !m_session.isEmpty();
    }
    // Closes the browser window (a rater closing the tab) and ends the session.
    void close() {
        if (!m_session.isEmpty())
            send("DELETE", "/session/" + m_session, {});
        m_session.clear();
    }
    ~Browser() {
        close();
        m_driver.kill();
        m_driver.waitForFinished(5000);
    }
    void go(const QString& url) { command("POST", "/url", {{"url", url}}); }
    QJsonValue script(const QString& body) {
        return command("POST", "/execute/sync", {{"script", body}, {"args", QJsonArray()}}).value("value");
    }
    // Waits until the script returns true.
    bool waitFor(const QString& condition, int ms = 15000) {
        for (int waited = 0; waited < ms; waited += 50) {
            if (script("return !!(" + condition + ");").toBool())
                return true;
            QTest::qWait(50);
        }
        return false;
    }
    // Keys typed into whatever has the focus, as a user types them.
    void type(const QString& keys) {
        const QString element = command("GET", "/element/active", {}).value("value").toObject().begin().value().toString();
        command("POST", "/element/" + element + "/value", {{"text", keys}});
    }
    void resize(int width, int height) { command("POST", "/window/rect", {{"width", width}, {"height", height}}); }
    // The viewport as a PNG.
    QByteArray screenshot() {
        return QByteArray::fromBase64(command("GET", "/screenshot", {}).value("value").toString().toLatin1());
    }

private:
    int status() {
        QNetworkAccessManager network;
        QNetworkReply* reply = network.get(QNetworkRequest(QUrl(QStringLiteral("http://127.0.0.1:%1/status").arg(m_port))));
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        loop.exec();
        const int code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        reply->deleteLater();
        return code;
    }
    QJsonObject command(const QByteArray& method, const QString& path, const QJsonObject& body) {
        return send(method, "/session/" + m_session + path, body);
    }
    QJsonObject send(const QByteArray& method, const QString& path, const QJsonObject& body) {
        QNetworkAccessManager network;
        QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path)));
        request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
        QNetworkReply* reply = network.sendCustomRequest(request, method, method == "GET" ? QByteArray() : QJsonDocument(body).toJson());
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(60000, &loop, &QEventLoop::quit);
        loop.exec();
        const QJsonObject out = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return out;
    }

    QProcess m_driver;
    quint16 m_port = 0;
    QString m_session;
};

QByteArray get(const QString& url) {
    QNetworkAccessManager network;
    QNetworkReply* reply = network.get(QNetworkRequest{QUrl(url)});
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QByteArray body = reply->readAll();
    reply->deleteLater();
    return body;
}

// The scores a rater types for item `item` (in queue order), output i, dimension d: within every range.
int scoreFor(int rater, int item, int output, int dimension) {
    return (rater + item + output + dimension) % 3;
}

} // namespace

class TestRatingPage : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_db;
    QString m_chromium;
    QString m_driver;

    // Rates items [from, to) of the rater's queue with the keyboard: each score typed, Tab to the next, then
    // the preference key (A for even items, B for odd) and Ctrl+Enter.
    static void rate(Browser& browser, int rater, int from, int to) {
        for (int item = from; item < to; ++item) {
            QVERIFY(browser.waitFor(QStringLiteral("document.activeElement && document.activeElement.dataset.dim && "
                                                   "document.querySelector('#item .label-small').textContent.startsWith('Item %1 ')")
                                        .arg(item + 1)));
            QString keys;
            for (int output = 0; output < 2; ++output)
                for (int d = 0; d < 3; ++d)
                    keys += QString::number(scoreFor(rater, item, output, d)) + kTab;
            keys += item % 2 == 0 ? QStringLiteral("a") : QStringLiteral("b");
            keys += kControl + kEnter + kRelease;
            browser.type(keys);
            QVERIFY2(browser.waitFor(QStringLiteral("document.getElementById('progress').textContent === '%1 of 6'").arg(item + 1)),
                     qPrintable(browser.script("return document.getElementById('status').textContent + ' | ' + "
                                               "[...document.querySelectorAll('#item input')].map(i => i.value).join(',') + ' | ' + "
                                               "document.activeElement.outerHTML.slice(0, 120);").toString()));
        }
    }

private slots:
    void initTestCase() {
        m_chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
        m_driver = QStandardPaths::findExecutable(QStringLiteral("chromedriver"));
        if (m_chromium.isEmpty() || m_driver.isEmpty())
            QSKIP("chromium and chromedriver are not installed (Debian: chromium chromium-driver): browser test skipped");
        m_db = m_dir.filePath("page.sqlite");
        QFile prompts(m_dir.filePath("prompts.txt"));
        QVERIFY(prompts.open(QIODevice::WriteOnly));
        prompts.write("And God said\nIn the beginning\nBlessed are the meek\nThe Lord is my shepherd\nLet there be light\n"
                      "And the earth was\n");
        prompts.close();
        QCOMPARE(swb::test::runSwbProcess({"batch", "--db", m_db, "--prompts", prompts.fileName(), "--strategy", "greedy",
                                           "--strategy", "creative", "--max-tokens", "8"}).status, 0);
        QCOMPARE(swb::test::runSwbProcess({"campaign", "create", "--db", m_db, "--name", "page", "--raters", "ann,bob",
                                           "--ratings-per-output", "2", "--gold-share", "0"}).status, 0);
    }

    void twoRatersRateWithTheKeyboard() {
        const QJsonObject status = QJsonDocument::fromJson(
            swb::test::runSwbProcess({"campaign", "status", "--db", m_db, "--name", "page"}).out).object();
        QStringList links;
        for (const QJsonValue& r : status.value("raters").toArray())
            links << r.toObject().value("link").toString(); // ann, bob
        swb::test::ServeProcess serve({"--rating", "--db", m_db});
        QVERIFY(serve.port() > 0);
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(serve.port());

        Browser ann;
        QString why;
        QVERIFY2(ann.start(m_driver, m_chromium, &why), qPrintable(why));
        ann.go(base + links[0]);
        rate(ann, 0, 0, 6);
        QVERIFY(ann.waitFor("document.getElementById('finished')"));

        Browser bob;
        QVERIFY2(bob.start(m_driver, m_chromium, &why), qPrintable(why));
        bob.go(base + links[1]);
        rate(bob, 1, 0, 3);
        bob.close(); // the tab closed midway
        QVERIFY2(bob.open(m_chromium, &why), qPrintable(why));
        bob.go(base + links[1]);
        // The page resumes at his first unanswered item, with the count so far.
        QVERIFY(bob.waitFor("document.getElementById('progress').textContent === '3 of 6'"));
        rate(bob, 1, 3, 6);
        QVERIFY(bob.waitFor("document.getElementById('finished')"));

        // A wrong link: the page says so, and the API answers 403.
        bob.go(base + "/rate/00000000000000000000000000000000");
        QVERIFY(bob.waitFor("document.body.textContent.includes('This link opens no rating queue')"));

        // The store holds exactly the scores typed: 2 raters x 6 comparisons x 2 outputs x 3 dimensions.
        Result<std::unique_ptr<Database>> db = Database::open(m_db, Database::Access::ReadOnly);
        QVERIFY(db);
        const std::vector<RatingRecord> ratings = RatingRepository(*db.value()).listRatings().value();
        QCOMPARE(ratings.size(), std::size_t(72));
        QCOMPARE(RatingRepository(*db.value()).listPreferences()->size(), std::size_t(12));
        // What the API gives back is what was typed, item by item and output by output.
        for (int rater = 0; rater < 2; ++rater) {
            const QJsonObject state = QJsonDocument::fromJson(get(base + "/api" + links[rater])).object();
            const QJsonArray items = state.value("items").toArray();
            QCOMPARE(items.size(), 6);
            for (int item = 0; item < 6; ++item) {
                const QJsonObject answer = items[item].toObject().value("answer").toObject();
                QCOMPARE(answer.value("preference").toString(), item % 2 == 0 ? QStringLiteral("A") : QStringLiteral("B"));
                const QStringList dims = {"relevance", "fluency", "usefulness"};
                for (int output = 0; output < 2; ++output)
                    for (int d = 0; d < 3; ++d)
                        QCOMPARE(answer.value("scores").toObject().value(QString(QChar(u'A' + output))).toObject().value(dims[d]).toInt(),
                                 scoreFor(rater, item, output, d));
            }
        }
    }

    void layoutAtPhoneAndDesktopWidths() {
        const QJsonObject status = QJsonDocument::fromJson(
            swb::test::runSwbProcess({"campaign", "status", "--db", m_db, "--name", "page"}).out).object();
        const QString link = status.value("raters").toArray().at(0).toObject().value("link").toString();
        swb::test::ServeProcess serve({"--rating", "--db", m_db});
        Browser browser;
        QString why;
        QVERIFY2(browser.start(m_driver, m_chromium, &why), qPrintable(why));
        const QString stacked = QStringLiteral(
            "(() => { const o = document.querySelectorAll('#item section.output'); "
            "return o.length === 2 && o[1].getBoundingClientRect().top >= o[0].getBoundingClientRect().bottom; })()");
        const QString sideBySide = QStringLiteral(
            "(() => { const o = document.querySelectorAll('#item section.output'); "
            "return o.length === 2 && o[1].getBoundingClientRect().top === o[0].getBoundingClientRect().top && "
            "o[1].getBoundingClientRect().left >= o[0].getBoundingClientRect().right; })()");
        for (const int width : {390, 1280}) {
            browser.resize(width, 900);
            browser.go(QStringLiteral("http://127.0.0.1:%1").arg(serve.port()) + link);
            QVERIFY(browser.waitFor("document.querySelectorAll('#item section.output').length === 2"));
            QVERIFY2(browser.waitFor(width < 700 ? stacked : sideBySide), qPrintable(QStringLiteral("layout at %1 px").arg(width)));
            // Nothing wider than the window: no sideways scrolling on a phone.
            QVERIFY(browser.script("return document.documentElement.scrollWidth <= window.innerWidth;").toBool());
            // A PNG as wide as the window (its IHDR width, big-endian at byte 16).
            const QByteArray shot = browser.screenshot();
            QVERIFY(shot.startsWith("\x89PNG\r\n\x1a\n") && shot.size() > 24);
            const auto byte = [&shot](int i) { return quint32(quint8(shot[i])); };
            QCOMPARE(int(byte(16) << 24 | byte(17) << 16 | byte(18) << 8 | byte(19)),
                     browser.script("return window.innerWidth;").toInt());
            if (const QByteArray keep = qgetenv("SWB_SCREENSHOT_DIR"); !keep.isEmpty()) {
                QFile file(QString::fromLocal8Bit(keep) + QStringLiteral("/rating-%1.png").arg(width));
                QVERIFY(file.open(QIODevice::WriteOnly) && file.write(shot) == shot.size());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestRatingPage)
#include "tst_rating_page.moc"
