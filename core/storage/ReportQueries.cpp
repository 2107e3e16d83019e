#include "storage/ReportQueries.h"

#include <cmath>

#include <algorithm>

#include <QSqlQuery>
#include <QVariant>

#include "storage/Database.h"

namespace swb {

namespace {

QDateTime timeOf(const QVariant& value) {
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

double realOrNaN(const QVariant& value) {
    return value.isNull() ? std::numeric_limits<double>::quiet_NaN() : value.toDouble();
}

} // namespace

// The runs a report counts: every run, or those of one model (by content hash; bound by bind()).
QString ReportQueries::scope(const QString& alias) const {
    if (m_modelHash.isEmpty())
        return QStringLiteral("1");
    return QStringLiteral("%1model_id IN (SELECT id FROM models WHERE content_hash = ?)")
        .arg(alias.isEmpty() ? QString() : alias + QLatin1Char('.'));
}

namespace {

void bindScope(QSqlQuery& query, const QString& modelHash) {
    if (!modelHash.isEmpty())
        query.addBindValue(modelHash);
}

} // namespace

Result<std::vector<ReportStrategy>> ReportQueries::strategies() {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id, name, json FROM strategies WHERE id IN "
                                                  "(SELECT DISTINCT strategy_id FROM runs WHERE %1) ORDER BY id")
                                       .arg(scope()));
    bindScope(query, m_modelHash);
    if (Status status = m_db.exec(query, QStringLiteral("list strategies")); !status)
        return status.error();
    std::vector<ReportStrategy> rows;
    while (query.next())
        rows.push_back({query.value(0).toLongLong(), query.value(1).toString(), query.value(2).toString()});
    return rows;
}

Result<std::vector<std::pair<qint64, qint64>>> ReportQueries::runStrategies() {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id, strategy_id FROM runs WHERE %1").arg(scope()));
    bindScope(query, m_modelHash);
    query.setForwardOnly(true);
    if (Status status = m_db.exec(query, QStringLiteral("list runs")); !status)
        return status.error();
    std::vector<std::pair<qint64, qint64>> rows;
    while (query.next())
        rows.emplace_back(query.value(0).toLongLong(), query.value(1).toLongLong());
    return rows;
}

Result<std::vector<RunReportRow>> ReportQueries::runs() {
    QSqlQuery query =
        m_db.prepare(QStringLiteral("SELECT r.id, m.path, r.strategy_id, s.json, r.seed, r.prompt_text, r.text, "
                                    "r.token_count, r.finish_reason, "
                                    "r.ttft_ms, r.tokens_per_second, r.parent_run_id, r.branch_step, r.created_at, %2 "
                                    "FROM runs r JOIN models m ON m.id = r.model_id JOIN strategies s ON s.id = "
                                    "r.strategy_id WHERE %1 ORDER BY r.id")
                         .arg(scope(QStringLiteral("r")), setupColumns(QStringLiteral("r"))));
    bindScope(query, m_modelHash);
    query.setForwardOnly(true);
    if (Status status = m_db.exec(query, QStringLiteral("list runs")); !status)
        return status.error();
    std::vector<RunReportRow> rows;
    while (query.next()) {
        RunReportRow row;
        row.runId = query.value(0).toLongLong();
        row.model = query.value(1).toString();
        row.strategyId = query.value(2).toLongLong();
        row.strategyJson = query.value(3).toString();
        row.seed = static_cast<std::uint64_t>(query.value(4).toLongLong());
        row.prompt = query.value(5).toString();
        row.text = query.value(6).toString();
        row.tokens = query.value(7).toInt();
        row.finishReason = query.value(8).toString();
        row.ttftMs = realOrNaN(query.value(9));
        row.tokensPerSecond = realOrNaN(query.value(10));
        if (!query.value(11).isNull())
            row.parentRunId = query.value(11).toLongLong();
        if (!query.value(12).isNull())
            row.branchStep = query.value(12).toInt();
        row.createdAt = timeOf(query.value(13));
        row.setup = setupFromRow(query, 14);
        rows.push_back(std::move(row));
    }
    return rows;
}

Status ReportQueries::forEachStep(const std::function<void(const StepReportRow&, const QString& modelPath)>& visit) {
    QSqlQuery query = m_db.prepare(
        QStringLiteral(
            "SELECT s.run_id, s.step, s.token, s.raw_p, s.final_p, s.raw_rank, s.raw_entropy, s.final_entropy, "
            "s.final_count, m.path, s.text, m.format = 'remote' FROM steps s JOIN runs r ON r.id = s.run_id "
            "JOIN models m ON m.id = r.model_id "
            "WHERE %1 ORDER BY s.run_id, s.step")
            .arg(scope(QStringLiteral("r"))));
    bindScope(query, m_modelHash);
    query.setForwardOnly(true);
    if (Status status = m_db.exec(query, QStringLiteral("read the steps")); !status)
        return status;
    while (query.next()) {
        StepReportRow row;
        row.runId = query.value(0).toLongLong();
        row.step = query.value(1).toInt();
        row.tokenId = query.value(2).toInt();
        row.rawP = static_cast<float>(query.value(3).toDouble());
        row.finalP = query.value(4).isNull() ? NAN : static_cast<float>(query.value(4).toDouble());
        row.rawRank = query.value(5).toInt(); // NULL (unknown): 0
        row.rawEntropy = query.value(6).isNull() ? NAN : query.value(6).toDouble();
        row.finalEntropy = query.value(7).isNull() ? NAN : query.value(7).toDouble();
        row.finalCount = query.value(8).isNull() ? -1 : query.value(8).toInt();
        row.storedText = query.value(10).toString();
        row.remote = query.value(11).toBool();
        visit(row, query.value(9).toString());
    }
    return {};
}

Result<QHash<qint64, RunSteps>> ReportQueries::stepSeries() {
    QSqlQuery query =
        m_db.prepare(QStringLiteral("SELECT run_id, token, raw_p, raw_entropy FROM steps ORDER BY run_id, step"));
    query.setForwardOnly(true);
    if (Status status = m_db.exec(query, QStringLiteral("read the steps")); !status)
        return status.error();
    QHash<qint64, RunSteps> steps;
    while (query.next()) {
        RunSteps& run = steps[query.value(0).toLongLong()];
        run.tokens.push_back(query.value(1).toInt());
        run.rawP.push_back(query.value(2).toDouble());
        run.rawEntropy.push_back(query.value(3).isNull() ? NAN : query.value(3).toDouble());
    }
    return steps;
}

Result<std::vector<StoredModel>> ReportQueries::models(Database& database) {
    QSqlQuery query = database.prepare(
        QStringLiteral("SELECT m.content_hash, (SELECT path FROM models l WHERE l.content_hash = m.content_hash ORDER "
                       "BY l.id DESC LIMIT 1), "
                       "COUNT(r.id) FROM models m JOIN runs r ON r.model_id = m.id GROUP BY m.content_hash"));
    if (Status status = database.exec(query, QStringLiteral("list the models")); !status)
        return status.error();
    std::vector<StoredModel> entries;
    while (query.next())
        entries.push_back({query.value(0).toString(), query.value(1).toString(), query.value(2).toInt()});
    std::sort(entries.begin(), entries.end(),
              [](const StoredModel& a, const StoredModel& b) { return a.path < b.path; });
    return entries;
}

Result<QStringList> ReportQueries::contentHashesAt(Database& database, const QString& path) {
    QSqlQuery query = database.prepare(QStringLiteral("SELECT DISTINCT content_hash FROM models WHERE path = ?"));
    query.addBindValue(path);
    if (Status status = database.exec(query, QStringLiteral("find the model")); !status)
        return status.error();
    QStringList hashes;
    while (query.next())
        hashes << query.value(0).toString();
    return hashes;
}

} // namespace swb
