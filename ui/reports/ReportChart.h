#pragma once

#include <QHash>
#include <QStringList>
#include <QWidget>

class QCustomPlot;
class QCPAxis;
class QCPItemText;
class QCPLayoutElement;
class QHBoxLayout;
class QLabel;

namespace swb {

// A titled QCustomPlot of the Reports view with an Export button and context menu (PNG or PDF). The
// title is drawn into exported files too. Subclasses draw their content; with nothing to show, a chart
// shows one centred sentence saying why.
class ReportChart : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReportChart)

public:
    ReportChart(const QString& title, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return m_plot; }
    QString title() const;
    // Controls placed in the header, between the title and the Export button.
    void addHeaderWidget(QWidget* widget);
    // .pdf by suffix, otherwise PNG at twice the pixel density; at least 640x420 when not laid out yet.
    bool exportTo(const QString& path);
    // The sentence shown instead of content; empty when the chart has content.
    QString placeholder() const { return m_placeholderText; }

signals:
    void exportRequested();

protected:
    // Removes every plottable and item, hides the axes and shows message in the middle.
    void showPlaceholder(const QString& message);
    // Removes every plottable and item and shows the axes, ready for content.
    void beginContent();
    // Shows an element (a colour scale) right of the plot, or takes it out of the layout.
    void showBeside(QCPLayoutElement* element, bool show);
    // Called each time the plot has been laid out at its size (with content): a chart hides the labels that
    // would not fit there.
    virtual void fitLabels() {}
    // Labels items 0, 1, … along axis with every step-th label (the others left blank, each cut to 16
    // characters), the smallest step that keeps neighbours `needed` pixels apart when items are `pitch`
    // pixels apart. Replots (queued) when that changes what the axis shows.
    void thinTicks(QCPAxis* axis, const QStringList& labels, double pitch, double needed);

private:
    void showContextMenu(const QPoint& pos);

    QCustomPlot* m_plot = nullptr;
    QLabel* m_title = nullptr;
    QHBoxLayout* m_header = nullptr;
    QCPItemText* m_placeholder = nullptr;
    QString m_placeholderText;
    QHash<QCPAxis*, QStringList> m_shownTicks;
};

} // namespace swb
