#pragma once

#include <QMainWindow>
#include <QStringList>

class QTabWidget;

namespace swb {

class Settings;

// The workbench window: tabs Explore, Compare, Runs and Reports, menus and status bar.
// Geometry and the last tab persist in Settings.
class MainWindow final : public QMainWindow {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Stable, untranslated tab keys: "explore", "compare", "runs", "reports".
    static QStringList tabKeys();
    QString currentTabKey() const;
    bool selectTab(const QString& key);
    QTabWidget* tabs() const { return m_tabs; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void saveWindowSettings();
    void showAbout();
    void openModel();

    QTabWidget* m_tabs = nullptr;
    std::unique_ptr<Settings> m_settings;
};

} // namespace swb
