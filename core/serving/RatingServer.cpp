#include "serving/RatingServer.h"

#include <cmath>

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "RatePage.h"
#include "serving/HttpServer.h"
#include "storage/CampaignRepository.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "storage/RunRepository.h"

namespace swb {

namespace {

constexpr int kMaxNote = 4000; // characters of a rater's note

QByteArray json(const QJsonObject& object) {
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

QByteArray errorBody(const QString& message) {
    return json({{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message}}}});
}

struct Answer {
    int status = 200;
    QByteArray body;
};

} // namespace

class RatingServer::Impl {
public:
    Impl(std::unique_ptr<Database> database, std::function<void(const QByteArray&)> log)
        : m_database(std::move(database))
        , m_log(std::move(log))
        , m_http([this](const HttpRequest& r, HttpExchange& e) { handle(r, e); },
                 [](int, const QByteArray& message) { return errorBody(QString::fromUtf8(message)); },
                 HttpLimits{256 * 1024}) {}

    void handle(const HttpRequest& request, HttpExchange& exchange) {
        QElapsedTimer timer;
        timer.start();
        const QString path = QString::fromUtf8(request.path);
        QString rater;
        Answer answer = route(request, path, &rater);
        const bool page = path.startsWith(QLatin1String("/rate/")) && (answer.status == 200 || answer.status == 403);
        exchange.respond(answer.status, page ? "text/html; charset=utf-8" : "application/json", answer.body,
                         {{"Cache-Control", "no-store"}});
        if (m_log)
            m_log(json({{QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                        {QStringLiteral("method"), QString::fromUtf8(request.method)},
                        // the rater, never the token: a log must not hand out links
                        {QStringLiteral("endpoint"), path.startsWith(QLatin1String("/rate/")) ? QStringLiteral("/rate")
                                                     : path.endsWith(QLatin1String("/answer")) ? QStringLiteral("/api/rate/answer")
                                                     : path.startsWith(QLatin1String("/api/rate/")) ? QStringLiteral("/api/rate")
                                                                                                    : path},
                        {QStringLiteral("rater"), rater},
                        {QStringLiteral("status"), answer.status},
                        {QStringLiteral("ms"), static_cast<double>(timer.nsecsElapsed()) / 1e6}}));
    }

    Answer route(const HttpRequest& request, const QString& path, QString* raterName) {
        if (path == QLatin1String("/health"))
            return {200, json({{QStringLiteral("status"), QStringLiteral("ok")}})};
        const bool page = path.startsWith(QLatin1String("/rate/"));
        const bool api = path.startsWith(QLatin1String("/api/rate/"));
        if (!page && !api)
            return {404, errorBody(QStringLiteral("there is no %1 here").arg(path))};
        QString rest = path.mid(page ? 6 : 10);
        const bool answering = api && rest.endsWith(QLatin1String("/answer"));
        if (answering)
            rest.chop(7);
        CampaignRepository campaigns(*m_database);
        Result<std::optional<std::pair<qint64, CampaignRater>>> found = campaigns.byToken(rest);
        if (!found)
            return {503, errorBody(found.error().message)};
        if (!found.value())
            return {403, page ? QByteArray("<!doctype html><meta charset=utf-8><title>Not a rating link</title>"
                                           "<p>This link opens no rating queue. Ask the campaign's owner for yours.")
                              : errorBody(QStringLiteral("this link opens no rating queue"))};
        const auto& [campaignId, rater] = *found.value();
        *raterName = rater.name;
        const QByteArray expected = answering ? "POST" : "GET";
        if (request.method != expected)
            return {405, errorBody(QStringLiteral("%1 takes %2").arg(path, QString::fromLatin1(expected)))};
        if (page)
            return {200, QByteArray(kRatePage)};
        if (answering)
            return save(campaignId, rater, request.body);
        Result<QJsonObject> state = stateOf(campaignId, rater);
        if (!state)
            return {503, errorBody(state.error().message)};
        return {200, json(state.value())};
    }

    Result<Rubric> rubricOf(qint64 campaignId, CampaignRecord* record) {
        Result<std::optional<CampaignRecord>> campaign = CampaignRepository(*m_database).load(campaignId);
        if (!campaign)
            return campaign.error();
        if (!campaign.value())
            return Error::badInput(QStringLiteral("the campaign is gone"));
        *record = *campaign.value();
        Result<std::vector<Rubric>> rubrics = RatingRepository(*m_database).listRubrics();
        if (!rubrics)
            return rubrics.error();
        for (const Rubric& r : rubrics.value())
            if (r.id == record->rubricId)
                return r;
        return Error::badInput(QStringLiteral("the campaign's rubric is gone"));
    }

    // The outputs of a comparison in the given order, labelled A, B, ...
    Result<QJsonArray> outputsOf(const ComparisonRecord& comparison, const std::vector<int>& order) {
        QJsonArray outputs;
        RunRepository runs(*m_database);
        for (std::size_t i = 0; i < order.size(); ++i) {
            const auto entry = static_cast<std::size_t>(order[i]);
            if (entry >= comparison.entries.size())
                return Error::badInput(QStringLiteral("comparison %1 changed since the campaign began").arg(comparison.id));
            Result<RunRecord> run = runs.loadRun(comparison.entries[entry].runId, false);
            if (!run)
                return run.error();
            outputs.append(QJsonObject{{QStringLiteral("label"), ComparisonRecord::labelAt(static_cast<int>(i))},
                                       {QStringLiteral("text"), run->text}});
        }
        return outputs;
    }

    Result<QJsonObject> stateOf(qint64 campaignId, const CampaignRater& rater) {
        CampaignRecord campaign;
        Result<Rubric> rubric = rubricOf(campaignId, &campaign);
        if (!rubric)
            return rubric.error();
        QJsonArray dimensions;
        for (const RubricDimension& d : rubric->dimensions)
            dimensions.append(QJsonObject{{QStringLiteral("name"), d.name}, {QStringLiteral("min"), d.min}, {QStringLiteral("max"), d.max}});
        ComparisonRepository comparisons(*m_database);
        RatingRepository ratings(*m_database);
        QJsonArray anchors;
        for (const CampaignAnchor& a : campaign.anchors) {
            Result<ComparisonRecord> comparison = comparisons.loadComparison(a.comparisonId);
            if (!comparison)
                return comparison.error();
            std::vector<int> order(comparison->entries.size());
            for (std::size_t i = 0; i < order.size(); ++i)
                order[i] = static_cast<int>(i);
            Result<QJsonArray> outputs = outputsOf(comparison.value(), order);
            if (!outputs)
                return outputs.error();
            anchors.append(QJsonObject{{QStringLiteral("level"), a.level},
                                       {QStringLiteral("guidance"), a.guidance},
                                       {QStringLiteral("prompt"), comparison->promptText},
                                       {QStringLiteral("outputs"), outputs.value()}});
        }
        Result<std::vector<CampaignQueueItem>> queue = CampaignRepository(*m_database).queue(campaignId, rater.raterId);
        if (!queue)
            return queue.error();
        QJsonArray items;
        int done = 0;
        for (const CampaignQueueItem& q : queue.value()) {
            Result<ComparisonRecord> comparison = comparisons.loadComparison(q.item.comparisonId);
            if (!comparison)
                return comparison.error();
            Result<QJsonArray> outputs = outputsOf(comparison.value(), q.item.shownOrder);
            if (!outputs)
                return outputs.error();
            QJsonObject item{{QStringLiteral("position"), q.position},
                             {QStringLiteral("prompt"), comparison->promptText},
                             {QStringLiteral("outputs"), outputs.value()}};
            if (q.answered) {
                ++done;
                Result<std::optional<PreferenceRecord>> preference = ratings.preference(q.item.comparisonId, rater.raterId);
                if (!preference)
                    return preference.error();
                QJsonObject scores;
                QString chosen = preference.value() ? PreferenceRecord::winnerName(preference.value()->winner) : QString();
                for (std::size_t i = 0; i < q.item.shownOrder.size(); ++i) {
                    const ComparisonRecord::Entry& entry = comparison->entries[static_cast<std::size_t>(q.item.shownOrder[i])];
                    if (preference.value() && preference.value()->winnerSlot == entry.slot)
                        chosen = ComparisonRecord::labelAt(static_cast<int>(i));
                    Result<std::vector<RatingRecord>> given = ratings.ratingsOfRun(entry.runId);
                    if (!given)
                        return given.error();
                    QJsonObject own;
                    for (const RatingRecord& r : given.value())
                        if (r.raterId == rater.raterId)
                            own.insert(r.dimension, r.score);
                    scores.insert(ComparisonRecord::labelAt(static_cast<int>(i)), own);
                }
                item.insert(QStringLiteral("answer"),
                            QJsonObject{{QStringLiteral("scores"), scores},
                                        {QStringLiteral("preference"), chosen},
                                        {QStringLiteral("note"), preference.value() ? preference.value()->note : QString()}});
            }
            items.append(item);
        }
        return QJsonObject{{QStringLiteral("rater"), rater.name},
                           {QStringLiteral("campaign"), campaign.name},
                           {QStringLiteral("rubric"), dimensions},
                           {QStringLiteral("anchors"), anchors},
                           {QStringLiteral("items"), items},
                           {QStringLiteral("done"), done},
                           {QStringLiteral("total"), static_cast<int>(queue->size())}};
    }

    Answer save(qint64 campaignId, const CampaignRater& rater, const QByteArray& body) {
        const auto bad = [](const QString& message) { return Answer{400, errorBody(message)}; };
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
        if (parseError.error != QJsonParseError::NoError || !document.isObject())
            return bad(QStringLiteral("the answer is not a JSON object"));
        const QJsonObject answer = document.object();
        CampaignRecord campaign;
        Result<Rubric> rubric = rubricOf(campaignId, &campaign);
        if (!rubric)
            return {503, errorBody(rubric.error().message)};
        Result<std::vector<CampaignQueueItem>> queue = CampaignRepository(*m_database).queue(campaignId, rater.raterId);
        if (!queue)
            return {503, errorBody(queue.error().message)};
        const QJsonValue position = answer.value(QLatin1String("position"));
        const auto item = std::find_if(queue->begin(), queue->end(), [&](const CampaignQueueItem& q) {
            return position.isDouble() && position.toDouble() == q.position;
        });
        if (item == queue->end())
            return bad(QStringLiteral("'position' must be the position of an item in this queue (0 to %1)")
                           .arg(static_cast<int>(queue->size()) - 1));
        Result<ComparisonRecord> comparison = ComparisonRepository(*m_database).loadComparison(item->item.comparisonId);
        if (!comparison)
            return {503, errorBody(comparison.error().message)};
        for (int entry : item->item.shownOrder)
            if (entry < 0 || static_cast<std::size_t>(entry) >= comparison->entries.size())
                return {409, errorBody(QStringLiteral("comparison %1 changed since the campaign began (a run of it was "
                                                      "deleted); this item cannot be answered")
                                           .arg(comparison->id))};
        const QJsonObject scores = answer.value(QLatin1String("scores")).toObject();
        std::vector<RatingRecord> ratings;
        for (std::size_t i = 0; i < item->item.shownOrder.size(); ++i) {
            const QString label = ComparisonRecord::labelAt(static_cast<int>(i));
            const QJsonObject own = scores.value(label).toObject();
            for (const RubricDimension& d : rubric->dimensions) {
                const QJsonValue score = own.value(d.name);
                // Whole numbers, as the page's fields and the desktop's spin boxes take them (1.5 was stored as is).
                if (!score.isDouble() || score.toDouble() < d.min || score.toDouble() > d.max ||
                    score.toDouble() != std::floor(score.toDouble()))
                    return bad(QStringLiteral("'scores.%1.%2' must be a whole number from %3 to %4")
                                   .arg(label, d.name)
                                   .arg(d.min)
                                   .arg(d.max));
                RatingRecord rating;
                rating.runId = comparison->entries[static_cast<std::size_t>(item->item.shownOrder[i])].runId;
                rating.raterId = rater.raterId;
                rating.dimension = d.name;
                rating.score = score.toDouble();
                ratings.push_back(rating);
            }
        }
        const QString chosen = answer.value(QLatin1String("preference")).toString();
        PreferenceRecord preference;
        preference.comparisonId = comparison->id;
        preference.raterId = rater.raterId;
        preference.note = answer.value(QLatin1String("note")).toString();
        if (preference.note.size() > kMaxNote) // refused, not cut while the page says "Saved."
            return bad(QStringLiteral("'note' is %1 characters long; a note holds at most %2")
                           .arg(preference.note.size())
                           .arg(kMaxNote));
        if (chosen == QLatin1String("tie") || chosen == QLatin1String("bothbad")) {
            preference.winner = *PreferenceRecord::winnerFromName(chosen);
        } else {
            preference.winner = PreferenceWinner::Slot;
            for (std::size_t i = 0; i < item->item.shownOrder.size(); ++i)
                if (ComparisonRecord::labelAt(static_cast<int>(i)) == chosen)
                    preference.winnerSlot = comparison->entries[static_cast<std::size_t>(item->item.shownOrder[i])].slot;
            if (!preference.winnerSlot)
                return bad(QStringLiteral("'preference' must be one of the labels shown, 'tie' or 'bothbad'"));
        }
        // One transaction: the scores and the preference together, or nothing. Upserts: sent twice, stored once.
        RatingRepository repository(*m_database);
        Database::Transaction transaction(*m_database);
        if (Status status = transaction.begin(); !status)
            return {503, errorBody(status.error().message)};
        for (RatingRecord& rating : ratings)
            if (Status status = repository.saveRating(rating, rubric.value()); !status)
                return {503, errorBody(status.error().message)};
        if (Status status = repository.savePreference(preference); !status)
            return {503, errorBody(status.error().message)};
        if (Status status = transaction.commit(); !status)
            return {503, errorBody(status.error().message)};
        int done = 0;
        for (const CampaignQueueItem& q : queue.value())
            done += q.answered || q.position == item->position ? 1 : 0;
        return {200, json({{QStringLiteral("done"), done}, {QStringLiteral("total"), static_cast<int>(queue->size())}})};
    }

    std::unique_ptr<Database> m_database;
    std::function<void(const QByteArray&)> m_log;
    HttpServer m_http;
};

RatingServer::RatingServer(std::unique_ptr<Database> database, std::function<void(const QByteArray&)> log)
    : m_impl(std::make_unique<Impl>(std::move(database), std::move(log))) {}

RatingServer::~RatingServer() = default;

Result<quint16> RatingServer::listen(const QHostAddress& address, quint16 port) {
    return m_impl->m_http.listen(address, port);
}

void RatingServer::stopListening() {
    m_impl->m_http.stopListening();
}

int RatingServer::requestsInFlight() const {
    return m_impl->m_http.exchangesInFlight();
}

} // namespace swb
