// The swb CLI's contract: version, help, and the error convention (one sentence on stderr, exit 2).

#include <QRegularExpression>
#include <QTest>
#include <QTextStream>

#include "TestSupport.h"
#include "cli/CommandLine.h"

class TestCli : public QObject {
    Q_OBJECT

private:
    struct Captured {
        int status;
        QString out;
        QString err;
    };
    static Captured run(QStringList args) {
        args.prepend(QStringLiteral("swb"));
        QString out;
        QString err;
        QTextStream outStream(&out);
        QTextStream errStream(&err);
        const int status = swb::cli::runSwb(args, outStream, errStream);
        return {status, out, err};
    }

private slots:
    void versionPrintsProjectVersion() {
        const Captured c = run({QStringLiteral("--version")});
        QCOMPARE(c.status, 0);
        QCOMPARE(c.out, QStringLiteral("swb %1\n").arg(QStringLiteral(SWB_VERSION)));
        QVERIFY(c.err.isEmpty());
    }

    void helpListsUsage() {
        const Captured c = run({QStringLiteral("--help")});
        QCOMPARE(c.status, 0);
        QVERIFY(c.out.startsWith(QStringLiteral("Usage: swb SUBCOMMAND")));
    }

    void unknownSubcommandIsOneLineExit2_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        QTest::newRow("subcommand") << QStringList{QStringLiteral("bogus")} << QStringLiteral("'bogus'");
        QTest::newRow("option") << QStringList{QStringLiteral("--bogus")} << QStringLiteral("'--bogus'");
        QTest::newRow("help of unknown") << QStringList{QStringLiteral("help"), QStringLiteral("nope")}
                                         << QStringLiteral("'nope'");
    }
    void unknownSubcommandIsOneLineExit2() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        const Captured c = run(args);
        QCOMPARE(c.status, 2);
        QVERIFY(c.out.isEmpty());
        QVERIFY2(c.err.contains(needle), qPrintable(c.err));
        QCOMPARE(c.err.count(QLatin1Char('\n')), 1);
        QVERIFY(c.err.startsWith(QStringLiteral("swb: ")));
    }

    void binaryFollowsTheSameContract() {
        const auto version = swb::test::runSwbProcess({QStringLiteral("--version")});
        QCOMPARE(version.status, 0);
        QVERIFY(version.out.startsWith("swb " SWB_VERSION));
        const auto bogus = swb::test::runSwbProcess({QStringLiteral("bogus")});
        QCOMPARE(bogus.status, 2);
        QCOMPARE(bogus.err, QByteArray("swb: unknown subcommand 'bogus' (see 'swb --help')\n"));
        QVERIFY(bogus.out.isEmpty());
    }

    // --threads above the machine's cores is capped with a warning (1,000 threads once took a minute for
    // 16 tokens); below 1 it is refused.
    void threadsAreCappedAtTheCores() {
        const auto many = swb::test::runSwbProcess(
            {"generate", "--prompt", "And God said", "--max-tokens", "4", "--threads", "1000"});
        QCOMPARE(many.status, 0);
        const QRegularExpression capped(
            QStringLiteral("^swb: warning: --threads 1000 is more than the (\\d+) CPUs? this process may use; "
                           "using \\1\n$"));
        QVERIFY2(capped.match(QString::fromUtf8(many.err)).hasMatch(), many.err.constData());
        QVERIFY(!many.out.trimmed().isEmpty());
        const auto none = swb::test::runSwbProcess({"generate", "--prompt", "x", "--threads", "0"});
        QCOMPARE(none.status, 2);
        QVERIFY2(none.err.contains("--threads"), none.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
