#include "explore/StepInspector.h"

#include "InferenceSession.h"
#include "explore/ExploreRun.h"

namespace swb {

StepInspector::StepInspector(InferenceSession& session, QObject* parent)
    : QObject(parent)
    , m_session(session) {
    connect(m_session.worker(), &InferenceWorker::stepInspected, this, [this](quint64 id, const ReplayedStep& replay) {
        if (id != m_id)
            return;
        m_replay = replay;
        m_step = m_requested;
        emit replayed(m_step);
    });
    connect(m_session.worker(), &InferenceWorker::beamNodeTraced, this, [this](quint64 id, const StepTrace& trace) {
        if (id == m_beamNodeId)
            emit beamNodeTraced(trace);
    });
    connect(m_session.worker(), &InferenceWorker::inspectFailed, this, [this](quint64 id, const QString& message) {
        if (id == m_id)
            emit failed(message);
    });
}

bool StepInspector::request(const ExploreRun& run, int step, const Strategy& strategy, std::uint64_t seed) {
    const std::optional<LoadedModelInfo>& model = m_session.model();
    if (!model || step < 0 || step >= static_cast<int>(run.steps.size()) || (run.promptIds.empty() && !run.remote) ||
        run.modelHash != model->info.contentHash)
        return false;
    InspectJob job = run.inspectJob(step, strategy, seed);
    job.id = m_session.nextId();
    m_id = job.id;
    m_requested = step;
    m_session.worker()->setLatestInspect(job.id);
    QMetaObject::invokeMethod(m_session.worker(),
                              [worker = m_session.worker(), job = std::move(job)] { worker->inspect(job); });
    return true;
}

bool StepInspector::traceBeamNode(const ExploreRun& run, const std::vector<TokenId>& path) {
    const std::optional<LoadedModelInfo>& model = m_session.model();
    if (!model || m_session.holder() != InferenceSession::Holder::None || run.promptIds.empty() ||
        run.modelHash != model->info.contentHash)
        return false;
    drop(); // the node's distribution, not a replay of the best path's step, fills the plot
    m_beamNodeId = m_session.nextId();
    QMetaObject::invokeMethod(m_session.worker(),
                              [worker = m_session.worker(), id = m_beamNodeId, prompt = run.promptIds, path,
                               strategy = run.strategy] { worker->traceBeamNode(id, prompt, path, strategy); });
    return true;
}

void StepInspector::drop() {
    m_replay.reset();
    m_step = -1;
    m_requested = -1;
    m_id = 0;
    m_session.worker()->setLatestInspect(m_session.nextId()); // replays already queued are skipped
}

} // namespace swb
