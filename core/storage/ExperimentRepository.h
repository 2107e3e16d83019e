#pragma once

#include <optional>
#include <vector>

#include <QDateTime>
#include <QString>

#include "Result.h"
#include "sampling/Strategy.h"

namespace swb {

class Database;

// One arm of an experiment: a strategy and its share of the traffic (weights need not add up to anything).
struct ExperimentArm {
    QString name;
    Strategy strategy;
    double weight = 1.0;
};

// An online experiment of swb serve: requests are assigned an arm, users' feedback on the completions is
// compared between the arms. The first arm is the control.
struct ExperimentRecord {
    static constexpr auto kThumbs = "thumbs"; // feedback up (1) or down (0)
    static constexpr auto kScore = "score";   // feedback 1 to 5

    qint64 id = 0;
    QString name;
    QString metric = QString::fromLatin1(kThumbs);
    std::vector<ExperimentArm> arms;
    bool autoPromote = false;
    bool running = true;
    QString winner; // the arm the test decided for, when it stopped with a decision
    QDateTime createdAt;
    QDateTime stoppedAt;

    // Same name, metric and arms (names, strategies by hash, weights): what a repeated PUT may restate.
    bool sameDesign(const ExperimentRecord& other) const;
    // The arm (index) for a unit, by the weights: the same unit always gets the same arm of this experiment
    // (FNV-1a of name and unit, mixed, to a number in [0, 1)); an empty unit gets a random one.
    std::size_t armFor(const QString& unit) const;
    // Names are 1 to 64 of A-Z a-z 0-9 . _ - (they go into URLs and metric labels): one sentence when not.
    static Status checkName(const QString& name, const QString& what);
};

// A run that swb serve stored: the completion id its client saw, and the experiment arm when it had one.
struct ServedRunRecord {
    qint64 runId = 0;
    QString completionId;
    int choice = 0;
    std::optional<qint64> experimentId;
    QString arm;
    QString unit;
    double latencyMs = 0.0;
};

// One feedback on a run of an experiment, in the order feedback was first given.
struct ExperimentObservation {
    QString arm;
    double value = 0.0;
    QDateTime at;
};

// What an arm served: requests (runs), distinct units, mean latency and completion tokens.
struct ExperimentArmUsage {
    QString arm;
    int requests = 0;
    int units = 0;
    double meanLatencyMs = 0.0;
    double meanTokens = 0.0;
};

// Experiments, the runs swb serve stored and users' feedback on them (as ratings of rubric "feedback").
class ExperimentRepository {
public:
    static constexpr auto kFeedbackRubric = "feedback";
    static constexpr auto kFeedbackRater = "api";

    explicit ExperimentRepository(Database& database)
        : m_db(database) {}

    // Creates the experiment (its strategies saved) as the running one: any other running experiment stops
    // without a decision. An experiment of that name already stored is refused unless it has the same design
    // and no winner yet, and is then made the running one again.
    Result<ExperimentRecord> start(ExperimentRecord experiment);
    Result<ExperimentRecord> get(qint64 id);
    Result<std::optional<ExperimentRecord>> find(const QString& name);
    Result<std::optional<ExperimentRecord>> running();
    Result<std::vector<ExperimentRecord>> list(); // newest first
    // Stops the experiment; winner is the arm decided for, or empty.
    Status stop(qint64 id, const QString& winner);

    Status recordServedRun(const ServedRunRecord& run);
    Result<std::optional<ServedRunRecord>> servedRun(const QString& completionId, int choice);

    // The feedback on a run, when it has one: its metric (thumbs or score) and value.
    Result<std::optional<std::pair<QString, double>>> feedback(qint64 runId);
    // Saves (or replaces) the feedback on a run: thumbs 0 or 1, score 1 to 5; the comment is the rating's note.
    Status saveFeedback(qint64 runId, const QString& metric, double value, const QString& comment);
    // The experiment's feedback in its metric, in the order it was first given.
    Result<std::vector<ExperimentObservation>> observations(const ExperimentRecord& experiment);
    Result<std::vector<ExperimentArmUsage>> usage(qint64 experimentId);
    // The runs an arm served, newest first, at most limit.
    Result<std::vector<qint64>> runsOfArm(qint64 experimentId, const QString& arm, int limit = 1000);

private:
    Database& m_db;
};

} // namespace swb
