#pragma once

// Setting up a rating campaign: the checks, the deal (evaluation/Campaign.h) and the save (storage).

#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "storage/CampaignRepository.h"

namespace swb {

class Database;

// Creates a campaign over every comparison of the store that is neither gold nor an anchor (gold ones mixed
// in as plan.goldShare asks); raters by name (blank and repeated names dropped), rubricId 0 for the default
// rubric. Nothing is written when it cannot be made: one sentence says why (an empty or taken name, an
// anchor's level or comparison, a plan the raters cannot meet).
Result<CampaignRecord> createCampaign(Database& database, const QString& name, qint64 rubricId,
                                      const QStringList& raters, const CampaignPlan& plan,
                                      const std::vector<CampaignAnchor>& anchors);

} // namespace swb
