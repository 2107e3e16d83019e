#include "storage/RunRepository.h"

#include <cmath>

#include <memory>

#include <QJsonDocument>
#include <QSqlDriver>
#include <QSqlQuery>
#include <QVariant>

#include "storage/Database.h"
#include "storage/StepBlob.h"

#include <sqlite3.h>

namespace swb {

namespace {

QString now() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QVariant optionalValue(const std::optional<qint64>& value) {
    return value ? QVariant(*value) : QVariant(QMetaType::fromType<qint64>());
}

QVariant finiteOrNull(double value) {
    return std::isfinite(value) ? QVariant(value) : QVariant(QMetaType::fromType<double>());
}

bool sameDouble(double a, double b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}

// Steps go straight through SQLite's C API on the connection's own handle: a run of 1000 steps is
// 1000 rows, and Qt's per-row QVariant binding would cost more than the insert itself.
Status insertSteps(Database& db, qint64 runId, const std::vector<StepTrace>& steps,
                   const std::vector<std::string>& texts) {
    const QVariant handle = db.connection().driver()->handle();
    if (!handle.isValid() || qstrcmp(handle.typeName(), "sqlite3*") != 0)
        return Error::internal(QStringLiteral("the run store's connection is not SQLite"));
    sqlite3* sqlite = *static_cast<sqlite3* const*>(handle.constData());
    sqlite3_stmt* statement = nullptr;
    const char* sql = "INSERT INTO steps (run_id, step, token, raw_p, final_p, raw_rank, raw_entropy, final_entropy, "
                      "draw, final_count, stages, alternatives, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    if (sqlite3_prepare_v2(sqlite, sql, -1, &statement, nullptr) != SQLITE_OK)
        return Error::badInput(QStringLiteral("cannot save the steps of a run in %1: %2")
                                   .arg(db.path(), QString::fromUtf8(sqlite3_errmsg(sqlite))));
    const std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(statement, sqlite3_finalize);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StepTrace& trace = steps[i];
        const QByteArray stages = step_blob::packStages(trace.stages);
        const QByteArray alternatives = step_blob::packAlternatives(trace.top);
        sqlite3_bind_int64(statement, 1, runId);
        sqlite3_bind_int(statement, 2, static_cast<int>(i));
        sqlite3_bind_int(statement, 3, trace.chosen);
        sqlite3_bind_double(statement, 4, trace.rawP);
        if (std::isfinite(trace.finalP)) // unknown (a remote engine's step): NULL
            sqlite3_bind_double(statement, 5, trace.finalP);
        else
            sqlite3_bind_null(statement, 5);
        // Unknown (a remote engine's step): NULL. A rank is 1 or more; a survivor count 0 or more.
        if (trace.rawRank > 0)
            sqlite3_bind_int(statement, 6, trace.rawRank);
        else
            sqlite3_bind_null(statement, 6);
        for (const auto& [column, value] : {std::pair{7, trace.rawEntropy}, std::pair{8, trace.finalEntropy}})
            if (std::isfinite(value))
                sqlite3_bind_double(statement, column, value);
            else
                sqlite3_bind_null(statement, column);
        if (std::isfinite(trace.draw))
            sqlite3_bind_double(statement, 9, trace.draw);
        else
            sqlite3_bind_null(statement, 9);
        if (trace.finalCount >= 0)
            sqlite3_bind_int(statement, 10, trace.finalCount);
        else
            sqlite3_bind_null(statement, 10);
        sqlite3_bind_blob(statement, 11, stages.constData(), static_cast<int>(stages.size()), SQLITE_TRANSIENT);
        sqlite3_bind_blob(statement, 12, alternatives.constData(), static_cast<int>(alternatives.size()),
                          SQLITE_TRANSIENT);
        if (i < texts.size())
            sqlite3_bind_text(statement, 13, texts[i].data(), static_cast<int>(texts[i].size()), SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(statement, 13);
        if (sqlite3_step(statement) != SQLITE_DONE)
            return Error::badInput(QStringLiteral("cannot save step %1 of a run in %2: %3")
                                       .arg(i)
                                       .arg(db.path(), QString::fromUtf8(sqlite3_errmsg(sqlite))));
        sqlite3_reset(statement);
    }
    return {};
}

// RunSetup's fields are written NULL where unknown and read back the same.
QList<QVariant> setupValues(const RunSetup& setup) {
    const auto text = [](const QString& value) {
        return value.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(value);
    };
    return {setup.threads ? QVariant(*setup.threads) : QVariant(QMetaType::fromType<int>()),
            setup.fastMath ? QVariant(*setup.fastMath ? 1 : 0) : QVariant(QMetaType::fromType<int>()),
            text(setup.computeDtype), text(setup.device), text(setup.kernelPath)};
}

} // namespace

QString setupColumns(const QString& alias) {
    QStringList columns;
    for (const char* name : {"threads", "fast_math", "compute_dtype", "device", "kernel_path"})
        columns << (alias.isEmpty() ? QString() : alias + QLatin1Char('.')) + QLatin1String(name);
    return columns.join(QStringLiteral(", "));
}

RunSetup setupFromRow(const QSqlQuery& query, int first) {
    RunSetup setup;
    if (!query.value(first).isNull())
        setup.threads = query.value(first).toInt();
    if (!query.value(first + 1).isNull())
        setup.fastMath = query.value(first + 1).toInt() != 0;
    setup.computeDtype = query.value(first + 2).toString();
    setup.device = query.value(first + 3).toString();
    setup.kernelPath = query.value(first + 4).toString();
    return setup;
}

QStringList setupDifferences(const RunSetup& a, const RunSetup& b) {
    QStringList names;
    const auto differ = [&](bool bothKnown, bool different, const char* name) {
        if (bothKnown && different)
            names << QLatin1String(name);
    };
    differ(a.threads && b.threads, a.threads != b.threads, "threads");
    differ(a.fastMath && b.fastMath, a.fastMath != b.fastMath, "fast_math");
    differ(!a.computeDtype.isEmpty() && !b.computeDtype.isEmpty(), a.computeDtype != b.computeDtype, "compute_dtype");
    differ(!a.device.isEmpty() && !b.device.isEmpty(), a.device != b.device, "device");
    differ(!a.kernelPath.isEmpty() && !b.kernelPath.isEmpty(), a.kernelPath != b.kernelPath, "kernel_path");
    return names;
}

bool RunRecord::operator==(const RunRecord& other) const {
    if (id != other.id || modelId != other.modelId || strategyId != other.strategyId || promptId != other.promptId ||
        promptText != other.promptText || promptIds != other.promptIds || seed != other.seed || text != other.text ||
        tokenCount != other.tokenCount || finishReason != other.finishReason ||
        !sameDouble(timeToFirstTokenMs, other.timeToFirstTokenMs) ||
        !sameDouble(tokensPerSecond, other.tokensPerSecond) || parentRunId != other.parentRunId ||
        branchStep != other.branchStep || batchKey != other.batchKey || createdAt != other.createdAt ||
        messagesJson != other.messagesJson || decoderTrace != other.decoderTrace || setup != other.setup ||
        steps.size() != other.steps.size() || stepTexts != other.stepTexts)
        return false;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const StepTrace& a = steps[i];
        const StepTrace& b = other.steps[i];
        if (a.chosen != b.chosen || a.rawP != b.rawP || !sameDouble(a.finalP, b.finalP) || a.rawRank != b.rawRank ||
            !sameDouble(a.rawEntropy, b.rawEntropy) || !sameDouble(a.finalEntropy, b.finalEntropy) ||
            !sameDouble(a.draw, b.draw) || a.finalCount != b.finalCount || a.stages.size() != b.stages.size() ||
            a.top.size() != b.top.size())
            return false;
        for (std::size_t s = 0; s < a.stages.size(); ++s)
            if (a.stages[s].sampler != b.stages[s].sampler || a.stages[s].kept != b.stages[s].kept ||
                !sameDouble(a.stages[s].keptMass, b.stages[s].keptMass) ||
                !sameDouble(a.stages[s].threshold, b.stages[s].threshold))
                return false;
        for (std::size_t t = 0; t < a.top.size(); ++t)
            if (a.top[t].id != b.top[t].id || a.top[t].logit != b.top[t].logit || a.top[t].rawP != b.top[t].rawP ||
                !sameDouble(a.top[t].finalP, b.top[t].finalP))
                return false;
    }
    return true;
}

Result<qint64> RunRepository::saveModel(const ModelRecord& model) {
    QSqlQuery find = m_db.prepare(QStringLiteral("SELECT id FROM models WHERE content_hash = ? AND path = ?"));
    find.addBindValue(model.contentHash);
    find.addBindValue(model.path);
    if (Status status = m_db.exec(find, QStringLiteral("look up a model")); !status)
        return status.error();
    if (find.next())
        return find.value(0).toLongLong();
    // OR IGNORE: another process may save the same model between the look-up and here (two batches
    // starting at once); then its row is the one.
    QSqlQuery insert = m_db.prepare(QStringLiteral(
        "INSERT OR IGNORE INTO models (path, format, architecture, content_hash, parameters, info_json, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant& value :
         {QVariant(model.path), QVariant(model.format), QVariant(model.architecture), QVariant(model.contentHash),
          QVariant(model.parameters), QVariant(model.infoJson), QVariant(now())})
        insert.addBindValue(value);
    if (Status status = m_db.exec(insert, QStringLiteral("save a model")); !status)
        return status.error();
    if (insert.numRowsAffected() == 0) {
        if (Status status = m_db.exec(find, QStringLiteral("look up a model")); !status)
            return status.error();
        if (find.next())
            return find.value(0).toLongLong();
    }
    return insert.lastInsertId().toLongLong();
}

Result<ModelRecord> RunRepository::loadModel(qint64 id) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT path, format, architecture, content_hash, parameters, info_json FROM models WHERE id = ?"));
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("load model %1").arg(id)); !status)
        return status.error();
    if (!query.next())
        return Error::badInput(QStringLiteral("there is no model %1 in %2").arg(id).arg(m_db.path()));
    return ModelRecord{id,
                       query.value(0).toString(),
                       query.value(1).toString(),
                       query.value(2).toString(),
                       query.value(3).toString(),
                       query.value(4).toLongLong(),
                       query.value(5).toString()};
}

Result<qint64> RunRepository::saveStrategy(const Strategy& strategy) {
    const QString hash = strategy.hash();
    QSqlQuery find = m_db.prepare(QStringLiteral("SELECT id, name FROM strategies WHERE hash = ?"));
    find.addBindValue(hash);
    if (Status status = m_db.exec(find, QStringLiteral("look up a strategy")); !status)
        return status.error();
    if (find.next()) {
        const qint64 id = find.value(0).toLongLong();
        if (find.value(1).toString().isEmpty() && !strategy.name.isEmpty()) {
            QSqlQuery rename = m_db.prepare(QStringLiteral("UPDATE strategies SET name = ? WHERE id = ?"));
            rename.addBindValue(strategy.name);
            rename.addBindValue(id);
            if (Status status = m_db.exec(rename, QStringLiteral("name a strategy")); !status)
                return status.error();
        }
        return id;
    }
    QSqlQuery insert = m_db.prepare(
        QStringLiteral("INSERT OR IGNORE INTO strategies (hash, json, name, created_at) VALUES (?, ?, ?, ?)"));
    insert.addBindValue(hash);
    insert.addBindValue(QString::fromUtf8(strategy.canonicalSamplersJson()));
    insert.addBindValue(strategy.name.isNull() ? QStringLiteral("") : strategy.name); // NOT NULL: bind "" for no name
    insert.addBindValue(now());
    if (Status status = m_db.exec(insert, QStringLiteral("save a strategy")); !status)
        return status.error();
    if (insert.numRowsAffected() == 0) { // saved by another process meanwhile (see saveModel)
        if (Status status = m_db.exec(find, QStringLiteral("look up a strategy")); !status)
            return status.error();
        if (find.next())
            return find.value(0).toLongLong();
    }
    return insert.lastInsertId().toLongLong();
}

Result<Strategy> RunRepository::loadStrategy(qint64 id) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT json, name FROM strategies WHERE id = ?"));
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("load a strategy")); !status)
        return status.error();
    if (!query.next())
        return Error::badInput(QStringLiteral("there is no strategy %1 in %2").arg(id).arg(m_db.path()));
    Result<Strategy> strategy =
        Strategy::fromJson(QJsonDocument::fromJson(query.value(0).toString().toUtf8()).object());
    if (strategy)
        strategy->name = query.value(1).toString();
    return strategy;
}

Result<qint64> RunRepository::saveNamedStrategy(const Strategy& strategy, const QString& name) {
    Result<qint64> id = saveStrategy(strategy);
    if (!id)
        return id;
    QSqlQuery rename = m_db.prepare(QStringLiteral("UPDATE strategies SET name = ? WHERE id = ?"));
    rename.addBindValue(name);
    rename.addBindValue(id.value());
    if (Status status = m_db.exec(rename, QStringLiteral("name a strategy")); !status)
        return status.error();
    return id;
}

Status RunRepository::setServedStrategy(qint64 strategyId) {
    QSqlQuery set =
        m_db.prepare(QStringLiteral("INSERT INTO store_settings (key, value) VALUES ('serve.default_strategy', ?) "
                                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"));
    set.addBindValue(QString::number(strategyId));
    return m_db.exec(set, QStringLiteral("remember the served strategy"));
}

Result<std::optional<Strategy>> RunRepository::servedStrategy() {
    QSqlQuery get =
        m_db.prepare(QStringLiteral("SELECT value FROM store_settings WHERE key = 'serve.default_strategy'"));
    if (Status status = m_db.exec(get, QStringLiteral("read the served strategy")); !status)
        return status.error();
    if (!get.next())
        return std::optional<Strategy>();
    Result<Strategy> strategy = loadStrategy(get.value(0).toLongLong());
    if (!strategy)
        return std::optional<Strategy>(); // deleted since
    return std::optional<Strategy>(std::move(strategy).value());
}

Result<std::optional<Strategy>> RunRepository::findNamedStrategy(const QString& name) {
    if (name.isEmpty()) // unnamed strategies are stored with an empty name
        return std::optional<Strategy>();
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM strategies WHERE name = ? ORDER BY id LIMIT 1"));
    query.addBindValue(name);
    if (Status status = m_db.exec(query, QStringLiteral("find a strategy")); !status)
        return status.error();
    if (!query.next())
        return std::optional<Strategy>();
    Result<Strategy> strategy = loadStrategy(query.value(0).toLongLong());
    if (!strategy)
        return strategy.error();
    return std::optional<Strategy>(std::move(strategy).value());
}

Result<std::vector<std::pair<qint64, Strategy>>> RunRepository::listNamedStrategies() {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM strategies WHERE name <> '' ORDER BY name, id"));
    if (Status status = m_db.exec(query, QStringLiteral("list strategies")); !status)
        return status.error();
    std::vector<qint64> ids;
    while (query.next())
        ids.push_back(query.value(0).toLongLong());
    std::vector<std::pair<qint64, Strategy>> named;
    for (qint64 id : ids) {
        Result<Strategy> strategy = loadStrategy(id);
        if (strategy)
            named.emplace_back(id, std::move(strategy).value());
    }
    return named;
}

Status RunRepository::saveRun(RunRecord& run) {
    if (!run.createdAt.isValid())
        run.createdAt = QDateTime::currentDateTimeUtc();
    run.tokenCount = static_cast<int>(run.steps.size());
    Database::Transaction transaction(m_db);
    if (Status status = transaction.begin(); !status)
        return status;
    QSqlQuery insert = m_db.prepare(
        QStringLiteral(
            "INSERT INTO runs (model_id, strategy_id, prompt_id, prompt_text, prompt_ids, seed, text, token_count, "
            "finish_reason, ttft_ms, tokens_per_second, parent_run_id, branch_step, batch_key, created_at, messages, "
            "decoder_trace, %1) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
            .arg(setupColumns()));
    QList<QVariant> values = {
        QVariant(run.modelId),
        QVariant(run.strategyId),
        optionalValue(run.promptId),
        QVariant(run.promptText),
        QVariant(step_blob::packIds(run.promptIds)),
        QVariant(static_cast<qint64>(run.seed)),
        QVariant(run.text),
        QVariant(run.tokenCount),
        QVariant(run.finishReason),
        finiteOrNull(run.timeToFirstTokenMs),
        finiteOrNull(run.tokensPerSecond),
        optionalValue(run.parentRunId),
        run.branchStep ? QVariant(*run.branchStep) : QVariant(QMetaType::fromType<int>()),
        run.batchKey.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(run.batchKey),
        QVariant(run.createdAt.toString(Qt::ISODateWithMs)),
        run.messagesJson.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(run.messagesJson),
        run.decoderTrace.isEmpty() ? QVariant(QMetaType::fromType<QByteArray>())
                                   : QVariant(qCompress(run.decoderTrace))};
    values << setupValues(run.setup);
    for (const QVariant& value : values)
        insert.addBindValue(value);
    if (Status status = m_db.exec(insert, QStringLiteral("save a run")); !status)
        return status;
    const qint64 id = insert.lastInsertId().toLongLong();

    if (Status status = insertSteps(m_db, id, run.steps, run.stepTexts); !status)
        return status;
    if (Status status = transaction.commit(); !status)
        return status;
    run.id = id;
    return {};
}

Result<RunRecord> RunRepository::loadRun(qint64 id, bool withSteps) {
    QSqlQuery query = m_db.prepare(
        QStringLiteral(
            "SELECT model_id, strategy_id, prompt_id, prompt_text, prompt_ids, seed, text, token_count, finish_reason, "
            "ttft_ms, tokens_per_second, parent_run_id, branch_step, batch_key, created_at, messages, decoder_trace, "
            "%1 "
            "FROM runs WHERE id = ?")
            .arg(setupColumns()));
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("load a run")); !status)
        return status.error();
    if (!query.next())
        return Error::badInput(QStringLiteral("there is no run %1 in %2").arg(id).arg(m_db.path()));
    RunRecord run;
    run.id = id;
    run.modelId = query.value(0).toLongLong();
    run.strategyId = query.value(1).toLongLong();
    if (!query.value(2).isNull())
        run.promptId = query.value(2).toLongLong();
    run.promptText = query.value(3).toString();
    run.promptIds = step_blob::unpackIds(query.value(4).toByteArray()).value_or(std::vector<TokenId>{});
    run.seed = static_cast<std::uint64_t>(query.value(5).toLongLong());
    run.text = query.value(6).toString();
    run.tokenCount = query.value(7).toInt();
    run.finishReason = query.value(8).toString();
    run.timeToFirstTokenMs = query.value(9).isNull() ? NAN : query.value(9).toDouble();
    run.tokensPerSecond = query.value(10).isNull() ? NAN : query.value(10).toDouble();
    if (!query.value(11).isNull())
        run.parentRunId = query.value(11).toLongLong();
    if (!query.value(12).isNull())
        run.branchStep = query.value(12).toInt();
    run.batchKey = query.value(13).toString();
    run.createdAt = QDateTime::fromString(query.value(14).toString(), Qt::ISODateWithMs);
    run.messagesJson = query.value(15).toString();
    run.setup = setupFromRow(query, 17);
    if (!query.value(16).isNull()) {
        run.decoderTrace = qUncompress(query.value(16).toByteArray());
        if (run.decoderTrace.isEmpty())
            return Error::badInput(QStringLiteral("run %1's decoder trace in %2 is damaged").arg(id).arg(m_db.path()));
    }
    if (!withSteps)
        return run;

    QSqlQuery steps = m_db.prepare(QStringLiteral(
        "SELECT token, raw_p, final_p, raw_rank, raw_entropy, final_entropy, draw, final_count, stages, alternatives, "
        "text FROM steps WHERE run_id = ? ORDER BY step"));
    steps.setForwardOnly(true);
    steps.addBindValue(id);
    if (Status status = m_db.exec(steps, QStringLiteral("load the steps of run %1").arg(id)); !status)
        return status.error();
    run.steps.reserve(static_cast<std::size_t>(run.tokenCount));
    while (steps.next()) {
        StepTrace trace;
        trace.chosen = steps.value(0).toInt();
        trace.rawP = static_cast<float>(steps.value(1).toDouble());
        trace.finalP = steps.value(2).isNull() ? NAN : static_cast<float>(steps.value(2).toDouble());
        trace.rawRank = steps.value(3).toInt(); // NULL: 0, unknown
        trace.rawEntropy = steps.value(4).isNull() ? NAN : steps.value(4).toDouble();
        trace.finalEntropy = steps.value(5).isNull() ? NAN : steps.value(5).toDouble();
        trace.draw = steps.value(6).isNull() ? NAN : steps.value(6).toDouble();
        trace.finalCount = steps.value(7).isNull() ? -1 : steps.value(7).toInt();
        auto stages = step_blob::unpackStages(steps.value(8).toByteArray());
        auto top = step_blob::unpackAlternatives(steps.value(9).toByteArray());
        if (!stages || !top)
            return Error::badInput(
                QStringLiteral("step %1 of run %2 in %3 is damaged").arg(run.steps.size()).arg(id).arg(m_db.path()));
        trace.stages = std::move(*stages);
        trace.top = std::move(*top);
        run.steps.push_back(std::move(trace));
        if (!steps.value(10).isNull())
            run.stepTexts.resize(run.steps.size()); // older steps of a run are all NULL, or none is
        if (!run.stepTexts.empty())
            run.stepTexts.back() = steps.value(10).toString().toStdString();
    }
    return run;
}

Result<std::vector<RunSummary>> RunRepository::listRuns() {
    QSqlQuery query = m_db.prepare(
        QStringLiteral(
            "SELECT r.id, r.strategy_id, s.name, m.path, r.prompt_text, substr(r.text, 1, 200), r.token_count, "
            "r.finish_reason, r.parent_run_id, r.branch_step, r.tokens_per_second, r.created_at, %1 "
            "FROM runs r JOIN strategies s ON s.id = r.strategy_id JOIN models m ON m.id = r.model_id ORDER BY r.id")
            .arg(setupColumns(QStringLiteral("r"))));
    query.setForwardOnly(true);
    if (Status status = m_db.exec(query, QStringLiteral("list runs")); !status)
        return status.error();
    std::vector<RunSummary> runs;
    while (query.next()) {
        RunSummary run;
        run.id = query.value(0).toLongLong();
        run.strategyId = query.value(1).toLongLong();
        run.strategyName = query.value(2).toString();
        run.modelPath = query.value(3).toString();
        run.promptText = query.value(4).toString();
        run.text = query.value(5).toString();
        run.tokenCount = query.value(6).toInt();
        run.finishReason = query.value(7).toString();
        if (!query.value(8).isNull())
            run.parentRunId = query.value(8).toLongLong();
        if (!query.value(9).isNull())
            run.branchStep = query.value(9).toInt();
        run.tokensPerSecond = query.value(10).toDouble();
        run.createdAt = QDateTime::fromString(query.value(11).toString(), Qt::ISODateWithMs);
        run.setup = setupFromRow(query, 12);
        runs.push_back(std::move(run));
    }
    return runs;
}

Result<std::optional<qint64>> RunRepository::findRunByBatchKey(const QString& key) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM runs WHERE batch_key = ?"));
    query.addBindValue(key);
    if (Status status = m_db.exec(query, QStringLiteral("look up a batch run")); !status)
        return status.error();
    if (!query.next())
        return std::optional<qint64>();
    return std::optional<qint64>(query.value(0).toLongLong());
}

Result<bool> RunRepository::hasRun(qint64 id) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT 1 FROM runs WHERE id = ?"));
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("look up run %1").arg(id)); !status)
        return status.error();
    return query.next();
}

Result<std::vector<qint64>> RunRepository::runIds() {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM runs ORDER BY id"));
    if (Status status = m_db.exec(query, QStringLiteral("list runs")); !status)
        return status.error();
    std::vector<qint64> ids;
    while (query.next())
        ids.push_back(query.value(0).toLongLong());
    return ids;
}

Status RunRepository::deleteRun(qint64 id) {
    QSqlQuery query = m_db.prepare(QStringLiteral("DELETE FROM runs WHERE id = ?"));
    query.addBindValue(id);
    return m_db.exec(query, QStringLiteral("delete run %1").arg(id));
}

} // namespace swb
