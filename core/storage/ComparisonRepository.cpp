#include "storage/ComparisonRepository.h"

#include <QSqlQuery>
#include <QVariant>

#include "storage/Database.h"

namespace swb {

namespace {
QString now() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}
} // namespace

Result<qint64> ComparisonRepository::savePromptSet(const QString& name, const QString& source) {
    QSqlQuery find = m_db.prepare(QStringLiteral("SELECT id FROM prompt_sets WHERE name = ?"));
    find.addBindValue(name);
    if (Status status = m_db.exec(find, QStringLiteral("look up a prompt set")); !status)
        return status.error();
    if (find.next())
        return find.value(0).toLongLong();
    QSqlQuery insert =
        m_db.prepare(QStringLiteral("INSERT INTO prompt_sets (name, source, created_at) VALUES (?, ?, ?)"));
    insert.addBindValue(name);
    insert.addBindValue(source);
    insert.addBindValue(now());
    if (Status status = m_db.exec(insert, QStringLiteral("save a prompt set")); !status)
        return status.error();
    return insert.lastInsertId().toLongLong();
}

Result<qint64> ComparisonRepository::savePrompt(qint64 promptSetId, int position, const QString& text) {
    QSqlQuery find =
        m_db.prepare(QStringLiteral("SELECT id, text FROM prompts WHERE prompt_set_id = ? AND position = ?"));
    find.addBindValue(promptSetId);
    find.addBindValue(position);
    if (Status status = m_db.exec(find, QStringLiteral("look up a prompt")); !status)
        return status.error();
    if (find.next()) {
        const qint64 id = find.value(0).toLongLong();
        if (find.value(1).toString() != text) {
            QSqlQuery update = m_db.prepare(QStringLiteral("UPDATE prompts SET text = ? WHERE id = ?"));
            update.addBindValue(text);
            update.addBindValue(id);
            if (Status status = m_db.exec(update, QStringLiteral("update a prompt")); !status)
                return status.error();
        }
        return id;
    }
    QSqlQuery insert =
        m_db.prepare(QStringLiteral("INSERT INTO prompts (prompt_set_id, position, text) VALUES (?, ?, ?)"));
    insert.addBindValue(promptSetId);
    insert.addBindValue(position);
    insert.addBindValue(text);
    if (Status status = m_db.exec(insert, QStringLiteral("save a prompt")); !status)
        return status.error();
    return insert.lastInsertId().toLongLong();
}

Status ComparisonRepository::saveComparison(ComparisonRecord& comparison) {
    if (!comparison.createdAt.isValid())
        comparison.createdAt = QDateTime::currentDateTimeUtc();
    Database::Transaction transaction(m_db);
    if (Status status = transaction.begin(); !status)
        return status;
    QSqlQuery insert = m_db.prepare(QStringLiteral(
        "INSERT INTO comparisons (prompt_id, prompt_text, sample_index, blind, is_gold, gold_winner, batch_key, "
        "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"));
    insert.addBindValue(comparison.promptId ? QVariant(*comparison.promptId) : QVariant(QMetaType::fromType<qint64>()));
    insert.addBindValue(comparison.promptText);
    insert.addBindValue(comparison.sampleIndex);
    insert.addBindValue(comparison.blind ? 1 : 0);
    insert.addBindValue(comparison.isGold ? 1 : 0);
    insert.addBindValue(comparison.goldWinner.isEmpty() ? QVariant(QMetaType::fromType<QString>())
                                                        : QVariant(comparison.goldWinner));
    insert.addBindValue(comparison.batchKey.isEmpty() ? QVariant(QMetaType::fromType<QString>())
                                                      : QVariant(comparison.batchKey));
    insert.addBindValue(comparison.createdAt.toString(Qt::ISODateWithMs));
    if (Status status = m_db.exec(insert, QStringLiteral("save a comparison")); !status)
        return status;
    const qint64 id = insert.lastInsertId().toLongLong();
    QSqlQuery entry = m_db.prepare(QStringLiteral("INSERT INTO comparison_runs (comparison_id, slot, run_id, "
                                                  "blind_label, presentation_order) VALUES (?, ?, ?, ?, ?)"));
    for (const ComparisonRecord::Entry& e : comparison.entries) {
        entry.bindValue(0, id);
        entry.bindValue(1, e.slot);
        entry.bindValue(2, e.runId);
        entry.bindValue(3, e.blindLabel);
        entry.bindValue(4, e.presentationOrder);
        if (Status status = m_db.exec(entry, QStringLiteral("save a comparison slot")); !status)
            return status;
    }
    if (Status status = transaction.commit(); !status)
        return status;
    comparison.id = id;
    return {};
}

Result<ComparisonRecord> ComparisonRepository::loadComparison(qint64 id) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT prompt_id, prompt_text, sample_index, blind, is_gold, gold_winner, batch_key, created_at "
        "FROM comparisons WHERE id = ?"));
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("load a comparison")); !status)
        return status.error();
    if (!query.next())
        return Error::badInput(QStringLiteral("there is no comparison %1 in %2").arg(id).arg(m_db.path()));
    ComparisonRecord comparison;
    comparison.id = id;
    if (!query.value(0).isNull())
        comparison.promptId = query.value(0).toLongLong();
    comparison.promptText = query.value(1).toString();
    comparison.sampleIndex = query.value(2).toInt();
    comparison.blind = query.value(3).toInt() != 0;
    comparison.isGold = query.value(4).toInt() != 0;
    comparison.goldWinner = query.value(5).toString();
    comparison.batchKey = query.value(6).toString();
    comparison.createdAt = QDateTime::fromString(query.value(7).toString(), Qt::ISODateWithMs);
    QSqlQuery entries = m_db.prepare(QStringLiteral("SELECT slot, run_id, blind_label, presentation_order FROM "
                                                    "comparison_runs WHERE comparison_id = ? ORDER BY slot"));
    entries.addBindValue(id);
    if (Status status = m_db.exec(entries, QStringLiteral("load a comparison's runs")); !status)
        return status.error();
    while (entries.next())
        comparison.entries.push_back({entries.value(0).toInt(), entries.value(1).toLongLong(),
                                      entries.value(2).toString(), entries.value(3).toInt()});
    return comparison;
}

Result<std::vector<ComparisonRecord>> ComparisonRepository::listComparisons() {
    QSqlQuery ids = m_db.prepare(QStringLiteral("SELECT id FROM comparisons ORDER BY id"));
    if (Status status = m_db.exec(ids, QStringLiteral("list comparisons")); !status)
        return status.error();
    std::vector<qint64> all;
    while (ids.next())
        all.push_back(ids.value(0).toLongLong());
    std::vector<ComparisonRecord> comparisons;
    for (qint64 id : all) {
        Result<ComparisonRecord> comparison = loadComparison(id);
        if (!comparison)
            return comparison.error();
        comparisons.push_back(std::move(comparison).value());
    }
    return comparisons;
}

Result<std::optional<qint64>> ComparisonRepository::findComparisonByBatchKey(const QString& key) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM comparisons WHERE batch_key = ?"));
    query.addBindValue(key);
    if (Status status = m_db.exec(query, QStringLiteral("look up a batch comparison")); !status)
        return status.error();
    if (!query.next())
        return std::optional<qint64>();
    return std::optional<qint64>(query.value(0).toLongLong());
}

Status ComparisonRepository::setGold(qint64 id, bool gold, const QString& winner) {
    QSqlQuery query = m_db.prepare(QStringLiteral("UPDATE comparisons SET is_gold = ?, gold_winner = ? WHERE id = ?"));
    query.addBindValue(gold ? 1 : 0);
    query.addBindValue(gold ? QVariant(winner) : QVariant());
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("mark a gold comparison")); !status)
        return status;
    if (query.numRowsAffected() != 1)
        return Error::badInput(QStringLiteral("there is no comparison %1 in %2").arg(id).arg(m_db.path()));
    return {};
}

} // namespace swb
