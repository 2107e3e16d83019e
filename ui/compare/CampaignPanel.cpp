#include "compare/CampaignPanel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "storage/CampaignRepository.h"
#include "storage/ComparisonRepository.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"

namespace swb {

namespace {

QTableWidget* makeTable(const QStringList& headers, const QString& name, QWidget* parent) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setMinimumHeight(90);
    return table;
}

} // namespace

CampaignPanel::CampaignPanel(Database* database, QWidget* parent)
    : QWidget(parent)
    , m_database(database) {
    setObjectName(QStringLiteral("campaignPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>Rating campaign</b>"), this);
    title->setToolTip(tr("Deal the comparisons to raters who rate in their browsers: every output gets the planned "
                         "number of raters, gold questions are mixed in unmarked. Serve it with "
                         "“swb serve --rating --db FILE”."));
    auto* row = new QHBoxLayout;
    m_campaign = new QComboBox(this);
    m_campaign->setObjectName(QStringLiteral("campaign"));
    m_campaign->setPlaceholderText(tr("no campaign yet"));
    connect(m_campaign, &QComboBox::currentIndexChanged, this, &CampaignPanel::showProgress);
    auto* create = new QPushButton(tr("New…"), this);
    create->setObjectName(QStringLiteral("newCampaign"));
    create->setToolTip(tr("A new campaign over the comparisons in the run store"));
    connect(create, &QPushButton::clicked, this, &CampaignPanel::newCampaignDialog);
    row->addWidget(m_campaign, 1);
    row->addWidget(create);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("campaignSummary"));
    m_summary->setWordWrap(true);
    m_raters = makeTable({tr("Rater"), tr("Answered"), tr("Link")}, QStringLiteral("campaignRaters"), this);
    m_raters->setToolTip(tr("Right-click a rater to copy their link (the path after the server's address)"));
    m_raters->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_raters, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const int r = m_raters->rowAt(pos.y());
        if (r < 0)
            return;
        QMenu menu(this);
        const QString link = m_raters->item(r, 2)->text();
        menu.addAction(tr("Copy Link"), this, [link] { QApplication::clipboard()->setText(link); });
        menu.exec(m_raters->viewport()->mapToGlobal(pos));
    });
    m_comparisons = makeTable({tr("Comparison"), tr("Ratings"), tr("Prompt")}, QStringLiteral("campaignComparisons"), this);
    layout->addWidget(title);
    layout->addLayout(row);
    layout->addWidget(m_summary);
    layout->addWidget(m_raters);
    layout->addWidget(m_comparisons);
    m_timer = new QTimer(this);
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &CampaignPanel::refresh); // campaigns made with swb campaign too
    refresh();
}

void CampaignPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
    m_timer->start();
}

void CampaignPanel::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    m_timer->stop();
}

void CampaignPanel::refresh() {
    if (!m_database)
        return;
    Result<std::vector<CampaignRecord>> list = CampaignRepository(*m_database).list();
    if (!list) {
        m_summary->setText(list.error().message);
        return;
    }
    const QString shown = m_campaign->currentText();
    {
        const QSignalBlocker quiet(m_campaign);
        m_campaign->clear();
        for (const CampaignRecord& c : list.value())
            m_campaign->addItem(c.name, c.id);
        const int keep = m_campaign->findText(shown);
        m_campaign->setCurrentIndex(keep >= 0 ? keep : m_campaign->count() - 1);
    }
    showProgress();
}

void CampaignPanel::showProgress() {
    if (!m_database || m_campaign->currentIndex() < 0) {
        m_summary->setText(m_campaign->count() == 0 ? tr("Create a campaign to hand the comparisons to raters.") : QString());
        m_raters->setRowCount(0);
        m_comparisons->setRowCount(0);
        return;
    }
    Result<CampaignProgress> progress = CampaignRepository(*m_database).progress(m_campaign->currentData().toLongLong());
    if (!progress) {
        m_summary->setText(progress.error().message);
        return;
    }
    int done = 0, total = 0;
    m_raters->setRowCount(static_cast<int>(progress->raters.size()));
    for (std::size_t i = 0; i < progress->raters.size(); ++i) {
        const CampaignProgress::Rater& r = progress->raters[i];
        done += r.done;
        total += r.total;
        const int row = static_cast<int>(i);
        m_raters->setItem(row, 0, new QTableWidgetItem(r.rater.name));
        auto* answered = new QTableWidgetItem(tr("%1 of %2").arg(r.done).arg(r.total));
        answered->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_raters->setItem(row, 1, answered);
        m_raters->setItem(row, 2, new QTableWidgetItem(QStringLiteral("/rate/") + r.rater.token));
    }
    ComparisonRepository comparisons(*m_database);
    m_comparisons->setRowCount(static_cast<int>(progress->comparisons.size()));
    for (std::size_t i = 0; i < progress->comparisons.size(); ++i) {
        const CampaignProgress::Comparison& c = progress->comparisons[i];
        const int row = static_cast<int>(i);
        m_comparisons->setItem(row, 0, new QTableWidgetItem(QString::number(c.comparisonId)));
        auto* ratings = new QTableWidgetItem(tr("%1 of %2").arg(c.done).arg(c.planned));
        ratings->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        if (c.done == c.planned)
            ratings->setBackground(QColor(0xD8, 0xF0, 0xD8));
        m_comparisons->setItem(row, 1, ratings);
        // A comparison's prompt never changes: read once, not on every refresh.
        auto prompt = m_prompts.find(c.comparisonId);
        if (prompt == m_prompts.end()) {
            const Result<ComparisonRecord> record = comparisons.loadComparison(c.comparisonId);
            prompt = m_prompts.insert(c.comparisonId, record ? record->promptText : QString());
        }
        m_comparisons->setItem(row, 2, new QTableWidgetItem(prompt.value()));
    }
    m_summary->setText(tr("%1 of %2 answers; %3 of %4 comparisons fully rated.")
                           .arg(done)
                           .arg(total)
                           .arg(progress->complete())
                           .arg(progress->comparisons.size()));
    m_raters->resizeColumnsToContents();
    m_comparisons->resizeColumnsToContents();
}

Status CampaignPanel::createCampaign(const QString& name, const QStringList& raters, const CampaignPlan& plan,
                                     const QString& rubricName, const QString& anchorLines) {
    if (!m_database)
        return Error::badInput(tr("The run store is not open."));
    RatingRepository repository(*m_database);
    qint64 rubricId = 0; // the default rubric, saved with the campaign when the store has none
    if (!rubricName.isEmpty() && rubricName != QLatin1String(Rubric::kDefaultName)) {
        Result<std::optional<Rubric>> named = repository.findRubric(rubricName);
        if (!named)
            return named.error();
        if (!named.value())
            return Error::badInput(tr("There is no rubric named “%1”.").arg(rubricName));
        rubricId = named.value()->id;
    }
    std::vector<CampaignAnchor> anchors;
    for (const QString& line : anchorLines.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.trimmed().isEmpty())
            continue;
        Result<CampaignAnchor> anchor = parseCampaignAnchor(line);
        if (!anchor)
            return anchor.error();
        anchors.push_back(anchor.value());
    }
    Result<CampaignRecord> created = CampaignRepository(*m_database).create(name, rubricId, raters, plan, anchors);
    if (!created)
        return created.error();
    refresh();
    m_campaign->setCurrentIndex(m_campaign->findText(created->name));
    emit message(tr("Campaign “%1” created: serve it with “swb serve --rating --db %2” and send each rater their link.")
                     .arg(created->name, m_database->path()));
    return {};
}

void CampaignPanel::newCampaignDialog() {
    if (!m_database) {
        emit message(tr("The run store is not open."));
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("New Rating Campaign"));
    auto* name = new QLineEdit(&dialog);
    name->setObjectName(QStringLiteral("campaignName"));
    auto* raters = new QLineEdit(&dialog);
    raters->setObjectName(QStringLiteral("campaignRaterNames"));
    raters->setPlaceholderText(tr("ann, bob, cy"));
    auto* perOutput = new QSpinBox(&dialog);
    perOutput->setRange(1, 100);
    perOutput->setValue(3);
    auto* gold = new QDoubleSpinBox(&dialog);
    gold->setObjectName(QStringLiteral("campaignGoldShare"));
    gold->setRange(0.0, 0.9);
    gold->setSingleStep(0.05);
    // Gold questions need comparisons marked gold: without any, a share above 0 could only fail.
    int golds = 0;
    if (Result<std::vector<ComparisonRecord>> all = ComparisonRepository(*m_database).listComparisons())
        for (const ComparisonRecord& c : all.value())
            golds += c.isGold ? 1 : 0;
    gold->setValue(golds > 0 ? 0.10 : 0.0);
    gold->setEnabled(golds > 0);
    gold->setToolTip(golds > 0 ? tr("The share of each rater's items that are gold questions (%n gold comparison(s) in "
                                    "the store)", nullptr, golds)
                               : tr("No comparison is marked gold yet: mark some in Compare (Gold) to mix them in."));
    auto* seed = new QSpinBox(&dialog);
    seed->setRange(0, std::numeric_limits<int>::max());
    auto* rubric = new QComboBox(&dialog);
    if (Result<std::vector<Rubric>> rubrics = RatingRepository(*m_database).listRubrics())
        for (const Rubric& r : rubrics.value())
            rubric->addItem(r.name);
    if (rubric->findText(QLatin1String(Rubric::kDefaultName)) < 0)
        rubric->insertItem(0, QLatin1String(Rubric::kDefaultName));
    rubric->setCurrentText(QLatin1String(Rubric::kDefaultName));
    auto* anchors = new QPlainTextEdit(&dialog);
    anchors->setObjectName(QStringLiteral("campaignAnchors"));
    anchors->setPlaceholderText(tr("12=high:Fluent, on topic, answers the question\n7=low:Repeats itself"));
    anchors->setToolTip(tr("Anchor examples shown to raters before they start, one per line: the comparison's number, "
                           "its quality (high, medium or low) and the rubric's guidance for it"));
    anchors->setMaximumHeight(70);
    auto* problem = new QLabel(&dialog);
    problem->setWordWrap(true);
    problem->setStyleSheet(QStringLiteral("color: #b00020"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        CampaignPlan plan;
        plan.ratingsPerItem = perOutput->value();
        plan.goldShare = gold->value();
        plan.seed = static_cast<std::uint64_t>(seed->value());
        if (Status status = createCampaign(name->text(), raters->text().split(QLatin1Char(',')), plan,
                                           rubric->currentText(), anchors->toPlainText());
            !status) {
            problem->setText(status.error().message); // the dialog stays, with what to change
            return;
        }
        dialog.accept();
    });
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("&Name:"), name);
    form->addRow(tr("&Raters:"), raters);
    form->addRow(tr("Ratings per &output:"), perOutput);
    form->addRow(tr("&Gold share:"), gold);
    form->addRow(tr("&Seed:"), seed);
    form->addRow(tr("R&ubric:"), rubric);
    form->addRow(tr("&Anchors:"), anchors);
    auto* explain = new QLabel(tr("Every comparison in the run store is dealt out, but anchors; those marked gold are "
                                  "mixed in as gold questions."),
                               &dialog);
    explain->setWordWrap(true);
    form->addRow(explain);
    form->addRow(problem);
    form->addRow(buttons);
    dialog.exec();
}

} // namespace swb
