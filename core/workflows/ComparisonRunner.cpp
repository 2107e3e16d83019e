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

// The plan refused before anything is generated: no strategy or prompt, a strategy given twice with a shared seed,
// or one the source would refuse.
Status checkPlan(const RunSource& source, const ComparisonPlan& plan) {
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
                    return Error::badInput(
                        QStringLiteral("strategies %1 and %2 (%3) are the same; with a shared seed they "
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
    return {};
}

// A comparison plan as it runs: where its runs and comparisons are saved, what it has done, and its progress.
struct PlanRun {
    PlanRun(const RunSource& source, Database& database, const ComparisonPlan& plan,
            const std::function<void(const ComparisonProgress&)>& progress, const std::atomic<bool>* cancel)
        : source(source)
        , plan(plan)
        , progress(progress)
        , cancel(cancel)
        , info(source.info)
        , runs(database)
        , comparisons(database) {}

    const RunSource& source;
    const ComparisonPlan& plan;
    const std::function<void(const ComparisonProgress&)>& progress;
    const std::atomic<bool>* cancel;
    const ModelInfo& info;
    RunRepository runs;
    ComparisonRepository comparisons;
    ComparisonOutcome outcome;
    ComparisonProgress state;
};

// One entry of the plan's prompts: as given, as it runs (rendered when a conversation), and its id in the prompt
// set.
struct PlanPrompt {
    qsizetype index = 0;
    QString entry;
    bool chat = false;
    QString prompt;
    qint64 id = 0;
};

// The runs of one sample: each strategy's run id and key, the requests for those not made yet (missing: their
// strategies), and what the sample's comparison is keyed by.
struct SampleRuns {
    QStringList comparisonParts;
    std::vector<qint64> runIds;
    std::vector<QString> runKeys;
    std::vector<std::size_t> missing;
    std::vector<GenerationRequest> requests;
};

// Every strategy's run of sample s: found by its key where it was made before, else a request for it.
Status findOrRequestRuns(PlanRun& run, const PlanPrompt& prompt, int s, SampleRuns& sample) {
    const ComparisonPlan& plan = run.plan;
    sample.comparisonParts = QStringList{run.info.contentHash, prompt.prompt, QString::number(s),
                                         QString::number(seedFor(plan, s, 0)), QString::number(plan.maxTokens)};
    sample.runIds.assign(plan.strategies.size(), 0);
    sample.runKeys.resize(plan.strategies.size());
    for (std::size_t j = 0; j < plan.strategies.size(); ++j) {
        const Strategy& strategy = plan.strategies[j];
        const std::uint64_t seed = seedFor(plan, s, j);
        sample.runKeys[j] = runBatchKey(run.info, prompt.prompt, strategy, seed, plan.maxTokens);
        sample.comparisonParts << strategy.hash();
        if (plan.seedPolicy == SeedPolicy::Independent)
            sample.comparisonParts << QString::number(seed);
        Result<std::optional<qint64>> existing = run.runs.findRunByBatchKey(sample.runKeys[j]);
        if (!existing)
            return existing.error();
        if (existing.value()) {
            sample.runIds[j] = *existing.value();
            ++run.outcome.skipped;
            ++run.state.done;
            continue;
        }
        GenerationRequest request;
        request.prompt = prompt.prompt.toStdString();
        if (prompt.chat) {
            request.conversationJson = prompt.entry.toStdString();
            request.addSpecial = false;
            request.parseSpecial = true;
        }
        request.strategy = strategy;
        request.strategy.seed = seed;
        request.maxTokens = plan.maxTokens;
        request.traceLevel = TraceLevel::Full;
        sample.requests.push_back(std::move(request));
        sample.missing.push_back(j);
    }
    return {};
}

// The requested runs generated as one batch and saved; when cancelled, none is saved and outcome.cancelled is set.
Status generateRequestedRuns(PlanRun& run, const PlanPrompt& prompt, SampleRuns& sample) {
    std::vector<Result<GenerationResult>> results = run.source.generateBatch(
        sample.requests,
        [&](std::size_t, const GeneratedStep&) {
            ++run.state.itemTokens;
            if (run.progress)
                run.progress(run.state);
            return true;
        },
        run.cancel);
    if (run.cancel && run.cancel->load()) {
        // Runs cut short are not saved: the plan resumes from here.
        run.outcome.cancelled = true;
        return {};
    }
    for (std::size_t k = 0; k < results.size(); ++k) {
        if (!results[k])
            return results[k].error();
        const std::size_t j = sample.missing[k];
        RunProvenance provenance;
        provenance.promptId = prompt.id;
        provenance.batchKey = sample.runKeys[j];
        Result<RunRecord> saved =
            saveGeneration(run.runs, run.info, sample.requests[k], results[k].value(), provenance);
        if (!saved)
            return saved.error();
        sample.runIds[j] = saved->id;
        ++run.outcome.generated;
        ++run.state.done;
    }
    if (run.progress)
        run.progress(run.state);
    return {};
}

// The comparison of sample s's runs: found by its key where it was made before, else saved with the runs in an
// order shuffled by that key.
Status saveSampleComparison(PlanRun& run, const PlanPrompt& prompt, int s, const SampleRuns& sample) {
    const QString comparisonKey = keyOf(sample.comparisonParts);
    Result<std::optional<qint64>> existing = run.comparisons.findComparisonByBatchKey(comparisonKey);
    if (!existing)
        return existing.error();
    if (existing.value()) {
        run.outcome.comparisonIds.push_back(*existing.value());
        return {};
    }
    ComparisonRecord comparison;
    comparison.promptId = prompt.id;
    comparison.promptText = prompt.prompt;
    comparison.sampleIndex = s;
    comparison.blind = run.plan.blind;
    comparison.batchKey = comparisonKey;
    std::vector<int> order(sample.runIds.size());
    std::iota(order.begin(), order.end(), 0);
    Pcg64 shuffle(QCryptographicHash::hash(comparisonKey.toLatin1(), QCryptographicHash::Sha256)
                      .left(8)
                      .toHex()
                      .toULongLong(nullptr, 16));
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[shuffle.next() % i]);
    for (std::size_t position = 0; position < order.size(); ++position) {
        const int slot = order[position];
        comparison.entries.push_back({slot, sample.runIds[static_cast<std::size_t>(slot)],
                                      ComparisonRecord::labelAt(static_cast<int>(position)),
                                      static_cast<int>(position)});
    }
    std::sort(comparison.entries.begin(), comparison.entries.end(),
              [](const auto& a, const auto& b) { return a.slot < b.slot; });
    if (Status status = run.comparisons.saveComparison(comparison); !status)
        return status.error();
    run.outcome.comparisonIds.push_back(comparison.id);
    ++run.outcome.comparisonsCreated;
    return {};
}

// Sample s of a prompt: the runs not made yet generated, then the comparison of them all (none when cancelled).
Status runSample(PlanRun& run, const PlanPrompt& prompt, int s) {
    ComparisonProgress& state = run.state;
    state.prompt = static_cast<int>(prompt.index);
    state.sample = s;
    state.itemTokens = 0;
    state.itemMaxTokens = run.plan.maxTokens * static_cast<int>(run.plan.strategies.size());
    SampleRuns sample;
    if (Status found = findOrRequestRuns(run, prompt, s, sample); !found)
        return found;
    if (run.progress)
        run.progress(state);
    if (!sample.requests.empty()) {
        if (Status generated = generateRequestedRuns(run, prompt, sample); !generated)
            return generated;
        if (run.outcome.cancelled)
            return {};
    }

    return saveSampleComparison(run, prompt, s, sample);
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
    if (Status valid = checkPlan(source, plan); !valid)
        return valid.error();
    PlanRun run(source, database, plan, progress, cancel);
    Result<qint64> promptSet = run.comparisons.savePromptSet(plan.promptSetName, plan.promptSetSource);
    if (!promptSet)
        return promptSet.error();

    ComparisonOutcome& outcome = run.outcome;
    outcome.total = static_cast<int>(plan.prompts.size()) * plan.samples * static_cast<int>(plan.strategies.size());
    run.state.total = outcome.total;
    for (qsizetype p = 0; p < plan.prompts.size(); ++p) {
        // A conversation entry runs as the prompt the chat template renders from it; keys and comparisons use
        // that prompt (another template makes other runs), the prompt set keeps the entry as given.
        PlanPrompt prompt;
        prompt.index = p;
        prompt.entry = plan.prompts.at(p);
        prompt.chat = isConversationJson(prompt.entry);
        prompt.prompt = prompt.entry;
        if (prompt.chat && !source.rendersConversations) {
            if (!plan.chatTemplate)
                return Error::badInput(QStringLiteral("prompt %1 is a conversation, but there is no chat template to "
                                                      "render it with")
                                           .arg(p + 1));
            Result<std::string> rendered = plan.chatTemplate->render(prompt.entry.toStdString(), true);
            if (!rendered)
                return Error::badInput(QStringLiteral("prompt %1: %2").arg(p + 1).arg(rendered.error().message));
            prompt.prompt = QString::fromStdString(rendered.value());
        }
        Result<qint64> promptId = run.comparisons.savePrompt(promptSet.value(), static_cast<int>(p), prompt.entry);
        if (!promptId)
            return promptId.error();
        prompt.id = promptId.value();
        for (int s = 0; s < plan.samples; ++s) {
            if (cancel && cancel->load()) {
                outcome.cancelled = true;
                return outcome;
            }
            if (Status sampled = runSample(run, prompt, s); !sampled)
                return sampled.error();
            if (outcome.cancelled)
                return outcome;
        }
    }
    return outcome;
}

} // namespace swb
