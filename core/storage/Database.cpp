#include "storage/Database.h"

#include <algorithm>
#include <optional>

#include <atomic>

#include <QDir>
#include <QFileInfo>
#include <QMutex>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QElapsedTimer>
#include <QThread>
#include <QUrl>

#include "storage/FileIdentity.h"

namespace swb {

namespace {

std::atomic<int> connectionCounter{0};

QString uniqueConnectionName() {
    return QStringLiteral("swb-run-store-%1").arg(connectionCounter.fetch_add(1));
}

// Schema migrations: entry i brings user_version i to i + 1. Layout of the BLOB columns is
// documented in StepBlob.h.
const char* const kMigrations[] = {
    R"SQL(
CREATE TABLE models (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    format TEXT NOT NULL,
    architecture TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    parameters INTEGER NOT NULL DEFAULT 0,
    info_json TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    UNIQUE (content_hash, path)
);
CREATE TABLE strategies (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    json TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE TABLE prompt_sets (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    source TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE TABLE prompts (
    id INTEGER PRIMARY KEY,
    prompt_set_id INTEGER REFERENCES prompt_sets(id) ON DELETE CASCADE,
    position INTEGER NOT NULL DEFAULT 0,
    text TEXT NOT NULL,
    gold_answer TEXT,
    UNIQUE (prompt_set_id, position)
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    model_id INTEGER NOT NULL REFERENCES models(id),
    strategy_id INTEGER NOT NULL REFERENCES strategies(id),
    prompt_id INTEGER REFERENCES prompts(id) ON DELETE SET NULL,
    prompt_text TEXT NOT NULL,
    prompt_ids BLOB NOT NULL,
    seed INTEGER NOT NULL,
    text TEXT NOT NULL,
    token_count INTEGER NOT NULL,
    finish_reason TEXT NOT NULL,
    ttft_ms REAL,
    tokens_per_second REAL,
    parent_run_id INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    branch_step INTEGER,
    batch_key TEXT UNIQUE,
    created_at TEXT NOT NULL
);
CREATE INDEX runs_by_parent ON runs(parent_run_id);
CREATE INDEX runs_by_strategy ON runs(strategy_id);
CREATE TABLE steps (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    token INTEGER NOT NULL,
    raw_p REAL NOT NULL,
    final_p REAL NOT NULL,
    raw_rank INTEGER NOT NULL,
    raw_entropy REAL NOT NULL,
    final_entropy REAL NOT NULL,
    draw REAL,
    final_count INTEGER NOT NULL,
    stages BLOB NOT NULL,
    alternatives BLOB NOT NULL,
    UNIQUE (run_id, step)
);
CREATE TABLE comparisons (
    id INTEGER PRIMARY KEY,
    prompt_id INTEGER REFERENCES prompts(id) ON DELETE SET NULL,
    prompt_text TEXT NOT NULL,
    sample_index INTEGER NOT NULL DEFAULT 0,
    blind INTEGER NOT NULL DEFAULT 1,
    is_gold INTEGER NOT NULL DEFAULT 0,
    gold_winner TEXT,
    batch_key TEXT UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE comparison_runs (
    comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
    slot INTEGER NOT NULL,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    blind_label TEXT NOT NULL,
    presentation_order INTEGER NOT NULL,
    PRIMARY KEY (comparison_id, slot)
);
CREATE INDEX comparison_runs_by_run ON comparison_runs(run_id);
CREATE TABLE raters (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE rubrics (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    dimensions TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE ratings (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    rater_id INTEGER NOT NULL REFERENCES raters(id) ON DELETE CASCADE,
    rubric_id INTEGER REFERENCES rubrics(id) ON DELETE SET NULL,
    dimension TEXT NOT NULL,
    score REAL NOT NULL,
    note TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    UNIQUE (run_id, rater_id, dimension)
);
CREATE TABLE preferences (
    id INTEGER PRIMARY KEY,
    comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
    rater_id INTEGER NOT NULL REFERENCES raters(id) ON DELETE CASCADE,
    winner TEXT NOT NULL CHECK (winner IN ('slot', 'tie', 'bothbad')),
    winner_slot INTEGER,
    note TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    UNIQUE (comparison_id, rater_id)
);
)SQL",
    // 1 -> 2: each step keeps the text its token completed (decoded in context when it was generated),
    // so a run shows its own text whatever model is loaded, even when its model is gone. NULL in older runs.
    R"SQL(
ALTER TABLE steps ADD COLUMN text TEXT;
)SQL",
    // 2 -> 3: a run generated from a conversation keeps its messages (JSON, as given); prompt_text then
    // holds the prompt the chat template rendered from them. NULL for raw prompts.
    R"SQL(
ALTER TABLE runs ADD COLUMN messages TEXT;
)SQL",
    // 3 -> 4: a run of a decoder other than sampling keeps what it weighed (qCompress'd JSON: beam search's
    // steps, beams and hypotheses; contrastive candidates per step). NULL for sampled and older runs.
    R"SQL(
ALTER TABLE runs ADD COLUMN decoder_trace BLOB;
)SQL",
    // 4 -> 5: a rater set aside keeps the reason (NULL while counted): reports leave their ratings and
    // preferences out until they are restored. Rating campaigns: comparisons dealt to raters (each rater's
    // queue in order, the outputs in the rater's own order, gold items unmarked to them), a link token per
    // rater, and anchor examples shown before rating. A queue item is answered when the rater's preference on
    // its comparison exists.
    R"SQL(
ALTER TABLE raters ADD COLUMN set_aside TEXT;
CREATE TABLE campaigns (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    rubric_id INTEGER NOT NULL REFERENCES rubrics(id),
    ratings_per_item INTEGER NOT NULL,
    gold_share REAL NOT NULL,
    seed INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE campaign_raters (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    rater_id INTEGER NOT NULL REFERENCES raters(id) ON DELETE CASCADE,
    token TEXT NOT NULL UNIQUE,
    PRIMARY KEY (campaign_id, rater_id)
);
CREATE TABLE campaign_items (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    rater_id INTEGER NOT NULL REFERENCES raters(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
    shown_order TEXT NOT NULL,
    gold INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (campaign_id, rater_id, position)
);
CREATE TABLE campaign_anchors (
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
    level TEXT NOT NULL CHECK (level IN ('high', 'medium', 'low')),
    guidance TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (campaign_id, comparison_id)
);
)SQL",
    // 5 -> 6: how each run was computed (RunSetup): threads, fast math (0/1), compute dtype, device and the
    // kernels' vector path. NULL in older runs: unknown.
    R"SQL(
ALTER TABLE runs ADD COLUMN threads INTEGER;
ALTER TABLE runs ADD COLUMN fast_math INTEGER;
ALTER TABLE runs ADD COLUMN compute_dtype TEXT;
ALTER TABLE runs ADD COLUMN device TEXT;
ALTER TABLE runs ADD COLUMN kernel_path TEXT;
)SQL",
    // 6 -> 7: what a step does not know is NULL, not 0: a remote engine gives no entropies, no survivor count,
    // and no rank for a token outside its top N. The remote runs stored before get NULL there (their zeros
    // meant unknown and made exports say a mean raw entropy of 0). And store_settings: what the store
    // remembers beyond its records (swb serve's default strategy).
    R"SQL(
CREATE TABLE steps_v7 (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    token INTEGER NOT NULL,
    raw_p REAL NOT NULL,
    final_p REAL NOT NULL,
    raw_rank INTEGER,
    raw_entropy REAL,
    final_entropy REAL,
    draw REAL,
    final_count INTEGER,
    stages BLOB NOT NULL,
    alternatives BLOB NOT NULL,
    text TEXT,
    UNIQUE (run_id, step)
);
INSERT INTO steps_v7 (id, run_id, step, token, raw_p, final_p, raw_rank, raw_entropy, final_entropy, draw,
                      final_count, stages, alternatives, text)
    SELECT id, run_id, step, token, raw_p, final_p, raw_rank, raw_entropy, final_entropy, draw, final_count,
           stages, alternatives, text FROM steps;
UPDATE steps_v7 SET raw_rank = NULLIF(raw_rank, 0), raw_entropy = NULL, final_entropy = NULL, final_count = NULL
    WHERE run_id IN (SELECT r.id FROM runs r JOIN models m ON m.id = r.model_id WHERE m.format = 'remote');
DROP TABLE steps;
ALTER TABLE steps_v7 RENAME TO steps;
CREATE TABLE IF NOT EXISTS store_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
)SQL",
    // 7 -> 8: online experiments of swb serve. An experiment's arms (the first is the control) are strategies
    // with a share of the traffic; one experiment at a time is 'running' (served), the others 'stopped',
    // with the arm that won when the test decided. served_runs ties each run swb serve stored to the
    // completion id its client saw (and choice), and, when it was served in an experiment, to the experiment,
    // the arm and the unit it was assigned by. Feedback on a completion is a rating of its run (rubric
    // "feedback", rater "api").
    R"SQL(
CREATE TABLE experiments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    metric TEXT NOT NULL CHECK (metric IN ('thumbs', 'score')),
    auto_promote INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL CHECK (state IN ('running', 'stopped')),
    winner TEXT,
    created_at TEXT NOT NULL,
    stopped_at TEXT
);
CREATE TABLE experiment_arms (
    experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    strategy_id INTEGER NOT NULL REFERENCES strategies(id),
    weight REAL NOT NULL CHECK (weight > 0),
    PRIMARY KEY (experiment_id, position),
    UNIQUE (experiment_id, name)
);
CREATE TABLE served_runs (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    completion_id TEXT NOT NULL,
    choice INTEGER NOT NULL,
    experiment_id INTEGER REFERENCES experiments(id) ON DELETE SET NULL,
    arm TEXT,
    unit TEXT,
    latency_ms REAL NOT NULL,
    UNIQUE (completion_id, choice)
);
CREATE INDEX served_runs_by_experiment ON served_runs(experiment_id, arm);
)SQL",
    // 8 -> 9: a step's final_p is NULL where it is unknown: a remote engine that gives no probability after
    // its samplers (llama.cpp's is not asked; a plain OpenAI server has none). The remote steps stored before
    // with 0 there get NULL (a drawn token's probability after the chain is never 0).
    R"SQL(
CREATE TABLE steps_v9 (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    token INTEGER NOT NULL,
    raw_p REAL NOT NULL,
    final_p REAL,
    raw_rank INTEGER,
    raw_entropy REAL,
    final_entropy REAL,
    draw REAL,
    final_count INTEGER,
    stages BLOB NOT NULL,
    alternatives BLOB NOT NULL,
    text TEXT,
    UNIQUE (run_id, step)
);
INSERT INTO steps_v9 SELECT id, run_id, step, token, raw_p, final_p, raw_rank, raw_entropy, final_entropy, draw,
                            final_count, stages, alternatives, text FROM steps;
UPDATE steps_v9 SET final_p = NULL WHERE final_p = 0
    AND run_id IN (SELECT r.id FROM runs r JOIN models m ON m.id = r.model_id WHERE m.format = 'remote');
DROP TABLE steps;
ALTER TABLE steps_v9 RENAME TO steps;
)SQL",
};

constexpr int kMigrationCount = static_cast<int>(sizeof(kMigrations) / sizeof(kMigrations[0]));
static_assert(kMigrationCount == Database::kSchemaVersion);

// SQLite's result code for a file that is not a database (SQLITE_NOTADB).
constexpr int kSqliteNotADatabase = 26;

// Why a statement failed, in SQLite's words: Qt appends its own driver text ("Unable to fetch row").
// SQLITE_BUSY or SQLITE_LOCKED, extended codes included (Qt's driver reports extended result codes:
// SQLITE_BUSY_SNAPSHOT, 517, is what a WAL writer whose snapshot went stale gets, without waiting).
bool isBusy(const QSqlError& error) {
    const int primary = error.nativeErrorCode().toInt() & 0xff;
    return primary == 5 || primary == 6;
}

QString sqliteReason(const QSqlError& error) {
    if (isBusy(error))
        return QStringLiteral("another program is writing to it and did not finish within 5 seconds; try again");
    const QString text = error.databaseText().trimmed();
    return text.isEmpty() ? error.driverText().trimmed() : text;
}

// Whether an SQLite file is ours: it carries our application_id, or it is one of our stores from before
// the id was set (no id, a schema version of ours), or it is an empty database that becomes a new store.
bool isOurs(const QSqlDatabase& db, int userVersion) {
    QSqlQuery id(db);
    if (!id.exec(QStringLiteral("PRAGMA application_id")) || !id.next())
        return false;
    const qint64 applicationId = id.value(0).toLongLong();
    if (applicationId == Database::kApplicationId)
        return true;
    if (applicationId != 0)
        return false;
    if (userVersion > 0)
        return true;
    QSqlQuery tables(db);
    return tables.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")) && tables.next() && tables.value(0).toInt() == 0;
}

// Checks an existing file through a read-only SQLite connection, so that nothing is written to a file
// we are about to reject. Never through a plain open() and close() of the file: closing any descriptor
// of a file drops every POSIX lock this process holds on it, including those of a connection already
// open (the GUI's), after which another process would think the store unused and delete its WAL.
// A store in a folder we may not write (a read-only medium, another user's folder) can still be read, but
// SQLite cannot make the -shm file WAL readers need: it is opened "immutable", which no writer can be
// changing, since none could create its -wal there either.
void configureReader(QSqlDatabase& db, const QString& path) {
    if (QFileInfo(QFileInfo(path).absolutePath()).isWritable()) {
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        return;
    }
    db.setDatabaseName(QStringLiteral("file:%1?immutable=1")
                           .arg(QString::fromLatin1(QUrl::toPercentEncoding(QFileInfo(path).absoluteFilePath(), "/"))));
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=5000"));
}

// A read-only connection to a store in WAL mode creates its -wal and -shm files when no writer has them
// open, and, being read-only, cannot remove them when it closes: reading a store would leave two files
// beside it. Whether a reader should tidy up is decided before it opens: only when neither file exists.
bool readerShouldTidy(const QString& path) {
    return !QFileInfo::exists(path + QStringLiteral("-wal")) && !QFileInfo::exists(path + QStringLiteral("-shm")) &&
           QFileInfo(QFileInfo(path).absolutePath()).isWritable() && QFileInfo(path).isWritable();
}

// After such a reader closed: if the WAL it created is still empty, one ordinary connection reads once and
// closes, and SQLite itself, as the last connection, checkpoints nothing and removes both files. When any
// other connection has the store open by then, SQLite leaves the files to it. Nothing in the store changes.
void tidyAfterReading(const QString& path) {
    const QFileInfo wal(path + QStringLiteral("-wal"));
    if (!wal.exists() || wal.size() != 0)
        return;
    const QString name = uniqueConnectionName();
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        // mode=rw: never creates the store again should it have been moved away meanwhile.
        db.setDatabaseName(QStringLiteral("file:%1?mode=rw")
                               .arg(QString::fromLatin1(QUrl::toPercentEncoding(QFileInfo(path).absoluteFilePath(), "/"))));
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=1000"));
        if (db.open()) {
            QSqlQuery touch(db);
            touch.exec(QStringLiteral("SELECT count(*) FROM sqlite_master"));
            touch.finish();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

Status inspectExisting(const QString& path) {
    const QString name = uniqueConnectionName();
    const bool tidy = readerShouldTidy(path);
    Status status;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        configureReader(db, path);
        const auto notOurs = [&] {
            return Error::badInput(
                QStringLiteral("%1 is not a Sampling Workbench run store (not an SQLite database)").arg(path));
        };
        if (!db.open()) {
            status =
                Error::badInput(QStringLiteral("cannot open the run store %1: %2").arg(path, sqliteReason(db.lastError())));
        } else {
            QSqlQuery query(db);
            if (!query.exec(QStringLiteral("PRAGMA user_version")) || !query.next()) {
                const int code = query.lastError().nativeErrorCode().toInt() & 0xff; // the primary result code
                if (code == kSqliteNotADatabase)
                    status = notOurs();
                else if (code == 10 || code == 13) // SQLITE_IOERR, SQLITE_FULL: the disk, not the file
                    status = Error::badInput(QStringLiteral("cannot open the run store %1: %2 (a full disk or a "
                                                            "file-size limit?)")
                                                 .arg(path, sqliteReason(query.lastError())));
                else
                    status = Error::badInput(
                        QStringLiteral("the run store %1 is corrupt: %2").arg(path, sqliteReason(query.lastError())));
            } else if (const int version = query.value(0).toInt(); !isOurs(db, version)) {
                status = Error::badInput(QStringLiteral("%1 is an SQLite database of another application, not a Sampling "
                                                        "Workbench run store; it was left as it is")
                                             .arg(path));
            } else if (version > Database::kSchemaVersion) {
                status = Error::badInput(QStringLiteral("the run store %1 has schema version %2, newer than this "
                                                        "version of Sampling Workbench knows (%3)")
                                             .arg(path)
                                             .arg(version)
                                             .arg(Database::kSchemaVersion));
            } else if (!query.exec(QStringLiteral("PRAGMA quick_check")) || !query.next() ||
                       query.value(0).toString() != QLatin1String("ok")) {
                // SQLite lists problems over many lines; keep the first one, in one sentence.
                QString reason = query.lastError().isValid() ? sqliteReason(query.lastError()) : query.value(0).toString();
                QStringList lines = reason.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                lines.removeIf([](const QString& line) { return line.startsWith(QLatin1String("***")); });
                reason = lines.isEmpty() ? reason.simplified() : lines.first().simplified();
                status = Error::badInput(QStringLiteral("the run store %1 is corrupt (%2)").arg(path, reason));
            }
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    if (tidy)
        tidyAfterReading(path);
    return status;
}

} // namespace

QString Database::defaultPath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("workbench.sqlite"));
}

namespace {

// Database::openPaths: one entry per open Database.
QMutex& openStoresMutex() {
    static QMutex mutex;
    return mutex;
}
QStringList& openStores() {
    static QStringList paths;
    return paths;
}

} // namespace

QStringList Database::openPaths() {
    const QMutexLocker lock(&openStoresMutex());
    return openStores();
}

Database::Database(QString path, QString connectionName)
    : m_path(std::move(path))
    , m_connectionName(std::move(connectionName))
    , m_db(QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connectionName)) {
    const QMutexLocker lock(&openStoresMutex());
    openStores().append(m_path);
}

Database::~Database() {
    {
        const QMutexLocker lock(&openStoresMutex());
        openStores().removeOne(m_path);
    }
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connectionName);
    if (m_tidyAfterReading)
        tidyAfterReading(m_path);
}

Result<std::unique_ptr<Database>> Database::open(const QString& path, Access access) {
    const QFileInfo info(path);
    const bool readOnly = access == Access::ReadOnly;
    // SQLite's companion of a store (opened as a store, its runs would vanish from the real one).
    if (const QString suffix = storeCompanionSuffix(path); !suffix.isEmpty())
        return Error::badInput(QStringLiteral("%1 is the %2 file SQLite keeps beside another run store, not a store; "
                                              "open the store itself")
                                   .arg(path, suffix.mid(1)));
    if (info.exists()) {
        if (info.isDir())
            return Error::badInput(QStringLiteral("the run store %1 is a folder, not a file").arg(path));
        // A device, FIFO or socket: SQLite would put its journal beside it.
        if (!info.isFile())
            return Error::badInput(QStringLiteral("the run store %1 is not a regular file").arg(path));
        // Writing needs the file and its folder (for the -wal and -shm files beside it).
        if (!readOnly && (!info.isWritable() || !QFileInfo(info.absolutePath()).isWritable()))
            return Error::badInput(QStringLiteral("the run store %1 is read-only (the file or its folder); it can be "
                                                  "read (swb export), not written")
                                       .arg(path));
        // An empty file becomes a new store; its size is read without opening it (see inspectExisting).
        if (info.size() > 0) {
            if (Status status = inspectExisting(path); !status)
                return status.error();
        } else if (readOnly) {
            return Error::badInput(QStringLiteral("the run store %1 is empty").arg(path));
        }
    } else if (readOnly) {
        return Error::badInput(QStringLiteral("there is no run store %1").arg(path));
    } else {
        const QFileInfo folder(info.absolutePath());
        if (!folder.exists() && !QDir().mkpath(info.absolutePath()))
            return Error::badInput(
                QStringLiteral("cannot create the folder %1 for the run store").arg(info.absolutePath()));
        if (!QFileInfo(info.absolutePath()).isWritable())
            return Error::badInput(QStringLiteral("cannot create the run store %1: the folder is read-only").arg(path));
    }

    std::unique_ptr<Database> database(new Database(path, uniqueConnectionName()));
    QSqlDatabase& db = database->m_db;
    if (readOnly) {
        database->m_tidyAfterReading = readerShouldTidy(path);
        configureReader(db, path);
    } else {
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    }
    if (!db.open())
        return Error::badInput(QStringLiteral("cannot open the run store %1: %2").arg(path, sqliteReason(db.lastError())));
    database->m_readOnly = readOnly;
    if (readOnly) {
        // A reader changes nothing: no journal mode, no migration. It can read only the schema it knows.
        QSqlQuery version(db);
        if (!version.exec(QStringLiteral("PRAGMA user_version")) || !version.next())
            return Error::badInput(
                QStringLiteral("cannot read the schema version of %1: %2").arg(path, sqliteReason(version.lastError())));
        if (version.value(0).toInt() != kSchemaVersion)
            return Error::badInput(QStringLiteral("the run store %1 has schema version %2; open it once for writing "
                                                  "(the workbench or swb generate) to upgrade it to %3")
                                       .arg(path)
                                       .arg(version.value(0).toInt())
                                       .arg(kSchemaVersion));
        QSqlQuery keys(db);
        keys.exec(QStringLiteral("PRAGMA foreign_keys = ON"));
        return database;
    }
    // A rowid table appends a run's steps at the end of its b-tree; WAL with synchronous NORMAL stays
    // durable across application crashes (a power cut may lose the last transactions, never corrupt).
    // Two processes setting up one new store at once can find it busy where SQLite does not wait (the
    // switch to WAL): the set-up is retried for a few seconds before that is an error.
    const auto setUp = [&]() -> std::optional<QSqlError> {
        for (const char* pragma : {"PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
                                   "PRAGMA cache_size = -32768"}) {
            QSqlQuery query(db);
            if (!query.exec(QLatin1String(pragma)))
                return query.lastError();
        }
        if (Status status = database->migrate(); !status)
            return database->m_lastError;
        // Marks the file as ours (SQLite's application_id), so another program's database is never taken for
        // one; written only when missing, so opening a marked store takes no write lock.
        QSqlQuery mark(db);
        if (!mark.exec(QStringLiteral("PRAGMA application_id")) || !mark.next())
            return mark.lastError();
        const bool marked = mark.value(0).toLongLong() == kApplicationId;
        mark.finish();
        if (!marked &&
            !mark.exec(QStringLiteral("PRAGMA application_id = %1").arg(kApplicationId)))
            return mark.lastError();
        return std::nullopt;
    };
    QElapsedTimer waited;
    waited.start();
    for (int attempt = 0;; ++attempt) {
        const std::optional<QSqlError> error = setUp();
        if (!error)
            break;
        if (!isBusy(*error) || waited.elapsed() > 5000)
            return Error::badInput(QStringLiteral("cannot set up the run store %1: %2").arg(path, sqliteReason(*error)));
        QThread::msleep(static_cast<unsigned long>(std::min(20 + 10 * attempt, 200)));
    }
    return database;
}

Status Database::migrate() {
    QSqlQuery version(m_db);
    if (!version.exec(QStringLiteral("PRAGMA user_version")) || !version.next()) {
        m_lastError = version.lastError(); // what the set-up's retry looks at
        return Error::badInput(
            QStringLiteral("cannot read the schema version of %1: %2").arg(m_path, sqliteReason(version.lastError())));
    }
    const int stored = version.value(0).toInt();
    version.finish(); // holds no read snapshot into the write transactions below
    for (int from = stored; from < kSchemaVersion; ++from) {
        Transaction transaction(*this);
        if (Status status = transaction.begin(); !status)
            return status;
        // Another process may have migrated while this one waited for the write lock (two creating one
        // store at once): the version is read again under the lock.
        QSqlQuery current(m_db);
        if (!current.exec(QStringLiteral("PRAGMA user_version")) || !current.next()) {
            m_lastError = current.lastError();
            return Error::badInput(QStringLiteral("cannot read the schema version of %1: %2")
                                       .arg(m_path, sqliteReason(current.lastError())));
        }
        const int now = current.value(0).toInt();
        current.finish();
        if (now > from) {
            from = now - 1;
            continue; // the transaction rolls back: nothing was written
        }
        // QSqlQuery runs one statement at a time.
        for (const QString& statement :
             QString::fromUtf8(kMigrations[from]).split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
            if (statement.trimmed().isEmpty())
                continue;
            if (Status status = execSql(statement, QStringLiteral("migrate the run store")); !status)
                return status;
        }
        if (Status status = execSql(QStringLiteral("PRAGMA user_version = %1").arg(from + 1),
                                    QStringLiteral("record the schema version"));
            !status)
            return status;
        if (Status status = transaction.commit(); !status)
            return status;
    }
    return {};
}

QSqlQuery Database::prepare(const QString& sql) const {
    QSqlQuery query(m_db);
    query.prepare(sql);
    return query;
}

Status Database::exec(QSqlQuery& query, const QString& what) {
    if (query.exec())
        return {};
    m_lastError = query.lastError();
    return Error::badInput(QStringLiteral("cannot %1 in the run store %2: %3").arg(what, m_path, sqliteReason(query.lastError())));
}

Status Database::execSql(const QString& sql, const QString& what) {
    QSqlQuery query(m_db);
    if (query.exec(sql))
        return {};
    m_lastError = query.lastError();
    return Error::badInput(QStringLiteral("cannot %1 in the run store %2: %3").arg(what, m_path, sqliteReason(query.lastError())));
}

Database::Transaction::Transaction(Database& database)
    : m_database(database) {}

Database::Transaction::~Transaction() {
    // A rollback that fails here has no one to tell: SQLite rolls the transaction back when the connection
    // closes, and the next BEGIN on this connection reports the state.
    if (m_open)
        static_cast<void>(m_database.execSql(QStringLiteral("ROLLBACK"), QStringLiteral("roll back")));
}

Status Database::Transaction::begin() {
    Status status = m_database.execSql(QStringLiteral("BEGIN IMMEDIATE"), QStringLiteral("start a transaction"));
    m_open = status.ok();
    return status;
}

Status Database::Transaction::commit() {
    Status status = m_database.execSql(QStringLiteral("COMMIT"), QStringLiteral("commit"));
    if (status)
        m_open = false;
    return status;
}

} // namespace swb
