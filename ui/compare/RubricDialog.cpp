#include "compare/RubricDialog.h"

#include <cmath>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace swb {

RubricDialog::RubricDialog(RatingRepository& ratings, const Rubric& start, QWidget* parent)
    : QDialog(parent)
    , m_ratings(ratings) {
    setWindowTitle(tr("Rubric"));
    m_name = new QLineEdit(start.name, this);
    m_name->setObjectName(QStringLiteral("rubricName"));
    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName(QStringLiteral("rubricDimensions"));
    m_table->setHorizontalHeaderLabels({tr("Dimension"), tr("Lowest score"), tr("Highest score")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->setVisible(false);
    for (const RubricDimension& dimension : start.dimensions)
        addRow(dimension);
    auto* add = new QPushButton(tr("&Add Dimension"), this);
    connect(add, &QPushButton::clicked, this, [this] { addRow({tr("new"), 0, 4}); });
    auto* remove = new QPushButton(tr("&Remove Dimension"), this);
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
    });
    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #a31f34"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (save())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    auto* rowButtons = new QHBoxLayout;
    rowButtons->addWidget(add);
    rowButtons->addWidget(remove);
    rowButtons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Scores are whole numbers from the lowest to the highest score."), this));
    layout->addWidget(m_table, 1);
    layout->addLayout(rowButtons);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(460, 320);
}

void RubricDialog::addRow(const RubricDimension& dimension) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, 0, new QTableWidgetItem(dimension.name));
    m_table->setItem(row, 1, new QTableWidgetItem(QString::number(dimension.min)));
    m_table->setItem(row, 2, new QTableWidgetItem(QString::number(dimension.max)));
}

bool RubricDialog::save() {
    std::vector<RubricDimension> dimensions;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        bool minOk = false;
        bool maxOk = false;
        RubricDimension dimension;
        dimension.name = m_table->item(row, 0) ? m_table->item(row, 0)->text().trimmed() : QString();
        dimension.min = m_table->item(row, 1) ? m_table->item(row, 1)->text().toDouble(&minOk) : 0;
        dimension.max = m_table->item(row, 2) ? m_table->item(row, 2)->text().toDouble(&maxOk) : 0;
        if (!minOk || !maxOk || std::floor(dimension.min) != dimension.min || std::floor(dimension.max) != dimension.max) {
            m_error->setText(tr("Row %1: the lowest and highest scores must be whole numbers.").arg(row + 1));
            return false;
        }
        dimensions.push_back(dimension);
    }
    if (dimensions.empty()) {
        m_error->setText(tr("A rubric needs at least one dimension."));
        return false;
    }
    Result<Rubric> saved = m_ratings.saveRubric(m_name->text(), dimensions);
    if (!saved) {
        m_error->setText(saved.error().message);
        return false;
    }
    m_saved = saved.value();
    return true;
}

} // namespace swb
