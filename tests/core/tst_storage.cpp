// The run store: round trips, deduplication, files it must refuse without touching them, and a
// batch killed with SIGKILL again and again that still finishes with exactly the expected runs.

#include <csignal>

#include <unistd.h>

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "CheckpointWriters.h"
#include "Rng.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "storage/StepBlob.h"

using namespace swb;

namespace {

// What schema 8 added (experiments), dropped to give a store of an older schema.
const QString kDropSchema8 = QStringLiteral("DROP TABLE served_runs;DROP TABLE experiment_arms;DROP TABLE experiments");

QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

RunRecord sampleRun(qint64 modelId, qint64 strategyId, int steps, std::uint64_t seed) {
    Pcg64 rng(seed);
    RunRecord run;
    run.modelId = modelId;
    run.strategyId = strategyId;
    run.promptText = QStringLiteral("Once upon a time — ünïcödé");
    run.promptIds = {1, 403, 407, 261};
    run.seed = seed;
    run.text = QStringLiteral(" there was a girl.");
    run.finishReason = QStringLiteral("max_tokens");
    run.timeToFirstTokenMs = 12.5;
    run.tokensPerSecond = 321.25;
    run.createdAt = QDateTime::fromString(QStringLiteral("2026-12-02T10:00:00.123Z"), Qt::ISODateWithMs);
    for (int i = 0; i < steps; ++i) {
        StepTrace trace;
        trace.chosen = static_cast<TokenId>(rng.next() % 32000);
        trace.rawP = static_cast<float>(rng.uniform());
        trace.finalP = static_cast<float>(rng.uniform());
        trace.rawRank = static_cast<int>(rng.next() % 100) + 1;
        trace.rawEntropy = rng.uniform() * 5;
        trace.finalEntropy = rng.uniform() * 3;
        trace.draw = i % 3 == 0 ? NAN : rng.uniform();
        trace.finalCount = static_cast<int>(rng.next() % 40) + 1;
        trace.stages = {{QStringLiteral("top_k"), 40, 0.93, 1.5},
                        {QStringLiteral("top_p"), 17, 0.9, 0.0123},
                        {QStringLiteral("dist"), 17, 1.0, NAN}};
        for (int t = 0; t < 64; ++t)
            trace.top.push_back({static_cast<TokenId>(rng.next() % 32000), static_cast<float>(rng.uniform() * 10 - 5),
                                 static_cast<float>(rng.uniform()), t < 17 ? static_cast<float>(rng.uniform()) : 0.0f});
        run.steps.push_back(std::move(trace));
    }
    return run;
}

// A tiny random llama2.c model and a byte-level tok.bin of the same vocabulary size; empty paths when they
// could not be written.
std::pair<QString, QString> writeTinyModel(const QTemporaryDir& dir) {
    std::vector<std::pair<std::string, float>> vocab = swb::test::llama2cBaseVocab();
    for (const char* piece : {" the", " a", " and", "e", "t"})
        vocab.emplace_back(piece, -1.0f);
    swb::test::LlamaShape shape;
    shape.vocab = static_cast<int>(vocab.size());
    shape.context = 128;
    const QString model = dir.filePath(QStringLiteral("tiny.bin"));
    const QString tokenizer = dir.filePath(QStringLiteral("tok.bin"));
    if (!swb::test::writeBytes(model, swb::test::llama2cBytes(swb::test::randomLlama(shape, 5), 0)) ||
        !swb::test::writeFile(tokenizer, swb::test::tokBin(vocab)))
        return {};
    return {model, tokenizer};
}

// Whether a store's set-up got as far as its tables (a process killed while creating it may leave less).
bool hasRunsTable(const QString& path) {
    bool found = false;
    {
        QSqlDatabase sql = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("tables"));
        sql.setDatabaseName(path);
        if (sql.open()) {
            QSqlQuery query(sql);
            found = query.exec(QStringLiteral("SELECT count(*) FROM sqlite_master WHERE name = 'runs'")) &&
                    query.next() && query.value(0).toInt() == 1;
        }
        sql.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("tables"));
    return found;
}

} // namespace

class TestStorage : public QObject {
    Q_OBJECT

private slots:
    void blobsRoundTrip() {
        const std::vector<TopCandidate> top = {{7, -1.5f, 0.25f, 0.5f}, {123456, 3.0f, 1e-9f, 0.0f}};
        const QByteArray packed = step_blob::packAlternatives(top);
        QCOMPARE(packed.size(), 32);
        // Little-endian on disk whatever the host: id 7 is 07 00 00 00; -1.5f is 0xBFC00000.
        QCOMPARE(packed.left(8), QByteArray::fromHex("07000000"
                                                     "0000c0bf"));
        const auto back = step_blob::unpackAlternatives(packed);
        QVERIFY(back.has_value());
        QCOMPARE(back->size(), std::size_t(2));
        QCOMPARE((*back)[1].id, 123456);
        QCOMPARE((*back)[1].rawP, 1e-9f);
        QVERIFY(!step_blob::unpackAlternatives(packed.left(31)).has_value());
        QVERIFY(!step_blob::unpackStages(QByteArray("\x05to", 3)).has_value());
    }

    void runRoundTrip() {
        QTemporaryDir dir;
        auto db = Database::open(dir.filePath(QStringLiteral("store.sqlite")));
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        RunRepository runs(*db.value());
        ModelRecord model{0,
                          QStringLiteral("/models/m"),
                          QStringLiteral("llama2c"),
                          QStringLiteral("llama"),
                          QStringLiteral("abc123"),
                          260000,
                          QStringLiteral("{}")};
        const qint64 modelId = runs.saveModel(model).value();
        QCOMPARE(runs.saveModel(model).value(), modelId);
        const Strategy strategy = Strategy::parse(QStringLiteral("chat")).value();
        const qint64 strategyId = runs.saveStrategy(strategy).value();
        // The same chain spelled differently is one strategy.
        Strategy respelled = Strategy::parse(QString::fromUtf8(QJsonDocument(strategy.toJson()).toJson())).value();
        respelled.name.clear();
        QCOMPARE(runs.saveStrategy(respelled).value(), strategyId);
        QCOMPARE(runs.loadStrategy(strategyId)->samplers, strategy.samplers);
        QCOMPARE(runs.loadStrategy(strategyId)->name, QStringLiteral("chat"));
        // An unnamed strategy (as the GUI's editor makes) saves too, and can be named later.
        Strategy unnamed = Strategy::parse(QStringLiteral(R"({"samplers": [{"type": "top_k", "k": 3}]})")).value();
        QVERIFY(unnamed.name.isNull());
        const Result<qint64> unnamedId = runs.saveStrategy(unnamed);
        QVERIFY2(unnamedId.ok(), qPrintable(unnamedId.ok() ? QString() : unnamedId.error().message));
        QVERIFY(runs.listNamedStrategies()->empty() || runs.listNamedStrategies()->front().first != unnamedId.value());
        QCOMPARE(runs.saveNamedStrategy(unnamed, QStringLiteral("mine")).value(), unnamedId.value());
        const auto named = runs.listNamedStrategies().value();
        QVERIFY(std::any_of(named.begin(), named.end(), [&](const auto& entry) {
            return entry.first == unnamedId.value() && entry.second.name == QStringLiteral("mine");
        }));
        // Found by name: the first saved under it when two share it; nothing for an unknown or empty name.
        const Strategy other = Strategy::parse(QStringLiteral(R"({"samplers": [{"type": "top_k", "k": 4}]})")).value();
        QVERIFY(runs.saveNamedStrategy(other, QStringLiteral("mine")).ok());
        QCOMPARE(runs.findNamedStrategy(QStringLiteral("mine")).value()->samplers, unnamed.samplers);
        QCOMPARE(runs.findNamedStrategy(QStringLiteral("chat")).value()->samplers, strategy.samplers);
        QVERIFY(!runs.findNamedStrategy(QStringLiteral("nobody")).value());
        QVERIFY(!runs.findNamedStrategy(QString()).value());

        RunRecord run = sampleRun(modelId, strategyId, 50, 9);
        QVERIFY(runs.saveRun(run).ok());
        QVERIFY(run.id > 0);
        const Result<RunRecord> loaded = runs.loadRun(run.id);
        QVERIFY(loaded.ok());
        QVERIFY(loaded.value() == run);
        QCOMPARE(loaded->steps[1].top[5].finalP, run.steps[1].top[5].finalP);

        RunRecord branch = sampleRun(modelId, strategyId, 3, 10);
        branch.parentRunId = run.id;
        branch.branchStep = 2;
        QVERIFY(runs.saveRun(branch).ok());
        QVERIFY(runs.loadRun(branch.id).value() == branch);
        const auto list = runs.listRuns().value();
        QCOMPARE(list.size(), std::size_t(2));
        QCOMPARE(list[1].parentRunId, std::optional<qint64>(run.id));
        QCOMPARE(list[0].strategyName, QStringLiteral("chat"));
        // Deleting a run deletes its steps and branches.
        QVERIFY(runs.deleteRun(run.id).ok());
        QCOMPARE(runs.listRuns()->size(), std::size_t(0));
        QSqlQuery steps(db.value()->connection());
        QVERIFY(steps.exec(QStringLiteral("SELECT count(*) FROM steps")) && steps.next());
        QCOMPARE(steps.value(0).toInt(), 0);
    }

    // Issue 34: what a remote engine does not give (entropies, survivor count, a rank outside its top N) was
    // stored as 0. It is NULL now and reads back unknown; a store from before (schema 6) migrates, its remote
    // runs' zeros becoming unknown and a local run's values kept.
    void unknownStepValuesStayUnknown() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.sqlite"));
        qint64 localRun = 0, remoteRun = 0, freshRemoteRun = 0;
        {
            auto db = Database::open(path);
            QVERIFY(db.ok());
            RunRepository runs(*db.value());
            const qint64 local = runs.saveModel({0, QStringLiteral("/m"), QStringLiteral("gguf"),
                                                 QStringLiteral("llama"), QStringLiteral("h"), 1, QStringLiteral("{}")})
                                     .value();
            const qint64 remote =
                runs.saveModel({0, QStringLiteral("http://127.0.0.1:8080/v1"), QStringLiteral("remote"),
                                QStringLiteral("llama.cpp"), QStringLiteral("r"), 0, QStringLiteral("{}")})
                    .value();
            const qint64 strategy = runs.saveStrategy(Strategy::parse(QStringLiteral("greedy")).value()).value();
            RunRecord a = sampleRun(local, strategy, 2, 1);
            a.steps[0].rawEntropy = 0.0; // a real zero (a certain step) stays a zero
            QVERIFY(runs.saveRun(a).ok());
            localRun = a.id;
            // A remote run as the code before this saved it: zeros for what the engine did not give.
            RunRecord b = sampleRun(remote, strategy, 2, 2);
            for (StepTrace& step : b.steps) {
                step.rawEntropy = 0.0;
                step.finalEntropy = 0.0;
                step.finalCount = 0;
            }
            b.steps[0].finalP = 0.0f; // and no final p from an engine that gave none (issue 40)
            QVERIFY(runs.saveRun(b).ok());
            remoteRun = b.id;
            // A remote run as it is saved now: unknown.
            RunRecord c = sampleRun(remote, strategy, 1, 3);
            c.steps[0].rawEntropy = NAN;
            c.steps[0].finalEntropy = NAN;
            c.steps[0].finalCount = -1;
            c.steps[0].rawRank = 0;
            QVERIFY(runs.saveRun(c).ok());
            freshRemoteRun = c.id;
            QVERIFY(runs.loadRun(c.id).value() == c);
            for (const QString& statement : kDropSchema8.split(QLatin1Char(';'), Qt::SkipEmptyParts))
                QVERIFY(db.value()->execSql(statement, QStringLiteral("as schema 7")).ok());
            QVERIFY(db.value()->execSql(QStringLiteral("PRAGMA user_version = 6"), QStringLiteral("as schema 6")).ok());
        }
        auto db = Database::open(path); // migrates 6 -> 7 -> 8 -> 9
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        RunRepository runs(*db.value());
        const RunRecord local = runs.loadRun(localRun).value();
        QCOMPARE(local.steps[0].rawEntropy, 0.0);
        QVERIFY(local.steps[1].rawEntropy > 0.0 && local.steps[1].finalCount > 0 && local.steps[1].rawRank > 0);
        for (qint64 id : {remoteRun, freshRemoteRun})
            for (const StepTrace& step : runs.loadRun(id).value().steps) {
                QVERIFY(std::isnan(step.rawEntropy) && std::isnan(step.finalEntropy));
                QCOMPARE(step.finalCount, -1);
            }
        // Schema 9: the remote step's final p of 0 is unknown; a given one, and a local run's, are kept.
        const RunRecord remote = runs.loadRun(remoteRun).value();
        QVERIFY(std::isnan(remote.steps[0].finalP));
        QVERIFY(remote.steps[1].finalP > 0.0f);
        QVERIFY(local.steps[0].finalP > 0.0f && local.steps[1].finalP > 0.0f);
        // Saved unknown now, it reads back unknown and exports as an empty cell.
        RunRecord fresh = runs.loadRun(freshRemoteRun).value();
        fresh.id = 0;
        fresh.steps[0].finalP = NAN;
        QVERIFY(runs.saveRun(fresh).ok());
        QVERIFY(std::isnan(runs.loadRun(fresh.id).value().steps[0].finalP));
    }

    // Each run keeps how it was computed (schema 6); a store from before migrates, its runs reading unknown.
    void runSetupIsStoredAndOlderStoresMigrate() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.sqlite"));
        RunSetup fast;
        fast.threads = 2;
        fast.fastMath = true;
        fast.computeDtype = QStringLiteral("f32");
        fast.device = QStringLiteral("cpu");
        fast.kernelPath = QStringLiteral("avx2");
        qint64 modelId = 0;
        qint64 strategyId = 0;
        qint64 oldRun = 0;
        {
            auto db = Database::open(path);
            QVERIFY(db.ok());
            RunRepository runs(*db.value());
            modelId = runs.saveModel({0, QStringLiteral("/m"), QStringLiteral("gguf"), QStringLiteral("llama"),
                                      QStringLiteral("h"), 1, QStringLiteral("{}")})
                          .value();
            strategyId = runs.saveStrategy(Strategy::parse(QStringLiteral("greedy")).value()).value();
            RunRecord run = sampleRun(modelId, strategyId, 2, 1);
            run.setup = fast;
            QVERIFY(runs.saveRun(run).ok());
            QVERIFY(runs.loadRun(run.id).value() == run);
            QCOMPARE(runs.loadRun(run.id)->setup, fast);
            QCOMPARE(runs.listRuns()->front().setup, fast);
            oldRun = run.id;
        }
        // The store as schema 5 left it: no setup columns.
        {
            QSqlDatabase sql = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("downgrade"));
            sql.setDatabaseName(path);
            QVERIFY(sql.open());
            QSqlQuery q(sql);
            for (const char* column : {"threads", "fast_math", "compute_dtype", "device", "kernel_path"})
                QVERIFY2(q.exec(QStringLiteral("ALTER TABLE runs DROP COLUMN %1").arg(QLatin1String(column))),
                         qPrintable(q.lastError().text()));
            for (const QString& statement : kDropSchema8.split(QLatin1Char(';'), Qt::SkipEmptyParts))
                QVERIFY(q.exec(statement));
            QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 5")));
            q.finish();
            sql.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("downgrade"));
        auto db = Database::open(path);
        QVERIFY2(db.ok(), qPrintable(db.ok() ? QString() : db.error().message));
        RunRepository runs(*db.value());
        const RunRecord old = runs.loadRun(oldRun).value();
        QVERIFY(!old.setup.known());
        QCOMPARE(old.steps.size(), std::size_t(2)); // nothing else of it lost
        RunRecord next = sampleRun(modelId, strategyId, 1, 2);
        next.setup = fast;
        next.setup.fastMath = false;
        QVERIFY(runs.saveRun(next).ok());
        const auto list = runs.listRuns().value();
        QCOMPARE(list.size(), std::size_t(2));
        QVERIFY(!list[0].setup.known());
        QCOMPARE(list[1].setup.fastMath, std::optional<bool>(false));
        QCOMPARE(list[1].setup.threads, std::optional<int>(2));
    }

    void setupDifferencesNameOnlyFieldsBothKnow() {
        RunSetup a;
        a.threads = 1;
        a.fastMath = false;
        a.computeDtype = QStringLiteral("f32");
        a.device = QStringLiteral("cpu");
        a.kernelPath = QStringLiteral("avx2");
        QVERIFY(setupDifferences(a, a).isEmpty());
        RunSetup b = a;
        b.threads = 2;
        b.fastMath = true;
        QCOMPARE(setupDifferences(a, b), QStringList({QStringLiteral("threads"), QStringLiteral("fast_math")}));
        b = a;
        b.computeDtype = QStringLiteral("bf16");
        b.device = QStringLiteral("cuda");
        b.kernelPath = QStringLiteral("libtorch");
        QCOMPARE(setupDifferences(b, a), QStringList({QStringLiteral("compute_dtype"), QStringLiteral("device"),
                                                      QStringLiteral("kernel_path")}));
        // An older run (nothing known) and a remote one (only its device) differ from nothing they cannot tell.
        QVERIFY(setupDifferences(a, RunSetup{}).isEmpty());
        RunSetup remote;
        remote.device = QStringLiteral("remote");
        QCOMPARE(setupDifferences(a, remote), QStringList({QStringLiteral("device")}));
    }

    void comparisonRoundTrip() {
        QTemporaryDir dir;
        auto db = Database::open(dir.filePath(QStringLiteral("store.sqlite"))).value();
        RunRepository runs(*db);
        ComparisonRepository comparisons(*db);
        const qint64 modelId = runs.saveModel({0, QStringLiteral("m"), QStringLiteral("gguf"), QStringLiteral("llama"),
                                               QStringLiteral("h"), 1, QStringLiteral("{}")})
                                   .value();
        const qint64 strategyId = runs.saveStrategy(Strategy::parse(QStringLiteral("greedy")).value()).value();
        RunRecord a = sampleRun(modelId, strategyId, 2, 1);
        RunRecord b = sampleRun(modelId, strategyId, 2, 2);
        QVERIFY(runs.saveRun(a).ok() && runs.saveRun(b).ok());
        const qint64 set = comparisons.savePromptSet(QStringLiteral("set"), QStringLiteral("file.txt")).value();
        const qint64 prompt = comparisons.savePrompt(set, 0, QStringLiteral("Hello")).value();
        QCOMPARE(comparisons.savePrompt(set, 0, QStringLiteral("Hello")).value(), prompt);
        ComparisonRecord comparison;
        comparison.promptId = prompt;
        comparison.promptText = QStringLiteral("Hello");
        comparison.sampleIndex = 1;
        comparison.batchKey = QStringLiteral("key");
        comparison.createdAt = QDateTime::fromString(QStringLiteral("2026-12-02T10:00:00.000Z"), Qt::ISODateWithMs);
        comparison.entries = {{0, a.id, QStringLiteral("B"), 1}, {1, b.id, QStringLiteral("A"), 0}};
        QVERIFY(comparisons.saveComparison(comparison).ok());
        QVERIFY(comparisons.loadComparison(comparison.id).value() == comparison);
        QCOMPARE(comparisons.findComparisonByBatchKey(QStringLiteral("key")).value(),
                 std::optional<qint64>(comparison.id));
    }

    // Our stores carry SQLite's application_id; ones made before it (no id, our schema) are taken and marked.
    void storesAreMarkedAsOurs() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ours.sqlite"));
        const auto applicationId = [&] {
            qint64 id = -1;
            {
                QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
                raw.setDatabaseName(path);
                if (raw.open()) {
                    QSqlQuery q(raw);
                    if (q.exec(QStringLiteral("PRAGMA application_id")) && q.next())
                        id = q.value(0).toLongLong();
                }
                raw.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("raw"));
            return id;
        };
        QVERIFY(Database::open(path).ok());
        QCOMPARE(applicationId(), qint64(0x53574231));
        {
            auto db = Database::open(path).value();
            QVERIFY(db->execSql(QStringLiteral("PRAGMA application_id = 0"), QStringLiteral("forget the id")).ok());
        }
        QCOMPARE(applicationId(), qint64(0));
        QVERIFY(Database::open(path).ok()); // an older store of ours
        QCOMPARE(applicationId(), qint64(0x53574231));
    }

    // A store in a folder nobody may write (a read-only medium, another user's folder): `swb export` reads
    // it; writing is refused as read-only, not called corrupt. Root ignores permissions, so as root the
    // commands run as `nobody`.
    void readOnlyStoreIsReadNotCalledCorrupt() {
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                                      QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                                      QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                                      QFileDevice::ExeOther));
        const QString folder = dir.filePath(QStringLiteral("readonly"));
        QVERIFY(QDir().mkdir(folder));
        const QString store = folder + QStringLiteral("/runs.sqlite");
        const auto made =
            swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--max-tokens", "3", "--db", store});
        QCOMPARE(made.status, 0);
        QVERIFY(!QFile::exists(store + QStringLiteral("-wal"))); // checkpointed and removed on close
        QVERIFY(QFile::setPermissions(store, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                                  QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                                  QFileDevice::ExeOther));
        const QByteArray before = fileBytes(store);
        const auto run = [&](const QStringList& args) {
            if (geteuid() != 0)
                return swb::test::runSwbProcess(args);
            QStringList quoted;
            for (const QString& a : args)
                quoted << QStringLiteral("'%1'").arg(a);
            return swb::test::runProcess(
                QStringLiteral("su"), {"nobody", "-s", "/bin/sh", "-c",
                                       QStringLiteral("'%1' %2").arg(QStringLiteral(SWB_CLI_PATH), quoted.join(' '))});
        };
        const auto exported = run({"export", "--db", store, "--report", "runs"});
        if (geteuid() == 0 && exported.status != 0 && exported.err.contains("su:"))
            QSKIP("cannot run as nobody here (su refused)");
        QVERIFY2(exported.status == 0, exported.err.constData());
        QCOMPARE(exported.out.count('\n'), 2); // header and the one run
        const auto written = run({"generate", "--prompt", "x", "--max-tokens", "2", "--db", store});
        QCOMPARE(written.status, 2);
        QVERIFY2(
            written.err.contains("is read-only (the file or its folder); it can be read (swb export), not written"),
            written.err.constData());
        QVERIFY(!written.err.contains("corrupt"));
        QCOMPARE(fileBytes(store), before);
        QVERIFY(!QFile::exists(store + QStringLiteral("-wal")) && !QFile::exists(store + QStringLiteral("-shm")));
        QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }

    // Another program holding the store's write lock: after the 5 s busy timeout, one sentence naming the
    // store, in SQLite's words, never Qt's driver text; nothing half-written.
    void lockedStoreIsOneSentence() {
        QTemporaryDir dir;
        const QString store = dir.filePath(QStringLiteral("locked.sqlite"));
        QVERIFY(Database::open(store).ok());
        {
            QSqlDatabase holder = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("holder"));
            holder.setDatabaseName(store);
            QVERIFY(holder.open());
            QSqlQuery lock(holder);
            QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
            const auto run =
                swb::test::runSwbProcess({"generate", "--prompt", "And God said", "--max-tokens", "3", "--db", store});
            QCOMPARE(run.status, 2);
            QVERIFY2(run.err.contains(store.toUtf8()) && run.err.contains("another program is writing to it"),
                     run.err.constData());
            QVERIFY2(!run.err.contains("Unable to") && run.err.count('\n') == 1, run.err.constData());
            QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
            holder.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("holder"));
        auto reopened = Database::open(store);
        QVERIFY(reopened);
        RunRepository runs(*reopened.value());
        QCOMPARE(runs.listRuns().value().size(), std::size_t(0));
    }

    // Six processes creating one new store at the same moment, five times: every one saves its run
    // (before, about one in five failed at once with "database is locked").
    void concurrentCreatorsAllSucceed() {
        QTemporaryDir dir;
        for (int round = 0; round < 5; ++round) {
            const QString store = dir.filePath(QStringLiteral("race-%1.sqlite").arg(round));
            std::vector<std::unique_ptr<QProcess>> processes;
            for (int i = 0; i < 6; ++i) {
                auto process = std::make_unique<QProcess>();
                process->start(QStringLiteral(SWB_CLI_PATH),
                               {"generate", "--prompt", "x", "--max-tokens", "1", "--db", store});
                processes.push_back(std::move(process));
            }
            for (auto& process : processes) {
                QVERIFY(process->waitForFinished(120000));
                QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
            }
            auto opened = Database::open(store, Database::Access::ReadOnly);
            QVERIFY(opened);
            RunRepository runs(*opened.value());
            QCOMPARE(runs.listRuns().value().size(), std::size_t(6));
        }
    }

    void refusesFilesWithoutTouchingThem_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("needle");
        QTest::newRow("not sqlite") << "text"
                                    << "not an SQLite database";
        QTest::newRow("corrupt") << "corrupt"
                                 << "corrupt";
        QTest::newRow("newer schema") << "newer"
                                      << "newer than this version";
        // Another program's SQLite file: never migrated or switched to WAL.
        QTest::newRow("foreign database") << "foreign"
                                          << "is an SQLite database of another application";
        QTest::newRow("foreign application id") << "foreign-id"
                                                << "is an SQLite database of another application";
    }
    void refusesFilesWithoutTouchingThem() {
        QFETCH(QString, kind);
        QFETCH(QString, needle);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.sqlite"));
        if (kind == QLatin1String("text")) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("runs,ratings\n1,2\n");
        } else if (kind.startsWith(QLatin1String("foreign"))) {
            {
                QSqlDatabase foreign = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("foreign"));
                foreign.setDatabaseName(path);
                QVERIFY(foreign.open());
                QSqlQuery q(foreign);
                QVERIFY(q.exec(QStringLiteral("CREATE TABLE notes (body TEXT)")));
                QVERIFY(q.exec(QStringLiteral("INSERT INTO notes VALUES ('keep me')")));
                if (kind == QLatin1String("foreign-id")) {
                    QVERIFY(q.exec(QStringLiteral("PRAGMA application_id = 42")));
                    QVERIFY(q.exec(QStringLiteral("PRAGMA user_version = 2")));
                }
                foreign.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("foreign"));
        } else {
            {
                auto db = Database::open(path).value();
                RunRepository runs(*db);
                const qint64 modelId =
                    runs.saveModel({0, QStringLiteral("m"), QStringLiteral("gguf"), QStringLiteral("llama"),
                                    QStringLiteral("h"), 1, QStringLiteral("{}")})
                        .value();
                const qint64 strategyId = runs.saveStrategy(Strategy::parse(QStringLiteral("chat")).value()).value();
                RunRecord run = sampleRun(modelId, strategyId, 200, 3);
                QVERIFY(runs.saveRun(run).ok());
                QVERIFY(
                    db->execSql(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"), QStringLiteral("checkpoint")).ok());
                QVERIFY(db->execSql(QStringLiteral("PRAGMA journal_mode = DELETE"), QStringLiteral("leave WAL")).ok());
                if (kind == QLatin1String("newer"))
                    QVERIFY(db->execSql(QStringLiteral("PRAGMA user_version = 99"), QStringLiteral("bump")).ok());
            }
            if (kind == QLatin1String("corrupt")) {
                QFile file(path);
                QVERIFY(file.open(QIODevice::ReadWrite));
                const qint64 size = file.size();
                QVERIFY(size > 16 * 4096);
                // Overwrite a stretch of b-tree pages in the middle with garbage.
                file.seek(4096 * 3);
                QByteArray garbage(4096 * 4, '\0');
                for (int i = 0; i < garbage.size(); ++i)
                    garbage[i] = static_cast<char>((i * 7919) & 0xff);
                file.write(garbage);
            }
        }
        const QByteArray before = fileBytes(path);
        const auto opened = Database::open(path);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error().message.contains(needle), qPrintable(opened.error().message));
        QVERIFY(opened.error().message.contains(path));
        QCOMPARE(fileBytes(path), before);
        QVERIFY(!QFile::exists(path + QStringLiteral("-wal")));

        // The CLI says the same in one line with exit status 2.
        const auto cli = swb::test::runSwbProcess({QStringLiteral("batch"), QStringLiteral("--prompts"), path,
                                                   QStringLiteral("--strategy"), QStringLiteral("greedy"),
                                                   QStringLiteral("--db"), path});
        QCOMPARE(cli.status, 2);
        QCOMPARE(cli.err.count('\n'), 1);
        QCOMPARE(fileBytes(path), before);
    }

    // The GUI keeps its store open on several connections (one per thread) while `swb export` reads it
    // from another process. The reader must not take the WAL away from the writer: the writer's next
    // run must reach the file, where a third process sees it.
    void anotherProcessReadingNeverDisturbsAWriter() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("store.sqlite"));
        auto writer = Database::open(path).value();
        RunRepository runs(*writer);
        const qint64 modelId = runs.saveModel({0, QStringLiteral("m"), QStringLiteral("gguf"), QStringLiteral("llama"),
                                               QStringLiteral("h"), 1, QStringLiteral("{}")})
                                   .value();
        const qint64 strategyId = runs.saveStrategy(Strategy::parse(QStringLiteral("chat")).value()).value();
        RunRecord first = sampleRun(modelId, strategyId, 5, 1);
        QVERIFY(runs.saveRun(first).ok());
        // A second connection of the same process, as the Reports and worker threads open theirs.
        auto second = Database::open(path).value();
        QVERIFY(QFile::exists(path + QStringLiteral("-wal")));

        const auto exportRuns = [&](const QString& out) {
            const auto result = swb::test::runSwbProcess({QStringLiteral("export"), QStringLiteral("--db"), path,
                                                          QStringLiteral("--report"), QStringLiteral("runs"),
                                                          QStringLiteral("--out"), out});
            return std::pair{result.status, fileBytes(out).count('\n') - 1}; // rows without the header
        };
        const QByteArray storeBefore = fileBytes(path);
        const auto [status, rows] = exportRuns(dir.filePath(QStringLiteral("a.csv")));
        QCOMPARE(status, 0);
        QCOMPARE(rows, 1);
        QVERIFY2(QFile::exists(path + QStringLiteral("-wal")), "the reader removed the writer's WAL");
        QVERIFY(QFile::exists(path + QStringLiteral("-shm")));
        QCOMPARE(fileBytes(path), storeBefore); // a reader writes nothing, not even a checkpoint

        RunRecord next = sampleRun(modelId, strategyId, 5, 2);
        QVERIFY(runs.saveRun(next).ok());
        const auto [status2, rows2] = exportRuns(dir.filePath(QStringLiteral("b.csv")));
        QCOMPARE(status2, 0);
        QCOMPARE(rows2, 2);
    }

    void readOnlyLocationIsAClearError() {
        QTemporaryDir dir;
        QString path;
        if (geteuid() == 0) {
            path = QStringLiteral("/proc/swb-run-store-test/store.sqlite"); // nobody can create files in /proc
        } else {
            QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
            path = dir.filePath(QStringLiteral("store.sqlite"));
        }
        const auto opened = Database::open(path);
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error().message.contains(QStringLiteral("run store")), qPrintable(opened.error().message));
    }

    // Two swb batch processes and a store open in this process (as the GUI holds it), all writing to one
    // file at once: every process finishes, every save here succeeds, nothing is lost.
    void twoWritersAndAnOpenStore() {
        QTemporaryDir dir;
        const auto [model, tokenizer] = writeTinyModel(dir);
        QVERIFY(!model.isEmpty());
        const QString db = dir.filePath(QStringLiteral("shared.sqlite"));
        auto gui = Database::open(db);
        QVERIFY(gui);
        RunRepository runs(*gui.value());
        const qint64 modelId = runs.saveModel({0, QStringLiteral("m"), QStringLiteral("gguf"), QStringLiteral("llama"),
                                               QStringLiteral("h"), 1, QStringLiteral("{}")})
                                   .value();
        const qint64 strategyId = runs.saveStrategy(Strategy::parse(QStringLiteral("chat")).value()).value();

        std::vector<std::unique_ptr<QProcess>> batches;
        for (const char* prompts : {"the cat\na dog and\n", "sun\nthe and\n"}) {
            const QString file = dir.filePath(QStringLiteral("prompts-%1.txt").arg(batches.size()));
            QVERIFY(swb::test::writeFile(file, prompts));
            auto process = std::make_unique<QProcess>();
            // Nothing reads the pipes while this thread saves runs: output to files, never a full pipe.
            process->setStandardOutputFile(QProcess::nullDevice());
            process->setStandardErrorFile(dir.filePath(QStringLiteral("batch-%1.err").arg(batches.size())));
            process->start(QStringLiteral(SWB_CLI_PATH),
                           {"batch", "--model", model, "--tokenizer", tokenizer, "--prompts", file, "--strategy",
                            "chat", "--strategy", "creative", "--samples", "10", "--max-tokens", "40", "--db", db});
            QVERIFY(process->waitForStarted());
            batches.push_back(std::move(process));
        }
        int saved = 0;
        // waitForFinished(0) is true once, when it sees the end; false before and after.
        std::vector<bool> ended(batches.size(), false);
        const auto running = [&]() {
            for (std::size_t i = 0; i < batches.size(); ++i)
                if (!ended[i] && batches[i]->waitForFinished(0))
                    ended[i] = true;
            return std::find(ended.begin(), ended.end(), false) != ended.end();
        };
        while (running()) {
            RunRecord run = sampleRun(modelId, strategyId, 50, static_cast<std::uint64_t>(saved) + 1);
            const Status status = runs.saveRun(run);
            QVERIFY2(status.ok(), qPrintable(status.error().message));
            ++saved;
            QThread::msleep(5);
        }
        for (std::size_t i = 0; i < batches.size(); ++i) {
            QVERIFY2(batches[i]->exitStatus() == QProcess::NormalExit && batches[i]->exitCode() == 0,
                     fileBytes(dir.filePath(QStringLiteral("batch-%1.err").arg(i))).constData());
        }
        QVERIFY(saved >= 10);
        QSqlQuery query(gui.value()->connection());
        QVERIFY(query.exec(QStringLiteral("PRAGMA integrity_check")) && query.next());
        QCOMPARE(query.value(0).toString(), QStringLiteral("ok"));
        QVERIFY(query.exec(QStringLiteral(
                    "SELECT count(*), count(DISTINCT batch_key) FROM runs WHERE batch_key IS NOT NULL")) &&
                query.next());
        QCOMPARE(query.value(0).toInt(), 2 * 2 * 2 * 10);
        QCOMPARE(query.value(1).toInt(), 2 * 2 * 2 * 10);
        QVERIFY(query.exec(QStringLiteral("SELECT count(*) FROM runs WHERE batch_key IS NULL")) && query.next());
        QCOMPARE(query.value(0).toInt(), saved);
        qInfo("%d runs saved here while the two batches wrote theirs", saved);
    }

    void killedBatchResumesWithoutLossOrDuplicates() {
        QTemporaryDir dir;
        const auto [model, tokenizer] = writeTinyModel(dir);
        QVERIFY(!model.isEmpty());
        const QString prompts = dir.filePath(QStringLiteral("prompts.txt"));
        QFile promptFile(prompts);
        QVERIFY(promptFile.open(QIODevice::WriteOnly));
        promptFile.write("the cat\na dog and\nsun\n");
        promptFile.close();
        const auto batchArgs = [&](const QString& db) {
            return QStringList{QStringLiteral("batch"),
                               QStringLiteral("--model"),
                               model,
                               QStringLiteral("--tokenizer"),
                               tokenizer,
                               QStringLiteral("--prompts"),
                               prompts,
                               QStringLiteral("--strategy"),
                               QStringLiteral("chat"),
                               QStringLiteral("--strategy"),
                               QStringLiteral("creative"),
                               QStringLiteral("--samples"),
                               QStringLiteral("40"),
                               QStringLiteral("--max-tokens"),
                               QStringLiteral("40"),
                               QStringLiteral("--db"),
                               db,
                               QStringLiteral("--blind")};
        };
        const int expectedRuns = 3 * 2 * 40;
        const int expectedComparisons = 3 * 40;

        const auto check = [&](const QString& db, bool final) {
            QSqlDatabase sql = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("check"));
            sql.setDatabaseName(db);
            if (!sql.open())
                return QStringLiteral("cannot open");
            QString problem;
            QSqlQuery query(sql);
            if (!query.exec(QStringLiteral("PRAGMA integrity_check")) || !query.next() ||
                query.value(0).toString() != QLatin1String("ok"))
                problem = QStringLiteral("integrity: %1").arg(query.value(0).toString());
            else if (!query.exec(QStringLiteral(
                         "SELECT r.id, r.token_count, (SELECT count(*) FROM steps s WHERE s.run_id = r.id) "
                         "AS steps FROM runs r WHERE r.token_count != steps")) ||
                     query.next())
                problem = QStringLiteral("a partial run is visible: run %1 of %2 tokens has %3 steps (%4)")
                              .arg(query.value(0).toLongLong())
                              .arg(query.value(1).toInt())
                              .arg(query.value(2).toInt())
                              .arg(query.lastError().text());
            else if (!query.exec(QStringLiteral(
                         "SELECT count(*) FROM comparisons c WHERE "
                         "(SELECT count(*) FROM comparison_runs x WHERE x.comparison_id = c.id) != 2")) ||
                     !query.next() || query.value(0).toInt() != 0)
                problem = QStringLiteral("a partial comparison is visible");
            else if (final) {
                query.exec(QStringLiteral("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM comparisons), "
                                          "(SELECT count(DISTINCT batch_key) FROM runs)"));
                query.next();
                if (query.value(0).toInt() != expectedRuns || query.value(1).toInt() != expectedComparisons ||
                    query.value(2).toInt() != expectedRuns)
                    problem = QStringLiteral("runs %1, comparisons %2, distinct %3")
                                  .arg(query.value(0).toInt())
                                  .arg(query.value(1).toInt())
                                  .arg(query.value(2).toInt());
            }
            sql.close();
            sql = QSqlDatabase();
            QSqlDatabase::removeDatabase(QStringLiteral("check"));
            return problem;
        };

        const auto runCount = [&](const QString& db) {
            QSqlDatabase sql = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("count"));
            sql.setDatabaseName(db);
            int runs = -1;
            if (sql.open()) {
                QSqlQuery query(sql);
                if (query.exec(QStringLiteral("SELECT count(*) FROM runs")) && query.next())
                    runs = query.value(0).toInt();
            }
            sql.close();
            sql = QSqlDatabase();
            QSqlDatabase::removeDatabase(QStringLiteral("count"));
            return runs;
        };
        // The batch is one of several stores: when what remains of one is less than three times the most a
        // kill interval has seen done, the kills move on to a fresh one, so that every kill lands while work
        // remains however fast this machine generates. A batch that ended before its kill (it cannot, short
        // of a machine many times faster) is not counted as a kill, and the next store is taken.
        QStringList stores{dir.filePath(QStringLiteral("batch-0.sqlite"))};
        Pcg64 rng(2026);
        int kills = 0;
        int previous = 0;
        int mostPerKill = 1;
        QElapsedTimer timer;
        timer.start();
        while (kills < 100) {
            const QString db = stores.last();
            QProcess process;
            process.start(QStringLiteral(SWB_CLI_PATH), batchArgs(db));
            QVERIFY(process.waitForStarted());
            QThread::msleep(100 + rng.next() % 500);
            if (process.waitForFinished(0)) { // ended on its own: no kill
                QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
                stores << dir.filePath(QStringLiteral("batch-%1.sqlite").arg(stores.size()));
                previous = 0;
                continue;
            }
            ::kill(static_cast<pid_t>(process.processId()), SIGKILL);
            ++kills;
            process.waitForFinished();
            if (!QFile::exists(db) || !hasRunsTable(db))
                continue; // killed before the store's set-up committed: nothing to see yet
            const QString problem = check(db, false);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const int runs = runCount(db);
            QVERIFY2(runs >= previous && runs < expectedRuns,
                     qPrintable(QStringLiteral("%1 runs after kill %2").arg(runs).arg(kills)));
            mostPerKill = std::max(mostPerKill, runs - previous);
            previous = runs;
            if (expectedRuns - runs < 3 * mostPerKill) {
                stores << dir.filePath(QStringLiteral("batch-%1.sqlite").arg(stores.size()));
                previous = 0;
            }
        }
        qInfo("%d kills in %lld ms over %lld stores", kills, timer.elapsed(), static_cast<long long>(stores.size()));
        for (const QString& db : stores) {
            const auto finish = swb::test::runSwbProcess(batchArgs(db), 300000);
            QVERIFY2(finish.status == 0, finish.err.constData());
            const QString problem = check(db, true);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const auto again = swb::test::runSwbProcess(batchArgs(db), 300000);
            QCOMPARE(again.status, 0);
            const QJsonObject summary = QJsonDocument::fromJson(again.out).object();
            QCOMPARE(summary.value(QStringLiteral("runs_generated")).toInt(), 0);
            QCOMPARE(summary.value(QStringLiteral("runs_skipped")).toInt(), expectedRuns);
            QVERIFY(check(db, true).isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestStorage)
#include "tst_storage.moc"
