#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include "generation/Generator.h"
#include "generation/StepReplay.h"
#include "generation/TokenProbe.h"
#include "model/Model.h"
#include "serving/RemoteEngine.h"
#include "workflows/ComparisonRunner.h"
#include "workflows/RunRecording.h"
#include "workflows/SweepRunner.h"

namespace swb {

class Database;
class RunLogits;

// What the worker reports about a loaded model; the tokenizer is shared read-only with the GUI.
struct LoadedModelInfo {
    ModelInfo info;
    QStringList warnings;
    std::shared_ptr<const Tokenizer> tokenizer;
};

struct GenerationJob {
    quint64 id = 0;
    GenerationRequest request;
    RunProvenance provenance;
};

// A finished (or cancelled) sweep: its runs per cell and every cell's metrics.
struct SweepDone {
    SweepOutcome outcome;
    std::vector<SweepCellResult> results;
};

struct GenerationOutcome {
    GenerationResult result;
    qint64 runId = 0;        // 0 when the run could not be saved
    QString saveError;       // why, when it could not
};

// A request to re-apply a strategy to one step of a run on the loaded model.
struct InspectJob {
    quint64 id = 0;
    std::vector<TokenId> promptIds;
    std::vector<TokenId> tokens;
    int step = 0;
    Strategy strategy;
    std::uint64_t seed = 0;
    // A run of a remote model: its steps as the engine told them, replayed on their top-N candidates only.
    std::vector<StepTrace> traces;
};

// Owns the model and runs everything slow (loading, generation, step replay) on its own thread.
// Methods are invoked on the worker's thread (QMetaObject::invokeMethod); results come back as
// signals. requestStop(), requestCancelLoad(), takeTicket() and the skipping of stale inspections are
// safe from any thread.
//
// Loads, generations and comparisons are queued with a ticket taken when they are queued: a stop or a
// cancel reaches every job holding a ticket issued before it, whether it is running or still waiting in
// the queue (a flag reset when the job starts would lose a Stop pressed while it waited).
class InferenceWorker final : public QObject {
    Q_OBJECT

public:
    explicit InferenceWorker(QString databasePath);
    ~InferenceWorker() override;

    // path: a model's file or folder, or an OpenAI-compatible server's address (http(s)://host:port/v1, with
    // apiKey when it wants one): the engine then generates, and its answers are what the views show.
    void loadModel(quint64 id, quint64 ticket, const QString& path, const ModelOptions& options,
                   const QString& apiKey = {});
    // A generation; a beam decoder's search also reports each step as it is taken (beamStepTaken).
    void generate(const GenerationJob& job, quint64 ticket);
    // The distribution one beam weighed at a node of a beam search: the logits after promptIds and path but its
    // last token, through the strategy's processors, with that token as the chosen one.
    void traceBeamNode(quint64 id, const std::vector<TokenId>& promptIds, const std::vector<TokenId>& path,
                       const Strategy& strategy);
    void inspect(const InspectJob& job);
    // Follows one token through every step of a run (generation/TokenProbe.h) on the loaded model.
    void probe(quint64 id, const std::vector<TokenId>& promptIds, const std::vector<TokenId>& tokens,
               const Strategy& strategy, std::uint64_t seed, TokenId token);
    // Runs a comparison plan into the run store (progress at most ~20 times a second).
    void runComparison(quint64 id, quint64 ticket, const ComparisonPlan& plan);
    // Runs a sweep into the run store and measures its cells (progress at most ~20 times a second).
    void runSweep(quint64 id, quint64 ticket, const SweepSpec& spec);

    quint64 takeTicket() { return m_tickets.fetch_add(1) + 1; }
    // Stops the generations and comparisons queued so far (the running one within a step).
    void requestStop() {
        m_stopUpTo.store(m_tickets.load());
        m_stop.store(true);
    }
    // Stops the model loads queued so far at their next layer; the model loaded before stays.
    void requestCancelLoad() {
        m_cancelUpTo.store(m_tickets.load());
        m_cancelLoad.store(true);
    }
    // Inspections with an id below this are skipped (the GUI moved on).
    void setLatestInspect(quint64 id) { m_latestInspect.store(id); }

signals:
    void modelLoaded(quint64 id, const swb::LoadedModelInfo& model);
    void modelFailed(quint64 id, const QString& message);
    void loadProgress(quint64 id, int done, int total);
    void stepGenerated(quint64 id, const swb::GeneratedStep& step);
    void generationFinished(quint64 id, const swb::GenerationOutcome& outcome);
    void generationFailed(quint64 id, const QString& message);
    void beamStepTaken(quint64 id, const swb::BeamStep& step);
    void beamNodeTraced(quint64 id, const swb::StepTrace& trace);
    void stepInspected(quint64 id, const swb::ReplayedStep& replay);
    void inspectFailed(quint64 id, const QString& message);
    void tokenProbed(quint64 id, const swb::TokenProbe& probe);
    void probeFailed(quint64 id, const QString& message);
    void comparisonProgress(quint64 id, const swb::ComparisonProgress& progress);
    void comparisonFinished(quint64 id, const swb::ComparisonOutcome& outcome);
    void comparisonFailed(quint64 id, const QString& message);
    void sweepProgress(quint64 id, const swb::SweepProgress& progress);
    void sweepFinished(quint64 id, const swb::SweepDone& done);
    void sweepFailed(quint64 id, const QString& message);

private:
    Database* database(QString* error);
    void generateRemote(const GenerationJob& job);
    // Saves a finished generation to the run store and reports it.
    void finishGeneration(const GenerationJob& job, const ModelInfo& model, GenerationResult result);
    // The recomputed logits of a run's first `steps` steps (cached while the same run is looked at), or null
    // with the reason in error.
    const RunLogits* runLogits(const std::vector<TokenId>& promptIds, const std::vector<TokenId>& tokens, int steps,
                               QString* error);

    QString m_databasePath;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<Model> m_model;
    std::shared_ptr<const Tokenizer> m_tokenizer;
    // A remote model instead of m_model, and the token texts its answers gave.
    std::optional<RemoteModel> m_remote;
    std::shared_ptr<RemoteVocabulary> m_vocabulary;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_cancelLoad{false};
    std::atomic<quint64> m_tickets{0};
    std::atomic<quint64> m_stopUpTo{0};
    std::atomic<quint64> m_cancelUpTo{0};
    std::atomic<quint64> m_latestInspect{0};
    // Logits of the run last inspected, reused while the same run is inspected.
    std::vector<TokenId> m_cachedPrompt;
    std::vector<TokenId> m_cachedTokens;
    std::unique_ptr<RunLogits> m_cachedLogits;
};

} // namespace swb

Q_DECLARE_METATYPE(swb::LoadedModelInfo)
Q_DECLARE_METATYPE(swb::GeneratedStep)
Q_DECLARE_METATYPE(swb::GenerationOutcome)
Q_DECLARE_METATYPE(swb::ReplayedStep)
Q_DECLARE_METATYPE(swb::BeamStep)
Q_DECLARE_METATYPE(swb::StepTrace)
Q_DECLARE_METATYPE(swb::ComparisonProgress)
Q_DECLARE_METATYPE(swb::SweepProgress)
Q_DECLARE_METATYPE(swb::SweepDone)
Q_DECLARE_METATYPE(swb::TokenProbe)
Q_DECLARE_METATYPE(swb::ComparisonOutcome)
