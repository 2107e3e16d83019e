#pragma once

#include <vector>

#include <QWidget>

#include "evaluation/Experiments.h"
#include "reports/ReportChart.h"

class QComboBox;
class QLabel;
class QTableView;

namespace swb {

class ReportTableModel;

// An experiment's feedback over time: the running mean of each arm after each feedback of the experiment.
class ExperimentChart final : public ReportChart {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExperimentChart)

public:
    explicit ExperimentChart(QWidget* parent = nullptr);
    void setExperiment(const ExperimentAnalysis& experiment);
    void clear(const QString& message) { showPlaceholder(message); }
};

// swb serve's experiments in the Reports tab: one chosen at a time, its decision in a sentence, its arms in
// a table (double-click an arm: its newest run opens in Explore; right-click: its newest runs to choose
// from) and its feedback over time. Hidden while the store has no experiment.
class ExperimentsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExperimentsPanel)

public:
    explicit ExperimentsPanel(QWidget* parent = nullptr);

    void setExperiments(std::vector<ExperimentAnalysis> experiments);
    const std::vector<ExperimentAnalysis>& experiments() const { return m_experiments; }
    QComboBox* experimentCombo() const { return m_choice; }
    QLabel* decisionLabel() const { return m_decision; }
    ReportTableModel* armModel() const { return m_armModel; }
    QTableView* armTable() const { return m_armTable; }
    ExperimentChart* chart() const { return m_chart; }
    // The run an arm's row opens in Explore (its newest); 0 when it has none.
    qint64 newestRun(int armRow) const;

signals:
    void openRun(qint64 runId);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showExperiment(int index);
    void fitTableHeight();
    const ExperimentAnalysis* current() const;
    int armOfRow(int viewRow) const;

    std::vector<ExperimentAnalysis> m_experiments;
    QComboBox* m_choice = nullptr;
    QLabel* m_decision = nullptr;
    ReportTableModel* m_armModel = nullptr;
    QTableView* m_armTable = nullptr;
    ExperimentChart* m_chart = nullptr;
};

} // namespace swb
