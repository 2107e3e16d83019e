#include "explore/DistributionModel.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

#include "tokenizer/Tokenizer.h"

namespace swb {

namespace {

// lupdate files these under the context "swb" (the enclosing namespace).
QString tr(const char* text, const char* disambiguation = nullptr, int n = -1) {
    return QCoreApplication::translate("swb", text, disambiguation, n);
}

QString number(double value) {
    return std::isnan(value) ? tr("unknown") : QString::number(value, 'g', 3);
}

const SamplerSpec* specAt(const Strategy& strategy, std::size_t index) {
    return index < strategy.samplers.size() ? &strategy.samplers[index] : nullptr;
}

// Whether a grammar stage refused the model's top raw choice at this step, as far as the step tells: a replay's
// stage distributions, else the stage's own list of refused tokens (a run traced in this session).
bool grammarRefusedTop(const StepTrace& trace, const std::vector<StageDistribution>* stages) {
    if (trace.top.empty())
        return false;
    for (std::size_t g = 0; g < trace.stages.size(); ++g) {
        if (trace.stages[g].sampler != QLatin1String("grammar"))
            continue;
        if (stages && g < stages->size() && !(*stages)[g].probs.empty()) {
            const bool before = g == 0 ? trace.top[0].rawP > 0.0f : (*stages)[g - 1].probs[0] > 0.0f;
            return before && (*stages)[g].probs[0] == 0.0f;
        }
        const std::vector<TokenId>& refused = trace.stages[g].refused;
        return std::find(refused.begin(), refused.end(), trace.top[0].id) != refused.end();
    }
    return false;
}

} // namespace

QString visibleTokenText(const QString& text) {
    QString shown;
    shown.reserve(text.size());
    for (QChar c : text) {
        if (c == u' ')
            shown += QChar(0x00B7);
        else if (c == u'\n')
            shown += QChar(0x21B5);
        else if (c == u'\t')
            shown += QChar(0x2192);
        else if (c == u'\r')
            shown += QStringLiteral("\\r");
        else if (c.unicode() < 0x20)
            shown += QStringLiteral("<0x%1>").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else if (!c.isSurrogate() && (c.unicode() == 0x7F || !c.isPrint() || c.category() == QChar::Other_NotAssigned))
            // DEL, C1 controls, format and unassigned characters: a code, never a font's empty box.
            shown += QStringLiteral("<U+%1>").arg(QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0'));
        else
            shown += c;
    }
    return shown;
}

QString tokenDisplayText(const Tokenizer* tokenizer, TokenId id) {
    if (!tokenizer)
        return QStringLiteral("#%1").arg(id);
    if (tokenizer->isSpecial(id))
        return QString::fromStdString(tokenizer->tokenText(id));
    const QString piece = QString::fromStdString(tokenizer->piece(id));
    return piece.isEmpty() ? QStringLiteral("#%1").arg(id) : piece;
}

QString describeStage(const StageTrace& stage, const SamplerSpec* spec) {
    const auto param = [spec](const char* name) {
        return spec ? spec->params.value(QLatin1String(name)).toDouble() : NAN;
    };
    const QString mass = QString::number(stage.keptMass * 100.0, 'f', 1);
    const QString type = stage.sampler;
    if (type == QLatin1String("top_k"))
        return tr("top-k = %1").arg(static_cast<qint64>(param("k")));
    if (type == QLatin1String("top_p"))
        return tr("top-p %1: %n token(s), %2% of the p it got", nullptr, stage.kept).arg(number(param("p")), mass);
    if (type == QLatin1String("min_p"))
        return std::isfinite(stage.threshold) ? tr("min-p %1: threshold p \u2265 %2, %n token(s)", nullptr, stage.kept)
                                                    .arg(number(param("p")), number(stage.threshold))
                                              : tr("min-p %1: %n token(s)", nullptr, stage.kept).arg(number(param("p")));
    if (type == QLatin1String("typical"))
        return tr("typical %1: %n token(s), %2% of the p it got", nullptr, stage.kept).arg(number(param("p")), mass);
    if (type == QLatin1String("epsilon") || type == QLatin1String("eta"))
        return tr("%1 %2: %n token(s)", nullptr, stage.kept)
            .arg(type, number(std::isfinite(stage.threshold) ? stage.threshold : param("epsilon")));
    if (type == QLatin1String("top_n_sigma"))
        return tr("top-n\u03c3 %1: %n token(s)", nullptr, stage.kept).arg(number(param("n")));
    if (type == QLatin1String("grammar"))
        return tr("grammar: %n token(s) allowed, %1% of the p removed", nullptr, stage.kept)
            .arg(QString::number((1.0 - stage.keptMass) * 100.0, 'f', 1));
    return tr("%1: %n token(s), %2% of the p it got", nullptr, stage.kept).arg(type, mass);
}

DistributionModel buildDistributionModel(const StepTrace& trace, const Strategy& strategy,
                                         const std::vector<StageDistribution>* stages, int stage,
                                         const Tokenizer* tokenizer, int vocabSize, bool whatIf, int maxBars) {
    DistributionModel model;
    const bool useStage = stages && stage >= 0 && stage < static_cast<int>(stages->size());
    const std::size_t shown = std::min(trace.top.size(), static_cast<std::size_t>(std::max(maxBars, 1)));
    double rawShown = 0.0;
    double pShown = 0.0;
    for (std::size_t i = 0; i < shown; ++i) {
        const TopCandidate& candidate = trace.top[i];
        DistributionBar bar;
        bar.id = candidate.id;
        bar.label = visibleTokenText(tokenDisplayText(tokenizer, candidate.id));
        bar.rawP = candidate.rawP;
        // Unknown (a remote engine without probabilities after its samplers): drawn as none.
        bar.shownP = useStage                       ? (*stages)[static_cast<std::size_t>(stage)].probs[i]
                     : std::isnan(candidate.finalP) ? 0.0
                                                    : candidate.finalP;
        bar.kept = bar.shownP > 0.0;
        bar.chosen = !useStage && candidate.id == trace.chosen;
        if (bar.chosen)
            model.chosenBar = static_cast<int>(i);
        model.keptBars += bar.kept ? 1 : 0;
        rawShown += bar.rawP;
        pShown += bar.shownP;
        model.bars.push_back(std::move(bar));
    }
    model.othersRawP = std::max(0.0, 1.0 - rawShown);
    model.othersShownP = std::max(0.0, 1.0 - pShown);

    // A marker for every stage that removed candidates, up to the shown stage.
    const int lastStage = useStage ? stage : static_cast<int>(trace.stages.size()) - 1;
    int before = vocabSize; // survivors entering the stage
    for (int s = 0; s <= lastStage && s < static_cast<int>(trace.stages.size()); ++s) {
        const StageTrace& st = trace.stages[static_cast<std::size_t>(s)];
        const bool cut = st.kept < before;
        before = st.kept;
        if (!cut || st.sampler == QLatin1String("dist") || st.sampler == QLatin1String("greedy"))
            continue;
        CutMarker marker;
        marker.stage = s;
        marker.position = st.kept;
        marker.onPlot = st.kept < static_cast<int>(shown);
        marker.label = describeStage(st, specAt(strategy, static_cast<std::size_t>(s)));
        model.markers.push_back(std::move(marker));
    }
    const QString chosenText = visibleTokenText(tokenDisplayText(tokenizer, trace.chosen));
    // An edited chain's replay shows what it would draw; the run's own chain, what the run drew.
    model.title =
        useStage
            ? tr("After stage %1 (%2)").arg(stage + 1).arg((*stages)[static_cast<std::size_t>(stage)].stage.sampler)
        : whatIf ? tr("Would draw \u201c%1\u201d: raw p %2, final p %3, raw rank %4")
                       .arg(chosenText, number(trace.rawP), number(trace.finalP))
                       .arg(trace.rawRank)
                 : tr("Drew \u201c%1\u201d: raw p %2, final p %3, raw rank %4")
                       .arg(chosenText, number(trace.rawP), number(trace.finalP))
                       .arg(trace.rawRank);
    if (!useStage && !trace.top.empty() && trace.chosen != trace.top[0].id && grammarRefusedTop(trace, stages))
        model.title +=
            tr(" \u00b7 the grammar refused the model's top choice \u201c%1\u201d (raw p %2)")
                .arg(visibleTokenText(tokenDisplayText(tokenizer, trace.top[0].id)), number(trace.top[0].rawP));
    model.finalLabel = useStage ? tr("p after stage %1").arg(stage + 1) : tr("p after the chain");
    return model;
}

} // namespace swb
