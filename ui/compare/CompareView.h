#pragma once

#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include <QWidget>

#include "storage/ComparisonRepository.h"
#include "storage/RatingRepository.h"
#include "workflows/ComparisonRunner.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QHBoxLayout;

namespace swb {

class ComparePane;
class CampaignPanel;
class Database;
class InferenceSession;
class StrategySource;
class Settings;

// Compare: set up 2–4 strategies on a prompt or prompt set and run them (a queue with progress,
// cancel and resume), then rate the comparisons blind: panes A, B, … in a recorded random order,
// rubric scores and a note per pane, a preference per comparison, raters by name, gold comparisons,
// reveal after rating. Everything is saved the moment it is entered.
class CompareView final : public QWidget {
    Q_OBJECT

public:
    CompareView(Settings& settings, Database* database, InferenceSession& session, const StrategySource& edited,
                QWidget* parent = nullptr);
    ~CompareView() override;

    // Setup, also for tests.
    void setStrategies(const QStringList& strategies); // preset names, saved names or JSON
    void setPrompts(const QStringList& prompts);
    bool importPrompts(const QString& path);
    QSpinBox* samplesBox() const { return m_samples; }
    QSpinBox* maxTokensBox() const { return m_maxTokens; }
    void run();
    void cancel();
    bool isRunning() const { return m_runningId != 0; }

    // Rating.
    void setRater(const QString& name);
    QString rater() const;
    void reloadComparisons();
    bool showComparison(int index);
    int comparisonIndex() const { return m_index; }
    int comparisonCount() const { return static_cast<int>(m_comparisons.size()); }
    const ComparisonRecord* currentComparison() const;
    const std::vector<ComparePane*>& panes() const { return m_panes; }
    void prefer(const QString& winner); // a blind label, "tie" or "bothbad"
    void next();
    void previous();
    void nextUnrated();
    void reveal();
    void markGold();
    QLabel* progressLabel() const { return m_ratedLabel; }
    // Rubrics: the one scores are given on, chosen by name; edit opens the rubric dialog.
    bool setRubric(const QString& name);
    const Rubric& rubric() const { return m_rubric; }
    void editRubric(bool asNew);

public:
    CampaignPanel* campaigns() const { return m_campaigns; }

signals:
    void comparisonsChanged();
    void ratingsChanged();
    void openStep(qint64 runId, int step);
    void statusMessage(const QString& text);
    // A failure the user should see until dismissed (MainWindow's message bar).
    void errorMessage(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* makeSetup();
    QWidget* makeRating();
    void addShortcuts();
    void fillStrategyChoices(QComboBox* box);
    void onProgress(quint64 id, const ComparisonProgress& progress);
    void onFinished(quint64 id, const ComparisonOutcome& outcome);
    void onFailed(quint64 id, const QString& message);
    void runEnded();
    void addStrategyRow(const QString& text = {});
    void removeStrategyRow();
    void rebuildPreferenceButtons(const ComparisonRecord& comparison);
    void saveScore(qint64 runId, const QString& dimension, double score, bool cleared);
    // Scores set before a rater name was typed, saved under the name when it is (run, dimension -> score,
    // cleared).
    void savePendingScores();
    void saveNote(qint64 runId, const QString& note);
    void updateRatedLabel();
    void updatePreferenceButtons();
    std::optional<qint64> raterId(bool create);
    void refreshRaters();
    void refreshRubrics();
    Strategy strategyFrom(const QString& text, QString* error) const;

    Settings& m_settings;
    Database* m_database = nullptr;
    CampaignPanel* m_campaigns = nullptr;
    InferenceSession& m_session;
    const StrategySource& m_edited; // Explore's strategy
    std::unique_ptr<ComparisonRepository> m_comparisonStore;
    std::unique_ptr<RatingRepository> m_ratings;
    Rubric m_rubric;

    // Setup.
    QWidget* m_strategyRows = nullptr;
    std::vector<QComboBox*> m_strategyBoxes;
    QPlainTextEdit* m_prompts = nullptr;
    QString m_promptSource;
    QSpinBox* m_samples = nullptr;
    QSpinBox* m_seed = nullptr;
    QComboBox* m_seedPolicy = nullptr;
    QSpinBox* m_maxTokens = nullptr;
    QCheckBox* m_blind = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_overall = nullptr;
    QProgressBar* m_item = nullptr;
    QLabel* m_runStatus = nullptr;
    quint64 m_runningId = 0;
    quint64 m_nextId = 1;

    // Rating.
    QComboBox* m_raterBox = nullptr;
    QComboBox* m_rubricBox = nullptr;
    QLabel* m_promptLabel = nullptr;
    QLabel* m_setupWarning = nullptr;
    QLabel* m_ratedLabel = nullptr;
    QLabel* m_position = nullptr;
    QWidget* m_paneArea = nullptr;
    QScrollArea* m_preferenceScroll = nullptr;
    QHBoxLayout* m_paneLayout = nullptr;
    bool m_rebuilding = false;
    std::set<QString> m_shownModels; // content hashes of the models the shown runs came from
    bool m_rebuildAgain = false;     // a rebuild was asked for during one
    std::vector<ComparePane*> m_panes;
    QWidget* m_preferenceRow = nullptr;
    std::vector<QPushButton*> m_preferenceButtons;
    QPushButton* m_reveal = nullptr;
    QPushButton* m_gold = nullptr;
    std::vector<ComparisonRecord> m_comparisons;
    int m_index = -1;
    bool m_revealed = false;
    std::map<std::pair<qint64, QString>, std::pair<double, bool>> m_pendingScores;
};

} // namespace swb
