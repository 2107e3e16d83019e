#include "workflows/ComparisonRunner.h"

#include <algorithm>
#include <numeric>

#include <QCryptographicHash>

#include "Rng.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "workflows/RunRecording.h"

namespace swb {

namespace {

QString keyOf(const QStringList& parts) {
    return QString::fromLatin1(
        QCryptographicHash::hash(parts.join(QChar(0x1F)).toUtf8(), QCryptographicHash::Sha256).toHex());
}

std::uint64_t seedFor(const ComparisonPlan& plan, int sample, std::size_t strategy) {
    const std::uint64_t shared = plan.baseSeed + static_cast<std::uint64_t>(sample);
    if (plan.seedPolicy == SeedPolicy::Shared)
        return shared;
    // Independent: a distinct, reproducible seed per strategy (kept below 2^52 so JSON holds it exactly).
    Pcg64 mix;
    mix.seedWith(shared * 0x9E3779B97F4A7C15ull + strategy + 1);
    return mix.next() >> 12;
}

} // namespace

QString runBatchKey(const ModelInfo& model, const QString& prompt, const Strategy& strategy, std::uint64_t seed,
                    int maxTokens) {
    return keyOf({QStringLiteral("run"), model.contentHash, prompt, strategy.hash(), QString::number(seed),
                  QString::number(maxTokens)});
}

Result<ComparisonOutcome> runComparisonPlan(Model& model, const Tokenizer& tokenizer, Database& database,
                                            const ComparisonPlan& plan,
                                            const std::function<void(const ComparisonProgress&)>& progress,
                                            const std::atomic<bool>* cancel) {
    Generator generator(model, tokenizer);
    return runComparisonPlan(localRunSource(model, generator), database, plan, progress, cancel);
}

RunSource localRunSource(Model& model, Generator& generator) {
    RunSource source;
    source.info = model.info();
    source.generateBatch = [&generator](const std::vector<GenerationRequest>& requests,
                                        const std::function<bool(std::size_t, const GeneratedStep&)>& onStep,
                                        const std::atomic<bool>* stop) { return generator.generateBatch(requests, onStep, stop); };
    source.checkStrategy = [&generator](const Strategy& strategy) { return generator.checkStrategy(strategy); };
    return source;
}

Result<ComparisonOutcome> runComparisonPlan(const RunSource& source, Database& database, const ComparisonPlan& plan,
                                            const std::function<void(const ComparisonProgress&)>& progress,
                                            const std::atomic<bool>* cancel) {
    if (plan.strategies.empty())
        return Error::badInput(QStringLiteral("a comparison needs at least one strategy"));
    if (plan.prompts.isEmpty())
        return Error::badInput(QStringLiteral("a comparison needs at least one prompt"));
    // With one seed for every strategy, a strategy given twice would make the same run twice: refused
    // before anything is generated (with independent seeds it is an A/A comparison, which is allowed).
    if (plan.seedPolicy == SeedPolicy::Shared)
        for (std::size_t i = 0; i < plan.strategies.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (plan.strategies[i].hash() == plan.strategies[j].hash())
                    return Error::badInput(QStringLiteral("strategies %1 and %2 (%3) are the same; with a shared seed they "
                                                          "would make the same runs (use --seed-policy independent for "
                                                          "an A/A comparison)")
                                               .arg(j + 1)
                                               .arg(i + 1)
                                               .arg(plan.strategies[i].name));
    // Every strategy checked before the first run is saved: a batch never stops halfway on a strategy it
    // could have refused at once.
    if (source.checkStrategy)
        for (std::size_t i = 0; i < plan.strategies.size(); ++i)
            if (Status fits = source.checkStrategy(plan.strategies[i]); !fits)
                return Error::badInput(QStringLiteral("strategy %1 (%2): %3")
                                           .arg(i + 1)
                                           .arg(plan.strategies[i].name, fits.error().message));
    const ModelInfo& info = source.info;
    RunRepository runs(database);
    ComparisonRepository comparisons(database);
    Result<qint64> promptSet = comparisons.savePromptSet(plan.promptSetName, plan.promptSetSource);
    if (!promptSet)
        return promptSet.error();

    ComparisonOutcome outcome;
    outcome.total = static_cast<int>(plan.prompts.size()) * plan.samples * static_cast<int>(plan.strategies.size());
    ComparisonProgress state;
    state.total = outcome.total;
    for (qsizetype p = 0; p < plan.prompts.size(); ++p) {
        // A conversation entry runs as the prompt the chat template renders from it; keys and comparisons use
        // that prompt (another template makes other runs), the prompt set keeps the entry as given.
        const QString& entry = plan.prompts.at(p);
        const bool chat = isConversationJson(entry);
        QString prompt = entry;
        if (chat && !source.rendersConversations) {
            if (!plan.chatTemplate)
                return Error::badInput(QStringLiteral("prompt %1 is a conversation, but there is no chat template to "
                                                      "render it with")
                                           .arg(p + 1));
            Result<std::string> rendered = plan.chatTemplate->render(entry.toStdString(), true);
            if (!rendered)
                return Error::badInput(QStringLiteral("prompt %1: %2").arg(p + 1).arg(rendered.error().message));
            prompt = QString::fromStdString(rendered.value());
        }
        Result<qint64> promptId = comparisons.savePrompt(promptSet.value(), static_cast<int>(p), entry);
        if (!promptId)
            return promptId.error();
        for (int s = 0; s < plan.samples; ++s) {
            if (cancel && cancel->load()) {
                outcome.cancelled = true;
                return outcome;
            }
            state.prompt = static_cast<int>(p);
            state.sample = s;
            state.itemTokens = 0;
            state.itemMaxTokens = plan.maxTokens * static_cast<int>(plan.strategies.size());
            QStringList comparisonParts{info.contentHash, prompt, QString::number(s),
                                        QString::number(seedFor(plan, s, 0)), QString::number(plan.maxTokens)};
            std::vector<qint64> runIds(plan.strategies.size(), 0);
            std::vector<QString> runKeys(plan.strategies.size());
            std::vector<std::size_t> missing;
            std::vector<GenerationRequest> requests;
            for (std::size_t j = 0; j < plan.strategies.size(); ++j) {
                const Strategy& strategy = plan.strategies[j];
                const std::uint64_t seed = seedFor(plan, s, j);
                runKeys[j] = runBatchKey(info, prompt, strategy, seed, plan.maxTokens);
                comparisonParts << strategy.hash();
                if (plan.seedPolicy == SeedPolicy::Independent)
                    comparisonParts << QString::number(seed);
                Result<std::optional<qint64>> existing = runs.findRunByBatchKey(runKeys[j]);
                if (!existing)
                    return existing.error();
                if (existing.value()) {
                    runIds[j] = *existing.value();
                    ++outcome.skipped;
                    ++state.done;
                    continue;
                }
                GenerationRequest request;
                request.prompt = prompt.toStdString();
                if (chat) {
                    request.conversationJson = entry.toStdString();
                    request.addSpecial = false;
                    request.parseSpecial = true;
                }
                request.strategy = strategy;
                request.strategy.seed = seed;
                request.maxTokens = plan.maxTokens;
                request.traceLevel = TraceLevel::Full;
                requests.push_back(std::move(request));
                missing.push_back(j);
            }
            if (progress)
                progress(state);
            if (!requests.empty()) {
                std::vector<Result<GenerationResult>> results = source.generateBatch(
                    requests,
                    [&](std::size_t, const GeneratedStep&) {
                        ++state.itemTokens;
                        if (progress)
                            progress(state);
                        return true;
                    },
                    cancel);
                if (cancel && cancel->load()) {
                    // Runs cut short are not saved: the plan resumes from here.
                    outcome.cancelled = true;
                    return outcome;
                }
                for (std::size_t k = 0; k < results.size(); ++k) {
                    if (!results[k])
                        return results[k].error();
                    const std::size_t j = missing[k];
                    RunProvenance provenance;
                    provenance.promptId = promptId.value();
                    provenance.batchKey = runKeys[j];
                    Result<RunRecord> saved = saveGeneration(runs, info, requests[k], results[k].value(), provenance);
                    if (!saved)
                        return saved.error();
                    runIds[j] = saved->id;
                    ++outcome.generated;
                    ++state.done;
                }
                if (progress)
                    progress(state);
            }

            const QString comparisonKey = keyOf(comparisonParts);
            Result<std::optional<qint64>> existing = comparisons.findComparisonByBatchKey(comparisonKey);
            if (!existing)
                return existing.error();
            if (existing.value()) {
                outcome.comparisonIds.push_back(*existing.value());
                continue;
            }
            ComparisonRecord comparison;
            comparison.promptId = promptId.value();
            comparison.promptText = prompt;
            comparison.sampleIndex = s;
            comparison.blind = plan.blind;
            comparison.batchKey = comparisonKey;
            std::vector<int> order(runIds.size());
            std::iota(order.begin(), order.end(), 0);
            Pcg64 shuffle(QCryptographicHash::hash(comparisonKey.toLatin1(), QCryptographicHash::Sha256)
                              .left(8)
                              .toHex()
                              .toULongLong(nullptr, 16));
            for (std::size_t i = order.size(); i > 1; --i)
                std::swap(order[i - 1], order[shuffle.next() % i]);
            for (std::size_t position = 0; position < order.size(); ++position) {
                const int slot = order[position];
                comparison.entries.push_back({slot, runIds[static_cast<std::size_t>(slot)],
                                              ComparisonRecord::labelAt(static_cast<int>(position)),
                                              static_cast<int>(position)});
            }
            std::sort(comparison.entries.begin(), comparison.entries.end(),
                      [](const auto& a, const auto& b) { return a.slot < b.slot; });
            if (Status status = comparisons.saveComparison(comparison); !status)
                return status.error();
            outcome.comparisonIds.push_back(comparison.id);
            ++outcome.comparisonsCreated;
        }
    }
    return outcome;
}

} // namespace swb
