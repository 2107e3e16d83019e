#include "reports/ReportsView.h"

#include <cmath>
#include <memory>
#include <utility>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "EmptyStatePage.h"
#include "SaveFileDialog.h"
#include "reports/ExperimentsPanel.h"
#include "reports/IntervalBarChart.h"
#include "reports/ReportPalette.h"
#include "reports/ReportTableModel.h"
#include "reports/ReportTables.h"
#include "reports/WinRateHeatmap.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb {

// What the worker thread hands back: the summary, or why there is none, and the rubric ranges.
struct ComputedReport {
    std::optional<SummaryReport> report;
    std::vector<ExperimentAnalysis> experiments; // every model's
    QString error;
    std::map<QString, std::pair<double, double>> scoreRanges;
    qint64 elapsedMs = 0;
};

namespace {

constexpr int kBusyDelayMs = 120; // a refresh that ends sooner shows no busy indicator

QString kindName(ReportKind kind) {
    return Reports::kindNames().value(static_cast<int>(kind));
}

QString native(const QString& path) {
    return QDir::toNativeSeparators(path);
}

// Runs on a worker thread: its own connection to the store, closed before it returns.
ComputedReport computeReport(const QString& databasePath, const ReportOptions& options, const QString& modelHash) {
    QElapsedTimer timer;
    timer.start();
    ComputedReport computed;
    Result<std::unique_ptr<Database>> database = Database::open(databasePath, Database::Access::ReadOnly);
    if (!database) {
        computed.error = database.error().message;
        return computed;
    }
    Result<SummaryReport> summary = Reports(*database.value(), modelHash).summary(options);
    if (!summary) {
        computed.error = summary.error().message;
        return computed;
    }
    computed.report = std::move(summary).value();
    if (Result<std::vector<ExperimentAnalysis>> experiments =
            Reports(*database.value()).experiments(ExperimentDetail::Display))
        computed.experiments = std::move(experiments).value();
    // The scale of each dimension, so charts of means span the rubric (the union when rubrics differ).
    if (Result<std::vector<Rubric>> rubrics = RatingRepository(*database.value()).listRubrics()) {
        for (const Rubric& rubric : rubrics.value())
            for (const RubricDimension& d : rubric.dimensions) {
                const auto found = computed.scoreRanges.find(d.name);
                if (found == computed.scoreRanges.end())
                    computed.scoreRanges[d.name] = {d.min, d.max};
                else
                    found->second = {std::min(found->second.first, d.min), std::max(found->second.second, d.max)};
            }
    }
    computed.elapsedMs = timer.elapsed();
    return computed;
}

// Writes one report to path through QSaveFile (nothing is left behind on failure). Returns the error
// sentence, or an empty string on success. Runs on whichever thread owns database.
QString writeCsvFile(Database& database, ReportKind kind, const QString& path, const ReportOptions& options,
                     const QString& modelHash) {
    const QString name = kindName(kind);
    QSaveFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::WriteOnly))
        return ReportsView::tr("Cannot write the %1 report to %2: %3.").arg(name, native(path), file.errorString());
    // Token texts for the steps report, from each run's model tokenizer while it still loads.
    QHash<QString, std::shared_ptr<Tokenizer>> tokenizers;
    const Reports::TokenText tokenText = [&tokenizers](const QString& modelPath, int tokenId) -> QString {
        auto found = tokenizers.find(modelPath);
        if (found == tokenizers.end()) {
            Result<std::unique_ptr<Tokenizer>> loaded = loadTokenizer(modelPath);
            found =
                tokenizers.insert(modelPath, loaded ? std::shared_ptr<Tokenizer>(std::move(loaded).value()) : nullptr);
        }
        const std::shared_ptr<Tokenizer>& tokenizer = found.value();
        if (!tokenizer || tokenId < 0 || tokenId >= tokenizer->vocabSize())
            return {};
        return QString::fromStdString(tokenizer->piece(tokenId));
    };
    if (Status status = Reports(database, modelHash).writeCsv(kind, file, options, tokenText); !status) {
        file.cancelWriting();
        return ReportsView::tr("Cannot export the %1 report: %2.").arg(name, status.error().message);
    }
    if (!file.commit())
        return ReportsView::tr("Cannot write the %1 report to %2: %3.").arg(name, native(path), file.errorString());
    return {};
}

QString kindToolTip(ReportKind kind) {
    switch (kind) {
    case ReportKind::Runs:
        return ReportsView::tr("One row per run: strategy, seed, prompt, output, length and timings.");
    case ReportKind::Steps:
        return ReportsView::tr("One row per generated token: its probability, rank and the entropy at that step.");
    case ReportKind::Ratings:
        return ReportsView::tr("One row per rubric score: run, strategy, rater, dimension, score and note.");
    case ReportKind::Preferences:
        return ReportsView::tr("One row per pairwise verdict, with the strategy behind each blind label.");
    case ReportKind::Summary:
        return ReportsView::tr("One row per strategy: the table above, with every interval bound.");
    case ReportKind::Pairwise:
        return ReportsView::tr("One row per pair of strategies: wins each way, ties, both bad and win rate.");
    case ReportKind::Agreement:
        return ReportsView::tr("One row per rated dimension: Krippendorff's α, ordinal and interval.");
    case ReportKind::Raters:
        return ReportsView::tr("One row per rater: ratings, preferences and gold accuracy.");
    case ReportKind::Experiments:
        return ReportsView::tr("One row per experiment arm of swb serve: traffic, feedback, the difference to the "
                               "control and the decision.");
    }
    return {};
}

QTableView* makeTable(ReportTableModel* model, const QString& name, QWidget* parent) {
    auto* proxy = new QSortFilterProxyModel(parent);
    proxy->setSourceModel(model);
    proxy->setSortRole(Qt::UserRole);
    auto* table = new QTableView(parent);
    table->setObjectName(name);
    table->setModel(proxy);
    table->verticalHeader()->hide();
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(false);
    table->setCornerButtonEnabled(false);
    table->horizontalHeader()->setHighlightSections(false);
    table->horizontalHeader()->setDefaultAlignment(Qt::AlignCenter);
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder); // report order until a header is clicked
    table->setSortingEnabled(true);
    table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    return table;
}

QLabel* sectionTitle(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

// Rows plus header and frame, and the scroll bar when the columns do not fit: never taller than the content.
int contentHeight(const QTableView* table, int rows) {
    int height = table->horizontalHeader()->sizeHint().height() + 2 * table->frameWidth();
    height += rows * table->verticalHeader()->defaultSectionSize();
    if (table->horizontalHeader()->length() > table->viewport()->width())
        height += table->horizontalScrollBar()->sizeHint().height();
    return height;
}

// Each column as wide as its widest cell or its title, plus a little air. QHeaderView's own fit reserves room
// for a sort arrow in every column, which costs a wide table its last columns.
void fitColumns(QTableView* table) {
    QHeaderView* header = table->horizontalHeader();
    const QFontMetrics metrics(header->font());
    for (int c = 0; c < header->count(); ++c) {
        const QString title = table->model()->headerData(c, Qt::Horizontal).toString();
        const int titleWidth =
            metrics.horizontalAdvance(title) + 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin);
        const int cells = static_cast<const QAbstractItemView*>(table)->sizeHintForColumn(c); // protected in QTableView
        header->resizeSection(c, std::max(cells, titleWidth) + 10);
    }
}

} // namespace

ReportsView::ReportsView(Database* database, QWidget* parent)
    : QWidget(parent)
    , m_database(database) {
    setObjectName(QStringLiteral("reports"));

    QHBoxLayout* header = makeHeader();
    // Tables.
    m_strategyModel = new ReportTableModel(this);
    m_agreementModel = new ReportTableModel(this);
    m_raterModel = new ReportTableModel(this);
    m_strategyTable = makeTable(m_strategyModel, QStringLiteral("strategyTable"), this);
    m_agreementTable = makeTable(m_agreementModel, QStringLiteral("agreementTable"), this);
    m_raterTable = makeTable(m_raterModel, QStringLiteral("raterTable"), this);
    m_raterTable->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_raterTable, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex index = m_raterTable->indexAt(pos);
        if (!index.isValid())
            return;
        const QString name = index.sibling(index.row(), 0).data().toString();
        const auto row = std::find_if(m_report.raters.begin(), m_report.raters.end(),
                                      [&](const RaterRow& r) { return r.rater == name; });
        if (row == m_report.raters.end())
            return;
        QMenu menu(this);
        if (row->setAside.isEmpty()) {
            menu.addAction(tr("Set %1 Aside…").arg(name), this, [this, name, suggestion = row->suggestion] {
                bool ok = false;
                const QString reason =
                    QInputDialog::getText(this, tr("Set a Rater Aside"),
                                          tr("Why is %1 set aside? (Recorded with the rater; every report leaves "
                                             "their ratings and preferences out until they are counted again.)")
                                              .arg(name),
                                          QLineEdit::Normal, suggestion, &ok);
                if (ok && !reason.trimmed().isEmpty())
                    setRaterAside(name, reason);
            });
        } else {
            menu.addAction(tr("Count %1 Again").arg(name), this, [this, name] { setRaterAside(name, QString()); });
        }
        menu.exec(m_raterTable->viewport()->mapToGlobal(pos));
    });

    QWidget* charts = makeCharts();
    QWidget* bottom = makeRaterTables();
    // Tables as tall as their rows; the charts take the rest.
    m_content = new QWidget(this);
    m_content->setObjectName(QStringLiteral("reportContent"));
    auto* content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    content->setSpacing(6);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName(QStringLiteral("preferenceVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdict->setToolTip(tr("A strategy wins when it beats every other one in an exact sign test of their "
                             "preferences (ties left out) at p < 0.05 after Holm's correction across the pairs. "
                             "Without a winner: about how many more decisive preferences the leader's closest pair "
                             "needs for 80% power at its current win share."));
    content->addWidget(m_verdict);
    content->addWidget(m_strategyTable);
    content->addWidget(charts, 1);
    content->addWidget(bottom);
    m_experiments = new ExperimentsPanel(m_content);
    m_experiments->setObjectName(QStringLiteral("experimentsPanel"));
    connect(m_experiments, &ExperimentsPanel::openRun, this, &ReportsView::openRun);
    content->addWidget(m_experiments);
    for (QTableView* table : {m_strategyTable, m_agreementTable, m_raterTable})
        table->installEventFilter(this);
    // The report scrolls inside the tab: with many strategies its tables are taller than a screen, and a
    // minimum height passed up to the window grew it past the screen's bottom (the Export buttons with it).
    m_contentScroll = new QScrollArea(this);
    m_contentScroll->setObjectName(QStringLiteral("reportScroll"));
    m_contentScroll->setWidget(m_content);
    m_contentScroll->setWidgetResizable(true);
    m_contentScroll->setFrameShape(QFrame::NoFrame);
    m_contentScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_contentScroll);

    QHBoxLayout* exportBar = makeExportBar();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 6);
    layout->setSpacing(6);
    layout->addLayout(header);
    layout->addWidget(m_stack, 1);
    layout->addLayout(exportBar);

    m_watcher = new QFutureWatcher<ComputedReport>(this);
    connect(m_watcher, &QFutureWatcherBase::finished, this, &ReportsView::applyComputed);
    m_exportWatcher = new QFutureWatcher<std::pair<QString, QString>>(this);
    connect(m_exportWatcher, &QFutureWatcherBase::finished, this, [this] {
        const auto [path, error] = m_exportWatcher->result();
        for (const auto& [kind, button] : m_csvButtons)
            button->setEnabled(true);
        if (error.isEmpty())
            showMessage(tr("Wrote %1.").arg(native(path)), false);
        else
            showMessage(error, true);
        emit csvExportFinished(path, error.isEmpty());
    });
    m_busyDelay = new QTimer(this);
    m_busyDelay->setSingleShot(true);
    m_busyDelay->setInterval(kBusyDelayMs);
    connect(m_busyDelay, &QTimer::timeout, this, [this] { m_busy->setVisible(isComputing()); });

    if (!m_database) {
        showEmptyState(tr("The run store is not open"),
                       tr("Reports are computed from the run store, which could not be opened; the status bar "
                          "says why."));
        m_refresh->setEnabled(false);
        for (const auto& [kind, button] : m_csvButtons)
            button->setEnabled(false);
    } else {
        showEmptyState(tr("Computing the report…"), tr("Reading ratings and preferences from the run store."));
    }
}

// Header: what is in the store, the model whose runs count, busy indicator, Refresh.
QHBoxLayout* ReportsView::makeHeader() {
    auto* heading = sectionTitle(tr("Evaluation report"), this);
    QFont headingFont = heading->font();
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.15);
    heading->setFont(headingFont);
    m_overview = new QLabel(this);
    m_overview->setObjectName(QStringLiteral("reportOverview"));
    m_overview->setForegroundRole(QPalette::PlaceholderText);
    m_busy = new QProgressBar(this);
    m_busy->setObjectName(QStringLiteral("reportBusy"));
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setFixedSize(110, 10);
    m_busy->setToolTip(tr("Computing the report…"));
    m_busy->hide();
    m_refresh = new QPushButton(tr("&Refresh"), this);
    m_refresh->setObjectName(QStringLiteral("refreshReport"));
    m_refresh->setToolTip(tr("Compute the report again from the run store, with every rating made since"));
    connect(m_refresh, &QPushButton::clicked, this, &ReportsView::refresh);
    // Reports per model: every model's runs together, or one model's.
    m_model = new QComboBox(this);
    m_model->setObjectName(QStringLiteral("reportModel"));
    m_model->setToolTip(tr("The runs the report counts: every model's, or one model's (with their ratings and the "
                           "comparisons of its outputs)"));
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->setMinimumContentsLength(18);
    connect(m_model, &QComboBox::activated, this, [this] {
        const QString hash = m_model->currentData().toString();
        if (hash != m_modelHash) {
            m_modelHash = hash;
            refresh();
        }
    });
    auto* header = new QHBoxLayout;
    header->addWidget(heading);
    header->addSpacing(12);
    header->addWidget(m_overview, 1);
    header->addWidget(m_model);
    header->addWidget(m_busy);
    header->addWidget(m_refresh);
    return header;
}

// The four charts in a row.
QWidget* ReportsView::makeCharts() {
    m_meansChart = new IntervalBarChart(tr("Mean score"), this);
    m_meansChart->setObjectName(QStringLiteral("dimensionChart"));
    m_meansChart->setToolTip(tr("Mean of every rating on the chosen dimension; the whiskers are 95% bootstrap "
                                "intervals of the mean."));
    m_dimension = new QComboBox(m_meansChart);
    m_dimension->setObjectName(QStringLiteral("reportDimension"));
    m_dimension->setToolTip(tr("The rubric dimension to plot"));
    m_dimension->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_dimension->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_meansChart->addHeaderWidget(m_dimension);
    connect(m_dimension, &QComboBox::currentIndexChanged, this, &ReportsView::drawDimensionChart);
    m_bradleyTerryChart = new IntervalBarChart(tr("Bradley–Terry score"), this);
    m_bradleyTerryChart->setObjectName(QStringLiteral("bradleyTerryChart"));
    m_bradleyTerryChart->setToolTip(tr("Bradley–Terry: strength on an Elo-like scale (400·log10), mean 1000; ties "
                                       "count half. Whiskers: 95% bootstrap intervals; diamonds: online Elo."));
    m_winRateChart = new WinRateHeatmap(tr("Win rate, row against column"), this);
    m_winRateChart->setObjectName(QStringLiteral("winRateChart"));
    m_winRateChart->setToolTip(tr("How often the row's strategy beat the column's in preferences, a tie counting "
                                  "half; under the rate: wins–losses–draws."));
    m_agreementChart = new IntervalBarChart(tr("Agreement, ordinal α"), this);
    m_agreementChart->setObjectName(QStringLiteral("agreementChart"));
    m_agreementChart->setToolTip(tr("Ordinal α per dimension with its 95% bootstrap interval over the runs; the "
                                    "dashed line is the evaluation guide's threshold, 0.7."));
    for (const auto& [kind, chartWidget] :
         {std::pair{Chart::DimensionMeans, static_cast<ReportChart*>(m_meansChart)},
          std::pair{Chart::BradleyTerry, static_cast<ReportChart*>(m_bradleyTerryChart)},
          std::pair{Chart::WinRates, static_cast<ReportChart*>(m_winRateChart)},
          std::pair{Chart::Agreement, static_cast<ReportChart*>(m_agreementChart)}})
        connect(chartWidget, &ReportChart::exportRequested, this, [this, kind = kind] { exportChartDialog(kind); });
    auto* charts = new QWidget(this);
    auto* chartRow = new QHBoxLayout(charts);
    chartRow->setContentsMargins(0, 6, 0, 6);
    chartRow->setSpacing(14);
    chartRow->addWidget(m_meansChart, 1);
    chartRow->addWidget(m_bradleyTerryChart, 1);
    chartRow->addWidget(m_winRateChart, 1);
    chartRow->addWidget(m_agreementChart, 1);
    return charts;
}

// Agreement and raters, side by side, with the thresholds of the suggestions under the raters' table.
QWidget* ReportsView::makeRaterTables() {
    auto* bottom = new QWidget(this);
    auto* bottomRow = new QHBoxLayout(bottom);
    bottomRow->setContentsMargins(0, 0, 0, 0);
    bottomRow->setSpacing(14);
    const auto addSection = [&](const QString& title, const QString& toolTip, QTableView* table, int stretch) {
        auto* column = new QVBoxLayout;
        column->setSpacing(2);
        QLabel* label = sectionTitle(title, bottom);
        label->setToolTip(toolTip);
        column->addWidget(label);
        column->addWidget(table);
        bottomRow->addLayout(column, stretch);
    };
    addSection(tr("Inter-rater agreement (Krippendorff's α)"),
               tr("Do raters agree on the scores? Runs are the units, raters the coders; hover a column for how "
                  "to read it."),
               m_agreementTable, 4);
    addSection(tr("Raters and gold accuracy"),
               tr("Gold comparisons carry a known right answer; accuracy on them shows a rater is reading."),
               m_raterTable, 6);
    // The thresholds of the suggestions, under the raters' table.
    m_goldThreshold = new QDoubleSpinBox(bottom);
    m_goldThreshold->setObjectName(QStringLiteral("goldThreshold"));
    m_goldThreshold->setRange(0.0, 1.0);
    m_goldThreshold->setSingleStep(0.05);
    m_goldThreshold->setValue(m_options.goldAccuracyThreshold);
    m_alphaRise = new QDoubleSpinBox(bottom);
    m_alphaRise->setObjectName(QStringLiteral("alphaRise"));
    m_alphaRise->setRange(0.0, 2.0);
    m_alphaRise->setDecimals(3);
    m_alphaRise->setSingleStep(0.01);
    m_alphaRise->setValue(m_options.alphaRiseThreshold);
    auto* thresholds = new QHBoxLayout;
    thresholds->addWidget(new QLabel(tr("Suggest setting aside below gold accuracy"), bottom));
    thresholds->addWidget(m_goldThreshold);
    thresholds->addWidget(new QLabel(tr("or when α rises by"), bottom));
    thresholds->addWidget(m_alphaRise);
    thresholds->addWidget(new QLabel(tr("without them"), bottom));
    thresholds->addStretch();
    static_cast<QVBoxLayout*>(bottomRow->itemAt(bottomRow->count() - 1)->layout())->addLayout(thresholds);
    for (QDoubleSpinBox* box : {m_goldThreshold, m_alphaRise})
        connect(box, &QDoubleSpinBox::editingFinished, this,
                [this] { setSuggestionThresholds(m_goldThreshold->value(), m_alphaRise->value()); });
    return bottom;
}

// CSV export of every report kind, and the report's messages.
QHBoxLayout* ReportsView::makeExportBar() {
    auto* exportBar = new QHBoxLayout;
    exportBar->setSpacing(4);
    auto* exportLabel = new QLabel(tr("Export CSV:"), this);
    exportLabel->setToolTip(tr("RFC 4180 CSV, UTF-8, the same files as “swb export”"));
    exportBar->addWidget(exportLabel);
    const QStringList names = Reports::kindNames();
    for (int i = 0; i < names.size(); ++i) {
        const auto kind = static_cast<ReportKind>(i);
        auto* button = new QPushButton(kindTitle(kind), this);
        button->setObjectName(QStringLiteral("exportCsv_") + names[i]);
        button->setToolTip(kindToolTip(kind));
        button->setAutoDefault(false);
        connect(button, &QPushButton::clicked, this, [this, kind] { startCsvExport(kind); });
        exportBar->addWidget(button);
        m_csvButtons[kind] = button;
    }
    exportBar->addSpacing(10);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("reportMessage"));
    m_message->setTextFormat(Qt::PlainText);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMinimumWidth(120);
    exportBar->addWidget(m_message, 1);
    return exportBar;
}

ReportsView::~ReportsView() {
    // The workers hold connections of Qt's SQL plugin: let them close before the application may go.
    m_watcher->waitForFinished();
    m_exportWatcher->waitForFinished();
}

QString ReportsView::kindTitle(ReportKind kind) {
    switch (kind) {
    case ReportKind::Runs:
        return tr("Runs");
    case ReportKind::Steps:
        return tr("Steps");
    case ReportKind::Ratings:
        return tr("Ratings");
    case ReportKind::Preferences:
        return tr("Preferences");
    case ReportKind::Summary:
        return tr("Summary");
    case ReportKind::Pairwise:
        return tr("Pairwise");
    case ReportKind::Agreement:
        return tr("Agreement");
    case ReportKind::Raters:
        return tr("Raters");
    case ReportKind::Experiments:
        return tr("Experiments");
    }
    return {};
}

bool ReportsView::isComputing() const {
    // Until the result is shown: the future itself may finish before the caller looks.
    return m_computing;
}

bool ReportsView::showsReport() const {
    return m_stack->currentWidget() == m_contentScroll;
}

bool ReportsView::eventFilter(QObject* watched, QEvent* event) {
    // A narrower table may now need its scroll bar, a wider one no longer.
    if (event->type() == QEvent::Resize &&
        (watched == m_strategyTable || watched == m_agreementTable || watched == m_raterTable))
        QTimer::singleShot(0, this, &ReportsView::fitTableHeights);
    return QWidget::eventFilter(watched, event);
}

void ReportsView::fitTableHeights() {
    const int strategies = contentHeight(m_strategyTable, m_strategyModel->rowCount());
    if (m_strategyTable->height() != strategies)
        m_strategyTable->setFixedHeight(strategies);
    const int rows = std::max(m_agreementModel->rowCount(), m_raterModel->rowCount());
    const int bottom = std::max(contentHeight(m_agreementTable, rows), contentHeight(m_raterTable, rows));
    for (QTableView* table : {m_agreementTable, m_raterTable})
        if (table->height() != bottom)
            table->setFixedHeight(bottom);
}

QString ReportsView::message() const {
    return m_message->text();
}

QPushButton* ReportsView::csvButton(ReportKind kind) const {
    const auto found = m_csvButtons.find(kind);
    return found != m_csvButtons.end() ? found->second : nullptr;
}

ReportChart* ReportsView::chart(Chart chart) const {
    switch (chart) {
    case Chart::DimensionMeans:
        return m_meansChart;
    case Chart::BradleyTerry:
        return m_bradleyTerryChart;
    case Chart::WinRates:
        return m_winRateChart;
    case Chart::Agreement:
        return m_agreementChart;
    }
    return nullptr;
}

void ReportsView::refresh() {
    if (!m_database) {
        emit reportUpdated();
        return;
    }
    if (isComputing()) {
        m_refreshAgain = true;
        return;
    }
    m_refreshAgain = false;
    m_computing = true;
    m_busyDelay->start();
    fillModels();
    m_watcher->setFuture(QtConcurrent::run(computeReport, m_database->path(), m_options, m_modelHash));
}

void ReportsView::fillModels() {
    if (!m_database)
        return;
    Result<std::vector<Reports::ModelEntry>> models = Reports::models(*m_database);
    if (!models)
        return;
    const QSignalBlocker block(m_model);
    m_model->clear();
    m_model->addItem(tr("All models"), QString());
    for (const Reports::ModelEntry& entry : models.value()) {
        m_model->addItem(tr("%1 (%n run(s))", nullptr, entry.runs).arg(QFileInfo(entry.path).fileName()), entry.contentHash);
        m_model->setItemData(m_model->count() - 1, QDir::toNativeSeparators(entry.path), Qt::ToolTipRole);
    }
    const int current = m_model->findData(m_modelHash);
    if (current < 0)
        m_modelHash.clear(); // its runs are gone
    m_model->setCurrentIndex(std::max(0, current));
    m_model->setVisible(models->size() > 1 || !m_modelHash.isEmpty());
}

void ReportsView::setModelFilter(const QString& contentHash) {
    m_modelHash = contentHash;
    refresh();
}

void ReportsView::applyComputed() {
    m_computing = false;
    m_busyDelay->stop();
    m_busy->hide();
    ComputedReport computed = m_watcher->result();
    if (!computed.report) {
        const QString text = tr("Cannot compute the report: %1").arg(computed.error);
        showMessage(text, true);
        if (!showsReport())
            showEmptyState(tr("No report"), text);
    } else {
        m_report = std::move(*computed.report);
        const bool experiments = !computed.experiments.empty();
        m_experiments->setExperiments(std::move(computed.experiments));
        m_scoreRanges = std::move(computed.scoreRanges);
        m_lastComputeMs = computed.elapsedMs;
        int runs = 0, ratings = 0, preferences = 0;
        for (const StrategySummary& s : m_report.strategies)
            runs += s.runs;
        // What the figures use: raters set aside are left out.
        ratings = m_report.ratingsUsed;
        preferences = m_report.preferencesUsed;
        const QStringList overview{tr("Strategies: %1").arg(m_report.strategies.size()), tr("Runs: %1").arg(runs),
                                   tr("Ratings: %1").arg(ratings), tr("Preferences: %1").arg(preferences),
                                   m_report.ratersSetAside > 0
                                       ? tr("Raters: %1 (%2 set aside)").arg(m_report.raters.size()).arg(m_report.ratersSetAside)
                                       : tr("Raters: %1").arg(m_report.raters.size())};
        m_overview->setText(overview.join(QStringLiteral("  ·  ")));
        const PreferenceVerdict& verdict = m_report.preferenceVerdict;
        QStringList lines{tr("<b>Preferences:</b> %1.").arg(verdictText(verdict).toHtmlEscaped())};
        for (const PreferenceVerdict& v : m_report.dimensionVerdicts)
            lines << tr("<b>%1:</b> %2.").arg(v.dimension.toHtmlEscaped(), verdictText(v).toHtmlEscaped());
        m_verdict->setText(lines.join(QStringLiteral("<br>")));
        m_verdict->setStyleSheet(verdict.winner >= 0 ? QStringLiteral("color: #1b7a1b") : QString());
        m_overview->setToolTip(
            tr("Intervals are 95% percentile bootstraps of %1 resamples, seed %2; computed in %3 ms.")
                .arg(m_options.bootstrapRounds)
                .arg(m_options.seed)
                .arg(m_lastComputeMs));
        if (ratings + preferences == 0 && !experiments) {
            showEmptyState(tr("Nothing to report yet"),
                           tr("The report shows how raters judged each strategy's outputs, and the run store holds "
                              "no rating or preference yet (runs recorded so far: %1).")
                                   .arg(runs) +
                               QStringLiteral("\n\n") +
                               tr("Rate outputs blind in the Compare tab, or import scores and verdicts from CSV:") +
                               QStringLiteral("\n") +
                               tr("swb import-ratings --db %1 --csv FILE").arg(native(m_database->path())) +
                               QStringLiteral("\n") +
                               tr("swb import-preferences --db %1 --csv FILE").arg(native(m_database->path())) +
                               QStringLiteral("\n\n") + tr("Then press Refresh."));
        } else {
            showReport();
        }
    }
    emit reportUpdated();
    if (m_refreshAgain)
        refresh();
}

void ReportsView::showEmptyState(const QString& title, const QString& explanation) {
    auto* page = new EmptyStatePage(title, explanation, m_stack);
    page->setObjectName(QStringLiteral("reportsEmpty"));
    m_stack->addWidget(page);
    m_stack->setCurrentWidget(page);
    if (m_emptyPage) {
        m_stack->removeWidget(m_emptyPage);
        delete m_emptyPage;
    }
    m_emptyPage = page;
}

void ReportsView::showReport() {
    m_strategyModel->setTable(ReportTables::strategies(m_report, m_options.bootstrapRounds));
    m_agreementModel->setTable(ReportTables::agreement(m_report));
    m_raterModel->setTable(ReportTables::raters(m_report));
    for (QTableView* table : {m_strategyTable, m_agreementTable, m_raterTable})
        fitColumns(table);
    // Below, names take the spare width and the figures stay beside them.
    for (QTableView* table : {m_agreementTable, m_raterTable})
        if (table->horizontalHeader()->count() > 0)
            table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    fitTableHeights();

    const QString dimension = m_dimension->currentText();
    {
        const QSignalBlocker blocker(m_dimension);
        m_dimension->clear();
        m_dimension->addItems(m_report.dimensions);
        m_dimension->setCurrentIndex(std::max<int>(0, static_cast<int>(m_report.dimensions.indexOf(dimension))));
        m_dimension->setEnabled(!m_report.dimensions.isEmpty());
    }
    drawDimensionChart();
    drawBradleyTerryChart();
    drawWinRates();
    drawAgreementChart();
    m_stack->setCurrentWidget(m_contentScroll);
}

void ReportsView::drawDimensionChart() {
    const qsizetype d = m_report.dimensions.indexOf(m_dimension->currentText());
    if (d < 0) {
        m_meansChart->clear(tr("No rubric scores yet.\nScore outputs in Compare\nor run “swb import-ratings”."));
        return;
    }
    const QString dimension = m_report.dimensions[d];
    std::vector<IntervalBar> bars;
    for (std::size_t s = 0; s < m_report.strategies.size(); ++s) {
        const StrategySummary& strategy = m_report.strategies[s];
        const DimensionSummary& summary = strategy.dimensions[static_cast<std::size_t>(d)];
        IntervalBar bar;
        bar.label = strategy.strategy;
        bar.value = summary.n > 0 ? summary.mean : stats::kNaN;
        bar.interval = summary.interval;
        bar.colour = reportPalette::strategy(static_cast<int>(s));
        bar.toolTip = summary.n > 0 ? tr("%1, %2: mean %3, 95% interval %4 to %5\nratings: %6")
                                          .arg(strategy.strategy, dimension, ReportTables::fixed(summary.mean, 3),
                                               ReportTables::fixed(summary.interval.low, 3),
                                               ReportTables::fixed(summary.interval.high, 3))
                                          .arg(summary.n)
                                    : tr("%1 has no %2 ratings.").arg(strategy.strategy, dimension);
        bars.push_back(bar);
    }
    IntervalBarChart::Axis axis;
    axis.label = tr("mean %1").arg(dimension);
    const auto range = m_scoreRanges.find(dimension);
    if (range != m_scoreRanges.end()) {
        axis.range = range->second;
        axis.base = range->second.first;
    }
    m_meansChart->setBars(std::move(bars), axis);
}

void ReportsView::setSuggestionThresholds(double goldAccuracy, double alphaRise) {
    if (goldAccuracy == m_options.goldAccuracyThreshold && alphaRise == m_options.alphaRiseThreshold)
        return;
    m_options.goldAccuracyThreshold = goldAccuracy;
    m_options.alphaRiseThreshold = alphaRise;
    const QSignalBlocker quietGold(m_goldThreshold), quietRise(m_alphaRise);
    m_goldThreshold->setValue(goldAccuracy);
    m_alphaRise->setValue(alphaRise);
    emit suggestionThresholdsChanged(goldAccuracy, alphaRise);
    refresh();
}

bool ReportsView::setRaterAside(const QString& rater, const QString& reason) {
    if (!m_database)
        return false;
    if (Status status = RatingRepository(*m_database).setRaterAside(rater, reason); !status) {
        showMessage(status.error().message, true);
        return false;
    }
    showMessage(reason.isEmpty() ? tr("%1 counts again.").arg(rater)
                                 : tr("%1 is set aside: every figure is computed without their ratings.").arg(rater),
                false);
    refresh();
    return true;
}

QString ReportsView::verdictText(const PreferenceVerdict& verdict) const {
    const auto name = [this](int index) {
        return index >= 0 && index < static_cast<int>(m_report.strategies.size())
                   ? m_report.strategies[static_cast<std::size_t>(index)].strategy
                   : QString();
    };
    const bool preferences = verdict.dimension.isEmpty();
    QString text;
    switch (verdict.kind) {
    case PreferenceVerdict::Kind::NoPreferences:
        return preferences ? tr("no preferences yet") : tr("no comparison has two strategies rated yet");
    case PreferenceVerdict::Kind::Winner:
        return tr("%1 beats every other strategy (sign test, Holm-adjusted p ≤ %2)")
            .arg(name(verdict.winner), QString::number(verdict.worstHolmP, 'g', 3));
    case PreferenceVerdict::Kind::LeaderNotClear:
        return (preferences ? tr("no clear winner: %1 leads but not clearly against %2 (%3 to %4, Holm-adjusted p = %5); "
                                 "about %6 more decisive battles between them at this win share")
                            : tr("no clear winner: %1 leads but not clearly against %2 (%3 to %4, Holm-adjusted p = %5); "
                                 "about %6 more decisive comparisons between them at this win share"))
            .arg(name(verdict.leader), name(verdict.rival))
            .arg(verdict.leaderWins)
            .arg(verdict.rivalWins)
            .arg(QString::number(verdict.rivalHolmP, 'g', 3))
            .arg(verdict.furtherBattles);
    case PreferenceVerdict::Kind::LeaderNotAhead:
        return (preferences ? tr("no clear winner: %1 leads by Bradley–Terry but does not win more than it loses against "
                                 "every other strategy")
                            : tr("no clear winner: %1 leads by mean score but does not win more than it loses against "
                                 "every other strategy"))
            .arg(name(verdict.leader));
    case PreferenceVerdict::Kind::Unranked:
        return tr("no clear winner: the data do not rank the strategies");
    }
    return verdict.evidence;
}

void ReportsView::drawAgreementChart() {
    std::vector<IntervalBar> bars;
    bool any = false;
    for (const AgreementRow& row : m_report.agreement) {
        IntervalBar bar;
        bar.label = row.dimension;
        bar.value = row.alphaOrdinal;
        bar.interval = row.alphaOrdinalInterval;
        bar.colour = reportPalette::agreement(row.alphaOrdinal);
        bar.toolTip = std::isnan(row.alphaOrdinal)
                          ? tr("%1: undefined (no run has two ratings, or the scores never vary)").arg(row.dimension)
                          : tr("%1: α %2, 95% interval %3 to %4\nunits (runs): %5, raters: %6")
                                .arg(row.dimension, ReportTables::fixed(row.alphaOrdinal, 3),
                                     ReportTables::fixed(row.alphaOrdinalInterval.low, 3),
                                     ReportTables::fixed(row.alphaOrdinalInterval.high, 3))
                                .arg(row.units)
                                .arg(row.raters);
        any = any || std::isfinite(row.alphaOrdinal);
        bars.push_back(bar);
    }
    if (!any) {
        m_agreementChart->clear(tr("No agreement yet.\nIt needs runs rated\nby two raters or more."));
        return;
    }
    IntervalBarChart::Axis axis;
    axis.label = tr("α (ordinal)");
    axis.range = std::pair{0.0, 1.0};
    axis.threshold = 0.7;
    axis.thresholdLabel = tr("0.7");
    m_agreementChart->setBars(std::move(bars), axis);
}

void ReportsView::drawBradleyTerryChart() {
    bool anyBattle = false;
    std::vector<IntervalBar> bars;
    for (std::size_t s = 0; s < m_report.strategies.size(); ++s) {
        const StrategySummary& strategy = m_report.strategies[s];
        anyBattle = anyBattle || strategy.battles > 0;
        IntervalBar bar;
        bar.label = strategy.strategy;
        bar.value = strategy.battles > 0 ? strategy.bradleyTerry : stats::kNaN;
        bar.interval = strategy.bradleyTerryInterval;
        bar.marker = strategy.onlineElo;
        bar.colour = reportPalette::strategy(static_cast<int>(s));
        bar.toolTip =
            strategy.battles > 0
                ? tr("%1: Bradley–Terry %2, 95% interval %3 to %4\nonline Elo %5, win rate %6, battles: %7")
                      .arg(strategy.strategy, ReportTables::fixed(strategy.bradleyTerry, 1),
                           ReportTables::fixed(strategy.bradleyTerryInterval.low, 1),
                           ReportTables::fixed(strategy.bradleyTerryInterval.high, 1),
                           ReportTables::fixed(strategy.onlineElo, 1), ReportTables::fixed(strategy.winRate, 2))
                      .arg(strategy.battles)
                : tr("%1 has not been in a preference yet.").arg(strategy.strategy);
        bars.push_back(bar);
    }
    if (!anyBattle) {
        m_bradleyTerryChart->clear(
            tr("No preferences yet.\nPick the better output in Compare\nor run “swb import-preferences”."));
        return;
    }
    IntervalBarChart::Axis axis;
    axis.label = tr("score (Elo scale)");
    axis.base = m_options.elo.initial;
    axis.decimals = 0;
    axis.markerName = tr("online Elo");
    axis.barName = tr("Bradley–Terry, 95% interval");
    m_bradleyTerryChart->setBars(std::move(bars), axis);
}

void ReportsView::drawWinRates() {
    WinRateMatrix matrix = WinRateMatrix::fromReport(m_report);
    if (!matrix.hasBattles()) {
        m_winRateChart->clear(tr("No preferences yet.\nWin rates appear once outputs\nhave been compared."));
        return;
    }
    m_winRateChart->setMatrix(std::move(matrix));
}

QString ReportsView::askSavePath(const QString& caption, const QString& fileName, const QString& filter) {
    if (!m_nextSavePath.isEmpty()) { // a test's answer to the dialog: refused as the dialog refuses it
        const QString path = std::exchange(m_nextSavePath, QString());
        if (const QString refused = refusedSaveTarget(path); !refused.isEmpty()) {
            showMessage(refused, true);
            return {};
        }
        return path;
    }
    if (m_lastDirectory.isEmpty())
        m_lastDirectory = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path = getSaveFileName(this, caption, QDir(m_lastDirectory).filePath(fileName), filter);
    if (!path.isEmpty())
        m_lastDirectory = QFileInfo(path).absolutePath();
    return path;
}

void ReportsView::showMessage(const QString& text, bool error) {
    QPalette palette = m_message->palette();
    palette.setColor(QPalette::WindowText,
                     error ? reportPalette::errorText() : this->palette().color(QPalette::WindowText));
    m_message->setPalette(palette);
    m_message->setText(text);
    m_message->setToolTip(text);
    emit statusMessage(text);
}

bool ReportsView::exportCsv(ReportKind kind, const QString& path) {
    if (!m_database) {
        showMessage(tr("The run store is not open, so there is nothing to export."), true);
        return false;
    }
    const QString error = writeCsvFile(*m_database, kind, path, m_options, m_modelHash);
    if (!error.isEmpty()) {
        showMessage(error, true);
        return false;
    }
    showMessage(tr("Wrote %1.").arg(native(path)), false);
    return true;
}

void ReportsView::startCsvExport(ReportKind kind) {
    if (!m_database || m_exportWatcher->isRunning())
        return;
    const QString path = askSavePath(tr("Export the %1 Report").arg(kindTitle(kind)), kindName(kind) + ".csv",
                                     tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    for (const auto& [k, button] : m_csvButtons)
        button->setEnabled(false);
    showMessage(tr("Writing %1…").arg(native(path)), false);
    // Its own connection: the steps of a large store take a while to write.
    m_exportWatcher->setFuture(QtConcurrent::run([databasePath = m_database->path(), kind, path, options = m_options,
                                                  model = m_modelHash] {
        Result<std::unique_ptr<Database>> database = Database::open(databasePath, Database::Access::ReadOnly);
        if (!database)
            return std::pair{path, database.error().message};
        return std::pair{path, writeCsvFile(*database.value(), kind, path, options, model)};
    }));
}

bool ReportsView::exportChart(Chart kind, const QString& path) {
    ReportChart* target = chart(kind);
    if (!target || path.isEmpty() || !target->exportTo(path)) {
        showMessage(
            tr("Cannot write the chart to %1: check that the folder exists and can be written to.").arg(native(path)),
            true);
        return false;
    }
    showMessage(tr("Saved “%1” as %2.").arg(target->title(), native(path)), false);
    return true;
}

void ReportsView::exportChartDialog(Chart kind) {
    QString name;
    switch (kind) {
    case Chart::DimensionMeans:
        name = QStringLiteral("mean-%1.png").arg(m_dimension->currentText());
        break;
    case Chart::BradleyTerry:
        name = QStringLiteral("bradley-terry.png");
        break;
    case Chart::WinRates:
        name = QStringLiteral("win-rates.png");
        break;
    case Chart::Agreement:
        name = QStringLiteral("agreement.png");
        break;
    }
    QString path = askSavePath(tr("Export Chart"), name, tr("PNG image (*.png);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("pdf"))
        path += QStringLiteral(".png");
    exportChart(kind, path);
}

} // namespace swb
