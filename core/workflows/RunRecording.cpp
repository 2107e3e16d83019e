#include "workflows/RunRecording.h"

#include <algorithm>
#include <optional>

#include <QJsonDocument>
#include <QJsonObject>

#include "model/Model.h"

namespace swb {

RunSetup runSetup(const ModelInfo& model) {
    RunSetup setup;
    setup.device = model.device;
    if (model.device == QLatin1String("remote"))
        return setup; // the engine serving it does not say how it computes
    setup.threads = model.threads;
    setup.fastMath = model.fastMath;
    setup.computeDtype = model.computeDtype;
    setup.kernelPath = model.kernelPath;
    return setup;
}

Result<RunRecord> saveGeneration(RunRepository& runs, const ModelInfo& model, const GenerationRequest& request,
                                 const GenerationResult& result, const RunProvenance& provenance) {
    ModelRecord modelRecord;
    modelRecord.path = model.path;
    modelRecord.format = model.format;
    modelRecord.architecture = model.architecture;
    modelRecord.contentHash = model.contentHash;
    modelRecord.parameters = model.parameters;
    QJsonObject info{{QStringLiteral("layers"), model.layers},
                     {QStringLiteral("dim"), model.dim},
                     {QStringLiteral("vocab_size"), model.vocabSize},
                     {QStringLiteral("context_length"), model.contextLength},
                     {QStringLiteral("file_dtype"), model.fileDtype}};
    if (!model.tokenizerPath.isEmpty())
        info.insert(QStringLiteral("tokenizer"), model.tokenizerPath);
    modelRecord.infoJson = QString::fromUtf8(QJsonDocument(info).toJson(QJsonDocument::Compact));
    Result<qint64> modelId = runs.saveModel(modelRecord);
    if (!modelId)
        return modelId.error();
    Result<qint64> strategyId = runs.saveStrategy(request.strategy);
    if (!strategyId)
        return strategyId.error();

    RunRecord run;
    run.modelId = modelId.value();
    run.strategyId = strategyId.value();
    run.promptId = provenance.promptId;
    run.promptText = QString::fromStdString(request.prompt);
    run.promptIds = result.promptIds;
    run.seed = result.seed;
    run.text = QString::fromStdString(result.text);
    run.finishReason = finishReasonName(result.finish);
    run.timeToFirstTokenMs = result.timeToFirstTokenMs;
    run.tokensPerSecond = result.tokensPerSecond;
    run.parentRunId = provenance.parentRunId;
    run.branchStep = provenance.branchStep;
    run.batchKey = provenance.batchKey;
    run.messagesJson = QString::fromStdString(request.conversationJson);
    run.setup = runSetup(model);
    DecoderRecord decoder;
    decoder.type = request.strategy.decoder.type;
    decoder.beam = result.beam;
    if (std::any_of(result.steps.begin(), result.steps.end(),
                    [](const GeneratedStep& s) { return !s.decoder.empty(); }))
        for (const GeneratedStep& step : result.steps)
            decoder.steps.push_back(step.decoder);
    if (!decoder.empty())
        run.decoderTrace = QJsonDocument(decoderRecordToJson(decoder)).toJson(QJsonDocument::Compact);
    run.steps.reserve(result.steps.size());
    run.stepTexts.reserve(result.steps.size());
    for (const GeneratedStep& step : result.steps) {
        run.steps.push_back(step.trace);
        run.stepTexts.push_back(step.text);
    }
    if (Status status = runs.saveRun(run); !status)
        return status.error();
    return run;
}

std::vector<GeneratedStep> generatedSteps(const RunRecord& run, const Tokenizer* tokenizer) {
    std::optional<StreamingDecoder> decoder;
    if (tokenizer) {
        decoder.emplace(*tokenizer);
        for (TokenId id : run.promptIds)
            decoder->push(id);
    }
    const Result<DecoderRecord> record = decoderRecord(run);
    std::vector<GeneratedStep> steps;
    steps.reserve(run.steps.size());
    for (const StepTrace& trace : run.steps) {
        GeneratedStep step;
        step.token = trace.chosen;
        if (decoder) {
            if (!tokenizer->isSpecial(step.token))
                step.text = decoder->push(step.token);
        } else if (steps.size() < run.stepTexts.size()) {
            step.text = run.stepTexts[steps.size()];
        }
        step.trace = trace;
        if (record && steps.size() < record->steps.size())
            step.decoder = record->steps[steps.size()];
        steps.push_back(std::move(step));
    }
    return steps;
}

Result<DecoderRecord> decoderRecord(const RunRecord& run) {
    if (run.decoderTrace.isEmpty())
        return DecoderRecord{};
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.decoderTrace, &error);
    if (!document.isObject())
        return Error::badInput(
            QStringLiteral("run %1's decoder trace is damaged (%2)").arg(run.id).arg(error.errorString()));
    return decoderRecordFromJson(document.object());
}

} // namespace swb
