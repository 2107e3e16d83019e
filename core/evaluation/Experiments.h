#pragma once

#include <vector>

#include <QJsonObject>
#include <QString>

#include "Result.h"
#include "evaluation/Statistics.h"
#include "storage/ExperimentRepository.h"

namespace swb {

class Database;

// One arm's figures; the comparison fields compare it with the control (the first arm) and stay NaN for it.
struct ArmAnalysis {
    QString name;
    QString strategyName;
    QString strategyHash;
    double weight = 1.0;
    int requests = 0;
    int units = 0;
    int feedback = 0;
    double mean = stats::kNaN;
    stats::Interval meanInterval; // 95%, normal approximation, while the arm has 2 feedbacks or more
    double meanLatencyMs = stats::kNaN;
    double meanTokens = stats::kNaN;
    double difference = stats::kNaN;    // mean - control's mean
    stats::Interval confidenceSequence; // of the difference, valid at every look (MixtureSprt)
    double pValue = 1.0;                // always valid
    long long feedbacksForPower = -1;   // more feedbacks (this arm and the control) for 80% power; -1 unknown
    std::vector<qint64> latestRuns;     // the arm's runs, newest first (at most 50; ExperimentDetail::Display)
};

// Where an experiment stands: the arms, and what the sequential test says.
struct ExperimentAnalysis {
    enum class Verdict { Waiting, NoDifferenceYet, Winner, Stopped };

    ExperimentRecord experiment;
    std::vector<ArmAnalysis> arms;
    double alpha = 0.05; // for each arm against the control: 0.05 / (arms - 1) (Bonferroni)
    Verdict verdict = Verdict::Waiting;
    QString winner;   // the arm the test decided for (Winner, Stopped with a decision)
    QString decision; // one sentence, e.g. "B better than A (p = 0.003)"
    // The running mean of each arm's feedback after each feedback of the experiment (for a plot over time;
    // ExperimentDetail::Display).
    std::vector<std::vector<double>> runningMeans;

    QJsonObject toJson() const;
    static QString verdictName(Verdict verdict);
};

// The analysis of an experiment from its feedback in order and its arms' traffic. Each non-control arm
// has a MixtureSprt against the control fed with their feedback in order (at least 10 per arm before it
// starts). A test whose p-value reaches alpha decides: among the arms significantly better than the
// control the best wins, else (some significantly worse) the control.
// What an analysis holds besides the figures: the server's answers and CSV need the figures only; the
// Reports tab also draws the feedback over time and opens the arms' runs.
enum class ExperimentDetail { Figures, Display };

ExperimentAnalysis analyzeExperiment(const ExperimentRecord& experiment,
                                     const std::vector<ExperimentObservation>& observations,
                                     const std::vector<ExperimentArmUsage>& usage,
                                     ExperimentDetail detail = ExperimentDetail::Figures);

// analyzeExperiment of a stored experiment, its feedback and traffic read from the store.
Result<ExperimentAnalysis> loadExperimentAnalysis(Database& database, const ExperimentRecord& experiment,
                                                  ExperimentDetail detail = ExperimentDetail::Figures);

} // namespace swb
