#include "explore/TimelinePlot.h"

#include <algorithm>
#include <cmath>

#include <QVBoxLayout>
#include <qcustomplot.h>

#include "explore/Palette.h"

namespace swb {

TimelinePlot::TimelinePlot(QWidget* parent)
    : QWidget(parent) {
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("timelinePlot"));
    m_plot->setMinimumHeight(130);
    QCPAxisRect* top = m_plot->axisRect();
    m_bottom = new QCPAxisRect(m_plot);
    m_plot->plotLayout()->addElement(1, 0, m_bottom);
    m_plot->plotLayout()->setRowStretchFactor(0, 1.4);
    m_plot->plotLayout()->setRowSpacing(0);
    auto* group = new QCPMarginGroup(m_plot);
    top->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    m_bottom->setMarginGroup(QCP::msLeft | QCP::msRight, group);
    top->axis(QCPAxis::atRight)->setVisible(true);
    m_bottom->axis(QCPAxis::atLeft)->setScaleType(QCPAxis::stLogarithmic);
    m_bottom->axis(QCPAxis::atLeft)->setLabel(tr("survivors"));
    m_bottom->axis(QCPAxis::atBottom)->setLabel(tr("step"));
    top->axis(QCPAxis::atLeft)->setLabel(tr("entropy (nats)"));
    top->axis(QCPAxis::atRight)->setLabel(tr("chosen p"));
    top->axis(QCPAxis::atRight)->setRange(0, 1.05);
    for (QCPAxis* axis : {top->axis(QCPAxis::atLeft), top->axis(QCPAxis::atRight), m_bottom->axis(QCPAxis::atLeft)}) {
        QFont font = axis->labelFont();
        font.setPointSizeF(font.pointSizeF() * 0.85);
        axis->setLabelFont(font);
    }

    m_rawEntropy = m_plot->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    m_rawEntropy->setName(tr("raw entropy"));
    m_rawEntropy->setPen(QPen(palette::kept(), 1.5));
    m_finalEntropy = m_plot->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    m_finalEntropy->setName(tr("final entropy"));
    m_finalEntropy->setPen(QPen(palette::finalMarker(), 1.5, Qt::DashLine));
    m_chosenP = m_plot->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atRight));
    m_chosenP->setName(tr("chosen raw p"));
    m_chosenP->setPen(QPen(palette::accent(), 1.2));
    m_chosenP->setLineStyle(QCPGraph::lsNone);
    m_chosenP->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    // Drawn only for a run with a grammar stage: how much of the distribution it took away at each step.
    m_grammarRemoved = m_plot->addGraph(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atRight));
    m_grammarRemoved->setName(tr("mass removed by grammar"));
    m_grammarRemoved->setPen(QPen(palette::grammar(), 1.2));
    m_grammarRemoved->setLineStyle(QCPGraph::lsStepCenter);
    m_survivors = m_plot->addGraph(m_bottom->axis(QCPAxis::atBottom), m_bottom->axis(QCPAxis::atLeft));
    m_survivors->setName(tr("survivors"));
    m_survivors->setPen(QPen(palette::marker(), 1.2));
    m_survivors->setLineStyle(QCPGraph::lsStepCenter);

    m_plot->legend->setVisible(true);
    m_plot->legend->removeItem(m_plot->legend->itemCount() - 1); // survivors: the axis says it
    m_grammarRemoved->setVisible(false);
    m_grammarRemoved->removeFromLegend();
    QFont legendFont = m_plot->legend->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.8);
    m_plot->legend->setFont(legendFont);
    m_plot->legend->setBrush(QColor(255, 255, 255, 200));
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->legend->setBorderPen(Qt::NoPen);
    // The legend in a row of its own above the curves.
    top->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setMargins(QMargins(2, 0, 2, 0));
    connect(m_plot, &QCustomPlot::afterLayout, this, &TimelinePlot::fitAxisTitles);

    m_cursorTop = new QCPItemStraightLine(m_plot);
    m_cursorBottom = new QCPItemStraightLine(m_plot);
    for (QCPItemStraightLine* cursor : {m_cursorTop, m_cursorBottom}) {
        cursor->setPen(QPen(palette::accent(), 1, Qt::DotLine));
        cursor->setVisible(false);
    }
    m_cursorTop->setClipAxisRect(top);
    m_cursorBottom->setClipAxisRect(m_bottom);
    for (auto* position : {m_cursorTop->point1, m_cursorTop->point2})
        position->setAxes(top->axis(QCPAxis::atBottom), top->axis(QCPAxis::atLeft));
    for (auto* position : {m_cursorBottom->point1, m_cursorBottom->point2})
        position->setAxes(m_bottom->axis(QCPAxis::atBottom), m_bottom->axis(QCPAxis::atLeft));

    connect(m_plot, &QCustomPlot::mousePress, this, [this, top](QMouseEvent* event) {
        if (m_steps == 0)
            return;
        const double x = top->axis(QCPAxis::atBottom)->pixelToCoord(event->pos().x());
        emit stepClicked(std::clamp(static_cast<int>(std::lround(x)) - 1, 0, m_steps - 1));
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    rescale();
}

int TimelinePlot::pointCount() const { return m_steps; }

bool TimelinePlot::showsGrammarSeries() const {
    return m_grammarRemoved->visible();
}

double TimelinePlot::grammarRemovedAt(int step) const {
    const auto found = m_grammarRemoved->data()->findBegin(step + 1, false);
    return found != m_grammarRemoved->data()->constEnd() && found->key == step + 1 ? found->value : std::nan("");
}

void TimelinePlot::showGrammarSeries(bool shown) {
    if (m_grammarRemoved->visible() == shown)
        return;
    m_grammarRemoved->setVisible(shown);
    if (shown)
        m_grammarRemoved->addToLegend();
    else
        m_grammarRemoved->removeFromLegend();
}

void TimelinePlot::setLoops(const std::vector<std::pair<int, int>>& loops) {
    for (QCPItemRect* mark : m_loopMarks)
        m_plot->removeItem(mark);
    m_loopMarks.clear();
    for (const auto& [start, end] : loops)
        for (QCPAxisRect* rect : {m_plot->axisRect(0), m_bottom}) {
            auto* mark = new QCPItemRect(m_plot);
            mark->setClipAxisRect(rect);
            mark->setLayer(QStringLiteral("background"));
            for (auto* position : {mark->topLeft, mark->bottomRight}) {
                position->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
                position->setTypeY(QCPItemPosition::ptAxisRectRatio);
            }
            // Steps are drawn at start + 1 .. end on screen.
            mark->topLeft->setCoords(start + 0.5, 0);
            mark->bottomRight->setCoords(end + 0.5, 1);
            mark->setPen(Qt::NoPen);
            mark->setBrush(QColor(0xE6, 0x9F, 0x00, 48));
            m_loopMarks.push_back(mark);
        }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::clearSteps() {
    setLoops({});
    for (QCPGraph* graph : {m_rawEntropy, m_finalEntropy, m_chosenP, m_grammarRemoved, m_survivors})
        graph->data()->clear();
    showGrammarSeries(false);
    m_steps = 0;
    m_maxEntropy = 0.0;
    m_maxSurvivors = 1.0;
    m_cursorTop->setVisible(false);
    m_cursorBottom->setVisible(false);
    rescale();
}

void TimelinePlot::appendSteps(const std::vector<GeneratedStep>& steps) {
    for (const GeneratedStep& step : steps) {
        const double x = ++m_steps; // steps are numbered from 1 on screen
        m_rawEntropy->addData(x, step.trace.rawEntropy);
        m_finalEntropy->addData(x, step.trace.finalEntropy);
        m_chosenP->addData(x, step.trace.rawP);
        const auto grammar = std::find_if(step.trace.stages.begin(), step.trace.stages.end(),
                                          [](const StageTrace& s) { return s.sampler == QLatin1String("grammar"); });
        if (grammar != step.trace.stages.end()) {
            m_grammarRemoved->addData(x, std::isfinite(grammar->keptMass) ? 1.0 - grammar->keptMass : std::nan(""));
            showGrammarSeries(true);
        }
        // Unknown (a remote engine's step) is a gap, not one survivor.
        m_survivors->addData(x, step.trace.finalCount < 0 ? std::nan("") : double(std::max(1, step.trace.finalCount)));
        m_maxEntropy = std::max({m_maxEntropy, step.trace.rawEntropy, step.trace.finalEntropy});
        m_maxSurvivors = std::max(m_maxSurvivors, static_cast<double>(step.trace.finalCount));
    }
    rescale();
}

void TimelinePlot::setSelectedStep(int step) {
    const bool visible = step >= 0 && step < m_steps;
    m_cursorTop->setVisible(visible);
    m_cursorBottom->setVisible(visible);
    if (visible) {
        m_cursorTop->point1->setCoords(step + 1, 0);
        m_cursorTop->point2->setCoords(step + 1, 1);
        m_cursorBottom->point1->setCoords(step + 1, 1);
        m_cursorBottom->point2->setCoords(step + 1, 10);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelinePlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    rescale();
}

namespace {

// A step of 1, 2 or 5 times a power of ten giving at most `ticks` intervals over [0, top], but never more than
// top itself (a labelled tick above 0 always shows).
double niceStep(double top, int ticks) {
    const auto nice = [](double value, bool up) {
        const double power = std::pow(10.0, std::floor(std::log10(value)));
        double best = up ? 10 * power : power;
        for (double factor : {1.0, 2.0, 5.0, 10.0}) {
            if (up && factor * power >= value) {
                best = factor * power;
                break;
            }
            if (!up && factor * power <= value)
                best = factor * power;
        }
        return best;
    };
    return std::min(nice(top / std::max(1, ticks), true), nice(top, false));
}

} // namespace

void TimelinePlot::fitAxisTitles() {
    // Each title no longer than its axis: rotated, a longer one ran into the next ("survivors entropy (nats").
    const auto fit = [](QCPAxis* axis, const QStringList& texts, int room) {
        const QFontMetrics metrics(axis->labelFont());
        for (const QString& text : texts)
            if (metrics.horizontalAdvance(text) + 4 <= room) {
                axis->setLabel(text);
                return;
            }
        axis->setLabel(QString());
    };
    QCPAxisRect* top = m_plot->axisRect(0);
    fit(top->axis(QCPAxis::atLeft), {tr("entropy (nats)"), tr("entropy"), tr("nats")}, top->height());
    fit(top->axis(QCPAxis::atRight), {tr("chosen p"), tr("p")}, top->height());
    fit(m_bottom->axis(QCPAxis::atLeft), {tr("survivors"), tr("kept")}, m_bottom->height());
}

void TimelinePlot::rescale() {
    QCPAxisRect* top = m_plot->axisRect(0); // the legend row holds no axis rect
    const double right = std::max(10, m_steps) + 0.5;
    top->axis(QCPAxis::atBottom)->setRange(0.5, right);
    m_bottom->axis(QCPAxis::atBottom)->setRange(0.5, right);
    const double entropyTop = std::max(1.0, m_maxEntropy * 1.1);
    top->axis(QCPAxis::atLeft)->setRange(0, entropyTop);
    m_bottom->axis(QCPAxis::atLeft)->setRange(0.8, std::max(10.0, m_maxSurvivors * 1.5));
    top->axis(QCPAxis::atBottom)->setTickLabels(false);
    // Steps are whole: ticks 1, 2 or 5 times a power of ten apart (never 2.5), about one per 70 px.
    auto steps = QSharedPointer<QCPAxisTickerFixed>::create();
    steps->setTickStep(std::max(1.0, niceStep(right, std::clamp(width() / 70, 2, 10))));
    steps->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    top->axis(QCPAxis::atBottom)->setTicker(steps);
    m_bottom->axis(QCPAxis::atBottom)->setTicker(steps);
    // As many labelled ticks as the plot's height leaves room for (about 18 px each), so they never overlap:
    // the curves' share of the widget is about half of it.
    const int rows = std::clamp((height() / 2 - 30) / 18, 1, 4);
    auto entropy = QSharedPointer<QCPAxisTickerFixed>::create();
    entropy->setTickStep(niceStep(entropyTop, rows));
    entropy->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    top->axis(QCPAxis::atLeft)->setTicker(entropy);
    auto chosen = QSharedPointer<QCPAxisTickerFixed>::create();
    chosen->setTickStep(rows >= 4 ? 0.25 : rows >= 2 ? 0.5 : 1.0);
    chosen->setScaleStrategy(QCPAxisTickerFixed::ssNone);
    top->axis(QCPAxis::atRight)->setTicker(chosen);
    // Survivors: 1 and the largest power of ten below the top, with the decades between when there is room.
    auto survivors = QSharedPointer<QCPAxisTickerText>::create();
    const int decades = static_cast<int>(std::floor(std::log10(std::max(10.0, m_maxSurvivors * 1.5))));
    std::vector<int> shown;
    if (decades + 1 <= rows) {
        for (int d = 0; d <= decades; ++d)
            shown.push_back(d);
    } else {
        shown = {0, decades};
        if (rows >= 3 && decades >= 2)
            shown.insert(shown.begin() + 1, decades / 2);
    }
    for (int d : shown)
        survivors->addTick(std::pow(10.0, d), QString::number(static_cast<qint64>(std::pow(10.0, d))));
    m_bottom->axis(QCPAxis::atLeft)->setTicker(survivors);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace swb
