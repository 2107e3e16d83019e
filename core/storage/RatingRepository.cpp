#include "storage/RatingRepository.h"

#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSqlQuery>
#include <QVariant>

#include "storage/Database.h"

namespace swb {

namespace {

QString now() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QDateTime timeOf(const QVariant& value) {
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

const char* const kRatingColumns = "SELECT r.id, r.run_id, r.rater_id, w.name, r.rubric_id, r.dimension, r.score, "
                                   "r.note, r.created_at FROM ratings r JOIN raters w ON w.id = r.rater_id ";

RatingRecord ratingFromRow(const QSqlQuery& query) {
    RatingRecord rating;
    rating.id = query.value(0).toLongLong();
    rating.runId = query.value(1).toLongLong();
    rating.raterId = query.value(2).toLongLong();
    rating.raterName = query.value(3).toString();
    if (!query.value(4).isNull())
        rating.rubricId = query.value(4).toLongLong();
    rating.dimension = query.value(5).toString();
    rating.score = query.value(6).toDouble();
    rating.note = query.value(7).toString();
    rating.createdAt = timeOf(query.value(8));
    return rating;
}

const char* const kPreferenceColumns =
    "SELECT p.id, p.comparison_id, p.rater_id, w.name, p.winner, p.winner_slot, p.note, p.created_at "
    "FROM preferences p JOIN raters w ON w.id = p.rater_id ";

PreferenceRecord preferenceFromRow(const QSqlQuery& query) {
    PreferenceRecord preference;
    preference.id = query.value(0).toLongLong();
    preference.comparisonId = query.value(1).toLongLong();
    preference.raterId = query.value(2).toLongLong();
    preference.raterName = query.value(3).toString();
    preference.winner = PreferenceRecord::winnerFromName(query.value(4).toString()).value_or(PreferenceWinner::Tie);
    if (!query.value(5).isNull())
        preference.winnerSlot = query.value(5).toInt();
    preference.note = query.value(6).toString();
    preference.createdAt = timeOf(query.value(7));
    return preference;
}

} // namespace

const RubricDimension* Rubric::dimension(const QString& name) const {
    for (const RubricDimension& d : dimensions)
        if (d.name == name)
            return &d;
    return nullptr;
}

std::vector<RubricDimension> Rubric::defaultDimensions() {
    return {
        {QStringLiteral("relevance"), 0, 3}, {QStringLiteral("fluency"), 0, 2}, {QStringLiteral("usefulness"), 0, 4}};
}

Result<std::vector<RubricDimension>> Rubric::parseDimensions(const QString& json) {
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isArray())
        return Error::badInput(
            QStringLiteral("rubric dimensions must be a JSON array of {\"name\", \"min\", \"max\"}"));
    std::vector<RubricDimension> dimensions;
    for (const QJsonValue& value : document.array()) {
        const QJsonObject object = value.toObject();
        if (!object.value(QLatin1String("name")).isString() || !object.value(QLatin1String("min")).isDouble() ||
            !object.value(QLatin1String("max")).isDouble())
            return Error::badInput(
                QStringLiteral("every rubric dimension needs a \"name\" string and \"min\" and \"max\" numbers"));
        dimensions.push_back({object.value(QLatin1String("name")).toString(),
                              object.value(QLatin1String("min")).toDouble(),
                              object.value(QLatin1String("max")).toDouble()});
    }
    return dimensions;
}

QString Rubric::dimensionsJson(const std::vector<RubricDimension>& dimensions) {
    QJsonArray array;
    for (const RubricDimension& d : dimensions)
        array.append(QJsonObject{
            {QStringLiteral("name"), d.name}, {QStringLiteral("min"), d.min}, {QStringLiteral("max"), d.max}});
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

QString PreferenceRecord::winnerName(PreferenceWinner winner) {
    switch (winner) {
    case PreferenceWinner::Slot:
        return QStringLiteral("slot");
    case PreferenceWinner::Tie:
        return QStringLiteral("tie");
    case PreferenceWinner::BothBad:
        return QStringLiteral("bothbad");
    }
    return {};
}

std::optional<PreferenceWinner> PreferenceRecord::winnerFromName(const QString& name) {
    for (PreferenceWinner winner : {PreferenceWinner::Slot, PreferenceWinner::Tie, PreferenceWinner::BothBad})
        if (name == winnerName(winner))
            return winner;
    return std::nullopt;
}

Result<std::optional<qint64>> RatingRepository::findRater(const QString& name) {
    QSqlQuery find = m_db.prepare(QStringLiteral("SELECT id FROM raters WHERE name = ?"));
    find.addBindValue(name.trimmed());
    if (Status status = m_db.exec(find, QStringLiteral("look up a rater")); !status)
        return status.error();
    if (!find.next())
        return std::optional<qint64>();
    return std::optional<qint64>(find.value(0).toLongLong());
}

Result<qint64> RatingRepository::raterId(const QString& name) {
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return Error::badInput(QStringLiteral("a rater needs a name"));
    Result<std::optional<qint64>> existing = findRater(trimmed);
    if (!existing)
        return existing.error();
    if (existing.value())
        return *existing.value();
    QSqlQuery insert = m_db.prepare(QStringLiteral("INSERT INTO raters (name, created_at) VALUES (?, ?)"));
    insert.addBindValue(trimmed);
    insert.addBindValue(now());
    if (Status status = m_db.exec(insert, QStringLiteral("save a rater")); !status)
        return status.error();
    return insert.lastInsertId().toLongLong();
}

Result<std::vector<RaterRecord>> RatingRepository::listRaters() {
    QSqlQuery query =
        m_db.prepare(QStringLiteral("SELECT id, name, created_at, set_aside FROM raters ORDER BY name"));
    if (Status status = m_db.exec(query, QStringLiteral("list raters")); !status)
        return status.error();
    std::vector<RaterRecord> raters;
    while (query.next())
        raters.push_back({query.value(0).toLongLong(), query.value(1).toString(), timeOf(query.value(2)),
                          query.value(3).toString()});
    return raters;
}

Status RatingRepository::setRaterAside(const QString& name, const QString& reason) {
    Result<std::optional<qint64>> existing = findRater(name.trimmed());
    if (!existing)
        return existing.error();
    if (!existing.value())
        return Error::badInput(QStringLiteral("%1 has no rater named '%2'").arg(m_db.path(), name.trimmed()));
    QSqlQuery update = m_db.prepare(QStringLiteral("UPDATE raters SET set_aside = ? WHERE id = ?"));
    update.addBindValue(reason.trimmed().isEmpty() ? QVariant() : QVariant(reason.trimmed()));
    update.addBindValue(*existing.value());
    return m_db.exec(update, QStringLiteral("set a rater aside"));
}

Result<Rubric> RatingRepository::rubricFromRow(qint64 id, const QString& name, const QString& json) const {
    Result<std::vector<RubricDimension>> dimensions = Rubric::parseDimensions(json);
    if (!dimensions)
        return Error::badInput(
            QStringLiteral("the rubric '%1' in %2 is damaged: %3").arg(name, m_db.path(), dimensions.error().message));
    return Rubric{id, name, std::move(dimensions).value()};
}

Result<Rubric> RatingRepository::saveRubric(const QString& name, const std::vector<RubricDimension>& dimensions) {
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return Error::badInput(QStringLiteral("a rubric needs a name"));
    if (dimensions.empty())
        return Error::badInput(QStringLiteral("the rubric '%1' needs at least one dimension").arg(trimmed));
    QSet<QString> seen;
    for (const RubricDimension& d : dimensions) {
        if (d.name.trimmed().isEmpty() || d.name.trimmed() != d.name)
            return Error::badInput(
                QStringLiteral("the rubric '%1' has a dimension without a name or with spaces around it").arg(trimmed));
        if (seen.contains(d.name))
            return Error::badInput(
                QStringLiteral("the rubric '%1' names the dimension '%2' twice").arg(trimmed, d.name));
        seen.insert(d.name);
        if (!std::isfinite(d.min) || !std::isfinite(d.max) || !(d.min < d.max))
            return Error::badInput(QStringLiteral("the dimension '%1' of the rubric '%2' needs a finite min below max")
                                       .arg(d.name, trimmed));
    }
    QSqlQuery upsert =
        m_db.prepare(QStringLiteral("INSERT INTO rubrics (name, dimensions, created_at) VALUES (?, ?, ?) "
                                    "ON CONFLICT (name) DO UPDATE SET dimensions = excluded.dimensions RETURNING id"));
    upsert.addBindValue(trimmed);
    upsert.addBindValue(Rubric::dimensionsJson(dimensions));
    upsert.addBindValue(now());
    if (Status status = m_db.exec(upsert, QStringLiteral("save the rubric '%1'").arg(trimmed)); !status)
        return status.error();
    if (!upsert.next())
        return Error::internal(QStringLiteral("saving the rubric '%1' returned no id").arg(trimmed));
    return Rubric{upsert.value(0).toLongLong(), trimmed, dimensions};
}

Result<std::optional<Rubric>> RatingRepository::findRubric(const QString& name) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id, name, dimensions FROM rubrics WHERE name = ?"));
    query.addBindValue(name.trimmed());
    if (Status status = m_db.exec(query, QStringLiteral("look up a rubric")); !status)
        return status.error();
    if (!query.next())
        return std::optional<Rubric>();
    Result<Rubric> rubric =
        rubricFromRow(query.value(0).toLongLong(), query.value(1).toString(), query.value(2).toString());
    if (!rubric)
        return rubric.error();
    return std::optional<Rubric>(std::move(rubric).value());
}

Result<Rubric> RatingRepository::defaultRubric() {
    const QString name = QString::fromLatin1(Rubric::kDefaultName);
    Result<std::optional<Rubric>> existing = findRubric(name);
    if (!existing)
        return existing.error();
    if (existing.value())
        return *existing.value();
    return saveRubric(name, Rubric::defaultDimensions());
}

Result<std::vector<Rubric>> RatingRepository::listRubrics() {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id, name, dimensions FROM rubrics ORDER BY id"));
    if (Status status = m_db.exec(query, QStringLiteral("list rubrics")); !status)
        return status.error();
    std::vector<Rubric> rubrics;
    while (query.next()) {
        Result<Rubric> rubric =
            rubricFromRow(query.value(0).toLongLong(), query.value(1).toString(), query.value(2).toString());
        if (!rubric)
            return rubric.error();
        rubrics.push_back(std::move(rubric).value());
    }
    return rubrics;
}

Status RatingRepository::saveRating(RatingRecord& rating, const Rubric& rubric) {
    RatingWriter writer(*this, rubric);
    return writer.save(rating);
}

RatingRepository::RatingWriter::RatingWriter(RatingRepository& repository, const Rubric& rubric)
    : m_rubric(rubric)
    , m_upsert(repository.m_db.prepare(
          QStringLiteral("INSERT INTO ratings (run_id, rater_id, rubric_id, dimension, score, note, created_at) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, rater_id, dimension) DO UPDATE SET "
                         "rubric_id = excluded.rubric_id, score = excluded.score, note = excluded.note, "
                         "created_at = excluded.created_at RETURNING id")))
    , m_db(repository.m_db) {}

Status RatingRepository::RatingWriter::save(RatingRecord& rating) {
    const RubricDimension* dimension = m_rubric.dimension(rating.dimension);
    if (!dimension)
        return Error::badInput(
            QStringLiteral("the rubric '%1' has no dimension '%2'").arg(m_rubric.name, rating.dimension));
    if (!std::isfinite(rating.score) || rating.score < dimension->min || rating.score > dimension->max)
        return Error::badInput(QStringLiteral("the score %1 is outside %2 to %3 of the dimension '%4'")
                                   .arg(rating.score)
                                   .arg(dimension->min)
                                   .arg(dimension->max)
                                   .arg(rating.dimension));
    // An import gives all its rows the time of the import: one event, however long it takes to write.
    const QString time = rating.createdAt.isValid() ? rating.createdAt.toUTC().toString(Qt::ISODateWithMs) : now();
    m_upsert.bindValue(0, rating.runId);
    m_upsert.bindValue(1, rating.raterId);
    m_upsert.bindValue(2, m_rubric.id);
    m_upsert.bindValue(3, rating.dimension);
    m_upsert.bindValue(4, rating.score);
    m_upsert.bindValue(5, rating.note.isNull() ? QStringLiteral("") : rating.note); // NULL would break NOT NULL
    m_upsert.bindValue(6, time);
    if (Status status = m_db.exec(m_upsert, QStringLiteral("save a rating of run %1").arg(rating.runId)); !status)
        return status;
    if (!m_upsert.next())
        return Error::internal(QStringLiteral("saving a rating of run %1 returned no id").arg(rating.runId));
    rating.id = m_upsert.value(0).toLongLong();
    m_upsert.finish();
    rating.rubricId = m_rubric.id;
    rating.createdAt = timeOf(time);
    return {};
}

Status RatingRepository::deleteRating(qint64 runId, qint64 raterId, const QString& dimension) {
    QSqlQuery query =
        m_db.prepare(QStringLiteral("DELETE FROM ratings WHERE run_id = ? AND rater_id = ? AND dimension = ?"));
    query.addBindValue(runId);
    query.addBindValue(raterId);
    query.addBindValue(dimension);
    return m_db.exec(query, QStringLiteral("delete a rating of run %1").arg(runId));
}

Result<std::vector<RatingRecord>> RatingRepository::listRatings() {
    QSqlQuery query =
        m_db.prepare(QString::fromLatin1(kRatingColumns) + QStringLiteral("ORDER BY r.run_id, w.name, r.dimension"));
    query.setForwardOnly(true);
    if (Status status = m_db.exec(query, QStringLiteral("list ratings")); !status)
        return status.error();
    std::vector<RatingRecord> ratings;
    while (query.next())
        ratings.push_back(ratingFromRow(query));
    return ratings;
}

Result<std::vector<RatingRecord>> RatingRepository::ratingsOfRun(qint64 runId) {
    QSqlQuery query = m_db.prepare(QString::fromLatin1(kRatingColumns) +
                                   QStringLiteral("WHERE r.run_id = ? ORDER BY w.name, r.dimension"));
    query.addBindValue(runId);
    if (Status status = m_db.exec(query, QStringLiteral("list the ratings of run %1").arg(runId)); !status)
        return status.error();
    std::vector<RatingRecord> ratings;
    while (query.next())
        ratings.push_back(ratingFromRow(query));
    return ratings;
}

Status RatingRepository::savePreference(PreferenceRecord& preference) {
    const bool slotWinner = preference.winner == PreferenceWinner::Slot;
    if (slotWinner != preference.winnerSlot.has_value())
        return Error::badInput(QStringLiteral("a preference names a winning slot exactly when a slot won"));
    if (slotWinner) {
        QSqlQuery slot =
            m_db.prepare(QStringLiteral("SELECT 1 FROM comparison_runs WHERE comparison_id = ? AND slot = ?"));
        slot.addBindValue(preference.comparisonId);
        slot.addBindValue(*preference.winnerSlot);
        if (Status status = m_db.exec(slot, QStringLiteral("look up a comparison slot")); !status)
            return status;
        if (!slot.next())
            return Error::badInput(QStringLiteral("comparison %1 has no slot %2")
                                       .arg(preference.comparisonId)
                                       .arg(*preference.winnerSlot));
    }
    const QString time =
        preference.createdAt.isValid() ? preference.createdAt.toUTC().toString(Qt::ISODateWithMs) : now();
    QSqlQuery upsert = m_db.prepare(QStringLiteral(
        "INSERT INTO preferences (comparison_id, rater_id, winner, winner_slot, note, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (comparison_id, rater_id) DO UPDATE SET winner = excluded.winner, "
        "winner_slot = excluded.winner_slot, note = excluded.note, created_at = excluded.created_at RETURNING id"));
    upsert.addBindValue(preference.comparisonId);
    upsert.addBindValue(preference.raterId);
    upsert.addBindValue(PreferenceRecord::winnerName(preference.winner));
    upsert.addBindValue(slotWinner ? QVariant(*preference.winnerSlot) : QVariant(QMetaType::fromType<int>()));
    upsert.addBindValue(preference.note.isNull() ? QStringLiteral("") : preference.note);
    upsert.addBindValue(time);
    if (Status status =
            m_db.exec(upsert, QStringLiteral("save a preference on comparison %1").arg(preference.comparisonId));
        !status)
        return status;
    if (!upsert.next())
        return Error::internal(
            QStringLiteral("saving a preference on comparison %1 returned no id").arg(preference.comparisonId));
    preference.id = upsert.value(0).toLongLong();
    preference.createdAt = timeOf(time);
    return {};
}

Status RatingRepository::deletePreference(qint64 comparisonId, qint64 raterId) {
    QSqlQuery query = m_db.prepare(QStringLiteral("DELETE FROM preferences WHERE comparison_id = ? AND rater_id = ?"));
    query.addBindValue(comparisonId);
    query.addBindValue(raterId);
    return m_db.exec(query, QStringLiteral("delete a preference on comparison %1").arg(comparisonId));
}

Result<std::vector<PreferenceRecord>> RatingRepository::listPreferences() {
    QSqlQuery query = m_db.prepare(QString::fromLatin1(kPreferenceColumns) + QStringLiteral("ORDER BY p.id"));
    query.setForwardOnly(true);
    if (Status status = m_db.exec(query, QStringLiteral("list preferences")); !status)
        return status.error();
    std::vector<PreferenceRecord> preferences;
    while (query.next())
        preferences.push_back(preferenceFromRow(query));
    return preferences;
}

Result<std::optional<PreferenceRecord>> RatingRepository::preference(qint64 comparisonId, qint64 raterId) {
    QSqlQuery query = m_db.prepare(QString::fromLatin1(kPreferenceColumns) +
                                   QStringLiteral("WHERE p.comparison_id = ? AND p.rater_id = ?"));
    query.addBindValue(comparisonId);
    query.addBindValue(raterId);
    if (Status status = m_db.exec(query, QStringLiteral("look up a preference")); !status)
        return status.error();
    if (!query.next())
        return std::optional<PreferenceRecord>();
    return std::optional<PreferenceRecord>(preferenceFromRow(query));
}

Result<std::optional<qint64>> RatingRepository::nextUnratedComparison(qint64 raterId, qint64 after) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT c.id FROM comparisons c WHERE c.id > ? AND NOT EXISTS "
        "(SELECT 1 FROM preferences p WHERE p.comparison_id = c.id AND p.rater_id = ?) ORDER BY c.id LIMIT 1"));
    query.addBindValue(after);
    query.addBindValue(raterId);
    if (Status status = m_db.exec(query, QStringLiteral("find the next comparison to rate")); !status)
        return status.error();
    if (!query.next())
        return std::optional<qint64>();
    return std::optional<qint64>(query.value(0).toLongLong());
}

Result<RatingProgress> RatingRepository::progress(qint64 raterId) {
    QSqlQuery query = m_db.prepare(
        QStringLiteral("SELECT (SELECT count(*) FROM preferences p JOIN comparisons c ON c.id = p.comparison_id "
                       "WHERE p.rater_id = ?), (SELECT count(*) FROM comparisons)"));
    query.addBindValue(raterId);
    if (Status status = m_db.exec(query, QStringLiteral("count a rater's preferences")); !status)
        return status.error();
    if (!query.next())
        return Error::internal(QStringLiteral("counting a rater's preferences returned nothing"));
    return RatingProgress{query.value(0).toInt(), query.value(1).toInt()};
}

} // namespace swb
