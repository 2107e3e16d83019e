#pragma once

// The statements the reports read: rows of the run store in a report's scope (every run, or one model's).
// evaluation/Reports computes and formats from them; no SQL is written outside storage.

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include <QDateTime>
#include <QHash>
#include <QString>
#include <QStringList>

#include "Result.h"
#include "storage/RunRepository.h"

namespace swb {

class Database;

struct RunReportRow {
    qint64 runId = 0;
    QString model; // the model's path as recorded
    qint64 strategyId = 0;
    QString strategy;     // the strategy's report label (see Reports::strategyLabels)
    QString strategyJson; // canonical samplers JSON
    std::uint64_t seed = 0;
    QString prompt;
    QString text;
    int tokens = 0;
    QString finishReason;
    double ttftMs = std::numeric_limits<double>::quiet_NaN();
    double tokensPerSecond = std::numeric_limits<double>::quiet_NaN();
    std::optional<qint64> parentRunId;
    std::optional<int> branchStep;
    QDateTime createdAt;
    RunSetup setup; // how the run was computed; unknown fields for runs stored before schema 6
};

struct StepReportRow {
    qint64 runId = 0;
    int step = 0;
    int tokenId = 0;
    QString tokenText; // the token's decoded text when a tokenizer was at hand, else empty
    // What the store keeps: the text the step added as it was generated (NULL in old stores: empty), and
    // whether the run came from a remote engine (its tokenizer is the engine's, not a file of ours).
    QString storedText;
    bool remote = false;
    float rawP = 0.0f;
    float finalP = 0.0f;
    int rawRank = 0;
    double rawEntropy = 0.0;
    double finalEntropy = 0.0;
    int finalCount = 0;
};

// A strategy that has runs in scope, as stored.
struct ReportStrategy {
    qint64 id = 0;
    QString name;
    QString json;
};

// The chosen tokens of one run with their raw probability and entropy, in step order (the text metrics).
struct RunSteps {
    std::vector<int> tokens;
    std::vector<double> rawP;
    std::vector<double> rawEntropy;
};

// A model the store's runs came from: its content hash, the path recorded last, and its runs.
struct StoredModel {
    QString contentHash;
    QString path;
    int runs = 0;
};

class ReportQueries {
public:
    // modelHash: the content hash of the one model whose runs count; empty for every run.
    ReportQueries(Database& database, QString modelHash = {})
        : m_db(database)
        , m_modelHash(std::move(modelHash)) {}

    // Strategies with runs in scope, by id.
    Result<std::vector<ReportStrategy>> strategies();
    // Each run in scope with its strategy's id.
    Result<std::vector<std::pair<qint64, qint64>>> runStrategies();
    // The runs in scope, by id (strategy labels left empty).
    Result<std::vector<RunReportRow>> runs();
    // Every step of the runs in scope, by run and step, with the path of its run's model (tokenText empty).
    Status forEachStep(const std::function<void(const StepReportRow&, const QString& modelPath)>& visit);
    // Every stored run's steps (all models), by run id.
    Result<QHash<qint64, RunSteps>> stepSeries();

    // The models of the store's runs, by path.
    static Result<std::vector<StoredModel>> models(Database& database);
    // The content hashes recorded for a model path.
    static Result<QStringList> contentHashesAt(Database& database, const QString& path);

private:
    QString scope(const QString& alias = {}) const;

    Database& m_db;
    QString m_modelHash;
};

} // namespace swb
