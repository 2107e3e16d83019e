#include "storage/ExperimentRepository.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QVariant>

#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "storage/RunRepository.h"

namespace swb {

namespace {

QString now() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QDateTime timeOf(const QVariant& value) {
    return value.isNull() ? QDateTime() : QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

} // namespace

bool ExperimentRecord::sameDesign(const ExperimentRecord& other) const {
    if (name != other.name || metric != other.metric || arms.size() != other.arms.size())
        return false;
    for (std::size_t i = 0; i < arms.size(); ++i)
        if (arms[i].name != other.arms[i].name || arms[i].strategy.hash() != other.arms[i].strategy.hash() ||
            arms[i].weight != other.arms[i].weight)
            return false;
    return true;
}

std::size_t ExperimentRecord::armFor(const QString& unit) const {
    double u = 0.0;
    if (unit.isEmpty()) {
        u = QRandomGenerator::global()->generateDouble();
    } else {
        std::uint64_t hash = 14695981039346656037ULL;
        for (const char c : (name + QChar(0x1f) + unit).toUtf8()) {
            hash ^= static_cast<unsigned char>(c);
            hash *= 1099511628211ULL;
        }
        hash ^= hash >> 33; // murmur3's finaliser: every input bit reaches the top bits
        hash *= 0xff51afd7ed558ccdULL;
        hash ^= hash >> 33;
        u = double(hash >> 11) * 0x1.0p-53;
    }
    double total = 0.0;
    for (const ExperimentArm& arm : arms)
        total += arm.weight;
    double cumulative = 0.0;
    for (std::size_t i = 0; i < arms.size(); ++i) {
        cumulative += arms[i].weight / total;
        if (u < cumulative)
            return i;
    }
    return arms.empty() ? 0 : arms.size() - 1;
}

Status ExperimentRecord::checkName(const QString& name, const QString& what) {
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9._-]{1,64}$"));
    if (!pattern.match(name).hasMatch())
        return Error::badInput(
            QStringLiteral("%1 '%2' must be 1 to 64 letters, digits, '.', '_' or '-'").arg(what, name));
    return {};
}

Result<ExperimentRecord> ExperimentRepository::start(ExperimentRecord experiment) {
    Database::Transaction transaction(m_db);
    if (Status status = transaction.begin(); !status)
        return status.error();
    Result<std::optional<ExperimentRecord>> existing = find(experiment.name);
    if (!existing)
        return existing.error();
    qint64 id = 0;
    if (existing.value()) {
        if (!existing.value()->sameDesign(experiment))
            return Error::badInput(QStringLiteral("the experiment '%1' exists with other arms or another metric; its "
                                                  "feedback would not compare: give the new design a new name")
                                       .arg(experiment.name));
        if (!existing.value()->winner.isEmpty())
            return Error::badInput(
                QStringLiteral("the experiment '%1' has ended: %2 won; start a new one under another name")
                    .arg(experiment.name, existing.value()->winner));
        id = existing.value()->id;
    } else {
        QSqlQuery insert = m_db.prepare(QStringLiteral(
            "INSERT INTO experiments (name, metric, auto_promote, state, created_at) VALUES (?, ?, ?, 'running', ?)"));
        insert.addBindValue(experiment.name);
        insert.addBindValue(experiment.metric);
        insert.addBindValue(experiment.autoPromote ? 1 : 0);
        insert.addBindValue(now());
        if (Status status = m_db.exec(insert, QStringLiteral("save an experiment")); !status)
            return status.error();
        id = insert.lastInsertId().toLongLong();
        RunRepository runs(m_db);
        QSqlQuery arm = m_db.prepare(QStringLiteral(
            "INSERT INTO experiment_arms (experiment_id, position, name, strategy_id, weight) VALUES (?, ?, ?, ?, ?)"));
        for (std::size_t i = 0; i < experiment.arms.size(); ++i) {
            Result<qint64> strategyId = runs.saveStrategy(experiment.arms[i].strategy);
            if (!strategyId)
                return strategyId.error();
            arm.addBindValue(id);
            arm.addBindValue(static_cast<int>(i));
            arm.addBindValue(experiment.arms[i].name);
            arm.addBindValue(strategyId.value());
            arm.addBindValue(experiment.arms[i].weight);
            if (Status status = m_db.exec(arm, QStringLiteral("save an experiment's arm")); !status)
                return status.error();
        }
    }
    // One experiment is served at a time: the others stop (those running without a decision).
    QSqlQuery others = m_db.prepare(
        QStringLiteral("UPDATE experiments SET state = 'stopped', stopped_at = ? WHERE state = 'running' AND id <> ?"));
    others.addBindValue(now());
    others.addBindValue(id);
    QSqlQuery self = m_db.prepare(QStringLiteral("UPDATE experiments SET state = 'running', auto_promote = ?, "
                                                 "stopped_at = NULL WHERE id = ? AND winner IS NULL"));
    self.addBindValue(experiment.autoPromote ? 1 : 0);
    self.addBindValue(id);
    if (Status status = m_db.exec(others, QStringLiteral("stop the running experiment")); !status)
        return status.error();
    if (Status status = m_db.exec(self, QStringLiteral("start an experiment")); !status)
        return status.error();
    if (Status status = transaction.commit(); !status)
        return status.error();
    return get(id);
}

Result<ExperimentRecord> ExperimentRepository::get(qint64 id) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT name, metric, auto_promote, state, winner, created_at, stopped_at FROM experiments WHERE id = ?"));
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("read an experiment")); !status)
        return status.error();
    if (!query.next())
        return Error::badInput(QStringLiteral("there is no experiment %1 in %2").arg(id).arg(m_db.path()));
    ExperimentRecord experiment;
    experiment.id = id;
    experiment.name = query.value(0).toString();
    experiment.metric = query.value(1).toString();
    experiment.autoPromote = query.value(2).toInt() != 0;
    experiment.running = query.value(3).toString() == QLatin1String("running");
    experiment.winner = query.value(4).toString();
    experiment.createdAt = timeOf(query.value(5));
    experiment.stoppedAt = timeOf(query.value(6));
    QSqlQuery arms = m_db.prepare(QStringLiteral(
        "SELECT name, strategy_id, weight FROM experiment_arms WHERE experiment_id = ? ORDER BY position"));
    arms.addBindValue(id);
    if (Status status = m_db.exec(arms, QStringLiteral("read an experiment's arms")); !status)
        return status.error();
    RunRepository runs(m_db);
    std::vector<std::pair<QString, std::pair<qint64, double>>> rows;
    while (arms.next())
        rows.push_back({arms.value(0).toString(), {arms.value(1).toLongLong(), arms.value(2).toDouble()}});
    for (const auto& [name, row] : rows) {
        Result<Strategy> strategy = runs.loadStrategy(row.first);
        if (!strategy)
            return strategy.error();
        experiment.arms.push_back({name, std::move(strategy).value(), row.second});
    }
    return experiment;
}

Result<std::optional<ExperimentRecord>> ExperimentRepository::find(const QString& name) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM experiments WHERE name = ?"));
    query.addBindValue(name);
    if (Status status = m_db.exec(query, QStringLiteral("find an experiment")); !status)
        return status.error();
    if (!query.next())
        return std::optional<ExperimentRecord>();
    Result<ExperimentRecord> experiment = get(query.value(0).toLongLong());
    if (!experiment)
        return experiment.error();
    return std::optional<ExperimentRecord>(std::move(experiment).value());
}

Result<std::optional<ExperimentRecord>> ExperimentRepository::running() {
    QSqlQuery query =
        m_db.prepare(QStringLiteral("SELECT name FROM experiments WHERE state = 'running' ORDER BY id DESC LIMIT 1"));
    if (Status status = m_db.exec(query, QStringLiteral("find the running experiment")); !status)
        return status.error();
    if (!query.next())
        return std::optional<ExperimentRecord>();
    return find(query.value(0).toString());
}

Result<std::vector<ExperimentRecord>> ExperimentRepository::list() {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM experiments ORDER BY id DESC"));
    if (Status status = m_db.exec(query, QStringLiteral("list experiments")); !status)
        return status.error();
    std::vector<qint64> ids;
    while (query.next())
        ids.push_back(query.value(0).toLongLong());
    std::vector<ExperimentRecord> out;
    for (qint64 id : ids) {
        Result<ExperimentRecord> experiment = get(id);
        if (!experiment)
            return experiment.error();
        out.push_back(std::move(experiment).value());
    }
    return out;
}

Status ExperimentRepository::stop(qint64 id, const QString& winner) {
    QSqlQuery query = m_db.prepare(
        QStringLiteral("UPDATE experiments SET state = 'stopped', winner = ?, stopped_at = ? WHERE id = ?"));
    query.addBindValue(winner.isEmpty() ? QVariant() : QVariant(winner));
    query.addBindValue(now());
    query.addBindValue(id);
    return m_db.exec(query, QStringLiteral("stop an experiment"));
}

Status ExperimentRepository::recordServedRun(const ServedRunRecord& run) {
    QSqlQuery insert =
        m_db.prepare(QStringLiteral("INSERT INTO served_runs (run_id, completion_id, choice, experiment_id, "
                                    "arm, unit, latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?)"));
    insert.addBindValue(run.runId);
    insert.addBindValue(run.completionId);
    insert.addBindValue(run.choice);
    insert.addBindValue(run.experimentId ? QVariant(*run.experimentId) : QVariant());
    insert.addBindValue(run.arm.isEmpty() ? QVariant() : QVariant(run.arm));
    insert.addBindValue(run.unit.isEmpty() ? QVariant() : QVariant(run.unit));
    insert.addBindValue(run.latencyMs);
    return m_db.exec(insert, QStringLiteral("record a served run"));
}

Result<std::optional<ServedRunRecord>> ExperimentRepository::servedRun(const QString& completionId, int choice) {
    QSqlQuery query =
        m_db.prepare(QStringLiteral("SELECT run_id, experiment_id, arm, unit, latency_ms FROM served_runs "
                                    "WHERE completion_id = ? AND choice = ?"));
    query.addBindValue(completionId);
    query.addBindValue(choice);
    if (Status status = m_db.exec(query, QStringLiteral("find a served run")); !status)
        return status.error();
    if (!query.next())
        return std::optional<ServedRunRecord>();
    ServedRunRecord run;
    run.runId = query.value(0).toLongLong();
    run.completionId = completionId;
    run.choice = choice;
    if (!query.value(1).isNull())
        run.experimentId = query.value(1).toLongLong();
    run.arm = query.value(2).toString();
    run.unit = query.value(3).toString();
    run.latencyMs = query.value(4).toDouble();
    return std::optional<ServedRunRecord>(run);
}

Result<std::optional<std::pair<QString, double>>> ExperimentRepository::feedback(qint64 runId) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT r.dimension, r.score FROM ratings r JOIN rubrics b ON b.id = "
                                                  "r.rubric_id JOIN raters a ON a.id = r.rater_id "
                                                  "WHERE r.run_id = ? AND b.name = ? AND a.name = ?"));
    query.addBindValue(runId);
    query.addBindValue(QString::fromLatin1(kFeedbackRubric));
    query.addBindValue(QString::fromLatin1(kFeedbackRater));
    if (Status status = m_db.exec(query, QStringLiteral("read a run's feedback")); !status)
        return status.error();
    if (!query.next())
        return std::optional<std::pair<QString, double>>();
    return std::optional<std::pair<QString, double>>({query.value(0).toString(), query.value(1).toDouble()});
}

Status ExperimentRepository::saveFeedback(qint64 runId, const QString& metric, double value, const QString& comment) {
    RatingRepository ratings(m_db);
    Result<std::optional<Rubric>> rubric = ratings.findRubric(QString::fromLatin1(kFeedbackRubric));
    if (!rubric)
        return rubric.error();
    if (!rubric.value()) {
        Result<Rubric> saved = ratings.saveRubric(QString::fromLatin1(kFeedbackRubric),
                                                  {{QString::fromLatin1(ExperimentRecord::kThumbs), 0.0, 1.0},
                                                   {QString::fromLatin1(ExperimentRecord::kScore), 1.0, 5.0}});
        if (!saved)
            return saved.error();
        rubric.value() = std::move(saved).value();
    }
    Result<qint64> rater = ratings.raterId(QString::fromLatin1(kFeedbackRater));
    if (!rater)
        return rater.error();
    Database::Transaction transaction(m_db);
    if (Status status = transaction.begin(); !status)
        return status;
    // One feedback per run: a replacement of the other metric takes the earlier one's place.
    QSqlQuery other =
        m_db.prepare(QStringLiteral("DELETE FROM ratings WHERE run_id = ? AND rater_id = ? AND rubric_id = ? "
                                    "AND dimension <> ?"));
    other.addBindValue(runId);
    other.addBindValue(rater.value());
    other.addBindValue(rubric.value()->id);
    other.addBindValue(metric);
    if (Status status = m_db.exec(other, QStringLiteral("replace a run's feedback")); !status)
        return status;
    RatingRecord rating;
    rating.runId = runId;
    rating.raterId = rater.value();
    rating.dimension = metric;
    rating.score = value;
    rating.note = comment;
    if (Status status = ratings.saveRating(rating, *rubric.value()); !status)
        return status;
    return transaction.commit();
}

Result<std::vector<ExperimentObservation>> ExperimentRepository::observations(const ExperimentRecord& experiment) {
    QSqlQuery query = m_db.prepare(
        QStringLiteral("SELECT s.arm, r.score, r.created_at FROM ratings r JOIN served_runs s ON s.run_id = r.run_id "
                       "JOIN rubrics b ON b.id = r.rubric_id JOIN raters a ON a.id = r.rater_id "
                       "WHERE s.experiment_id = ? AND b.name = ? AND a.name = ? AND r.dimension = ? ORDER BY r.id"));
    query.addBindValue(experiment.id);
    query.addBindValue(QString::fromLatin1(kFeedbackRubric));
    query.addBindValue(QString::fromLatin1(kFeedbackRater));
    query.addBindValue(experiment.metric);
    if (Status status = m_db.exec(query, QStringLiteral("read an experiment's feedback")); !status)
        return status.error();
    std::vector<ExperimentObservation> out;
    while (query.next())
        out.push_back({query.value(0).toString(), query.value(1).toDouble(), timeOf(query.value(2))});
    return out;
}

Result<std::vector<ExperimentArmUsage>> ExperimentRepository::usage(qint64 experimentId) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT s.arm, COUNT(*), COUNT(DISTINCT s.unit), AVG(s.latency_ms), AVG(r.token_count) FROM served_runs s "
        "JOIN runs r ON r.id = s.run_id WHERE s.experiment_id = ? GROUP BY s.arm"));
    query.addBindValue(experimentId);
    if (Status status = m_db.exec(query, QStringLiteral("read an experiment's traffic")); !status)
        return status.error();
    std::vector<ExperimentArmUsage> out;
    while (query.next())
        out.push_back({query.value(0).toString(), query.value(1).toInt(), query.value(2).toInt(),
                       query.value(3).toDouble(), query.value(4).toDouble()});
    return out;
}

Result<std::vector<qint64>> ExperimentRepository::runsOfArm(qint64 experimentId, const QString& arm, int limit) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT run_id FROM served_runs WHERE experiment_id = ? AND arm = ? ORDER BY run_id DESC LIMIT ?"));
    query.addBindValue(experimentId);
    query.addBindValue(arm);
    query.addBindValue(limit);
    if (Status status = m_db.exec(query, QStringLiteral("list an arm's runs")); !status)
        return status.error();
    std::vector<qint64> out;
    while (query.next())
        out.push_back(query.value(0).toLongLong());
    return out;
}

} // namespace swb
