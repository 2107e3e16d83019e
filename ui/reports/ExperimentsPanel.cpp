#include "reports/ExperimentsPanel.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "reports/ReportPalette.h"
#include "reports/ReportTableModel.h"
#include "reports/ReportTables.h"

namespace swb {

namespace {

constexpr int kMostPoints = 2000; // per line: a long experiment is drawn from evenly spaced feedbacks

// The decision in the interface's language (the core's sentence is English, for logs and CSV).
QString decisionText(const ExperimentAnalysis& e) {
    switch (e.verdict) {
    case ExperimentAnalysis::Verdict::Waiting:
        return ExperimentsPanel::tr("Waiting for at least 10 feedbacks per arm.");
    case ExperimentAnalysis::Verdict::NoDifferenceYet: {
        long long more = -1;
        double furthest = -1.0;
        for (std::size_t i = 1; i < e.arms.size(); ++i)
            if (std::abs(e.arms[i].difference) > furthest) {
                furthest = std::abs(e.arms[i].difference);
                more = e.arms[i].feedbacksForPower;
            }
        return more < 0 ? ExperimentsPanel::tr("No difference yet, and none observed so far.")
                        : ExperimentsPanel::tr("No difference yet: about %1 more feedbacks for 80% power at the "
                                               "observed effect.")
                              .arg(more);
    }
    case ExperimentAnalysis::Verdict::Winner: {
        double p = 1.0;
        for (std::size_t i = 1; i < e.arms.size(); ++i)
            p = std::min(p, e.arms[i].pValue);
        return ExperimentsPanel::tr("Decided: %1 is better (always-valid p = %2).")
            .arg(e.winner, ReportTables::significant(p));
    }
    case ExperimentAnalysis::Verdict::Stopped:
        return e.winner.isEmpty() ? ExperimentsPanel::tr("Stopped without a decision.")
                                  : ExperimentsPanel::tr("Stopped: %1 won.").arg(e.winner);
    }
    return {};
}

} // namespace

ExperimentChart::ExperimentChart(QWidget* parent)
    : ReportChart(tr("Feedback over time"), parent) {
    // The legend in a row under the plot, arms side by side: inside, it covered the lines where the means settle.
    plot()->legend->setVisible(true);
    plot()->legend->setBorderPen(Qt::NoPen);
    plot()->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot()->axisRect()->insetLayout()->take(plot()->legend);
    plot()->plotLayout()->addElement(plot()->plotLayout()->rowCount(), 0, plot()->legend);
    plot()->plotLayout()->setRowStretchFactor(plot()->plotLayout()->rowCount() - 1, 0.001);
    showPlaceholder(tr("No feedback yet."));
}

void ExperimentChart::setExperiment(const ExperimentAnalysis& experiment) {
    const std::size_t count = experiment.runningMeans.empty() ? 0 : experiment.runningMeans.front().size();
    if (count == 0) {
        showPlaceholder(tr("No feedback yet."));
        return;
    }
    beginContent();
    QCustomPlot* p = plot();
    const std::size_t step = std::max<std::size_t>(1, count / kMostPoints);
    for (std::size_t arm = 0; arm < experiment.runningMeans.size() && arm < experiment.arms.size(); ++arm) {
        QVector<double> x;
        QVector<double> y;
        const std::vector<double>& means = experiment.runningMeans[arm];
        for (std::size_t i = 0; i < means.size(); i += step)
            if (!std::isnan(means[i])) {
                x.append(double(i + 1));
                y.append(means[i]);
            }
        if (!means.empty() && !std::isnan(means.back()) && (x.isEmpty() || x.last() != double(means.size()))) {
            x.append(double(means.size()));
            y.append(means.back());
        }
        QCPGraph* graph = p->addGraph();
        graph->setName(experiment.arms[arm].name);
        graph->setPen(QPen(reportPalette::strategy(int(arm)), 2));
        graph->setData(x, y, true);
    }
    const bool thumbs = experiment.experiment.metric == QLatin1String(ExperimentRecord::kThumbs);
    p->xAxis->setLabel(tr("Feedbacks"));
    p->yAxis->setLabel(thumbs ? tr("Share of thumbs up") : tr("Mean score"));
    p->xAxis->setRange(1, std::max<double>(2, double(count)));
    const double pad = thumbs ? 0.03 : 0.12; // lines at the ends stay off the axes
    p->yAxis->setRange((thumbs ? 0.0 : 1.0) - pad, (thumbs ? 1.0 : 5.0) + pad);
    p->replot();
}

ExperimentsPanel::ExperimentsPanel(QWidget* parent)
    : QWidget(parent) {
    auto* title = new QLabel(tr("Online experiments"), this);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    m_choice = new QComboBox(this);
    m_choice->setObjectName(QStringLiteral("experimentChoice"));
    m_choice->setToolTip(tr("The experiments swb serve ran on this run store, newest first."));
    m_decision = new QLabel(this);
    m_decision->setObjectName(QStringLiteral("experimentDecision"));
    m_decision->setWordWrap(true);
    m_decision->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_decision->setToolTip(tr("The mixture sequential probability ratio test of each arm against the control: its "
                              "p-value and confidence sequence stay valid however often the experiment is read."));
    auto* header = new QHBoxLayout;
    header->addWidget(title);
    header->addWidget(m_choice);
    header->addWidget(m_decision, 1);

    m_armModel = new ReportTableModel(this);
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_armModel);
    proxy->setSortRole(Qt::UserRole);
    m_armTable = new QTableView(this);
    m_armTable->setObjectName(QStringLiteral("experimentArms"));
    m_armTable->setModel(proxy);
    m_armTable->verticalHeader()->hide();
    m_armTable->setAlternatingRowColors(true);
    m_armTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_armTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_armTable->setWordWrap(false);
    m_armTable->setContextMenuPolicy(Qt::CustomContextMenu);
    m_armTable->setToolTip(
        tr("Double-click an arm to open its newest run in Explore; right-click for its newest runs."));
    m_armTable->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    m_armTable->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    connect(m_armTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const qint64 run = newestRun(armOfRow(index.row())); run > 0)
            emit openRun(run);
    });
    connect(m_armTable, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_armTable->indexAt(pos);
        const ExperimentAnalysis* experiment = current();
        const int arm = index.isValid() ? armOfRow(index.row()) : -1;
        if (!experiment || arm < 0)
            return;
        QMenu menu(this);
        const std::vector<qint64>& runs = experiment->arms[std::size_t(arm)].latestRuns;
        for (std::size_t i = 0; i < runs.size() && i < 20; ++i) {
            const qint64 run = runs[i];
            menu.addAction(tr("Open Run %1 in Explore").arg(run), this, [this, run] { emit openRun(run); });
        }
        if (runs.empty())
            menu.addAction(tr("This arm has served no run yet"))->setEnabled(false);
        menu.exec(m_armTable->viewport()->mapToGlobal(pos));
    });
    m_chart = new ExperimentChart(this);
    m_chart->setObjectName(QStringLiteral("experimentChart"));
    m_chart->setMinimumHeight(220);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->setSpacing(6);
    layout->addLayout(header);
    layout->addWidget(m_armTable);
    layout->addWidget(m_chart);
    connect(m_choice, &QComboBox::currentIndexChanged, this, &ExperimentsPanel::showExperiment);
    setVisible(false);
}

void ExperimentsPanel::setExperiments(std::vector<ExperimentAnalysis> experiments) {
    const QString chosen = m_choice->currentData().toString();
    m_experiments = std::move(experiments);
    {
        const QSignalBlocker blocker(m_choice);
        m_choice->clear();
        for (const ExperimentAnalysis& e : m_experiments)
            m_choice->addItem(e.experiment.running ? tr("%1 (running)").arg(e.experiment.name) : e.experiment.name,
                              e.experiment.name);
        m_choice->setCurrentIndex(std::max(0, m_choice->findData(chosen)));
    }
    setVisible(!m_experiments.empty());
    showExperiment(m_choice->currentIndex());
}

// As tall as the rows, plus the scroll bar when the columns are wider than the table.
void ExperimentsPanel::fitTableHeight() {
    const int frame = 2 * m_armTable->frameWidth();
    const bool scrolls = m_armTable->horizontalHeader()->length() > m_armTable->width() - frame;
    m_armTable->setFixedHeight(m_armTable->horizontalHeader()->sizeHint().height() + frame +
                               m_armModel->rowCount() * m_armTable->verticalHeader()->defaultSectionSize() +
                               (scrolls ? m_armTable->horizontalScrollBar()->sizeHint().height() : 0));
}

void ExperimentsPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitTableHeight();
}

const ExperimentAnalysis* ExperimentsPanel::current() const {
    const int index = m_choice->currentIndex();
    return index >= 0 && index < int(m_experiments.size()) ? &m_experiments[std::size_t(index)] : nullptr;
}

int ExperimentsPanel::armOfRow(int viewRow) const {
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(m_armTable->model());
    return proxy->mapToSource(proxy->index(viewRow, 0)).row();
}

qint64 ExperimentsPanel::newestRun(int armRow) const {
    const ExperimentAnalysis* experiment = current();
    if (!experiment || armRow < 0 || armRow >= int(experiment->arms.size()))
        return 0;
    const std::vector<qint64>& runs = experiment->arms[std::size_t(armRow)].latestRuns;
    return runs.empty() ? 0 : runs.front();
}

void ExperimentsPanel::showExperiment(int index) {
    const ExperimentAnalysis* experiment =
        index >= 0 && index < int(m_experiments.size()) ? &m_experiments[std::size_t(index)] : nullptr;
    if (!experiment) {
        m_armModel->setTable({});
        m_decision->clear();
        m_chart->clear(tr("No experiment."));
        return;
    }
    m_armModel->setTable(ReportTables::experimentArms(*experiment));
    m_armTable->resizeColumnsToContents();
    fitTableHeight();
    const bool decided = !experiment->winner.isEmpty();
    m_decision->setText(decisionText(*experiment));
    m_decision->setStyleSheet(decided ? QStringLiteral("color: #1b7a1b") : QString());
    m_chart->setExperiment(*experiment);
}

} // namespace swb
