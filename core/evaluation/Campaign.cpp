#include "evaluation/Campaign.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "Rng.h"

namespace swb {

namespace {

// Fisher-Yates with our generator (the same order on every platform).
template <typename T>
void shuffle(std::vector<T>& values, Pcg64& rng) {
    for (std::size_t i = values.size(); i > 1; --i)
        std::swap(values[i - 1], values[static_cast<std::size_t>(rng.next() % i)]);
}

std::vector<int> shownOrder(int outputs, Pcg64& rng) {
    std::vector<int> order(static_cast<std::size_t>(std::max(outputs, 0)));
    std::iota(order.begin(), order.end(), 0);
    shuffle(order, rng);
    return order;
}

} // namespace

Status checkCampaignPlan(const QStringList& raters, const CampaignPlan& plan) {
    if (plan.ratingsPerItem < 1)
        return Error::badInput(QStringLiteral("ratings per output must be at least 1, not %1").arg(plan.ratingsPerItem));
    if (raters.size() < plan.ratingsPerItem)
        return Error::badInput(QStringLiteral("%1 ratings per output need at least %1 raters; the campaign has %2")
                                   .arg(plan.ratingsPerItem)
                                   .arg(raters.size()));
    if (!(plan.goldShare >= 0.0 && plan.goldShare < 1.0))
        return Error::badInput(QStringLiteral("the gold share must be at least 0 and below 1, not %1").arg(plan.goldShare));
    return {};
}

Result<std::vector<RaterQueue>> assignCampaign(const std::vector<CampaignComparison>& comparisons,
                                               const std::vector<CampaignComparison>& gold, const QStringList& raters,
                                               const CampaignPlan& plan) {
    if (comparisons.empty())
        return Error::badInput(QStringLiteral("the campaign has no comparison to rate"));
    if (Status status = checkCampaignPlan(raters, plan); !status)
        return status.error();
    if (plan.goldShare > 0.0 && gold.empty())
        return Error::badInput(QStringLiteral("a gold share of %1% needs gold comparisons; mark some as gold first")
                                   .arg(plan.goldShare * 100.0, 0, 'g', 3));
    for (const CampaignComparison& g : gold)
        if (std::any_of(comparisons.begin(), comparisons.end(), [&](const CampaignComparison& c) { return c.id == g.id; }))
            return Error::badInput(QStringLiteral("comparison %1 is both to be rated and a gold question").arg(g.id));
    Pcg64 rng(plan.seed, 0x63616d70); // "camp"
    std::vector<CampaignComparison> order = comparisons;
    shuffle(order, rng);
    std::vector<int> raterOrder(static_cast<std::size_t>(raters.size()));
    std::iota(raterOrder.begin(), raterOrder.end(), 0);
    shuffle(raterOrder, rng);

    std::vector<RaterQueue> queues(static_cast<std::size_t>(raters.size()));
    for (qsizetype r = 0; r < raters.size(); ++r)
        queues[static_cast<std::size_t>(r)].rater = raters[r];
    // Deal (comparison, copy) pairs in turn: consecutive deals go to consecutive raters, so the copies of one
    // comparison land on ratingsPerItem different raters (ratingsPerItem <= raters) and loads differ by one.
    std::size_t deal = 0;
    for (const CampaignComparison& c : order)
        for (int copy = 0; copy < plan.ratingsPerItem; ++copy, ++deal) {
            const auto rater = static_cast<std::size_t>(raterOrder[deal % raterOrder.size()]);
            queues[rater].items.push_back({c.id, {}, false});
            queues[rater].items.back().shownOrder.resize(static_cast<std::size_t>(c.outputs));
        }

    std::size_t nextGold = 0;
    std::vector<CampaignComparison> goldOrder = gold;
    shuffle(goldOrder, rng);
    for (std::size_t r = 0; r < queues.size(); ++r) {
        RaterQueue& queue = queues[r];
        Pcg64 own(plan.seed, 0x72617465ULL + r); // the rater's own order and labels
        const auto load = static_cast<double>(queue.items.size());
        // Distinct gold comparisons for one rater: never more than the gold set holds.
        const auto golds = std::min(static_cast<std::size_t>(std::lround(load * plan.goldShare / (1.0 - plan.goldShare))),
                                    goldOrder.size());
        for (std::size_t g = 0; g < golds; ++g, ++nextGold) {
            const CampaignComparison& c = goldOrder[nextGold % goldOrder.size()];
            queue.items.push_back({c.id, std::vector<int>(static_cast<std::size_t>(c.outputs)), true});
        }
        shuffle(queue.items, own);
        for (CampaignItem& item : queue.items)
            item.shownOrder = shownOrder(static_cast<int>(item.shownOrder.size()), own);
    }
    return queues;
}

} // namespace swb
