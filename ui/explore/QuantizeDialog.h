#pragma once

#include <atomic>
#include <memory>
#include <mutex>

#include <QDialog>
#include <QFutureWatcher>

#include "quantization/Quantizer.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace swb {

// "Quantize Model…" from the model bar: a float GGUF made into a quantized one with one of llama.cpp's recipes
// (swb quantize's work), on a worker thread with a progress bar and Cancel; the new file, written beside the old
// one, is opened when done (unless unticked). Closing the dialog while it works cancels the work and writes
// nothing.
class QuantizeDialog final : public QDialog {
    Q_OBJECT

public:
    explicit QuantizeDialog(const QString& input, QWidget* parent = nullptr);
    ~QuantizeDialog() override;

    QComboBox* recipeBox() const { return m_recipe; }
    QLineEdit* outputEdit() const { return m_output; }
    QPushButton* startButton() const { return m_start; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    // From the start of the work until its result is shown.
    bool isWorking() const { return m_working; }
    // Test seam: the next file dialog returns path instead of asking.
    void setNextFileName(const QString& path) { m_nextFileName = path; }

    // Selects a recipe by name (the one last used); an unknown name leaves the choice as it is.
    void setRecipe(const QString& name);
    void start();
    void cancel();
    // Close, or while the work runs, Cancel (Esc too).
    void reject() override;

signals:
    // Work began with this recipe (to remember it).
    void started(const QString& recipe);
    // A quantized model was written and the user wants it opened.
    void quantized(const QString& output);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // What the worker shares with the dialog while it runs.
    struct Shared {
        std::atomic<bool> cancel{false};
        std::atomic<std::uint64_t> done{0};
        std::atomic<std::uint64_t> total{0};
        std::mutex mutex;
        QString tensor; // "[12/201] blk.0.attn_q.weight f16 → q4_k", under mutex
    };

    void chooseOutput();
    void suggestOutput();
    void showProgress();
    void finished();
    void setWorking(bool working);

    QString m_input;
    QComboBox* m_recipe = nullptr;
    QLabel* m_recipeNote = nullptr;
    QLineEdit* m_output = nullptr;
    QPushButton* m_browse = nullptr;
    QCheckBox* m_open = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_close = nullptr;
    QTimer* m_timer = nullptr;
    QString m_nextFileName;
    bool m_working = false;
    bool m_outputEdited = false; // the user typed or chose the output: recipe changes leave it alone
    std::shared_ptr<Shared> m_shared;
    QFutureWatcher<std::shared_ptr<Result<quantization::QuantizeReport>>> m_watcher;
};

} // namespace swb
