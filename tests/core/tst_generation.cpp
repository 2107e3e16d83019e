// The generation loop end to end through `swb generate`: the llama2.c reference goldens, seeded
// sampling that reproduces, and the per-step trace file.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "TestSupport.h"

class TestGeneration : public QObject {
    Q_OBJECT

private:
    static QString reference(const QString& file) {
        return swb::test::referenceDir() + QStringLiteral("/stories260K/") + file;
    }
    static QStringList modelArgs() {
        return {QStringLiteral("--model"), reference(QStringLiteral("stories260K.bin")), QStringLiteral("--tokenizer"),
                reference(QStringLiteral("tok512.bin"))};
    }

private slots:
    void goldens_data() {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<QString>("prompt");
        QTest::newRow("bos") << "greedy_bos_n200.txt"
                             << "";
        QTest::newRow("once") << "greedy_once_n64.txt"
                              << "Once upon a time";
        QTest::newRow("zoo") << "greedy_zoo_n60.txt"
                             << "Zoo";
    }
    void goldens() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, golden);
        QFETCH(QString, prompt);
        QFile file(reference(QStringLiteral("golden/") + golden));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QByteArray expected = file.readAll();
        QVERIFY(expected.endsWith('\n'));
        expected.chop(1); // run.c's final newline
        QStringList args{QStringLiteral("generate")};
        args << modelArgs() << QStringList{QStringLiteral("--prompt"),   prompt,
                                           QStringLiteral("--strategy"), QStringLiteral("greedy"),
                                           QStringLiteral("--echo"),     QStringLiteral("--max-tokens"),
                                           QStringLiteral("300")};
        const auto run = swb::test::runSwbProcess(args);
        QCOMPARE(run.status, 0);
        QVERIFY2(run.out.startsWith(expected), run.out.left(300).constData());
    }

    void seededSamplingReproduces() {
        SWB_REQUIRE_REFERENCE();
        QStringList args{QStringLiteral("generate")};
        args << modelArgs() << QStringList{QStringLiteral("--prompt"),     QStringLiteral("Once upon a time"),
                                           QStringLiteral("--strategy"),   QStringLiteral("chat"),
                                           QStringLiteral("--seed"),       QStringLiteral("7"),
                                           QStringLiteral("--max-tokens"), QStringLiteral("80")};
        const auto first = swb::test::runSwbProcess(args);
        const auto second = swb::test::runSwbProcess(args);
        QCOMPARE(first.status, 0);
        QVERIFY(first.out.size() > 40);
        QCOMPARE(first.out, second.out);
        args[args.indexOf(QStringLiteral("7"))] = QStringLiteral("8");
        const auto other = swb::test::runSwbProcess(args);
        QVERIFY(other.out != first.out); // a different seed draws differently
    }

    void traceFileHasOneLinePerStep() {
        SWB_REQUIRE_REFERENCE();
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("trace.jsonl"));
        QStringList args{QStringLiteral("generate")};
        args << modelArgs()
             << QStringList{
                    QStringLiteral("--prompt"),         QStringLiteral("Zoo"),          QStringLiteral("--strategy"),
                    QStringLiteral("llamacpp-default"), QStringLiteral("--max-tokens"), QStringLiteral("12"),
                    QStringLiteral("--json"),           QStringLiteral("--trace"),      trace};
        const auto run = swb::test::runSwbProcess(args);
        QCOMPARE(run.status, 0);
        const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
        const int tokens = static_cast<int>(summary.value(QStringLiteral("tokens")).toArray().size());
        QVERIFY(tokens >= 1 && tokens <= 12);
        QFile file(trace);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), tokens);
        for (int i = 0; i < lines.size(); ++i) {
            const QJsonObject step = QJsonDocument::fromJson(lines[i]).object();
            QCOMPARE(step.value(QStringLiteral("step")).toInt(), i);
            QCOMPARE(step.value(QStringLiteral("chosen")).toInt(),
                     summary.value(QStringLiteral("tokens")).toArray().at(i).toInt());
            const QJsonArray stages = step.value(QStringLiteral("stages")).toArray();
            QCOMPARE(stages.size(), 5); // top_k, top_p, min_p, temperature, dist
            QCOMPARE(stages.at(0).toObject().value(QStringLiteral("sampler")).toString(), QStringLiteral("top_k"));
            QVERIFY(stages.at(0).toObject().value(QStringLiteral("kept")).toInt() <= 40);
            QCOMPARE(step.value(QStringLiteral("top")).toArray().size(), 64);
            const double finalP = step.value(QStringLiteral("final_p")).toDouble();
            QVERIFY(finalP > 0.0 && finalP <= 1.0);
        }
    }

    // --prompt-ids gives the exact input a reference implementation was given: the ids `swb tokenize`
    // makes of a prompt (BOS included) generate what the prompt itself does.
    void promptIdsMatchTheEncodedPrompt() {
        const auto ids = swb::test::runSwbProcess({QStringLiteral("tokenize"), QStringLiteral("--text"),
                                                   QStringLiteral("And God said"), QStringLiteral("--add-special")});
        QCOMPARE(ids.status, 0);
        const QStringList common{QStringLiteral("generate"), QStringLiteral("--strategy"),
                                 QStringLiteral("greedy"),   QStringLiteral("--max-tokens"),
                                 QStringLiteral("12"),       QStringLiteral("--json")};
        const auto byText =
            swb::test::runSwbProcess(common + QStringList{QStringLiteral("--prompt"), QStringLiteral("And God said")});
        const auto byIds = swb::test::runSwbProcess(
            common + QStringList{QStringLiteral("--prompt-ids"), QString::fromUtf8(ids.out).trimmed()});
        QCOMPARE(byText.status, 0);
        QCOMPARE(byIds.status, 0);
        const QJsonObject a = QJsonDocument::fromJson(byText.out).object();
        const QJsonObject b = QJsonDocument::fromJson(byIds.out).object();
        QCOMPARE(b.value(QStringLiteral("prompt_ids")), a.value(QStringLiteral("prompt_ids")));
        QCOMPARE(b.value(QStringLiteral("tokens")), a.value(QStringLiteral("tokens")));
        QVERIFY(!a.value(QStringLiteral("tokens")).toArray().isEmpty());
        const auto bad =
            swb::test::runSwbProcess(common + QStringList{QStringLiteral("--prompt-ids"), QStringLiteral("1 -3")});
        QCOMPARE(bad.status, 2);
        QCOMPARE(bad.err.count('\n'), 1);
    }

    void badInputIsOneLineExit2() {
        const auto missing = swb::test::runSwbProcess(
            {QStringLiteral("generate"), QStringLiteral("--model"), QStringLiteral("/nonexistent/model.bin"),
             QStringLiteral("--tokenizer"), QStringLiteral("/nonexistent/tok.bin"), QStringLiteral("--prompt"),
             QStringLiteral("x")});
        QCOMPARE(missing.status, 2);
        QCOMPARE(missing.err.count('\n'), 1);
        const auto badStrategy = swb::test::runSwbProcess(
            {QStringLiteral("generate"), QStringLiteral("--prompt"), QStringLiteral("x"), QStringLiteral("--strategy"),
             QStringLiteral(R"({"samplers":[{"type":"top_p","p":-1}]})")});
        QCOMPARE(badStrategy.status, 2);
        QVERIFY(badStrategy.err.contains("top_p"));
    }
};

QTEST_GUILESS_MAIN(TestGeneration)
#include "tst_generation.moc"
