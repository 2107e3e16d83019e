#include "workflows/CampaignSetup.h"

#include <QSet>

#include "evaluation/Campaign.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"

namespace swb {

Result<CampaignRecord> createCampaign(Database& database, const QString& name, qint64 rubricId,
                                      const QStringList& raters, const CampaignPlan& plan,
                                      const std::vector<CampaignAnchor>& anchors) {
    CampaignRepository campaigns(database);
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return Error::badInput(QStringLiteral("a campaign needs a name"));
    Result<std::optional<CampaignRecord>> existing = campaigns.find(trimmed);
    if (!existing)
        return existing.error();
    if (existing.value())
        return Error::badInput(QStringLiteral("%1 already has a campaign named '%2'").arg(database.path(), trimmed));
    QStringList names;
    for (const QString& r : raters)
        if (!r.trimmed().isEmpty() && !names.contains(r.trimmed()))
            names << r.trimmed();
    Result<std::vector<ComparisonRecord>> comparisons = ComparisonRepository(database).listComparisons();
    if (!comparisons)
        return comparisons.error();
    QSet<qint64> anchorIds;
    for (const CampaignAnchor& a : anchors) {
        if (a.level != QLatin1String("high") && a.level != QLatin1String("medium") && a.level != QLatin1String("low"))
            return Error::badInput(QStringLiteral("an anchor's level is high, medium or low, not '%1'").arg(a.level));
        anchorIds.insert(a.comparisonId);
    }
    std::vector<CampaignComparison> items, gold;
    QSet<qint64> known;
    for (const ComparisonRecord& c : comparisons.value()) {
        known.insert(c.id);
        if (anchorIds.contains(c.id))
            continue;
        (c.isGold ? gold : items).push_back({c.id, static_cast<int>(c.entries.size())});
    }
    for (qint64 id : anchorIds)
        if (!known.contains(id))
            return Error::badInput(QStringLiteral("anchor comparison %1 is not in %2").arg(id).arg(database.path()));
    Result<std::vector<RaterQueue>> queues = assignCampaign(items, gold, names, plan);
    if (!queues)
        return queues.error();
    return campaigns.save(trimmed, rubricId, plan, queues.value(), anchors);
}

} // namespace swb
