#pragma once

#include <optional>
#include <vector>

#include <QDateTime>
#include <QString>
#include <QStringList>

#include "Result.h"
#include "evaluation/Campaign.h"

namespace swb {

class Database;

// An anchor example of a campaign: a comparison shown to raters before they start, with its quality level
// and the rubric's guidance for it.
struct CampaignAnchor {
    qint64 comparisonId = 0;
    QString level; // high, medium, low
    QString guidance;
};

// An anchor as written on a command line or in the campaign dialog: COMPARISON_ID=high|medium|low[:GUIDANCE].
Result<CampaignAnchor> parseCampaignAnchor(const QString& text);

struct CampaignRecord {
    qint64 id = 0;
    QString name;
    qint64 rubricId = 0;
    CampaignPlan plan;
    QDateTime createdAt;
    std::vector<CampaignAnchor> anchors;
};

struct CampaignRater {
    qint64 raterId = 0;
    QString name;
    QString token; // the rater's link: /rate/TOKEN
};

// One item of a rater's stored queue, and whether it is answered (their preference on it exists).
struct CampaignQueueItem {
    int position = 0;
    CampaignItem item;
    bool answered = false;
};

// How far a campaign is: per rater, answers given of their queue; per comparison (gold ones aside), the
// ratings planned and given.
struct CampaignProgress {
    struct Rater {
        CampaignRater rater;
        int done = 0;
        int total = 0;
    };
    struct Comparison {
        qint64 comparisonId = 0;
        int planned = 0;
        int done = 0;
    };
    std::vector<Rater> raters;
    std::vector<Comparison> comparisons; // by id
    int complete() const; // comparisons with every planned rating given
};

// Campaigns in the run store: created whole (queues dealt by assignCampaign, a token per rater) in one
// transaction; a rater's queue read by token.
class CampaignRepository {
public:
    explicit CampaignRepository(Database& database)
        : m_db(database) {}

    // Creates the campaign over every comparison of the store that is neither gold nor an anchor (gold ones
    // mixed in as plan.goldShare asks); raters by name (created when new); rubricId 0 for the default rubric
    // (saved in the same transaction when the store has none). Nothing is written when it cannot: one
    // sentence says why.
    Result<CampaignRecord> create(const QString& name, qint64 rubricId, const QStringList& raters,
                                  const CampaignPlan& plan, const std::vector<CampaignAnchor>& anchors);
    Result<std::optional<CampaignRecord>> find(const QString& name);
    Result<std::optional<CampaignRecord>> load(qint64 id);
    Result<std::vector<CampaignRecord>> list();
    Result<std::vector<CampaignRater>> raters(qint64 campaignId);
    // The campaign and rater a link token opens; nullopt for a token no campaign has.
    Result<std::optional<std::pair<qint64, CampaignRater>>> byToken(const QString& token);
    Result<std::vector<CampaignQueueItem>> queue(qint64 campaignId, qint64 raterId);
    Result<CampaignProgress> progress(qint64 campaignId);

private:
    Database& m_db;
};

} // namespace swb
