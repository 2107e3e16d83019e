#pragma once

#include <QCoreApplication>
#include <QString>

#include "evaluation/Reports.h"
#include "reports/ReportTableModel.h"

namespace swb {

// Turns a SummaryReport into the tables the Reports view shows, with figures rounded for reading and a
// tooltip explaining each statistic. Formatting only: every figure comes from Reports.
class ReportTables final {
    Q_DECLARE_TR_FUNCTIONS(ReportTables)

public:
    // One row per strategy: runs, each dimension's mean with its interval and n, Bradley-Terry with its
    // interval, online Elo, win rate, battles, and the text metrics.
    static ReportTable strategies(const SummaryReport& report, int bootstrapRounds);
    // Krippendorff's alpha per rated dimension.
    static ReportTable agreement(const SummaryReport& report);
    // Each rater's ratings, preferences and gold accuracy.
    static ReportTable raters(const SummaryReport& report);
    // One row per arm of an experiment: its strategy, share, traffic, feedback, mean, the difference to the
    // control with its confidence sequence and always-valid p, latency and tokens.
    static ReportTable experimentArms(const ExperimentAnalysis& experiment);

    // Three significant digits, no exponent for ordinary magnitudes ("0.456", "12.3", "345"); "—" for NaN.
    static QString significant(double value);
    // A fixed number of decimals; "—" for NaN.
    static QString fixed(double value, int decimals);
    // "2.10 [1.80, 2.40]": an estimate with its interval, the interval left out when undefined.
    static QString withInterval(double value, const stats::Interval& interval, int decimals);
    static QString missing(); // "—"
};

} // namespace swb
