#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <QDateTime>
#include <QString>
#include <QStringList>

#include "Result.h"

namespace swb {

class Database;

// How a campaign is dealt (evaluation/Campaign.h deals it) and the queues it gives, as stored.
struct CampaignPlan {
    int ratingsPerItem = 3;  // distinct raters per comparison (the evaluation guide asks for at least 3)
    double goldShare = 0.10; // share of each rater's queue that is gold questions
    std::uint64_t seed = 0;
};

// One item of a rater's queue: a comparison, the order its outputs are shown in (indices into the
// comparison's entries; the rater's own blind labels A, B, ... follow it), and whether it is gold.
struct CampaignItem {
    qint64 comparisonId = 0;
    std::vector<int> shownOrder;
    bool gold = false;
};

struct RaterQueue {
    QString rater;
    std::vector<CampaignItem> items; // in the order the rater sees them
};

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

// Campaigns in the run store: saved whole (the queues as dealt, a token per rater) in one transaction; a
// rater's queue read by token.
class CampaignRepository {
public:
    explicit CampaignRepository(Database& database)
        : m_db(database) {}

    // Saves a campaign whose queues are dealt (workflows/CampaignSetup.h checks and deals them): raters by
    // name (created when new), a link token each; rubricId 0 for the default rubric (saved in the same
    // transaction when the store has none). All or nothing.
    Result<CampaignRecord> save(const QString& name, qint64 rubricId, const CampaignPlan& plan,
                                const std::vector<RaterQueue>& queues, const std::vector<CampaignAnchor>& anchors);
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
