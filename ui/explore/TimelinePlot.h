#pragma once

#include <vector>

#include <QWidget>

#include "generation/Generator.h"

class QCustomPlot;
class QCPGraph;
class QCPItemRect;
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
    // Repetition loops, each as steps [start, end) (0-based), shaded across both plots; empty clears them.
    void setLoops(const std::vector<std::pair<int, int>>& loops);
    int loopCount() const { return static_cast<int>(m_loopMarks.size() / 2); }
    int pointCount() const;
    // The "mass removed by grammar" series: whether it is drawn (a run with a grammar stage) and its value at a
    // step (NaN where there is none).
    bool showsGrammarSeries() const;
    double grammarRemovedAt(int step) const;
    QCustomPlot* plot() const { return m_plot; }

signals:
    void stepClicked(int step);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rescale();
    void fitAxisTitles();
    void showGrammarSeries(bool shown);

    QCustomPlot* m_plot = nullptr;
    QCPAxisRect* m_bottom = nullptr;
    QCPGraph* m_rawEntropy = nullptr;
    QCPGraph* m_finalEntropy = nullptr;
    QCPGraph* m_chosenP = nullptr;
    QCPGraph* m_grammarRemoved = nullptr;
    QCPGraph* m_survivors = nullptr;
    QCPItemStraightLine* m_cursorTop = nullptr;
    QCPItemStraightLine* m_cursorBottom = nullptr;
    std::vector<QCPItemRect*> m_loopMarks;
    int m_steps = 0;
    double m_maxEntropy = 0.0;
    double m_maxSurvivors = 1.0;
};

} // namespace swb
