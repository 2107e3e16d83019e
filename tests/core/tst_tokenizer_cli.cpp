// swb tokenize / detokenize / bench tokenize through the built binary: llama.cpp's conformance vectors
// (46 cases per reference vocabulary, each as `swb tokenize --model X.gguf --file CASE`), the options of
// the contract, and exit status 2 with one line naming the file for every kind of bad input.

#include <algorithm>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "TestSupport.h"
#include "chat/JinjaValue.h"
#include "TinyVocabularies.h"
#include "VocabCases.h"

using swb::test::runSwbProcess;

class TestTokenizerCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    // Runs many swb invocations a few at a time (each process pays libtorch's start-up).
    static QList<swb::test::ProcessResult> runMany(const QList<QStringList>& invocations) {
        QList<swb::test::ProcessResult> results(invocations.size());
        const int parallel = std::max(2, QThread::idealThreadCount());
        QList<QProcess*> running;
        QList<int> index;
        int next = 0;
        while (next < invocations.size() || !running.isEmpty()) {
            while (next < invocations.size() && running.size() < parallel) {
                auto* p = new QProcess;
                p->start(QStringLiteral(SWB_CLI_PATH), invocations[next]);
                running << p;
                index << next++;
            }
            QProcess* p = running.takeFirst();
            const int i = index.takeFirst();
            p->waitForFinished(300000);
            results[i].status = p->exitStatus() == QProcess::NormalExit ? p->exitCode() : -1;
            results[i].out = p->readAllStandardOutput();
            results[i].err = p->readAllStandardError();
            delete p;
        }
        return results;
    }

    static void expectBadInput(const swb::test::ProcessResult& r, const QString& fileNamed, const QString& needle) {
        QCOMPARE(r.status, 2);
        QVERIFY2(r.out.isEmpty(), r.out.constData());
        const QString err = QString::fromUtf8(r.err);
        QVERIFY2(err.startsWith(QStringLiteral("swb: ")), qPrintable(err));
        QCOMPARE(err.count('\n'), 1);
        QVERIFY2(err.contains(fileNamed), qPrintable(err));
        QVERIFY2(err.contains(needle), qPrintable(err));
    }

    // A spread of the 46 reference cases: spaces only, newlines and tabs, emoji, Khmer, mixed scripts, digits.
    static constexpr int kPicks[] = {1, 3, 5, 9, 16, 19, 20, 21, 28, 32, 44, 45};

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        QVERIFY(swb::test::writeTinyVocabularies(m_dir.path()));
    }

    void conformanceThroughTheBinary_data() {
        QTest::addColumn<QString>("vocab");
        for (const QString& v : swb::test::referenceVocabNames())
            QTest::newRow(qPrintable(v)) << v;
    }
    void conformanceThroughTheBinary() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, vocab);
        const std::vector<swb::test::VocabCase> cases = swb::test::readVocabCases(vocab);
        QCOMPARE(cases.size(), std::size_t(46));
        // Every case's ids through the binary in one process: manyTextsInOneProcess. Here a file each, one
        // process each, for a spread of the cases (kPicks): the raw bytes of a file are what is tokenized.
        QList<QStringList> invocations;
        for (const int i : kPicks) {
            const QString file = path(QStringLiteral("%1-case-%2.txt").arg(vocab).arg(i));
            QVERIFY(swb::test::writeFile(file, cases[static_cast<std::size_t>(i)].text));
            invocations << QStringList{QStringLiteral("tokenize"), QStringLiteral("--model"),
                                       swb::test::referenceVocabPath(vocab), QStringLiteral("--file"), file};
        }
        const QList<swb::test::ProcessResult> results = runMany(invocations);
        int passed = 0;
        QStringList failures;
        for (qsizetype k = 0; k < results.size(); ++k) {
            const auto i = static_cast<std::size_t>(kPicks[k]);
            QStringList expected;
            for (const int id : cases[i].ids)
                expected << QString::number(id);
            const swb::test::ProcessResult& r = results[k];
            const QByteArray want = expected.join(' ').toUtf8() + '\n';
            if (r.status == 0 && r.out == want && r.err.isEmpty())
                ++passed;
            else
                failures << QStringLiteral("case %1: got '%2' (status %3, %4)")
                                .arg(i)
                                .arg(QString::fromUtf8(r.out.trimmed()))
                                .arg(r.status)
                                .arg(QString::fromUtf8(r.err.trimmed()));
        }
        QVERIFY2(passed == static_cast<int>(std::size(kPicks)), qPrintable(failures.join(QStringLiteral("; "))));
    }

    // All 46 reference texts in one process (--jsonl), then back (detokenize --jsonl): the same ids as the
    // reference, and the same texts as JSON strings.
    void manyTextsInOneProcess_data() { conformanceThroughTheBinary_data(); }
    void manyTextsInOneProcess() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, vocab);
        const std::vector<swb::test::VocabCase> cases = swb::test::readVocabCases(vocab);
        QByteArray texts, expectedIds, idsJsonl, expectedTexts;
        for (std::size_t i = 0; i < cases.size(); ++i) {
            const std::string text(cases[i].text.constData(), std::size_t(cases[i].text.size()));
            texts += QByteArray::fromStdString(i % 2 ? "{\"id\": " + std::to_string(i) + ", \"text\": " +
                                                           swb::jinja::Value(text).toJson() + "}"
                                                     : swb::jinja::Value(text).toJson()) + '\n';
            QStringList ids, json;
            for (const int id : cases[i].ids) {
                ids << QString::number(id);
                json << QString::number(id);
            }
            expectedIds += ids.join(' ').toUtf8() + '\n';
            idsJsonl += "[" + json.join(QStringLiteral(", ")).toUtf8() + "]\n";
            expectedTexts += QByteArray::fromStdString(swb::jinja::Value(text).toJson()) + '\n';
        }
        QVERIFY(swb::test::writeFile(path(vocab + "-texts.jsonl"), texts));
        const auto encoded = runSwbProcess({"tokenize", "--model", swb::test::referenceVocabPath(vocab), "--jsonl",
                                            path(vocab + "-texts.jsonl")});
        QVERIFY2(encoded.status == 0, encoded.err.constData());
        QCOMPARE(encoded.out, expectedIds);
        QVERIFY(swb::test::writeFile(path(vocab + "-ids.jsonl"), idsJsonl));
        const auto decoded = runSwbProcess({"detokenize", "--model", swb::test::referenceVocabPath(vocab), "--jsonl",
                                            path(vocab + "-ids.jsonl")});
        QVERIFY2(decoded.status == 0, decoded.err.constData());
        QCOMPARE(decoded.out, expectedTexts);
    }

    void manyTextsErrorsNameTheLine() {
        QVERIFY(swb::test::writeFile(path("bad.jsonl"), "\"fine\"\n\n{\"txt\": \"no text field\"}\n"));
        const auto r = runSwbProcess({"tokenize", "--jsonl", path("bad.jsonl")});
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains("bad.jsonl, line 3: expected a JSON string or an object with a \"text\" string"),
                 r.err.constData());
        QVERIFY(r.out.isEmpty() || r.out.count('\n') == 1);
        QVERIFY(swb::test::writeFile(path("bad-ids.jsonl"), "[1, 2]\n[3, \"x\"]\n"));
        const auto d = runSwbProcess({"detokenize", "--jsonl", path("bad-ids.jsonl")});
        QCOMPARE(d.status, 2);
        QVERIFY2(d.err.contains("bad-ids.jsonl, line 2: expected a JSON array of token ids"), d.err.constData());
    }

    void benchTokenizeMeasuresALargeVocabularyLoad() {
        const auto r = runSwbProcess({"bench", "tokenize", "--synthetic-vocab", "20000", "--synthetic-merges", "30000",
                                      "--megabytes", "0.05"});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value("vocab").toInt(), 20000);
        for (const char* key : {"load_seconds", "load_resident_mb", "load_peak_mb", "file_read_seconds", "load_vs_file_read"})
            QVERIFY2(o.value(QLatin1String(key)).toDouble() > 0, key);
        QVERIFY(o.value("source").toString().startsWith("synthetic tokenizer.json"));
    }

    void detokenizeRestoresReferenceText_data() { conformanceThroughTheBinary_data(); }
    void detokenizeRestoresReferenceText() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, vocab);
        const std::vector<swb::test::VocabCase> cases = swb::test::readVocabCases(vocab);
        QList<QStringList> invocations;
        for (const int i : kPicks) {
            QStringList args{QStringLiteral("detokenize"), QStringLiteral("--model"),
                             swb::test::referenceVocabPath(vocab)};
            for (const int id : cases[static_cast<std::size_t>(i)].ids)
                args << QString::number(id);
            invocations << args;
        }
        const QList<swb::test::ProcessResult> results = runMany(invocations);
        for (qsizetype k = 0; k < results.size(); ++k) {
            QCOMPARE(results[k].status, 0);
            QCOMPARE(results[k].out, cases[static_cast<std::size_t>(kPicks[k])].text); // raw bytes, nothing added
        }
    }

    // The contract's options on the tiny vocabularies (ids worked out in TinyVocabularies.h).
    void options_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("out");
        const QString bpe = path(QStringLiteral("tiny-bpe.gguf"));
        const QString spm = path(QStringLiteral("tiny-spm.gguf"));
        swb::test::writeFile(path(QStringLiteral("the.txt")), " the\n"); // the newline is part of the text
        QTest::newRow("text") << QStringList{"tokenize", "--model", bpe, "--text", " the"} << QByteArray("258\n");
        QTest::newRow("file, raw bytes") << QStringList{"tokenize", "--model", bpe, "--file", path("the.txt")}
                                         << QByteArray("258 10\n");
        QTest::newRow("no special by default")
            << QStringList{"tokenize", "--model", spm, "--text", "ab"} << QByteArray("262\n");
        QTest::newRow("add-special") << QStringList{"tokenize", "--model", spm, "--text", "ab", "--add-special"}
                                     << QByteArray("1 262\n");
        QTest::newRow("special text is text") << QStringList{"tokenize", "--model", bpe, "--text", "<|endoftext|>"}
                                              << QByteArray("60 124 101 110 100 111 102 116 101 120 116 124 62\n");
        QTest::newRow("parse-special") << QStringList{"tokenize", "--model",       bpe,
                                                      "--text",   "<|endoftext|>", "--parse-special"}
                                       << QByteArray("260\n");
        QTest::newRow("empty text") << QStringList{"tokenize", "--model", spm, "--text", ""} << QByteArray("\n");
        QTest::newRow("llama2.c")
            << QStringList{"tokenize", "--model", path("tiny-model.bin"), "--tokenizer", path("tiny-tok.bin"),
                           "--text",   "ab",      "--add-special"}
            << QByteArray("1 263\n");
        QTest::newRow("detokenize") << QStringList{"detokenize", "--model", spm, "1", "262", "260"}
                                    << QByteArray("ab a");
        QTest::newRow("detokenize one argument")
            << QStringList{"detokenize", "--model", spm, "1 262 260"} << QByteArray("ab a");
        // Byte 0xF0 alone (id 240 in the byte-level alphabet): half a character, written as it is.
        QTest::newRow("detokenize partial character")
            << QStringList{"detokenize", "--model", bpe, "240"} << QByteArray("\xf0");
    }
    void options() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, out);
        const swb::test::ProcessResult r = runSwbProcess(args);
        QVERIFY2(r.status == 0, r.err.constData());
        QCOMPARE(r.out, out);
        QVERIFY(r.err.isEmpty());
    }

    void withoutModelUsesTheBundledDemoModel() {
        const QString demo = QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
        const auto implicit = swb::test::runSwbProcess({"tokenize", "--text", "And God said"});
        const auto explicitModel = swb::test::runSwbProcess({"tokenize", "--model", demo, "--text", "And God said"});
        QCOMPARE(implicit.status, 0);
        QCOMPARE(implicit.out, explicitModel.out);
        QVERIFY(!implicit.out.trimmed().isEmpty());
    }

    void usageErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        const QString bpe = path(QStringLiteral("tiny-bpe.gguf"));
        QTest::newRow("text and file") << QStringList{"tokenize", "--model", bpe, "--text", "x", "--file", bpe}
                                       << "exactly one of --text, --file and --jsonl";
        QTest::newRow("neither text nor file")
            << QStringList{"tokenize", "--model", bpe} << "exactly one of --text, --file and --jsonl";
        QTest::newRow("missing file") << QStringList{"tokenize", "--model", bpe, "--file", path("nope.txt")}
                                      << "nope.txt";
        QTest::newRow("id out of range") << QStringList{"detokenize", "--model", bpe, "261"} << "'261'";
        QTest::newRow("id not a number") << QStringList{"detokenize", "--model", bpe, "x1"} << "'x1'";
        QTest::newRow("no bench mode") << QStringList{"bench"} << "tokenize";
        QTest::newRow("unknown bench mode") << QStringList{"bench", "bogus"} << "unknown bench mode 'bogus'";
        QTest::newRow("bad megabytes") << QStringList{"bench", "tokenize", "--megabytes", "0"} << "--megabytes";
        QTest::newRow("option of no bench mode") << QStringList{"bench", "tokenize", "--steps", "3"} << "'steps'";
    }
    void usageErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        const swb::test::ProcessResult r = runSwbProcess(args);
        expectBadInput(r, QString(), needle);
    }

    // Bad files: exit 2, one sentence on stderr naming the file and the problem.
    void badInput_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("fileNamed");
        QTest::addColumn<QString>("needle");
        QDir(m_dir.path()).mkpath(QStringLiteral("malformed"));
        swb::test::writeFile(path(QStringLiteral("malformed/tokenizer.json")), "{\"model\": [");
        QDir(m_dir.path()).mkpath(QStringLiteral("missing-merge"));
        swb::test::writeFile(path(QStringLiteral("missing-merge/tokenizer.json")),
                             "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1},\"merges\":[\"a b\"]}}");
        swb::test::GgufWriter bert;
        bert.addString("tokenizer.ggml.model", "bert");
        bert.addStringArray("tokenizer.ggml.tokens", {"a"});
        bert.write(path(QStringLiteral("bert.gguf")));
        QFile tiny(path(QStringLiteral("tiny-bpe.gguf")));
        tiny.open(QIODevice::ReadOnly);
        const QByteArray whole = tiny.readAll();
        swb::test::writeFile(path(QStringLiteral("truncated.gguf")), whole.left(whole.size() - 40));
        QFile tok(path(QStringLiteral("tiny-tok.bin")));
        tok.open(QIODevice::ReadOnly);
        swb::test::writeFile(path(QStringLiteral("short-tok.bin")), tok.readAll().chopped(2));
        const QStringList text{"--text", "x"};
        QTest::newRow("malformed JSON") << (QStringList{"tokenize", "--model", path("malformed")} + text)
                                        << "malformed/tokenizer.json"
                                        << "not valid JSON";
        QTest::newRow("unknown model type")
            << (QStringList{"tokenize", "--model", path("bert.gguf")} + text) << "bert.gguf"
            << "'bert'";
        QTest::newRow("merge names missing token")
            << (QStringList{"tokenize", "--model", path("missing-merge")} + text) << "missing-merge/tokenizer.json"
            << "'ab', which is not in the vocabulary";
        QTest::newRow("truncated GGUF") << (QStringList{"tokenize", "--model", path("truncated.gguf")} + text)
                                        << "truncated.gguf"
                                        << "truncated";
        QTest::newRow("tok.bin wrong size")
            << (QStringList{"tokenize", "--model", path("tiny-model.bin"), "--tokenizer", path("short-tok.bin")} + text)
            << "short-tok.bin"
            << "truncated";
        QTest::newRow("detokenize, truncated GGUF")
            << QStringList{"detokenize", "--model", path("truncated.gguf"), "1"} << "truncated.gguf"
            << "truncated";
    }
    void badInput() {
        QFETCH(QStringList, args);
        QFETCH(QString, fileNamed);
        QFETCH(QString, needle);
        expectBadInput(runSwbProcess(args), fileNamed, needle);
    }

    void benchTokenizeReportsJson() {
        const swb::test::ProcessResult r = runSwbProcess({QStringLiteral("bench"), QStringLiteral("tokenize"),
                                                          QStringLiteral("--megabytes"), QStringLiteral("0.3")});
        QVERIFY2(r.status == 0, r.err.constData());
        QCOMPARE(r.out.count('\n'), 1);
        QJsonParseError error;
        const QJsonObject o = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, r.out.constData());
        for (const char* key : {"megabytes", "seconds", "mb_per_s", "tokens", "vocab"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(QStringLiteral("megabytes")).toDouble(), 0.3);
        QVERIFY(o.value(QStringLiteral("tokens")).toInteger() > 30000); // English runs ~4 bytes a token
        QVERIFY(o.value(QStringLiteral("mb_per_s")).toDouble() > 0);
        QCOMPARE(o.value(QStringLiteral("vocab")).toInt(), 50257); // GPT-2's, or the synthesized one of that size
    }

    void helpListsTheCommands() {
        const swb::test::ProcessResult all = runSwbProcess({QStringLiteral("--help")});
        QCOMPARE(all.status, 0);
        for (const char* name : {"tokenize", "detokenize", "bench"})
            QVERIFY2(all.out.contains(QByteArray("\n  ") + name), name);
        const swb::test::ProcessResult bench = runSwbProcess({QStringLiteral("help"), QStringLiteral("bench")});
        QCOMPARE(bench.status, 0);
        QVERIFY(bench.out.contains("tokenize"));
        const swb::test::ProcessResult mode =
            runSwbProcess({QStringLiteral("bench"), QStringLiteral("tokenize"), QStringLiteral("--help")});
        QCOMPARE(mode.status, 0);
        QVERIFY(mode.out.contains("--megabytes"));
        QVERIFY(mode.out.contains("--tokenizer-json"));
        QVERIFY(mode.err.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTokenizerCli)
#include "tst_tokenizer_cli.moc"
