#pragma once

#include <vector>

#include <QDialog>

#include "tokenizer/Tokenizer.h"

class QLabel;
class QPushButton;
class QTextBrowser;

namespace swb {

class Database;

// A run and its replay under another strategy (same model, prompt and seed), side by side: the tokens they
// share, then where they part, each side's rest highlighted; "Make a Comparison" turns the pair into a blind
// comparison to rate (workflows/RunReplay.h).
class ReplayDialog final : public QDialog {
    Q_OBJECT

public:
    struct Side {
        qint64 runId = 0;
        QString strategy; // a short description
        std::vector<TokenId> tokens;
        QStringList texts; // each step's text
    };

    ReplayDialog(Database* database, QWidget* parent = nullptr);

    void setPair(const QString& prompt, const Side& original, const Side& replay);
    int divergence() const { return m_divergence; }
    QLabel* summary() const { return m_summary; }
    QTextBrowser* originalView() const { return m_left; }
    QTextBrowser* replayView() const { return m_right; }
    // Saves the pair as a comparison; its id, or 0 (with the reason shown) when it cannot be saved.
    qint64 makeComparison();

signals:
    void comparisonMade(qint64 comparisonId);

private:
    Database* m_database = nullptr;
    Side m_original;
    Side m_replay;
    int m_divergence = -1;
    QLabel* m_summary = nullptr;
    QLabel* m_leftTitle = nullptr;
    QLabel* m_rightTitle = nullptr;
    QTextBrowser* m_left = nullptr;
    QTextBrowser* m_right = nullptr;
    QPushButton* m_compare = nullptr;
};

} // namespace swb
