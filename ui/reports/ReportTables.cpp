#include "reports/ReportTables.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "reports/ReportPalette.h"

namespace swb {

namespace {

QVariant sortKey(double value) {
    // NaN would compare unordered: undefined figures sort before every number.
    return std::isnan(value) ? -std::numeric_limits<double>::infinity() : value;
}

ReportCell numberCell(const QString& text, double value, const QString& toolTip = {}) {
    ReportCell cell;
    cell.text = text;
    cell.sortKey = sortKey(value);
    cell.toolTip = toolTip;
    return cell;
}

ReportCell textCell(const QString& text, const QString& toolTip = {}) {
    ReportCell cell;
    cell.text = text;
    cell.toolTip = toolTip;
    cell.numeric = false;
    return cell;
}

ReportCell countCell(int value) {
    return numberCell(QString::number(value), value);
}

} // namespace

QString ReportTables::missing() {
    return QStringLiteral("\u2014");
}

QString ReportTables::fixed(double value, int decimals) {
    if (std::isnan(value))
        return missing();
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("\u221e") : QStringLiteral("\u2212\u221e");
    return QString::number(value, 'f', decimals);
}

QString ReportTables::significant(double value) {
    if (std::isnan(value) || std::isinf(value))
        return fixed(value, 0);
    const double magnitude = std::abs(value);
    if (magnitude != 0.0 && (magnitude < 1e-3 || magnitude >= 1e6))
        return QString::number(value, 'g', 3);
    const int digits = magnitude == 0.0 ? 0 : static_cast<int>(std::floor(std::log10(magnitude)));
    return QString::number(value, 'f', std::clamp(2 - digits, 0, 5));
}

QString ReportTables::withInterval(double value, const stats::Interval& interval, int decimals) {
    if (std::isnan(value))
        return missing();
    if (std::isnan(interval.low) || std::isnan(interval.high))
        return fixed(value, decimals);
    return tr("%1 [%2, %3]").arg(fixed(value, decimals), fixed(interval.low, decimals), fixed(interval.high, decimals));
}

ReportTable ReportTables::strategies(const SummaryReport& report, int bootstrapRounds) {
    ReportTable table;
    table.columns.push_back(
        {tr("Strategy"),
         tr("The strategy's name (#id appended when two share one); the square is its colour in the charts.")});
    table.columns.push_back({tr("Runs"), tr("Runs recorded with this strategy, branches included.")});
    for (const QString& dimension : report.dimensions)
        table.columns.push_back(
            {dimension, tr("Mean %1 score of this strategy's runs over every rater, with its 95% percentile-bootstrap "
                           "interval (%2 resamples of the ratings) and n, the number of ratings.")
                            .arg(dimension)
                            .arg(bootstrapRounds)});
    table.columns.push_back({tr("Bradley–Terry"),
                             tr("Bradley–Terry: strength on an Elo-like scale (400·log10), mean 1000; ties count half. "
                                "In brackets the 95% interval from %1 bootstrap resamples of the battles.")
                                 .arg(bootstrapRounds)});
    table.columns.push_back(
        {tr("BT, length-controlled"),
         tr("Bradley–Terry with the two outputs' length difference as a covariate (FastChat's style control): the "
            "strength left once longer outputs winning is accounted for. Far below the plain score: the strategy "
            "wins by writing longer.")});
    table.columns.push_back({tr("Elo"), tr("Online Elo as FastChat computes it (K = 4, start 1000), preferences in the "
                                           "order they were given; unlike Bradley–Terry it depends on that order.")});
    table.columns.push_back(
        {tr("Win rate"), tr("(wins + ties / 2) / battles: a tie or a both-bad verdict counts as half a win for each "
                            "side. A preference is a battle between every two outputs of its comparison: the chosen "
                            "one beats each other one.")});
    table.columns.push_back({tr("Length"), tr("Mean length of the runs in tokens.")});
    table.columns.push_back(
        {tr("Perplexity"), tr("Mean over runs of exp(−mean ln p) of the chosen tokens under the "
                              "model's raw distribution: how surprising the text is to the model.")});
    table.columns.push_back({tr("Entropy"), tr("Mean over runs of the mean entropy (nats) of the raw next-token "
                                               "distribution: how uncertain the model was while writing.")});
    table.columns.push_back(
        {tr("Distinct-1/2/3"), tr("Distinct-n: unique n-grams / all n-grams over all the strategy's "
                                  "runs together (Li et al. 2016), for n = 1, 2 and 3; higher means "
                                  "more varied text. Sorts by distinct-2.")});
    table.columns.push_back({tr("Rep-4"), tr("Mean over runs of the share of 4-grams that repeat an earlier 4-gram of "
                                             "the same run: higher means more repetitive text.")});

    for (std::size_t s = 0; s < report.strategies.size(); ++s) {
        const StrategySummary& summary = report.strategies[s];
        std::vector<ReportCell> row;
        ReportCell name = textCell(summary.strategy, tr("Strategy id %1").arg(summary.strategyId));
        name.swatch = reportPalette::strategy(static_cast<int>(s));
        row.push_back(name);
        row.push_back(countCell(summary.runs));
        for (const DimensionSummary& d : summary.dimensions) {
            if (d.n == 0) {
                row.push_back(
                    numberCell(missing(), stats::kNaN, tr("No %1 ratings for this strategy.").arg(d.dimension)));
                continue;
            }
            if (d.n == 1) { // one rating has no spread to resample: no interval ([2.00, 2.00] said otherwise)
                row.push_back(numberCell(tr("%1 n=1").arg(fixed(d.mean, 2)), d.mean,
                                         tr("%1: one rating, %2; no interval from a single rating.")
                                             .arg(d.dimension, fixed(d.mean, 3))));
                continue;
            }
            row.push_back(
                numberCell(tr("%1 n=%2").arg(withInterval(d.mean, d.interval, 2)).arg(d.n), d.mean,
                           tr("%1: mean %2, 95% interval %3 to %4; ratings: %5.")
                               .arg(d.dimension, fixed(d.mean, 3), fixed(d.interval.low, 3), fixed(d.interval.high, 3))
                               .arg(d.n)));
        }
        if (summary.battles == 0) {
            const QString none = tr("No preferences involve this strategy yet.");
            for (int i = 0; i < 4; ++i)
                row.push_back(numberCell(missing(), stats::kNaN, none));
        } else {
            row.push_back(
                numberCell(withInterval(summary.bradleyTerry, summary.bradleyTerryInterval, 0), summary.bradleyTerry,
                           tr("Bradley–Terry %1; 95% interval %2 to %3.")
                               .arg(fixed(summary.bradleyTerry, 1), fixed(summary.bradleyTerryInterval.low, 1),
                                    fixed(summary.bradleyTerryInterval.high, 1))));
            row.push_back(numberCell(fixed(summary.bradleyTerryLengthControlled, 0), summary.bradleyTerryLengthControlled,
                                     tr("Length coefficient of the fit: %1 log-odds per unit of scaled length "
                                        "difference.")
                                         .arg(fixed(report.lengthCoefficient, 2))));
            row.push_back(numberCell(fixed(summary.onlineElo, 1), summary.onlineElo));
            row.push_back(
                numberCell(fixed(summary.winRate, 2), summary.winRate,
                           tr("%1% of %2 battles").arg(fixed(summary.winRate * 100, 1)).arg(summary.battles)));
        }
        row.push_back(numberCell(fixed(summary.meanLength, 1), summary.meanLength));
        row.push_back(numberCell(significant(summary.meanPerplexity), summary.meanPerplexity));
        row.push_back(numberCell(fixed(summary.meanRawEntropy, 2), summary.meanRawEntropy));
        row.push_back(numberCell(
            tr("%1 / %2 / %3")
                .arg(fixed(summary.distinct1, 2), fixed(summary.distinct2, 2), fixed(summary.distinct3, 2)),
            summary.distinct2,
            tr("distinct-1 %1, distinct-2 %2, distinct-3 %3")
                .arg(fixed(summary.distinct1, 3), fixed(summary.distinct2, 3), fixed(summary.distinct3, 3))));
        row.push_back(numberCell(fixed(summary.rep4, 2), summary.rep4));
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable ReportTables::agreement(const SummaryReport& report) {
    ReportTable table;
    const QString scale = tr("1 is perfect agreement, 0 no better than chance, below 0 systematic disagreement; "
                             "Krippendorff counts 0.8 and above as reliable, 0.667 to 0.8 as tentative.");
    table.columns = {
        {tr("Dimension"), tr("A rubric dimension that has ratings.")},
        {tr("α ordinal"),
         tr("Krippendorff's α with ordinal distances (only the order of scores matters). %1").arg(scale)},
        {tr("α interval"), tr("Krippendorff's α with interval distances (squared score differences). %1").arg(scale)},
        {tr("Units"), tr("Runs with at least two ratings on this dimension: only these can show agreement.")},
        {tr("Pairable"), tr("Ratings in those runs.")},
        {tr("Raters"), tr("Raters who scored this dimension.")},
        {tr("α ordinal 95% CI"),
         tr("Percentile-bootstrap interval of ordinal α, resampling the runs; below 0.7 (the evaluation guide's "
            "threshold) the scores are not yet reliable.")},
    };
    const QString undefined = tr("Undefined: no run has two ratings on this dimension, or the scores never vary.");
    for (const AgreementRow& a : report.agreement) {
        std::vector<ReportCell> row;
        row.push_back(textCell(a.dimension));
        for (double alpha : {a.alphaOrdinal, a.alphaInterval}) {
            ReportCell cell = numberCell(fixed(alpha, 3), alpha, std::isnan(alpha) ? undefined : QString());
            cell.background = reportPalette::agreement(alpha);
            row.push_back(cell);
        }
        row.push_back(countCell(a.units));
        row.push_back(numberCell(a.pairable == std::floor(a.pairable) ? QString::number(a.pairable, 'f', 0)
                                                                      : significant(a.pairable),
                                 a.pairable));
        row.push_back(countCell(a.raters));
        const stats::Interval& ci = a.alphaOrdinalInterval;
        row.push_back(numberCell(std::isnan(ci.low) ? missing()
                                                    : QStringLiteral("[%1, %2]").arg(fixed(ci.low, 2), fixed(ci.high, 2)),
                                 ci.low, std::isnan(ci.low) ? undefined : QString()));
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable ReportTables::raters(const SummaryReport& report) {
    ReportTable table;
    table.columns = {
        {tr("Rater"), tr("A rater, by name.")},
        {tr("Ratings"), tr("Rubric scores given (one per run and dimension).")},
        {tr("Preferences"), tr("Pairwise verdicts given (one per comparison).")},
        {tr("Gold"), tr("Preferences on gold comparisons, whose right answer is known.")},
        {tr("Correct"), tr("Gold comparisons on which the rater picked the known answer.")},
        {tr("Gold accuracy"), tr("Correct / gold answered: a check that the rater reads the outputs.")},
        {tr("α without"), tr("Mean change of ordinal α over the dimensions when this rater is set aside: a rise "
                             "says the others agree better without them.")},
        {tr("s / item"), tr("Median seconds between the rater's consecutive answers (breaks over 30 minutes left "
                            "out).")},
        {tr("Same in a row"), tr("Share of rated runs given exactly the scores of the run rated just before "
                                 "(straight-lining).")},
        {tr("Status"), tr("Set aside (with the reason), or suggested for it: below the thresholds under this table. "
                          "Right-click a rater to set them aside or count them again.")},
    };
    for (const RaterRow& r : report.raters) {
        std::vector<ReportCell> row;
        row.push_back(textCell(r.rater));
        row.push_back(countCell(r.ratings));
        row.push_back(countCell(r.preferences));
        row.push_back(countCell(r.goldAnswered));
        row.push_back(countCell(r.goldCorrect));
        row.push_back(numberCell(fixed(r.goldAccuracy, 2), r.goldAccuracy,
                                 r.goldAnswered == 0 ? tr("This rater has answered no gold comparison.") : QString()));
        row.push_back(numberCell(r.alphaChange > 0 ? QStringLiteral("+") + fixed(r.alphaChange, 3)
                                                   : fixed(r.alphaChange, 3),
                                 r.alphaChange,
                                 std::isnan(r.alphaChange) ? tr("Undefined: without this rater no dimension has two "
                                                                "raters on a run.")
                                                           : QString()));
        row.push_back(numberCell(fixed(r.medianSecondsPerItem, 0), r.medianSecondsPerItem));
        row.push_back(numberCell(fixed(r.straightLining, 2), r.straightLining));
        ReportCell status = !r.setAside.isEmpty() ? textCell(tr("set aside"), r.setAside)
                            : !r.suggestion.isEmpty() ? textCell(tr("suggested"), r.suggestion)
                                                      : textCell(QString());
        if (!r.setAside.isEmpty())
            status.background = QColor(0xDD, 0xDF, 0xE3);
        else if (!r.suggestion.isEmpty())
            status.background = QColor(0xFF, 0xE0, 0xA8);
        row.push_back(status);
        table.rows.push_back(std::move(row));
    }
    return table;
}

ReportTable ReportTables::experimentArms(const ExperimentAnalysis& experiment) {
    ReportTable table;
    const bool thumbs = experiment.experiment.metric == QLatin1String(ExperimentRecord::kThumbs);
    table.columns = {
        {tr("Arm"), tr("The arm's name; the first is the control. The square is its colour in the chart.")},
        {tr("Strategy"), tr("The strategy the arm serves.")},
        {tr("Share"), tr("The arm's share of the traffic (its weight over all weights).")},
        {tr("Requests"), tr("Completions served by this arm.")},
        {tr("Units"), tr("Distinct users (or X-Experiment-Unit values; a request without either is its own unit).")},
        {tr("Feedback"), tr("Feedbacks on this arm's completions.")},
        {thumbs ? tr("Thumbs up") : tr("Mean score"),
         thumbs ? tr("Share of thumbs up, with its 95% interval (normal approximation).")
                : tr("Mean score (1 to 5), with its 95% interval (normal approximation).")},
        {tr("Δ vs control"), tr("The difference to the control with its 95% confidence sequence: valid at every "
                                "look, however often the experiment is read (mixture SPRT).")},
        {tr("p (always valid)"), tr("The smallest 1/Λ of the mixture SPRT so far: below α (0.05, divided among the "
                                    "arms) the test decides.")},
        {tr("Latency ms"), tr("Mean time from request to the arm's completion.")},
        {tr("Tokens"), tr("Mean completion tokens.")},
    };
    double total = 0.0;
    for (const ArmAnalysis& arm : experiment.arms)
        total += arm.weight;
    for (std::size_t i = 0; i < experiment.arms.size(); ++i) {
        const ArmAnalysis& a = experiment.arms[i];
        std::vector<ReportCell> row;
        ReportCell name = textCell(i == 0 ? tr("%1 (control)").arg(a.name) : a.name);
        name.swatch = reportPalette::strategy(int(i));
        if (a.name == experiment.winner)
            name.background = QColor(0xD8, 0xF0, 0xD8);
        row.push_back(name);
        row.push_back(textCell(a.strategyName.isEmpty() ? a.strategyHash.left(12) : a.strategyName, a.strategyHash));
        row.push_back(numberCell(fixed(total > 0 ? a.weight / total * 100.0 : 0.0, 0) + QStringLiteral("%"), a.weight));
        row.push_back(countCell(a.requests));
        row.push_back(countCell(a.units));
        row.push_back(countCell(a.feedback));
        row.push_back(numberCell(withInterval(a.mean, a.meanInterval, thumbs ? 3 : 2), a.mean));
        if (i == 0) {
            row.push_back(numberCell(missing(), stats::kNaN));
            row.push_back(numberCell(missing(), stats::kNaN));
        } else {
            row.push_back(numberCell(withInterval(a.difference, a.confidenceSequence, 3), a.difference));
            row.push_back(numberCell(significant(a.pValue), a.pValue));
        }
        row.push_back(numberCell(fixed(a.meanLatencyMs, 1), a.meanLatencyMs));
        row.push_back(numberCell(fixed(a.meanTokens, 1), a.meanTokens));
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace swb
