#include "sweep/SweepView.h"

#include <limits>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "InferenceSession.h"
#include "JsonError.h"
#include "SaveFileDialog.h"
#include "Settings.h"
#include "StrategySource.h"
#include "evaluation/Statistics.h"
#include "explore/StrategyEditor.h"
#include "sampling/SamplerRegistry.h"
#include "storage/RunRepository.h"
#include "sweep/SweepHeatmap.h"

namespace swb {

namespace {

// Every numeric parameter of every sampler, "sampler.param", the commonly swept first.
QStringList axisChoices() {
    QStringList choices{QStringLiteral("temperature.value"), QStringLiteral("top_p.p"), QStringLiteral("min_p.p"),
                        QStringLiteral("top_k.k")};
    for (const SamplerDescriptor& descriptor : samplerDescriptors())
        for (const ParamSpec& param : descriptor.params)
            if (param.kind == ParamSpec::Kind::Real || param.kind == ParamSpec::Kind::Integer) {
                const QString choice = descriptor.type + QLatin1Char('.') + param.name;
                if (!choices.contains(choice))
                    choices << choice;
            }
    return choices;
}

// "a.b=1,2" -> ("a.b", "1, 2") for the form.
std::pair<QString, QString> splitAxis(const SweepAxis& axis) {
    const QString text = axis.toString();
    return {axis.label(), text.mid(text.indexOf(QLatin1Char('=')) + 1).replace(QLatin1Char(','), QStringLiteral(", "))};
}

} // namespace

QString SweepView::metricTitle(const SweepMetric& metric) {
    static const QHash<QString, QString> titles{
        {QStringLiteral("mean_raw_entropy"), tr("Mean raw entropy (nats)")},
        {QStringLiteral("perplexity"), tr("Perplexity of the outputs")},
        {QStringLiteral("distinct_1"), tr("Distinct-1")},
        {QStringLiteral("distinct_2"), tr("Distinct-2")},
        {QStringLiteral("rep_4"), tr("Rep-4 (repeated 4-grams)")},
        {QStringLiteral("mean_length"), tr("Mean length (tokens)")},
        {QStringLiteral("loop_share"), tr("Share of runs in a repetition loop")},
    };
    return titles.value(metric.key, metric.key);
}

SweepView::SweepView(Settings& settings, Database* database, InferenceSession& session, const StrategySource& edited,
                     QWidget* parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_database(database)
    , m_session(session)
    , m_edited(edited) {
    setObjectName(QStringLiteral("sweep"));

    QWidget* setup = makeSetup();
    QWidget* results = makeResults();
    auto* left = new QWidget(this);
    auto* leftColumn = new QVBoxLayout(left);
    leftColumn->setContentsMargins(0, 0, 0, 0);
    leftColumn->addWidget(setup);
    leftColumn->addStretch();
    left->setMaximumWidth(460);
    left->setMinimumWidth(300);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(results, 1);

    connect(m_run, &QPushButton::clicked, this, &SweepView::run);
    connect(m_cancel, &QPushButton::clicked, this, &SweepView::cancel);
    auto* runShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    runShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(runShortcut, &QShortcut::activated, this, &SweepView::run);
    auto* cancelShortcut = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    cancelShortcut->setContext(Qt::WidgetWithChildrenShortcut);
    connect(cancelShortcut, &QShortcut::activated, this, &SweepView::cancel);
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path =
            getSaveFileName(this, tr("Export Sweep Metrics"), QStringLiteral("sweep.csv"), tr("CSV (*.csv)"));
        if (!path.isEmpty())
            exportCsv(path);
    });
    connect(m_heatmap, &ReportChart::exportRequested, this, [this] {
        const QString path = getSaveFileName(this, tr("Export Chart"), QStringLiteral("sweep.png"),
                                             tr("PNG image (*.png);;PDF (*.pdf)"));
        if (!path.isEmpty() && !m_heatmap->exportTo(path))
            emit errorMessage(tr("Cannot write %1.").arg(path));
    });
    connect(m_metric, &QComboBox::currentIndexChanged, this, &SweepView::showMetric);
    connect(m_heatmap, &SweepHeatmap::cellClicked, this, &SweepView::showCell);
    connect(m_outputs, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (const qint64 id = item->data(0, Qt::UserRole).toLongLong(); id > 0)
            emit openRun(id);
    });

    InferenceWorker* worker = m_session.worker();
    connect(worker, &InferenceWorker::sweepProgress, this, &SweepView::onProgress);
    connect(worker, &InferenceWorker::sweepFinished, this, &SweepView::onFinished);
    connect(worker, &InferenceWorker::sweepFailed, this, &SweepView::onFailed);

    restoreForm();
}

// The sweep's form: base strategy, the parameters and values on each axis, prompts, samples, seed; Open, Save, Run,
// Cancel and the progress.
QWidget* SweepView::makeSetup() {
    auto* setup = new QGroupBox(tr("New sweep"), this);
    auto* form = new QFormLayout(setup);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_strategy = new QComboBox(setup);
    m_strategy->setObjectName(QStringLiteral("sweepStrategy"));
    m_strategy->setEditable(true);
    m_strategy->setToolTip(tr("The strategy whose parameters the grid changes: Explore's, a preset, a saved name or JSON"));
    m_strategy->addItem(tr("Explore's strategy"));
    m_strategy->addItems(strategyPresetNames());
    if (m_database) {
        RunRepository runs(*m_database);
        if (auto named = runs.listNamedStrategies())
            for (const auto& [id, strategy] : named.value())
                m_strategy->addItem(strategy.name);
    }
    form->addRow(tr("&Base strategy"), m_strategy);

    const QStringList choices = axisChoices();
    m_xParam = new QComboBox(setup);
    m_xParam->setObjectName(QStringLiteral("sweepXParam"));
    m_xParam->addItems(choices);
    m_xValues = new QLineEdit(setup);
    m_xValues->setObjectName(QStringLiteral("sweepXValues"));
    m_xValues->setPlaceholderText(tr("values, e.g. 0.5, 0.7, 1.0"));
    form->addRow(tr("&X parameter"), m_xParam);
    form->addRow(tr("X values"), m_xValues);
    m_useY = new QCheckBox(tr("A second parameter (&Y)"), setup);
    m_useY->setObjectName(QStringLiteral("sweepUseY"));
    m_yParam = new QComboBox(setup);
    m_yParam->setObjectName(QStringLiteral("sweepYParam"));
    m_yParam->addItems(choices);
    m_yValues = new QLineEdit(setup);
    m_yValues->setObjectName(QStringLiteral("sweepYValues"));
    form->addRow(m_useY);
    form->addRow(tr("Y parameter"), m_yParam);
    form->addRow(tr("Y values"), m_yValues);
    connect(m_useY, &QCheckBox::toggled, this, [this](bool on) {
        m_yParam->setEnabled(on);
        m_yValues->setEnabled(on);
    });

    m_prompts = new QPlainTextEdit(setup);
    m_prompts->setObjectName(QStringLiteral("sweepPrompts"));
    m_prompts->setPlaceholderText(tr("One prompt per line"));
    m_prompts->setTabChangesFocus(true);
    form->addRow(tr("&Prompts"), m_prompts);
    m_samples = new QSpinBox(setup);
    m_samples->setRange(1, 1000);
    m_samples->setToolTip(tr("Samples per prompt and cell; sample k uses seed + k − 1 in every cell"));
    m_maxTokens = new QSpinBox(setup);
    m_maxTokens->setRange(1, 4096);
    // Seeds up to 2^53 - 1 (what a saved sweep and swb sweep take), exactly: a double holds them.
    m_seed = new QDoubleSpinBox(setup);
    m_seed->setObjectName(QStringLiteral("sweepSeed"));
    m_seed->setDecimals(0);
    m_seed->setRange(0, 9007199254740991.0);
    auto* numbers = new QHBoxLayout;
    numbers->addWidget(new QLabel(tr("Samples"), setup));
    numbers->addWidget(m_samples);
    numbers->addWidget(new QLabel(tr("Max tokens"), setup));
    numbers->addWidget(m_maxTokens);
    numbers->addWidget(new QLabel(tr("Seed"), setup));
    numbers->addWidget(m_seed);
    form->addRow(numbers);

    m_run = new QPushButton(tr("&Run Sweep"), setup);
    m_run->setObjectName(QStringLiteral("sweepRun"));
    m_run->setToolTip(tr("Run every cell on the loaded model (Ctrl+Return); finished runs are kept, so a "
                         "cancelled sweep resumes"));
    m_cancel = new QPushButton(tr("Cancel"), setup);
    m_cancel->setEnabled(false);
    auto* open = new QPushButton(tr("Open…"), setup);
    open->setToolTip(tr("Open a sweep saved as JSON"));
    auto* save = new QPushButton(tr("Save…"), setup);
    save->setToolTip(tr("Save this sweep as JSON (swb sweep --spec reads it)"));
    m_export = new QPushButton(tr("Export CSV…"), setup);
    m_export->setToolTip(tr("The metrics of every cell as CSV"));
    m_export->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch();
    buttons->addWidget(open);
    buttons->addWidget(save);
    buttons->addWidget(m_export);
    form->addRow(buttons);
    m_overall = new QProgressBar(setup);
    m_overall->setFormat(tr("%v of %m runs"));
    m_overall->hide();
    m_batch = new QProgressBar(setup);
    m_batch->setFormat(tr("this prompt and sample: %v of %m tokens"));
    m_batch->hide();
    m_status = new QLabel(setup);
    m_status->setObjectName(QStringLiteral("sweepStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(m_overall);
    form->addRow(m_batch);
    form->addRow(m_status);

    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Sweep"), QString(), tr("Sweep (*.json)"));
        if (!path.isEmpty())
            openSpec(path);
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path =
            getSaveFileName(this, tr("Save Sweep"), QStringLiteral("sweep.json"), tr("Sweep (*.json)"));
        if (!path.isEmpty())
            saveSpec(path);
    });
    return setup;
}

// Results: the heatmap, and the outputs of the cell clicked.
QWidget* SweepView::makeResults() {
    m_heatmap = new SweepHeatmap(this);
    m_heatmap->setObjectName(QStringLiteral("sweepHeatmap"));
    m_metric = new QComboBox(m_heatmap);
    m_metric->setObjectName(QStringLiteral("sweepMetric"));
    for (const SweepMetric& metric : sweepMetrics())
        m_metric->addItem(metricTitle(metric), metric.key);
    m_heatmap->addHeaderWidget(m_metric);
    m_heatmap->clear(tr("Run a sweep to see a metric of every cell here."));
    m_cellTitle = new QLabel(cellHint(), this);
    m_cellTitle->setObjectName(QStringLiteral("sweepCellTitle"));
    m_cellTitle->setWordWrap(true);
    m_outputs = new QTreeWidget(this);
    m_outputs->setObjectName(QStringLiteral("sweepOutputs"));
    m_outputs->setColumnCount(5);
    m_outputs->setHeaderLabels({tr("Run"), tr("Prompt"), tr("Tokens"), tr("Loop"), tr("Output")});
    m_outputs->setRootIsDecorated(false);
    m_outputs->setWordWrap(true);
    m_outputs->header()->setStretchLastSection(true);
    auto* outputsBox = new QWidget(this);
    auto* outputsColumn = new QVBoxLayout(outputsBox);
    outputsColumn->setContentsMargins(0, 0, 0, 0);
    outputsColumn->addWidget(m_cellTitle);
    outputsColumn->addWidget(m_outputs, 1);
    auto* results = new QSplitter(Qt::Vertical, this);
    results->addWidget(m_heatmap);
    results->addWidget(outputsBox);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);

    return results;
}

// The form as last left.
void SweepView::restoreForm() {
    const QVariantMap saved = m_settings.get(settings::sweepForm);
    // Explore's strategy is saved as an empty text: the item's name depends on the interface's language.
    const QString savedStrategy = saved.value(QStringLiteral("strategy")).toString();
    m_strategy->setCurrentText(savedStrategy.isEmpty() ? m_strategy->itemText(0) : savedStrategy);
    m_xParam->setCurrentText(saved.value(QStringLiteral("x"), QStringLiteral("temperature.value")).toString());
    m_xValues->setText(saved.value(QStringLiteral("xValues"), QStringLiteral("0.3, 0.5, 0.7, 1.0, 1.3")).toString());
    m_useY->setChecked(saved.value(QStringLiteral("useY"), true).toBool());
    m_yParam->setEnabled(m_useY->isChecked());
    m_yValues->setEnabled(m_useY->isChecked());
    m_yParam->setCurrentText(saved.value(QStringLiteral("y"), QStringLiteral("min_p.p")).toString());
    m_yValues->setText(saved.value(QStringLiteral("yValues"), QStringLiteral("0, 0.02, 0.05, 0.1, 0.2")).toString());
    m_prompts->setPlainText(
        saved.value(QStringLiteral("prompts"), QStringLiteral("And God said\nIn the beginning\nBlessed are the")).toString());
    m_samples->setValue(saved.value(QStringLiteral("samples"), 4).toInt());
    m_maxTokens->setValue(saved.value(QStringLiteral("maxTokens"), 48).toInt());
    m_seed->setValue(saved.value(QStringLiteral("seed"), 0).toDouble());
    // Perplexity of the drawn tokens by default: it moves with temperature, where the raw entropy (before the
    // chain) barely does.
    m_metric->setCurrentIndex(
        std::max(0, m_metric->findData(saved.value(QStringLiteral("metric"), QStringLiteral("perplexity")))));
}

SweepView::~SweepView() {
    saveForm();
}

void SweepView::saveForm() {
    m_settings.set(settings::sweepForm,
                   QVariantMap{{QStringLiteral("strategy"), m_strategy->currentText() == m_strategy->itemText(0)
                                                                ? QString()
                                                                : m_strategy->currentText()},
                               {QStringLiteral("x"), m_xParam->currentText()},
                               {QStringLiteral("xValues"), m_xValues->text()},
                               {QStringLiteral("useY"), m_useY->isChecked()},
                               {QStringLiteral("y"), m_yParam->currentText()},
                               {QStringLiteral("yValues"), m_yValues->text()},
                               {QStringLiteral("prompts"), m_prompts->toPlainText()},
                               {QStringLiteral("samples"), m_samples->value()},
                               {QStringLiteral("maxTokens"), m_maxTokens->value()},
                               {QStringLiteral("seed"), m_seed->value()},
                               {QStringLiteral("metric"), m_metric->currentData()}});
}

Result<Strategy> SweepView::baseStrategy() const {
    const QString text = m_strategy->currentText().trimmed();
    if (text == m_strategy->itemText(0))
        return m_edited.strategy();
    if (m_database) {
        RunRepository runs(*m_database);
        if (auto named = runs.listNamedStrategies())
            for (const auto& [id, strategy] : named.value())
                if (strategy.name == text)
                    return strategy;
    }
    return Strategy::parse(text);
}

Result<SweepSpec> SweepView::spec() const {
    SweepSpec spec;
    Result<Strategy> base = baseStrategy();
    if (!base)
        return Error::badInput(tr("Base strategy: %1").arg(base.error().message));
    spec.base = base.value();
    Result<SweepAxis> x = SweepAxis::parse(m_xParam->currentText().trimmed() + QLatin1Char('=') + m_xValues->text());
    if (!x)
        return x.error();
    spec.x = x.value();
    if (m_useY->isChecked()) {
        Result<SweepAxis> y = SweepAxis::parse(m_yParam->currentText().trimmed() + QLatin1Char('=') + m_yValues->text());
        if (!y)
            return y.error();
        spec.y = y.value();
    }
    for (const QString& line : m_prompts->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            spec.prompts << line;
    spec.samples = m_samples->value();
    spec.maxTokens = m_maxTokens->value();
    spec.seed = static_cast<std::uint64_t>(m_seed->value());
    if (Status status = spec.validate(); !status)
        return status.error();
    return spec;
}

void SweepView::setSpec(const SweepSpec& spec) {
    m_strategy->setCurrentText(QString::fromUtf8(QJsonDocument(spec.base.toJson()).toJson(QJsonDocument::Compact)));
    const auto [xParam, xValues] = splitAxis(spec.x);
    m_xParam->setCurrentText(xParam);
    m_xValues->setText(xValues);
    m_useY->setChecked(spec.y.has_value());
    if (spec.y) {
        const auto [yParam, yValues] = splitAxis(*spec.y);
        m_yParam->setCurrentText(yParam);
        m_yValues->setText(yValues);
    }
    m_prompts->setPlainText(spec.prompts.join(QLatin1Char('\n')));
    m_samples->setValue(spec.samples);
    m_maxTokens->setValue(spec.maxTokens);
    m_seed->setValue(static_cast<double>(spec.seed));
}

bool SweepView::saveSpec(const QString& path) {
    Result<SweepSpec> current = spec();
    if (!current) {
        m_status->setText(current.error().message);
        return false;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(current->toJson()).toJson()) < 0 || !file.commit()) {
        emit errorMessage(tr("Cannot save the sweep to %1: %2").arg(path, file.errorString()));
        return false;
    }
    emit statusMessage(tr("Saved the sweep to %1.").arg(path));
    return true;
}

bool SweepView::openSpec(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        emit errorMessage(tr("Cannot open %1: %2").arg(path, file.errorString()));
        return false;
    }
    QJsonParseError error;
    const QByteArray text = file.readAll();
    const QJsonDocument document = QJsonDocument::fromJson(text, &error);
    Result<SweepSpec> loaded = error.error != QJsonParseError::NoError
                                   ? Result<SweepSpec>(Error::badInput(tr("not valid JSON: %1").arg(jsonErrorWhere(text, error))))
                               : !document.isObject() ? Result<SweepSpec>(Error::badInput(tr("not a sweep (a JSON object)")))
                                                      : SweepSpec::fromJson(document.object());
    if (!loaded) {
        emit errorMessage(tr("Cannot open the sweep %1: %2").arg(path, loaded.error().message));
        return false;
    }
    setSpec(loaded.value());
    m_status->setText(tr("Opened %1. Run it to see its cells (finished runs are found, not made again).").arg(path));
    return true;
}

bool SweepView::exportCsv(const QString& path) {
    if (!m_done || !m_shownSpec)
        return false;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !writeSweepCsv(file, *m_shownSpec, m_done->results) || !file.commit()) {
        emit errorMessage(tr("Cannot write %1: %2").arg(path, file.errorString()));
        return false;
    }
    emit statusMessage(tr("Exported the sweep's metrics to %1.").arg(path));
    return true;
}

void SweepView::run() {
    if (isRunning())
        return;
    saveForm();
    if (!m_database) {
        m_status->setText(tr("The run store is not open, so a sweep cannot be saved."));
        return;
    }
    if (QString why; !m_session.canAcquire(&why)) {
        m_status->setText(why);
        return;
    }
    Result<SweepSpec> current = spec();
    if (!current) {
        m_status->setText(current.error().message);
        return;
    }
    m_runningSpec = current.value();
    if (!m_session.acquire(InferenceSession::Holder::Sweep))
        return; // checked above: nothing can have taken it since
    m_runningId = m_nextId++;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    const int total = m_runningSpec.columns() * m_runningSpec.rows() * m_runningSpec.runsPerCell();
    m_overall->setRange(0, total);
    m_overall->setValue(0);
    m_batch->setValue(0);
    m_overall->show();
    m_batch->show();
    m_status->setText(tr("Running %n cell(s)…", nullptr, m_runningSpec.columns() * m_runningSpec.rows()));
    InferenceWorker* worker = m_session.worker();
    QMetaObject::invokeMethod(worker, [worker, id = m_runningId, ticket = worker->takeTicket(), spec = m_runningSpec] {
        worker->runSweep(id, ticket, spec);
    });
}

QString SweepView::cellHint() {
    return tr("Click a cell to see its outputs; double-click an output to open it in Explore.");
}

void SweepView::cancel() {
    if (isRunning()) {
        m_session.stopJob();
        m_status->setText(tr("Cancelling…"));
    }
}

void SweepView::onProgress(quint64 id, const SweepProgress& progress) {
    if (id != m_runningId)
        return;
    m_overall->setMaximum(progress.total);
    m_overall->setValue(progress.done);
    m_batch->setMaximum(std::max(1, progress.batchMaxTokens));
    m_batch->setValue(std::min(progress.batchTokens, progress.batchMaxTokens));
}

void SweepView::runEnded() {
    m_runningId = 0;
    m_session.release(InferenceSession::Holder::Sweep);
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_overall->hide();
    m_batch->hide();
}

void SweepView::onFinished(quint64 id, const SweepDone& done) {
    if (id != m_runningId)
        return;
    runEnded();
    m_done = done;
    m_shownSpec = m_runningSpec;
    m_export->setEnabled(true);
    const SweepOutcome& outcome = done.outcome;
    m_status->setText(outcome.cancelled ? tr("Cancelled after %1 of %2 runs; Run Sweep again to resume. The map shows "
                                             "the runs made so far.")
                                              .arg(outcome.generated + outcome.skipped)
                                              .arg(outcome.total)
                                        : tr("%1 runs: %2 generated, %3 found in the run store.")
                                              .arg(outcome.total)
                                              .arg(outcome.generated)
                                              .arg(outcome.skipped));
    showMetric();
    m_outputs->clear();
    m_cellTitle->setText(cellHint()); // the list is empty again: no caption of a cell's runs over it
    emit runsChanged();
}

void SweepView::onFailed(quint64 id, const QString& message) {
    if (id != m_runningId)
        return;
    runEnded();
    m_status->setText(tr("The sweep stopped: %1").arg(message));
    emit errorMessage(tr("The sweep stopped: %1").arg(message));
}

void SweepView::showMetric() {
    if (!m_done || !m_shownSpec)
        return;
    const std::vector<SweepMetric>& metrics = sweepMetrics();
    const int index = std::clamp(m_metric->currentIndex(), 0, static_cast<int>(metrics.size()) - 1);
    SweepHeatmap::Grid grid;
    grid.xLabel = m_shownSpec->x.label();
    for (double value : m_shownSpec->x.values)
        grid.xValues << QString::number(value, 'g', 6);
    if (m_shownSpec->y) {
        grid.yLabel = m_shownSpec->y->label();
        for (double value : m_shownSpec->y->values)
            grid.yValues << QString::number(value, 'g', 6);
    }
    grid.metric = m_metric->itemText(index);
    for (const SweepCellResult& cell : m_done->results) {
        grid.values.push_back(metrics[static_cast<std::size_t>(index)].value(cell.metrics));
        grid.runs.push_back(cell.metrics.runs);
    }
    m_heatmap->setGrid(std::move(grid));
}

void SweepView::showCell(int column, int row) {
    if (!m_done || !m_shownSpec || !m_database)
        return;
    const auto index = static_cast<std::size_t>(row * m_shownSpec->columns() + column);
    if (index >= m_done->outcome.cells.size())
        return;
    m_heatmap->selectCell(column, row);
    const SweepCellRuns& cell = m_done->outcome.cells[index];
    m_cellTitle->setText(tr("%1: %n run(s). Double-click one to open it in Explore.", nullptr,
                            static_cast<int>(cell.runIds.size()))
                             .arg(cell.strategy.name));
    m_outputs->clear();
    RunRepository runs(*m_database);
    for (qint64 id : cell.runIds) {
        Result<RunRecord> run = runs.loadRun(id);
        if (!run)
            continue;
        std::vector<int> tokens;
        for (const StepTrace& step : run->steps)
            tokens.push_back(step.chosen);
        const std::vector<stats::RepetitionLoop> loops = stats::findRepetitionLoops(tokens);
        auto* item = new QTreeWidgetItem(m_outputs);
        item->setData(0, Qt::UserRole, id);
        item->setText(0, QString::number(id));
        item->setText(1, run->promptText);
        item->setText(2, QString::number(run->tokenCount));
        item->setText(3, loops.empty() ? QString()
                                       : tr("from token %1, %2 × %n token(s)", nullptr, loops.front().period)
                                             .arg(loops.front().start + 1)
                                             .arg(loops.front().repeats));
        item->setText(4, run->text.simplified());
        item->setToolTip(4, run->promptText + run->text);
    }
    for (int c = 0; c < 4; ++c)
        m_outputs->resizeColumnToContents(c);
}

} // namespace swb
