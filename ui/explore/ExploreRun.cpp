#include "explore/ExploreRun.h"

#include <QJsonDocument>
#include <QJsonObject>

#include "RunTokenizers.h"
#include "workflows/RunRecording.h"

namespace swb {

namespace {

// A strategy in a few words: its name, else its stages with their numeric parameters.
QString describeStrategy(const Strategy& strategy) {
    if (!strategy.name.isEmpty())
        return strategy.name;
    QStringList stages;
    for (const SamplerSpec& sampler : strategy.samplers) {
        const QString params = sampler.summary();
        stages << (params.isEmpty() ? sampler.type : sampler.type + QLatin1Char(' ') + params);
    }
    return stages.join(QStringLiteral(" → "));
}

} // namespace

ExploreRun ExploreRun::starting(const GenerationJob& job, const QString& shownPrompt, const QString& replyPrefix,
                                const ModelInfo& model) {
    ExploreRun run;
    run.promptText = shownPrompt;
    run.conversationJson = QString::fromStdString(job.request.conversationJson);
    run.replyPrefix = replyPrefix;
    run.strategy = job.request.strategy;
    run.seed = job.request.strategy.seed.value_or(job.request.seed);
    run.modelHash = model.contentHash;
    run.vocabSize = model.vocabSize;
    run.remote = model.format == QLatin1String("remote");
    return run;
}

void ExploreRun::decodeTexts(const Tokenizer* tokenizer) {
    RunRecord record;
    record.promptIds = promptIds;
    for (const GeneratedStep& step : steps)
        record.steps.push_back(step.trace);
    std::vector<GeneratedStep> decoded = generatedSteps(record, tokenizer);
    for (std::size_t i = 0; i < decoded.size(); ++i)
        steps[i].text = std::move(decoded[i].text);
}

std::vector<TokenId> ExploreRun::tokens() const {
    std::vector<TokenId> ids;
    ids.reserve(steps.size());
    for (const GeneratedStep& step : steps)
        ids.push_back(step.token);
    return ids;
}

QString ExploreRun::text(int from, int to) const {
    QString joined;
    for (int i = from; i < to; ++i)
        joined += QString::fromStdString(steps[static_cast<std::size_t>(i)].text);
    return joined;
}

InspectJob ExploreRun::inspectJob(int step, const Strategy& chain, std::uint64_t seed) const {
    InspectJob job;
    job.promptIds = promptIds;
    job.tokens = tokens();
    job.step = step;
    job.strategy = chain;
    job.seed = seed;
    if (remote)
        for (const GeneratedStep& s : steps)
            job.traces.push_back(s.trace);
    return job;
}

ReplayDialog::Side ExploreRun::replaySide() const {
    ReplayDialog::Side side;
    side.runId = runId;
    side.strategy = describeStrategy(strategy);
    side.tokens = tokens();
    for (const GeneratedStep& step : steps)
        side.texts << QString::fromStdString(step.text);
    return side;
}

Result<StoredRun> loadStoredRun(RunRepository& runs, RunTokenizers& tokenizers, qint64 runId) {
    Result<RunRecord> record = runs.loadRun(runId);
    if (!record)
        return record.error();
    StoredRun stored;
    ExploreRun& run = stored.run;
    run.runId = record->id;
    run.promptText = record->promptText;
    run.promptIds = record->promptIds;
    run.seed = record->seed;
    run.finish = record->finishReason;
    run.conversationJson = record->messagesJson;
    if (Result<Strategy> strategy = runs.loadStrategy(record->strategyId)) {
        run.strategy = strategy.value();
        stored.strategyKnown = true;
    }
    std::shared_ptr<const Tokenizer> tokenizer;
    if (Result<ModelRecord> model = runs.loadModel(record->modelId)) {
        run.modelHash = model->contentHash;
        run.remote = model->format == QLatin1String("remote");
        const QJsonObject info = QJsonDocument::fromJson(model->infoJson.toUtf8()).object();
        run.vocabSize = info.value(QLatin1String("vocab_size")).toInt();
        // Token texts come from the run's own tokenizer: known, or loaded from its model's files.
        tokenizer =
            tokenizers.request(model->contentHash, model->path, info.value(QLatin1String("tokenizer")).toString());
    }
    // Step texts decoded in context with that tokenizer, else as stored with the run.
    run.steps = generatedSteps(record.value(), tokenizer.get());
    if (const Result<DecoderRecord> decoder = decoderRecord(record.value()); !decoder)
        stored.decoderError = decoder.error().message;
    else if (decoder->beam)
        stored.beam = *decoder->beam;
    // A conversation's branch: its reply starts in its prompt, after the root run's.
    if (!run.conversationJson.isEmpty() && record->parentRunId) {
        Result<RunRecord> root = runs.loadRun(*record->parentRunId, false);
        while (root && root->parentRunId)
            root = runs.loadRun(*root->parentRunId, false);
        if (root && run.promptText.startsWith(root->promptText))
            run.replyPrefix = run.promptText.mid(root->promptText.size());
    }
    stored.record = std::move(record).value();
    return stored;
}

BranchStart branchOf(const ExploreRun& run, int step, const std::vector<TokenId>& continuation,
                     const QString& continuationText) {
    BranchStart start;
    GenerationRequest& request = start.job.request;
    request.promptIds = run.promptIds;
    for (int i = 0; i < step; ++i)
        request.promptIds.push_back(run.steps[static_cast<std::size_t>(i)].token);
    request.promptIds.insert(request.promptIds.end(), continuation.begin(), continuation.end());
    request.usePromptIds = true;
    request.traceLevel = TraceLevel::Full;
    start.job.provenance.parentRunId = run.runId;
    start.job.provenance.branchStep = step;
    // A branch of a conversation's reply: the same conversation, the reply up to the step, then the rest.
    request.conversationJson = run.conversationJson.toStdString();
    const QString before = run.text(0, step);
    start.replyPrefix = run.replyPrefix + before + continuationText;
    // What the user sees as the branch's prompt: the text up to the step, then the token or the edited text.
    start.shownPrompt = run.promptText + before + continuationText;
    request.prompt = start.shownPrompt.toStdString();
    if (run.remote && run.promptIds.empty()) {
        // The engine was given text: the branch is that text, the steps before and the continuation, as text
        // (the engine tokenizes it again).
        request.promptIds.clear();
        request.usePromptIds = false;
    }
    return start;
}

} // namespace swb
