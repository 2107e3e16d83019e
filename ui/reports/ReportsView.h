#pragma once

#include <QWidget>

namespace swb {

class Database;

// Reports: per-strategy summaries of the ratings and preferences in the run store.
class ReportsView final : public QWidget {
    Q_OBJECT

public:
    explicit ReportsView(Database* database, QWidget* parent = nullptr);

public slots:
    void refresh();

signals:
    void statusMessage(const QString& text);

private:
    Database* m_database = nullptr;
};

} // namespace swb
