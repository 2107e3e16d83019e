#include "explore/DistributionPlot.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QTimer>
#include <QMenu>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "SaveFileDialog.h"
#include "explore/Palette.h"

namespace swb {

DistributionPlot::DistributionPlot(QWidget* parent)
    : QWidget(parent) {
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("distributionTitle"));
    m_title->setTextFormat(Qt::PlainText);
    // Wraps rather than widening the plot: the pipeline beside it keeps its room in a narrow window.
    m_title->setWordWrap(true);
    m_title->setMinimumWidth(120);
    m_log = new QCheckBox(tr("&Log scale"), this);
    m_log->setObjectName(QStringLiteral("logScale"));
    m_log->setToolTip(tr("Show probabilities on a logarithmic axis, so the tail is visible."));
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Save the plot as PNG or PDF"));
    connect(exportButton, &QToolButton::clicked, this, &DistributionPlot::exportDialog);
    connect(m_log, &QCheckBox::toggled, this, &DistributionPlot::redraw);

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("distributionPlot"));
    m_plot->setMinimumHeight(140);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->setMouseTracking(true);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->legend->setVisible(true);
    QFont legendFont = m_plot->legend->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_plot->legend->setFont(legendFont);
    m_plot->legend->setBrush(QColor(255, 255, 255, 210));
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(4);
    // Small keys in one row, so that a short plot keeps its height for the bars.
    m_plot->legend->setIconSize(QSize(14, 9));
    m_plot->legend->setIconTextPadding(4);
    m_plot->legend->setRowSpacing(0);
    m_plot->legend->setMargins(QMargins(2, 0, 2, 0));
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    connect(m_plot, &QCustomPlot::customContextMenuRequested, this, &DistributionPlot::showContextMenu);
    connect(m_plot, &QCustomPlot::afterLayout, this, &DistributionPlot::wrapMarkerLabels);
    connect(m_plot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        const int bar = barAt(event->pos());
        if (bar < 0) {
            QToolTip::hideText();
            return;
        }
        QString text;
        if (bar < m_shownBars) {
            const DistributionBar& b = m_model.bars[static_cast<std::size_t>(bar)];
            text = tr("“%1” (id %2)\nraw p %3\np %4%5")
                       .arg(b.label)
                       .arg(b.id)
                       .arg(b.rawP, 0, 'g', 4)
                       .arg(b.shownP, 0, 'g', 4)
                       .arg(b.chosen ? tr("\nchosen") : (b.kept ? QString() : tr("\ncut")));
        } else {
            text = tr("All other tokens\nraw mass %1\np %2")
                       .arg(m_othersRawP, 0, 'g', 4)
                       .arg(m_othersShownP, 0, 'g', 4);
        }
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
    });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* event) {
        const int bar = barAt(event->pos());
        if (bar >= 0 && bar < m_shownBars)
            emit barActivated(bar);
    });

    auto* header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_log);
    header->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_plot, 1);
    clear(tr("Generate, then select a step to see its distribution."));
}

bool DistributionPlot::logScale() const {
    return m_log->isChecked();
}
void DistributionPlot::wrapMarkerLabels() {
    // Each cutoff label wrapped at spaces to the room between its line and the plot's edge on its side, once
    // the plot is laid out at its size.
    const QRect area = m_plot->axisRect()->rect();
    for (const auto& [label, text] : m_markerLabels) {
        const double x = m_plot->xAxis->coordToPixel(label->position->key());
        const double room = (label->positionAlignment() & Qt::AlignLeft ? area.right() - x : x - area.left()) - 10;
        label->setText(wrapped(text, QFontMetrics(label->font()), std::max(80, static_cast<int>(room))));
    }
}

QString DistributionPlot::wrapped(const QString& text, const QFontMetrics& metrics, int width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(QLatin1Char('\n'));
}

void DistributionPlot::setLogScale(bool on) {
    m_log->setChecked(on);
}

void DistributionPlot::clear(const QString& message) {
    m_model = {};
    m_title->setText(message);
    redraw();
}

void DistributionPlot::setModel(DistributionModel model) {
    m_model = std::move(model);
    m_title->setText(m_model.title);
    redraw();
}

int DistributionPlot::barAt(const QPoint& pos) const {
    if (m_model.bars.empty() || !m_plot->axisRect()->rect().contains(pos))
        return -1;
    const double x = m_plot->xAxis->pixelToCoord(pos.x());
    const int bar = static_cast<int>(std::lround(x));
    return bar >= 0 && bar <= m_shownBars ? bar : -1;
}

void DistributionPlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The legend in one row where it fits, else two.
    m_plot->legend->setWrap(4);
    const int wrap = m_plot->legend->minimumOuterSizeHint().width() + 8 > event->size().width() ? 2 : 4;
    if (m_plot->legend->wrap() != wrap) {
        m_plot->legend->setWrap(wrap);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    if (event->oldSize().width() != event->size().width() && !m_model.bars.empty())
        QTimer::singleShot(0, this, [this] { redraw(); }); // once the plot has its new width
}

void DistributionPlot::redraw() {
    m_plot->clearPlottables();
    m_plot->clearGraphs();
    m_plot->clearItems();
    m_markerLabels.clear(); // their items are gone
    const bool log = logScale();
    m_plot->yAxis->setScaleType(log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    if (log)
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    else
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    m_plot->yAxis->setLabel(tr("probability"));
    // As many bars as their labels, slanted at 60 degrees, have room for (a text line apart across the slant:
    // height / sin 60 along the axis); the rest join "others".
    const double pitch = QFontMetrics(m_plot->xAxis->tickLabelFont()).height() / std::sin(std::numbers::pi / 3) + 2;
    const int axisWidth = m_plot->axisRect()->width() > 40 ? m_plot->axisRect()->width() : m_plot->width() - 90;
    const int room = std::max(6, static_cast<int>(axisWidth / pitch) - 2);
    const auto n = std::min(static_cast<int>(m_model.bars.size()), room);
    double othersRawP = m_model.othersRawP;
    m_othersShownP = m_model.othersShownP;
    for (std::size_t i = static_cast<std::size_t>(n); i < m_model.bars.size(); ++i) {
        othersRawP += m_model.bars[i].rawP;
        m_othersShownP += m_model.bars[i].shownP;
    }
    m_othersRawP = othersRawP;
    m_shownBars = n;
    m_plot->legend->setVisible(n > 0);
    // Nothing to show (before a generation, during a beam search): no axes left over from the last step,
    // only the message above the plot.
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setVisible(n > 0);
        axis->grid()->setVisible(n > 0);
    }
    if (n == 0) {
        m_plot->replot();
        return;
    }

    const auto makeBars = [this](const QColor& color) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setWidth(0.75);
        bars->setPen(Qt::NoPen);
        bars->setBrush(color);
        return bars;
    };
    QCPBars* kept = makeBars(palette::kept());
    QCPBars* cut = makeBars(palette::cut());
    QCPBars* chosen = makeBars(palette::accent());
    QCPBars* others = makeBars(palette::others());
    kept->setName(tr("kept (raw p)"));
    cut->setName(tr("cut (raw p)"));
    chosen->setName(tr("chosen"));
    others->removeFromLegend();
    auto* finalKey = m_plot->addGraph();
    finalKey->setName(m_model.finalLabel.isEmpty() ? tr("p after the chain") : m_model.finalLabel);
    finalKey->setPen(QPen(palette::finalMarker(), 2));
    const double floor = 1e-7;
    double top = 0.0;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < n; ++i) {
        const DistributionBar& bar = m_model.bars[static_cast<std::size_t>(i)];
        const double value = std::max(bar.rawP, floor);
        top = std::max(top, bar.rawP);
        (bar.chosen ? chosen : bar.kept ? kept : cut)->addData(i, value);
        // The shown stage's probability as a thin outline marker over the raw bar.
        if (bar.kept && bar.shownP > 0.0) {
            auto* tick = new QCPItemLine(m_plot);
            tick->start->setCoords(i - 0.38, std::max(bar.shownP, floor));
            tick->end->setCoords(i + 0.38, std::max(bar.shownP, floor));
            tick->setPen(QPen(palette::finalMarker(), 2));
            top = std::max(top, bar.shownP);
        }
        ticker->addTick(i, bar.label.size() > 14 ? bar.label.left(13) + QChar(0x2026) : bar.label);
    }
    others->addData(n, std::max(othersRawP, floor));
    ticker->addTick(n, tr("others"));
    top = std::max(top, othersRawP);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLabelRotation(60);
    // Room on the right for the last label ("others"), which the rotation slants past the axis end: QCustomPlot
    // leaves out a label that does not fit the widget.
    m_plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msTop | QCP::msBottom);
    m_plot->axisRect()->setMargins(QMargins(0, 0, QFontMetrics(m_plot->xAxis->tickLabelFont()).horizontalAdvance(tr("others")) / 2 + 12, 0));
    m_plot->xAxis->setSubTicks(false);
    m_plot->xAxis->setTickLength(0, 3);
    m_plot->xAxis->setRange(-0.7, n + 0.7);
    const double yTop = log ? 1.5 : std::min(1.0, top * 1.18 + 0.02);
    const double yBottom =
        log ? std::max(floor, 0.5 * std::min(0.999, std::max(floor,
                                                             [this] {
                                                                 double lo = 1.0;
                                                                 for (const auto& bar : m_model.bars)
                                                                     lo = std::min(lo, std::max(bar.rawP, 1e-7));
                                                                 return lo;
                                                             }())))
            : 0.0;
    m_plot->yAxis->setRange(yBottom, yTop);

    // The surviving region: from the first bar to the last kept one.
    int lastKept = -1;
    for (int i = 0; i < n; ++i)
        if (m_model.bars[static_cast<std::size_t>(i)].kept)
            lastKept = i;
    if (lastKept >= 0) {
        auto* region = new QCPItemRect(m_plot);
        region->setLayer(QStringLiteral("background"));
        region->topLeft->setCoords(-0.5, yTop);
        region->bottomRight->setCoords(lastKept + 0.5, yBottom);
        region->setPen(Qt::NoPen);
        region->setBrush(palette::survivorRegion());
    }
    // Cutoff markers. Each label hangs under the one before (anchored to its bottom, 2 px apart), so neighbours
    // never overlap whatever size the plot is laid out at later.
    QCPItemText* previous = nullptr;
    for (const CutMarker& marker : m_model.markers) {
        const bool onPlot = marker.onPlot && marker.position <= n;
        const double x = onPlot ? marker.position - 0.5 : n - 0.5;
        auto* line = new QCPItemStraightLine(m_plot);
        line->point1->setCoords(x, yBottom);
        line->point2->setCoords(x, yTop);
        line->setPen(QPen(palette::marker(), 1.5, onPlot ? Qt::DashLine : Qt::DotLine));
        auto* label = new QCPItemText(m_plot);
        if (previous) {
            label->position->setTypeY(QCPItemPosition::ptAbsolute);
            label->position->setParentAnchorY(previous->bottom);
            label->position->setCoords(x, 2);
        } else {
            label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            label->position->setCoords(x, 0.03);
        }
        label->setPositionAlignment((onPlot && x < n * 0.5 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
        label->setPadding(QMargins(4, 1, 4, 1));
        label->setBrush(QColor(255, 255, 255, 220));
        label->setColor(palette::marker());
        const QString text = onPlot ? marker.label : marker.label + tr(" (beyond the bars shown)");
        label->setText(text);
        m_markerLabels.emplace_back(label, text);
        previous = label;
    }
    m_plot->replot();
}

void DistributionPlot::showContextMenu(const QPoint& pos) {
    QMenu menu(this);
    const int bar = barAt(pos);
    if (bar >= 0 && bar < m_shownBars) {
        const DistributionBar& b = m_model.bars[static_cast<std::size_t>(bar)];
        menu.addAction(tr("Branch with “%1” here").arg(b.label), this, [this, id = b.id] { emit branchRequested(id); });
        menu.addSeparator();
    }
    menu.addAction(tr("Export as PNG or PDF…"), this, &DistributionPlot::exportDialog);
    menu.exec(m_plot->mapToGlobal(pos));
}

bool DistributionPlot::exportTo(const QString& path) {
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive))
        return m_plot->savePdf(path);
    return m_plot->savePng(path, 0, 0, 2.0);
}

void DistributionPlot::exportDialog() {
    const QString path = getSaveFileName(this, tr("Export Plot"), QStringLiteral("distribution.png"),
                                                      tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (!path.isEmpty() && !exportTo(path))
        m_title->setText(tr("Cannot write %1.").arg(QDir::toNativeSeparators(path)));
}

} // namespace swb
