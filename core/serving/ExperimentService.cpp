#include "serving/ExperimentService.h"

#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>

#include "evaluation/Experiments.h"
#include "serving/ServeMetrics.h"
#include "storage/Database.h"

namespace swb {

namespace {

constexpr int kCommentLimit = 4000;

ApiError experimentNotFound(const QString& name) {
    return ApiError{404,
                    QStringLiteral("there is no experiment '%1' here").arg(name),
                    {},
                    QStringLiteral("invalid_request_error"),
                    QStringLiteral("experiment_not_found")};
}

ApiError badField(const QString& field, const QString& message) {
    return ApiError{400, QStringLiteral("field '%1' %2").arg(field, message), field};
}

Result<Strategy> armStrategy(const QJsonValue& value, const ExperimentService::NamedStrategy& named) {
    if (value.isObject())
        return Strategy::fromJson(value.toObject());
    if (!value.isString())
        return Error::badInput(QStringLiteral("must be a preset, a saved strategy's name or strategy JSON"));
    if (std::optional<Strategy> saved = named ? named(value.toString()) : std::nullopt)
        return *saved;
    return Strategy::parse(value.toString());
}

} // namespace

ExperimentService::ExperimentService(Database* database, ServeMetrics& metrics,
                                     std::function<void(const QJsonObject&)> log,
                                     std::function<Status(const Strategy&)> promote)
    : m_database(database)
    , m_metrics(metrics)
    , m_log(std::move(log))
    , m_promote(std::move(promote)) {
    if (m_database)
        if (Result<std::optional<ExperimentRecord>> running = ExperimentRepository(*m_database).running(); running)
            m_served = running.value();
}

std::function<std::optional<ExperimentAssignment>(const QString&)>
ExperimentService::assigner(const QString& headerUnit) const {
    if (!m_served || m_served->arms.empty())
        return {};
    return [experiment = *m_served, headerUnit](const QString& user) -> std::optional<ExperimentAssignment> {
        const QString unit = !user.isEmpty() ? user : headerUnit;
        const ExperimentArm& arm = experiment.arms[experiment.armFor(unit)];
        return ExperimentAssignment{experiment.id, experiment.name, arm.name, unit, arm.strategy};
    };
}

void ExperimentService::assigned(const ExperimentAssignment& assignment) {
    m_metrics.experiment(assignment.experiment, assignment.arm, ServeMetrics::ExperimentEvent::Request);
}

void ExperimentService::recordRun(qint64 runId, const QString& completionId, int choice,
                                  const std::optional<ExperimentAssignment>& assignment, double latencyMs) {
    if (!m_database)
        return;
    ServedRunRecord run;
    run.runId = runId;
    run.completionId = completionId;
    run.choice = choice;
    run.latencyMs = latencyMs;
    if (assignment) {
        run.experimentId = assignment->experimentId;
        run.arm = assignment->arm;
        run.unit = assignment->unit.isEmpty() ? completionId : assignment->unit; // else the request is the unit
    }
    if (Status status = ExperimentRepository(*m_database).recordServedRun(run); !status)
        m_log(QJsonObject{{QStringLiteral("id"), completionId}, {QStringLiteral("warning"), status.error().message}});
}

std::optional<ApiError> ExperimentService::needStore() const {
    if (m_database)
        return std::nullopt;
    return ApiError{
        400, QStringLiteral("experiments and feedback are kept in the run store: start swb serve with --db FILE"), {}};
}

ExperimentService::Answer ExperimentService::feedback(const QByteArray& body) {
    if (std::optional<ApiError> error = needStore())
        return *error;
    const QJsonObject json = QJsonDocument::fromJson(body).object();
    if (json.isEmpty())
        return ApiError{400,
                        QStringLiteral("the body must be a JSON object: {\"id\": a completion id, \"score\": 1-5 or "
                                       "\"thumbs\": \"up\"|\"down\"}"),
                        {}};
    static const QStringList known = {QStringLiteral("id"),     QStringLiteral("index"), QStringLiteral("score"),
                                      QStringLiteral("thumbs"), QStringLiteral("user"),  QStringLiteral("comment"),
                                      QStringLiteral("replace")};
    for (auto it = json.begin(); it != json.end(); ++it)
        if (!known.contains(it.key()))
            return badField(it.key(),
                            QStringLiteral("is not a feedback field (%1 are)").arg(known.join(QStringLiteral(", "))));
    const QString id = json.value(QLatin1String("id")).toString();
    if (id.isEmpty())
        return badField(QStringLiteral("id"), QStringLiteral("must be the id of a completion this server answered"));
    const QJsonValue indexValue = json.value(QLatin1String("index"));
    const double index = indexValue.isUndefined() ? 0.0 : indexValue.toDouble(-1.0);
    if (!indexValue.isUndefined() && (!indexValue.isDouble() || index < 0 || index > 127 || index != std::floor(index)))
        return badField(QStringLiteral("index"), QStringLiteral("must be the choice's index, a whole number from 0"));
    const bool hasScore = json.contains(QLatin1String("score"));
    const bool hasThumbs = json.contains(QLatin1String("thumbs"));
    if (hasScore == hasThumbs)
        return ApiError{400, QStringLiteral("give one of 'score' (1 to 5) and 'thumbs' (\"up\" or \"down\")"),
                        hasScore ? QStringLiteral("thumbs") : QStringLiteral("score")};
    QString metric;
    double value = 0.0;
    if (hasScore) {
        const QJsonValue score = json.value(QLatin1String("score"));
        value = score.toDouble(NAN);
        if (!score.isDouble() || value < 1 || value > 5 || value != std::floor(value))
            return badField(QStringLiteral("score"), QStringLiteral("must be a whole number from 1 to 5"));
        metric = QString::fromLatin1(ExperimentRecord::kScore);
    } else {
        const QString thumbs = json.value(QLatin1String("thumbs")).toString();
        if (thumbs != QLatin1String("up") && thumbs != QLatin1String("down"))
            return badField(QStringLiteral("thumbs"), QStringLiteral("must be \"up\" or \"down\""));
        metric = QString::fromLatin1(ExperimentRecord::kThumbs);
        value = thumbs == QLatin1String("up") ? 1.0 : 0.0;
    }
    const QJsonValue comment = json.value(QLatin1String("comment"));
    if (!comment.isUndefined() && (!comment.isString() || comment.toString().size() > kCommentLimit))
        return badField(QStringLiteral("comment"),
                        QStringLiteral("must be text of at most %1 characters").arg(kCommentLimit));
    const QJsonValue replace = json.value(QLatin1String("replace"));
    if (!replace.isUndefined() && !replace.isBool())
        return badField(QStringLiteral("replace"), QStringLiteral("must be true or false"));
    const QJsonValue user = json.value(QLatin1String("user"));
    if (!user.isUndefined() && !user.isString())
        return badField(QStringLiteral("user"), QStringLiteral("must be a string"));

    ExperimentRepository experiments(*m_database);
    Result<std::optional<ServedRunRecord>> served = experiments.servedRun(id, int(index));
    if (!served)
        return ApiError{500, served.error().message, {}, QStringLiteral("server_error")};
    if (!served.value())
        return ApiError{
            404,
            QStringLiteral("there is no completion '%1' (choice %2) in this server's run store: feedback is "
                           "taken on completions it answered and stored")
                .arg(id)
                .arg(int(index)),
            QStringLiteral("id"), QStringLiteral("invalid_request_error"), QStringLiteral("completion_not_found")};
    const ServedRunRecord run = *served.value();
    // The run's experiment: the served one as held, another (an earlier experiment's run) from the store.
    std::optional<ExperimentRecord> experiment;
    if (run.experimentId && m_served && m_served->id == *run.experimentId)
        experiment = m_served;
    else if (run.experimentId)
        if (Result<ExperimentRecord> loaded = experiments.get(*run.experimentId))
            experiment = std::move(loaded).value();
    if (experiment && experiment->metric != metric)
        return ApiError{400,
                        QStringLiteral("the experiment '%1' measures %2: send %3")
                            .arg(experiment->name, experiment->metric,
                                 experiment->metric == QLatin1String(ExperimentRecord::kThumbs)
                                     ? QStringLiteral("\"thumbs\": \"up\" or \"down\"")
                                     : QStringLiteral("\"score\": 1 to 5")),
                        metric};
    Result<std::optional<std::pair<QString, double>>> earlier = experiments.feedback(run.runId);
    if (!earlier)
        return ApiError{500, earlier.error().message, {}, QStringLiteral("server_error")};
    if (earlier.value() && !replace.toBool())
        return ApiError{
            409,
            QStringLiteral("the completion '%1' (choice %2) has feedback already; send \"replace\": true to "
                           "replace it")
                .arg(id)
                .arg(int(index)),
            QStringLiteral("id"), QStringLiteral("invalid_request_error"), QStringLiteral("feedback_exists")};
    if (Status status = experiments.saveFeedback(run.runId, metric, value, comment.toString()); !status)
        return ApiError{500, status.error().message, {}, QStringLiteral("server_error")};
    QJsonObject answer{{QStringLiteral("object"), QStringLiteral("feedback")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("index"), int(index)},
                       {QStringLiteral("run_id"), run.runId},
                       {metric, hasScore ? QJsonValue(value) : json.value(QLatin1String("thumbs"))},
                       {QStringLiteral("replaced"), earlier.value().has_value()}};
    if (experiment) {
        answer.insert(QStringLiteral("experiment"),
                      QJsonObject{{QStringLiteral("name"), experiment->name}, {QStringLiteral("arm"), run.arm}});
        m_metrics.experiment(experiment->name, run.arm, ServeMetrics::ExperimentEvent::Feedback);
        if (m_served && m_served->id == experiment->id)
            promoteIfDecided();
    }
    return answer;
}

void ExperimentService::promoteIfDecided() {
    if (!m_served || !m_served->autoPromote)
        return;
    Result<ExperimentAnalysis> analysis = loadExperimentAnalysis(*m_database, *m_served);
    if (!analysis || analysis->verdict != ExperimentAnalysis::Verdict::Winner)
        return;
    const ExperimentRecord experiment = *m_served;
    if (Status status = ExperimentRepository(*m_database).stop(experiment.id, analysis->winner); !status) {
        m_log(QJsonObject{{QStringLiteral("experiment"), experiment.name},
                          {QStringLiteral("warning"), status.error().message}});
        return;
    }
    m_served.reset();
    for (const ExperimentArm& arm : experiment.arms)
        if (arm.name == analysis->winner)
            if (Status promoted = m_promote(arm.strategy); !promoted)
                m_log(QJsonObject{{QStringLiteral("experiment"), experiment.name},
                                  {QStringLiteral("warning"), promoted.error().message}});
    m_metrics.experiment(experiment.name, analysis->winner, ServeMetrics::ExperimentEvent::Promotion);
    m_log(QJsonObject{{QStringLiteral("event"), QStringLiteral("promoted")},
                      {QStringLiteral("experiment"), experiment.name},
                      {QStringLiteral("arm"), analysis->winner},
                      {QStringLiteral("decision"), analysis->decision}});
}

ExperimentService::Answer ExperimentService::list() {
    QJsonArray data;
    if (m_database) {
        Result<std::vector<ExperimentRecord>> all = ExperimentRepository(*m_database).list();
        if (!all)
            return ApiError{500, all.error().message, {}, QStringLiteral("server_error")};
        for (const ExperimentRecord& experiment : all.value()) {
            Result<ExperimentAnalysis> analysis = loadExperimentAnalysis(*m_database, experiment);
            if (analysis)
                data.append(analysis->toJson());
        }
    }
    return QJsonObject{{QStringLiteral("object"), QStringLiteral("list")}, {QStringLiteral("data"), data}};
}

ExperimentService::Answer ExperimentService::get(const QString& name) {
    if (std::optional<ApiError> error = needStore())
        return *error;
    Result<std::optional<ExperimentRecord>> found = ExperimentRepository(*m_database).find(name);
    if (!found || !found.value())
        return experimentNotFound(name);
    Result<ExperimentAnalysis> analysis = loadExperimentAnalysis(*m_database, *found.value());
    if (!analysis)
        return ApiError{500, analysis.error().message, {}, QStringLiteral("server_error")};
    QJsonObject out = analysis->toJson();
    out.insert(QStringLiteral("served"), m_served && m_served->id == found.value()->id);
    return out;
}

ExperimentService::Answer ExperimentService::put(const QString& name, const QByteArray& body,
                                                 const NamedStrategy& named) {
    if (std::optional<ApiError> error = needStore())
        return *error;
    const QJsonObject json = QJsonDocument::fromJson(body).object();
    ExperimentRepository experiments(*m_database);
    if (json.size() == 1 && json.value(QLatin1String("state")) == QLatin1String("stopped")) {
        Result<std::optional<ExperimentRecord>> found = experiments.find(name);
        if (!found || !found.value())
            return experimentNotFound(name);
        if (found.value()->running)
            if (Status status = experiments.stop(found.value()->id, {}); !status)
                return ApiError{500, status.error().message, {}, QStringLiteral("server_error")};
        if (m_served && m_served->id == found.value()->id)
            m_served.reset();
        m_log(QJsonObject{{QStringLiteral("event"), QStringLiteral("stopped")}, {QStringLiteral("experiment"), name}});
        return get(name);
    }
    Result<ExperimentRecord> design = designFromJson(name, json, named);
    if (!design)
        return ApiError{400, design.error().message, {}};
    Result<ExperimentRecord> started = experiments.start(std::move(design).value());
    if (!started)
        return ApiError{started.error().kind == ErrorKind::BadInput ? 409 : 500, started.error().message, {}};
    m_served = started.value();
    QJsonArray arms;
    for (const ExperimentArm& arm : m_served->arms)
        arms.append(QStringLiteral("%1=%2").arg(arm.name, arm.strategy.hash().left(16)));
    m_log(QJsonObject{{QStringLiteral("event"), QStringLiteral("started")},
                      {QStringLiteral("experiment"), name},
                      {QStringLiteral("arms"), arms}});
    return get(name);
}

Result<ExperimentRecord> ExperimentService::designFromJson(const QString& name, const QJsonObject& body,
                                                           const NamedStrategy& named) {
    if (Status status = ExperimentRecord::checkName(name, QStringLiteral("the experiment name")); !status)
        return status.error();
    static const QStringList known = {QStringLiteral("arms"), QStringLiteral("metric"), QStringLiteral("auto_promote")};
    for (auto it = body.begin(); it != body.end(); ++it)
        if (!known.contains(it.key()))
            return Error::badInput(
                QStringLiteral("'%1' is not a field of an experiment (%2 are; {\"state\": \"stopped\"} "
                               "alone stops one)")
                    .arg(it.key(), known.join(QStringLiteral(", "))));
    ExperimentRecord experiment;
    experiment.name = name;
    experiment.metric = body.value(QLatin1String("metric")).toString(QString::fromLatin1(ExperimentRecord::kThumbs));
    if (experiment.metric != QLatin1String(ExperimentRecord::kThumbs) &&
        experiment.metric != QLatin1String(ExperimentRecord::kScore))
        return Error::badInput(
            QStringLiteral("an experiment's metric is \"thumbs\" or \"score\", not '%1'").arg(experiment.metric));
    const QJsonValue promote = body.value(QLatin1String("auto_promote"));
    if (!promote.isUndefined() && !promote.isBool())
        return Error::badInput(QStringLiteral("'auto_promote' must be true or false"));
    experiment.autoPromote = promote.toBool();
    const QJsonArray arms = body.value(QLatin1String("arms")).toArray();
    if (arms.size() < 2 || arms.size() > 8)
        return Error::badInput(
            QStringLiteral("an experiment has 2 to 8 arms: \"arms\": [{\"name\": \"A\", \"strategy\": "
                           "...}, {\"name\": \"B\", \"strategy\": ...}] (the first is the control)"));
    for (const QJsonValue& value : arms) {
        const QJsonObject arm = value.toObject();
        ExperimentArm out;
        out.name = arm.value(QLatin1String("name")).toString();
        if (Status status = ExperimentRecord::checkName(out.name, QStringLiteral("the arm name")); !status)
            return status.error();
        for (const ExperimentArm& earlier : experiment.arms)
            if (earlier.name == out.name)
                return Error::badInput(QStringLiteral("the arm name '%1' is given twice").arg(out.name));
        Result<Strategy> strategy = armStrategy(arm.value(QLatin1String("strategy")), named);
        if (!strategy)
            return Error::badInput(
                QStringLiteral("the strategy of arm '%1' is not valid: %2").arg(out.name, strategy.error().message));
        out.strategy = std::move(strategy).value();
        const QJsonValue weight = arm.value(QLatin1String("weight"));
        out.weight = weight.isUndefined() ? 1.0 : weight.toDouble(-1.0);
        if (!weight.isUndefined() && (!weight.isDouble() || !(out.weight > 0) || !std::isfinite(out.weight)))
            return Error::badInput(QStringLiteral("the weight of arm '%1' must be a number above 0").arg(out.name));
        experiment.arms.push_back(std::move(out));
    }
    return experiment;
}

} // namespace swb
