#pragma once

#include <functional>
#include <optional>
#include <variant>

#include <QJsonObject>
#include <QString>

#include "serving/OpenAiApi.h"
#include "storage/ExperimentRepository.h"

namespace swb {

class Database;
class ServeMetrics;

// swb serve's online experiments (see README "Experiments"): the served experiment and its assignment of
// requests to arms, the record of each served run under its completion id, users' feedback on completions,
// the experiments' state over HTTP, and the promotion of a winning arm. Lives on the server's thread; its
// answers are JSON objects or OpenAI error objects.
class ExperimentService {
public:
    using Answer = std::variant<QJsonObject, ApiError>;
    using NamedStrategy = std::function<std::optional<Strategy>(const QString&)>;

    // database may be null: then nothing is recorded and the endpoints say the run store is needed.
    // promote makes a strategy the server's default (saved as such in the store).
    ExperimentService(Database* database, ServeMetrics& metrics, std::function<void(const QJsonObject&)> log,
                      std::function<Status(const Strategy&)> promote);

    const std::optional<ExperimentRecord>& served() const { return m_served; }
    // The assignment of a request with this X-Experiment-Unit header (empty when none) and `user`; null when
    // no experiment is served. Safe to call on any thread (it holds a copy of the experiment).
    std::function<std::optional<ExperimentAssignment>(const QString& user)> assigner(const QString& headerUnit) const;
    // A request was assigned (counted in /metrics).
    void assigned(const ExperimentAssignment& assignment);
    // A served run was stored: remembered under its completion id, choice and experiment arm.
    void recordRun(qint64 runId, const QString& completionId, int choice,
                   const std::optional<ExperimentAssignment>& assignment, double latencyMs);

    // POST /v1/feedback, GET /v1/experiments, GET and PUT /v1/experiments/NAME.
    Answer feedback(const QByteArray& body);
    Answer list();
    Answer get(const QString& name);
    Answer put(const QString& name, const QByteArray& body, const NamedStrategy& named);

    // Reads an experiment's design: {"arms": [{"name", "strategy", "weight"}], "metric", "auto_promote"}.
    // Each strategy is a preset, a saved strategy's name, or strategy JSON (an object or its text).
    static Result<ExperimentRecord> designFromJson(const QString& name, const QJsonObject& body,
                                                   const NamedStrategy& named);

private:
    std::optional<ApiError> needStore() const;
    void promoteIfDecided();

    Database* m_database;
    ServeMetrics& m_metrics;
    std::function<void(const QJsonObject&)> m_log;
    std::function<Status(const Strategy&)> m_promote;
    std::optional<ExperimentRecord> m_served;
};

} // namespace swb
