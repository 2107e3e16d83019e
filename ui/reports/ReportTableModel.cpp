#include "reports/ReportTableModel.h"

#include <QPixmap>

namespace swb {

ReportTableModel::ReportTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void ReportTableModel::setTable(ReportTable table) {
    beginResetModel();
    m_table = std::move(table);
    endResetModel();
}

const ReportCell* ReportTableModel::cell(const QString& key, const QString& column) const {
    std::size_t c = 0;
    while (c < m_table.columns.size() && m_table.columns[c].title != column)
        ++c;
    if (c == m_table.columns.size())
        return nullptr;
    for (const std::vector<ReportCell>& row : m_table.rows)
        if (!row.empty() && row.front().text == key && c < row.size())
            return &row[c];
    return nullptr;
}

QString ReportTableModel::text(const QString& key, const QString& column) const {
    const ReportCell* found = cell(key, column);
    return found ? found->text : QString();
}

int ReportTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_table.rows.size());
}

int ReportTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_table.columns.size());
}

QVariant ReportTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::vector<ReportCell>& row = m_table.rows[static_cast<std::size_t>(index.row())];
    if (index.column() >= static_cast<int>(row.size()))
        return {};
    const ReportCell& cell = row[static_cast<std::size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return cell.text;
    case Qt::UserRole:
        return cell.sortKey.isValid() ? cell.sortKey : QVariant(cell.text);
    case Qt::ToolTipRole:
        return cell.toolTip.isEmpty() ? QVariant() : QVariant(cell.toolTip);
    case Qt::BackgroundRole:
        return cell.background.isValid() ? QVariant(cell.background) : QVariant();
    case Qt::DecorationRole: {
        if (!cell.swatch.isValid())
            return {};
        QPixmap square(10, 10);
        square.fill(cell.swatch);
        return square;
    }
    case Qt::TextAlignmentRole:
        return static_cast<int>(Qt::AlignVCenter | (cell.numeric ? Qt::AlignRight : Qt::AlignLeft));
    default:
        return {};
    }
}

QVariant ReportTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= static_cast<int>(m_table.columns.size()))
        return QAbstractTableModel::headerData(section, orientation, role);
    const ReportColumn& column = m_table.columns[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole)
        return column.title;
    if (role == Qt::ToolTipRole && !column.toolTip.isEmpty())
        return column.toolTip;
    return {};
}

} // namespace swb
