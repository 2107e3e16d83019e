#pragma once

#include <optional>

#include <QObject>

#include "InferenceWorker.h"

namespace swb {

class InferenceSession;
struct ExploreRun;

// The what-if replay of one step of the shown run with the edited chain, on the session's worker. Only the
// latest request counts: those queued before it are skipped, and an answer to an older one is dropped.
class StepInspector final : public QObject {
    Q_OBJECT

public:
    explicit StepInspector(InferenceSession& session, QObject* parent = nullptr);

    // Asks for `step` of `run` replayed with `strategy`; false (nothing asked) when the run cannot be replayed on
    // the loaded model: not its model, not saved with its prompt's ids, or the step is not one of its.
    bool request(const ExploreRun& run, int step, const Strategy& strategy, std::uint64_t seed);
    // Asks for the distribution one beam weighed at a node of the run's beam search (the path to it, the node's
    // token last); false when the run's model is not the loaded one or the worker is busy with a long job.
    bool traceBeamNode(const ExploreRun& run, const std::vector<TokenId>& path);
    // Forgets the replay shown and any still on its way (another run is shown, or a beam node is traced).
    void drop();
    // The last replay received and its step (-1: none).
    const std::optional<ReplayedStep>& replay() const { return m_replay; }
    int step() const { return m_step; }
    // The replay when it is of `step`; null otherwise.
    const ReplayedStep* replayOf(int step) const { return m_replay && m_step == step ? &*m_replay : nullptr; }

signals:
    void replayed(int step);
    void failed(const QString& message);
    void beamNodeTraced(const swb::StepTrace& trace);

private:
    InferenceSession& m_session;
    quint64 m_id = 0; // the request that counts
    quint64 m_beamNodeId = 0;
    int m_requested = -1;
    std::optional<ReplayedStep> m_replay;
    int m_step = -1;
};

} // namespace swb
