#include "sampling/StepTraceJson.h"

#include <cmath>

#include <QJsonArray>

namespace swb {

namespace {
QJsonValue numberOrNull(double value) {
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue();
}
} // namespace

QJsonObject stepTraceToJson(const StepTrace& trace) {
    QJsonArray stages;
    for (const StageTrace& stage : trace.stages) {
        QJsonObject json{{QStringLiteral("sampler"), stage.sampler},
                         {QStringLiteral("kept"), stage.kept},
                         {QStringLiteral("kept_mass"), numberOrNull(stage.keptMass)},
                         {QStringLiteral("threshold"), numberOrNull(stage.threshold)}};
        if (!stage.refused.empty()) {
            QJsonArray refused;
            for (TokenId id : stage.refused)
                refused.append(id);
            json.insert(QStringLiteral("refused"), refused);
        }
        stages.append(json);
    }
    QJsonArray top;
    for (const TopCandidate& candidate : trace.top)
        top.append(QJsonObject{{QStringLiteral("id"), candidate.id},
                               {QStringLiteral("logit"), static_cast<double>(candidate.logit)},
                               {QStringLiteral("raw_p"), static_cast<double>(candidate.rawP)},
                               {QStringLiteral("final_p"), static_cast<double>(candidate.finalP)}});
    return QJsonObject{{QStringLiteral("chosen"), trace.chosen},
                       {QStringLiteral("raw_p"), static_cast<double>(trace.rawP)},
                       {QStringLiteral("final_p"), static_cast<double>(trace.finalP)},
                       {QStringLiteral("raw_rank"), trace.rawRank},
                       {QStringLiteral("raw_entropy"), trace.rawEntropy},
                       {QStringLiteral("final_entropy"), trace.finalEntropy},
                       {QStringLiteral("draw"), numberOrNull(trace.draw)},
                       {QStringLiteral("final_count"), trace.finalCount},
                       {QStringLiteral("stages"), stages},
                       {QStringLiteral("top"), top}};
}

} // namespace swb
