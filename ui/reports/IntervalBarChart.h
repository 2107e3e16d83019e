#pragma once

#include <optional>
#include <vector>

#include <QColor>
#include <QString>

#include "evaluation/Statistics.h"
#include "reports/ReportChart.h"

class QCPItemText;

namespace swb {

// One bar: an estimate with its 95% interval, drawn as a bar with an error bar.
struct IntervalBar {
    QString label;
    double value = stats::kNaN; // NaN: no bar, the label says why
    stats::Interval interval;
    QColor colour;
    QString toolTip;
    double marker = stats::kNaN; // an optional second figure drawn as a diamond (online Elo)
};

// Bars with error bars (QCPBars + QCPErrorBars), one per strategy in its colour, the value printed
// above each; bars grow from a base value (0 for means, 1000 for Elo-scale scores); hover for details.
class IntervalBarChart final : public ReportChart {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(IntervalBarChart)

public:
    explicit IntervalBarChart(const QString& title, QWidget* parent = nullptr);

    struct Axis {
        QString label;
        double base = 0.0;
        std::optional<std::pair<double, double>> range; // the scale's whole range (a rubric's min and max)
        int decimals = 2;
        QString markerName; // legend entry for the markers; empty: no markers
        QString barName;    // legend entry for the bars, shown with the markers'
        double threshold = stats::kNaN; // a dashed line across the chart at this value (a target), if finite
        QString thresholdLabel;
    };
    void setBars(std::vector<IntervalBar> bars, const Axis& axis);
    void clear(const QString& message);
    const std::vector<IntervalBar>& bars() const { return m_bars; }

private:
    int barAt(const QPoint& pos) const;
    void showLegend(bool show);

    void fitLabels() override;

    std::vector<IntervalBar> m_bars;
    std::vector<QCPItemText*> m_values; // the printed values and "no data" notes, shown where they fit
};

} // namespace swb
