#include "sweep/SweepHeatmap.h"

#include <algorithm>
#include <cmath>

#include <QToolTip>
#include <qcustomplot.h>

#include "reports/ReportPalette.h"

namespace swb {

namespace {

// Enough digits to tell neighbouring cells apart: three significant, more for values near 0 or 1.
QString formatValue(double value) {
    if (std::isnan(value))
        return QStringLiteral("\u2014");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("\u221E") : QStringLiteral("-\u221E");
    const double magnitude = std::abs(value);
    if (magnitude >= 100)
        return QString::number(value, 'f', 0);
    if (magnitude >= 10)
        return QString::number(value, 'f', 1);
    return QString::number(value, 'f', magnitude > 0 && magnitude < 0.01 ? 4 : 2);
}

} // namespace

SweepHeatmap::SweepHeatmap(QWidget* parent)
    : ReportChart(tr("Sweep"), parent) {
    QCustomPlot* p = plot();
    p->yAxis->grid()->setVisible(false);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->setRangeReversed(true); // the first y value on top
    for (QCPAxis* axis : {p->xAxis, p->yAxis}) {
        axis->setTickLength(0, 0);
        axis->setSubTicks(false);
        axis->setBasePen(Qt::NoPen);
        axis->setTickPen(Qt::NoPen);
    }
    m_scale = new QCPColorScale(p);
    m_scale->setType(QCPAxis::atRight);
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, QColor(0xF7, 0xFB, 0xFF)); // ColorBrewer Blues
    gradient.setColorStopAt(0.5, QColor(0x6B, 0xAE, 0xD6));
    gradient.setColorStopAt(1.0, QColor(0x08, 0x30, 0x6B));
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(reportPalette::noData());
    m_scale->setGradient(gradient);
    m_scale->setBarWidth(10);
    m_scale->axis()->setSubTicks(false);
    m_scale->axis()->setBasePen(Qt::NoPen);
    m_scale->axis()->setTickPen(QPen(QColor(0xB0, 0xB5, 0xBC)));
    m_scale->axis()->setTickLabelColor(QColor(0x4A, 0x4F, 0x57));
    m_scale->axis()->setLabelColor(QColor(0x4A, 0x4F, 0x57));
    m_margins = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
    showBeside(m_scale, false);

    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const auto [column, row] = cellAt(event->pos());
        if (column < 0) {
            QToolTip::hideText();
            return;
        }
        QString where = m_grid.xLabel + QStringLiteral(" = ") + m_grid.xValues.at(column);
        if (!m_grid.yValues.isEmpty())
            where += QStringLiteral(", ") + m_grid.yLabel + QStringLiteral(" = ") + m_grid.yValues.at(row);
        const int runs = static_cast<std::size_t>(row * columns() + column) < m_grid.runs.size()
                             ? m_grid.runs[static_cast<std::size_t>(row * columns() + column)]
                             : 0;
        QToolTip::showText(event->globalPosition().toPoint(),
                           tr("%1\n%2: %3 (%n run(s)); click to see the outputs", nullptr, runs)
                               .arg(where, m_grid.metric, formatValue(value(column, row))),
                           plot());
    });
    connect(p, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        const auto [column, row] = cellAt(event->pos());
        if (column < 0)
            return;
        selectCell(column, row);
        emit cellClicked(column, row);
    });
}

double SweepHeatmap::value(int column, int row) const {
    const auto index = static_cast<std::size_t>(row * columns() + column);
    return index < m_grid.values.size() ? m_grid.values[index] : std::nan("");
}

QString SweepHeatmap::cellText(int column, int row) const {
    if (column < 0 || row < 0 || column >= columns() || row >= rows())
        return {};
    return formatValue(value(column, row));
}

std::pair<int, int> SweepHeatmap::cellAt(const QPoint& pos) const {
    if (columns() == 0 || !placeholder().isEmpty() || !plot()->axisRect()->rect().contains(pos))
        return {-1, -1};
    const auto column = static_cast<int>(std::lround(plot()->xAxis->pixelToCoord(pos.x())));
    const auto row = static_cast<int>(std::lround(plot()->yAxis->pixelToCoord(pos.y())));
    if (row < 0 || row >= rows() || column < 0 || column >= columns())
        return {-1, -1};
    return {column, row};
}

void SweepHeatmap::clear(const QString& message) {
    m_grid = {};
    m_selection = nullptr;
    showBeside(m_scale, false);
    showPlaceholder(message);
}

void SweepHeatmap::selectCell(int column, int row) {
    if (!m_selection || column < 0 || row < 0 || column >= columns() || row >= rows())
        return;
    m_selection->topLeft->setCoords(column - 0.5, row - 0.5);
    m_selection->bottomRight->setCoords(column + 0.5, row + 0.5);
    m_selection->setVisible(true);
    plot()->replot();
}

void SweepHeatmap::setGrid(Grid grid) {
    m_grid = std::move(grid);
    beginContent();
    showBeside(m_scale, true);
    QCustomPlot* p = plot();
    const int n = columns();
    const int m = rows();

    // A colour map draws cells between its first and last cell centres, half a cell beyond: a dimension of one
    // cell would have no extent, so it is stored as two equal cells a half apart (covering -0.5 to 0.5).
    auto* map = new QCPColorMap(p->xAxis, p->yAxis);
    const int cellsX = std::max(2, n);
    const int cellsY = std::max(2, m);
    map->data()->setSize(cellsX, cellsY);
    map->data()->setRange(n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.25, 0.25),
                          m > 1 ? QCPRange(0, m - 1) : QCPRange(-0.25, 0.25));
    double low = INFINITY;
    double high = -INFINITY;
    for (int y = 0; y < cellsY; ++y)
        for (int x = 0; x < cellsX; ++x) {
            const double v = value(std::min(x, n - 1), std::min(y, m - 1));
            map->data()->setCell(x, y, std::isfinite(v) ? v : std::nan(""));
            if (std::isfinite(v)) {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        }
    map->setInterpolate(false);
    map->setColorScale(m_scale);
    if (!std::isfinite(low)) {
        low = 0;
        high = 1;
    } else if (high - low < 1e-12) {
        low -= 0.5;
        high += 0.5;
    } else if (const double least = 0.1 * std::max(std::fabs(low), std::fabs(high)); high - low < least) {
        // A spread of a few percent (3.17 to 3.32 nats) would fill the whole scale and look like an effect:
        // the colours span at least a tenth of the values' size, centred on them.
        const double middle = (low + high) / 2;
        low = middle - least / 2;
        high = middle + least / 2;
    }
    m_scale->setDataRange(QCPRange(low, high));
    m_scale->axis()->setLabel(m_grid.metric);

    QFont font = p->font();
    font.setPointSizeF(font.pointSizeF() * (n * m <= 25 ? 0.95 : 0.8));
    for (int row = 0; row < m; ++row)
        for (int column = 0; column < n; ++column) {
            auto* text = new QCPItemText(p);
            text->position->setCoords(column, row);
            text->setFont(font);
            text->setText(cellText(column, row));
            text->setTextAlignment(Qt::AlignCenter);
            const double v = value(column, row);
            const bool dark = std::isfinite(v) && (v - low) / (high - low) > 0.55;
            text->setColor(dark ? Qt::white : QColor(0x25, 0x29, 0x2E));
        }
    m_selection = new QCPItemRect(p);
    m_selection->setPen(QPen(QColor(0xE6, 0x9F, 0x00), 3));
    m_selection->setBrush(Qt::NoBrush);
    m_selection->setVisible(false);

    auto ticker = [](const QStringList& labels) {
        auto t = QSharedPointer<QCPAxisTickerText>::create();
        for (int i = 0; i < labels.size(); ++i)
            t->addTick(i, labels.at(i));
        return t;
    };
    p->xAxis->setTicker(ticker(m_grid.xValues));
    p->yAxis->setTicker(ticker(m_grid.yValues.isEmpty() ? QStringList{QString()} : m_grid.yValues));
    p->xAxis->setLabel(m_grid.xLabel);
    p->yAxis->setLabel(m_grid.yLabel);
    p->xAxis->setRange(-0.5, n - 0.5);
    p->yAxis->setRange(-0.5, m - 0.5);
    p->replot();
}

} // namespace swb
