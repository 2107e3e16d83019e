#include "serving/RemoteEngine.h"

#include <chrono>
#include <cmath>

#include <QCryptographicHash>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include "grammar/JsonSchemaGrammar.h"

namespace swb {

namespace {

using Clock = std::chrono::steady_clock;

QNetworkRequest makeRequest(const RemoteModel& model, const QString& path, int timeoutMs) {
    QUrl url = model.base;
    url.setPath(model.base.path() + path);
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    if (!model.apiKey.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + model.apiKey.toUtf8());
    if (timeoutMs > 0)
        request.setTransferTimeout(timeoutMs);
    return request;
}

// Waits on a local event loop until the reply has finished; its body (the reply is deleted later, its error
// still readable until then).
QByteArray finishedBody(QNetworkReply* reply) {
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    reply->deleteLater();
    return reply->readAll();
}

// The sentence for a reply that failed: the engine's own error message where it sent one.
QString replyError(QNetworkReply& reply, const QByteArray& body, const QString& where) {
    const int status = reply.attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QJsonObject json = QJsonDocument::fromJson(body).object();
    QString message = json.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    if (message.isEmpty())
        message = json.value(QLatin1String("error")).toString();
    if (status == 401 || status == 403)
        return QStringLiteral("%1 refused the request (HTTP %2): give its API key with --api-key").arg(where).arg(status);
    if (status > 0)
        return QStringLiteral("%1 answered HTTP %2%3").arg(where).arg(status).arg(message.isEmpty() ? QString() : ": " + message);
    switch (reply.error()) {
    case QNetworkReply::ConnectionRefusedError: return QStringLiteral("cannot reach %1: nothing is listening there").arg(where);
    case QNetworkReply::HostNotFoundError: return QStringLiteral("cannot reach %1: its host name is not known").arg(where);
    case QNetworkReply::TimeoutError:
    case QNetworkReply::OperationCanceledError: return QStringLiteral("%1 stopped answering (no data within the time allowed)").arg(where);
    case QNetworkReply::SslHandshakeFailedError: return QStringLiteral("cannot make a secure connection to %1").arg(where);
    case QNetworkReply::RemoteHostClosedError: return QStringLiteral("%1 closed the connection before answering").arg(where);
    default: return QStringLiteral("cannot reach %1 (network error %2)").arg(where).arg(int(reply.error()));
    }
}

// One sampler of a strategy as the engine's fields: its one parameter, the others left at their defaults
// (checked: a strategy that changed them cannot be sent).
struct FieldMap {
    const char* type;
    const char* param;
    const char* field; // the engine's field for param
};

bool othersAreDefaults(const SamplerSpec& spec, std::initializer_list<const char*> params) {
    QJsonObject minimal{{QStringLiteral("type"), spec.type}};
    for (const char* param : params)
        minimal.insert(QLatin1String(param), spec.params.value(QLatin1String(param)));
    Result<Strategy> plain = Strategy::fromJson(QJsonObject{{QStringLiteral("samplers"), QJsonArray{minimal}}});
    return plain && !plain->samplers.empty() && plain->samplers.front().params == spec.params;
}

} // namespace

QString remoteEngineName(RemoteEngineKind kind) {
    switch (kind) {
    case RemoteEngineKind::Swb: return QStringLiteral("swb serve");
    case RemoteEngineKind::LlamaCpp: return QStringLiteral("llama.cpp server");
    case RemoteEngineKind::Vllm: return QStringLiteral("vLLM");
    case RemoteEngineKind::OpenAi: return QStringLiteral("OpenAI-compatible server");
    }
    return {};
}

bool isRemoteModelAddress(const QString& model) {
    return model.startsWith(QLatin1String("http://"), Qt::CaseInsensitive) ||
           model.startsWith(QLatin1String("https://"), Qt::CaseInsensitive);
}

Result<RemoteModel> connectRemoteModel(const QString& address, const QString& apiKey, int timeoutMs) {
    RemoteModel model;
    model.base = QUrl(address);
    if (!model.base.isValid() || model.base.host().isEmpty())
        return Error::badInput(QStringLiteral("'%1' is not a server address (like http://127.0.0.1:8080/v1)").arg(address));
    QString path = model.base.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (path.isEmpty())
        path = QStringLiteral("/v1");
    model.base.setPath(path);
    model.apiKey = apiKey;
    const QString where = model.base.toString();

    QNetworkAccessManager network;
    QNetworkReply* reply = network.get(makeRequest(model, QStringLiteral("/models"), timeoutMs));
    const QByteArray body = finishedBody(reply);
    if (reply->error() != QNetworkReply::NoError)
        return Error::badInput(replyError(*reply, body, where));
    const QJsonArray data = QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toArray();
    if (data.isEmpty() || !data.first().isObject())
        return Error::badInput(
            QStringLiteral("%1 did not answer GET /models as an OpenAI-compatible server (no \"data\" list of models)").arg(where));
    const QJsonObject first = data.first().toObject();
    model.modelId = first.value(QLatin1String("id")).toString();
    const QString owner = first.value(QLatin1String("owned_by")).toString().toLower();
    if (owner == QLatin1String("swb"))
        model.engine = RemoteEngineKind::Swb;
    else if (owner == QLatin1String("llamacpp"))
        model.engine = RemoteEngineKind::LlamaCpp;
    else if (owner == QLatin1String("vllm"))
        model.engine = RemoteEngineKind::Vllm;
    const QJsonObject meta = first.value(QLatin1String("meta")).toObject();
    model.contextLength =
        meta.value(QLatin1String("n_ctx"))
            .toInt(meta.value(QLatin1String("n_ctx_train")).toInt(first.value(QLatin1String("max_model_len")).toInt()));
    model.vocabSize = meta.value(QLatin1String("n_vocab")).toInt();
    model.parameters = static_cast<qint64>(meta.value(QLatin1String("n_params")).toDouble());
    return model;
}

std::optional<std::vector<int>> remoteTokenize(const RemoteModel& model, const std::string& prompt) {
    if (model.engine == RemoteEngineKind::OpenAi)
        return std::nullopt;
    // /tokenize sits beside /v1, at the server's root.
    RemoteModel root = model;
    QString path = model.base.path();
    if (path.endsWith(QLatin1String("/v1")))
        path.chop(3);
    root.base.setPath(path);
    const QJsonObject body =
        model.engine != RemoteEngineKind::Vllm
            ? QJsonObject{{QStringLiteral("content"), QString::fromStdString(prompt)},
                          {QStringLiteral("add_special"), true},
                          // llama.cpp reads special tokens spelled in a completion's text; swb serve does not
                          {QStringLiteral("parse_special"), model.engine == RemoteEngineKind::LlamaCpp}}
            : QJsonObject{{QStringLiteral("model"), model.modelId},
                          {QStringLiteral("prompt"), QString::fromStdString(prompt)}};
    QNetworkAccessManager network;
    QNetworkReply* reply = network.post(makeRequest(root, QStringLiteral("/tokenize"), 15000),
                                        QJsonDocument(body).toJson(QJsonDocument::Compact));
    const QByteArray answer = finishedBody(reply);
    if (reply->error() != QNetworkReply::NoError)
        return std::nullopt;
    std::vector<int> ids;
    for (const QJsonValue& token : QJsonDocument::fromJson(answer).object().value(QLatin1String("tokens")).toArray()) {
        if (!token.isDouble())
            return std::nullopt;
        ids.push_back(token.toInt());
    }
    return ids;
}

namespace {

// llama.cpp draws from its chain's distribution at the end; greedy is its temperature sampler at 0, which keeps
// only the best token where it stands in the "samplers" list. Appended last it takes the argmax after
// everything the strategy did before greedy (without it in the list, temperature 0 did nothing and the filtered
// distribution was sampled). A strategy with its own temperature has it earlier in the list, and llama.cpp
// applies one temperature: that is exact only when every sampler after it keeps the best token. XTC removes
// tokens at random with the server's random numbers: exact only at probability 0 or 1.
Status llamaCppGreedy(const Strategy& strategy, QJsonArray& order) {
    static const QStringList keepBest = {QStringLiteral("top_k"), QStringLiteral("top_p"), QStringLiteral("min_p"),
                                         QStringLiteral("top_n_sigma"), QStringLiteral("greedy")};
    bool afterTemperature = false;
    for (const SamplerSpec& s : strategy.samplers) {
        if (s.type == QLatin1String("xtc")) {
            const double p = s.params.value(QLatin1String("probability")).toDouble();
            if (p > 0.0 && p < 1.0)
                return Error::badInput(
                    QStringLiteral("llama.cpp server cannot run xtc with probability %1 before greedy "
                                   "exactly: its draws use the server's random numbers")
                        .arg(p));
        }
        if (afterTemperature && !keepBest.contains(s.type))
            return Error::badInput(
                QStringLiteral("llama.cpp server applies one temperature, and greedy is its temperature "
                               "0: greedy after temperature and then %1 cannot run exactly (drop the "
                               "temperature: it does not change greedy's choice)")
                    .arg(s.type));
        afterTemperature |= s.type == QLatin1String("temperature");
    }
    if (!afterTemperature)
        order.append(QStringLiteral("temperature"));
    return {};
}

// A grammar stage as the engine's own field: llama.cpp's grammar and json_schema, vLLM's guided_grammar and
// guided_json, OpenAI's response_format (JSON only). Any JSON goes as our GBNF where the engine takes GBNF.
Status remoteGrammar(const QJsonObject& params, RemoteEngineKind engine, QJsonObject& fields) {
    const QString gbnf = params.value(QLatin1String("gbnf")).toString();
    const QJsonValue schema = params.value(QLatin1String("json_schema"));
    const bool anyJson = params.value(QLatin1String("json")).toBool();
    const QString name = remoteEngineName(engine);
    switch (engine) {
    case RemoteEngineKind::LlamaCpp:
        if (schema.isObject())
            fields.insert(QStringLiteral("json_schema"), schema);
        else
            fields.insert(QStringLiteral("grammar"), anyJson ? QString::fromStdString(anyJsonGbnf()) : gbnf);
        return {};
    case RemoteEngineKind::Vllm:
        if (schema.isObject())
            fields.insert(QStringLiteral("guided_json"), schema);
        else if (anyJson)
            fields.insert(QStringLiteral("response_format"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("json_object")}});
        else
            fields.insert(QStringLiteral("guided_grammar"), gbnf);
        return {};
    case RemoteEngineKind::OpenAi:
        if (!gbnf.isEmpty())
            return Error::badInput(QStringLiteral("%1 takes no grammar, only JSON (json_schema or json)").arg(name));
        fields.insert(QStringLiteral("response_format"),
                      schema.isObject() ? QJsonObject{{QStringLiteral("type"), QStringLiteral("json_schema")},
                                                      {QStringLiteral("json_schema"),
                                                       QJsonObject{{QStringLiteral("name"), QStringLiteral("output")},
                                                                   {QStringLiteral("schema"), schema},
                                                                   {QStringLiteral("strict"), true}}}}
                                        : QJsonObject{{QStringLiteral("type"), QStringLiteral("json_object")}});
        return {};
    case RemoteEngineKind::Swb:
        break;
    }
    return {};
}

} // namespace

Result<QJsonObject> remoteSamplingFields(const Strategy& strategy, RemoteEngineKind engine, int contextLength) {
    const QString name = remoteEngineName(engine);
    if (engine == RemoteEngineKind::Swb) // ours takes the strategy itself, decoders included
        return QJsonObject{{QStringLiteral("strategy"), strategy.toJson()}};
    if (!strategy.decoder.isSample())
        return Error::badInput(QStringLiteral("%1 cannot run the %2 decoder; only `swb serve` can").arg(name, strategy.decoder.type));

    static const FieldMap common[] = {{"temperature", "value", "temperature"}, {"top_p", "p", "top_p"}};
    static const FieldMap vllm[] = {{"top_k", "k", "top_k"}, {"min_p", "p", "min_p"},
                                    {"repetition_penalty", "penalty", "repetition_penalty"}};
    static const FieldMap llama[] = {{"top_k", "k", "top_k"},       {"min_p", "p", "min_p"},
                                     {"typical", "p", "typical_p"}, {"repetition_penalty", "penalty", "repeat_penalty"},
                                     {"top_n_sigma", "n", "top_n_sigma"}};
    // llama.cpp's names in its "samplers" list (the order it applies them in).
    static const std::pair<const char*, const char*> llamaOrder[] = {
        {"penalties", "penalties"}, {"repetition_penalty", "penalties"}, {"dry", "dry"}, {"top_k", "top_k"},
        {"typical", "typ_p"},       {"top_p", "top_p"},                  {"min_p", "min_p"}, {"xtc", "xtc"},
        {"temperature", "temperature"}, {"top_n_sigma", "top_n_sigma"}};

    // Penalties over the whole history, as ours count them (llama.cpp's default is its last 64 tokens). Its
    // "-1 = the context" is refused by servers since mid-2026 (0 to 2^31 - 1 only), and the value sizes a ring
    // buffer: the context where the engine said it, else 128K tokens.
    const int wholeHistory = contextLength > 0 ? contextLength : 131072;
    QJsonObject fields;
    QJsonArray order;
    if (engine == RemoteEngineKind::LlamaCpp) {
        // Its defaults (top_k 40, top_p 0.95, min_p 0.05, temperature 0.8) switched off: only the strategy acts.
        fields = QJsonObject{{QStringLiteral("top_k"), 0},
                             {QStringLiteral("top_p"), 1.0},
                             {QStringLiteral("min_p"), 0.0},
                             {QStringLiteral("typical_p"), 1.0},
                             {QStringLiteral("temperature"), 1.0},
                             {QStringLiteral("repeat_penalty"), 1.0},
                             {QStringLiteral("xtc_probability"), 0.0},
                             {QStringLiteral("dry_multiplier"), 0.0},
                             {QStringLiteral("top_n_sigma"), -1.0},
                             {QStringLiteral("mirostat"), 0},
                             {QStringLiteral("repeat_last_n"), wholeHistory}};
    } else {
        // vLLM (and other servers) fill what is not sent from the model's generation_config.json (a top_p of
        // 0.9, say): everything neutral unless the strategy sets it.
        fields = QJsonObject{{QStringLiteral("temperature"), 1.0}, {QStringLiteral("top_p"), 1.0},
                             {QStringLiteral("frequency_penalty"), 0.0}, {QStringLiteral("presence_penalty"), 0.0}};
        if (engine == RemoteEngineKind::Vllm) {
            fields.insert(QStringLiteral("top_k"), -1);
            fields.insert(QStringLiteral("min_p"), 0.0);
            fields.insert(QStringLiteral("repetition_penalty"), 1.0);
        }
    }
    if (engine == RemoteEngineKind::Vllm) {
        // vLLM applies its samplers in one fixed order: the strategy must already be in it.
        if (reorderForEngine(strategy.samplers, EngineOrder::Vllm) != strategy.samplers)
            return Error::badInput(QStringLiteral("vLLM applies penalties, temperature, top_k, top_p and min_p in that order; "
                                                  "this strategy orders them otherwise (give it \"order\": \"vllm\")"));
    }
    // Every engine applies a logit bias and a grammar before anything else (the two commute: the grammar's cut
    // does not look at the logits).
    std::size_t leading = 0;
    while (leading < strategy.samplers.size() && (strategy.samplers[leading].type == QLatin1String("logit_bias") ||
                                                  strategy.samplers[leading].type == QLatin1String("grammar")))
        ++leading;
    for (std::size_t i = leading; i < strategy.samplers.size(); ++i)
        if (strategy.samplers[i].type == QLatin1String("logit_bias") ||
            strategy.samplers[i].type == QLatin1String("grammar"))
            return Error::badInput(
                QStringLiteral("%1 applies %2 before every other sampler; this strategy has it later "
                               "(move it first)")
                    .arg(name, strategy.samplers[i].type));
    bool selected = false;
    for (const SamplerSpec& s : strategy.samplers) {
        const QByteArray type = s.type.toLatin1();
        const auto unsupported = [&] {
            return Error::badInput(QStringLiteral("%1 cannot apply the %2 sampler%3").arg(name, s.type,
                                   engine == RemoteEngineKind::OpenAi ? QStringLiteral(" (it takes temperature, top_p, penalties and logit_bias)")
                                                                      : QString()));
        };
        const FieldMap* found = nullptr;
        for (const FieldMap& m : common)
            if (type == m.type)
                found = &m;
        if (engine == RemoteEngineKind::Vllm)
            for (const FieldMap& m : vllm)
                if (type == m.type)
                    found = &m;
        if (engine == RemoteEngineKind::LlamaCpp)
            for (const FieldMap& m : llama)
                if (type == m.type)
                    found = &m;
        if (engine == RemoteEngineKind::LlamaCpp)
            for (const auto& [ours, theirs] : llamaOrder)
                if (type == ours && !order.contains(QLatin1String(theirs)))
                    order.append(QLatin1String(theirs));
        if (found) {
            if (!othersAreDefaults(s, {found->param}))
                return Error::badInput(QStringLiteral("%1 takes only the %2 of the %3 sampler; this strategy sets its other parameters")
                                           .arg(name, QLatin1String(found->param), s.type));
            fields.insert(QLatin1String(found->field), s.params.value(QLatin1String(found->param)));
        } else if (type == "penalties") {
            if (!othersAreDefaults(s, {"frequency", "presence"}))
                return Error::badInput(QStringLiteral("%1 takes only the frequency and presence of the penalties sampler; "
                                                      "this strategy sets its other parameters").arg(name));
            fields.insert(QStringLiteral("frequency_penalty"), s.params.value(QLatin1String("frequency")));
            fields.insert(QStringLiteral("presence_penalty"), s.params.value(QLatin1String("presence")));
        } else if (type == "logit_bias") {
            fields.insert(QStringLiteral("logit_bias"), s.params.value(QLatin1String("bias")));
        } else if (type == "grammar") {
            if (Status status = remoteGrammar(s.params, engine, fields); !status)
                return status.error();
        } else if (type == "xtc" && engine == RemoteEngineKind::LlamaCpp) {
            if (!othersAreDefaults(s, {"threshold", "probability"}))
                return Error::badInput(QStringLiteral("%1 takes only the threshold and probability of the xtc sampler; "
                                                      "this strategy sets its other parameters").arg(name));
            fields.insert(QStringLiteral("xtc_threshold"), s.params.value(QLatin1String("threshold")));
            fields.insert(QStringLiteral("xtc_probability"), s.params.value(QLatin1String("probability")));
        } else if (type == "dry" && engine == RemoteEngineKind::LlamaCpp) {
            fields.insert(QStringLiteral("dry_multiplier"), s.params.value(QLatin1String("multiplier")));
            fields.insert(QStringLiteral("dry_base"), s.params.value(QLatin1String("base")));
            fields.insert(QStringLiteral("dry_allowed_length"), s.params.value(QLatin1String("allowed_length")));
            const int lastN = s.params.value(QLatin1String("last_n")).toInt();
            fields.insert(QStringLiteral("dry_penalty_last_n"), lastN < 0 ? wholeHistory : lastN);
            fields.insert(QStringLiteral("dry_sequence_breakers"), s.params.value(QLatin1String("breakers")));
        } else if (type == "greedy") {
            if (engine == RemoteEngineKind::LlamaCpp)
                if (Status status = llamaCppGreedy(strategy, order); !status)
                    return status.error();
            fields.insert(QStringLiteral("temperature"), 0.0);
            selected = true;
        } else if (type == "dist") {
            selected = true;
        } else if ((type == "mirostat" || type == "mirostat_v2") && engine == RemoteEngineKind::LlamaCpp) {
            if (!othersAreDefaults(s, {"tau", "eta"}))
                return Error::badInput(QStringLiteral("%1 takes only the tau and eta of the %2 sampler (its m is 100)").arg(name, s.type));
            fields.insert(QStringLiteral("mirostat"), type == "mirostat" ? 1 : 2);
            fields.insert(QStringLiteral("mirostat_tau"), s.params.value(QLatin1String("tau")));
            fields.insert(QStringLiteral("mirostat_eta"), s.params.value(QLatin1String("eta")));
            selected = true;
        } else {
            return unsupported();
        }
    }
    if (!selected)
        return Error::badInput(QStringLiteral("%1 draws the token itself; this strategy ends without a selector").arg(name));
    if (engine == RemoteEngineKind::LlamaCpp && !order.isEmpty())
        fields.insert(QStringLiteral("samplers"), order);
    return fields;
}

namespace {

// "token_id:123" (vLLM's return_tokens_as_token_ids, and ours) -> 123; anything else -> -1.
int idOf(const QString& token) {
    if (!token.startsWith(QLatin1String("token_id:")))
        return -1;
    bool ok = false;
    const int id = token.mid(9).toInt(&ok);
    return ok ? id : -1;
}

// A token's text, unless the engine spelled it as its id.
std::string textOf(const QString& token) {
    return idOf(token) >= 0 ? std::string() : token.toStdString();
}

// The steps one streamed choice carries: completions' {tokens, token_logprobs, top_logprobs
// [, post_sampling_probs]} or llama.cpp's {content: [{id, token, logprob, top_logprobs | prob, top_probs}]}.
std::vector<RemoteStep> stepsOf(const QJsonObject& choice) {
    std::vector<RemoteStep> steps;
    const QJsonObject logprobs = choice.value(QLatin1String("logprobs")).toObject();
    const QJsonValue content = logprobs.value(QLatin1String("content"));
    if (content.isArray()) {
        for (const QJsonValue& v : content.toArray()) {
            const QJsonObject e = v.toObject();
            RemoteStep step;
            const auto candidate = [](const QJsonObject& c) {
                RemoteCandidate r;
                r.id = c.contains(QLatin1String("id")) ? c.value(QLatin1String("id")).toInt(-1)
                                                       : idOf(c.value(QLatin1String("token")).toString());
                r.text = textOf(c.value(QLatin1String("token")).toString());
                r.logprob = c.value(QLatin1String("logprob")).toDouble(NAN);
                if (c.contains(QLatin1String("prob")))
                    r.postProb = c.value(QLatin1String("prob")).toDouble();
                return r;
            };
            step.chosen = candidate(e);
            if (e.contains(QLatin1String("post_sampling_prob"))) // swb serve's chat spelling
                step.chosen.postProb = e.value(QLatin1String("post_sampling_prob")).toDouble();
            for (const QJsonValue& t : e.value(QLatin1String("post_sampling_probs")).toArray())
                step.postTop.push_back(candidate(t.toObject()));
            step.text = step.chosen.text;
            for (const QJsonValue& t : e.value(QLatin1String("top_logprobs")).toArray())
                step.top.push_back(candidate(t.toObject()));
            for (const QJsonValue& t : e.value(QLatin1String("top_probs")).toArray())
                step.postTop.push_back(candidate(t.toObject()));
            steps.push_back(std::move(step));
        }
        return steps;
    }
    const QJsonArray tokens = logprobs.value(QLatin1String("tokens")).toArray();
    const QJsonArray tokenLogprobs = logprobs.value(QLatin1String("token_logprobs")).toArray();
    const QJsonArray tops = logprobs.value(QLatin1String("top_logprobs")).toArray();
    const QJsonArray post = logprobs.value(QLatin1String("post_sampling_probs")).toArray();
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        RemoteStep step;
        const QString token = tokens[i].toString();
        step.chosen.id = idOf(token);
        step.chosen.text = textOf(token);
        step.chosen.logprob = tokenLogprobs[i].toDouble(NAN);
        const QJsonObject top = tops[i].toObject();
        for (auto it = top.begin(); it != top.end(); ++it)
            step.top.push_back({idOf(it.key()), textOf(it.key()), it.value().toDouble(NAN), std::nullopt});
        std::stable_sort(step.top.begin(), step.top.end(),
                         [](const RemoteCandidate& a, const RemoteCandidate& b) { return a.logprob > b.logprob; });
        if (i < post.size()) {
            const QJsonObject p = post[i].toObject();
            step.chosen.postProb = p.value(QLatin1String("prob")).toDouble();
            for (const QJsonValue& t : p.value(QLatin1String("top")).toArray()) {
                const QJsonObject c = t.toObject();
                step.postTop.push_back({c.value(QLatin1String("id")).toInt(-1), textOf(c.value(QLatin1String("token")).toString()),
                                        NAN, c.value(QLatin1String("prob")).toDouble()});
            }
        }
        steps.push_back(std::move(step));
    }
    return steps;
}

// Texts of tokens spelled as ids, where the engine adds them (swb serve's token_pieces).
void addPieces(std::vector<RemoteStep>& steps, const QJsonObject& logprobs) {
    const QJsonObject pieces = logprobs.value(QLatin1String("token_pieces")).toObject();
    if (pieces.isEmpty())
        return;
    const auto fill = [&pieces](RemoteCandidate& c) {
        if (c.id >= 0 && c.text.empty())
            c.text = pieces.value(QString::number(c.id)).toString().toStdString();
    };
    for (RemoteStep& step : steps) {
        fill(step.chosen);
        for (RemoteCandidate& c : step.top)
            fill(c);
        for (RemoteCandidate& c : step.postTop)
            fill(c);
    }
}

} // namespace

GenerationResult toGenerationResult(const RemoteResult& remote, const RemoteRequest& request) {
    GenerationResult out;
    out.promptIds.assign(request.promptIds.begin(), request.promptIds.end());
    out.text = remote.text;
    out.seed = request.seed ? *request.seed : request.strategy.seed.value_or(0);
    out.timeToFirstTokenMs = remote.timeToFirstTokenMs;
    out.tokensPerSecond = remote.tokensPerSecond;
    out.finish = remote.finishReason == QLatin1String("length")      ? FinishReason::MaxTokens
                 : remote.finishReason == QLatin1String("cancelled") ? FinishReason::Cancelled
                 : remote.stopString                                 ? FinishReason::StopString
                                                                     : FinishReason::Eos;
    for (const RemoteStep& s : remote.steps)
        out.steps.push_back(toGeneratedStep(s));
    return out;
}

GenerationResult remoteGenerationResult(const RemoteModel& model, const RemoteResult& remote,
                                        const RemoteRequest& request) {
    GenerationResult out = toGenerationResult(remote, request);
    if (out.promptIds.empty() && request.conversationJson.empty())
        if (std::optional<std::vector<int>> ids = remoteTokenize(model, request.prompt))
            out.promptIds.assign(ids->begin(), ids->end());
    return out;
}

RemoteRequest remoteRequestFor(const GenerationRequest& request, int topN) {
    RemoteRequest remote;
    remote.conversationJson = request.conversationJson;
    if (request.usePromptIds)
        remote.promptIds.assign(request.promptIds.begin(), request.promptIds.end());
    else
        remote.prompt = request.prompt;
    remote.strategy = request.strategy;
    remote.seed = request.strategy.seed ? request.strategy.seed : std::optional<std::uint64_t>(request.seed);
    remote.maxTokens = request.maxTokens;
    remote.topN = topN;
    return remote;
}

GeneratedStep toGeneratedStep(const RemoteStep& s) {
    GeneratedStep step;
    step.token = s.chosen.id;
    step.text = s.text;
    step.shown = s.text;
    StepTrace& trace = step.trace;
    trace.chosen = s.chosen.id;
    trace.rawP = std::isnan(s.chosen.logprob) ? 0.0f : float(std::exp(s.chosen.logprob));
    trace.finalP = s.chosen.postProb ? float(*s.chosen.postProb) : NAN; // unknown where the engine gives none
    // What an engine does not give is unknown, not 0 (exports leave it empty).
    trace.rawEntropy = NAN;
    trace.finalEntropy = NAN;
    trace.finalCount = -1;
    // The chosen token's place among the engine's top-N (by id, or by text where it gives no ids); 0 when
    // it is not among them.
    trace.rawRank = 0;
    for (std::size_t i = 0; i < s.top.size(); ++i)
        if (s.chosen.id >= 0 ? s.top[i].id == s.chosen.id : s.top[i].text == s.chosen.text) {
            trace.rawRank = static_cast<int>(i) + 1;
            break;
        }
    for (const RemoteCandidate& c : s.top) {
        TopCandidate t;
        t.id = c.id;
        // The engine gives log-probabilities: logits up to a constant (their softmax over the top-N is the same).
        t.logit = float(c.logprob);
        t.rawP = std::isnan(c.logprob) ? 0.0f : float(std::exp(c.logprob));
        t.finalP = NAN; // unknown unless the engine gives it, below
        for (const RemoteCandidate& p : s.postTop)
            if (p.id == c.id && p.postProb)
                t.finalP = float(*p.postProb);
        trace.top.push_back(t);
    }
    return step;
}

ModelInfo remoteModelInfo(const RemoteModel& model) {
    ModelInfo info;
    info.path = model.base.toString();
    info.format = QStringLiteral("remote");
    info.architecture = remoteEngineName(model.engine) + QStringLiteral(": ") + model.modelId;
    info.device = QStringLiteral("remote");
    info.contextLength = model.contextLength;
    info.vocabSize = model.vocabSize;
    info.parameters = model.parameters;
    info.contentHash = QString::fromLatin1(
        QCryptographicHash::hash((QStringLiteral("remote\n") + info.path + QLatin1Char('\n') + model.modelId).toUtf8(),
                                 QCryptographicHash::Sha256)
            .toHex());
    return info;
}

namespace {

// The streamed completion request for the engine: the strategy's sampling fields in the engine's names, the
// prompt (ids, text or the conversation's messages), max_tokens, a seed always, stop strings, and what
// each engine needs to send back token ids and log-probabilities.
Result<QJsonObject> remoteRequestBody(const RemoteModel& model, const RemoteRequest& request) {
    Result<QJsonObject> sampling = remoteSamplingFields(request.strategy, model.engine, model.contextLength);
    if (!sampling)
        return sampling.error();
    QJsonObject body = sampling.value();
    const bool chat = !request.conversationJson.empty();
    if (chat) {
        const QJsonDocument conversation = QJsonDocument::fromJson(QByteArray::fromStdString(request.conversationJson));
        if (conversation.isArray()) {
            body.insert(QStringLiteral("messages"), conversation.array());
        } else {
            body.insert(QStringLiteral("messages"), conversation.object().value(QLatin1String("messages")));
            if (conversation.object().contains(QLatin1String("tools")))
                body.insert(QStringLiteral("tools"), conversation.object().value(QLatin1String("tools")));
        }
    } else if (!request.promptIds.empty()) {
        QJsonArray ids;
        for (int id : request.promptIds)
            ids.append(id);
        body.insert(QStringLiteral("prompt"), ids);
    } else {
        body.insert(QStringLiteral("prompt"), QString::fromStdString(request.prompt));
    }
    if (!model.modelId.isEmpty())
        body.insert(QStringLiteral("model"), model.modelId);
    body.insert(QStringLiteral("max_tokens"), request.maxTokens);
    body.insert(QStringLiteral("stream"), true);
    if (chat) {
        body.insert(QStringLiteral("logprobs"), true);
        body.insert(QStringLiteral("top_logprobs"), request.topN);
    } else {
        body.insert(QStringLiteral("logprobs"), request.topN);
    }
    // Always a seed (the strategy's, else 0, as a local run), so the stored run says which.
    const std::uint64_t seed = request.seed ? *request.seed : request.strategy.seed.value_or(0);
    body.insert(QStringLiteral("seed"), static_cast<double>(seed));
    if (!request.strategy.stop.empty() && model.engine != RemoteEngineKind::Swb) {
        QJsonArray stop;
        for (const std::string& s : request.strategy.stop)
            stop.append(QString::fromStdString(s));
        body.insert(QStringLiteral("stop"), stop);
    }
    if (model.engine == RemoteEngineKind::Swb || model.engine == RemoteEngineKind::Vllm)
        body.insert(QStringLiteral("return_tokens_as_token_ids"), true);
    // (llama.cpp's post_sampling_probs would replace the raw log-probabilities instead of adding to them.)
    if (model.engine == RemoteEngineKind::Swb)
        body.insert(QStringLiteral("post_sampling_probs"), true);
    if (model.engine == RemoteEngineKind::LlamaCpp)
        body.insert(QStringLiteral("n_probs"), request.topN);
    return body;
}

} // namespace

Result<RemoteResult> remoteGenerate(const RemoteModel& model, const RemoteRequest& request,
                                    const std::function<bool(const RemoteStep&)>& onStep,
                                    const std::atomic<bool>* cancel) {
    const bool chat = !request.conversationJson.empty();
    Result<QJsonObject> body = remoteRequestBody(model, request);
    if (!body)
        return body.error();

    const QString where = model.base.toString();
    QNetworkAccessManager network;
    // No limit on the whole answer, but one on silence: an engine that sends nothing for 5 minutes has stalled.
    QNetworkReply* reply = network.post(
        makeRequest(model, chat ? QStringLiteral("/chat/completions") : QStringLiteral("/completions"), 300000),
        QJsonDocument(body.value()).toJson(QJsonDocument::Compact));
    RemoteResult result;
    QByteArray pending, all;
    std::string held; // text of events without tokens, not yet given to a step
    int events = 0;
    QString failure;
    bool cancelled = false;
    const auto start = Clock::now();
    Clock::time_point first;
    const auto readEvents = [&] {
        const QByteArray chunk = reply->readAll();
        all += chunk;
        pending += chunk;
        for (qsizetype end; !cancelled && (end = pending.indexOf('\n')) >= 0;) {
            const QByteArray line = pending.left(end).trimmed();
            pending.remove(0, end + 1);
            const bool errorLine = line.startsWith("error:"); // some llama.cpp builds report failures so
            if (!line.startsWith("data:") && !errorLine)
                continue;
            const QByteArray payload = line.mid(errorLine ? 6 : 5).trimmed();
            if (payload == "[DONE]")
                continue;
            const QJsonObject event = QJsonDocument::fromJson(payload).object();
            if (errorLine || event.contains(QLatin1String("error"))) {
                const QJsonValue error = event.value(QLatin1String("error"));
                QString message = error.isObject() ? error.toObject().value(QLatin1String("message")).toString() : error.toString();
                if (message.isEmpty())
                    message = event.value(QLatin1String("message")).toString();
                failure = QStringLiteral("%1 failed: %2").arg(where, message.isEmpty() ? QString::fromUtf8(payload.left(200)) : message);
                continue;
            }
            const QJsonArray choices = event.value(QLatin1String("choices")).toArray();
            if (choices.isEmpty()) // a usage event, or a server's opening one
                continue;
            ++events;
            const QJsonObject choice = choices.at(0).toObject();
            const std::string text =
                (chat ? choice.value(QLatin1String("delta")).toObject().value(QLatin1String("content")) : choice.value(QLatin1String("text")))
                    .toString()
                    .toStdString();
            std::vector<RemoteStep> steps = stepsOf(choice);
            addPieces(steps, choice.value(QLatin1String("logprobs")).toObject());
            // The event's text goes with its last token (an event may carry several, or none: then it waits
            // for the next token, or ends the text).
            if (!steps.empty()) {
                steps.back().text = held + text;
                held.clear();
                if (steps.size() == 1 && steps.front().chosen.text.empty())
                    steps.front().chosen.text = text;
            } else {
                held += text;
            }
            result.text += text;
            for (RemoteStep& step : steps) {
                if (result.steps.empty())
                    first = Clock::now();
                result.steps.push_back(step);
                if (onStep && !onStep(result.steps.back())) {
                    cancelled = true;
                    reply->abort();
                    break;
                }
            }
            const QJsonValue finish = choice.value(QLatin1String("finish_reason"));
            if (finish.isString())
                result.finishReason = finish.toString();
            if (choice.value(QLatin1String("stop_reason")).isString()) // vLLM: the stop string that ended it
                result.stopString = true;
        }
    };
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::readyRead, &loop, readEvents);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer poll;
    if (cancel) {
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (cancel->load() && !cancelled) {
                cancelled = true;
                reply->abort();
            }
        });
        poll.start(100);
    }
    loop.exec();
    if (!cancelled)
        readEvents();
    reply->deleteLater();
    if (cancelled) {
        result.finishReason = QStringLiteral("cancelled");
    } else if (reply->error() != QNetworkReply::NoError) {
        return Error::badInput(replyError(*reply, all, where));
    } else if (!failure.isEmpty()) {
        return Error::badInput(failure);
    } else if (events == 0) {
        return Error::badInput(QStringLiteral("%1 answered without a stream of tokens (is it an OpenAI-compatible server?)").arg(where));
    } else if (result.finishReason.isEmpty()) {
        return Error::badInput(QStringLiteral("%1 ended the stream without saying why (no finish_reason)").arg(where));
    }
    if (!held.empty() && !result.steps.empty())
        result.steps.back().text += held; // text after the last token
    if (result.finishReason == QLatin1String("stop") && !request.strategy.stop.empty() && !result.stopString) {
        // llama.cpp blanks the text of the token that completed a stop string (its top-N still spell it).
        std::string pieces;
        for (const RemoteStep& step : result.steps) {
            std::string piece = step.chosen.text;
            for (const RemoteCandidate& c : step.top)
                if (piece.empty() && c.id >= 0 && c.id == step.chosen.id)
                    piece = c.text;
            pieces += piece;
        }
        for (const std::string& stop : request.strategy.stop)
            result.stopString |= !stop.empty() && pieces.find(stop) != std::string::npos;
    }
    const auto end = Clock::now();
    if (!result.steps.empty()) {
        result.timeToFirstTokenMs = std::chrono::duration<double, std::milli>(first - start).count();
        const double decode = std::chrono::duration<double>(end - first).count();
        if (result.steps.size() > 1 && decode > 0)
            result.tokensPerSecond = double(result.steps.size() - 1) / decode;
    }
    return result;
}

void RemoteVocabulary::learn(const RemoteStep& step) {
    const std::lock_guard lock(m_mutex);
    const auto add = [this](const RemoteCandidate& c) {
        if (c.id >= 0 && !c.text.empty())
            m_pieces.insert_or_assign(c.id, c.text);
    };
    add(step.chosen);
    for (const RemoteCandidate& c : step.top)
        add(c);
    for (const RemoteCandidate& c : step.postTop)
        add(c);
}

int RemoteVocabulary::vocabSize() const {
    const std::lock_guard lock(m_mutex);
    return m_pieces.empty() ? 0 : m_pieces.rbegin()->first + 1;
}

std::string RemoteVocabulary::decode(const std::vector<TokenId>& ids) const {
    std::string text;
    for (TokenId id : ids)
        text += piece(id);
    return text;
}

std::string RemoteVocabulary::piece(TokenId id) const {
    const std::lock_guard lock(m_mutex);
    const auto found = m_pieces.find(id);
    return found == m_pieces.end() ? std::string() : found->second;
}

RunSource remoteRunSource(const RemoteModel& model, std::shared_ptr<RemoteVocabulary> vocabulary) {
    RunSource source;
    source.info = remoteModelInfo(model);
    source.rendersConversations = true;
    source.generateBatch = [model, vocabulary](const std::vector<GenerationRequest>& requests,
                                               const std::function<bool(std::size_t, const GeneratedStep&)>& onStep,
                                               const std::atomic<bool>* cancel) {
        std::vector<Result<GenerationResult>> results;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            if (cancel && cancel->load())
                break; // the runner saves nothing of a cancelled item
            if (!results.empty() && !results.back())
                break; // the runner stops at the first failure
            const RemoteRequest request = remoteRequestFor(requests[i]);
            Result<RemoteResult> result = remoteGenerate(
                model, request,
                [&](const RemoteStep& step) {
                    if (vocabulary)
                        vocabulary->learn(step);
                    return !(cancel && cancel->load()) && (!onStep || onStep(i, toGeneratedStep(step)));
                },
                cancel);
            results.push_back(result ? Result<GenerationResult>(remoteGenerationResult(model, result.value(), request))
                                     : Result<GenerationResult>(result.error()));
        }
        return results;
    };
    return source;
}

} // namespace swb
