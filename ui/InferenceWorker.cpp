#include "InferenceWorker.h"

#include <algorithm>
#include <cmath>

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
    qRegisterMetaType<swb::SweepProgress>();
    qRegisterMetaType<swb::SweepDone>();
    qRegisterMetaType<swb::TokenProbe>();
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

void InferenceWorker::loadModel(quint64 id, quint64 ticket, const QString& path, const ModelOptions& options,
                                const QString& apiKey) {
    arm(m_cancelLoad, m_cancelUpTo, ticket);
    if (m_cancelLoad.load()) {
        emit modelFailed(id, tr("Loading the model was cancelled."));
        return;
    }
    if (isRemoteModelAddress(path)) {
        emit loadProgress(id, 0, 1);
        Result<RemoteModel> remote = connectRemoteModel(path, apiKey);
        if (!remote) {
            emit modelFailed(id, remote.error().message);
            return;
        }
        if (m_cancelLoad.load()) {
            emit modelFailed(id, tr("Loading the model was cancelled."));
            return;
        }
        m_model.reset();
        m_remote = std::move(remote).value();
        m_vocabulary = std::make_shared<RemoteVocabulary>(remoteEngineName(m_remote->engine));
        m_tokenizer = m_vocabulary;
        m_cachedLogits.reset();
        emit modelLoaded(id, LoadedModelInfo{remoteModelInfo(*m_remote), {}, m_tokenizer});
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
    m_remote.reset();
    m_vocabulary.reset();
    m_tokenizer = std::shared_ptr<const Tokenizer>(std::move(tokenizer).value());
    m_cachedLogits.reset();
    emit modelLoaded(id, LoadedModelInfo{m_model->info(), m_model->warnings(), m_tokenizer});
}

void InferenceWorker::generateRemote(const GenerationJob& job) {
    const RemoteRequest request = remoteRequestFor(job.request, 20);
    Result<RemoteResult> remote = remoteGenerate(
        *m_remote, request,
        [this, &job](const RemoteStep& step) {
            m_vocabulary->learn(step);
            emit stepGenerated(job.id, toGeneratedStep(step));
            return !m_stop.load();
        },
        &m_stop);
    if (!remote) {
        emit generationFailed(job.id, remote.error().message);
        return;
    }
    finishGeneration(job, remoteModelInfo(*m_remote), remoteGenerationResult(*m_remote, remote.value(), request));
}

void InferenceWorker::finishGeneration(const GenerationJob& job, const ModelInfo& model, GenerationResult result) {
    GenerationOutcome outcome;
    outcome.result = std::move(result);
    QString error;
    if (Database* db = database(&error)) {
        RunRepository runs(*db);
        Result<RunRecord> saved = saveGeneration(runs, model, job.request, outcome.result, job.provenance);
        if (saved)
            outcome.runId = saved->id;
        else
            outcome.saveError = saved.error().message;
    } else {
        outcome.saveError = error;
    }
    emit generationFinished(job.id, outcome);
}

void InferenceWorker::generate(const GenerationJob& job, quint64 ticket) {
    if (m_remote) {
        arm(m_stop, m_stopUpTo, ticket);
        generateRemote(job);
        return;
    }
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
    finishGeneration(job, m_model->info(), std::move(result).value());
}

void InferenceWorker::traceBeamNode(quint64 id, const std::vector<TokenId>& promptIds, const std::vector<TokenId>& path,
                                    const Strategy& strategy) {
    if (m_remote) {
        emit inspectFailed(id, tr("A remote engine does not search beams here."));
        return;
    }
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
    if (!job.traces.empty()) {
        // A remote run: the edited chain over each step's top-N candidates, as the engine gave them.
        Result<RunLogits> logits = RunLogits::fromTopCandidates(job.traces, job.step + 1);
        if (!logits) {
            emit inspectFailed(job.id, logits.error().message);
            return;
        }
        int known = 0;
        for (const TopCandidate& c : job.traces[static_cast<std::size_t>(job.step)].top)
            known += c.id >= 0 && c.rawP > 0.0f ? 1 : 0;
        Result<ReplayedStep> replay = replayStep(logits.value(), job.promptIds, job.tokens, job.step, job.strategy,
                                                 job.seed, m_tokenizer.get(), known);
        if (!replay) {
            emit inspectFailed(job.id, replay.error().message);
            return;
        }
        // Raw probabilities stay the engine's (the logits were its log-probabilities), not renormalised over
        // the candidates: the unseen rest is still "others".
        for (TopCandidate& c : replay->trace.top)
            c.rawP = std::exp(c.logit);
        for (const TopCandidate& c : replay->trace.top)
            if (c.id == replay->trace.chosen)
                replay->trace.rawP = c.rawP;
        // Survivor counts among the candidates (tokens the engine did not name were never possible here).
        for (StageTrace& stage : replay->trace.stages)
            stage.kept = std::min(stage.kept, known);
        for (StageDistribution& stage : replay->stages)
            stage.stage.kept = std::min(stage.stage.kept, known);
        replay->trace.finalCount = std::min(replay->trace.finalCount, known);
        emit stepInspected(job.id, replay.value());
        return;
    }
    if (!m_model) {
        emit inspectFailed(job.id, tr("No model is loaded."));
        return;
    }
    QString error;
    const RunLogits* logits = runLogits(job.promptIds, job.tokens, job.step + 1, &error);
    if (!logits) {
        emit inspectFailed(job.id, error);
        return;
    }
    Result<ReplayedStep> replay =
        replayStep(*logits, job.promptIds, job.tokens, job.step, job.strategy, job.seed, m_tokenizer.get());
    if (!replay) {
        emit inspectFailed(job.id, replay.error().message);
        return;
    }
    emit stepInspected(job.id, replay.value());
}

const RunLogits* InferenceWorker::runLogits(const std::vector<TokenId>& promptIds, const std::vector<TokenId>& tokens,
                                           int steps, QString* error) {
    const auto prefix = static_cast<std::size_t>(steps - 1);
    const bool cached = m_cachedLogits && m_cachedPrompt == promptIds && m_cachedLogits->steps() >= steps &&
                        tokens.size() >= prefix && m_cachedTokens.size() >= prefix &&
                        std::equal(tokens.begin(), tokens.begin() + steps - 1, m_cachedTokens.begin());
    if (!cached) {
        // Recompute the whole run once; its other steps are then free.
        Result<RunLogits> logits = RunLogits::compute(*m_model, promptIds, tokens, static_cast<int>(tokens.size()));
        if (!logits) {
            m_cachedLogits.reset();
            *error = logits.error().message;
            return nullptr;
        }
        m_cachedLogits = std::make_unique<RunLogits>(std::move(logits).value());
        m_cachedPrompt = promptIds;
        m_cachedTokens = tokens;
    }
    return m_cachedLogits.get();
}

void InferenceWorker::probe(quint64 id, const std::vector<TokenId>& promptIds, const std::vector<TokenId>& tokens,
                            const Strategy& strategy, std::uint64_t seed, TokenId token) {
    if (!m_model) {
        emit probeFailed(id, m_remote ? tr("The token probe needs the whole distribution at every step; a remote "
                                           "engine gives only its top candidates.")
                                      : tr("No model is loaded."));
        return;
    }
    if (tokens.empty()) {
        emit probeFailed(id, tr("The run has no steps to probe."));
        return;
    }
    QString error;
    const RunLogits* logits = runLogits(promptIds, tokens, static_cast<int>(tokens.size()), &error);
    if (!logits) {
        emit probeFailed(id, error);
        return;
    }
    Result<TokenProbe> result = probeToken(*logits, promptIds, tokens, strategy, seed, token, m_tokenizer.get());
    if (!result) {
        emit probeFailed(id, result.error().message);
        return;
    }
    emit tokenProbed(id, result.value());
}

void InferenceWorker::runComparison(quint64 id, quint64 ticket, const ComparisonPlan& plan) {
    if (!m_model && !m_remote) {
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
    const auto progress = [&](const ComparisonProgress& progress) {
        if (throttle.elapsed() >= 50 || progress.done == progress.total) {
            throttle.restart();
            emit comparisonProgress(id, progress);
        }
    };
    Result<ComparisonOutcome> outcome =
        m_remote ? runComparisonPlan(remoteRunSource(*m_remote, m_vocabulary), *db, plan, progress, &m_stop)
                 : runComparisonPlan(*m_model, *m_tokenizer, *db, plan, progress, &m_stop);
    if (!outcome) {
        emit comparisonFailed(id, outcome.error().message);
        return;
    }
    emit comparisonFinished(id, outcome.value());
}

void InferenceWorker::runSweep(quint64 id, quint64 ticket, const SweepSpec& spec) {
    if (!m_model && !m_remote) {
        emit sweepFailed(id, tr("No model is loaded."));
        return;
    }
    QString error;
    Database* db = database(&error);
    if (!db) {
        emit sweepFailed(id, error);
        return;
    }
    arm(m_stop, m_stopUpTo, ticket);
    QElapsedTimer throttle;
    throttle.start();
    const auto progress = [&](const SweepProgress& progress) {
        if (throttle.elapsed() >= 50 || progress.done == progress.total) {
            throttle.restart();
            emit sweepProgress(id, progress);
        }
    };
    Result<SweepOutcome> outcome = m_remote ? swb::runSweep(remoteRunSource(*m_remote, m_vocabulary), *db, spec, progress, &m_stop)
                                            : swb::runSweep(*m_model, *m_tokenizer, *db, spec, progress, &m_stop);
    if (!outcome) {
        emit sweepFailed(id, outcome.error().message);
        return;
    }
    Result<std::vector<SweepCellResult>> results = sweepResults(*db, outcome.value());
    if (!results) {
        emit sweepFailed(id, results.error().message);
        return;
    }
    emit sweepFinished(id, SweepDone{std::move(outcome).value(), std::move(results).value()});
}

} // namespace swb
