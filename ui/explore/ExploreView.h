#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QPointer>
#include <QWidget>

#include "InferenceSession.h"
#include "evaluation/LoopRemedies.h"
#include "explore/DivergenceDialog.h"
#include "explore/ExploreRun.h"
#include "explore/PromptPanel.h"
#include "explore/ReplayDialog.h"
#include "explore/RunStreamPanel.h"
#include "explore/StepDetailsPanel.h"
#include "explore/StepInspector.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QTableWidget;
class QTimer;
class QToolButton;
class QRadioButton;
class QTabWidget;

namespace swb {

class Database;
class DistributionPlot;
class BeamTreeView;
class ConversationPanel;
class ModelBar;
class RunRepository;
class RunTokenizers;
class Settings;
class StrategyEditor;
class TimelinePlot;
class TokenProbeDialog;
class TokenStreamView;

// Explore: model bar, strategy editor, prompt, the token stream, timelines, the selected step's
// distribution and the chain's stages; what-if replay of a step with the edited chain, and
// branching from any candidate. Model work runs on InferenceWorker's thread.
class ExploreView final : public QWidget {
    Q_OBJECT

public:
    // database: the GUI thread's connection to the run store (may be null when it cannot be opened).
    ExploreView(Settings& settings, Database* database, InferenceSession& session, QWidget* parent = nullptr);
    ~ExploreView() override;

    // tokenizerPath: the tokenizer file to use with a model that needs one (a llama2.c checkpoint); when
    // empty, the one chosen for this model before, else the one found beside it.
    void openModel(const QString& path, const QString& tokenizerPath = {});
    // An OpenAI-compatible server as the model (address http(s)://host:port/v1); apiKey is kept for this
    // address until the app quits, never saved.
    void openRemoteModel(const QString& address, const QString& apiKey = {});
    // Whether the loaded model is a remote engine's.
    bool isRemoteModel() const { return m_session.isRemote(); }
    // The model of the last session, else the bundled demo model.
    void openLastModel();
    void cancelModelLoad() { m_session.cancelLoad(); }
    bool isModelLoaded() const { return m_session.model().has_value(); }
    bool isModelLoading() const { return m_session.isLoading(); }
    // The shown run may have been deleted (with a parent): it then counts as unsaved.
    void forgetDeletedRun();
    const std::optional<LoadedModelInfo>& loadedModel() const { return m_session.model(); }
    bool isGenerating() const { return m_session.holds(InferenceSession::Holder::Explore); }
    void generate();
    void stop();
    // Continues the current run from `step` with `token` in place of what was drawn there.
    void branch(int step, TokenId token);
    // Continues the current run from `step` with `text` (tokenized on its own) in place of what followed.
    void branchWithText(int step, const QString& text);
    // Asks for the run's text from `step` on, edited, and continues after it (branchWithText).
    void editAndContinue(int step);
    // Re-decodes the shown run with the edited strategy (same model, prompt and seed) as a new run, then shows
    // the two side by side from where they part (ReplayDialog), ready to become a comparison.
    void replayRun();
    QAction* replayAction() const { return m_streamPanel->replayAction(); }
    ReplayDialog* replayDialog() const { return m_replayDialog; }
    // The Divergence dialog with the loaded model as A and the prompt as its text; its "open this prefix"
    // opens model B here with that prefix as the prompt.
    DivergenceDialog* openDivergence();
    bool openRun(qint64 runId);
    void selectStep(int step);
    void saveSettings();

    const ExploreRun& run() const { return m_run; }
    const std::optional<ReplayedStep>& inspection() const { return m_inspector->replay(); }
    int inspectedStep() const { return m_inspector->step(); }
    InferenceWorker* worker() const { return m_session.worker(); }
    ModelBar* modelBar() const { return m_modelBar; }
    TokenStreamView* stream() const { return m_stream; }
    DistributionPlot* distribution() const { return m_plot; }
    TimelinePlot* timeline() const { return m_timeline; }
    StrategyEditor* strategyEditor() const { return m_editor; }
    QTableWidget* pipeline() const { return m_details->pipeline(); }
    QTableWidget* decoderTable() const { return m_details->decoderTable(); }
    QPlainTextEdit* promptEdit() const { return m_prompt; }
    ConversationPanel* conversation() const { return m_chat; }
    BeamTreeView* beamTree() const { return m_beamTree; }
    // Whether the beam tree (a beam search) is what the stream area shows.
    bool showsBeamTree() const { return m_streamPanel->showsBeamTree(); }
    bool isChatMode() const { return m_input->isChatMode(); }
    void setChatMode(bool on) { m_input->setChatMode(on); }
    // A chat template file to use instead of the loaded model's own (remembered for that model); empty:
    // the model's own again.
    void setChatTemplateFile(const QString& path) { m_session.setChatTemplateFile(path); }
    // Template text of the user's own for the loaded model (remembered; wins over a file); empty: none.
    void setChatTemplateText(const QString& text) { m_session.setChatTemplateText(text); }
    QSpinBox* maxTokens() const { return m_maxTokens; }
    // Repetition loops of the shown run (stats::findRepetitionLoops), marked on the timeline and named with
    // the samplers that address them above it.
    const std::vector<stats::RepetitionLoop>& loops() const { return m_loops; }
    QWidget* loopPanel() const { return m_streamPanel->loopPanel(); }
    // The remedies offered for the first loop, and one applied: the editor takes the run's strategy with it and
    // the step where it can act is selected, so the what-if replay shows whether it breaks the loop there.
    std::vector<LoopRemedy> loopRemediesOffered() const;
    void tryLoopRemedy(int index);
    // The token probe of the shown run, offering the selected step's candidates (`token` chosen when given);
    // null (with a status message) when the run's model is not the loaded one or the run is a remote engine's.
    TokenProbeDialog* openTokenProbe(TokenId token = -1);
    QAction* generateAction() const { return m_input->generateAction(); }
    QAction* stopAction() const { return m_input->stopAction(); }
    // Whether Explore is the tab in front: its window-wide Generate (Ctrl+Return) and Stop (Esc) shortcuts
    // only act then, so Sweep's Run and Cancel can take the same keys.
    void setFront(bool front);

signals:
    void modelReady(const QString& path);
    void generationStarted();
    void stepsAppended(int total);      // the stream grew (at most ~30 times a second)
    void generationEnded(qint64 runId); // 0 when it failed or was not saved
    void runSaved(qint64 runId);
    void comparisonMade(qint64 comparisonId);
    void inspectionUpdated(int step);
    void statusMessage(const QString& text);
    // A failure the user should see until dismissed (MainWindow's message bar).
    void errorMessage(const QString& text);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    void layOutViews();
    void connectSession();
    // Whether the shown run can be replayed (replay) or branched on the loaded model; says why not.
    bool canContinueRun(bool replay);
    void startJob(GenerationJob job, const QString& shownPrompt);
    void startBranch(int step, const std::vector<TokenId>& continuation, const QString& continuationText);
    void onBeamStep(quint64 id, const BeamStep& step);
    void traceBeamNode(int index);
    void onBeamNodeTraced(const StepTrace& trace);
    void showBeamSearch(const BeamResult& result);
    void onModelLoaded(const LoadedModelInfo& model, bool late);
    void onStep(quint64 id, const GeneratedStep& step);
    void onFinished(quint64 id, const GenerationOutcome& outcome);
    void onFailed(quint64 id, const QString& message);
    void onInspected(int step);
    void flushPending();
    void showRunSteps();
    void onRunTokenizerAvailable(const QString& modelHash);
    void requestInspection();
    void showStep();
    // Forgets the replay shown and any still on its way (a new run is displayed).
    void dropInspection();
    void updateWhatIf();
    void updateLoops();
    void updateButtons();
    // The editor holds the shown run's chain and seed: a replay of a step is then the run's own draw.
    bool editorMatchesRun() const;
    void setStrategyFromRun(const Strategy& strategy, std::uint64_t seed);

    Settings& m_settings;
    Database* m_database = nullptr;
    std::unique_ptr<RunRepository> m_runs;
    InferenceSession& m_session;

    quint64 m_jobId = 0;
    bool m_front = true;
    ExploreRun m_run;
    std::vector<GeneratedStep> m_pending;
    StepInspector* m_inspector = nullptr;
    int m_pipelineStep = -1; // the step whose stages the pipeline table shows
    int m_maxTokensOfJob = 0;

    ModelBar* m_modelBar = nullptr;
    StrategyEditor* m_editor = nullptr;
    QPlainTextEdit* m_prompt = nullptr;
    PromptPanel* m_input = nullptr;
    ConversationPanel* m_chat = nullptr;
    // A chat generation's reply starts with this (a branch keeps the reply up to its step).
    QString m_chatReplyPrefix;
    QSpinBox* m_maxTokens = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_stop = nullptr;
    RunStreamPanel* m_streamPanel = nullptr;
    TokenStreamView* m_stream = nullptr; // the panel's
    BeamTreeView* m_beamTree = nullptr;  // the panel's
    TimelinePlot* m_timeline = nullptr;
    DistributionPlot* m_plot = nullptr;
    StepDetailsPanel* m_details = nullptr;
    std::vector<stats::RepetitionLoop> m_loops;
    TokenProbeDialog* m_probe = nullptr;
    ReplayDialog* m_replayDialog = nullptr;
    QPointer<DivergenceDialog> m_divergenceDialog;
    std::optional<ReplayDialog::Side> m_replayOf; // the run a replay now generating started from
    QSplitter* m_mainSplitter = nullptr;
    QSplitter* m_rightSplitter = nullptr;
    QSplitter* m_bottomSplitter = nullptr;
    QTimer* m_flush = nullptr;
    QTimer* m_inspectDebounce = nullptr;
};

} // namespace swb
