#pragma once

#include <QStringList>
#include <QWidget>

#include "model/Model.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QToolButton;
class QMenu;

namespace swb {

// The model strip at the top of Explore: the current model, Open (folder or file, recent models,
// the bundled demo), device / dtype / threads, and while loading a progress bar with Cancel.
class ModelBar final : public QWidget {
    Q_OBJECT

public:
    explicit ModelBar(QWidget* parent = nullptr);

    ModelOptions options() const;
    void setOptions(const ModelOptions& options);
    void setRecent(const QStringList& paths);
    void setLoading(const QString& path);
    void setProgress(int done, int total);
    void setLoaded(const ModelInfo& info);
    void setFailed(const QString& message);
    bool isLoading() const;

signals:
    void openRequested(const QString& path);
    void optionsChanged();
    void cancelRequested();

private:
    void emitIfOptionsChanged();

    ModelOptions m_applied; // the options last set or reported
    void chooseFolder();
    void chooseFile();
    void rebuildMenu();

    QLabel* m_name = nullptr;
    QLabel* m_details = nullptr;
    QToolButton* m_open = nullptr;
    QMenu* m_menu = nullptr;
    QComboBox* m_device = nullptr;
    QComboBox* m_dtype = nullptr;
    QSpinBox* m_threads = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QStringList m_recent;
};

} // namespace swb
