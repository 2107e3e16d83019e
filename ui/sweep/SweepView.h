#pragma once

#include <optional>

#include <QWidget>

#include "InferenceWorker.h"
#include "evaluation/Sweep.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace swb {

class Database;
class InferenceSession;
class StrategySource;
class Settings;
class SweepHeatmap;

// The Sweep tab: a grid of one or two parameters of a strategy run over prompts and samples on the loaded
// model (resumable, with progress and Cancel), a heatmap of one automatic metric per cell, the outputs of
// the cell clicked, and the sweep saved as JSON (what `swb sweep --spec` reads) or its metrics as CSV.
class SweepView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SweepView)

public:
    SweepView(Settings& settings, Database* database, InferenceSession& session, const StrategySource& edited,
              QWidget* parent = nullptr);
    ~SweepView() override;

    // The sweep the form describes, checked; an error sentence otherwise.
    Result<SweepSpec> spec() const;
    void setSpec(const SweepSpec& spec);
    void run();
    void cancel();
    bool isRunning() const { return m_runningId != 0; }
    bool saveSpec(const QString& path);
    bool openSpec(const QString& path);
    bool exportCsv(const QString& path);

    QComboBox* metricBox() const { return m_metric; }
    SweepHeatmap* heatmap() const { return m_heatmap; }
    QTreeWidget* outputs() const { return m_outputs; }
    QLabel* statusLabel() const { return m_status; }
    const std::optional<SweepDone>& result() const { return m_done; }
    void showCell(int column, int row);
    // A metric's name in the interface's language.
    static QString metricTitle(const SweepMetric& metric);

signals:
    void runsChanged();
    void openRun(qint64 runId);
    void statusMessage(const QString& text);
    void errorMessage(const QString& text);

private:
    QWidget* makeSetup();
    QWidget* makeResults();
    void restoreForm();
    static QString cellHint();
    void onProgress(quint64 id, const SweepProgress& progress);
    void onFinished(quint64 id, const SweepDone& done);
    void onFailed(quint64 id, const QString& message);
    void runEnded();
    void showMetric();
    void saveForm();
    Result<Strategy> baseStrategy() const;

    Settings& m_settings;
    Database* m_database = nullptr;
    InferenceSession& m_session;
    const StrategySource& m_edited; // Explore's strategy

    QComboBox* m_strategy = nullptr;
    QComboBox* m_xParam = nullptr;
    QLineEdit* m_xValues = nullptr;
    QCheckBox* m_useY = nullptr;
    QComboBox* m_yParam = nullptr;
    QLineEdit* m_yValues = nullptr;
    QPlainTextEdit* m_prompts = nullptr;
    QSpinBox* m_samples = nullptr;
    QSpinBox* m_maxTokens = nullptr;
    QDoubleSpinBox* m_seed = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_export = nullptr;
    QProgressBar* m_overall = nullptr;
    QProgressBar* m_batch = nullptr;
    QLabel* m_status = nullptr;
    QComboBox* m_metric = nullptr;
    SweepHeatmap* m_heatmap = nullptr;
    QLabel* m_cellTitle = nullptr;
    QTreeWidget* m_outputs = nullptr;

    quint64 m_runningId = 0;
    quint64 m_nextId = 1;
    SweepSpec m_runningSpec;
    std::optional<SweepSpec> m_shownSpec;
    std::optional<SweepDone> m_done;
};

} // namespace swb
