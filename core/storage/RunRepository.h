#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <QDateTime>
#include <QString>
#include <QStringList>

#include "Result.h"
#include "sampling/StepTrace.h"
#include "sampling/Strategy.h"

class QSqlQuery;

namespace swb {

class Database;

// A model as the run store knows it (what identifies the weights a run came from).
struct ModelRecord {
    qint64 id = 0;
    QString path;
    QString format;
    QString architecture;
    QString contentHash;
    qint64 parameters = 0;
    QString infoJson = QStringLiteral("{}");
};

// How a run was computed: what besides the model and the strategy can move its numbers (fast math, the
// compute dtype, the device, the kernels' vector path) or its speed (threads). Stored with each run since
// schema 6; a field left empty (or nullopt) is unknown: runs stored before, and what a remote engine does not
// say.
struct RunSetup {
    std::optional<int> threads;
    std::optional<bool> fastMath;
    QString computeDtype; // "f32", "f16", "bf16"
    QString device;       // "cpu", "cuda", "remote"
    QString kernelPath;   // "avx512", "avx2", "portable" (our kernels), "libtorch"
    bool known() const {
        return threads || fastMath || !computeDtype.isEmpty() || !device.isEmpty() || !kernelPath.isEmpty();
    }
    bool operator==(const RunSetup&) const = default;
};

// The fields two runs both recorded with different values, in RunSetup's order, by their report names
// ("threads", "fast_math", "compute_dtype", "device", "kernel_path"). A field one of them left unknown is
// not a difference anyone can see.
QStringList setupDifferences(const RunSetup& a, const RunSetup& b);
// For queries on the runs table elsewhere (reports): its five setup columns, each prefixed with `alias.` when
// given, and the RunSetup read back from a row whose columns first, first + 1, … are those.
QString setupColumns(const QString& alias = {});
RunSetup setupFromRow(const QSqlQuery& row, int first);

// One generation: its inputs, its output and every step's trace. tokens are steps[i].chosen.
struct RunRecord {
    qint64 id = 0;
    qint64 modelId = 0;
    qint64 strategyId = 0;
    std::optional<qint64> promptId;
    QString promptText;
    std::vector<TokenId> promptIds;
    std::uint64_t seed = 0;
    QString text;
    int tokenCount = 0;
    QString finishReason;
    double timeToFirstTokenMs = 0.0;
    double tokensPerSecond = 0.0;
    std::optional<qint64> parentRunId;
    std::optional<int> branchStep;
    QString batchKey; // set by `swb batch` so a resumed batch finds its finished work
    // The conversation the prompt was rendered from (JSON: messages, and tools when given); empty for a
    // raw prompt. promptText is then the chat template's rendering.
    QString messagesJson;
    // What a decoder other than sampling recorded (compact JSON, see generation/DecoderTrace.h: beam steps and
    // hypotheses, contrastive candidates); empty for sampled runs. Stored compressed (runs.decoder_trace).
    QByteArray decoderTrace;
    RunSetup setup;
    QDateTime createdAt;
    std::vector<StepTrace> steps;
    // The text each step's token completed, decoded in context (UTF-8); empty for runs saved before the
    // store kept it. Either empty or one per step.
    std::vector<std::string> stepTexts;
    bool operator==(const RunRecord&) const;
};

// A row of the run list: enough to show and filter without loading steps.
struct RunSummary {
    qint64 id = 0;
    qint64 strategyId = 0;
    QString strategyName;
    QString modelPath;
    QString promptText;
    QString text;
    int tokenCount = 0;
    QString finishReason;
    std::optional<qint64> parentRunId;
    std::optional<int> branchStep;
    double tokensPerSecond = 0.0;
    RunSetup setup;
    QDateTime createdAt;
};

// Models, strategies, runs and their steps. A run and all its steps are written in one transaction.
class RunRepository {
public:
    explicit RunRepository(Database& database)
        : m_db(database) {}

    // Upserts by (content hash, path).
    Result<qint64> saveModel(const ModelRecord& model);
    Result<ModelRecord> loadModel(qint64 id);
    // Deduplicated by Strategy::hash(); a name given later fills an empty one.
    Result<qint64> saveStrategy(const Strategy& strategy);
    Result<Strategy> loadStrategy(qint64 id);
    // Saves the strategy under name (renaming it if it was saved before); returns its id.
    Result<qint64> saveNamedStrategy(const Strategy& strategy, const QString& name);
    // Strategies with a name, by name.
    Result<std::vector<std::pair<qint64, Strategy>>> listNamedStrategies();
    // The strategy saved under name (the first saved, when several share it); nullopt when none is.
    Result<std::optional<Strategy>> findNamedStrategy(const QString& name);
    // The strategy swb serve serves by default (the last one PUT), kept under its own name; nullopt when none was
    // set (or it was deleted).
    Status setServedStrategy(qint64 strategyId);
    Result<std::optional<Strategy>> servedStrategy();

    // Saves run and its steps atomically and sets run.id (and createdAt when unset).
    Status saveRun(RunRecord& run);
    Result<RunRecord> loadRun(qint64 id, bool withSteps = true);
    Result<std::vector<RunSummary>> listRuns();
    Result<std::optional<qint64>> findRunByBatchKey(const QString& key);
    // Whether a run of this id is in the store.
    Result<bool> hasRun(qint64 id);
    // Every run's id, ascending.
    Result<std::vector<qint64>> runIds();
    // Deletes the run, its steps and its branches (ON DELETE CASCADE).
    Status deleteRun(qint64 id);

private:
    Database& m_db;
};

} // namespace swb
