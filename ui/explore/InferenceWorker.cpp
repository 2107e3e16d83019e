#include "explore/InferenceWorker.h"

#include <algorithm>

#include <QElapsedTimer>

#include "generation/ForcedSteps.h"
#include "generation/StepScorer.h"
#include "model/Model.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb {

InferenceWorker::InferenceWorker(QString databasePath)
    : m_databasePath(std::move(databasePath)) {
    qRegisterMetaType<swb::LoadedModelInfo>();
    qRegisterMetaType<swb::GeneratedStep>();
    qRegisterMetaType<swb::GenerationOutcome>();
    qRegisterMetaType<swb::ReplayedStep>();
    qRegisterMetaType<swb::BeamStep>();
    qRegisterMetaType<swb::StepTrace>();
    qRegisterMetaType<swb::ComparisonProgress>();
    qRegisterMetaType<swb::ComparisonOutcome>();
}

InferenceWorker::~InferenceWorker() = default;

Database* InferenceWorker::database(QString* error) {
    if (!m_database) {
        Result<std::unique_ptr<Database>> opened = Database::open(m_databasePath);
        if (!opened) {
            *error = opened.error().message;
            return nullptr;
        }
        m_database = std::move(opened).value();
    }
    return m_database.get();
}

namespace {

// Arms a job's flag from its ticket. In this order a request made at any moment is kept: one before
// the reset has already raised `upTo`, one after it sets the flag itself.
void arm(std::atomic<bool>& flag, const std::atomic<quint64>& upTo, quint64 ticket) {
    flag.store(false);
    if (ticket <= upTo.load())
        flag.store(true);
}

} // namespace

void InferenceWorker::loadModel(quint64 id, quint64 ticket, const QString& path, const ModelOptions& options) {
    arm(m_cancelLoad, m_cancelUpTo, ticket);
    if (m_cancelLoad.load()) {
        emit modelFailed(id, tr("Loading the model was cancelled."));
        return;
    }
    ModelOptions withProgress = options;
    withProgress.progress = [this, id](int done, int total) {
        emit loadProgress(id, done, total);
        return !m_cancelLoad.load();
    };
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(path, options.tokenizerPath);
    if (!tokenizer) {
        emit modelFailed(id, tokenizer.error().message);
        return;
    }
    Result<std::unique_ptr<Model>> model = Model::load(path, withProgress);
    if (!model) {
        emit modelFailed(id, model.error().message);
        return;
    }
    if (tokenizer.value()->vocabSize() > model.value()->info().vocabSize) {
        emit modelFailed(id, tr("The tokenizer has %1 tokens but the model %2 only %3.")
                                 .arg(tokenizer.value()->vocabSize())
                                 .arg(path)
                                 .arg(model.value()->info().vocabSize));
        return;
    }
    m_model = std::move(model).value();
    m_tokenizer = std::shared_ptr<const Tokenizer>(std::move(tokenizer).value());
    m_cachedLogits.reset();
    emit modelLoaded(id, LoadedModelInfo{m_model->info(), m_model->warnings(), m_tokenizer});
}

void InferenceWorker::generate(const GenerationJob& job, quint64 ticket) {
    if (!m_model) {
        emit generationFailed(job.id, tr("No model is loaded."));
        return;
    }
    arm(m_stop, m_stopUpTo, ticket);
    Generator generator(*m_model, *m_tokenizer);
    // A beam decoder's search shows step by step; its run (the best hypothesis) comes as any run's.
    generator.setBeamObserver([this, &job](const BeamStep& step) { emit beamStepTaken(job.id, step); });
    Result<GenerationResult> result = generator.generate(
        job.request,
        [this, &job](const GeneratedStep& step) {
            emit stepGenerated(job.id, step);
            return true;
        },
        &m_stop);
    if (!result) {
        emit generationFailed(job.id, result.error().message);
        return;
    }
    GenerationOutcome outcome;
    outcome.result = std::move(result).value();
    QString error;
    if (Database* db = database(&error)) {
        RunRepository runs(*db);
        Result<RunRecord> saved = saveGeneration(runs, m_model->info(), job.request, outcome.result, job.provenance);
        if (saved)
            outcome.runId = saved->id;
        else
            outcome.saveError = saved.error().message;
    } else {
        outcome.saveError = error;
    }
    emit generationFinished(job.id, outcome);
}

void InferenceWorker::traceBeamNode(quint64 id, const std::vector<TokenId>& promptIds, const std::vector<TokenId>& path,
                                    const Strategy& strategy) {
    if (!m_model || path.empty()) {
        emit inspectFailed(id, tr("No model is loaded."));
        return;
    }
    std::vector<TokenId> history = promptIds;
    history.insert(history.end(), path.begin(), path.end() - 1);
    std::unique_ptr<Model::State> state = m_model->newState();
    Result<std::vector<float>> logits = m_model->forward(*state, history);
    if (!logits) {
        emit inspectFailed(id, logits.error().message);
        return;
    }
    const double partition = logPartition(logits.value());
    for (float& x : logits.value())
        x = static_cast<float>(double(x) - partition);
    Result<ForcedTracer> tracer = ForcedTracer::create(strategy, *m_tokenizer, 64);
    if (!tracer) {
        emit inspectFailed(id, tracer.error().message);
        return;
    }
    Result<StepTrace> trace = tracer->trace(logits.value(), history, path.back(), TraceLevel::Full);
    if (!trace) {
        emit inspectFailed(id, trace.error().message);
        return;
    }
    emit beamNodeTraced(id, trace.value());
}

void InferenceWorker::inspect(const InspectJob& job) {
    if (job.id < m_latestInspect.load())
        return;
    if (!m_model) {
        emit inspectFailed(job.id, tr("No model is loaded."));
        return;
    }
    const int steps = job.step + 1;
    const auto prefix = static_cast<std::size_t>(steps - 1);
    const bool cached = m_cachedLogits && m_cachedPrompt == job.promptIds && m_cachedLogits->steps() >= steps &&
                        job.tokens.size() >= prefix && m_cachedTokens.size() >= prefix &&
                        std::equal(job.tokens.begin(), job.tokens.begin() + steps - 1, m_cachedTokens.begin());
    if (!cached) {
        // Recompute the whole run once; its other steps are then free.
        Result<RunLogits> logits =
            RunLogits::compute(*m_model, job.promptIds, job.tokens, static_cast<int>(job.tokens.size()));
        if (!logits) {
            m_cachedLogits.reset();
            emit inspectFailed(job.id, logits.error().message);
            return;
        }
        m_cachedLogits = std::make_unique<RunLogits>(std::move(logits).value());
        m_cachedPrompt = job.promptIds;
        m_cachedTokens = job.tokens;
    }
    Result<ReplayedStep> replay =
        replayStep(*m_cachedLogits, job.promptIds, job.tokens, job.step, job.strategy, job.seed, m_tokenizer.get());
    if (!replay) {
        emit inspectFailed(job.id, replay.error().message);
        return;
    }
    emit stepInspected(job.id, replay.value());
}

void InferenceWorker::runComparison(quint64 id, quint64 ticket, const ComparisonPlan& plan) {
    if (!m_model) {
        emit comparisonFailed(id, tr("No model is loaded."));
        return;
    }
    QString error;
    Database* db = database(&error);
    if (!db) {
        emit comparisonFailed(id, error);
        return;
    }
    arm(m_stop, m_stopUpTo, ticket);
    QElapsedTimer throttle;
    throttle.start();
    Result<ComparisonOutcome> outcome = runComparisonPlan(
        *m_model, *m_tokenizer, *db, plan,
        [&](const ComparisonProgress& progress) {
            if (throttle.elapsed() >= 50 || progress.done == progress.total) {
                throttle.restart();
                emit comparisonProgress(id, progress);
            }
        },
        &m_stop);
    if (!outcome) {
        emit comparisonFailed(id, outcome.error().message);
        return;
    }
    emit comparisonFinished(id, outcome.value());
}

} // namespace swb
