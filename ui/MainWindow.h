#pragma once

#include <memory>

#include <QMainWindow>
#include <QStringList>

class QTabWidget;

namespace swb {

class CompareView;
class MessageBar;
class Database;
class ExploreView;
class InferenceSession;
class ReportsView;
class RunsView;
class SweepView;
class Settings;

// The workbench window: tabs Explore, Compare, Sweep, Runs and Reports, menus and status bar.
// Geometry and the last tab persist in Settings.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    // Opens modelPath (with tokenizerPath, for a model that needs one) in Explore; without one, the model
    // of the last session, else the bundled demo model.
    // modelPath: a model's file or folder, or an OpenAI-compatible server's address (with apiKey when it wants one).
    explicit MainWindow(const QString& modelPath = {}, const QString& tokenizerPath = {}, const QString& apiKey = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    // Stable, untranslated tab keys: "explore", "compare", "sweep", "runs", "reports".
    static QStringList tabKeys();
    QString currentTabKey() const;
    bool selectTab(const QString& key);
    QTabWidget* tabs() const { return m_tabs; }
    // The model the views work with (its worker thread, the lease of long jobs).
    InferenceSession* session() const { return m_session.get(); }
    ExploreView* explore() const { return m_explore; }
    CompareView* compare() const { return m_compare; }
    RunsView* runs() const { return m_runsView; }
    SweepView* sweep() const { return m_sweepView; }
    ReportsView* reports() const { return m_reportsView; }
    MessageBar* messageBar() const { return m_messageBar; }
    // The GUI thread's run store; null when it could not be opened (the reason is in the status bar).
    Database* database() const { return m_database.get(); }

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private slots:
    void showStatus(const QString& text);
    void showError(const QString& text);

private:
    void fitToScreen();
    bool m_fittedAfterShow = false;
    void createMenus();
    void saveWindowSettings();
    void showAbout();
    void openModel();

    std::unique_ptr<Settings> m_settings;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<InferenceSession> m_session;
    QString m_databaseError;
    QTabWidget* m_tabs = nullptr;
    MessageBar* m_messageBar = nullptr;
    ExploreView* m_explore = nullptr;
    CompareView* m_compare = nullptr;
    RunsView* m_runsView = nullptr;
    SweepView* m_sweepView = nullptr;
    ReportsView* m_reportsView = nullptr;
};

} // namespace swb
