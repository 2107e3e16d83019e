#include "storage/CampaignRepository.h"

#include <algorithm>
#include <map>

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSqlQuery>
#include <QVariant>

#include "storage/Database.h"
#include "storage/RatingRepository.h"

namespace swb {

namespace {

QString now() {
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

// 128 random bits from the system's generator, as hex: a link nobody can guess.
QString newToken() {
    QByteArray bytes(16, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()), 4);
    return QString::fromLatin1(bytes.toHex());
}

QString orderJson(const std::vector<int>& order) {
    QJsonArray array;
    for (int i : order)
        array.append(i);
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

std::vector<int> orderOf(const QString& json) {
    std::vector<int> order;
    for (const QJsonValue& v : QJsonDocument::fromJson(json.toUtf8()).array())
        order.push_back(v.toInt());
    return order;
}

} // namespace

Result<CampaignAnchor> parseCampaignAnchor(const QString& text) {
    const qsizetype equals = text.indexOf(QLatin1Char('='));
    bool ok = false;
    const qint64 id = text.left(equals).trimmed().toLongLong(&ok);
    const QString rest = text.mid(equals + 1);
    const qsizetype colon = rest.indexOf(QLatin1Char(':'));
    const QString level = (colon < 0 ? rest : rest.left(colon)).trimmed().toLower();
    if (equals < 0 || !ok || (level != QLatin1String("high") && level != QLatin1String("medium") && level != QLatin1String("low")))
        return Error::badInput(QStringLiteral("an anchor reads COMPARISON_ID=high|medium|low[:GUIDANCE], not '%1'").arg(text.trimmed()));
    return CampaignAnchor{id, level, colon < 0 ? QString() : rest.mid(colon + 1).trimmed()};
}

Result<CampaignRecord> CampaignRepository::save(const QString& name, qint64 rubricId, const CampaignPlan& plan,
                                                const std::vector<RaterQueue>& queues,
                                                const std::vector<CampaignAnchor>& anchors) {
    Database::Transaction transaction(m_db);
    if (Status status = transaction.begin(); !status)
        return status.error();
    if (rubricId == 0) { // the default rubric, saved with the campaign when the store has none yet
        Result<Rubric> rubric = RatingRepository(m_db).defaultRubric();
        if (!rubric)
            return rubric.error();
        rubricId = rubric->id;
    }
    QSqlQuery insert = m_db.prepare(QStringLiteral("INSERT INTO campaigns (name, rubric_id, ratings_per_item, gold_share, "
                                                   "seed, created_at) VALUES (?, ?, ?, ?, ?, ?)"));
    insert.addBindValue(name.trimmed());
    insert.addBindValue(rubricId);
    insert.addBindValue(plan.ratingsPerItem);
    insert.addBindValue(plan.goldShare);
    insert.addBindValue(static_cast<qint64>(plan.seed));
    insert.addBindValue(now());
    if (Status status = m_db.exec(insert, QStringLiteral("save a campaign")); !status)
        return status.error();
    const qint64 id = insert.lastInsertId().toLongLong();
    RatingRepository ratings(m_db);
    QSqlQuery rater = m_db.prepare(QStringLiteral("INSERT INTO campaign_raters (campaign_id, rater_id, token) VALUES (?, ?, ?)"));
    QSqlQuery item = m_db.prepare(QStringLiteral("INSERT INTO campaign_items (campaign_id, rater_id, position, comparison_id, "
                                                 "shown_order, gold) VALUES (?, ?, ?, ?, ?, ?)"));
    for (const RaterQueue& queue : queues) {
        Result<qint64> raterId = ratings.raterId(queue.rater);
        if (!raterId)
            return raterId.error();
        rater.addBindValue(id);
        rater.addBindValue(raterId.value());
        rater.addBindValue(newToken());
        if (Status status = m_db.exec(rater, QStringLiteral("save a campaign's rater")); !status)
            return status.error();
        for (std::size_t p = 0; p < queue.items.size(); ++p) {
            item.addBindValue(id);
            item.addBindValue(raterId.value());
            item.addBindValue(static_cast<int>(p));
            item.addBindValue(queue.items[p].comparisonId);
            item.addBindValue(orderJson(queue.items[p].shownOrder));
            item.addBindValue(queue.items[p].gold ? 1 : 0);
            if (Status status = m_db.exec(item, QStringLiteral("save a campaign's queue")); !status)
                return status.error();
        }
    }
    QSqlQuery anchor = m_db.prepare(
        QStringLiteral("INSERT INTO campaign_anchors (campaign_id, comparison_id, level, guidance) VALUES (?, ?, ?, ?)"));
    for (const CampaignAnchor& a : anchors) {
        anchor.addBindValue(id);
        anchor.addBindValue(a.comparisonId);
        anchor.addBindValue(a.level);
        anchor.addBindValue(a.guidance);
        if (Status status = m_db.exec(anchor, QStringLiteral("save a campaign's anchor")); !status)
            return status.error();
    }
    if (Status status = transaction.commit(); !status)
        return status.error();
    Result<std::optional<CampaignRecord>> saved = load(id);
    if (!saved)
        return saved.error();
    return *saved.value();
}

Result<std::optional<CampaignRecord>> CampaignRepository::load(qint64 id) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT id, name, rubric_id, ratings_per_item, gold_share, seed, created_at FROM campaigns WHERE id = ?"));
    query.addBindValue(id);
    if (Status status = m_db.exec(query, QStringLiteral("read a campaign")); !status)
        return status.error();
    if (!query.next())
        return std::optional<CampaignRecord>();
    CampaignRecord record;
    record.id = query.value(0).toLongLong();
    record.name = query.value(1).toString();
    record.rubricId = query.value(2).toLongLong();
    record.plan.ratingsPerItem = query.value(3).toInt();
    record.plan.goldShare = query.value(4).toDouble();
    record.plan.seed = static_cast<std::uint64_t>(query.value(5).toLongLong());
    record.createdAt = QDateTime::fromString(query.value(6).toString(), Qt::ISODateWithMs);
    QSqlQuery anchors = m_db.prepare(QStringLiteral(
        "SELECT comparison_id, level, guidance FROM campaign_anchors WHERE campaign_id = ? ORDER BY comparison_id"));
    anchors.addBindValue(id);
    if (Status status = m_db.exec(anchors, QStringLiteral("read a campaign's anchors")); !status)
        return status.error();
    while (anchors.next())
        record.anchors.push_back({anchors.value(0).toLongLong(), anchors.value(1).toString(), anchors.value(2).toString()});
    return std::optional<CampaignRecord>(std::move(record));
}

Result<std::optional<CampaignRecord>> CampaignRepository::find(const QString& name) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM campaigns WHERE name = ?"));
    query.addBindValue(name.trimmed());
    if (Status status = m_db.exec(query, QStringLiteral("find a campaign")); !status)
        return status.error();
    if (!query.next())
        return std::optional<CampaignRecord>();
    return load(query.value(0).toLongLong());
}

Result<std::vector<CampaignRecord>> CampaignRepository::list() {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT id FROM campaigns ORDER BY id"));
    if (Status status = m_db.exec(query, QStringLiteral("list campaigns")); !status)
        return status.error();
    std::vector<qint64> ids;
    while (query.next())
        ids.push_back(query.value(0).toLongLong());
    std::vector<CampaignRecord> records;
    for (qint64 id : ids) {
        Result<std::optional<CampaignRecord>> record = load(id);
        if (!record)
            return record.error();
        if (record.value())
            records.push_back(std::move(*record.value()));
    }
    return records;
}

Result<std::vector<CampaignRater>> CampaignRepository::raters(qint64 campaignId) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT c.rater_id, r.name, c.token FROM campaign_raters c JOIN raters r "
                                                  "ON r.id = c.rater_id WHERE c.campaign_id = ? ORDER BY r.name"));
    query.addBindValue(campaignId);
    if (Status status = m_db.exec(query, QStringLiteral("list a campaign's raters")); !status)
        return status.error();
    std::vector<CampaignRater> raters;
    while (query.next())
        raters.push_back({query.value(0).toLongLong(), query.value(1).toString(), query.value(2).toString()});
    return raters;
}

Result<std::optional<std::pair<qint64, CampaignRater>>> CampaignRepository::byToken(const QString& token) {
    QSqlQuery query = m_db.prepare(QStringLiteral("SELECT c.campaign_id, c.rater_id, r.name, c.token FROM campaign_raters c "
                                                  "JOIN raters r ON r.id = c.rater_id WHERE c.token = ?"));
    query.addBindValue(token);
    if (Status status = m_db.exec(query, QStringLiteral("find a rater's link")); !status)
        return status.error();
    if (!query.next())
        return std::optional<std::pair<qint64, CampaignRater>>();
    return std::optional<std::pair<qint64, CampaignRater>>(std::pair{
        query.value(0).toLongLong(),
        CampaignRater{query.value(1).toLongLong(), query.value(2).toString(), query.value(3).toString()}});
}

Result<std::vector<CampaignQueueItem>> CampaignRepository::queue(qint64 campaignId, qint64 raterId) {
    QSqlQuery query = m_db.prepare(QStringLiteral(
        "SELECT i.position, i.comparison_id, i.shown_order, i.gold, "
        "EXISTS (SELECT 1 FROM preferences p WHERE p.comparison_id = i.comparison_id AND p.rater_id = i.rater_id) "
        "FROM campaign_items i WHERE i.campaign_id = ? AND i.rater_id = ? ORDER BY i.position"));
    query.addBindValue(campaignId);
    query.addBindValue(raterId);
    if (Status status = m_db.exec(query, QStringLiteral("read a rater's queue")); !status)
        return status.error();
    std::vector<CampaignQueueItem> items;
    while (query.next())
        items.push_back({query.value(0).toInt(),
                         CampaignItem{query.value(1).toLongLong(), orderOf(query.value(2).toString()), query.value(3).toBool()},
                         query.value(4).toBool()});
    return items;
}

int CampaignProgress::complete() const {
    return static_cast<int>(std::count_if(comparisons.begin(), comparisons.end(),
                                          [](const Comparison& c) { return c.done == c.planned; }));
}

Result<CampaignProgress> CampaignRepository::progress(qint64 campaignId) {
    Result<std::vector<CampaignRater>> list = raters(campaignId);
    if (!list)
        return list.error();
    CampaignProgress progress;
    std::map<qint64, CampaignProgress::Comparison> perComparison;
    for (const CampaignRater& rater : list.value()) {
        Result<std::vector<CampaignQueueItem>> items = queue(campaignId, rater.raterId);
        if (!items)
            return items.error();
        CampaignProgress::Rater row{rater, 0, static_cast<int>(items->size())};
        for (const CampaignQueueItem& item : items.value()) {
            row.done += item.answered ? 1 : 0;
            if (item.item.gold)
                continue;
            CampaignProgress::Comparison& c = perComparison[item.item.comparisonId];
            c.comparisonId = item.item.comparisonId;
            ++c.planned;
            c.done += item.answered ? 1 : 0;
        }
        progress.raters.push_back(row);
    }
    for (const auto& [id, c] : perComparison)
        progress.comparisons.push_back(c);
    return progress;
}

} // namespace swb
