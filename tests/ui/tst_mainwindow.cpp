// The GUI shell: five tabs, persisted last tab and geometry, and the --screenshot option.

#include <QImage>
#include <QLabel>
#include <QPlainTextEdit>
#include <QMenuBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "MainWindow.h"
#include "explore/ExploreView.h"
#include "TestSupport.h"

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void hasFiveTabsInOrder() {
        swb::MainWindow window;
        QCOMPARE(window.tabs()->count(), 5);
        QStringList keys;
        for (int i = 0; i < window.tabs()->count(); ++i)
            keys << window.tabs()->widget(i)->objectName();
        QCOMPARE(keys, swb::MainWindow::tabKeys());
        QCOMPARE(keys, (QStringList{"explore", "compare", "sweep", "runs", "reports"}));
        QVERIFY(window.findChild<QAction*>(QStringLiteral("actionOpenModel")));
        QVERIFY(window.findChild<QAction*>(QStringLiteral("actionQuit")));
        QVERIFY(window.findChild<QAction*>(QStringLiteral("actionAbout")));
    }

    void remembersLastTabAndGeometry() {
        {
            swb::MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.selectTab(QStringLiteral("reports")));
            window.resize(1000, 700);
            window.close();
        }
        swb::MainWindow again;
        QCOMPARE(again.currentTabKey(), QStringLiteral("reports"));
        QCOMPARE(again.size(), QSize(1000, 700));
        QVERIFY(again.selectTab(QStringLiteral("explore")));
        QVERIFY(!again.selectTab(QStringLiteral("nonsense")));
    }

    // Issue 35: Explore's Generate and Sweep's Run both take Ctrl+Return; the key must reach the tab in front
    // (it did nothing: "Ambiguous shortcut overload"), and Generate comes back with Explore.
    void ctrlReturnRunsTheTabInFront() {
        swb::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* explore = window.findChild<swb::ExploreView*>();
        QVERIFY(explore);
        QVERIFY(QTest::qWaitFor([&] { return explore->isModelLoaded(); }, 60000));
        QVERIFY(window.selectTab(QStringLiteral("sweep")));
        QVERIFY(!explore->generateAction()->isEnabled());
        auto* status = window.findChild<QLabel*>(QStringLiteral("sweepStatus"));
        QVERIFY(status);
        status->clear();
        auto* prompts = window.findChild<QPlainTextEdit*>(QStringLiteral("sweepPrompts"));
        QVERIFY(prompts);
        prompts->setFocus();
        QTest::keyClick(prompts, Qt::Key_Return, Qt::ControlModifier);
        QVERIFY2(!status->text().isEmpty(), "Ctrl+Return on the Sweep tab did not reach Run");
        QTest::keyClick(prompts, Qt::Key_Escape); // Esc reaches Sweep's Cancel too
        QVERIFY(window.selectTab(QStringLiteral("explore")));
        QTRY_VERIFY_WITH_TIMEOUT(explore->generateAction()->isEnabled(), 60000); // once the sweep has stopped
    }

    void screenshotOptionWritesWindowSizedPng() {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("config"));
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config); // fresh settings: default 1280x800 window
        env.insert(QStringLiteral("QT_QPA_PLATFORM"),
                   QStringLiteral("offscreen:configfile=" SWB_TEST_DATA_DIR "/screens/screen-1920x1080.json"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SWB_GUI_PATH),
                      {QStringLiteral("--screenshot"), path, QStringLiteral("--tab"), QStringLiteral("compare")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        const QImage image(path);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QSize(1280, 800));

        process.start(QStringLiteral(SWB_GUI_PATH),
                      {QStringLiteral("--screenshot"), path, QStringLiteral("--tab"), QStringLiteral("bogus")});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 2);
    }

    // Issue 35: on a 1024x700 screen the default 1280x800 window reached past the screen's edges, hiding
    // Generate and the status bar. The offscreen platform takes the screen's size from a file.
    void windowFitsASmallScreen_data() {
        QTest::addColumn<QString>("tab");
        // Opened on Sweep, a never-shown Explore held the window at 725 px (its labels measured unwrapped).
        for (const QString& key : swb::MainWindow::tabKeys())
            QTest::newRow(qPrintable(key)) << key;
    }

    void windowFitsASmallScreen() {
        QFETCH(QString, tab);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"),
                   QStringLiteral("offscreen:configfile=" SWB_TEST_DATA_DIR "/screens/screen-1024x700.json"));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SWB_GUI_PATH), {QStringLiteral("--screenshot"), path, QStringLiteral("--tab"), tab});
        QVERIFY(process.waitForFinished(60000));
        QCOMPARE(process.exitCode(), 0);
        const QImage image(path);
        QVERIFY(!image.isNull());
        QVERIFY2(image.width() <= 1024 && image.height() <= 700,
                 qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));
        QVERIFY(image.width() >= 900 && image.height() >= 600); // and still uses the screen
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
