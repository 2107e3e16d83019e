#pragma once

#include <QWidget>

class QFontMetrics;

#include "explore/DistributionModel.h"

class QCustomPlot;
class QCPBars;
class QCPItemText;
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
    // Bars drawn (the model's first ones; the rest are in "others"): as many as the width has room for.
    int shownBars() const { return m_shownBars; }
    bool exportTo(const QString& path); // .png or .pdf by suffix
    // text broken at spaces into lines no wider than width (a word wider than it stays whole on its line).
    static QString wrapped(const QString& text, const QFontMetrics& metrics, int width);

signals:
    void barActivated(int bar);                          // double click
    void branchRequested(swb::TokenId token);           // context menu on a bar

protected:
    // Redraws on a change of width: as many bars as their labels have room for.
    void resizeEvent(QResizeEvent* event) override;

private:
    void redraw();
    void wrapMarkerLabels();
    int barAt(const QPoint& pos) const;
    void showContextMenu(const QPoint& pos);
    void exportDialog();

    QCustomPlot* m_plot = nullptr;
    QCheckBox* m_log = nullptr;
    QLabel* m_title = nullptr;
    DistributionModel m_model;
    int m_shownBars = 0;
    std::vector<std::pair<QCPItemText*, QString>> m_markerLabels; // the cutoff labels and their whole texts
    double m_othersRawP = 0.0, m_othersShownP = 0.0; // the "others" bar: the model's tail and the bars left out
};

} // namespace swb
