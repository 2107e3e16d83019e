#include "serving/OpenAiApi.h"

#include <algorithm>
#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>

#include "JsonError.h"
#include "chat/ChatTemplate.h"
#include "sampling/GrammarStage.h"
#include "sampling/SamplerRegistry.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

QByteArray ApiError::body() const {
    QJsonObject error{{QStringLiteral("message"), message},
                      {QStringLiteral("type"), type},
                      {QStringLiteral("param"), param.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(param)},
                      {QStringLiteral("code"), code.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(code)}};
    return QJsonDocument(QJsonObject{{QStringLiteral("error"), error}}).toJson(QJsonDocument::Compact);
}

namespace {

void writeJson(QByteArray& out, const QJsonValue& value, bool byValue);

// Members in key order, or (byValue: a top_logprobs object) by their numbers, largest first.
void writeObject(QByteArray& out, const QJsonObject& object, bool byValue) {
    const QStringList names = object.keys();
    std::vector<QString> keys(names.begin(), names.end());
    if (byValue)
        std::stable_sort(keys.begin(), keys.end(), [&](const QString& a, const QString& b) {
            return object.value(a).toDouble() > object.value(b).toDouble();
        });
    out += '{';
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i > 0)
            out += ',';
        writeJson(out, keys[i], false);
        out += ':';
        const QJsonValue member = object.value(keys[i]);
        // completions' top_logprobs: an array of {token: logprob} objects, one per position
        if (keys[i] == QLatin1String("top_logprobs") && member.isArray()) {
            out += '[';
            const QJsonArray tops = member.toArray();
            for (qsizetype t = 0; t < tops.size(); ++t) {
                if (t > 0)
                    out += ',';
                // {token: logprob, …}, not chat's {token, logprob, bytes} entries
                const QJsonObject top = tops[t].toObject();
                const bool numbers = tops[t].isObject() &&
                                     std::all_of(top.begin(), top.end(), [](const auto& v) { return v.isDouble(); });
                writeJson(out, tops[t], numbers);
            }
            out += ']';
        } else {
            writeJson(out, member, false);
        }
    }
    out += '}';
}

void writeJson(QByteArray& out, const QJsonValue& value, bool byValue) {
    if (value.isObject()) {
        writeObject(out, value.toObject(), byValue);
    } else if (value.isArray()) {
        out += '[';
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (i > 0)
                out += ',';
            writeJson(out, array[i], false);
        }
        out += ']';
    } else {
        // A scalar as QJsonDocument writes it: inside a one-element array, the brackets taken off.
        const QByteArray one = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
        out += one.mid(1, one.size() - 2);
    }
}

} // namespace

QByteArray answerJson(const QJsonObject& answer) {
    // Only an answer with logprobs is written member by member; every other one (most stream chunks) as Qt does.
    QByteArray out = QJsonDocument(answer).toJson(QJsonDocument::Compact);
    if (!out.contains("\"top_logprobs\":[{"))
        return out;
    out.clear();
    writeObject(out, answer, false);
    return out;
}

std::size_t textLength(const std::string& utf8) {
    return static_cast<std::size_t>(
        std::count_if(utf8.begin(), utf8.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

QString openAiFinishReason(FinishReason finish) {
    switch (finish) {
    case FinishReason::Eos:
    case FinishReason::StopString: return QStringLiteral("stop");
    case FinishReason::MaxTokens:
    case FinishReason::ContextLimit: return QStringLiteral("length");
    case FinishReason::GrammarDeadEnd:
        return QStringLiteral("grammar_dead_end");
    case FinishReason::Cancelled: break;
    }
    return QStringLiteral("cancelled");
}

namespace {

ApiError fieldError(const QString& field, const QString& message) {
    return ApiError{400, QStringLiteral("field '%1' %2").arg(field, message), field};
}

// A prompt too long for the context by its bytes alone, refused before it is tokenized.
std::optional<ApiError> refuseLongPrompt(const std::string& prompt, const ApiContext& context, const QString& field) {
    if (context.contextLength <= 0)
        return std::nullopt;
    const std::size_t fewest = context.tokenizer->fewestTokens(prompt.size());
    if (fewest < static_cast<std::size_t>(context.contextLength))
        return std::nullopt;
    return ApiError{400, promptTooLong(prompt.size(), fewest, context.contextLength), field};
}

// The sampling fields: OpenAI's and the common extensions (vLLM's, llama.cpp's names).
const QStringList& samplingFields() {
    static const QStringList fields = {
        QStringLiteral("temperature"),        QStringLiteral("top_p"),          QStringLiteral("frequency_penalty"),
        QStringLiteral("presence_penalty"),   QStringLiteral("logit_bias"),     QStringLiteral("top_k"),
        QStringLiteral("min_p"),              QStringLiteral("repetition_penalty"), QStringLiteral("typical_p"),
        QStringLiteral("top_n_sigma"),        QStringLiteral("xtc_probability"), QStringLiteral("xtc_threshold"),
        QStringLiteral("dry_multiplier"),     QStringLiteral("dry_base"),       QStringLiteral("dry_allowed_length"),
        QStringLiteral("dry_penalty_last_n"), QStringLiteral("mirostat"),       QStringLiteral("mirostat_tau"),
        QStringLiteral("mirostat_eta")};
    return fields;
}

struct Reader {
    const QJsonObject& json;
    std::optional<ApiError> error;

    bool has(const char* key) const {
        const QJsonValue v = json.value(QLatin1String(key));
        return !v.isUndefined() && !v.isNull();
    }
    double number(const char* key, double fallback, double low, double high, bool lowOpen = false) {
        if (!has(key) || error)
            return fallback;
        const QJsonValue v = json.value(QLatin1String(key));
        const double d = v.toDouble(NAN);
        if (!v.isDouble() || !std::isfinite(d) || d > high || (lowOpen ? d <= low : d < low))
            error = fieldError(QLatin1String(key), QStringLiteral("must be a number in %1%2, %3]")
                                                       .arg(lowOpen ? QStringLiteral("(") : QStringLiteral("["))
                                                       .arg(low)
                                                       .arg(high));
        return error ? fallback : d;
    }
    long long integer(const char* key, long long fallback, long long low, long long high) {
        if (!has(key) || error)
            return fallback;
        const QJsonValue v = json.value(QLatin1String(key));
        const double d = v.toDouble(NAN);
        if (!v.isDouble() || d != std::floor(d) || d < double(low) || d > double(high))
            error = fieldError(QLatin1String(key), QStringLiteral("must be an integer from %1 to %2").arg(low).arg(high));
        return error ? fallback : static_cast<long long>(d);
    }
    bool boolean(const char* key, bool fallback) {
        if (!has(key) || error)
            return fallback;
        const QJsonValue v = json.value(QLatin1String(key));
        if (!v.isBool())
            error = fieldError(QLatin1String(key), QStringLiteral("must be true or false"));
        return error ? fallback : v.toBool();
    }
};

QJsonObject sampler(const char* type, QJsonObject params = {}) {
    params.insert(QStringLiteral("type"), QLatin1String(type));
    return params;
}

// The strategy the sampling fields ask for (see ApiRequest).
std::variant<Strategy, ApiError> strategyFromFields(Reader& r, const ApiContext& context) {
    QJsonArray samplers;
    if (r.has("logit_bias")) {
        const QJsonValue v = r.json.value(QLatin1String("logit_bias"));
        if (!v.isObject())
            return fieldError(QStringLiteral("logit_bias"), QStringLiteral("must be an object of \"token id\": bias"));
        QJsonObject bias;
        const QJsonObject map = v.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            bool ok = false;
            const int id = it.key().toInt(&ok);
            if (!ok || id < 0 || id >= context.vocabSize)
                return fieldError(QStringLiteral("logit_bias"),
                                  QStringLiteral("has key '%1', which is not a token id of this model (0 to %2)")
                                      .arg(it.key())
                                      .arg(context.vocabSize - 1));
            const double b = it.value().toDouble(NAN);
            if (!it.value().isDouble() || !(b >= -100.0 && b <= 100.0))
                return fieldError(QStringLiteral("logit_bias"),
                                  QStringLiteral("gives token %1 a bias that is not a number in [-100, 100]").arg(id));
            bias.insert(it.key(), b);
        }
        if (!bias.isEmpty())
            samplers.append(sampler("logit_bias", {{QStringLiteral("bias"), bias}}));
    }
    const double frequency = r.number("frequency_penalty", 0.0, -2.0, 2.0);
    const double presence = r.number("presence_penalty", 0.0, -2.0, 2.0);
    const double repetition = r.number("repetition_penalty", 1.0, 0.0, 100.0, true);
    const double dryMultiplier = r.number("dry_multiplier", 0.0, 0.0, 100.0);
    const double dryBase = r.number("dry_base", 1.75, 1.0, 100.0, true);
    const long long dryAllowed = r.integer("dry_allowed_length", 2, 1, 1'000'000);
    const long long dryLastN = r.integer("dry_penalty_last_n", -1, -1, 1'000'000'000);
    const double temperature = r.number("temperature", 1.0, 0.0, 2.0);
    const long long topK = r.integer("top_k", 0, -1, 1'000'000'000);
    const double topP = r.number("top_p", 1.0, 0.0, 1.0, true);
    const double minP = r.number("min_p", 0.0, 0.0, 1.0);
    const double typical = r.number("typical_p", 1.0, 0.0, 1.0, true);
    const double sigma = r.number("top_n_sigma", -1.0, -1.0, 100.0);
    const double xtcProbability = r.number("xtc_probability", 0.0, 0.0, 1.0);
    const double xtcThreshold = r.number("xtc_threshold", 0.1, 0.0, 1.0);
    const long long mirostat = r.integer("mirostat", 0, 0, 2);
    const double tau = r.number("mirostat_tau", 5.0, 0.0, 100.0, true);
    const double eta = r.number("mirostat_eta", 0.1, 0.0, 10.0, true);
    if (r.error)
        return *r.error;
    if (frequency != 0.0 || presence != 0.0)
        samplers.append(sampler("penalties", {{QStringLiteral("frequency"), frequency}, {QStringLiteral("presence"), presence}}));
    if (repetition != 1.0)
        samplers.append(sampler("repetition_penalty", {{QStringLiteral("penalty"), repetition}}));
    if (dryMultiplier > 0.0)
        samplers.append(sampler("dry", {{QStringLiteral("multiplier"), dryMultiplier},
                                        {QStringLiteral("base"), dryBase},
                                        {QStringLiteral("allowed_length"), double(dryAllowed)},
                                        {QStringLiteral("last_n"), double(dryLastN)}}));
    if (temperature > 0.0 && temperature != 1.0)
        samplers.append(sampler("temperature", {{QStringLiteral("value"), temperature}}));
    if (topK > 0)
        samplers.append(sampler("top_k", {{QStringLiteral("k"), double(topK)}}));
    if (topP < 1.0)
        samplers.append(sampler("top_p", {{QStringLiteral("p"), topP}}));
    if (minP > 0.0)
        samplers.append(sampler("min_p", {{QStringLiteral("p"), minP}}));
    if (typical < 1.0)
        samplers.append(sampler("typical", {{QStringLiteral("p"), typical}}));
    if (sigma > 0.0)
        samplers.append(sampler("top_n_sigma", {{QStringLiteral("n"), sigma}}));
    if (xtcProbability > 0.0)
        samplers.append(sampler("xtc", {{QStringLiteral("threshold"), xtcThreshold}, {QStringLiteral("probability"), xtcProbability}}));
    if (temperature == 0.0)
        samplers.append(sampler("greedy"));
    else if (mirostat == 1)
        samplers.append(sampler("mirostat", {{QStringLiteral("tau"), tau}, {QStringLiteral("eta"), eta}}));
    else if (mirostat == 2)
        samplers.append(sampler("mirostat_v2", {{QStringLiteral("tau"), tau}, {QStringLiteral("eta"), eta}}));
    else
        samplers.append(sampler("dist"));
    Result<Strategy> strategy =
        Strategy::fromJson(QJsonObject{{QStringLiteral("name"), QStringLiteral("request")}, {QStringLiteral("samplers"), samplers}});
    if (!strategy)
        return ApiError{400, strategy.error().message, {}};
    return strategy.value();
}

QString roleOf(const QJsonValue& message) {
    return message.toObject().value(QLatin1String("role")).toString();
}

// A field the endpoint does not know, refused.
std::optional<ApiError> refuseUnknownFields(const QJsonObject& json, bool chat) {
    QStringList known = {QStringLiteral("model"),
                         QStringLiteral("max_tokens"),
                         QStringLiteral("n"),
                         QStringLiteral("stream"),
                         QStringLiteral("stream_options"),
                         QStringLiteral("stop"),
                         QStringLiteral("seed"),
                         QStringLiteral("logprobs"),
                         QStringLiteral("user"),
                         QStringLiteral("strategy"),
                         QStringLiteral("post_sampling_probs"),
                         QStringLiteral("return_tokens_as_token_ids"),
                         QStringLiteral("grammar"),
                         QStringLiteral("json_schema")};
    known += samplingFields();
    known += chat ? QStringList{QStringLiteral("messages"),        QStringLiteral("top_logprobs"),
                                QStringLiteral("tools"),           QStringLiteral("tool_choice"),
                                QStringLiteral("response_format"), QStringLiteral("max_completion_tokens")}
                  : QStringList{QStringLiteral("prompt"), QStringLiteral("echo")};
    for (auto it = json.begin(); it != json.end(); ++it)
        if (!known.contains(it.key()))
            return ApiError{400, QStringLiteral("unknown field '%1'").arg(it.key()), it.key()};
    return std::nullopt;
}

// A message with its content as the chat template takes it: a string (or null beside tool calls). OpenAI's
// content parts ([{"type": "text", "text": …}, …]) become their texts joined by line breaks, as vLLM joins them;
// any other part, or content of another type, is refused.
Result<QJsonObject> plainContent(QJsonObject message) {
    const QJsonValue content = message.value(QLatin1String("content"));
    if (content.isString() || content.isNull() || content.isUndefined())
        return message;
    const QString wrong = QStringLiteral("a message's content must be a string or an array of text parts "
                                         "({\"type\": \"text\", \"text\": \"…\"})");
    if (!content.isArray() || content.toArray().isEmpty())
        return Error::badInput(wrong);
    QStringList texts;
    for (const QJsonValue& part : content.toArray()) {
        const QJsonObject p = part.toObject();
        if (p.value(QLatin1String("type")).toString() != QLatin1String("text"))
            return Error::badInput(QStringLiteral("content parts of type '%1' are not supported; only text parts are")
                                       .arg(p.value(QLatin1String("type")).toString()));
        if (!p.value(QLatin1String("text")).isString())
            return Error::badInput(wrong);
        texts << p.value(QLatin1String("text")).toString();
    }
    message.insert(QStringLiteral("content"), texts.join(QLatin1Char('\n')));
    return message;
}

// tool_choice: "auto", or "none" which leaves the tools out of the prompt; the rest refused, saying what is.
std::optional<ApiError> refuseUnsupportedOutput(const QJsonObject& json) {
    if (json.contains(QLatin1String("tool_choice"))) {
        const QJsonValue choice = json.value(QLatin1String("tool_choice"));
        if (!choice.isString() ||
            (choice.toString() != QLatin1String("none") && choice.toString() != QLatin1String("auto")))
            return fieldError(QStringLiteral("tool_choice"),
                              QStringLiteral("only \"none\" and \"auto\" are supported (\"auto\": the model decides "
                                             "whether to call one; \"none\": it is not offered the tools); a "
                                             "required or named tool is not enforced"));
    }
    return std::nullopt;
}

// A chat request's prompt: its messages (and tools) rendered by the chat template, then tokenized.
std::optional<ApiError> readChatPrompt(Reader& r, const ApiContext& context, GenerationRequest& request) {
    const QJsonObject& json = r.json;
    const QJsonValue messages = json.value(QLatin1String("messages"));
    if (!messages.isArray() || messages.toArray().isEmpty())
        return fieldError(QStringLiteral("messages"), QStringLiteral("must be a non-empty array of messages"));
    QJsonArray normalized;
    for (const QJsonValue& m : messages.toArray()) {
        static const QStringList roles = {QStringLiteral("system"), QStringLiteral("developer"), QStringLiteral("user"),
                                          QStringLiteral("assistant"), QStringLiteral("tool")};
        if (!m.isObject() || !roles.contains(roleOf(m)))
            return fieldError(
                QStringLiteral("messages"),
                QStringLiteral("must hold objects whose role is system, developer, user, assistant or tool"));
        Result<QJsonObject> message = plainContent(m.toObject());
        if (!message)
            return fieldError(QStringLiteral("messages"), message.error().message);
        normalized.append(message.value());
    }
    if (std::optional<ApiError> refused = refuseUnsupportedOutput(json))
        return *refused;
    QJsonValue conversation = normalized;
    if (r.has("tools")) {
        if (!json.value(QLatin1String("tools")).isArray())
            return fieldError(QStringLiteral("tools"), QStringLiteral("must be an array"));
    }
    // tool_choice "none": the model is not offered the tools.
    if (r.has("tools") && json.value(QLatin1String("tool_choice")).toString() != QLatin1String("none")) {
        conversation = QJsonObject{{QStringLiteral("messages"), normalized},
                                   {QStringLiteral("tools"), json.value(QLatin1String("tools"))}};
    }
    const std::string conversationJson =
        (conversation.isArray() ? QJsonDocument(conversation.toArray()) : QJsonDocument(conversation.toObject()))
            .toJson(QJsonDocument::Compact)
            .toStdString();
    if (Status valid = validateConversation(conversationJson); !valid)
        return fieldError(QStringLiteral("messages"), valid.error().message);
    if (!context.chatTemplate)
        return ApiError{400, QStringLiteral("this model has no chat template; use /v1/completions with a prompt"),
                        QStringLiteral("messages")};
    Result<std::string> rendered = context.chatTemplate->render(conversationJson, true);
    if (!rendered)
        return fieldError(QStringLiteral("messages"),
                          QStringLiteral("cannot be rendered by the chat template: %1").arg(rendered.error().message));
    request.prompt = rendered.value();
    request.conversationJson = conversationJson;
    if (std::optional<ApiError> tooLong = refuseLongPrompt(request.prompt, context, QStringLiteral("messages")))
        return *tooLong;
    request.promptIds = context.tokenizer->encode(request.prompt, false, true);
    return std::nullopt;
}

// A completion request's prompt: one string, tokenized, or one array of token ids.
std::optional<ApiError> readCompletionPrompt(Reader& r, const ApiContext& context, GenerationRequest& request) {
    const QJsonValue prompt = r.json.value(QLatin1String("prompt"));
    QJsonValue single = prompt;
    if (prompt.isArray() && !prompt.toArray().isEmpty() && !prompt.toArray().first().isDouble()) {
        if (prompt.toArray().size() != 1)
            return fieldError(QStringLiteral("prompt"),
                              QStringLiteral("holds several prompts; send one request per prompt"));
        single = prompt.toArray().first();
    }
    if (single.isString()) {
        request.prompt = single.toString().toStdString();
        if (std::optional<ApiError> tooLong = refuseLongPrompt(request.prompt, context, QStringLiteral("prompt")))
            return *tooLong;
        request.promptIds = context.tokenizer->encode(request.prompt, true, false);
    } else if (single.isArray() && !single.toArray().isEmpty()) {
        for (const QJsonValue& id : single.toArray()) {
            const double d = id.toDouble(NAN);
            if (!id.isDouble() || d != std::floor(d) || d < 0 || d >= context.vocabSize)
                return fieldError(
                    QStringLiteral("prompt"),
                    QStringLiteral("must be a string or an array of token ids below %1").arg(context.vocabSize));
            request.promptIds.push_back(static_cast<TokenId>(d));
        }
        request.prompt = context.tokenizer->decode(request.promptIds);
    } else {
        return fieldError(QStringLiteral("prompt"), QStringLiteral("must be a string or an array of token ids"));
    }
    if (r.boolean("echo", false))
        return fieldError(QStringLiteral("echo"), QStringLiteral("is not supported: the prompt is not returned"));
    return std::nullopt;
}

// What the response holds and how it comes: max_tokens, n, stream and its options, logprobs and our extensions.
std::optional<ApiError> readResponseOptions(Reader& r, const ApiContext& context, int promptTokens, ApiRequest& out) {
    const QJsonObject& json = r.json;
    const bool chat = out.chat;
    GenerationRequest& request = out.request;
    const int room = context.contextLength > 0 ? context.contextLength - promptTokens : context.maxTokensLimit;
    const char* maxKey = chat && r.has("max_completion_tokens") ? "max_completion_tokens" : "max_tokens";
    request.maxTokens = static_cast<int>(r.integer(maxKey, chat ? std::min(room, context.maxTokensLimit) : 16, 0, context.maxTokensLimit));
    out.n = static_cast<int>(r.integer("n", 1, 1, context.maxN));
    out.stream = r.boolean("stream", false);
    if (r.has("stream_options")) {
        const QJsonValue options = json.value(QLatin1String("stream_options"));
        if (!options.isObject() || !out.stream)
            return fieldError(QStringLiteral("stream_options"), QStringLiteral("must be an object, and only with stream true"));
        out.includeUsage = options.toObject().value(QLatin1String("include_usage")).toBool(false);
    }
    if (chat) {
        out.logprobs = r.boolean("logprobs", false);
        out.topLogprobs = static_cast<int>(r.integer("top_logprobs", 0, 0, 20));
        if (!r.error && out.topLogprobs > 0 && !out.logprobs)
            return fieldError(QStringLiteral("top_logprobs"), QStringLiteral("needs logprobs true"));
    } else if (r.has("logprobs")) {
        out.topLogprobs = static_cast<int>(r.integer("logprobs", 0, 0, 20));
        out.logprobs = true;
    }
    out.postSamplingProbs = r.boolean("post_sampling_probs", false);
    out.tokensAsIds = r.boolean("return_tokens_as_token_ids", false);
    return std::nullopt;
}

// The request's stop strings (at most 16) and seed.
std::optional<ApiError> readStopsAndSeed(Reader& r, std::vector<std::string>& stops,
                                         std::optional<std::uint64_t>& seed) {
    const QJsonObject& json = r.json;
    if (r.has("stop")) {
        const QJsonValue stop = json.value(QLatin1String("stop"));
        const QJsonArray list = stop.isArray() ? stop.toArray() : QJsonArray{stop};
        if (list.size() > 16)
            return fieldError(QStringLiteral("stop"), QStringLiteral("holds more than 16 strings"));
        for (const QJsonValue& s : list) {
            if (!s.isString() || s.toString().isEmpty())
                return fieldError(QStringLiteral("stop"), QStringLiteral("must be a non-empty string or an array of them"));
            stops.push_back(s.toString().toStdString());
        }
    }
    if (r.has("seed")) {
        const QJsonValue v = json.value(QLatin1String("seed"));
        const double d = v.toDouble(NAN);
        if (!v.isDouble() || d != std::floor(d) || std::abs(d) > 9.007199254740992e15)
            return fieldError(QStringLiteral("seed"), QStringLiteral("must be an integer"));
        seed = static_cast<std::uint64_t>(static_cast<long long>(d));
    }
    return std::nullopt;
}

// A grammar stage's parameters, checked: the GBNF parses, the schema converts.
std::variant<QJsonObject, ApiError> grammarStage(const QString& field, const QJsonObject& stage) {
    Result<QJsonObject> params = validateSamplerParams(stage, 0);
    if (!params) {
        // The sentence without the sampler's position: the client named no sampler.
        QString message = params.error().message;
        const QString prefix = QStringLiteral("sampler 1 (grammar): ");
        if (message.startsWith(prefix))
            message = message.mid(prefix.size());
        return fieldError(field, message);
    }
    return params.value();
}

// The output constraint a request asks for, as a grammar stage: chat's response_format (json_object; json_schema
// with its schema, strict or not: the grammar holds the output to it either way), or llama.cpp's grammar (GBNF)
// and json_schema fields. std::nullopt for free text.
std::variant<std::optional<QJsonObject>, ApiError> outputGrammar(const Reader& r, bool chat) {
    const QJsonObject& json = r.json;
    std::optional<QJsonObject> stage;
    QString field;
    const auto set = [&](const QString& name, QJsonObject params) -> std::optional<ApiError> {
        if (stage)
            return fieldError(name, QStringLiteral("cannot be given beside '%1': give one constraint").arg(field));
        params.insert(QStringLiteral("type"), QStringLiteral("grammar"));
        stage = params;
        field = name;
        return std::nullopt;
    };
    if (chat && json.contains(QLatin1String("response_format"))) {
        const QJsonValue format = json.value(QLatin1String("response_format"));
        const QString type = format.toObject().value(QLatin1String("type")).toString();
        if (!format.isObject() || type.isEmpty())
            return fieldError(QStringLiteral("response_format"), QStringLiteral("must be an object with a type"));
        if (type == QLatin1String("json_object")) {
            (void)set(QStringLiteral("response_format"), {{QStringLiteral("json"), true}});
        } else if (type == QLatin1String("json_schema")) {
            const QJsonObject wrapper = format.toObject().value(QLatin1String("json_schema")).toObject();
            const QJsonValue schema = wrapper.value(QLatin1String("schema"));
            if (!schema.isObject())
                return fieldError(QStringLiteral("response_format"),
                                  QStringLiteral("json_schema must be an object whose \"schema\" is a JSON schema"));
            const QJsonValue strict = wrapper.value(QLatin1String("strict"));
            if (!strict.isUndefined() && !strict.isNull() && !strict.isBool())
                return fieldError(QStringLiteral("response_format"),
                                  QStringLiteral("json_schema.strict must be true or false"));
            (void)set(QStringLiteral("response_format"), {{QStringLiteral("json_schema"), schema}});
        } else if (type != QLatin1String("text")) {
            return fieldError(
                QStringLiteral("response_format"),
                QStringLiteral("type '%1' is not supported (text, json_object and json_schema are)").arg(type));
        }
    }
    if (r.has("grammar")) {
        const QJsonValue gbnf = json.value(QLatin1String("grammar"));
        if (!gbnf.isString() || gbnf.toString().isEmpty())
            return fieldError(QStringLiteral("grammar"), QStringLiteral("must be a GBNF grammar (text)"));
        if (std::optional<ApiError> twice = set(QStringLiteral("grammar"), {{QStringLiteral("gbnf"), gbnf}}))
            return *twice;
    }
    if (r.has("json_schema")) {
        const QJsonValue schema = json.value(QLatin1String("json_schema"));
        if (!schema.isObject())
            return fieldError(QStringLiteral("json_schema"), QStringLiteral("must be a JSON schema (an object)"));
        if (std::optional<ApiError> twice =
                set(QStringLiteral("json_schema"), {{QStringLiteral("json_schema"), schema}}))
            return *twice;
    }
    if (!stage)
        return std::optional<QJsonObject>();
    std::variant<QJsonObject, ApiError> checked = grammarStage(field, *stage);
    if (std::holds_alternative<ApiError>(checked))
        return std::get<ApiError>(checked);
    return std::optional<QJsonObject>(std::get<QJsonObject>(checked));
}

// The strategy: "strategy", else the sampling fields, else the server's default.
std::optional<ApiError> chooseStrategy(Reader& r, const ApiContext& context, ApiRequest& out) {
    const QJsonObject& json = r.json;
    GenerationRequest& request = out.request;
    bool anySampling = false;
    for (const QString& field : samplingFields())
        anySampling |= r.has(field.toLatin1().constData());
    if (r.has("strategy")) {
        const QJsonValue value = json.value(QLatin1String("strategy"));
        Result<Strategy> strategy = Error::badInput(QString());
        if (value.isObject()) {
            strategy = Strategy::fromJson(value.toObject());
        } else if (value.isString()) {
            std::optional<Strategy> named = context.namedStrategy ? context.namedStrategy(value.toString()) : std::nullopt;
            strategy = named ? Result<Strategy>(*named) : Strategy::parse(value.toString());
        } else {
            return fieldError(QStringLiteral("strategy"), QStringLiteral("must be a preset, a saved strategy's name or strategy JSON"));
        }
        if (!strategy)
            return fieldError(QStringLiteral("strategy"), QStringLiteral("is not a strategy: %1").arg(strategy.error().message));
        request.strategy = strategy.value();
        out.strategySource = QStringLiteral("strategy");
    } else if (anySampling) {
        std::variant<Strategy, ApiError> built = strategyFromFields(r, context);
        if (std::holds_alternative<ApiError>(built))
            return std::get<ApiError>(built);
        request.strategy = std::get<Strategy>(built);
        out.strategySource = QStringLiteral("fields");
    } else if (std::optional<ExperimentAssignment> assigned =
                   context.experimentArm ? context.experimentArm(r.json.value(QLatin1String("user")).toString())
                                         : std::nullopt) {
        request.strategy = assigned->strategy;
        out.strategySource = QStringLiteral("experiment");
        out.assignment = std::move(assigned);
    } else {
        request.strategy = context.defaultStrategy;
        out.strategySource = QStringLiteral("default");
    }
    return std::nullopt;
}

} // namespace

std::variant<ApiRequest, ApiError> parseApiRequest(const QByteArray& body, bool chat, const ApiContext& context) {
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return ApiError{
            400, QStringLiteral("the body is not valid JSON: %1").arg(jsonErrorWhere(body, parseError)), {}};
    if (!document.isObject())
        return ApiError{400, QStringLiteral("the body must be a JSON object"), {}};
    const QJsonObject json = document.object();
    if (std::optional<ApiError> unknown = refuseUnknownFields(json, chat))
        return *unknown;
    Reader r{json, std::nullopt};
    ApiRequest out;
    out.chat = chat;
    if (r.has("model")) {
        if (!json.value(QLatin1String("model")).isString())
            return fieldError(QStringLiteral("model"), QStringLiteral("must be a string"));
        out.model = json.value(QLatin1String("model")).toString();
        // As OpenAI answers a model it does not have (clients then say so, instead of getting another model's text).
        if (!out.model.isEmpty() && out.model != context.modelName)
            return ApiError{
                404,
                QStringLiteral("the model '%1' does not exist here; this server serves '%2' (GET /v1/models)")
                    .arg(out.model, context.modelName),
                QStringLiteral("model"), QStringLiteral("invalid_request_error"), QStringLiteral("model_not_found")};
    }

    // The prompt's tokens.
    GenerationRequest& request = out.request;
    request.usePromptIds = true;
    if (std::optional<ApiError> error =
            chat ? readChatPrompt(r, context, request) : readCompletionPrompt(r, context, request))
        return *error;
    if (request.promptIds.empty())
        return ApiError{400, QStringLiteral("the prompt is empty and the vocabulary has no BOS token to start from"),
                        chat ? QStringLiteral("messages") : QStringLiteral("prompt")};
    const int promptTokens = static_cast<int>(request.promptIds.size());
    if (context.contextLength > 0 && promptTokens >= context.contextLength)
        return ApiError{400,
                        QStringLiteral("the prompt is %1 tokens long; the model's context holds %2")
                            .arg(promptTokens)
                            .arg(context.contextLength),
                        chat ? QStringLiteral("messages") : QStringLiteral("prompt")};

    if (std::optional<ApiError> error = readResponseOptions(r, context, promptTokens, out))
        return *error;
    std::vector<std::string> stops;
    std::optional<std::uint64_t> seed;
    if (std::optional<ApiError> error = readStopsAndSeed(r, stops, seed))
        return *error;
    if (r.has("user") && !json.value(QLatin1String("user")).isString())
        return fieldError(QStringLiteral("user"), QStringLiteral("must be a string"));
    if (r.error)
        return *r.error;

    std::variant<std::optional<QJsonObject>, ApiError> constraint = outputGrammar(r, chat);
    if (std::holds_alternative<ApiError>(constraint))
        return std::get<ApiError>(constraint);
    if (std::optional<ApiError> error = chooseStrategy(r, context, out))
        return *error;
    if (const std::optional<QJsonObject>& grammar = std::get<std::optional<QJsonObject>>(constraint)) {
        Result<Strategy> constrained =
            withGrammarFirst(request.strategy, SamplerSpec{QStringLiteral("grammar"), *grammar});
        if (!constrained)
            return ApiError{400, constrained.error().message + QStringLiteral("; leave out the request's constraint"),
                            QStringLiteral("strategy")};
        request.strategy = constrained.value();
    }
    if (!stops.empty()) {
        request.strategy.stop.insert(request.strategy.stop.end(), stops.begin(), stops.end());
        if (request.strategy.stop.size() > 16)
            return fieldError(QStringLiteral("stop"), QStringLiteral("and the strategy's stop strings are more than 16"));
    }
    if (seed)
        request.strategy.seed = seed;
    request.seed = request.strategy.seed.value_or(QRandomGenerator::global()->generate64() >> 11);
    request.traceLevel = TraceLevel::Full;
    request.topN = std::max(out.topLogprobs, 8);
    return out;
}

namespace {

QJsonArray bytesOf(const std::string& text) {
    QJsonArray bytes;
    for (unsigned char c : text)
        bytes.append(int(c));
    return bytes;
}

// With tokens spelled as ids, our extension gives their texts too: {"id": piece} for every token the
// steps name (the chosen ones and the top-N shown; a special token as its vocabulary string), so a client
// has both.
QJsonObject tokenPieces(const std::vector<GeneratedStep>& steps, const ApiRequest& request, const Tokenizer& tokenizer) {
    QJsonObject pieces;
    const auto add = [&](TokenId id) {
        if (id >= 0)
            pieces.insert(QString::number(id),
                          QString::fromStdString(tokenizer.isSpecial(id) ? tokenizer.tokenText(id) : tokenizer.piece(id)));
    };
    for (const GeneratedStep& step : steps) {
        add(step.token);
        for (int i = 0; i < std::max(request.topLogprobs, 1) && i < int(step.trace.top.size()); ++i)
            add(step.trace.top[std::size_t(i)].id);
    }
    return pieces;
}

} // namespace

QJsonObject logprobsJson(const std::vector<GeneratedStep>& steps, const ApiRequest& request, const Tokenizer& tokenizer,
                         std::size_t textOffset) {
    const auto tokenString = [&](TokenId id) {
        return request.tokensAsIds ? "token_id:" + std::to_string(id) : tokenizer.piece(id);
    };
    const auto logOf = [](float p) { return p > 0.0f ? std::log(double(p)) : -9999.0; };
    const auto postSampling = [&](const StepTrace& trace) {
        QJsonArray probs;
        std::vector<const TopCandidate*> kept;
        for (const TopCandidate& c : trace.top)
            if (c.finalP > 0.0f)
                kept.push_back(&c);
        std::stable_sort(kept.begin(), kept.end(), [](const TopCandidate* a, const TopCandidate* b) { return a->finalP > b->finalP; });
        for (std::size_t i = 0; i < kept.size() && int(i) < std::max(request.topLogprobs, 1); ++i)
            probs.append(QJsonObject{{QStringLiteral("token"), QString::fromStdString(tokenString(kept[i]->id))},
                                     {QStringLiteral("id"), kept[i]->id},
                                     {QStringLiteral("prob"), double(kept[i]->finalP)}});
        return probs;
    };
    if (request.chat) {
        QJsonArray content;
        for (const GeneratedStep& step : steps) {
            const std::string text = tokenString(step.token);
            QJsonObject entry{{QStringLiteral("token"), QString::fromStdString(text)},
                              {QStringLiteral("logprob"), logOf(step.trace.rawP)},
                              {QStringLiteral("bytes"), bytesOf(text)}};
            QJsonArray top;
            for (int i = 0; i < request.topLogprobs && i < int(step.trace.top.size()); ++i) {
                const TopCandidate& c = step.trace.top[std::size_t(i)];
                const std::string t = tokenString(c.id);
                top.append(QJsonObject{{QStringLiteral("token"), QString::fromStdString(t)},
                                       {QStringLiteral("logprob"), logOf(c.rawP)},
                                       {QStringLiteral("bytes"), bytesOf(t)}});
            }
            entry.insert(QStringLiteral("top_logprobs"), top);
            if (request.postSamplingProbs) {
                entry.insert(QStringLiteral("post_sampling_prob"), double(step.trace.finalP));
                entry.insert(QStringLiteral("post_sampling_probs"), postSampling(step.trace));
            }
            content.append(entry);
        }
        QJsonObject out{{QStringLiteral("content"), content}};
        if (request.tokensAsIds)
            out.insert(QStringLiteral("token_pieces"), tokenPieces(steps, request, tokenizer));
        return out;
    }
    QJsonArray tokens, tokenLogprobs, topLogprobs, offsets, post;
    std::size_t offset = textOffset;
    for (const GeneratedStep& step : steps) {
        const std::string text = tokenString(step.token);
        tokens.append(QString::fromStdString(text));
        tokenLogprobs.append(logOf(step.trace.rawP));
        QJsonObject top;
        for (int i = 0; i < request.topLogprobs && i < int(step.trace.top.size()); ++i)
            top.insert(QString::fromStdString(tokenString(step.trace.top[std::size_t(i)].id)), logOf(step.trace.top[std::size_t(i)].rawP));
        topLogprobs.append(top);
        offsets.append(static_cast<qint64>(offset));
        offset += textLength(step.shown);
        if (request.postSamplingProbs)
            post.append(QJsonObject{{QStringLiteral("prob"), double(step.trace.finalP)},
                                    {QStringLiteral("top"), postSampling(step.trace)}});
    }
    QJsonObject out{{QStringLiteral("tokens"), tokens},
                    {QStringLiteral("token_logprobs"), tokenLogprobs},
                    {QStringLiteral("top_logprobs"), topLogprobs},
                    {QStringLiteral("text_offset"), offsets}};
    if (request.postSamplingProbs)
        out.insert(QStringLiteral("post_sampling_probs"), post);
    if (request.tokensAsIds)
        out.insert(QStringLiteral("token_pieces"), tokenPieces(steps, request, tokenizer));
    return out;
}

} // namespace swb
