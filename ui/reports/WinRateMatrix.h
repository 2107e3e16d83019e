#pragma once

#include <vector>

#include <QStringList>

#include "evaluation/Statistics.h"

namespace swb {

struct SummaryReport;

// One strategy's record against another: battles it won, lost, tied and judged both bad.
struct WinRateCell {
    double winRate = stats::kNaN; // (wins + (ties + bothBad) / 2) / battles; NaN without battles
    int wins = 0;
    int losses = 0;
    int ties = 0;
    int bothBad = 0;
    int battles() const { return wins + losses + ties + bothBad; }
};

// The pairwise table of a SummaryReport as a square matrix over its strategies (in report order):
// cell(row, column) is the row strategy's record against the column strategy. The diagonal is empty.
struct WinRateMatrix {
    QStringList strategies;
    std::vector<std::vector<WinRateCell>> cells;

    static WinRateMatrix fromReport(const SummaryReport& report);
    int size() const { return static_cast<int>(strategies.size()); }
    const WinRateCell& cell(int row, int column) const {
        return cells[static_cast<std::size_t>(row)][static_cast<std::size_t>(column)];
    }
    bool hasBattles() const;
};

} // namespace swb
