#include "reports/WinRateHeatmap.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <QToolTip>
#include <qcustomplot.h>

#include "reports/ReportPalette.h"

namespace swb {

WinRateHeatmap::WinRateHeatmap(const QString& title, QWidget* parent)
    : ReportChart(title, parent) {
    QCustomPlot* p = plot();
    p->yAxis->grid()->setVisible(false);
    p->yAxis->setRangeReversed(true); // the first strategy on top, as in the table
    for (QCPAxis* axis : {p->xAxis, p->yAxis}) {
        axis->setTickLength(0, 0);
        axis->setBasePen(Qt::NoPen);
        axis->setTickPen(Qt::NoPen);
    }
    p->xAxis->setLabel(tr("against"));
    m_scale = new QCPColorScale(p);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setDataRange(QCPRange(0, 1));
    QCPColorGradient gradient;
    gradient.clearColorStops();
    gradient.setColorStopAt(0.0, reportPalette::losing());
    gradient.setColorStopAt(0.5, reportPalette::even());
    gradient.setColorStopAt(1.0, reportPalette::winning());
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(reportPalette::noData());
    m_scale->setGradient(gradient);
    m_scale->setBarWidth(10);
    m_scale->axis()->setLabel(tr("win rate of row"));
    m_scale->axis()->setSubTicks(false);
    m_scale->axis()->setBasePen(Qt::NoPen);
    m_scale->axis()->setTickPen(QPen(QColor(0xB0, 0xB5, 0xBC)));
    m_scale->axis()->setTickLabelColor(QColor(0x4A, 0x4F, 0x57));
    m_scale->axis()->setLabelColor(QColor(0x4A, 0x4F, 0x57));
    m_scale->axis()->setTicker(QSharedPointer<QCPAxisTickerFixed>::create());
    qSharedPointerCast<QCPAxisTickerFixed>(m_scale->axis()->ticker())->setTickStep(0.25);
    m_margins = new QCPMarginGroup(p);
    p->axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, m_margins);
    p->plotLayout()->addElement(0, 1, m_scale);

    connect(p, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const auto [row, column] = cellAt(event->pos());
        if (row < 0 || row == column) {
            QToolTip::hideText();
            return;
        }
        const WinRateCell& cell = m_matrix.cell(row, column);
        const QString a = m_matrix.strategies[row];
        const QString b = m_matrix.strategies[column];
        const QString text = cell.battles() == 0
                                 ? tr("%1 and %2 have not met in a preference yet.").arg(a, b)
                                 : tr("%1 against %2: win rate %3, battles: %4\n%5 won, %6 lost, %7 tied, %8 both bad")
                                       .arg(a, b, QString::number(cell.winRate, 'f', 3))
                                       .arg(cell.battles())
                                       .arg(cell.wins)
                                       .arg(cell.losses)
                                       .arg(cell.ties)
                                       .arg(cell.bothBad);
        QToolTip::showText(event->globalPosition().toPoint(), text, plot());
    });
}

std::pair<int, int> WinRateHeatmap::cellAt(const QPoint& pos) const {
    const int n = m_matrix.size();
    if (n == 0 || !placeholder().isEmpty() || !plot()->axisRect()->rect().contains(pos))
        return {-1, -1};
    const auto column = static_cast<int>(std::lround(plot()->xAxis->pixelToCoord(pos.x())));
    const auto row = static_cast<int>(std::lround(plot()->yAxis->pixelToCoord(pos.y())));
    if (row < 0 || row >= n || column < 0 || column >= n)
        return {-1, -1};
    return {row, column};
}

QString WinRateHeatmap::cellText(int row, int column) const {
    if (row == column || row < 0 || column < 0 || row >= m_matrix.size() || column >= m_matrix.size())
        return {};
    const WinRateCell& cell = m_matrix.cell(row, column);
    if (cell.battles() == 0)
        return QStringLiteral("\u2014");
    // Wins–losses–draws, where a draw is a tie or a both-bad verdict.
    return tr("%1\n%2–%3–%4")
        .arg(QString::number(cell.winRate, 'f', 2))
        .arg(cell.wins)
        .arg(cell.losses)
        .arg(cell.ties + cell.bothBad);
}

void WinRateHeatmap::clear(const QString& message) {
    m_matrix = {};
    m_cellTexts.clear();
    showBeside(m_scale, false);
    showPlaceholder(message);
}

void WinRateHeatmap::setMatrix(WinRateMatrix matrix) {
    m_matrix = std::move(matrix);
    beginContent();
    m_cellTexts.clear();
    showBeside(m_scale, true);
    QCustomPlot* p = plot();
    const int n = m_matrix.size();

    auto* map = new QCPColorMap(p->xAxis, p->yAxis);
    map->data()->setSize(n, n);
    map->data()->setRange(QCPRange(0, n - 1), QCPRange(0, n - 1));
    for (int row = 0; row < n; ++row)
        for (int column = 0; column < n; ++column)
            map->data()->setCell(column, row, m_matrix.cell(row, column).winRate);
    map->setInterpolate(false);
    map->setColorScale(m_scale); // takes the scale's gradient and range

    // Values in the cells; with many strategies, smaller text and the rate alone.
    QFont font = p->font();
    font.setPointSizeF(font.pointSizeF() * (n <= 4 ? 0.95 : 0.8));
    for (int row = 0; row < n; ++row)
        for (int column = 0; column < n; ++column) {
            if (row == column)
                continue;
            const WinRateCell& cell = m_matrix.cell(row, column);
            auto* text = new QCPItemText(p);
            text->position->setCoords(column, row);
            text->setFont(font);
            QString label = cellText(row, column);
            if (n > 5)
                label = label.section(QLatin1Char('\n'), 0, 0);
            text->setText(label);
            text->setTextAlignment(Qt::AlignCenter);
            const bool dark = std::isfinite(cell.winRate) && std::abs(cell.winRate - 0.5) > 0.3;
            text->setColor(dark ? Qt::white : QColor(0x25, 0x29, 0x2E));
            m_cellTexts.push_back(text);
        }

    auto ticker = [this] {
        auto t = QSharedPointer<QCPAxisTickerText>::create();
        for (int i = 0; i < m_matrix.size(); ++i)
            t->addTick(i, m_matrix.size() > 6 ? QString::number(i + 1) : m_matrix.strategies[i]);
        return t;
    };
    int longest = 0;
    for (const QString& s : m_matrix.strategies)
        longest = std::max(longest, static_cast<int>(s.size()));
    p->xAxis->setTicker(ticker());
    p->yAxis->setTicker(ticker());
    p->xAxis->setTickLabelRotation(n <= 6 && (n > 4 || longest > 10) ? 60 : 0);
    p->xAxis->setRange(-0.5, n - 0.5);
    p->yAxis->setRange(-0.5, n - 0.5);
    p->replot();
}

void WinRateHeatmap::fitLabels() {
    // With many strategies: every few names on each axis and no numbers in cells too small for them (hovering
    // a cell still tells all).
    QCustomPlot* p = plot();
    const double across = p->xAxis->coordToPixel(1) - p->xAxis->coordToPixel(0);
    const double down = std::abs(p->yAxis->coordToPixel(1) - p->yAxis->coordToPixel(0));
    const QFontMetrics ticks(p->xAxis->tickLabelFont());
    const double slanted = p->xAxis->tickLabelRotation() != 0
                               ? (ticks.height() + 2) / std::sin(std::numbers::pi / 3)
                               : ticks.horizontalAdvance(QString::number(m_matrix.size())) + 6;
    // Past six strategies, their numbers in the report's order (the names leave no room for the cells).
    QStringList names = m_matrix.strategies;
    if (names.size() > 6)
        for (qsizetype i = 0; i < names.size(); ++i)
            names[i] = QString::number(i + 1);
    thinTicks(p->xAxis, names, across, slanted);
    thinTicks(p->yAxis, names, down, ticks.height() + 2);
    for (QCPItemText* text : m_cellTexts) {
        const QFontMetrics metrics(text->font());
        const QRect needed = metrics.boundingRect(QRect(), Qt::AlignCenter, text->text());
        text->setVisible(needed.width() + 4 <= across && needed.height() <= down);
    }
}

} // namespace swb
