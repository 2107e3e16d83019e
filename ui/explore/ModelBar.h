#pragma once

#include <QPointer>
#include <QStringList>
#include <QWidget>

#include "model/Model.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QToolButton;
class QMenu;
class QAction;

namespace swb {

class InferenceSession;
class QuantizeDialog;
class Settings;

// The model strip at the top of Explore: the current model, Open (folder or file, recent models,
// the bundled demo), device / dtype / threads, and while loading a progress bar with Cancel.
class ModelBar final : public QWidget {
    Q_OBJECT

public:
    explicit ModelBar(QWidget* parent = nullptr);

    // Shows the session's loads (progress, the model loaded, a failure) and the recent models; the options start as
    // last saved.
    void follow(InferenceSession& session, Settings& settings);
    void saveOptions(Settings& settings) const;
    ModelOptions options() const;
    void setOptions(const ModelOptions& options);
    void setRecent(const QStringList& paths);
    void setLoading(const QString& path, const QString& tokenizerPath = {});
    void setProgress(int done, int total);
    void setLoaded(const ModelInfo& info);
    void setFailed(const QString& message);
    bool isLoading() const;
    // Test seam: the next file dialog returns path instead of asking.
    void setNextFileName(const QString& path) { m_nextFileName = path; }
    // Asks for a model file (and, for a llama2.c checkpoint with none beside it, its tokenizer) and opens it.
    void chooseFile();
    // Asks for an OpenAI-compatible server's address and key, and opens it.
    void chooseServer();
    // Asks for the tokenizer of the model last opened (a llama2.c checkpoint) and opens the two together.
    void chooseTokenizer();
    // The Quantize dialog for the model last opened (a float GGUF); the file it writes is opened when done.
    void quantize();
    QuantizeDialog* quantizeDialog() const;
    QAction* quantizeAction() const { return m_quantize; }
    QAction* divergenceAction() const { return m_divergence; }

signals:
    // tokenizerPath: the tokenizer file to use with the model; empty for the model's own.
    void openRequested(const QString& path, const QString& tokenizerPath = {});
    void openRemoteRequested(const QString& address, const QString& apiKey);
    void optionsChanged();
    void cancelRequested();
    // Compare the loaded model with another on a text (the Divergence dialog).
    void divergenceRequested();

private:
    void emitIfOptionsChanged();

    ModelOptions m_applied; // the options last set or reported
    void chooseFolder();
    void rebuildMenu();
    void updateQuantizeAction();
    // The model last opened, and whether its format needs a tokenizer file given beside it.
    void showModelPath(const QString& path, const QString& tokenizerPath);
    QString fileName(const QString& caption, const QString& filter);

    QLabel* m_name = nullptr;
    QLabel* m_details = nullptr;
    QToolButton* m_open = nullptr;
    QMenu* m_menu = nullptr;
    QAction* m_quantize = nullptr;
    QAction* m_divergence = nullptr;
    QPointer<QuantizeDialog> m_quantizeDialog;
    Settings* m_settings = nullptr; // from follow(): the Quantize dialog's last recipe
    QComboBox* m_device = nullptr;
    QComboBox* m_dtype = nullptr;
    QSpinBox* m_threads = nullptr;
    QToolButton* m_fastMath = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QToolButton* m_tokenizer = nullptr;
    QStringList m_recent;
    QString m_modelPath; // the model last opened (loading, loaded or failed)
    QString m_nextFileName;
};

} // namespace swb
