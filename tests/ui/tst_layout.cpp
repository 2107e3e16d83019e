// Issue 35's layout rule: on a small laptop screen (1024x700) and a large one (1920x1080), on every tab,
// with a store of 30 strategies (runs, ratings, preferences and a campaign over them) and a 1,000-token
// run in Explore, the window fits the screen and every button can be reached: it lies inside the window
// and inside each of its parents, or inside a scroll area that can bring it into view. ctest runs this
// executable once per screen size (the offscreen platform reads the screen from a file); with
// SWB_SCREENSHOT_DIR set it saves each tab as layout-WxH-TAB.png.

#include <map>

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "AppInfo.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "explore/ExploreView.h"
#include "explore/StrategyEditor.h"
#include "explore/TokenStreamView.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"

using namespace swb;

namespace {

constexpr int kStrategies = 30;
constexpr int kLongRun = 1000;

bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// Whether the user can get at widget in window: a scroll area's viewport may hold it anywhere (the area
// scrolls it into view), anything else must hold it whole, up to the window itself.
QString unreachableReason(const QWidget* window, const QWidget* widget) {
    QRect rect(widget->mapTo(window, QPoint(0, 0)), widget->size());
    for (const QWidget* parent = widget->parentWidget(); parent && parent != window; parent = parent->parentWidget()) {
        const auto* area = qobject_cast<const QAbstractScrollArea*>(parent->parentWidget());
        if (area && area->viewport() == parent &&
            (area->verticalScrollBarPolicy() != Qt::ScrollBarAlwaysOff ||
             area->horizontalScrollBarPolicy() != Qt::ScrollBarAlwaysOff)) {
            rect = QRect(area->mapTo(window, QPoint(0, 0)), area->size()); // the area must be reachable now
            parent = area;
            continue;
        }
        const QRect bounds(parent->mapTo(window, QPoint(0, 0)), parent->size());
        if (!bounds.contains(rect))
            return QStringLiteral("cut by %1 %2 (%3,%4 %5x%6)")
                .arg(QString::fromLatin1(parent->metaObject()->className()), parent->objectName())
                .arg(bounds.x())
                .arg(bounds.y())
                .arg(bounds.width())
                .arg(bounds.height());
    }
    if (!window->rect().contains(rect))
        return QStringLiteral("outside the window");
    return {};
}

} // namespace

class TestLayout : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    QString m_screen; // "1024x700"

    QString path(const QString& name) const { return m_dir.filePath(name); }

    static bool swbOk(const QStringList& args) {
        const auto r = swb::test::runSwbProcess(args, 300000);
        if (r.status != 0)
            qWarning("swb %s: %s", qPrintable(args.join(QLatin1Char(' '))), r.err.constData());
        return r.status == 0;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        const QSize screen = QGuiApplication::primaryScreen()->size();
        m_screen = QStringLiteral("%1x%2").arg(screen.width()).arg(screen.height());
        QSettings(applicationId(), QStringLiteral("settings")).clear();
        const QString store = Database::defaultPath();
        for (const char* suffix : {"", "-wal", "-shm"})
            QFile::remove(store + QLatin1String(suffix));
        QVERIFY(QDir().mkpath(QFileInfo(store).absolutePath()));

        // 30 strategies with long names over two prompts: 60 runs, two comparisons of 30 outputs each.
        QVERIFY(writeBytes(path(QStringLiteral("prompts.txt")), "And the LORD spake\nIn the beginning\n"));
        QStringList batch{QStringLiteral("batch"), QStringLiteral("--prompts"), path(QStringLiteral("prompts.txt")),
                          QStringLiteral("--max-tokens"), QStringLiteral("3"), QStringLiteral("--db"), store};
        for (int i = 1; i <= kStrategies; ++i)
            batch << QStringLiteral("--strategy")
                  << QStringLiteral(R"({"name": "temperature %1 with a long name", "samplers": [)"
                                    R"({"type": "banned_tokens", "ids": [%2]}, {"type": "temperature", "value": %3},)"
                                    R"( {"type": "dist"}]})")
                         .arg(i)
                         .arg(i + 10)
                         .arg(0.05 * i, 0, 'f', 2);
        QVERIFY(swbOk(batch));
        Result<std::unique_ptr<Database>> opened = Database::open(store);
        QVERIFY(opened);
        const auto runs = RunRepository(*opened.value()).listRuns();
        QVERIFY(runs && runs->size() == 2 * kStrategies);
        // Scores that differ by strategy (higher temperatures rated lower), and a preference per rater and
        // comparison, so that every chart and the win-rate matrix have 30 rows.
        QByteArray ratings = "run_id,rater,dimension,score\n";
        std::map<qint64, int> strategyOfRun;
        for (const RunSummary& run : runs.value()) {
            const int index = run.strategyName.section(QLatin1Char(' '), 1, 1).toInt();
            strategyOfRun[run.id] = index;
            for (const char* rater : {"ann", "bob"})
                ratings += QByteArray::number(run.id) + "," + rater + ",relevance," +
                           QByteArray::number((kStrategies - index + (rater[0] == 'b' ? 3 : 0)) * 4 / (kStrategies + 3)) +
                           "\n";
        }
        QVERIFY(writeBytes(path(QStringLiteral("ratings.csv")), ratings));
        QVERIFY(swbOk({QStringLiteral("import-ratings"), QStringLiteral("--db"), store, QStringLiteral("--csv"),
                       path(QStringLiteral("ratings.csv"))}));
        QByteArray preferences = "comparison_id,rater,winner\n";
        const auto comparisons = ComparisonRepository(*opened.value()).listComparisons();
        QVERIFY(comparisons && comparisons->size() == 2);
        for (const ComparisonRecord& comparison : comparisons.value())
            for (int rater = 0; rater < 3; ++rater) {
                // Each rater prefers a low temperature: a different one each, so the battles spread.
                const ComparisonRecord::Entry* best = nullptr;
                for (const ComparisonRecord::Entry& entry : comparison.entries)
                    if (strategyOfRun[entry.runId] == 1 + rater * 2)
                        best = &entry;
                QVERIFY(best);
                preferences += QByteArray::number(comparison.id) + ",rater" + QByteArray::number(rater) + "," +
                               best->blindLabel.toUtf8() + "\n";
            }
        QVERIFY(writeBytes(path(QStringLiteral("preferences.csv")), preferences));
        QVERIFY(swbOk({QStringLiteral("import-preferences"), QStringLiteral("--db"), store, QStringLiteral("--csv"),
                       path(QStringLiteral("preferences.csv"))}));
        opened.value().reset();
        QVERIFY(swbOk({QStringLiteral("campaign"), QStringLiteral("create"), QStringLiteral("--db"), store,
                       QStringLiteral("--name"), QStringLiteral("the campaign with a long name"),
                       QStringLiteral("--raters"), QStringLiteral("annabel-lee,bartholomew,cornelius"),
                       QStringLiteral("--ratings-per-output"), QStringLiteral("2"), QStringLiteral("--gold-share"),
                       QStringLiteral("0")}));

        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QApplication::setActiveWindow(m_window.get());
        ExploreView* explore = m_window->explore();
        QTRY_VERIFY_WITH_TIMEOUT(explore->isModelLoaded() && !explore->isModelLoading(), 60000);
        // A 1,000-token run: the end token banned so that the run is as long as asked.
        explore->strategyEditor()->setStrategy(swb::test::strategyFromJson(
            R"({"seed": 3, "samplers": [{"type": "banned_tokens", "ids": [0]}, {"type": "top_p", "p": 0.9}, {"type": "dist"}]})"));
        explore->maxTokens()->setValue(kLongRun);
        QSignalSpy ended(explore, &ExploreView::generationEnded);
        explore->generate();
        QVERIFY(ended.wait(120000));
        QCOMPARE(explore->stream()->stepCount(), kLongRun);
    }

    void everyTabFitsAndEveryButtonIsReachable_data() {
        QTest::addColumn<QString>("tab");
        for (const QString& key : MainWindow::tabKeys())
            QTest::newRow(qPrintable(key)) << key;
        // Explore with a conversation instead of a prompt: its input takes more room.
        QTest::newRow("explore-chat") << QStringLiteral("explore-chat");
    }

    void everyTabFitsAndEveryButtonIsReachable() {
        QFETCH(QString, tab);
        const bool chat = tab == QLatin1String("explore-chat");
        m_window->explore()->setChatMode(chat);
        const auto promptAgain = qScopeGuard([this] { m_window->explore()->setChatMode(false); });
        QVERIFY(m_window->selectTab(chat ? QStringLiteral("explore") : tab));
        QTest::qWait(400); // deferred fits and lazy refreshes
        const QRect available = m_window->screen()->availableGeometry();
        QVERIFY2(available.contains(m_window->frameGeometry()),
                 qPrintable(QStringLiteral("window %1x%2 at %3,%4 on a %5x%6 screen")
                                .arg(m_window->frameGeometry().width())
                                .arg(m_window->frameGeometry().height())
                                .arg(m_window->frameGeometry().x())
                                .arg(m_window->frameGeometry().y())
                                .arg(available.width())
                                .arg(available.height())));
        if (const QByteArray dir = qgetenv("SWB_SCREENSHOT_DIR"); !dir.isEmpty()) {
            m_window->grab().save(QStringLiteral("%1/layout-%2-%3.png").arg(QString::fromLocal8Bit(dir), m_screen, tab));
            // Scrolled to the end too (the report's charts, Compare's campaign panel).
            const auto areas = m_window->tabs()->currentWidget()->findChildren<QAbstractScrollArea*>();
            for (QAbstractScrollArea* area : areas)
                if (area->isVisible() && area->verticalScrollBar()->maximum() > 0 && area->height() > 200)
                    area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
            QTest::qWait(50);
            m_window->grab().save(
                QStringLiteral("%1/layout-%2-%3-end.png").arg(QString::fromLocal8Bit(dir), m_screen, tab));
            for (QAbstractScrollArea* area : areas)
                area->verticalScrollBar()->setValue(0);
        }
        QStringList unreachable;
        int checked = 0;
        for (const QAbstractButton* button : m_window->findChildren<QAbstractButton*>()) {
            if (!button->isVisibleTo(m_window.get()) || button->size().isEmpty())
                continue;
            ++checked;
            if (const QString why = unreachableReason(m_window.get(), button); !why.isEmpty())
                unreachable << QStringLiteral("%1 '%2' %3")
                                   .arg(button->objectName().isEmpty()
                                            ? QString::fromLatin1(button->metaObject()->className())
                                            : button->objectName(),
                                        button->text(), why);
        }
        QVERIFY(checked > 0);
        QVERIFY2(unreachable.isEmpty(), qPrintable(unreachable.join(QStringLiteral("; "))));
    }

    void theSelectedChipOfTheLongRunIsInView() {
        QVERIFY(m_window->selectTab(QStringLiteral("explore")));
        TokenStreamView* stream = m_window->explore()->stream();
        const auto chipReachable = [&](int step) {
            const QRect chip = stream->chipRect(step);
            auto* scroll = m_window->explore()->findChild<QAbstractScrollArea*>(QStringLiteral("streamScroll"));
            if (!scroll)
                return false;
            const QRect inViewport(stream->mapTo(scroll->viewport(), chip.topLeft()), chip.size());
            return scroll->viewport()->rect().contains(inViewport) &&
                   unreachableReason(m_window.get(), scroll).isEmpty();
        };
        stream->setFocus();
        QTest::keyClick(stream, Qt::Key_End);
        QCOMPARE(stream->selectedStep(), kLongRun - 1);
        QTRY_VERIFY(chipReachable(kLongRun - 1));
        QTest::keyClick(stream, Qt::Key_Home);
        QCOMPARE(stream->selectedStep(), 0);
        QTRY_VERIFY(chipReachable(0));
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
