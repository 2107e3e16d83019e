#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "chat/ChatTemplate.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "sampling/Strategy.h"

namespace swb {

class Database;
class Model;
class Tokenizer;

// Same seed for every strategy of a sample (strategies then differ only in their chain), or an
// independent seed per strategy.
enum class SeedPolicy { Shared, Independent };

// Prompts × strategies × samples, one comparison per prompt and sample.
struct ComparisonPlan {
    QString promptSetName;   // unique name of the prompt set in the run store (e.g. the file's path)
    QString promptSetSource; // where it came from, for display
    // Raw prompts, or conversations (a JSON object with "messages", see isConversationJson) that run
    // through chatTemplate with the assistant's turn to come.
    QStringList prompts;
    std::optional<ChatTemplate> chatTemplate;
    std::vector<Strategy> strategies; // each with a name
    int samples = 1;
    std::uint64_t baseSeed = 0; // sample k (from 0) uses baseSeed + k
    SeedPolicy seedPolicy = SeedPolicy::Shared;
    int maxTokens = 128;
    bool blind = true;
};

struct ComparisonProgress {
    int done = 0;  // runs finished or found already made
    int total = 0; // runs in the plan
    int prompt = 0;
    int sample = 0;
    int itemTokens = 0; // tokens of the comparison now generating, over all its strategies
    int itemMaxTokens = 0;
};

struct ComparisonOutcome {
    int total = 0;
    int generated = 0;
    int skipped = 0; // found in the store from an earlier, interrupted run of the same plan
    int comparisonsCreated = 0;
    std::vector<qint64> comparisonIds; // every comparison of the plan, made now or before
    bool cancelled = false;
};

// What makes a plan's runs: the model's description (recorded with every run, and part of every key) and
// a batch of requests turned into results (onStep per token; false or cancel stops). A local model runs
// the batch through Generator::generateBatch; another engine runs it request by request.
struct RunSource {
    ModelInfo info;
    std::function<std::vector<Result<GenerationResult>>(const std::vector<GenerationRequest>& requests,
                                                        const std::function<bool(std::size_t, const GeneratedStep&)>& onStep,
                                                        const std::atomic<bool>* cancel)>
        generateBatch;
    // Whether it takes conversations as they are (an engine rendering them with its own chat template)
    // rather than as the prompt plan.chatTemplate renders.
    bool rendersConversations = false;
    // What a run of a strategy would refuse at its start (Generator::checkStrategy); empty: nothing to check.
    std::function<Status(const Strategy&)> checkStrategy;
};

// The loaded model as a run source: generator's batched decoding (generator must outlive the source).
RunSource localRunSource(Model& model, Generator& generator);

// The key that finds a run in the store again (runs.batch_key): what defines it, hashed. A comparison plan and
// a sweep that make the same run (model, prompt, strategy, seed, max tokens) share it.
QString runBatchKey(const ModelInfo& model, const QString& prompt, const Strategy& strategy, std::uint64_t seed,
                    int maxTokens);

// Runs a plan into the run store. Resumable: every run and comparison carries a key derived from what
// defines it, so the same plan again skips finished work. The strategies of one comparison that still
// need running go through the model together, one batched forward pass per token. Presentation
// order of each comparison is a shuffle seeded by its key, recorded with blind labels A, B, ...
Result<ComparisonOutcome> runComparisonPlan(Model& model, const Tokenizer& tokenizer, Database& database,
                                            const ComparisonPlan& plan,
                                            const std::function<void(const ComparisonProgress&)>& progress = {},
                                            const std::atomic<bool>* cancel = nullptr);
Result<ComparisonOutcome> runComparisonPlan(const RunSource& source, Database& database, const ComparisonPlan& plan,
                                            const std::function<void(const ComparisonProgress&)>& progress = {},
                                            const std::atomic<bool>* cancel = nullptr);

} // namespace swb
