#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "generation/Generator.h"
#include "storage/RatingRepository.h"

class QLabel;
class QLineEdit;
class QSpinBox;
class QCustomPlot;
class QCPItemText;

namespace swb {

class TokenStreamView;

// One output of a comparison: its blind label (and, once revealed, its strategy), the text as
// probability-coloured tokens, a small entropy timeline, and the rater's rubric scores and note.
class ComparePane final : public QWidget {
    Q_OBJECT

public:
    ComparePane(const QString& label, const Rubric& rubric, QWidget* parent = nullptr);

    void setRun(qint64 runId, const QString& strategyName, const std::vector<GeneratedStep>& steps,
                std::shared_ptr<const Tokenizer> tokenizer);
    void setRevealed(bool revealed);
    // The note over the entropy plot when the run's engine gave no entropies; empty otherwise.
    QString entropyNote() const;
    // Scores shown for the current rater (missing dimensions show as unrated).
    void setRatings(const std::vector<RatingRecord>& ratings);
    qint64 runId() const { return m_runId; }
    const QString& label() const { return m_label; }
    QSpinBox* scoreBox(int dimension) const;
    QLineEdit* noteEdit() const { return m_note; }
    TokenStreamView* stream() const { return m_stream; }

    // Reports the note if it changed since it was loaded or last reported.
    void saveNote();

signals:
    // A score changed (value below the dimension's minimum: cleared) or the note was edited.
    void scoreChanged(qint64 runId, const QString& dimension, double score, bool cleared);
    void noteChanged(qint64 runId, const QString& note);
    void stepActivated(qint64 runId, int step);

private:
    void buildRubric(const Rubric& rubric);

    QString m_label;
    QString m_strategy;
    qint64 m_runId = 0;
    bool m_revealed = false;
    QLabel* m_title = nullptr;
    TokenStreamView* m_stream = nullptr;
    QCustomPlot* m_entropy = nullptr;
    QCPItemText* m_entropyUnknown = nullptr; // shown when the engine gave no entropies
    QWidget* m_rubricBox = nullptr;
    std::vector<QSpinBox*> m_scores;
    std::vector<RubricDimension> m_dimensions;
    QLineEdit* m_note = nullptr;
    QString m_savedNote;
    bool m_loading = false;
};

} // namespace swb
