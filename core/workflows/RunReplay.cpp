#include "workflows/RunReplay.h"

#include <algorithm>

#include "Rng.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"

namespace swb {

int firstDivergence(const std::vector<TokenId>& a, const std::vector<TokenId>& b) {
    const auto [left, right] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    if (left == a.end() && right == b.end())
        return -1;
    return static_cast<int>(left - a.begin());
}

Result<qint64> saveReplayComparison(Database& database, qint64 runId, qint64 replayId) {
    if (runId == replayId)
        return Error::badInput(QStringLiteral("a run cannot be compared with itself"));
    RunRepository runs(database);
    Result<RunRecord> run = runs.loadRun(runId, false);
    if (!run)
        return run.error();
    Result<RunRecord> replay = runs.loadRun(replayId, false);
    if (!replay)
        return replay.error();
    if (run->promptIds != replay->promptIds)
        return Error::badInput(QStringLiteral("runs %1 and %2 have different prompts, so they are not a replay pair")
                                   .arg(runId)
                                   .arg(replayId));
    ComparisonRecord comparison;
    comparison.promptId = run->promptId;
    comparison.promptText = run->promptText;
    comparison.blind = true;
    Pcg64 shuffle;
    shuffle.seedWith(static_cast<std::uint64_t>(runId) * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(replayId));
    const bool swap = (shuffle.next() & 1) != 0;
    comparison.entries = {{0, runId, swap ? QStringLiteral("B") : QStringLiteral("A"), swap ? 1 : 0},
                          {1, replayId, swap ? QStringLiteral("A") : QStringLiteral("B"), swap ? 0 : 1}};
    ComparisonRepository comparisons(database);
    if (Status status = comparisons.saveComparison(comparison); !status)
        return status.error();
    return comparison.id;
}

} // namespace swb
