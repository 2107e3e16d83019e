#pragma once

#include <vector>

#include <QStringList>

#include "reports/ReportChart.h"

class QCPColorScale;
class QCPItemRect;
class QCPMarginGroup;

namespace swb {

// One metric of a sweep as a heatmap: the x values across, the y values down (one row without a y axis),
// each cell coloured on a sequential scale (NaN grey: no runs or no value) with its value printed, a colour
// scale beside it. Clicking a cell selects it (outlined) and emits cellClicked.
class SweepHeatmap final : public ReportChart {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepHeatmap)

public:
    struct Grid {
        QString xLabel;
        QStringList xValues;
        QString yLabel; // empty: one row
        QStringList yValues;
        std::vector<double> values; // row-major, rows x columns
        std::vector<int> runs;      // per cell, for the tooltips
        QString metric;
    };

    explicit SweepHeatmap(QWidget* parent = nullptr);

    void setGrid(Grid grid);
    void clear(const QString& message);
    const Grid& grid() const { return m_grid; }
    // The text printed in a cell ("2.31", "—" for no value).
    QString cellText(int column, int row) const;
    void selectCell(int column, int row);
    // The cell under a point of the plot, or {-1, -1}.
    std::pair<int, int> cellAt(const QPoint& pos) const;

signals:
    void cellClicked(int column, int row);

private:
    int columns() const { return static_cast<int>(m_grid.xValues.size()); }
    int rows() const { return m_grid.yValues.isEmpty() ? 1 : static_cast<int>(m_grid.yValues.size()); }
    double value(int column, int row) const;

    Grid m_grid;
    QCPColorScale* m_scale = nullptr;
    QCPMarginGroup* m_margins = nullptr;
    QCPItemRect* m_selection = nullptr;
};

} // namespace swb
