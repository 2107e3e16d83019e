#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace swb {

class Database;

// Every saved run, newest first, with branches under the run they came from: sort by any column,
// filter by text, open in Explore (Enter or double click), delete (Del; branches go with their parent).
class RunsView final : public QWidget {
    Q_OBJECT

public:
    explicit RunsView(Database* database, QWidget* parent = nullptr);

    void refresh();
    QStandardItemModel* model() const { return m_model; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QTreeView* view() const { return m_view; }
    void setFilter(const QString& text);
    bool deleteRun(qint64 runId, bool confirm = true);
    qint64 currentRunId() const;

signals:
    void openRequested(qint64 runId);
    // A run and its branches were deleted: views showing them drop them.
    void runDeleted(qint64 runId);
    void statusMessage(const QString& text);
    // A failure the user should see until dismissed (MainWindow's message bar).
    void errorMessage(const QString& text);

private:
    void openCurrent();
    void showCount();

    Database* m_database = nullptr;
    QStandardItemModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTreeView* m_view = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_count = nullptr;
};

} // namespace swb
