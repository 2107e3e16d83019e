#pragma once

#include <QDialog>

#include "storage/RatingRepository.h"

class QLabel;
class QLineEdit;
class QTableWidget;

namespace swb {

// Creates or edits a rubric: its name and its dimensions, each with a score range.
class RubricDialog final : public QDialog {
    Q_OBJECT

public:
    RubricDialog(RatingRepository& ratings, const Rubric& start, QWidget* parent = nullptr);

    // The rubric as saved when the dialog was accepted.
    const Rubric& saved() const { return m_saved; }
    QLineEdit* nameEdit() const { return m_name; }
    QTableWidget* table() const { return m_table; }
    // Validates and saves; on failure shows why and returns false (the dialog stays open).
    bool save();

private:
    void addRow(const RubricDimension& dimension);

    RatingRepository& m_ratings;
    Rubric m_saved;
    QLineEdit* m_name = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_error = nullptr;
};

} // namespace swb
