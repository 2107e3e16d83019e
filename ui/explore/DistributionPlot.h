#pragma once

#include <QWidget>

#include "explore/DistributionModel.h"

class QCustomPlot;
class QCPBars;
class QCheckBox;
class QLabel;

namespace swb {

// The selected step's distribution: the top raw candidates as bars by probability, the surviving
// region shaded, a labelled line per cutoff, the chosen token in the accent colour, an "others" bar
// for the tail; linear or log scale; hover tooltips; export as PNG or PDF.
class DistributionPlot final : public QWidget {
    Q_OBJECT

public:
    explicit DistributionPlot(QWidget* parent = nullptr);

    void setModel(DistributionModel model);
    void clear(const QString& message);
    const DistributionModel& model() const { return m_model; }
    bool logScale() const;
    void setLogScale(bool on);
    QCustomPlot* plot() const { return m_plot; }
    bool exportTo(const QString& path); // .png or .pdf by suffix

signals:
    void barActivated(int bar);                          // double click
    void branchRequested(swb::TokenId token);           // context menu on a bar

protected:
    // Redraws on a change of height: the cutoff labels are spaced a text line apart.
    void resizeEvent(QResizeEvent* event) override;

private:
    void redraw();
    int barAt(const QPoint& pos) const;
    void showContextMenu(const QPoint& pos);
    void exportDialog();

    QCustomPlot* m_plot = nullptr;
    QCheckBox* m_log = nullptr;
    QLabel* m_title = nullptr;
    DistributionModel m_model;
};

} // namespace swb
