#pragma once

// Who rates what in a rating campaign: every output gets the planned number of independent raters, loads
// are even, gold questions are mixed in unmarked, and each rater has their own order and blind labels.

#include <cstdint>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "storage/CampaignRepository.h"

namespace swb {

// The comparisons to rate (each with its number of outputs) and the gold comparisons (known answers).
struct CampaignComparison {
    qint64 id = 0;
    int outputs = 2;
};

// Whether a plan can be met by these raters at all (checked before anything is saved): at least one rating
// per output, no fewer raters than ratings per output, a gold share in [0, 1).
Status checkCampaignPlan(const QStringList& raters, const CampaignPlan& plan);

// Assigns every comparison to plan.ratingsPerItem distinct raters, spreading the work so that the raters'
// loads (without gold) differ by at most one: the comparisons in a seeded random order, dealt round-robin
// over the raters in a seeded random order. Each rater then gets round(load * share / (1 - share)) gold
// comparisons (distinct; at most as many as there are), inserted at seeded random positions, and their own
// shuffle of the queue and of each comparison's outputs. One sentence when the plan cannot be met: fewer
// raters than ratings per item, no comparison, a share outside [0, 1), gold wanted but none given, a
// comparison both to be rated and gold.
Result<std::vector<RaterQueue>> assignCampaign(const std::vector<CampaignComparison>& comparisons,
                                               const std::vector<CampaignComparison>& gold, const QStringList& raters,
                                               const CampaignPlan& plan);

} // namespace swb
