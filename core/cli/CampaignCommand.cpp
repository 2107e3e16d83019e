// swb campaign create|status: rating campaigns in the run store (who rates what, their links, progress).

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "cli/RunStoreArgument.h"
#include "cli/Subcommand.h"
#include "evaluation/Campaign.h"
#include "storage/CampaignRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "workflows/CampaignSetup.h"

namespace swb::cli {

namespace {

QJsonObject linksJson(Database& database, const CampaignRecord& campaign) {
    Result<CampaignProgress> progress = CampaignRepository(database).progress(campaign.id);
    if (!progress)
        failBadInput(progress.error().message);
    QJsonArray raterRows;
    for (const CampaignProgress::Rater& r : progress->raters)
        raterRows.append(QJsonObject{{QStringLiteral("rater"), r.rater.name},
                                     {QStringLiteral("link"), QStringLiteral("/rate/") + r.rater.token},
                                     {QStringLiteral("done"), r.done},
                                     {QStringLiteral("total"), r.total}});
    QJsonArray comparisonRows;
    for (const CampaignProgress::Comparison& c : progress->comparisons)
        comparisonRows.append(QJsonObject{{QStringLiteral("comparison_id"), c.comparisonId},
                                          {QStringLiteral("ratings_planned"), c.planned},
                                          {QStringLiteral("ratings_done"), c.done}});
    return QJsonObject{{QStringLiteral("campaign"), campaign.name},
                       {QStringLiteral("ratings_per_output"), campaign.plan.ratingsPerItem},
                       {QStringLiteral("gold_share"), campaign.plan.goldShare},
                       {QStringLiteral("comparisons"), static_cast<int>(progress->comparisons.size())},
                       {QStringLiteral("comparisons_complete"), progress->complete()},
                       {QStringLiteral("raters"), raterRows},
                       {QStringLiteral("per_comparison"), comparisonRows}};
}

int runCampaign(const Invocation& call) {
    const QStringList positional = call.args.positionalArguments();
    const QString action = positional.value(0);
    if (action != QLatin1String("create") && action != QLatin1String("status"))
        failBadInput(QStringLiteral("swb campaign takes create or status, not '%1'").arg(action));
    const QString name = call.required(QStringLiteral("name"));
    std::unique_ptr<Database> database = openExistingRunStore(call.required(QStringLiteral("db")),
                                                              action == QLatin1String("status") ? Database::Access::ReadOnly
                                                                                                : Database::Access::ReadWrite);
    CampaignRepository campaigns(*database);
    if (action == QLatin1String("status")) {
        Result<std::optional<CampaignRecord>> found = campaigns.find(name);
        if (!found)
            failBadInput(found.error().message);
        if (!found.value())
            failBadInput(QStringLiteral("%1 has no campaign named '%2'").arg(database->path(), name));
        call.out << QJsonDocument(linksJson(*database, *found.value())).toJson(QJsonDocument::Compact) << '\n';
        return 0;
    }
    CampaignPlan plan;
    plan.ratingsPerItem = static_cast<int>(call.integer(QStringLiteral("ratings-per-output"), 3, 1, 100));
    plan.goldShare = call.real(QStringLiteral("gold-share"), 0.10);
    plan.seed = static_cast<std::uint64_t>(call.integer(QStringLiteral("seed"), 0, 0, std::numeric_limits<long long>::max()));
    QStringList raters; // as the campaign will hold them: trimmed, distinct
    for (const QString& r : call.required(QStringLiteral("raters")).split(QLatin1Char(',')))
        if (!r.trimmed().isEmpty() && !raters.contains(r.trimmed()))
            raters << r.trimmed();
    if (Status status = checkCampaignPlan(raters, plan); !status)
        failBadInput(status.error().message);
    RatingRepository ratings(*database);
    qint64 rubricId = 0; // the default rubric, made with the campaign if the store has none: nothing is
                         // written before every check has passed
    if (call.args.isSet(QStringLiteral("rubric"))) {
        Result<std::optional<Rubric>> named = ratings.findRubric(call.args.value(QStringLiteral("rubric")));
        if (!named)
            failBadInput(named.error().message);
        if (!named.value())
            failBadInput(QStringLiteral("%1 has no rubric named '%2'").arg(database->path(), call.args.value(QStringLiteral("rubric"))));
        rubricId = named.value()->id;
    }
    std::vector<CampaignAnchor> anchors;
    for (const QString& a : call.args.values(QStringLiteral("anchor"))) {
        Result<CampaignAnchor> anchor = parseCampaignAnchor(a);
        if (!anchor)
            failBadInput(QStringLiteral("--anchor: %1").arg(anchor.error().message));
        anchors.push_back(anchor.value());
    }
    Result<CampaignRecord> created = createCampaign(*database, name, rubricId, raters, plan, anchors);
    if (!created)
        failBadInput(created.error().message);
    call.out << QJsonDocument(linksJson(*database, created.value())).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

Subcommand campaignSubcommand() {
    return {QStringLiteral("campaign"),
            QStringLiteral("swb campaign create --db FILE --name NAME --raters A,B,C [--ratings-per-output 3] "
                           "[--gold-share 0.1] [--seed S] [--rubric NAME] [--anchor ID=LEVEL[:GUIDANCE]]... | "
                           "swb campaign status --db FILE --name NAME"),
            QStringLiteral("Create a rating campaign over the store's comparisons (each output rated by distinct raters, "
                           "even loads, gold mixed in) with a link per rater, or show its progress."),
            [](QCommandLineParser& parser) {
                parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("create or status"));
                parser.addOptions({
                    {QStringLiteral("db"), QStringLiteral("Run store file."), QStringLiteral("FILE")},
                    {QStringLiteral("name"), QStringLiteral("The campaign."), QStringLiteral("NAME")},
                    {QStringLiteral("raters"), QStringLiteral("create: the raters, comma separated."), QStringLiteral("A,B,C")},
                    {QStringLiteral("ratings-per-output"), QStringLiteral("create: distinct raters per comparison (default 3)."),
                     QStringLiteral("N")},
                    {QStringLiteral("gold-share"), QStringLiteral("create: share of each queue that is gold comparisons (default 0.1)."),
                     QStringLiteral("X")},
                    {QStringLiteral("seed"), QStringLiteral("create: seed of the assignment and orders (default 0)."), QStringLiteral("S")},
                    {QStringLiteral("rubric"), QStringLiteral("create: the rubric (default 'default')."), QStringLiteral("NAME")},
                    {QStringLiteral("anchor"),
                     QStringLiteral("create: an anchor example shown before rating: COMPARISON_ID=high|medium|low[:GUIDANCE]."),
                     QStringLiteral("ANCHOR")},
                });
            },
            runCampaign};
}

} // namespace swb::cli
