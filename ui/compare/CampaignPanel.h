#pragma once

#include <memory>

#include <QHash>
#include <QWidget>

#include "Result.h"
#include "evaluation/Campaign.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace swb {

class Database;

class RatingServer;

// Compare's rating campaigns: create one over the store's comparisons (raters, ratings per output, gold
// share), serve them to raters' browsers (what `swb serve --rating` does, on the address and port chosen
// here, until Stop or the window closes), and watch them fill: per rater the answers given and their link
// (with host and port while served), per comparison the ratings planned and given, read again every two
// seconds while shown.
class CampaignPanel final : public QWidget {
    Q_OBJECT

public:
    CampaignPanel(Database* database, QWidget* parent = nullptr);
    ~CampaignPanel() override;

    // Starts the rating server on host (an IP address; "localhost" is loopback) and port (0: any free one);
    // one sentence when it cannot. stopServing() ends it; links show the address while it runs.
    Status serve(const QString& host, int port);
    void stopServing();
    bool isServing() const { return m_server != nullptr; }
    // "http://127.0.0.1:8090" while serving, else empty.
    QString serverAddress() const { return m_serverAddress; }
    // The rater's link as shown and copied: the whole URL while serving, else the path.
    QString linkOf(const QString& token) const;

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
    QLineEdit* m_host = nullptr;
    QSpinBox* m_port = nullptr;
    QPushButton* m_serve = nullptr;
    QLabel* m_serving = nullptr;
    std::unique_ptr<RatingServer> m_server;
    QString m_serverAddress;
    QHash<qint64, QString> m_prompts; // comparison -> its prompt
};

} // namespace swb
