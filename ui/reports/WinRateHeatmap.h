#pragma once

#include "reports/ReportChart.h"
#include "reports/WinRateMatrix.h"

class QCPColorScale;
class QCPMarginGroup;

class QCPItemText;

namespace swb {

// The pairwise win rates as a heatmap (QCPColorMap): row strategy against column strategy, red below one
// half, blue above, the rate and the win-loss-tie counts printed in each cell, a colour scale beside it.
class WinRateHeatmap final : public ReportChart {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WinRateHeatmap)

public:
    explicit WinRateHeatmap(const QString& title, QWidget* parent = nullptr);

    void setMatrix(WinRateMatrix matrix);
    void clear(const QString& message);
    const WinRateMatrix& matrix() const { return m_matrix; }
    // The text printed in a cell ("0.65\n13–7–2"); empty on the diagonal.
    QString cellText(int row, int column) const;

private:
    std::pair<int, int> cellAt(const QPoint& pos) const;

    void fitLabels() override;

    WinRateMatrix m_matrix;
    std::vector<QCPItemText*> m_cellTexts; // shown where cells are big enough for them
    QCPColorScale* m_scale = nullptr;
    QCPMarginGroup* m_margins = nullptr;
};

} // namespace swb
