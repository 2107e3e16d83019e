#include "compare/CompareView.h"

#include <algorithm>
#include <limits>
#include <utility>

#include <QCheckBox>
#include <QComboBox>
#include <QCryptographicHash>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "InferenceSession.h"
#include "RunTokenizers.h"
#include "Settings.h"
#include "StrategySource.h"
#include "compare/CampaignPanel.h"
#include "compare/ComparePane.h"
#include "compare/RubricDialog.h"
#include "evaluation/PromptFile.h"
#include "explore/ConversationPanel.h"
#include "explore/StrategyEditor.h"
#include "runs/RunSetupText.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "workflows/RunRecording.h"

namespace swb {

namespace {
constexpr int kMaxStrategies = 4;
}

CompareView::CompareView(Settings& settings, Database* database, InferenceSession& session,
                         const StrategySource& edited, QWidget* parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_database(database)
    , m_session(session)
    , m_edited(edited) {
    setObjectName(QStringLiteral("compare"));
    if (m_database) {
        m_comparisonStore = std::make_unique<ComparisonRepository>(*m_database);
        m_ratings = std::make_unique<RatingRepository>(*m_database);
        if (Result<Rubric> rubric = m_ratings->defaultRubric())
            m_rubric = rubric.value();
        if (auto chosen = m_ratings->findRubric(m_settings.get(settings::compareRubric)); chosen && chosen.value())
            m_rubric = *chosen.value();
    }
    if (m_rubric.dimensions.empty())
        m_rubric.dimensions = Rubric::defaultDimensions();

    QWidget* setup = makeSetup();
    QWidget* rating = makeRating();
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* setupScroll = new QScrollArea(this);
    setupScroll->setWidget(setup);
    setupScroll->setWidgetResizable(true);
    setupScroll->setFrameShape(QFrame::NoFrame);
    splitter->addWidget(setupScroll);
    splitter->addWidget(rating);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({340, 940});
    setupScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setupScroll->setMinimumWidth(280);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(splitter);

    addShortcuts();
    InferenceWorker* worker = m_session.worker();
    connect(worker, &InferenceWorker::comparisonProgress, this, &CompareView::onProgress);
    connect(worker, &InferenceWorker::comparisonFinished, this, &CompareView::onFinished);
    connect(worker, &InferenceWorker::comparisonFailed, this, &CompareView::onFailed);
    // Token texts need the run's tokenizer: show the comparison again once a model is loaded.
    // A run's texts come from its own model's tokenizer, which may become available later.
    connect(m_session.runTokenizers(), &RunTokenizers::available, this, [this](const QString& hash) {
        if (m_shownModels.count(hash) != 0)
            showComparison(m_index);
    });
    reloadComparisons();
}

// The form of a new comparison: strategies, prompts, samples and seeds, Run and its progress, and campaigns.
QWidget* CompareView::makeSetup() {
    auto* setup = new QGroupBox(tr("New comparison"), this);
    auto* setupLayout = new QVBoxLayout(setup);
    auto* strategiesLabel = new QLabel(tr("Strategies (2 to 4): a preset, a saved name or JSON"), setup);
    strategiesLabel->setWordWrap(true);
    setupLayout->addWidget(strategiesLabel);
    m_strategyRows = new QWidget(setup);
    new QVBoxLayout(m_strategyRows);
    m_strategyRows->layout()->setContentsMargins(0, 0, 0, 0);
    setupLayout->addWidget(m_strategyRows);
    auto* rowButtons = new QHBoxLayout;
    auto* add = new QToolButton(setup);
    add->setText(tr("Add"));
    add->setToolTip(tr("Add a strategy (at most four)"));
    connect(add, &QToolButton::clicked, this, [this] { addStrategyRow(); });
    auto* remove = new QToolButton(setup);
    remove->setText(tr("Remove"));
    remove->setToolTip(tr("Remove the last strategy (at least two stay)"));
    connect(remove, &QToolButton::clicked, this, &CompareView::removeStrategyRow);
    auto* fromExplore = new QToolButton(setup);
    fromExplore->setText(tr("From Explore"));
    fromExplore->setToolTip(tr("Add the strategy being edited in Explore"));
    connect(fromExplore, &QToolButton::clicked, this, [this] {
        addStrategyRow(QString::fromUtf8(QJsonDocument(m_edited.strategy().toJson()).toJson(QJsonDocument::Compact)));
    });
    rowButtons->addWidget(add);
    rowButtons->addWidget(remove);
    rowButtons->addWidget(fromExplore);
    rowButtons->addStretch();
    setupLayout->addLayout(rowButtons);
    for (const QString& strategy : m_settings.get(settings::compareStrategies))
        addStrategyRow(strategy);
    while (m_strategyBoxes.size() < 2)
        addStrategyRow();

    auto* promptHeader = new QHBoxLayout;
    promptHeader->addWidget(new QLabel(tr("Prompts, one per line"), setup), 1);
    auto* import = new QToolButton(setup);
    import->setText(tr("Import…"));
    import->setToolTip(
        tr("Read prompts from .txt (one per line), .jsonl (a \"prompt\" field) or .csv (a prompt column)"));
    connect(import, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import Prompts"), QString(),
                                                          tr("Prompt files (*.txt *.jsonl *.csv);;All files (*)"));
        if (!path.isEmpty())
            importPrompts(path);
    });
    promptHeader->addWidget(import);
    setupLayout->addLayout(promptHeader);
    m_prompts = new QPlainTextEdit(setup);
    m_prompts->setObjectName(QStringLiteral("comparePrompts"));
    m_prompts->setPlainText(m_settings.get(settings::comparePrompts));
    m_prompts->setMinimumHeight(80);
    m_prompts->setToolTip(tr("One prompt per line; a line holding a JSON object with \"messages\" is a conversation, "
                             "run through the model's chat template"));
    connect(m_prompts, &QPlainTextEdit::textChanged, this, [this] { m_promptSource.clear(); });
    setupLayout->addWidget(m_prompts, 1);

    auto* form = new QFormLayout;
    m_samples = new QSpinBox(setup);
    m_samples->setRange(1, 1000);
    m_samples->setToolTip(tr("Outputs per prompt and strategy; each sample is its own comparison"));
    m_seed = new QSpinBox(setup);
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seedPolicy = new QComboBox(setup);
    m_seedPolicy->addItem(tr("Same seed for every strategy"), static_cast<int>(SeedPolicy::Shared));
    m_seedPolicy->addItem(tr("Independent seed per strategy"), static_cast<int>(SeedPolicy::Independent));
    m_maxTokens = new QSpinBox(setup);
    m_maxTokens->setRange(1, 100000);
    m_maxTokens->setValue(64);
    m_blind = new QCheckBox(tr("Blind rating"), setup);
    m_blind->setToolTip(tr("Hide strategy names while rating; panes are labelled A, B, … in a random, recorded order"));
    m_blind->setChecked(true);
    form->addRow(tr("Samples"), m_samples);
    form->addRow(tr("Seed"), m_seed);
    form->addRow(tr("Seeds"), m_seedPolicy);
    form->addRow(tr("Max tokens"), m_maxTokens);
    setupLayout->addLayout(form);
    setupLayout->addWidget(m_blind);
    auto* runRow = new QHBoxLayout;
    m_run = new QPushButton(tr("Run Comparison"), setup);
    m_run->setObjectName(QStringLiteral("runComparison"));
    m_run->setToolTip(
        tr("Generate every prompt with every strategy; running the same setup again resumes where it stopped"));
    m_cancel = new QPushButton(tr("Cancel"), setup);
    m_cancel->setEnabled(false);
    connect(m_run, &QPushButton::clicked, this, &CompareView::run);
    connect(m_cancel, &QPushButton::clicked, this, &CompareView::cancel);
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);
    setupLayout->addLayout(runRow);
    m_overall = new QProgressBar(setup);
    m_overall->setFormat(tr("%v of %m runs"));
    m_overall->setValue(0);
    m_item = new QProgressBar(setup);
    m_item->setFormat(tr("this comparison: %p%"));
    m_item->setValue(0);
    m_runStatus = new QLabel(setup);
    m_runStatus->setWordWrap(true);
    setupLayout->addWidget(m_overall);
    setupLayout->addWidget(m_item);
    m_overall->hide();
    m_item->hide();
    setupLayout->addWidget(m_runStatus);
    m_campaigns = new CampaignPanel(m_database, setup);
    connect(m_campaigns, &CampaignPanel::message, this, &CompareView::statusMessage);
    setupLayout->addWidget(m_campaigns);

    return setup;
}

// Rating: the rater and rubric, navigation, the prompt, the outputs side by side and the preference buttons.
QWidget* CompareView::makeRating() {
    auto* rating = new QWidget(this);
    auto* ratingLayout = new QVBoxLayout(rating);
    ratingLayout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Rater"), rating));
    m_raterBox = new QComboBox(rating);
    m_raterBox->setObjectName(QStringLiteral("rater"));
    m_raterBox->setEditable(true);
    m_raterBox->setMinimumWidth(140);
    m_raterBox->lineEdit()->setPlaceholderText(tr("your name"));
    refreshRaters();
    m_raterBox->setCurrentText(m_settings.get(settings::compareRater));
    // Applied when typing ends or a name is picked, not per keystroke (each change rebuilds the panes).
    const auto applyRater = [this] {
        const QString name = m_raterBox->currentText().trimmed();
        if (name == m_settings.get(settings::compareRater))
            return;
        m_settings.set(settings::compareRater, name);
        savePendingScores();
        showComparison(m_index);
    };
    connect(m_raterBox->lineEdit(), &QLineEdit::editingFinished, this, applyRater);
    connect(m_raterBox, &QComboBox::activated, this, applyRater);
    top->addWidget(m_raterBox);
    top->addWidget(new QLabel(tr("Rubric"), rating));
    m_rubricBox = new QComboBox(rating);
    m_rubricBox->setObjectName(QStringLiteral("rubric"));
    m_rubricBox->setToolTip(tr("The dimensions each output is scored on"));
    refreshRubrics();
    connect(m_rubricBox, &QComboBox::activated, this, [this] { setRubric(m_rubricBox->currentText()); });
    top->addWidget(m_rubricBox);
    auto* rubricMenu = new QToolButton(rating);
    rubricMenu->setText(tr("Edit"));
    rubricMenu->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(rubricMenu);
    menu->addAction(tr("Edit This Rubric…"), this, [this] { editRubric(false); });
    menu->addAction(tr("New Rubric…"), this, [this] { editRubric(true); });
    rubricMenu->setMenu(menu);
    top->addWidget(rubricMenu);
    auto* previousButton = new QPushButton(tr("Previous"), rating);
    previousButton->setToolTip(tr("Previous comparison (Ctrl+PgUp)"));
    auto* nextButton = new QPushButton(tr("Next"), rating);
    nextButton->setToolTip(tr("Next comparison (Ctrl+PgDown)"));
    auto* unrated = new QPushButton(tr("Next Unrated"), rating);
    unrated->setToolTip(tr("The next comparison you have not rated (Ctrl+N)"));
    connect(previousButton, &QPushButton::clicked, this, &CompareView::previous);
    connect(nextButton, &QPushButton::clicked, this, &CompareView::next);
    connect(unrated, &QPushButton::clicked, this, &CompareView::nextUnrated);
    m_position = new QLabel(rating);
    m_ratedLabel = new QLabel(rating);
    m_ratedLabel->setObjectName(QStringLiteral("ratedProgress"));
    m_reveal = new QPushButton(tr("Reveal"), rating);
    m_reveal->setToolTip(tr("Show which strategy wrote each output (Ctrl+R); available once you gave a preference"));
    connect(m_reveal, &QPushButton::clicked, this, &CompareView::reveal);
    m_gold = new QPushButton(tr("Gold…"), rating);
    m_gold->setToolTip(tr("Mark this comparison as gold, with the answer raters should give, to measure raters"));
    connect(m_gold, &QPushButton::clicked, this, &CompareView::markGold);
    top->addStretch();
    top->addWidget(m_ratedLabel);
    top->addWidget(m_reveal);
    top->addWidget(m_gold);
    ratingLayout->addLayout(top);
    auto* navigation = new QHBoxLayout;
    navigation->addWidget(previousButton);
    navigation->addWidget(nextButton);
    navigation->addWidget(unrated);
    navigation->addWidget(m_position);
    navigation->addStretch();
    ratingLayout->addLayout(navigation);
    m_promptLabel = new QLabel(rating);
    m_promptLabel->setWordWrap(true);
    m_promptLabel->setTextFormat(Qt::PlainText);
    QFont promptFont = m_promptLabel->font();
    promptFont.setItalic(true);
    m_promptLabel->setFont(promptFont);
    ratingLayout->addWidget(m_promptLabel);
    // Said when the compared runs were computed differently (fast math and exact, other dtypes, ...): their
    // outputs then differ by more than their strategies. Which output is which stays hidden while blind.
    m_setupWarning = new QLabel(rating);
    m_setupWarning->setObjectName(QStringLiteral("setupWarning"));
    m_setupWarning->setWordWrap(true);
    m_setupWarning->setTextFormat(Qt::PlainText);
    m_setupWarning->setStyleSheet(QStringLiteral("QLabel { color: #a15c00; }"));
    m_setupWarning->hide();
    ratingLayout->addWidget(m_setupWarning);
    // The outputs side by side; a comparison of many strategies scrolls sideways instead of widening the
    // window past the screen.
    auto* paneScroll = new QScrollArea(rating);
    paneScroll->setObjectName(QStringLiteral("paneScroll"));
    paneScroll->setWidgetResizable(true);
    paneScroll->setFrameShape(QFrame::NoFrame);
    m_paneArea = new QWidget(paneScroll);
    m_paneLayout = new QHBoxLayout(m_paneArea);
    m_paneLayout->setContentsMargins(0, 0, 0, 0);
    paneScroll->setWidget(m_paneArea);
    ratingLayout->addWidget(paneScroll, 1);
    // The preference buttons in one row, scrolled sideways when a comparison has many outputs.
    m_preferenceScroll = new QScrollArea(rating);
    m_preferenceScroll->setObjectName(QStringLiteral("preferenceScroll"));
    m_preferenceScroll->setWidgetResizable(true);
    m_preferenceScroll->setFrameShape(QFrame::NoFrame);
    m_preferenceScroll->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_preferenceRow = new QWidget(m_preferenceScroll);
    new QHBoxLayout(m_preferenceRow);
    m_preferenceRow->layout()->setContentsMargins(0, 0, 0, 0);
    m_preferenceScroll->setWidget(m_preferenceRow);
    ratingLayout->addWidget(m_preferenceScroll);
    auto* keys =
        new QLabel(tr("Keys: Tab moves between scores, type a score; Ctrl+1…4 prefer A…D, Ctrl+T tie, Ctrl+B both bad; "
                      "Ctrl+N next unrated, Ctrl+PgUp/PgDown previous/next, Ctrl+R reveal."),
                   rating);
    keys->setWordWrap(true);
    keys->setStyleSheet(QStringLiteral("color: palette(placeholder-text)"));
    ratingLayout->addWidget(keys);

    return rating;
}

void CompareView::addShortcuts() {
    const auto shortcut = [this](QKeySequence keys, auto slot) {
        auto* s = new QShortcut(keys, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
        connect(s, &QShortcut::activated, this, slot);
    };
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown), [this] { next(); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp), [this] { previous(); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_N), [this] { nextUnrated(); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_R), [this] { reveal(); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_T), [this] { prefer(QStringLiteral("tie")); });
    shortcut(QKeySequence(Qt::CTRL | Qt::Key_B), [this] { prefer(QStringLiteral("bothbad")); });
    for (int i = 0; i < kMaxStrategies; ++i)
        shortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)),
                 [this, i] { prefer(ComparisonRecord::labelAt(i)); });
}

CompareView::~CompareView() {
    QStringList strategies;
    for (QComboBox* box : m_strategyBoxes)
        strategies << box->currentText();
    m_settings.set(settings::compareStrategies, strategies);
    m_settings.set(settings::comparePrompts, m_prompts->toPlainText());
}

void CompareView::addStrategyRow(const QString& text) {
    if (static_cast<int>(m_strategyBoxes.size()) >= kMaxStrategies)
        return;
    auto* box = new QComboBox(m_strategyRows);
    box->setEditable(true);
    box->setObjectName(QStringLiteral("compareStrategy%1").arg(m_strategyBoxes.size() + 1));
    fillStrategyChoices(box);
    box->setCurrentText(text.isEmpty() ? strategyPresetNames().value(static_cast<int>(m_strategyBoxes.size())) : text);
    m_strategyRows->layout()->addWidget(box);
    m_strategyBoxes.push_back(box);
}

// Presets, then the strategies saved under a name in the run store (refreshed whenever Compare is shown,
// so a strategy saved in Explore a moment ago is there); the text typed stays.
void CompareView::fillStrategyChoices(QComboBox* box) {
    const QString text = box->currentText();
    box->clear();
    box->addItems(strategyPresetNames());
    if (m_database) {
        RunRepository runs(*m_database);
        if (auto named = runs.listNamedStrategies())
            for (const auto& [id, strategy] : named.value())
                if (!strategyPresetNames().contains(strategy.name))
                    box->addItem(strategy.name);
    }
    box->setCurrentText(text);
}

void CompareView::showEvent(QShowEvent* event) {
    for (QComboBox* box : m_strategyBoxes)
        fillStrategyChoices(box);
    QWidget::showEvent(event);
}

void CompareView::removeStrategyRow() {
    if (m_strategyBoxes.size() <= 2)
        return;
    delete m_strategyBoxes.back();
    m_strategyBoxes.pop_back();
}

void CompareView::setStrategies(const QStringList& strategies) {
    while (!m_strategyBoxes.empty()) {
        delete m_strategyBoxes.back();
        m_strategyBoxes.pop_back();
    }
    for (const QString& text : strategies)
        addStrategyRow(text);
}

void CompareView::setPrompts(const QStringList& prompts) {
    m_prompts->setPlainText(prompts.join(QLatin1Char('\n')));
}

bool CompareView::importPrompts(const QString& path) {
    Result<QStringList> prompts = readPromptFile(path);
    if (!prompts) {
        m_runStatus->setText(prompts.error().message);
        emit errorMessage(prompts.error().message);
        return false;
    }
    setPrompts(prompts.value());
    m_promptSource = QFileInfo(path).absoluteFilePath();
    m_runStatus->setText(tr("Imported %n prompt(s) from %1.", nullptr, static_cast<int>(prompts->size()))
                             .arg(QFileInfo(path).fileName()));
    return true;
}

Strategy CompareView::strategyFrom(const QString& text, QString* error) const {
    if (m_database) {
        RunRepository runs(*m_database);
        if (auto named = runs.listNamedStrategies())
            for (const auto& [id, strategy] : named.value())
                if (strategy.name == text && !strategyPresetNames().contains(text))
                    return strategy;
    }
    Result<Strategy> strategy = Strategy::parse(text);
    if (!strategy) {
        *error = strategy.error().message;
        return {};
    }
    Strategy result = std::move(strategy).value();
    if (result.name.isEmpty())
        result.name = text.size() <= 40 ? text : text.left(37) + QStringLiteral("...");
    return result;
}

void CompareView::run() {
    if (isRunning())
        return;
    if (!m_database) {
        m_runStatus->setText(tr("The run store is not open, so comparisons cannot be saved."));
        return;
    }
    if (QString why; !m_session.canAcquire(&why)) {
        m_runStatus->setText(why);
        return;
    }
    ComparisonPlan plan;
    for (QComboBox* box : m_strategyBoxes) {
        QString error;
        Strategy strategy = strategyFrom(box->currentText().trimmed(), &error);
        if (!error.isEmpty()) {
            m_runStatus->setText(tr("Strategy “%1”: %2").arg(box->currentText(), error));
            return;
        }
        plan.strategies.push_back(std::move(strategy));
    }
    for (const QString& line : m_prompts->toPlainText().split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            plan.prompts << line;
    if (plan.prompts.isEmpty()) {
        m_runStatus->setText(tr("Type at least one prompt, or import a prompt file."));
        return;
    }
    plan.promptSetSource = m_promptSource.isEmpty() ? tr("typed prompts") : QFileInfo(m_promptSource).fileName();
    plan.promptSetName = m_promptSource.isEmpty()
                             ? QStringLiteral("typed:") +
                                   QString::fromLatin1(QCryptographicHash::hash(plan.prompts.join(QChar(0x1F)).toUtf8(),
                                                                                QCryptographicHash::Sha256)
                                                           .toHex()
                                                           .left(16))
                             : m_promptSource;
    if (std::any_of(plan.prompts.begin(), plan.prompts.end(), isConversationJson) && !m_session.isRemote()) {
        // (A remote engine takes conversations as they are and renders them with its own template.)
        plan.chatTemplate = m_session.chatTemplate();
        if (!plan.chatTemplate) {
            m_runStatus->setText(tr("Some prompts are conversations, but the loaded model has no chat template; "
                                    "choose one in Explore's Chat tab."));
            return;
        }
    }
    plan.samples = m_samples->value();
    plan.baseSeed = static_cast<std::uint64_t>(m_seed->value());
    plan.seedPolicy = static_cast<SeedPolicy>(m_seedPolicy->currentData().toInt());
    plan.maxTokens = m_maxTokens->value();
    plan.blind = m_blind->isChecked();

    if (!m_session.acquire(InferenceSession::Holder::Compare))
        return; // checked above: nothing can have taken it since
    m_runningId = m_nextId++;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_overall->setRange(0, static_cast<int>(plan.prompts.size()) * plan.samples *
                               static_cast<int>(plan.strategies.size()));
    m_overall->setValue(0);
    m_item->setValue(0);
    m_overall->show();
    m_item->show();
    m_runStatus->setText(tr("Running…"));
    InferenceWorker* worker = m_session.worker();
    QMetaObject::invokeMethod(worker, [worker, id = m_runningId, ticket = worker->takeTicket(),
                                       plan = std::move(plan)] { worker->runComparison(id, ticket, plan); });
}

void CompareView::cancel() {
    if (isRunning()) {
        m_session.stopJob();
        m_runStatus->setText(tr("Cancelling…"));
    }
}

void CompareView::onProgress(quint64 id, const ComparisonProgress& progress) {
    if (id != m_runningId)
        return;
    m_overall->setMaximum(progress.total);
    m_overall->setValue(progress.done);
    m_item->setMaximum(std::max(1, progress.itemMaxTokens));
    m_item->setValue(std::min(progress.itemTokens, progress.itemMaxTokens));
    m_runStatus->setText(tr("Prompt %1, sample %2").arg(progress.prompt + 1).arg(progress.sample + 1));
}

void CompareView::runEnded() {
    m_runningId = 0;
    m_session.release(InferenceSession::Holder::Compare);
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_overall->hide();
    m_item->hide();
}

void CompareView::onFinished(quint64 id, const ComparisonOutcome& outcome) {
    if (id != m_runningId)
        return;
    runEnded();
    m_overall->setValue(outcome.generated + outcome.skipped);
    m_runStatus->setText(outcome.cancelled ? tr("Cancelled after %1 of %2 runs; Run again to resume.")
                                                 .arg(outcome.generated + outcome.skipped)
                                                 .arg(outcome.total)
                                           : tr("%1 runs generated, %2 already done; %3 new comparisons.")
                                                 .arg(outcome.generated)
                                                 .arg(outcome.skipped)
                                                 .arg(outcome.comparisonsCreated));
    reloadComparisons();
    if (!outcome.comparisonIds.empty()) {
        for (int i = 0; i < comparisonCount(); ++i)
            if (m_comparisons[static_cast<std::size_t>(i)].id == outcome.comparisonIds.front()) {
                showComparison(i);
                break;
            }
    }
    emit comparisonsChanged();
}

void CompareView::onFailed(quint64 id, const QString& message) {
    if (id != m_runningId)
        return;
    runEnded();
    m_runStatus->setText(message);
    emit errorMessage(message);
}

void CompareView::refreshRaters() {
    if (!m_ratings)
        return;
    const QString current = m_raterBox->currentText();
    const QSignalBlocker blocker(m_raterBox);
    m_raterBox->clear();
    if (auto raters = m_ratings->listRaters())
        for (const RaterRecord& rater : raters.value())
            m_raterBox->addItem(rater.name);
    m_raterBox->setCurrentText(current);
}

void CompareView::refreshRubrics() {
    const QSignalBlocker blocker(m_rubricBox);
    m_rubricBox->clear();
    if (m_ratings)
        if (auto rubrics = m_ratings->listRubrics())
            for (const Rubric& rubric : rubrics.value())
                m_rubricBox->addItem(rubric.name);
    if (m_rubricBox->findText(m_rubric.name) < 0)
        m_rubricBox->addItem(m_rubric.name);
    m_rubricBox->setCurrentText(m_rubric.name);
}

bool CompareView::setRubric(const QString& name) {
    if (!m_ratings)
        return false;
    Result<std::optional<Rubric>> found = m_ratings->findRubric(name);
    if (!found || !found.value()) {
        emit statusMessage(found ? tr("There is no rubric “%1”.").arg(name) : found.error().message);
        return false;
    }
    m_rubric = *found.value();
    m_settings.set(settings::compareRubric, m_rubric.name);
    refreshRubrics();
    showComparison(m_index);
    return true;
}

void CompareView::editRubric(bool asNew) {
    if (!m_ratings)
        return;
    Rubric start = m_rubric;
    if (asNew) {
        start.id = 0;
        start.name = tr("my rubric");
    }
    RubricDialog dialog(*m_ratings, start, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    setRubric(dialog.saved().name);
}

void CompareView::setRater(const QString& name) {
    m_raterBox->setCurrentText(name);
}

QString CompareView::rater() const {
    return m_raterBox->currentText().trimmed();
}

std::optional<qint64> CompareView::raterId(bool create) {
    if (!m_ratings || rater().isEmpty())
        return std::nullopt;
    if (!create) {
        Result<std::optional<qint64>> found = m_ratings->findRater(rater());
        return found ? found.value() : std::nullopt;
    }
    Result<qint64> id = m_ratings->raterId(rater());
    if (!id) {
        emit errorMessage(id.error().message);
        return std::nullopt;
    }
    return id.value();
}

void CompareView::reloadComparisons() {
    m_comparisons.clear();
    if (m_comparisonStore) {
        Result<std::vector<ComparisonRecord>> list = m_comparisonStore->listComparisons();
        if (list)
            m_comparisons = std::move(list).value();
        else
            emit errorMessage(list.error().message);
    }
    showComparison(m_comparisons.empty() ? -1 : std::clamp(m_index, 0, comparisonCount() - 1));
}

const ComparisonRecord* CompareView::currentComparison() const {
    return m_index >= 0 && m_index < comparisonCount() ? &m_comparisons[static_cast<std::size_t>(m_index)] : nullptr;
}

bool CompareView::showComparison(int index) {
    // Saving a note or moving the focus out of a pane can call back in here (editingFinished): such
    // nested calls are ignored while the panes are rebuilt.
    if (m_rebuilding) {
        m_rebuildAgain = true;
        return false;
    }
    m_rebuilding = true;
    const auto done = qScopeGuard([this] {
        m_rebuilding = false;
        if (std::exchange(m_rebuildAgain, false))
            QMetaObject::invokeMethod(
                this, [this] { showComparison(m_index); }, Qt::QueuedConnection);
    });
    std::vector<ComparePane*> old;
    old.swap(m_panes);
    for (ComparePane* pane : old)
        pane->saveNote(); // a note still being typed (shortcuts do not move the focus)
    for (ComparePane* pane : old)
        delete pane;
    m_index = index >= 0 && index < comparisonCount() ? index : -1;
    const ComparisonRecord* comparison = currentComparison();
    m_setupWarning->hide();
    if (!comparison) {
        m_position->clear();
        m_promptLabel->setText(tr("No comparisons yet: set one up on the left and run it, or use swb batch."));
        rebuildPreferenceButtons({});
        updateRatedLabel();
        return false;
    }
    m_position->setText(tr("Comparison %1 of %2").arg(m_index + 1).arg(comparisonCount()));
    m_promptLabel->setText(tr("Prompt: %1").arg(comparison->promptText));
    m_revealed = !comparison->blind;
    RunRepository runs(*m_database);
    std::vector<ComparisonRecord::Entry> shown = comparison->entries;
    std::sort(shown.begin(), shown.end(),
              [](const auto& a, const auto& b) { return a.presentationOrder < b.presentationOrder; });
    const std::optional<qint64> rater = raterId(false);
    m_shownModels.clear();
    QStringList differences;
    std::optional<RunSetup> firstSetup;
    for (const ComparisonRecord::Entry& entry : shown) {
        Result<RunRecord> record = runs.loadRun(entry.runId);
        if (!record) {
            emit errorMessage(record.error().message);
            continue;
        }
        if (!firstSetup)
            firstSetup = record->setup;
        for (const QString& field : setupDifferences(*firstSetup, record->setup))
            if (!differences.contains(field))
                differences << field;
        auto* pane = new ComparePane(entry.blindLabel, m_rubric, m_paneArea);
        QString strategyName;
        if (Result<Strategy> strategy = runs.loadStrategy(record->strategyId))
            strategyName = strategy->name;
        std::shared_ptr<const Tokenizer> tokenizer;
        if (Result<ModelRecord> model = runs.loadModel(record->modelId)) {
            m_shownModels.insert(model->contentHash);
            const QJsonObject info = QJsonDocument::fromJson(model->infoJson.toUtf8()).object();
            tokenizer = m_session.runTokenizers()->request(model->contentHash, model->path,
                                                           info.value(QLatin1String("tokenizer")).toString());
        }
        pane->setRun(entry.runId, strategyName, generatedSteps(record.value(), tokenizer.get()), tokenizer);
        pane->setRevealed(m_revealed);
        if (rater && m_ratings) {
            std::vector<RatingRecord> mine;
            if (auto ratings = m_ratings->ratingsOfRun(entry.runId))
                for (const RatingRecord& r : ratings.value())
                    if (r.raterId == *rater)
                        mine.push_back(r);
            pane->setRatings(mine);
        }
        connect(pane, &ComparePane::scoreChanged, this, &CompareView::saveScore);
        connect(pane, &ComparePane::noteChanged, this, &CompareView::saveNote);
        connect(pane, &ComparePane::stepActivated, this, &CompareView::openStep);
        // Panes are made in presentation order, so Tab walks A's scores and note, then B's, …
        m_paneLayout->addWidget(pane, 1);
        pane->show(); // now, not on the next event loop pass, so focus can move into it at once
        m_panes.push_back(pane);
    }
    if (!differences.isEmpty()) {
        m_setupWarning->setText(
            tr("These outputs were computed differently (%1): they differ by more than their strategies.")
                .arg(setupDifferenceText(differences)));
        m_setupWarning->show();
    }
    rebuildPreferenceButtons(*comparison);
    updateRatedLabel();
    if (!m_panes.empty() && m_panes.front()->scoreBox(0) && isVisible()) {
        // Selected, as Tab would leave it: a digit typed now replaces "–" instead of being refused after it.
        QSpinBox* first = m_panes.front()->scoreBox(0);
        first->setFocus(Qt::TabFocusReason);
        first->selectAll();
    }
    return true;
}

void CompareView::rebuildPreferenceButtons(const ComparisonRecord& comparison) {
    for (QPushButton* button : m_preferenceButtons)
        delete button;
    m_preferenceButtons.clear();
    auto* layout = static_cast<QHBoxLayout*>(m_preferenceRow->layout());
    // The label too: deleting only the layout item would leave the old "Preference:" drawn under the new one.
    while (QLayoutItem* item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    if (comparison.entries.empty()) {
        updatePreferenceButtons();
        return;
    }
    std::vector<ComparisonRecord::Entry> shown = comparison.entries;
    std::sort(shown.begin(), shown.end(),
              [](const auto& a, const auto& b) { return a.presentationOrder < b.presentationOrder; });
    const bool pair = shown.size() == 2;
    const auto addButton = [this, layout](const QString& text, const QString& winner, const QString& key) {
        auto* button =
            new QPushButton(key.isEmpty() ? text : QStringLiteral("%1  (%2)").arg(text, key), m_preferenceRow);
        button->setCheckable(true);
        button->setProperty("winner", winner);
        button->setObjectName(QStringLiteral("prefer_%1").arg(winner));
        button->setFocusPolicy(Qt::TabFocus);
        connect(button, &QPushButton::clicked, this, [this, winner] { prefer(winner); });
        layout->addWidget(button);
        button->show(); // at once, so Tab can reach it right away
        m_preferenceButtons.push_back(button);
    };
    layout->addWidget(new QLabel(pair ? tr("Preference:") : tr("Best:"), m_preferenceRow));
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const QString label = shown[i].blindLabel;
        // Ctrl+1… reach the first kMaxStrategies outputs (a comparison made here has no more).
        const QString key = i < static_cast<std::size_t>(kMaxStrategies) ? tr("Ctrl+%1").arg(i + 1) : QString();
        addButton(pair ? tr("%1 better").arg(label) : label, label, key);
        if (pair && i == 0)
            addButton(tr("Tie"), QStringLiteral("tie"), tr("Ctrl+T"));
    }
    if (!pair)
        addButton(tr("Tie"), QStringLiteral("tie"), tr("Ctrl+T"));
    addButton(pair ? tr("Both bad") : tr("All bad"), QStringLiteral("bothbad"), tr("Ctrl+B"));
    layout->addStretch();
    // As tall as the buttons, and a scroll bar's height more when they are wider than the tab.
    m_preferenceScroll->setFixedHeight(m_preferenceRow->sizeHint().height() +
                                       m_preferenceScroll->horizontalScrollBar()->sizeHint().height());
    updatePreferenceButtons();
}

void CompareView::updatePreferenceButtons() {
    const ComparisonRecord* comparison = currentComparison();
    const std::optional<qint64> rater = raterId(false);
    QString given;
    if (comparison && rater && m_ratings) {
        if (auto preference = m_ratings->preference(comparison->id, *rater); preference && preference.value()) {
            const PreferenceRecord& p = *preference.value();
            if (p.winner == PreferenceWinner::Slot) {
                for (const auto& entry : comparison->entries)
                    if (p.winnerSlot && entry.slot == *p.winnerSlot)
                        given = entry.blindLabel;
            } else {
                given = PreferenceRecord::winnerName(p.winner);
            }
        }
    }
    for (QPushButton* button : m_preferenceButtons)
        button->setChecked(button->property("winner").toString() == given);
    m_reveal->setEnabled(comparison && (!given.isEmpty() || !comparison->blind) && !m_revealed);
    m_gold->setEnabled(comparison != nullptr);
    // The gold answer is shown only once it can no longer tell a blind rater anything.
    if (comparison && comparison->isGold)
        m_gold->setText(!comparison->blind || m_revealed || !given.isEmpty()
                            ? tr("Gold: %1").arg(comparison->goldWinner)
                            : tr("Gold (answer hidden until you prefer)"));
    else
        m_gold->setText(tr("Gold…"));
}

void CompareView::saveScore(qint64 runId, const QString& dimension, double score, bool cleared) {
    const std::optional<qint64> rater = raterId(true);
    if (!rater) {
        // Kept, not dropped: saved under the name once it is typed.
        m_pendingScores[{runId, dimension}] = {score, cleared};
        emit statusMessage(tr("Type your rater name: your scores are kept and saved under it."));
        m_raterBox->setFocus();
        return;
    }
    if (cleared) {
        if (Status status = m_ratings->deleteRating(runId, *rater, dimension); !status) {
            emit errorMessage(status.error().message);
            return;
        }
    } else {
        RatingRecord rating;
        rating.runId = runId;
        rating.raterId = *rater;
        rating.dimension = dimension;
        rating.score = score;
        for (ComparePane* pane : m_panes)
            if (pane->runId() == runId)
                rating.note = pane->noteEdit()->text();
        if (Status status = m_ratings->saveRating(rating, m_rubric); !status) {
            emit errorMessage(status.error().message);
            return;
        }
    }
    refreshRaters();
    updateRatedLabel();
    emit ratingsChanged();
}

void CompareView::savePendingScores() {
    if (rater().isEmpty() || m_pendingScores.empty())
        return;
    const auto pending = std::exchange(m_pendingScores, {});
    for (const auto& [key, value] : pending)
        saveScore(key.first, key.second, value.first, value.second);
    emit statusMessage(tr("Saved %n score(s) typed before your name.", nullptr, static_cast<int>(pending.size())));
}

void CompareView::saveNote(qint64 runId, const QString& note) {
    const std::optional<qint64> rater = raterId(false);
    if (!rater || !m_ratings)
        return;
    // The note goes with every score this rater gave the run.
    if (auto ratings = m_ratings->ratingsOfRun(runId)) {
        for (RatingRecord rating : ratings.value()) {
            if (rating.raterId != *rater)
                continue;
            rating.note = note;
            if (Status status = m_ratings->saveRating(rating, m_rubric); !status)
                emit errorMessage(status.error().message);
        }
    }
    emit ratingsChanged();
}

void CompareView::prefer(const QString& winner) {
    const ComparisonRecord* comparison = currentComparison();
    if (!comparison || !m_ratings)
        return;
    PreferenceRecord preference;
    preference.comparisonId = comparison->id;
    if (winner == QLatin1String("tie")) {
        preference.winner = PreferenceWinner::Tie;
    } else if (winner == QLatin1String("bothbad")) {
        preference.winner = PreferenceWinner::BothBad;
    } else {
        preference.winner = PreferenceWinner::Slot;
        for (const auto& entry : comparison->entries)
            if (entry.blindLabel == winner)
                preference.winnerSlot = entry.slot;
        if (!preference.winnerSlot)
            return; // Ctrl+3 on a comparison of two
    }
    const std::optional<qint64> rater = raterId(true);
    if (!rater) {
        emit statusMessage(tr("Type your rater name first, so your preferences can be told from others'."));
        m_raterBox->setFocus();
        return;
    }
    preference.raterId = *rater;
    if (Status status = m_ratings->savePreference(preference); !status) {
        emit errorMessage(status.error().message);
        return;
    }
    refreshRaters();
    updatePreferenceButtons();
    updateRatedLabel();
    emit ratingsChanged();
}

void CompareView::updateRatedLabel() {
    const std::optional<qint64> rater = raterId(false);
    if (!m_ratings || !rater) {
        m_ratedLabel->setText(tr("0 of %1 rated").arg(comparisonCount()));
        return;
    }
    Result<RatingProgress> progress = m_ratings->progress(*rater);
    if (progress)
        m_ratedLabel->setText(tr("%1 of %2 rated").arg(progress->rated).arg(progress->total));
}

void CompareView::next() {
    if (m_index + 1 < comparisonCount())
        showComparison(m_index + 1);
}

void CompareView::previous() {
    if (m_index > 0)
        showComparison(m_index - 1);
}

void CompareView::nextUnrated() {
    const std::optional<qint64> id = raterId(false);
    if (!id) {
        // Nobody rated anything yet under this name: the first comparison is unrated.
        showComparison(0);
        return;
    }
    const ComparisonRecord* current = currentComparison();
    Result<std::optional<qint64>> next = m_ratings->nextUnratedComparison(*id, current ? current->id : 0);
    if (next && !next.value())
        next = m_ratings->nextUnratedComparison(*id, 0); // wrap around
    if (!next || !next.value()) {
        emit statusMessage(tr("Every comparison is rated by %1.").arg(rater()));
        return;
    }
    for (int i = 0; i < comparisonCount(); ++i)
        if (m_comparisons[static_cast<std::size_t>(i)].id == *next.value())
            showComparison(i);
}

void CompareView::reveal() {
    if (!m_reveal->isEnabled())
        return;
    m_revealed = true;
    for (ComparePane* pane : m_panes)
        pane->setRevealed(true);
    updatePreferenceButtons();
}

void CompareView::markGold() {
    const ComparisonRecord* comparison = currentComparison();
    if (!comparison || !m_comparisonStore)
        return;
    // The list may be reloaded while the menu is open (a comparison finishing): keep the id, not the pointer.
    const qint64 comparisonId = comparison->id;
    QMenu menu(this);
    std::vector<ComparisonRecord::Entry> shown = comparison->entries;
    std::sort(shown.begin(), shown.end(),
              [](const auto& a, const auto& b) { return a.presentationOrder < b.presentationOrder; });
    QString chosen;
    bool unmark = false;
    for (const auto& entry : shown)
        menu.addAction(tr("Expected: %1 better").arg(entry.blindLabel), this,
                       [&chosen, label = entry.blindLabel] { chosen = label; });
    menu.addAction(tr("Expected: tie"), this, [&chosen] { chosen = QStringLiteral("tie"); });
    menu.addAction(tr("Expected: both bad"), this, [&chosen] { chosen = QStringLiteral("bothbad"); });
    if (comparison->isGold) {
        menu.addSeparator();
        menu.addAction(tr("Not a gold comparison"), this, [&unmark] { unmark = true; });
    }
    menu.exec(m_gold->mapToGlobal(QPoint(0, m_gold->height())));
    if (chosen.isEmpty() && !unmark)
        return;
    if (Status status = m_comparisonStore->setGold(comparisonId, !unmark, chosen); !status) {
        emit errorMessage(status.error().message);
        return;
    }
    for (ComparisonRecord& stored : m_comparisons) {
        if (stored.id == comparisonId) {
            stored.isGold = !unmark;
            stored.goldWinner = unmark ? QString() : chosen;
        }
    }
    updatePreferenceButtons();
    emit ratingsChanged();
}

} // namespace swb
