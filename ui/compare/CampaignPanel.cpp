#include "compare/CampaignPanel.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QNetworkInterface>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include "serving/RatingServer.h"
#include "storage/CampaignRepository.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "workflows/CampaignSetup.h"

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
                         "number of raters, gold questions are mixed in unmarked. Serve it here, or with "
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
    // Serving: the rating page on an address of this machine, as `swb serve --rating` does.
    auto* serveRow = new QHBoxLayout;
    m_host = new QLineEdit(QStringLiteral("127.0.0.1"), this);
    m_host->setObjectName(QStringLiteral("ratingHost"));
    m_host->setToolTip(tr("The address to listen on: 127.0.0.1 for this machine only, 0.0.0.0 for every network "
                          "this machine is on (each rater's link carries its own unguessable token)"));
    m_port = new QSpinBox(this);
    m_port->setObjectName(QStringLiteral("ratingPort"));
    m_port->setRange(0, 65535);
    m_port->setValue(8090);
    m_port->setSpecialValueText(tr("any"));
    m_port->setToolTip(tr("The port (any: a free one)"));
    m_serve = new QPushButton(tr("Serve"), this);
    m_serve->setObjectName(QStringLiteral("serveRating"));
    m_serve->setToolTip(tr("Serve the campaigns' rating page to raters' browsers until Stop or the window closes"));
    connect(m_serve, &QPushButton::clicked, this, [this] {
        if (isServing()) {
            stopServing();
            return;
        }
        if (Status s = serve(m_host->text().trimmed(), m_port->value()); !s)
            emit message(s.error().message);
    });
    serveRow->addWidget(new QLabel(tr("Serve on"), this));
    serveRow->addWidget(m_host, 1);
    serveRow->addWidget(m_port);
    serveRow->addWidget(m_serve);
    m_serving = new QLabel(this);
    m_serving->setObjectName(QStringLiteral("ratingServing"));
    m_serving->setWordWrap(true);
    m_serving->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_raters = makeTable({tr("Rater"), tr("Answered"), tr("Link")}, QStringLiteral("campaignRaters"), this);
    // The rater and the count whole, the link in the rest of the width, elided in the middle so that the
    // host and the token's end stay readable (the tooltip, a copy and Open in Browser have it whole).
    m_raters->setTextElideMode(Qt::ElideMiddle);
    m_raters->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_raters->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_raters->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_raters->setToolTip(tr("Double-click a rater to copy their link; right-click to copy every link"));
    m_raters->setContextMenuPolicy(Qt::CustomContextMenu);
    const auto copyAll = [this] {
        QStringList lines;
        for (int r = 0; r < m_raters->rowCount(); ++r)
            lines << m_raters->item(r, 0)->text() + QLatin1Char('\t') + m_raters->item(r, 2)->text();
        QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
        emit message(tr("Copied %n link(s).", nullptr, static_cast<int>(lines.size())));
    };
    connect(m_raters, &QTableWidget::cellDoubleClicked, this, [this](int r, int) {
        QApplication::clipboard()->setText(m_raters->item(r, 2)->text());
        emit message(tr("Copied %1's link: %2").arg(m_raters->item(r, 0)->text(), m_raters->item(r, 2)->text()));
    });
    connect(m_raters, &QWidget::customContextMenuRequested, this, [this, copyAll](const QPoint& pos) {
        QMenu menu(this);
        const int r = m_raters->rowAt(pos.y());
        if (r >= 0) {
            const QString link = m_raters->item(r, 2)->text();
            menu.addAction(tr("Copy Link"), this, [link] { QApplication::clipboard()->setText(link); });
            if (isServing())
                menu.addAction(tr("Open in Browser"), this, [link] { QDesktopServices::openUrl(QUrl(link)); });
        }
        if (m_raters->rowCount() > 0)
            menu.addAction(tr("Copy Every Link"), this, copyAll);
        if (!menu.isEmpty())
            menu.exec(m_raters->viewport()->mapToGlobal(pos));
    });
    m_comparisons = makeTable({tr("Comparison"), tr("Ratings"), tr("Prompt")}, QStringLiteral("campaignComparisons"), this);
    layout->addWidget(title);
    layout->addLayout(row);
    layout->addWidget(m_summary);
    layout->addLayout(serveRow);
    layout->addWidget(m_serving);
    layout->addWidget(m_raters);
    layout->addWidget(m_comparisons);
    m_timer = new QTimer(this);
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &CampaignPanel::refresh); // campaigns made with swb campaign too
    refresh();
}

CampaignPanel::~CampaignPanel() = default;

Status CampaignPanel::serve(const QString& host, int port) {
    if (!m_database)
        return Error::badInput(tr("The run store is not open."));
    if (isServing())
        return {};
    QHostAddress address;
    if (host == QLatin1String("localhost"))
        address = QHostAddress::LocalHost;
    else if (!address.setAddress(host))
        return Error::badInput(
            tr("Serve on takes an IP address such as 127.0.0.1 or 0.0.0.0, not “%1”.").arg(host));
    Result<std::vector<CampaignRecord>> campaigns = CampaignRepository(*m_database).list();
    if (!campaigns)
        return campaigns.error();
    if (campaigns->empty())
        return Error::badInput(tr("There is no campaign to serve yet: create one with New…"));
    // The server answers on this thread's event loop with its own connection to the store.
    Result<std::unique_ptr<Database>> own = Database::open(m_database->path());
    if (!own)
        return own.error();
    auto server = std::make_unique<RatingServer>(std::move(own.value()));
    Result<quint16> bound = server->listen(address, static_cast<quint16>(port));
    if (!bound)
        return bound.error();
    // Links name an address a rater's browser can reach: this machine's first non-loopback IPv4 address
    // when listening on all of them.
    QHostAddress shown = address;
    if (address == QHostAddress::AnyIPv4 || address == QHostAddress::Any) {
        shown = QHostAddress::LocalHost;
        for (const QHostAddress& a : QNetworkInterface::allAddresses())
            if (a.protocol() == QAbstractSocket::IPv4Protocol && !a.isLoopback()) {
                shown = a;
                break;
            }
    }
    const QString hostText =
        shown.protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("[%1]").arg(shown.toString()) : shown.toString();
    m_server = std::move(server);
    m_serverAddress = QStringLiteral("http://%1:%2").arg(hostText).arg(bound.value());
    m_serving->setText(tr("Serving on %1 (listening on %2). Send each rater their link.")
                           .arg(m_serverAddress, address.toString()));
    m_serve->setText(tr("Stop"));
    m_host->setEnabled(false);
    m_port->setEnabled(false);
    showProgress();
    emit message(tr("Rating page served on %1.").arg(m_serverAddress));
    return {};
}

void CampaignPanel::stopServing() {
    if (!isServing())
        return;
    m_server.reset();
    m_serverAddress.clear();
    m_serving->clear();
    m_serve->setText(tr("Serve"));
    m_host->setEnabled(true);
    m_port->setEnabled(true);
    showProgress();
    emit message(tr("Rating page no longer served."));
}

QString CampaignPanel::linkOf(const QString& token) const {
    return m_serverAddress + QStringLiteral("/rate/") + token;
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
        auto* link = new QTableWidgetItem(linkOf(r.rater.token));
        link->setToolTip(link->text());
        m_raters->setItem(row, 2, link);
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
    Result<CampaignRecord> created = swb::createCampaign(*m_database, name, rubricId, raters, plan, anchors);
    if (!created)
        return created.error();
    refresh();
    m_campaign->setCurrentIndex(m_campaign->findText(created->name));
    emit message(tr("Campaign “%1” created: serve it with Serve (or “swb serve --rating --db %2”) and send each rater their link.")
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
