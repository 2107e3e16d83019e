#include "explore/ExploreView.h"

#include <algorithm>
#include <limits>

#include <QAction>
#include <QDataStream>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include "AppInfo.h"
#include "RunTokenizers.h"
#include "Settings.h"
#include "explore/BeamTreeView.h"
#include "explore/ConversationPanel.h"
#include "explore/DistributionModel.h"
#include "explore/DistributionPlot.h"
#include "explore/ExploreRun.h"
#include "explore/ModelBar.h"
#include "explore/PromptPanel.h"
#include "explore/StrategyEditor.h"
#include "explore/TimelinePlot.h"
#include "explore/TokenProbeDialog.h"
#include "explore/TokenStreamView.h"
#include "runs/RunSetupText.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"

namespace swb {

ExploreView::ExploreView(Settings& settings, Database* database, InferenceSession& session, QWidget* parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_database(database)
    , m_session(session) {
    setObjectName(QStringLiteral("explore"));
    setAcceptDrops(true);
    if (m_database)
        m_runs = std::make_unique<RunRepository>(*m_database);
    createViews();
    layOutViews();
    connectSession();
    m_flush = new QTimer(this);
    m_flush->setSingleShot(true);
    m_flush->setInterval(33); // repaint at most ~30 times a second while streaming
    connect(m_flush, &QTimer::timeout, this, &ExploreView::flushPending);
    m_inspectDebounce = new QTimer(this);
    m_inspectDebounce->setSingleShot(true);
    m_inspectDebounce->setInterval(60);
    connect(m_inspectDebounce, &QTimer::timeout, this, &ExploreView::requestInspection);
    updateButtons();
}

// The worker's answers to Explore's jobs, and the session's loads.
void ExploreView::connectSession() {
    InferenceWorker* worker = m_session.worker();
    connect(worker, &InferenceWorker::stepGenerated, this, &ExploreView::onStep);
    connect(worker, &InferenceWorker::generationFinished, this, &ExploreView::onFinished);
    connect(worker, &InferenceWorker::generationFailed, this, &ExploreView::onFailed);
    connect(worker, &InferenceWorker::beamStepTaken, this, &ExploreView::onBeamStep);
    m_inspector = new StepInspector(m_session, this);
    connect(m_inspector, &StepInspector::replayed, this, &ExploreView::onInspected);
    connect(m_inspector, &StepInspector::failed, this,
            [this](const QString& message) { m_details->setText(tr("Cannot replay this step: %1").arg(message)); });
    connect(m_inspector, &StepInspector::beamNodeTraced, this, &ExploreView::onBeamNodeTraced);
    connect(m_session.runTokenizers(), &RunTokenizers::available, this, &ExploreView::onRunTokenizerAvailable);
    connect(&m_session, &InferenceSession::loadFailed, this, [this](const QString& message) {
        const std::optional<LoadedModelInfo>& model = m_session.model();
        emit errorMessage(model ? tr("%1 (%2 stays loaded.)").arg(message, QFileInfo(model->info.path).fileName())
                                : message);
    });
    connect(&m_session, &InferenceSession::loadCancelled, this,
            [this] { emit statusMessage(tr("Model loading cancelled.")); });
    connect(&m_session, &InferenceSession::modelLoaded, this, &ExploreView::onModelLoaded);
    connect(&m_session, &InferenceSession::stateChanged, this, &ExploreView::updateButtons);
}

void ExploreView::createViews() {
    m_modelBar = new ModelBar(this);
    m_modelBar->follow(m_session, m_settings);
    connect(m_modelBar, &ModelBar::openRequested, this, &ExploreView::openModel);
    connect(m_modelBar, &ModelBar::openRemoteRequested, this, &ExploreView::openRemoteModel);
    connect(m_modelBar, &ModelBar::cancelRequested, this, &ExploreView::cancelModelLoad);
    connect(m_modelBar, &ModelBar::divergenceRequested, this, &ExploreView::openDivergence);
    connect(m_modelBar, &ModelBar::optionsChanged, this, [this] {
        // Reload what the user last asked for: the model loading now, else the one loaded.
        if (m_session.isLoading())
            openModel(m_session.loadingPath(), m_session.loadingTokenizer());
        else if (m_session.model())
            openModel(m_session.model()->info.path, m_session.model()->info.tokenizerPath);
    });

    // Strategy editor.
    m_editor = new StrategyEditor(this);
    m_editor->setRepository(m_runs.get());
    if (const QString saved = m_settings.get(settings::exploreStrategy); !saved.isEmpty()) {
        if (Result<Strategy> strategy = Strategy::parse(saved)) {
            m_editor->setStrategy(strategy.value());
            m_editor->undoStack()->clear();
        }
    }
    connect(m_editor, &StrategyEditor::strategyChanged, this, [this] {
        if (m_stream->selectedStep() >= 0)
            m_inspectDebounce->start();
    });
    connect(m_editor, &StrategyEditor::message, this, &ExploreView::statusMessage);

    // Prompt and controls.
    m_input = new PromptPanel(m_settings, m_session, this);
    m_prompt = m_input->promptEdit();
    m_chat = m_input->conversation();
    m_maxTokens = m_input->maxTokens();
    m_generate = m_input->generateButton();
    m_stop = m_input->stopButton();
    connect(m_input, &PromptPanel::generateRequested, this, &ExploreView::generate);
    connect(m_input, &PromptPanel::stopRequested, this, &ExploreView::stop);

    m_streamPanel = new RunStreamPanel(m_settings.get(settings::exploreShowFinal), this);
    connect(m_streamPanel, &RunStreamPanel::replayRequested, this, &ExploreView::replayRun);
    m_stream = m_streamPanel->stream();
    m_beamTree = m_streamPanel->beamTree();
    connect(m_streamPanel, &RunStreamPanel::probeRequested, this, [this] { openTokenProbe(); });
    connect(m_streamPanel, &RunStreamPanel::remedyChosen, this, &ExploreView::tryLoopRemedy);
    connect(m_stream, &TokenStreamView::stepSelected, this, [this](int) { showStep(); });
    connect(m_beamTree, &BeamTreeView::nodeSelected, this, &ExploreView::traceBeamNode);
    connect(m_stream, &TokenStreamView::branchRequested, this, &ExploreView::branch);
    connect(m_stream, &TokenStreamView::editRequested, this, &ExploreView::editAndContinue);
    connect(m_stream, &TokenStreamView::probeRequested, this, [this](int step) {
        selectStep(step);
        openTokenProbe(m_run.steps[static_cast<std::size_t>(step)].token);
    });

    m_timeline = new TimelinePlot(this);
    connect(m_timeline, &TimelinePlot::stepClicked, this, &ExploreView::selectStep);

    m_plot = new DistributionPlot(this);
    m_plot->setLogScale(m_settings.get(settings::exploreLogScale));
    connect(m_plot, &DistributionPlot::branchRequested, this,
            [this](TokenId token) { branch(m_stream->selectedStep(), token); });

    m_details = new StepDetailsPanel(this);
    connect(m_details, &StepDetailsPanel::stageSelected, this, &ExploreView::showStep);
}

// The editor on the left; on the right the input and the run, the timeline, and the distribution beside the
// step's details, in splitters that keep their sizes across sessions.
void ExploreView::layOutViews() {
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_input);
    topLayout->addWidget(m_streamPanel, 1);

    m_bottomSplitter = new QSplitter(Qt::Horizontal, this);
    m_bottomSplitter->addWidget(m_plot);
    m_bottomSplitter->addWidget(m_details);
    m_bottomSplitter->setStretchFactor(0, 1);
    m_bottomSplitter->setStretchFactor(1, 1);
    m_bottomSplitter->setSizes({500, 440});

    m_rightSplitter = new QSplitter(Qt::Vertical, this);
    m_rightSplitter->addWidget(top);
    m_rightSplitter->addWidget(m_timeline);
    m_rightSplitter->addWidget(m_bottomSplitter);
    m_rightSplitter->setStretchFactor(0, 2);
    m_rightSplitter->setStretchFactor(1, 1);
    m_rightSplitter->setStretchFactor(2, 3);

    m_mainSplitter = new QSplitter(Qt::Horizontal, this);
    m_mainSplitter->addWidget(m_editor);
    m_mainSplitter->addWidget(m_rightSplitter);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setSizes({330, 950});
    m_rightSplitter->setSizes({160, 200, 360});
    // A conversation needs more room than a prompt: the input area takes a share of the top pane and the
    // pane grows when chat mode opens; a prompt keeps its few lines.
    const auto fitInput = [topLayout](bool chat) {
        topLayout->setStretch(0, chat ? 3 : 0);
        topLayout->setStretch(1, chat ? 2 : 1);
    };
    fitInput(isChatMode());
    connect(m_input, &PromptPanel::chatModeChanged, this, [this, fitInput](bool chat) {
        fitInput(chat);
        QList<int> sizes = m_rightSplitter->sizes();
        const int total = sizes.size() == 3 ? sizes[0] + sizes[1] + sizes[2] : 0;
        if (chat && total > 0 && sizes[0] < total * 50 / 100) {
            int want = total * 50 / 100 - sizes[0];
            const int fromTimeline = std::clamp(sizes[1] - 110, 0, want);
            sizes[1] -= fromTimeline;
            want -= fromTimeline;
            const int fromBottom = std::clamp(sizes[2] - 240, 0, want);
            sizes[2] -= fromBottom;
            sizes[0] += fromTimeline + fromBottom;
            m_rightSplitter->setSizes(sizes);
        }
    });
    if (const QByteArray state = m_settings.get(settings::exploreSplitters); !state.isEmpty()) {
        QDataStream in(state);
        QByteArray a, b, c;
        in >> a >> b >> c;
        m_mainSplitter->restoreState(a);
        m_rightSplitter->restoreState(b);
        m_bottomSplitter->restoreState(c);
    }

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 6);
    layout->addWidget(m_modelBar);
    layout->addWidget(m_mainSplitter, 1);
}

void ExploreView::openLastModel() {
    const QString last = m_settings.get(settings::modelPath);
    openModel(!last.isEmpty() && QFileInfo::exists(last) ? last : bundledModelPath());
}

ExploreView::~ExploreView() = default;

void ExploreView::saveSettings() {
    m_settings.set(settings::exploreStrategy,
                   QString::fromUtf8(QJsonDocument(m_editor->strategy().toJson()).toJson(QJsonDocument::Compact)));
    m_input->saveSettings();
    m_settings.set(settings::exploreShowFinal, m_streamPanel->showsFinal());
    m_settings.set(settings::exploreLogScale, m_plot->logScale());
    m_modelBar->saveOptions(m_settings);
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out << m_mainSplitter->saveState() << m_rightSplitter->saveState() << m_bottomSplitter->saveState();
    m_settings.set(settings::exploreSplitters, state);
}

void ExploreView::openModel(const QString& path, const QString& tokenizerPath) {
    if (QString why; !m_session.openModel(path, tokenizerPath, m_modelBar->options(), &why))
        emit statusMessage(why);
}

void ExploreView::openRemoteModel(const QString& address, const QString& apiKey) {
    m_session.setRemoteKey(address, apiKey);
    openModel(address);
}

void ExploreView::onModelLoaded(const LoadedModelInfo& model, bool late) {
    if (late) {
        emit statusMessage(
            tr("Loaded %1 (the cancel came after it had finished).").arg(QDir::toNativeSeparators(model.info.path)));
        emit modelReady(model.info.path);
        return;
    }
    for (const QString& warning : model.warnings)
        emit statusMessage(warning);
    m_input->updateContextWarning();
    emit statusMessage(tr("Loaded %1.").arg(QDir::toNativeSeparators(model.info.path)));
    emit modelReady(model.info.path);
}

void ExploreView::updateButtons() {
    const bool ready = m_session.canAcquire();
    m_generate->setEnabled(ready);
    m_input->generateAction()->setEnabled(m_front && ready);
    m_stop->setEnabled(isGenerating());
    m_input->stopAction()->setEnabled(m_front && isGenerating());
}

bool ExploreView::editorMatchesRun() const {
    return m_editor->strategy().canonicalSamplersJson() == m_run.strategy.canonicalSamplersJson() &&
           m_editor->seed() == m_run.seed;
}

void ExploreView::setFront(bool front) {
    m_front = front;
    updateButtons();
}

void ExploreView::generate() {
    if (QString why; !m_session.canAcquire(&why)) {
        emit statusMessage(why);
        return;
    }
    GenerationJob job;
    QString shown;
    if (isChatMode()) {
        Result<ConversationPanel::Prepared> prepared = m_chat->prepare();
        if (!prepared) {
            emit errorMessage(prepared.error().message);
            return;
        }
        job.request.prompt = prepared->prompt;
        job.request.conversationJson = prepared->conversationJson;
        // A rendered conversation spells its own special tokens.
        job.request.addSpecial = !m_chat->hasTemplate();
        job.request.parseSpecial = m_chat->hasTemplate();
        m_chat->commitMessage();
        shown = QString::fromStdString(prepared->prompt);
    } else {
        shown = m_prompt->toPlainText();
        job.request.prompt = shown.toStdString();
    }
    m_chatReplyPrefix.clear();
    job.request.strategy = m_editor->strategy();
    job.request.seed = m_editor->seed();
    job.request.maxTokens = m_maxTokens->value();
    job.request.traceLevel = TraceLevel::Full;
    job.request.topN = 64;
    startJob(std::move(job), shown);
}

void ExploreView::startJob(GenerationJob job, const QString& shownPrompt) {
    if (!m_session.acquire(InferenceSession::Holder::Explore))
        return;
    const bool beam = isBeamDecoder(job.request.strategy.decoder);
    job.id = m_session.nextId();
    m_jobId = job.id;
    m_maxTokensOfJob = job.request.maxTokens;
    m_run = ExploreRun::starting(job, shownPrompt, m_chatReplyPrefix, m_session.model()->info);
    m_pending.clear();
    dropInspection();
    if (m_probe)
        m_probe->hide(); // it follows one run
    m_timeline->clearSteps();
    m_loops.clear();
    m_streamPanel->showLoops({}, {});
    m_details->clear();
    if (beam) {
        m_streamPanel->startBeamSearch(m_session.model()->tokenizer, m_run.promptText);
        m_timeline->hide(); // no per-step path to plot: the tree takes its room
        m_plot->clear(tr("Beam search: the tree above shows every step's beams; click a node for its path."));
        m_streamPanel->setProgress(tr("Beam search…"));
    } else {
        showRunSteps();
        m_plot->clear(tr("Generating…"));
        m_streamPanel->setProgress(tr("0 / %n token(s)", nullptr, m_maxTokensOfJob));
    }
    updateButtons();
    emit generationStarted();
    QMetaObject::invokeMethod(m_session.worker(),
                              [worker = m_session.worker(), ticket = m_session.worker()->takeTicket(),
                               job = std::move(job)] { worker->generate(job, ticket); });
}

void ExploreView::onBeamStep(quint64 id, const BeamStep& step) {
    if (id != m_jobId)
        return;
    m_beamTree->appendStep(step);
    m_streamPanel->setProgress(tr("Beam search: step %1 / %2").arg(m_beamTree->stepCount()).arg(m_maxTokensOfJob));
}

void ExploreView::traceBeamNode(int index) {
    m_details->setText(m_beamTree->describe(index).toHtmlEscaped());
    // The node's distribution, as for a sampled step: recomputed for its path on the run's model.
    if (m_inspector->traceBeamNode(m_run, m_beamTree->pathTokens(index))) {
        m_inspectDebounce->stop();
        m_pipelineStep = -1;
    }
}

void ExploreView::onBeamNodeTraced(const StepTrace& trace) {
    if (!showsBeamTree())
        return;
    const std::shared_ptr<const Tokenizer> tokenizer = m_session.runTokenizers()->find(m_run.modelHash);
    m_plot->setModel(buildDistributionModel(trace, m_run.strategy, nullptr, -1, tokenizer.get(), m_run.vocabSize));
    m_details->fillPipeline(trace, m_run.strategy);
    m_pipelineStep = -1;
}

void ExploreView::showBeamSearch(const BeamResult& result) {
    m_streamPanel->showBeamSearch(m_session.runTokenizers()->find(m_run.modelHash), result);
    m_timeline->hide();
}

void ExploreView::stop() {
    if (isGenerating())
        m_session.stopJob();
}

void ExploreView::onStep(quint64 id, const GeneratedStep& step) {
    if (id != m_jobId)
        return;
    m_pending.push_back(step);
    if (!m_flush->isActive())
        m_flush->start();
}

void ExploreView::flushPending() {
    if (m_pending.empty())
        return;
    m_stream->appendSteps(m_pending);
    m_timeline->appendSteps(m_pending);
    m_run.steps.insert(m_run.steps.end(), m_pending.begin(), m_pending.end());
    m_pending.clear();
    m_streamPanel->setProgress(tr("%1 / %2 tokens").arg(m_run.steps.size()).arg(m_maxTokensOfJob));
    emit stepsAppended(static_cast<int>(m_run.steps.size()));
    m_streamPanel->followEnd(); // follow the stream while it grows
}

void ExploreView::onFinished(quint64 id, const GenerationOutcome& outcome) {
    if (id != m_jobId)
        return;
    m_flush->stop();
    flushPending();
    m_session.release(InferenceSession::Holder::Explore);
    m_run.runId = outcome.runId;
    m_run.promptIds = outcome.result.promptIds;
    m_run.finish = finishReasonName(outcome.result.finish);
    if (!m_run.conversationJson.isEmpty())
        m_chat->setReply(m_chatReplyPrefix + QString::fromStdString(outcome.result.text));
    updateButtons();
    const QString speed = outcome.result.tokensPerSecond > 0
                              ? tr(", %1 tok/s").arg(rateText(outcome.result.tokensPerSecond))
                              : QString();
    m_streamPanel->setProgress(
        tr("%n token(s) · %1%2", nullptr, static_cast<int>(m_run.steps.size())).arg(m_run.finish, speed));
    if (outcome.result.beam)
        m_streamPanel->finishBeamSearch(*outcome.result.beam);
    if (outcome.runId > 0) {
        emit statusMessage(
            tr("Saved run %1 (%2 tokens, finished: %3).").arg(outcome.runId).arg(m_run.steps.size()).arg(m_run.finish));
        emit runSaved(outcome.runId);
    } else {
        emit errorMessage(tr("The run was not saved: %1").arg(outcome.saveError));
    }
    updateLoops();
    if (m_stream->selectedStep() < 0 && m_stream->stepCount() > 0)
        m_stream->setSelectedStep(0);
    if (m_replayOf && outcome.runId > 0) {
        if (!m_replayDialog) {
            m_replayDialog = new ReplayDialog(m_database, this);
            connect(m_replayDialog, &ReplayDialog::comparisonMade, this, &ExploreView::comparisonMade);
        }
        m_replayDialog->setPair(m_run.promptText, *m_replayOf, m_run.replaySide());
        m_replayDialog->show();
        m_replayDialog->raise();
    }
    m_replayOf.reset();
    emit generationEnded(outcome.runId);
}

void ExploreView::onFailed(quint64 id, const QString& message) {
    if (id != m_jobId)
        return;
    m_replayOf.reset();
    m_flush->stop();
    flushPending();
    m_session.release(InferenceSession::Holder::Explore);
    updateButtons();
    m_streamPanel->setProgress(tr("Failed"));
    m_plot->clear(message);
    emit errorMessage(message);
    emit generationEnded(0);
}

void ExploreView::selectStep(int step) {
    m_stream->setSelectedStep(step);
}

void ExploreView::branch(int step, TokenId token) {
    if (m_session.model() && m_run.remote &&
        tokenDisplayText(m_session.model()->tokenizer.get(), token).startsWith(QLatin1Char('#'))) {
        emit statusMessage(tr("The engine did not say this token's text, so the branch cannot be sent as text."));
        return;
    }
    startBranch(step, {token},
                m_session.model() ? tokenDisplayText(m_session.model()->tokenizer.get(), token) : QString());
}

void ExploreView::branchWithText(int step, const QString& text) {
    if (!m_session.model())
        return;
    // The edited text as the model's tokenizer splits it on its own (no special tokens added or parsed).
    startBranch(step, m_session.model()->tokenizer->encode(text.toStdString(), false, false), text);
}

void ExploreView::editAndContinue(int step) {
    if (step < 0 || step >= static_cast<int>(m_run.steps.size()))
        return;
    const QString rest = m_run.text(step, static_cast<int>(m_run.steps.size()));
    bool ok = false;
    const QString edited = QInputDialog::getMultiLineText(
        this, tr("Edit and Continue"),
        tr("The run's text from step %1 on. Edit it; generation continues after it as a branch of run %2.")
            .arg(step + 1)
            .arg(m_run.runId),
        rest, &ok);
    if (ok)
        branchWithText(step, edited);
}

bool ExploreView::canContinueRun(bool replay) {
    if (!m_session.canAcquire() || m_run.steps.empty())
        return false;
    if (m_run.runId == 0 || (m_run.promptIds.empty() && !m_run.remote)) {
        emit statusMessage(replay ? tr("Replaying needs a finished, saved run.")
                                  : tr("Branching needs a finished, saved run."));
        return false;
    }
    if (m_run.modelHash != m_session.model()->info.contentHash) {
        emit statusMessage(replay ? tr("This run came from another model; open that model to replay it.")
                                  : tr("This run came from another model; open that model to branch from it."));
        return false;
    }
    return true;
}

void ExploreView::replayRun() {
    if (!canContinueRun(true))
        return;
    GenerationJob job;
    job.request.prompt = m_run.promptText.toStdString();
    job.request.promptIds = m_run.promptIds;
    job.request.usePromptIds = !m_run.promptIds.empty();
    job.request.conversationJson = m_run.conversationJson.toStdString();
    job.request.strategy = m_editor->strategy();
    job.request.strategy.seed = m_run.seed; // the run's seed: the strategies differ, the draws do not
    job.request.seed = m_run.seed;
    job.request.maxTokens = std::max(m_maxTokens->value(), static_cast<int>(m_run.steps.size()));
    job.request.traceLevel = TraceLevel::Full;
    m_chatReplyPrefix = m_run.replyPrefix;
    const QString prompt = m_run.promptText;
    if (isBeamDecoder(job.request.strategy.decoder)) {
        emit statusMessage(tr("A replay compares sampled runs; the editor holds a beam search."));
        return;
    }
    m_replayOf = m_run.replaySide();
    startJob(std::move(job), prompt);
}

void ExploreView::startBranch(int step, const std::vector<TokenId>& continuation, const QString& continuationText) {
    if (step < 0 || step >= static_cast<int>(m_run.steps.size()) || !canContinueRun(false))
        return;
    if (m_run.remote && !m_run.conversationJson.isEmpty()) {
        emit statusMessage(tr("A remote engine renders conversations itself: a reply cannot be continued from a "
                              "token there. Branch from a raw prompt's run instead."));
        return;
    }
    BranchStart branch = branchOf(m_run, step, continuation, continuationText);
    branch.job.request.strategy = m_editor->strategy();
    branch.job.request.seed = m_editor->seed();
    branch.job.request.maxTokens = std::max(1, m_maxTokens->value() - step - static_cast<int>(continuation.size()));
    m_chatReplyPrefix = branch.replyPrefix;
    startJob(std::move(branch.job), branch.shownPrompt);
}

bool ExploreView::openRun(qint64 runId) {
    if (!m_runs || isGenerating())
        return false;
    Result<StoredRun> stored = loadStoredRun(*m_runs, *m_session.runTokenizers(), runId);
    if (!stored) {
        emit errorMessage(stored.error().message);
        return false;
    }
    const RunRecord& record = stored->record;
    if (m_probe)
        m_probe->hide(); // it follows one run
    m_run = stored->run;
    dropInspection();
    showRunSteps();
    m_timeline->clearSteps();
    m_timeline->appendSteps(m_run.steps);
    updateLoops();
    if (stored->beam)
        showBeamSearch(*stored->beam); // a beam run: its tree, with the best path's steps behind it
    else if (!stored->decoderError.isEmpty())
        emit errorMessage(stored->decoderError);
    const QString name = record.parentRunId && record.branchStep ? tr("Run %1, branch of run %2 at step %3")
                                                                       .arg(m_run.runId)
                                                                       .arg(*record.parentRunId)
                                                                       .arg(*record.branchStep + 1)
                                                                 : tr("Run %1").arg(m_run.runId);
    // How it was computed (threads, fast math, dtype, device, kernel path), so an exact run and a fast-math run
    // of one model are told apart.
    m_streamPanel->setProgress(
        tr("%1 · %n token(s) · %2 · computed with %3", nullptr, static_cast<int>(m_run.steps.size()))
            .arg(name, m_run.finish, setupText(record.setup)));
    if (stored->strategyKnown)
        setStrategyFromRun(m_run.strategy, m_run.seed);
    if (!m_run.conversationJson.isEmpty()) {
        // A conversation's run: show the conversation with this reply (a branch's reply starts in its prompt).
        m_chat->setConversation(m_run.conversationJson, m_run.replyPrefix + record.text);
        setChatMode(true);
    }
    if (!m_run.steps.empty())
        m_stream->setSelectedStep(0);
    else
        showStep();
    if (!m_session.model() || m_session.model()->info.contentHash != m_run.modelHash)
        emit statusMessage(tr("Run %1 came from a model that is not loaded: its stored trace is shown, and what-if "
                              "replay and branching need that model.")
                               .arg(runId));
    return true;
}

void ExploreView::updateLoops() {
    std::vector<int> tokens;
    for (const GeneratedStep& step : m_run.steps)
        tokens.push_back(step.token);
    m_loops = m_run.steps.empty() || showsBeamTree() ? std::vector<stats::RepetitionLoop>{}
                                                     : stats::findRepetitionLoops(tokens);
    std::vector<std::pair<int, int>> spans;
    for (const stats::RepetitionLoop& loop : m_loops)
        spans.emplace_back(loop.start, loop.end);
    m_timeline->setLoops(spans);
    m_streamPanel->showLoops(m_loops, loopRemediesOffered());
}

std::vector<LoopRemedy> ExploreView::loopRemediesOffered() const {
    if (m_loops.empty())
        return {};
    return loopRemedies(m_run.strategy, m_loops.front());
}

void ExploreView::tryLoopRemedy(int index) {
    const std::vector<LoopRemedy> remedies = loopRemediesOffered();
    if (index < 0 || index >= static_cast<int>(remedies.size()))
        return;
    Strategy strategy = remedies[static_cast<std::size_t>(index)].strategy;
    strategy.seed = m_run.seed;
    m_editor->setStrategy(strategy, tr("Loop remedy"));
    selectStep(remedies[static_cast<std::size_t>(index)].step);
    emit statusMessage(tr("The editor holds the run's strategy with the remedy; the what-if at the selected step "
                          "shows what it would draw. Undo (Ctrl+Z) brings back the strategy before."));
}

DivergenceDialog* ExploreView::openDivergence() {
    if (!m_session.model() || m_session.isRemote()) {
        emit statusMessage(tr("Open a model here first: the comparison reads both models' whole distributions."));
        return nullptr;
    }
    if (!m_divergenceDialog) {
        m_divergenceDialog = new DivergenceDialog(m_session.model()->info.path, m_prompt->toPlainText(), this);
        m_divergenceDialog->setAttribute(Qt::WA_DeleteOnClose);
        m_divergenceDialog->setStrategySource([this] { return m_editor->strategy(); });
        m_divergenceDialog->modelBEdit()->setText(m_settings.get(settings::divergenceModelB));
        connect(m_divergenceDialog, &DivergenceDialog::measured, this,
                [this](const QString& modelB) { m_settings.set(settings::divergenceModelB, modelB); });
        connect(m_divergenceDialog, &DivergenceDialog::openPrefixRequested, this,
                [this](const QString& prefix, const QString& modelB) {
                    m_prompt->setPlainText(prefix);
                    openModel(modelB);
                });
    }
    m_divergenceDialog->show();
    m_divergenceDialog->raise();
    m_divergenceDialog->activateWindow();
    return m_divergenceDialog;
}

TokenProbeDialog* ExploreView::openTokenProbe(TokenId token) {
    if (m_run.steps.empty() || isGenerating()) {
        emit statusMessage(tr("Generate or open a run first: the probe follows a token through a finished run."));
        return nullptr;
    }
    if (m_run.remote || isRemoteModel()) {
        emit statusMessage(tr("The token probe needs the whole distribution at every step; a remote engine gives "
                              "only its top candidates."));
        return nullptr;
    }
    if (!m_session.model() || m_run.modelHash != m_session.model()->info.contentHash || m_run.promptIds.empty()) {
        emit statusMessage(tr("The token probe recomputes the run on its model: open that model first."));
        return nullptr;
    }
    if (!m_probe) {
        m_probe = new TokenProbeDialog(m_session, this);
        connect(m_probe, &TokenProbeDialog::stepActivated, this, &ExploreView::selectStep);
    }
    m_probe->probeRun(m_run, std::max(0, m_stream->selectedStep()), token);
    return m_probe;
}

void ExploreView::showRunSteps() {
    m_streamPanel->showSteps(m_session.runTokenizers()->find(m_run.modelHash), m_run.promptText, m_run.steps);
    m_timeline->show();
}

void ExploreView::onRunTokenizerAvailable(const QString& modelHash) {
    if (m_run.runId == 0 || m_run.modelHash != modelHash || isGenerating())
        return;
    m_run.decodeTexts(m_session.runTokenizers()->find(modelHash).get());
    const int selected = m_stream->selectedStep();
    const QSignalBlocker quiet(m_stream);
    showRunSteps();
    m_stream->setSelectedStep(selected);
    showStep();
}

void ExploreView::setStrategyFromRun(const Strategy& strategy, std::uint64_t seed) {
    Strategy withSeed = strategy;
    withSeed.seed = seed;
    const bool replaces = !(withSeed == m_editor->strategy());
    m_editor->setStrategy(withSeed, tr("Strategy of run %1").arg(m_run.runId));
    // Not a question: the edit is one Undo away.
    if (replaces)
        emit statusMessage(tr("The editor now holds the strategy of run %1; Undo (Ctrl+Z) brings back the one you "
                              "were editing.")
                               .arg(m_run.runId));
}

void ExploreView::showStep() {
    const int step = m_stream->selectedStep();
    m_timeline->setSelectedStep(step);
    if (step < 0 || step >= static_cast<int>(m_run.steps.size())) {
        m_plot->clear(tr("Select a token to see its step."));
        m_details->clear();
        return;
    }
    // Token texts only from the tokenizer of the run's own model.
    const std::shared_ptr<const Tokenizer> runTokenizer = m_session.runTokenizers()->find(m_run.modelHash);
    const Tokenizer* tokenizer = runTokenizer.get();
    const int vocab = m_run.vocabSize;
    const int stage = m_details->selectedStage();
    // A beam or contrastive run drew by its decoder: a replay of its chain is a plain draw that never happened.
    const ReplayedStep* replay = m_run.strategy.decoder.isSample() ? m_inspector->replayOf(step) : nullptr;
    if (replay) {
        m_plot->setModel(buildDistributionModel(replay->trace, m_editor->strategy(), &replay->stages, stage, tokenizer,
                                                vocab, !editorMatchesRun()));
    } else {
        const StepTrace& trace = m_run.steps[static_cast<std::size_t>(step)].trace;
        m_plot->setModel(buildDistributionModel(trace, m_run.strategy, nullptr, -1, tokenizer, vocab));
        if (stage < 0 || m_pipelineStep != step) {
            m_details->fillPipeline(trace, m_run.strategy);
            m_pipelineStep = step;
        }
    }
    if (m_inspector->step() != step && !isGenerating())
        m_inspectDebounce->start();
    updateWhatIf();
}

void ExploreView::requestInspection() {
    if (!isGenerating())
        m_inspector->request(m_run, m_stream->selectedStep(), m_editor->strategy(), m_editor->seed());
}

void ExploreView::onInspected(int step) {
    if ((showsBeamTree() && m_beamTree->selectedNode() >= 0) || step != m_stream->selectedStep())
        return; // a beam node is shown, or the selection moved on (its own request follows)
    m_details->fillPipeline(m_inspector->replay()->trace, m_editor->strategy());
    m_pipelineStep = step;
    showStep();
    emit inspectionUpdated(step);
}

void ExploreView::forgetDeletedRun() {
    if (m_run.runId == 0 || !m_runs)
        return;
    const Result<bool> exists = m_runs->hasRun(m_run.runId);
    if (exists && !exists.value()) {
        m_run.runId = 0;
        m_streamPanel->setProgress(tr("This run was deleted; it is shown until you generate or open another."));
    }
}

void ExploreView::dropInspection() {
    m_inspector->drop();
    m_pipelineStep = -1;
}

void ExploreView::updateWhatIf() {
    const int step = m_stream->selectedStep();
    if (step < 0 || step >= static_cast<int>(m_run.steps.size())) {
        m_details->setText({});
        return;
    }
    const GeneratedStep& shown = m_run.steps[static_cast<std::size_t>(step)];
    StepSummary summary;
    summary.step = step;
    summary.drawn = &shown.trace;
    summary.remote = m_run.remote;
    if (const ReplayedStep* replay = m_inspector->replayOf(step))
        summary.whatIf = !editorMatchesRun() && m_run.strategy.decoder.isSample() ? &replay->trace : nullptr;
    else
        summary.storedOnly = m_session.model() && m_run.modelHash != m_session.model()->info.contentHash;
    summary.decoder = &shown.decoder;
    summary.decoderType = m_run.strategy.decoder.type;
    m_details->showSummary(summary, m_session.runTokenizers()->find(m_run.modelHash).get());
}

void ExploreView::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().size() == 1 &&
        event->mimeData()->urls().front().isLocalFile())
        event->acceptProposedAction();
}

void ExploreView::dropEvent(QDropEvent* event) {
    const QString path = event->mimeData()->urls().front().toLocalFile();
    event->acceptProposedAction();
    openModel(path);
}

} // namespace swb
