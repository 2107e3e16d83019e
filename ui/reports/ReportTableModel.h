#pragma once

#include <vector>

#include <QAbstractTableModel>
#include <QColor>
#include <QString>
#include <QVariant>

namespace swb {

// One cell of a report table: the text shown, the value it sorts by, an explanation on hover.
struct ReportCell {
    QString text;
    QVariant sortKey; // Qt::UserRole; the text when invalid
    QString toolTip;
    QColor background;   // invalid: the view's own
    QColor swatch;       // a colour square before the text (the strategy's chart colour); invalid: none
    bool numeric = true; // right-aligned
};

struct ReportColumn {
    QString title;
    QString toolTip;
};

// A finished table: a header and rows of cells, every row as long as the header.
struct ReportTable {
    std::vector<ReportColumn> columns;
    std::vector<std::vector<ReportCell>> rows;
};

// Read-only item model over a ReportTable; Qt::UserRole gives the sort key.
class ReportTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReportTableModel)

public:
    explicit ReportTableModel(QObject* parent = nullptr);

    void setTable(ReportTable table);
    const ReportTable& table() const { return m_table; }
    // The cell in the row whose first cell reads `key`, in the column titled `column`; null when absent.
    const ReportCell* cell(const QString& key, const QString& column) const;
    QString text(const QString& key, const QString& column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ReportTable m_table;
};

} // namespace swb
