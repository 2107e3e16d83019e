#pragma once

#include <QHash>
#include <QWidget>

#include "Result.h"
#include "evaluation/Campaign.h"

class QComboBox;
class QLabel;
class QTableWidget;
class QTimer;

namespace swb {

class Database;

// Compare's rating campaigns: create one over the store's comparisons (raters, ratings per output, gold
// share), and watch it fill: per rater the answers given and their link, per comparison the ratings planned
// and given, read again every two seconds while shown (raters answer in their browsers through
// `swb serve --rating`).
class CampaignPanel final : public QWidget {
    Q_OBJECT

public:
    CampaignPanel(Database* database, QWidget* parent = nullptr);

    // Creates a campaign (what the New Campaign dialog does) and shows it; one sentence when it cannot.
    // rubric: a rubric's name (empty: the default one); anchors: lines COMPARISON_ID=high|medium|low[:GUIDANCE].
    Status createCampaign(const QString& name, const QStringList& raters, const CampaignPlan& plan,
                          const QString& rubric = {}, const QString& anchors = {});
    // Reads the campaigns and the shown one's progress again.
    void refresh();
    QTableWidget* raterTable() const { return m_raters; }
    QTableWidget* comparisonTable() const { return m_comparisons; }
    QComboBox* campaignBox() const { return m_campaign; }

signals:
    void message(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void newCampaignDialog();
    void showProgress();

    Database* m_database = nullptr;
    QComboBox* m_campaign = nullptr;
    QLabel* m_summary = nullptr;
    QTableWidget* m_raters = nullptr;
    QTableWidget* m_comparisons = nullptr;
    QTimer* m_timer = nullptr;
    QHash<qint64, QString> m_prompts; // comparison -> its prompt
};

} // namespace swb
