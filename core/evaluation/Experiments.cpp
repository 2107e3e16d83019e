#include "evaluation/Experiments.h"

#include <cmath>

#include <QJsonArray>

#include "storage/Database.h"

namespace swb {

namespace {

QJsonValue number(double value) {
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QJsonValue interval(const stats::Interval& i) {
    if (!std::isfinite(i.low) || !std::isfinite(i.high))
        return QJsonValue(QJsonValue::Null);
    return QJsonArray{i.low, i.high};
}

QString pText(double p) {
    return p < 0.001 ? QStringLiteral("p < 0.001") : QStringLiteral("p = %1").arg(p, 0, 'g', 2);
}

// The sentence and verdict of a running experiment from its arms' tests.
void decide(ExperimentAnalysis& analysis, int minPerArm) {
    const std::vector<ArmAnalysis>& arms = analysis.arms;
    const ArmAnalysis& control = arms.front();
    int best = -1;  // the best arm significantly better than the control
    int worse = -1; // an arm significantly worse
    for (std::size_t i = 1; i < arms.size(); ++i) {
        if (arms[i].pValue > analysis.alpha)
            continue;
        if (arms[i].difference > 0 && (best < 0 || arms[i].mean > arms[std::size_t(best)].mean))
            best = int(i);
        else if (arms[i].difference < 0 && (worse < 0 || arms[i].pValue < arms[std::size_t(worse)].pValue))
            worse = int(i);
    }
    if (best >= 0 || worse >= 0) {
        const ArmAnalysis& beaten = best >= 0 ? control : arms[std::size_t(worse)];
        const ArmAnalysis& winner = best >= 0 ? arms[std::size_t(best)] : control;
        analysis.verdict = ExperimentAnalysis::Verdict::Winner;
        analysis.winner = winner.name;
        analysis.decision = QStringLiteral("%1 better than %2 (%3)")
                                .arg(winner.name, beaten.name, pText(best >= 0 ? winner.pValue : beaten.pValue));
        return;
    }
    QStringList short_;
    for (const ArmAnalysis& arm : arms)
        if (arm.feedback < minPerArm)
            short_.push_back(QStringLiteral("%1 has %2").arg(arm.name).arg(arm.feedback));
    if (!short_.empty()) {
        analysis.verdict = ExperimentAnalysis::Verdict::Waiting;
        analysis.decision = QStringLiteral("waiting for %1 feedbacks per arm (%2)")
                                .arg(minPerArm)
                                .arg(short_.join(QStringLiteral(", ")));
        return;
    }
    // Undecided: the arm furthest from the control says how much more it takes.
    std::size_t furthest = 1;
    for (std::size_t i = 1; i < arms.size(); ++i)
        if (std::abs(arms[i].difference) > std::abs(arms[furthest].difference))
            furthest = i;
    analysis.verdict = ExperimentAnalysis::Verdict::NoDifferenceYet;
    const long long more = arms[furthest].feedbacksForPower;
    if (more < 0)
        analysis.decision = QStringLiteral("no difference yet, and none observed so far");
    else
        analysis.decision =
            QStringLiteral("no difference yet: about %1 more feedbacks for 80% power at the observed "
                           "effect (%2 %3%4)")
                .arg(more)
                .arg(arms[furthest].name, arms[furthest].difference >= 0 ? QStringLiteral("+") : QString())
                .arg(arms[furthest].difference, 0, 'g', 2);
}

} // namespace

QString ExperimentAnalysis::verdictName(Verdict verdict) {
    switch (verdict) {
    case Verdict::Waiting:
        return QStringLiteral("waiting");
    case Verdict::NoDifferenceYet:
        return QStringLiteral("no_difference_yet");
    case Verdict::Winner:
        return QStringLiteral("winner");
    case Verdict::Stopped:
        return QStringLiteral("stopped");
    }
    return {};
}

ExperimentAnalysis analyzeExperiment(const ExperimentRecord& experiment,
                                     const std::vector<ExperimentObservation>& observations,
                                     const std::vector<ExperimentArmUsage>& usage, ExperimentDetail detail) {
    constexpr int minPerArm = 10;
    const bool display = detail == ExperimentDetail::Display;
    ExperimentAnalysis analysis;
    analysis.experiment = experiment;
    const std::size_t count = experiment.arms.size();
    analysis.alpha = count > 2 ? 0.05 / double(count - 1) : 0.05;
    std::vector<stats::MixtureSprt> tests(count, stats::MixtureSprt(analysis.alpha, 0.2, minPerArm));
    std::vector<double> sums(count, 0.0);
    std::vector<double> squares(count, 0.0);
    if (display)
        analysis.runningMeans.assign(count, {});
    for (const ExperimentArm& arm : experiment.arms) {
        ArmAnalysis a;
        a.name = arm.name;
        a.strategyName = arm.strategy.name;
        a.strategyHash = arm.strategy.hash();
        a.weight = arm.weight;
        analysis.arms.push_back(a);
    }
    const auto armIndex = [&](const QString& name) {
        for (std::size_t i = 0; i < count; ++i)
            if (experiment.arms[i].name == name)
                return int(i);
        return -1;
    };
    for (const ExperimentObservation& o : observations) {
        const int i = armIndex(o.arm);
        if (i < 0)
            continue;
        ArmAnalysis& arm = analysis.arms[std::size_t(i)];
        ++arm.feedback;
        sums[std::size_t(i)] += o.value;
        squares[std::size_t(i)] += o.value * o.value;
        if (i == 0) {
            for (std::size_t t = 1; t < count; ++t)
                tests[t].add(0, o.value);
        } else {
            tests[std::size_t(i)].add(1, o.value);
        }
        for (std::size_t k = 0; display && k < count; ++k) {
            const int n = analysis.arms[k].feedback;
            analysis.runningMeans[k].push_back(n > 0 ? sums[k] / n : stats::kNaN);
        }
    }
    for (std::size_t i = 0; i < count; ++i) {
        ArmAnalysis& arm = analysis.arms[i];
        const int n = arm.feedback;
        if (n > 0)
            arm.mean = sums[i] / n;
        if (n > 1) {
            const double variance = std::max(0.0, (squares[i] - n * arm.mean * arm.mean) / (n - 1));
            const double half = 1.959963985 * std::sqrt(variance / n);
            arm.meanInterval = {arm.mean - half, arm.mean + half};
        }
        for (const ExperimentArmUsage& u : usage)
            if (u.arm == arm.name) {
                arm.requests = u.requests;
                arm.units = u.units;
                arm.meanLatencyMs = u.meanLatencyMs;
                arm.meanTokens = u.meanTokens;
            }
        if (i == 0)
            continue;
        arm.difference = tests[i].difference();
        arm.confidenceSequence = tests[i].confidence();
        arm.pValue = tests[i].pValue();
        const long long needed = tests[i].observationsForPower(0.8);
        arm.feedbacksForPower = needed < 0 ? -1 : std::max(0LL, needed - tests[i].count(0) - tests[i].count(1));
    }
    if (count < 2)
        return analysis;
    if (!experiment.running) {
        analysis.verdict = ExperimentAnalysis::Verdict::Stopped;
        analysis.winner = experiment.winner;
        analysis.decision = experiment.winner.isEmpty() ? QStringLiteral("stopped without a decision")
                                                        : QStringLiteral("stopped: %1").arg(experiment.winner);
        return analysis;
    }
    decide(analysis, minPerArm);
    return analysis;
}

QJsonObject ExperimentAnalysis::toJson() const {
    QJsonArray armsJson;
    for (std::size_t i = 0; i < arms.size(); ++i) {
        const ArmAnalysis& a = arms[i];
        QJsonObject arm{{QStringLiteral("name"), a.name},
                        {QStringLiteral("strategy"), QJsonObject{{QStringLiteral("name"), a.strategyName},
                                                                 {QStringLiteral("hash"), a.strategyHash}}},
                        {QStringLiteral("weight"), a.weight},
                        {QStringLiteral("requests"), a.requests},
                        {QStringLiteral("units"), a.units},
                        {QStringLiteral("feedback"), a.feedback},
                        {QStringLiteral("mean"), number(a.mean)},
                        {QStringLiteral("mean_ci95"), interval(a.meanInterval)},
                        {QStringLiteral("mean_latency_ms"), number(a.meanLatencyMs)},
                        {QStringLiteral("mean_completion_tokens"), number(a.meanTokens)}};
        if (i > 0)
            arm.insert(QStringLiteral("versus_control"),
                       QJsonObject{{QStringLiteral("difference"), number(a.difference)},
                                   {QStringLiteral("confidence_sequence"), interval(a.confidenceSequence)},
                                   {QStringLiteral("p_value"), a.pValue},
                                   {QStringLiteral("more_feedbacks_for_80_power"),
                                    a.feedbacksForPower < 0 ? QJsonValue(QJsonValue::Null)
                                                            : QJsonValue(double(a.feedbacksForPower))}});
        armsJson.append(arm);
    }
    return QJsonObject{
        {QStringLiteral("object"), QStringLiteral("experiment")},
        {QStringLiteral("name"), experiment.name},
        {QStringLiteral("metric"), experiment.metric},
        {QStringLiteral("state"), experiment.running ? QStringLiteral("running") : QStringLiteral("stopped")},
        {QStringLiteral("auto_promote"), experiment.autoPromote},
        {QStringLiteral("control"), arms.empty() ? QString() : arms.front().name},
        {QStringLiteral("alpha"), alpha},
        {QStringLiteral("test"), QStringLiteral("mixture SPRT (always valid), tau = 0.2 sd")},
        {QStringLiteral("arms"), armsJson},
        {QStringLiteral("verdict"), verdictName(verdict)},
        {QStringLiteral("winner"), winner.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(winner)},
        {QStringLiteral("decision"), decision},
        {QStringLiteral("created"), experiment.createdAt.toString(Qt::ISODateWithMs)}};
}

Result<ExperimentAnalysis> loadExperimentAnalysis(Database& database, const ExperimentRecord& experiment,
                                                  ExperimentDetail detail) {
    ExperimentRepository experiments(database);
    Result<std::vector<ExperimentObservation>> observations = experiments.observations(experiment);
    if (!observations)
        return observations.error();
    Result<std::vector<ExperimentArmUsage>> usage = experiments.usage(experiment.id);
    if (!usage)
        return usage.error();
    ExperimentAnalysis analysis = analyzeExperiment(experiment, observations.value(), usage.value(), detail);
    if (detail == ExperimentDetail::Display)
        for (ArmAnalysis& arm : analysis.arms)
            if (Result<std::vector<qint64>> runs = experiments.runsOfArm(experiment.id, arm.name, 50))
                arm.latestRuns = std::move(runs).value();
    return analysis;
}

} // namespace swb
