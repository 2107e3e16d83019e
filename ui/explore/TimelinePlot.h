#pragma once

#include <vector>

#include <QWidget>

#include "generation/Generator.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPAxisRect;

namespace swb {

// Per-step curves under the token stream: raw and final entropy and the chosen token's probability
// (top), survivors per step (bottom, log scale). A click jumps to that step.
class TimelinePlot final : public QWidget {
    Q_OBJECT

public:
    explicit TimelinePlot(QWidget* parent = nullptr);

    void clearSteps();
    void appendSteps(const std::vector<GeneratedStep>& steps);
    void setSelectedStep(int step);
    int pointCount() const;
    QCustomPlot* plot() const { return m_plot; }

signals:
    void stepClicked(int step);

private:
    void rescale();

    QCustomPlot* m_plot = nullptr;
    QCPAxisRect* m_bottom = nullptr;
    QCPGraph* m_rawEntropy = nullptr;
    QCPGraph* m_finalEntropy = nullptr;
    QCPGraph* m_chosenP = nullptr;
    QCPGraph* m_survivors = nullptr;
    QCPItemStraightLine* m_cursorTop = nullptr;
    QCPItemStraightLine* m_cursorBottom = nullptr;
    int m_steps = 0;
    double m_maxEntropy = 0.0;
    double m_maxSurvivors = 1.0;
};

} // namespace swb
