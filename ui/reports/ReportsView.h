#pragma once

#include <map>
#include <utility>

#include <QWidget>

#include "evaluation/Reports.h"

class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QStackedWidget;
class QTableView;
class QTimer;
template <typename T> class QFutureWatcher;

namespace swb {

class Database;
class ExperimentsPanel;
class IntervalBarChart;
class ReportChart;
class ReportTableModel;
class WinRateHeatmap;
struct ComputedReport;

// Reports: how raters judged each strategy, from the ratings and preferences in the run store
// (evaluation/Reports.h computes every figure). A table per strategy (rubric means with bootstrap
// intervals, Bradley-Terry, online Elo, win rate, text metrics), charts of a dimension's means, of the
// Bradley-Terry scores and of the pairwise win rates, inter-rater agreement and gold accuracy, and CSV
// export of every report kind. The summary is computed on a worker thread with its own connection; an
// explanation of how to get data replaces it all while nothing is rated.
class ReportsView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReportsView)

public:
    enum class Chart { DimensionMeans, BradleyTerry, WinRates, Agreement };
    Q_ENUM(Chart)

    explicit ReportsView(Database* database, QWidget* parent = nullptr);
    ~ReportsView() override;

    // Writes a report as CSV (Reports::writeCsv) to path, now; false with a message (statusMessage and the
    // view's message line) when it cannot. The view's buttons do the same on a worker thread.
    bool exportCsv(ReportKind kind, const QString& path);
    // Writes a chart as PNG, or PDF when path ends in .pdf; false with a message when it cannot.
    bool exportChart(Chart chart, const QString& path);
    // Test seam: the next file dialog returns path instead of asking.
    void setNextSavePath(const QString& path) { m_nextSavePath = path; }

    bool isComputing() const;
    // Whether the report (rather than the explanation of how to get data) is shown.
    bool showsReport() const;
    const SummaryReport& report() const { return m_report; }
    const ReportOptions& options() const { return m_options; }
    // One model's report (its content hash), or every model's (empty); the Model box in the header.
    void setModelFilter(const QString& contentHash);
    QString modelFilter() const { return m_modelHash; }
    QComboBox* modelCombo() const { return m_model; }
    // Milliseconds the last summary took on its worker thread.
    qint64 lastComputeMs() const { return m_lastComputeMs; }
    // The message line under the report: the last export's outcome or error.
    QString message() const;

    ReportTableModel* strategyModel() const { return m_strategyModel; }
    ReportTableModel* agreementModel() const { return m_agreementModel; }
    ReportTableModel* raterModel() const { return m_raterModel; }
    QTableView* strategyTable() const { return m_strategyTable; }
    QComboBox* dimensionCombo() const { return m_dimension; }
    IntervalBarChart* dimensionChart() const { return m_meansChart; }
    IntervalBarChart* bradleyTerryChart() const { return m_bradleyTerryChart; }
    IntervalBarChart* agreementChart() const { return m_agreementChart; }
    // Sets a rater aside with the reason (empty: counts them again) and computes the report again; false,
    // with the message shown, when the store refuses.
    bool setRaterAside(const QString& rater, const QString& reason);
    // Raters are suggested for setting aside below a gold accuracy or when alpha rises by this much without
    // them; changing either computes the report again.
    void setSuggestionThresholds(double goldAccuracy, double alphaRise);
    WinRateHeatmap* winRateChart() const { return m_winRateChart; }
    QPushButton* csvButton(ReportKind kind) const;
    QPushButton* refreshButton() const { return m_refresh; }
    ExperimentsPanel* experimentsPanel() const { return m_experiments; }

public slots:
    // Recomputes the report from the run store in the background (again once done, when already running).
    void refresh();

signals:
    void suggestionThresholdsChanged(double goldAccuracy, double alphaRise);
    void statusMessage(const QString& text);
    // A failure the user should see until dismissed (MainWindow's message bar).
    void errorMessage(const QString& text);
    // A refresh has finished and its outcome is shown.
    void reportUpdated();
    // An export started from the view's buttons has finished.
    void csvExportFinished(const QString& path, bool ok);
    // The user asked to see a run (an experiment arm's) in Explore.
    void openRun(qint64 runId);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QHBoxLayout* makeHeader();
    QWidget* makeCharts();
    QWidget* makeRaterTables();
    QHBoxLayout* makeExportBar();
    void fillModels();
    void applyComputed();
    void fitTableHeights();
    void showReport();
    void showEmptyState(const QString& title, const QString& explanation);
    void drawDimensionChart();
    void drawAgreementChart();
    // The preference verdict in the interface's language.
    QString verdictText(const PreferenceVerdict& verdict) const;
    void drawBradleyTerryChart();
    void drawWinRates();
    void startCsvExport(ReportKind kind);
    void exportChartDialog(Chart chart);
    QString askSavePath(const QString& caption, const QString& fileName, const QString& filter);
    void showMessage(const QString& text, bool error);
    ReportChart* chart(Chart chart) const;
    static QString kindTitle(ReportKind kind);

    Database* m_database = nullptr;
    ReportOptions m_options;
    QString m_modelHash; // empty: every model
    QComboBox* m_model = nullptr;
    SummaryReport m_report;
    std::map<QString, std::pair<double, double>> m_scoreRanges; // rubric range of each dimension
    qint64 m_lastComputeMs = 0;
    bool m_refreshAgain = false;
    bool m_computing = false;
    QString m_nextSavePath;
    QString m_lastDirectory;

    QFutureWatcher<ComputedReport>* m_watcher = nullptr;
    QFutureWatcher<std::pair<QString, QString>>* m_exportWatcher = nullptr; // path, error
    QTimer* m_busyDelay = nullptr;
    QLabel* m_overview = nullptr;
    QLabel* m_verdict = nullptr;
    QDoubleSpinBox* m_goldThreshold = nullptr;
    QDoubleSpinBox* m_alphaRise = nullptr; // which strategy the preferences pick, with the evidence
    QProgressBar* m_busy = nullptr;
    QPushButton* m_refresh = nullptr;
    QStackedWidget* m_stack = nullptr;
    QWidget* m_emptyPage = nullptr;
    QWidget* m_content = nullptr; // the report, as opposed to the empty state
    QScrollArea* m_contentScroll = nullptr; // holds m_content
    ReportTableModel* m_strategyModel = nullptr;
    ReportTableModel* m_agreementModel = nullptr;
    ReportTableModel* m_raterModel = nullptr;
    QTableView* m_strategyTable = nullptr;
    QTableView* m_agreementTable = nullptr;
    QTableView* m_raterTable = nullptr;
    QComboBox* m_dimension = nullptr;
    IntervalBarChart* m_meansChart = nullptr;
    IntervalBarChart* m_bradleyTerryChart = nullptr;
    WinRateHeatmap* m_winRateChart = nullptr;
    IntervalBarChart* m_agreementChart = nullptr;
    std::map<ReportKind, QPushButton*> m_csvButtons;
    QLabel* m_message = nullptr;
    ExperimentsPanel* m_experiments = nullptr;
};

} // namespace swb
