#include "reports/ReportChart.h"

#include <algorithm>
#include <cmath>

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "reports/ReportPalette.h"

namespace swb {

namespace {
void styleAxis(QCPAxis* axis) {
    const QColor ink(0x4A, 0x4F, 0x57);
    axis->setBasePen(QPen(QColor(0xB0, 0xB5, 0xBC)));
    axis->setTickPen(QPen(QColor(0xB0, 0xB5, 0xBC)));
    axis->setSubTickPen(Qt::NoPen);
    axis->setTickLabelColor(ink);
    axis->setLabelColor(ink);
    axis->grid()->setPen(QPen(reportPalette::grid(), 1));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}
} // namespace

ReportChart::ReportChart(const QString& title, QWidget* parent)
    : QWidget(parent) {
    m_title = new QLabel(title, this);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setToolTip(title);
    // May be cut short in a narrow window rather than squeezing the controls beside it.
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_title->setMinimumWidth(60);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    auto* exportButton = new QToolButton(this);
    exportButton->setObjectName(QStringLiteral("exportChart"));
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Save this chart as a PNG image or a PDF document"));
    exportButton->setAutoRaise(true);
    connect(exportButton, &QToolButton::clicked, this, &ReportChart::exportRequested);

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(210, 200); // four charts side by side in a 1000 px window
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    m_plot->setMouseTracking(true);
    m_plot->setBackground(Qt::white);
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis})
        styleAxis(axis);
    m_plot->xAxis->grid()->setVisible(false);
    m_plot->axisRect()->setAutoMargins(QCP::msAll);
    connect(m_plot, &QCustomPlot::customContextMenuRequested, this, &ReportChart::showContextMenu);
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        if (m_placeholderText.isEmpty())
            fitLabels();
    });

    m_header = new QHBoxLayout;
    m_header->setContentsMargins(2, 0, 0, 0);
    m_header->addWidget(m_title, 1);
    m_header->addWidget(exportButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(m_header);
    layout->addWidget(m_plot, 1);
}

QString ReportChart::title() const {
    return m_title->text();
}

void ReportChart::addHeaderWidget(QWidget* widget) {
    m_header->insertWidget(m_header->count() - 1, widget);
}

void ReportChart::showPlaceholder(const QString& message) {
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->xAxis->setVisible(false);
    m_plot->yAxis->setVisible(false);
    m_placeholderText = message;
    m_placeholder = new QCPItemText(m_plot);
    m_placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_placeholder->position->setCoords(0.5, 0.45);
    m_placeholder->setText(message);
    m_placeholder->setColor(QColor(0x6B, 0x71, 0x7A));
    m_placeholder->setClipToAxisRect(false);
    m_plot->replot();
}

void ReportChart::thinTicks(QCPAxis* axis, const QStringList& labels, double pitch, double needed) {
    const int step = pitch > 0 ? std::max(1, static_cast<int>(std::ceil(needed / pitch - 1e-9))) : 1;
    QStringList shown;
    for (qsizetype i = 0; i < labels.size(); ++i) {
        const QString& label = labels[i];
        shown << (i % step != 0 ? QString() : label.size() > 16 ? label.left(15) + QChar(0x2026) : label);
    }
    // Unchanged, nothing to do: replotting would lay out again, call this again, and so on for ever (a chart
    // without bars did that, a whole core spent while the window sat idle).
    if (m_shownTicks.contains(axis) && m_shownTicks.value(axis) == shown)
        return;
    m_shownTicks.insert(axis, shown);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (qsizetype i = 0; i < shown.size(); ++i)
        ticker->addTick(static_cast<double>(i), shown[i]);
    axis->setTicker(ticker);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ReportChart::beginContent() {
    m_shownTicks.clear();
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_placeholder = nullptr;
    m_placeholderText.clear();
    m_plot->xAxis->setVisible(true);
    m_plot->yAxis->setVisible(true);
}

bool ReportChart::exportTo(const QString& path) {
    // The exported file carries the title that the widget shows above the plot: a text item over the whole
    // width, in room made at the top of the layout (a layout row would be as narrow as its column).
    QFont font = m_title->font();
    font.setPointSizeF(font.pointSizeF() * 1.1);
    const QMargins margins = m_plot->plotLayout()->margins();
    m_plot->plotLayout()->setMargins(margins + QMargins(0, QFontMetrics(font).height() + 10, 0, 0));
    auto* heading = new QCPItemText(m_plot);
    heading->setClipToAxisRect(false);
    heading->position->setType(QCPItemPosition::ptViewportRatio);
    heading->position->setCoords(0.5, 0.0);
    heading->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    heading->setPadding(QMargins(0, 6, 0, 0));
    heading->setFont(font);
    heading->setText(title());
    const bool laidOut = m_plot->width() >= 320 && m_plot->height() >= 200;
    const int width = laidOut ? 0 : 640;
    const int height = laidOut ? 0 : 420;
    const bool saved = path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)
                           ? m_plot->savePdf(path, width, height)
                           : m_plot->savePng(path, width, height, 2.0);
    m_plot->removeItem(heading);
    m_plot->plotLayout()->setMargins(margins);
    m_plot->replot();
    return saved;
}

void ReportChart::showContextMenu(const QPoint& pos) {
    QMenu menu(this);
    menu.addAction(tr("Export as PNG or PDF…"), this, &ReportChart::exportRequested);
    menu.exec(m_plot->mapToGlobal(pos));
}

void ReportChart::showBeside(QCPLayoutElement* element, bool show) {
    QCPLayoutGrid* layout = m_plot->plotLayout();
    const bool shown = layout->hasElement(0, 1) && layout->element(0, 1) == element;
    if (show && !shown) {
        layout->addElement(0, 1, element);
        element->setVisible(true);
    } else if (!show && shown) {
        layout->take(element);
        layout->simplify();
        element->setVisible(false);
    }
}

} // namespace swb
