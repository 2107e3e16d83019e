#include "reports/WinRateMatrix.h"

#include "evaluation/Reports.h"

namespace swb {

WinRateMatrix WinRateMatrix::fromReport(const SummaryReport& report) {
    WinRateMatrix matrix;
    for (const StrategySummary& s : report.strategies)
        matrix.strategies << s.strategy;
    const auto n = static_cast<std::size_t>(matrix.strategies.size());
    matrix.cells.assign(n, std::vector<WinRateCell>(n));
    for (const PairwiseRow& row : report.pairwise) {
        const qsizetype a = matrix.strategies.indexOf(row.strategyA);
        const qsizetype b = matrix.strategies.indexOf(row.strategyB);
        if (a < 0 || b < 0 || a == b)
            continue;
        // Reports gives the first strategy's rate; the second's is its complement (ties count half both ways).
        matrix.cells[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = {row.winRateA, row.winsA, row.winsB,
                                                                                  row.ties, row.bothBad};
        matrix.cells[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)] = {1.0 - row.winRateA, row.winsB,
                                                                                  row.winsA, row.ties, row.bothBad};
    }
    return matrix;
}

bool WinRateMatrix::hasBattles() const {
    for (const auto& row : cells)
        for (const WinRateCell& cell : row)
            if (cell.battles() > 0)
                return true;
    return false;
}

} // namespace swb
