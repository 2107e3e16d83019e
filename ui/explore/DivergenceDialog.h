#pragma once

#include <atomic>
#include <functional>
#include <memory>

#include <QDialog>
#include <QFutureWatcher>

#include "Result.h"
#include "quantization/Divergence.h"

class QCustomPlot;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTextBrowser;

namespace swb {

// Where two models that share a tokenizer part on a text (swb divergence's work, teacher forced): the text with
// each token shaded by KL(A‖B) on a scale shown beside it, the positions that differ most listed, and for the
// token clicked both models' next-token distributions overlaid, with "open this prefix in Explore with model B".
// Model A is the one loaded in Explore; the two are loaded here, on a worker thread, with Cancel.
class DivergenceDialog final : public QDialog {
    Q_OBJECT

public:
    DivergenceDialog(const QString& modelA, const QString& text, QWidget* parent = nullptr);
    ~DivergenceDialog() override;

    QLineEdit* modelBEdit() const { return m_modelB; }
    QPlainTextEdit* textEdit() const { return m_text; }
    QPushButton* measureButton() const { return m_measure; }
    QTextBrowser* shadedText() const { return m_shaded; }
    QTableWidget* largestTable() const { return m_largest; }
    QCustomPlot* overlayPlot() const { return m_plot; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* statusLabel() const { return m_status; }
    // From the start of the work until its result is shown.
    bool isWorking() const { return m_working; }
    // The scored token shown in the overlay (0-based among the scored tokens), -1 before any.
    int selectedPosition() const { return m_selected; }
    const quantization::DivergenceResult* result() const { return m_result.get(); }
    // Test seam: the next file dialog returns path instead of asking.
    void setNextFileName(const QString& path) { m_nextFileName = path; }

    // Where the strategy whose cuts to draw comes from (Explore's editor), read at each Measure.
    void setStrategySource(std::function<Strategy()> source) { m_strategySource = std::move(source); }
    void measure();
    void selectPosition(int position);
    void reject() override; // Close, or Cancel while the work runs

signals:
    // A measure began with this model B (to remember it).
    void measured(const QString& modelB);
    // The text before the selected token, to continue in Explore with model B.
    void openPrefixRequested(const QString& prefix, const QString& modelB);

private:
    struct Outcome {
        std::shared_ptr<quantization::DivergenceResult> result;
        std::shared_ptr<const Tokenizer> tokenizer;
        QString error;
        int servedTopN = 0; // > 0: model B was served, known by its top N a position
    };
    void chooseModelB();
    void finished();
    void showResult();
    void renderShaded(); // the text shaded by KL, the selected token underlined
    QString pieceText(TokenId id) const;
    QString prefixBefore(int position) const;

    QString m_modelA;
    QLineEdit* m_modelB = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QPushButton* m_measure = nullptr;
    QPushButton* m_close = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_scale = nullptr;
    QTextBrowser* m_shaded = nullptr;
    QTableWidget* m_largest = nullptr;
    QCustomPlot* m_plot = nullptr;
    QLabel* m_positionLabel = nullptr;
    QPushButton* m_openPrefix = nullptr;
    QString m_nextFileName;
    bool m_working = false;
    int m_selected = -1;
    double m_scaleTop = 0; // the KL that gets the darkest shade
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<std::atomic<std::int64_t>> m_done;
    std::shared_ptr<std::atomic<std::int64_t>> m_total;
    std::shared_ptr<quantization::DivergenceResult> m_result;
    std::shared_ptr<const Tokenizer> m_tokenizer;
    QString m_resultModelB;
    QString m_resultStrategy; // the strategy measured with, in words; empty without one
    int m_servedTopN = 0;     // the shown result's B was served, known by its top N
    std::function<Strategy()> m_strategySource;
    QFutureWatcher<Outcome> m_watcher;
};

} // namespace swb
