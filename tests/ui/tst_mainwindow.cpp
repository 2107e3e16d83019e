// The GUI shell: five tabs, persisted last tab and geometry, and the --screenshot option.

#include <QImage>
#include <QMenuBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include "MainWindow.h"
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

    void screenshotOptionWritesWindowSizedPng() {
        QTemporaryDir dir;
        const QString config = dir.filePath(QStringLiteral("config"));
        const QString path = dir.filePath(QStringLiteral("shot.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config); // fresh settings: default 1280x800 window
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
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
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
