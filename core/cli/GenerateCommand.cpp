// swb generate: run a strategy on a prompt, streaming the text; optionally a JSON summary and a
// per-step JSONL trace.

#include <cmath>
#include <optional>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "chat/ChatTemplate.h"
#include "cli/ChatArguments.h"
#include "cli/GrammarArgument.h"
#include "cli/ModelArguments.h"
#include "cli/OutputFile.h"
#include "cli/RunStoreArgument.h"
#include "cli/Subcommand.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "sampling/StepTraceJson.h"
#include "serving/RemoteEngine.h"
#include "storage/Database.h"
#include "tokenizer/Tokenizer.h"
#include "workflows/RunRecording.h"

namespace swb::cli {

namespace {

// What a decoder weighed at a step, for --trace: its candidates with the two quantities it combined.
QJsonArray decoderCandidatesJson(const DecoderStepTrace& trace, const Tokenizer& tokenizer) {
    QJsonArray out;
    for (const DecoderCandidate& c : trace.candidates)
        out.append(QJsonObject{{QStringLiteral("token"), c.token},
                               {QStringLiteral("token_text"), QString::fromStdString(tokenizer.tokenText(c.token))},
                               {QStringLiteral("first"), c.first},
                               {QStringLiteral("second"), c.second},
                               {QStringLiteral("score"), c.score},
                               {QStringLiteral("kept"), c.kept}});
    return out;
}

// A beam step for --trace: the beams it leaves running and every candidate it weighed.
QJsonObject beamStepJson(const BeamStep& step, const Tokenizer& tokenizer) {
    QJsonArray beams, candidates;
    for (std::size_t i = 0; i < step.tokens.size(); ++i)
        beams.append(QJsonObject{{QStringLiteral("parent"), step.parents[i]},
                                 {QStringLiteral("token"), step.tokens[i]},
                                 {QStringLiteral("token_text"), QString::fromStdString(tokenizer.tokenText(step.tokens[i]))},
                                 {QStringLiteral("score"), step.scores[i]},
                                 {QStringLiteral("group"), i < step.groups.size() ? step.groups[i] : 0}});
    for (const BeamCandidate& c : step.candidates) {
        QJsonObject candidate{{QStringLiteral("beam"), c.beam},
                              {QStringLiteral("token"), c.token},
                              {QStringLiteral("score"), c.score},
                              {QStringLiteral("fate"), beamFateName(c.fate)}};
        if (c.forced)
            candidate.insert(QStringLiteral("forced"), true);
        candidates.append(candidate);
    }
    return QJsonObject{{QStringLiteral("beams"), beams}, {QStringLiteral("candidates"), candidates}};
}

// swb generate on a model another engine serves (--model http://…/v1): the engine samples; we stream its
// tokens and write what it tells of each step (its top-N raw log-probabilities, and the probabilities after
// its samplers where it gives them: a top-N view, not the whole distribution).
int runRemoteGenerate(const Invocation& call, const std::string& prompt, const std::vector<TokenId>& promptIds,
                      const std::string& conversation, const Strategy& strategy) {
    refuseChatTemplateForRemote(call);
    const bool echo = call.args.isSet(QStringLiteral("echo"));
    if (echo && (!promptIds.empty() || !conversation.empty()))
        failBadInput(QStringLiteral("--echo with a remote model prints a text prompt; the engine reads token ids and "
                                    "renders conversations itself"));
    std::unique_ptr<Database> database = openOptionalRunStore(call);
    Result<RemoteModel> remote =
        connectRemoteModel(call.args.value(QStringLiteral("model")), call.args.value(QStringLiteral("api-key")));
    if (!remote)
        failBadInput(remote.error().message);

    RemoteRequest request;
    request.prompt = prompt;
    request.promptIds.assign(promptIds.begin(), promptIds.end());
    request.conversationJson = conversation; // the engine renders it with its own template
    request.strategy = strategy;
    request.maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 128, 0, 10'000'000));
    request.topN = static_cast<int>(call.integer(QStringLiteral("top-logprobs"), 5, 1, 20));
    const bool json = call.args.isSet(QStringLiteral("json"));
    const QString tracePath = call.args.value(QStringLiteral("trace"));
    std::optional<OutputFile> traceOutput;
    if (!tracePath.isEmpty())
        traceOutput.emplace(tracePath, QStringLiteral("trace"));
    const auto candidateJson = [](const RemoteCandidate& c) {
        QJsonObject out{{QStringLiteral("id"), c.id}, {QStringLiteral("token_text"), QString::fromStdString(c.text)}};
        if (!std::isnan(c.logprob))
            out.insert(QStringLiteral("raw_p"), std::exp(c.logprob));
        if (c.postProb)
            out.insert(QStringLiteral("final_p"), *c.postProb);
        return out;
    };
    int index = 0;
    std::size_t streamed = 0;
    if (echo && !json) {
        call.out << QString::fromStdString(prompt);
        call.out.flush();
    }
    const auto onStep = [&](const RemoteStep& step) {
        if (!json) {
            call.out << QString::fromStdString(step.text);
            call.out.flush();
            streamed += step.text.size();
        }
        if (traceOutput) {
            QJsonObject line = candidateJson(step.chosen);
            line.remove(QStringLiteral("id"));
            line.insert(QStringLiteral("chosen"), step.chosen.id);
            line.insert(QStringLiteral("step"), index);
            line.insert(QStringLiteral("top_n_only"), true);
            QJsonArray top, post;
            for (const RemoteCandidate& c : step.top)
                top.append(candidateJson(c));
            for (const RemoteCandidate& c : step.postTop)
                post.append(candidateJson(c));
            line.insert(QStringLiteral("top"), top);
            if (!post.isEmpty())
                line.insert(QStringLiteral("final_top"), post);
            traceOutput->device().write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
        }
        ++index;
        return true;
    };
    Result<RemoteResult> result = remoteGenerate(remote.value(), request, onStep);
    if (!result)
        failBadInput(result.error().message);
    if (traceOutput)
        traceOutput->commit();
    // The run as stored, with the prompt's ids as the engine read them where it says (/tokenize).
    const GenerationResult generated = remoteGenerationResult(remote.value(), result.value(), request);
    qint64 runId = 0;
    if (database) {
        RunRepository runs(*database);
        GenerationRequest recorded;
        recorded.prompt = prompt;
        recorded.conversationJson = conversation;
        recorded.promptIds = generated.promptIds;
        recorded.usePromptIds = !promptIds.empty();
        recorded.strategy = strategy;
        recorded.maxTokens = request.maxTokens;
        Result<RunRecord> saved = saveGeneration(runs, remoteModelInfo(remote.value()), recorded, generated);
        if (!saved)
            failBadInput(saved.error().message);
        runId = saved->id;
    }
    if (json) {
        QJsonArray tokens;
        for (const RemoteStep& step : result->steps)
            tokens.append(step.chosen.id);
        QJsonArray promptTokens;
        for (TokenId id : generated.promptIds)
            promptTokens.append(id);
        QJsonObject out{{QStringLiteral("text"), QString::fromStdString(echo ? prompt + result->text : result->text)},
                        {QStringLiteral("prompt_ids"), promptTokens},
                        {QStringLiteral("tokens"), tokens},
                        {QStringLiteral("finish_reason"), finishReasonName(generated.finish)},
                        {QStringLiteral("strategy"), strategy.toJson()},
                        {QStringLiteral("model"), remote->modelId},
                        {QStringLiteral("server"), remote->base.toString()},
                        {QStringLiteral("engine"), remoteEngineName(remote->engine)},
                        {QStringLiteral("time_to_first_token_ms"), result->timeToFirstTokenMs},
                        {QStringLiteral("tokens_per_second"), result->tokensPerSecond}};
        out.insert(QStringLiteral("seed"), static_cast<double>(strategy.seed.value_or(0)));
        if (runId > 0)
            out.insert(QStringLiteral("run_id"), runId);
        call.out << QJsonDocument(out).toJson(QJsonDocument::Compact) << '\n';
    } else {
        if (streamed < result->text.size()) // text the engine sent after its last token
            call.out << QString::fromStdString(result->text.substr(streamed));
        call.out << '\n';
    }
    return 0;
}

// The prompt options of swb generate: which was given, and the prompt text or token ids it holds.
struct PromptArguments {
    bool hasIds = false;
    bool hasMessages = false;
    bool chat = false;
    std::string prompt;
    std::vector<TokenId> promptIds;
};

// Exactly one of --prompt, --prompt-file, --prompt-ids and --messages, read (the messages are read later).
PromptArguments readPromptArguments(const Invocation& call) {
    PromptArguments input;
    const bool hasPrompt = call.args.isSet(QStringLiteral("prompt"));
    const bool hasFile = call.args.isSet(QStringLiteral("prompt-file"));
    const bool hasIds = call.args.isSet(QStringLiteral("prompt-ids"));
    const bool hasMessages = call.args.isSet(QStringLiteral("messages"));
    if (int(hasPrompt) + int(hasFile) + int(hasIds) + int(hasMessages) != 1)
        failBadInput(QStringLiteral("give exactly one of --prompt, --prompt-file, --prompt-ids and --messages"));
    const bool chat = call.args.isSet(QStringLiteral("chat")) || hasMessages || call.args.isSet(QStringLiteral("system"));
    if (chat && hasIds)
        failBadInput(QStringLiteral("--prompt-ids are used as they are; they cannot be rendered as a chat"));
    input.hasIds = hasIds;
    input.hasMessages = hasMessages;
    input.chat = chat;
    std::string& prompt = input.prompt;
    std::vector<TokenId>& promptIds = input.promptIds;
    if (hasIds) {
        // Token ids as they are, no BOS added: the exact input a reference implementation was given.
        const QStringList words = call.args.value(QStringLiteral("prompt-ids"))
                                      .split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
        for (const QString& word : words) {
            bool ok = false;
            const int id = word.toInt(&ok);
            if (!ok || id < 0)
                failBadInput(
                    QStringLiteral("--prompt-ids takes token ids (non-negative integers), not '%1'").arg(word));
            promptIds.push_back(id);
        }
        if (promptIds.empty())
            failBadInput(QStringLiteral("--prompt-ids needs at least one token id"));
    } else if (hasPrompt) {
        prompt = call.args.value(QStringLiteral("prompt")).toStdString();
    } else if (hasFile) {
        const QString path = call.args.value(QStringLiteral("prompt-file"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            failBadInput(QStringLiteral("cannot read prompt file %1: %2").arg(path, file.errorString()));
        prompt = readInput(file, path).toStdString();
    }
    return input;
}

// --strategy (greedy by default) with --seed, every --stop and --grammar.
Strategy strategyFromArguments(const Invocation& call) {
    Result<Strategy> strategy =
        Strategy::parse(call.args.isSet(QStringLiteral("strategy")) ? call.args.value(QStringLiteral("strategy"))
                                                                    : QStringLiteral("greedy"));
    if (!strategy)
        failBadInput(strategy.error().message);
    if (call.args.isSet(QStringLiteral("seed")))
        strategy->seed = static_cast<std::uint64_t>(
            call.integer(QStringLiteral("seed"), 0, 0, std::numeric_limits<long long>::max()));
    for (const QString& stop : call.args.values(QStringLiteral("stop"))) {
        if (stop.isEmpty())
            failBadInput(QStringLiteral("--stop needs a non-empty string"));
        strategy->stop.push_back(stop.toStdString());
    }
    return applyGrammarArgument(call, std::move(strategy).value());
}

// A conversation: the messages given, or the prompt as the user's one message (after --system); empty when not
// a chat.
std::string conversationFromArguments(const Invocation& call, const PromptArguments& input) {
    std::string conversation;
    if (input.hasMessages) {
        conversation = readConversation(call.args.value(QStringLiteral("messages")));
    } else if (input.chat) {
        QJsonArray messages;
        if (call.args.isSet(QStringLiteral("system")))
            messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                        {QStringLiteral("content"), call.args.value(QStringLiteral("system"))}});
        messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("content"), QString::fromStdString(input.prompt)}});
        conversation = QJsonDocument(messages).toJson(QJsonDocument::Compact).toStdString();
    }
    return conversation;
}

// The conversation rendered with the chat template of the arguments (or the model's).
std::string renderConversation(const Invocation& call, const std::string& conversation) {
    QString note;
    std::optional<ChatTemplate> chatTemplate = chatTemplateFromArguments(call, modelPathArgument(call), &note);
    if (!chatTemplate)
        failBadInput(note + QStringLiteral("; give one with --chat-template, or use the prompt raw (without --chat)"));
    Result<std::string> rendered = chatTemplate->render(conversation, true);
    if (!rendered)
        failBadInput(rendered.error().message);
    return std::move(rendered).value();
}

// One line per step of the search: its beams and candidates, with the best hypothesis's step where it has one.
void writeBeamTrace(QIODevice& traceFile, const GenerationResult& result, const Tokenizer& tokenizer) {
    for (std::size_t i = 0; i < result.beam->steps.size(); ++i) {
        QJsonObject line;
        if (i < result.steps.size()) {
            line = stepTraceToJson(result.steps[i].trace);
            line.insert(QStringLiteral("token_text"),
                        QString::fromStdString(tokenizer.tokenText(result.steps[i].token)));
        }
        line.insert(QStringLiteral("step"), static_cast<int>(i));
        line.insert(QStringLiteral("beam"), beamStepJson(result.beam->steps[i], tokenizer));
        traceFile.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
    }
}

// Every returned hypothesis, best first (the first is the run's text).
QJsonArray hypothesesJson(const BeamResult& beam, const Strategy& strategy) {
    QJsonArray hypotheses;
    for (const BeamHypothesis& h : beam.hypotheses) {
        QJsonArray ids;
        for (TokenId id : h.tokens)
            ids.append(id);
        QJsonObject hypothesis{
            {QStringLiteral("text"), QString::fromStdString(h.text)},
            {QStringLiteral("tokens"), ids},
            {QStringLiteral("sum_logprob"), h.sumLogProb},
            {QStringLiteral("score"), h.score},
            {QStringLiteral("finish_reason"), h.finishedByEos ? QStringLiteral("eos") : QStringLiteral("max_tokens")}};
        if (strategy.decoder.params.contains(QLatin1String("force_words")))
            hypothesis.insert(QStringLiteral("words_forced"), h.wordsForced);
        hypotheses.append(hypothesis);
    }
    return hypotheses;
}

// --json's summary of a local run (prompt: the prompt as rendered, given for a chat).
QJsonObject generationJson(const GenerationResult& result, const GenerationRequest& request, const Tokenizer& tokenizer,
                           bool echo, bool chat, const std::string& prompt, qint64 runId) {
    QJsonArray tokens;
    for (const GeneratedStep& step : result.steps)
        tokens.append(step.token);
    QJsonArray promptIds;
    for (TokenId id : result.promptIds)
        promptIds.append(id);
    const std::string promptText = tokenizer.decode(result.promptIds);
    QJsonObject out{
        {QStringLiteral("text"), QString::fromStdString(echo ? promptText + result.text : result.text)},
        {QStringLiteral("prompt_ids"), promptIds},
        {QStringLiteral("tokens"), tokens},
        {QStringLiteral("finish_reason"), finishReasonName(result.finish)},
        {QStringLiteral("strategy"), request.strategy.toJson()},
        {QStringLiteral("seed"), static_cast<double>(result.seed)},
        {QStringLiteral("time_to_first_token_ms"), result.timeToFirstTokenMs},
        {QStringLiteral("tokens_per_second"), result.tokensPerSecond},
    };
    if (runId > 0)
        out.insert(QStringLiteral("run_id"), runId);
    if (result.finish == FinishReason::StopString)
        out.insert(QStringLiteral("stop_string"), QString::fromStdString(result.stopString));
    if (!result.finishDetail.isEmpty())
        out.insert(QStringLiteral("finish_detail"), result.finishDetail);
    if (chat)
        out.insert(QStringLiteral("prompt"), QString::fromStdString(prompt));
    if (result.beam) {
        out.insert(QStringLiteral("hypotheses"), hypothesesJson(*result.beam, request.strategy));
        out.insert(QStringLiteral("beam_steps"), static_cast<int>(result.beam->steps.size()));
    }
    return out;
}

int runGenerate(const Invocation& call) {
    PromptArguments input = readPromptArguments(call);
    const bool chat = input.chat;
    std::string& prompt = input.prompt;
    const Strategy strategy = strategyFromArguments(call);
    const std::string conversation = conversationFromArguments(call, input);
    if (isRemoteModelAddress(call.args.value(QStringLiteral("model"))))
        return runRemoteGenerate(call, prompt, input.promptIds, conversation, strategy);
    if (chat)
        prompt = renderConversation(call, conversation);

    LoadedModel loaded = loadModelFromArguments(call);
    GenerationRequest request;
    request.prompt = prompt;
    request.conversationJson = conversation;
    // A rendered conversation carries its own special tokens, spelled as text.
    request.addSpecial = !chat;
    request.parseSpecial = chat;
    request.promptIds = input.promptIds;
    request.usePromptIds = input.hasIds;
    request.strategy = strategy;
    request.maxTokens = static_cast<int>(call.integer(QStringLiteral("max-tokens"), 128, 0, 10'000'000));
    const bool json = call.args.isSet(QStringLiteral("json"));
    const QString tracePath = call.args.value(QStringLiteral("trace"));
    request.traceLevel = tracePath.isEmpty() ? TraceLevel::Scalars : TraceLevel::Full;

    std::optional<OutputFile> traceOutput;
    QIODevice* traceFile = nullptr;
    if (!tracePath.isEmpty()) {
        traceOutput.emplace(tracePath, QStringLiteral("trace"));
        traceFile = &traceOutput->device();
    }

    // Open the run store before generating, so a bad --db fails fast.
    std::unique_ptr<Database> database = openOptionalRunStore(call);

    Generator generator(*loaded.model, *loaded.tokenizer);
    const bool beams = isBeamDecoder(request.strategy.decoder);
    const bool echo = call.args.isSet(QStringLiteral("echo"));
    if (echo && !json) {
        // The prompt as the tokenizer reads it back (e.g. without SentencePiece's dummy space).
        call.out << QString::fromStdString(
            loaded.tokenizer->decode(generator.encodePrompt(prompt, request.parseSpecial, request.addSpecial)));
        call.out.flush();
    }
    int index = 0;
    std::size_t streamed = 0;
    const auto onStep = [&](const GeneratedStep& step) {
        if (!json && !step.shown.empty()) {
            call.out << QString::fromStdString(step.shown);
            call.out.flush();
            streamed += step.shown.size();
        }
        if (traceFile && !beams) {
            QJsonObject line = stepTraceToJson(step.trace);
            line.insert(QStringLiteral("step"), index);
            line.insert(QStringLiteral("token_text"), QString::fromStdString(loaded.tokenizer->tokenText(step.token)));
            if (!step.decoder.empty())
                line.insert(QStringLiteral("decoder"), decoderCandidatesJson(step.decoder, *loaded.tokenizer));
            traceFile->write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
        }
        ++index;
        return true;
    };
    Result<GenerationResult> result = generator.generate(request, onStep);
    if (!result)
        throw Failure{result.error().kind == ErrorKind::BadInput ? 2 : 1, result.error().message};
    if (traceFile && result->beam)
        writeBeamTrace(*traceFile, result.value(), *loaded.tokenizer);
    if (traceOutput)
        traceOutput->commit();

    qint64 runId = 0;
    if (database) {
        RunRepository runs(*database);
        Result<RunRecord> saved = saveGeneration(runs, loaded.model->info(), request, result.value());
        if (!saved)
            failBadInput(saved.error().message);
        runId = saved->id;
    }

    if (json) {
        call.out << QJsonDocument(generationJson(result.value(), request, *loaded.tokenizer, echo, chat, prompt, runId))
                        .toJson(QJsonDocument::Compact)
                 << '\n';
    } else {
        // text a stop string held back and then released at the end
        if (streamed < result->text.size())
            call.out << QString::fromStdString(result->text.substr(streamed));
        call.out << '\n';
    }
    for (const QString& warning : loaded.model->warnings())
        call.err << "swb: warning: " << warning << '\n';
    if (!json && result->finish == FinishReason::GrammarDeadEnd)
        call.err << "swb: stopped: " << result->finishDetail << '\n';
    return 0;
}

} // namespace

Subcommand generateSubcommand() {
    return {QStringLiteral("generate"),
            QStringLiteral(
                "swb generate [--model PATH|http://HOST:PORT/v1 [--api-key KEY]] [--tokenizer PATH] (--prompt T | "
                "--prompt-file F | "
                "--prompt-ids IDS) "
                "[--strategy S] [--grammar FILE] [--max-tokens N] [--seed S] [--threads N] [--device cpu|cuda] "
                "[--dtype f32|f16|bf16] [--echo] [--json] [--trace FILE.jsonl] [--db FILE] [--stop S]... "
                "[--chat [--system T] | --messages FILE.json] [--chat-template FILE]"),
            QStringLiteral("Generate text with a sampling strategy, streaming it to stdout."),
            [](QCommandLineParser& parser) {
                declareModelArguments(parser);
                parser.addOption(grammarOption());
                parser.addOptions({
                    {QStringLiteral("prompt"), QStringLiteral("Prompt text."), QStringLiteral("T")},
                    {QStringLiteral("prompt-file"), QStringLiteral("File holding the prompt."), QStringLiteral("F")},
                    {QStringLiteral("prompt-ids"),
                     QStringLiteral("The prompt as token ids, space or comma separated, used as they are."),
                     QStringLiteral("IDS")},
                    {QStringLiteral("strategy"),
                     QStringLiteral("Preset (preset@hf|llamacpp|vllm for engine order), JSON file or JSON; "
                                    "default greedy."),
                     QStringLiteral("S")},
                    {QStringLiteral("max-tokens"), QStringLiteral("Most tokens to generate (default 128)."),
                     QStringLiteral("N")},
                    {QStringLiteral("seed"), QStringLiteral("RNG seed (default: the strategy's, else 0)."),
                     QStringLiteral("S")},
                    {QStringLiteral("echo"), QStringLiteral("Print the prompt before the continuation.")},
                    {QStringLiteral("json"), QStringLiteral("Print one JSON object instead of streaming text.")},
                    {QStringLiteral("trace"), QStringLiteral("Write one JSON object per step to this file."),
                     QStringLiteral("FILE")},
                    {QStringLiteral("db"), QStringLiteral("Save the run to this run store."), QStringLiteral("FILE")},
                    {QStringLiteral("api-key"),
                     QStringLiteral("With --model http(s)://HOST:PORT/v1 (a model another engine serves): its API key."),
                     QStringLiteral("KEY")},
                    {QStringLiteral("top-logprobs"),
                     QStringLiteral("With a remote model: log-probabilities per token to ask for (1-20, default 5)."),
                     QStringLiteral("N")},
                    {QStringLiteral("stop"),
                     QStringLiteral("Stop before this string (repeatable; matched across tokens, not printed)."),
                     QStringLiteral("S")},
                    {QStringLiteral("chat"),
                     QStringLiteral("Send the prompt as the user's message through the model's chat template.")},
                    {QStringLiteral("system"), QStringLiteral("System prompt (implies --chat)."), QStringLiteral("T")},
                    {QStringLiteral("messages"),
                     QStringLiteral("Conversation to continue with the assistant's next turn: a JSON array of "
                                    "messages, or {\"messages\", \"tools\"}; - for stdin."),
                     QStringLiteral("FILE")},
                });
                declareChatTemplateArgument(parser);
            },
            runGenerate};
}

} // namespace swb::cli
