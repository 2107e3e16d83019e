#include "reports/IntervalBarChart.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <QToolTip>
#include <qcustomplot.h>

namespace swb {

IntervalBarChart::IntervalBarChart(const QString& title, QWidget* parent)
    : ReportChart(title, parent) {
    QFont legendFont = plot()->legend->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    plot()->legend->setFont(legendFont);
    plot()->legend->setBrush(QColor(255, 255, 255, 220));
    plot()->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot()->legend->setBorderPen(Qt::NoPen);
    // Under the plot when shown (showLegend), so it never hides a bar.
    plot()->axisRect()->insetLayout()->take(plot()->legend);
    plot()->legend->setVisible(false);
    connect(plot(), &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int bar = barAt(event->pos());
        if (bar < 0)
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), m_bars[static_cast<std::size_t>(bar)].toolTip,
                               plot());
    });
}

int IntervalBarChart::barAt(const QPoint& pos) const {
    if (m_bars.empty() || !placeholder().isEmpty() || !plot()->axisRect()->rect().contains(pos))
        return -1;
    const auto bar = static_cast<int>(std::lround(plot()->xAxis->pixelToCoord(pos.x())));
    return bar >= 0 && bar < static_cast<int>(m_bars.size()) ? bar : -1;
}

void IntervalBarChart::showLegend(bool show) {
    QCPLayoutGrid* layout = plot()->plotLayout();
    const bool shown = layout->elementCount() > 1 && layout->hasElement(layout->rowCount() - 1, 0) &&
                       layout->element(layout->rowCount() - 1, 0) == plot()->legend;
    if (show && !shown) {
        layout->addElement(layout->rowCount(), 0, plot()->legend);
        layout->setRowStretchFactor(layout->rowCount() - 1, 0.001);
    } else if (!show && shown) {
        layout->take(plot()->legend);
        layout->simplify();
    }
    plot()->legend->setVisible(show);
}

void IntervalBarChart::clear(const QString& message) {
    m_values.clear();
    m_bars.clear();
    showLegend(false);
    showPlaceholder(message);
}

void IntervalBarChart::setBars(std::vector<IntervalBar> bars, const Axis& axis) {
    m_bars = std::move(bars);
    beginContent();
    m_values.clear();
    QCustomPlot* p = plot();
    const auto n = static_cast<int>(m_bars.size());

    double low = axis.base;
    double high = axis.base;
    bool markers = false;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    int longest = 0;
    for (int i = 0; i < n; ++i) {
        const IntervalBar& bar = m_bars[static_cast<std::size_t>(i)];
        ticker->addTick(i, bar.label);
        longest = std::max(longest, static_cast<int>(bar.label.size()));
        for (double v : {bar.value, bar.interval.low, bar.interval.high, bar.marker})
            if (std::isfinite(v)) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        markers = markers || std::isfinite(bar.marker);
    }
    if (std::isfinite(axis.threshold)) {
        low = std::min(low, axis.threshold);
        high = std::max(high, axis.threshold);
    }
    if (axis.range) {
        low = std::min(low, axis.range->first);
        high = std::max(high, axis.range->second);
    }
    const double span = high - low > 0 ? high - low : 1.0;
    // Room above for the printed values, and below when bars hang from the base.
    const double top = high + span * 0.14;
    const double bottom = (axis.range && low >= axis.range->first) || low >= axis.base ? low : low - span * 0.14;

    QCPBars* legendBars = nullptr;
    for (int i = 0; i < n; ++i) {
        const IntervalBar& bar = m_bars[static_cast<std::size_t>(i)];
        if (!std::isfinite(bar.value)) {
            auto* none = new QCPItemText(p);
            none->position->setCoords(i, axis.base);
            none->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            none->setText(tr("no data"));
            none->setColor(QColor(0x8A, 0x90, 0x99));
            m_values.push_back(none);
            continue;
        }
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setWidth(0.6);
        bars->setBaseValue(axis.base);
        bars->setPen(QPen(bar.colour.darker(125), 1));
        QColor fill = bar.colour;
        fill.setAlpha(200);
        bars->setBrush(fill);
        bars->addData(i, bar.value - axis.base); // QCPBars draws from its base value by this much
        bars->removeFromLegend();
        if (!legendBars)
            legendBars = bars;
        // The value goes beyond the bar's end and its whisker: above a bar that rises, below one that hangs.
        const bool hangs = bar.value < axis.base;
        double labelAt = bar.value;
        if (std::isfinite(bar.interval.low) && std::isfinite(bar.interval.high)) {
            auto* errors = new QCPErrorBars(p->xAxis, p->yAxis);
            errors->setDataPlottable(bars);
            errors->setPen(QPen(QColor(0x30, 0x34, 0x3A), 1.4));
            errors->setWhiskerWidth(14);
            errors->setSymbolGap(0);
            errors->addData(std::max(0.0, bar.value - bar.interval.low), std::max(0.0, bar.interval.high - bar.value));
            errors->removeFromLegend();
            labelAt = hangs ? std::min(bar.value, bar.interval.low) : std::max(bar.value, bar.interval.high);
        }
        auto* value = new QCPItemText(p);
        value->position->setCoords(i, labelAt);
        value->setPositionAlignment(Qt::AlignHCenter | (hangs ? Qt::AlignTop : Qt::AlignBottom));
        value->setPadding(hangs ? QMargins(2, 3, 2, 0) : QMargins(2, 0, 2, 3));
        value->setText(QString::number(bar.value, 'f', axis.decimals));
        value->setColor(QColor(0x30, 0x34, 0x3A));
        value->setClipToAxisRect(false);
        m_values.push_back(value);
    }
    if (markers && !axis.markerName.isEmpty()) {
        auto* graph = p->addGraph();
        graph->setName(axis.markerName);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QColor(0x14, 0x2F, 0x52), Qt::white, 9));
        for (int i = 0; i < n; ++i)
            if (std::isfinite(m_bars[static_cast<std::size_t>(i)].marker))
                graph->addData(i, m_bars[static_cast<std::size_t>(i)].marker);
        if (legendBars && !axis.barName.isEmpty()) {
            // A neutral legend entry for the bars: their colours belong to the strategies.
            auto* key = new QCPBars(p->xAxis, p->yAxis);
            key->setName(axis.barName);
            key->setPen(QPen(QColor(0x8A, 0x90, 0x99)));
            key->setBrush(QColor(0xC8, 0xCD, 0xD3));
        }
        showLegend(true);
    } else {
        showLegend(false);
    }
    if (axis.base != 0.0) {
        auto* baseline = new QCPItemStraightLine(p);
        baseline->point1->setCoords(-1, axis.base);
        baseline->point2->setCoords(n, axis.base);
        baseline->setPen(QPen(QColor(0x8A, 0x90, 0x99), 1, Qt::DashLine));
    }

    if (std::isfinite(axis.threshold)) {
        const QColor red(0xB0, 0x30, 0x30);
        auto* line = new QCPItemStraightLine(p);
        line->point1->setCoords(-1, axis.threshold);
        line->point2->setCoords(n, axis.threshold);
        line->setPen(QPen(red, 1.3, Qt::DashLine));
        auto* label = new QCPItemText(p);
        label->position->setCoords(n - 0.45, axis.threshold);
        label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        label->setText(axis.thresholdLabel);
        label->setColor(red);
    }
    p->xAxis->setTicker(ticker);
    p->xAxis->setTickLength(0, 0);
    p->xAxis->setTickLabelRotation(n > 4 || longest > 12 ? 60 : 0);
    p->xAxis->setRange(-0.6, n - 0.4);
    p->yAxis->setLabel(axis.label);
    p->yAxis->setRange(bottom, top);
    p->replot();
}

void IntervalBarChart::fitLabels() {
    // With many strategies: every few names along the axis and no printed values where they would overlap
    // (hovering a bar still tells all).
    QCustomPlot* p = plot();
    const double pitch = p->xAxis->coordToPixel(1) - p->xAxis->coordToPixel(0);
    const QFontMetrics ticks(p->xAxis->tickLabelFont());
    QStringList labels;
    int widest = 0;
    for (const IntervalBar& bar : m_bars) {
        labels << bar.label;
        widest = std::max(widest, ticks.horizontalAdvance(bar.label.left(16)));
    }
    const double needed = p->xAxis->tickLabelRotation() != 0 ? (ticks.height() + 2) / std::sin(std::numbers::pi / 3)
                                                              : widest + 8;
    thinTicks(p->xAxis, labels, pitch, needed);
    for (QCPItemText* value : m_values)
        value->setVisible(QFontMetrics(value->font()).horizontalAdvance(value->text()) + 4 <= pitch);
}

} // namespace swb
