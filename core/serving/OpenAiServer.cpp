#include "serving/OpenAiServer.h"

#include <memory>

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QRandomGenerator>
#include <QThreadPool>
#include <QUrl>

#include "chat/ChatTemplate.h"
#include "model/Model.h"
#include "serving/ExperimentService.h"
#include "serving/HttpServer.h"
#include "serving/OpenAiApi.h"
#include "serving/ServeMetrics.h"
#include "serving/ServingEngine.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "tokenizer/Tokenizer.h"
#include "workflows/RunRecording.h"

namespace swb {

namespace {

// The name a run store keeps the served default strategy under.

QByteArray json(const QJsonObject& object) {
    return answerJson(object);
}

// One generation request in flight: its choices as they come back from the engine, its stream, its log.
struct InFlight {
    ApiRequest api;
    QString id;
    qint64 created = 0;
    QString endpoint;
    std::vector<std::shared_ptr<ServeJob>> jobs;
    std::vector<std::optional<Result<GenerationResult>>> results;
    std::vector<std::vector<GeneratedStep>> steps; // streamed so far, per choice
    std::vector<std::size_t> textSent;             // bytes of text streamed, per choice
    std::vector<std::size_t> charsSent;            // the same in characters (text_offset), per choice
    int finished = 0;
    qint64 startMs = 0;
    HttpHeaders experimentHeaders; // X-Experiment and X-Experiment-Arm when the request was assigned an arm
    std::optional<qint64> firstTokenMs;
};

} // namespace

class OpenAiServer::Impl {
public:
    friend class OpenAiServer;
    Impl(Model& model, const Tokenizer& tokenizer, std::optional<ChatTemplate> chatTemplate, Strategy strategy,
         std::unique_ptr<Database> database, const ServeOptions& options)
        : m_model(model)
        , m_tokenizer(tokenizer)
        , m_chatTemplate(std::move(chatTemplate))
        , m_strategy(std::move(strategy))
        , m_database(std::move(database))
        , m_log(options.log)
        , m_engine(model, tokenizer, options.parallel, options.queue)
        , m_http([this](const HttpRequest& r, HttpExchange& e) { handle(r, e); },
                 [](int status, const QByteArray& message) {
                     return ApiError{status, QString::fromUtf8(message), {}}.body();
                 },
                 options.http) {
        m_apiKey = options.apiKey.toUtf8();
        m_queueCapacity = options.queue;
        m_readers.setMaxThreadCount(2); // reading requests must not take every core from decoding
        m_maxTokens = options.maxTokensLimit;
        m_modelName = QFileInfo(model.info().path).fileName();
        m_experiments = std::make_unique<ExperimentService>(
            m_database.get(), m_metrics, [this](const QJsonObject& line) { log(line); },
            [this](const Strategy& strategy) { return serveByDefault(strategy); });
    }

    void answer(HttpExchange& exchange, const QString& endpoint, int status, const QByteArray& body,
                const QByteArray& type = "application/json", const HttpHeaders& extra = {}) {
        m_metrics.request(endpoint, status);
        exchange.respond(status, type, body, extra);
    }
    void fail(HttpExchange& exchange, const QString& endpoint, const ApiError& error, const HttpHeaders& extra = {}) {
        answer(exchange, endpoint, error.status, error.body(), "application/json", extra);
        log(QJsonObject{{QStringLiteral("endpoint"), endpoint},
                        {QStringLiteral("status"), error.status},
                        {QStringLiteral("error"), error.message}});
    }
    void log(const QJsonObject& line) {
        QJsonObject out{{QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)}};
        for (auto it = line.begin(); it != line.end(); ++it)
            out.insert(it.key(), it.value());
        if (m_log)
            m_log(json(out));
    }

    ApiContext context() const {
        ApiContext c;
        c.tokenizer = &m_tokenizer;
        c.chatTemplate = m_chatTemplate ? &*m_chatTemplate : nullptr;
        c.defaultStrategy = m_strategy;
        c.modelName = m_modelName;
        c.vocabSize = m_model.info().vocabSize;
        c.contextLength = m_model.info().contextLength;
        c.maxTokensLimit = m_maxTokens;
        c.namedStrategy = [this](const QString& name) -> std::optional<Strategy> {
            if (!m_database)
                return std::nullopt;
            Result<std::optional<Strategy>> found = RunRepository(*m_database).findNamedStrategy(name);
            return found ? found.value() : std::nullopt;
        };
        return c;
    }

    void handle(const HttpRequest& request, HttpExchange& exchange) {
        const QString path = QString::fromUtf8(request.path);
        if (!m_apiKey.isEmpty() && path != QLatin1String("/health") &&
            request.header("authorization") != "Bearer " + m_apiKey)
            return fail(exchange, path, ApiError{401, QStringLiteral("a valid API key is needed: send 'Authorization: Bearer KEY'"), {},
                                                 QStringLiteral("authentication_error")});
        const auto method = [&](const char* expected) {
            if (request.method == expected)
                return true;
            fail(exchange, path, ApiError{405, QStringLiteral("%1 takes %2, not %3").arg(path, QLatin1String(expected), QString::fromUtf8(request.method)), {}});
            return false;
        };
        if (path == QLatin1String("/health")) {
            if (method("GET"))
                answer(exchange, path, 200, json({{QStringLiteral("status"), QStringLiteral("ok")}}));
        } else if (path == QLatin1String("/metrics")) {
            if (method("GET"))
                answer(exchange, path, 200, m_metrics.render(m_engine.queued(), m_engine.busy(), m_engine.parallel()),
                       "text/plain; version=0.0.4; charset=utf-8");
        } else if (path == QLatin1String("/v1/models")) {
            if (method("GET"))
                answer(exchange, path, 200,
                       json({{QStringLiteral("object"), QStringLiteral("list")},
                             {QStringLiteral("data"), QJsonArray{modelObject()}}}));
        } else if (path.startsWith(QLatin1String("/v1/models/"))) {
            const QString endpoint = QStringLiteral("/v1/models/{id}");
            const QString id = QUrl::fromPercentEncoding(request.path.mid(int(qstrlen("/v1/models/"))));
            if (request.method != "GET")
                fail(exchange, endpoint, ApiError{405, QStringLiteral("%1 takes GET").arg(endpoint), {}});
            else if (id == m_modelName)
                answer(exchange, endpoint, 200, json(modelObject()));
            else
                fail(exchange, endpoint,
                     ApiError{404,
                              QStringLiteral("the model '%1' does not exist here; this server serves '%2'")
                                  .arg(id, m_modelName),
                              {},
                              QStringLiteral("invalid_request_error"),
                              QStringLiteral("model_not_found")});
        } else if (path == QLatin1String("/v1/strategy")) {
            if (request.method == "GET")
                answer(exchange, path, 200, json(strategyJson()));
            else if (request.method == "PUT")
                putStrategy(request, exchange);
            else
                fail(exchange, path, ApiError{405, QStringLiteral("/v1/strategy takes GET or PUT"), {}});
        } else if (path == QLatin1String("/tokenize")) {
            if (method("POST"))
                tokenize(request, exchange);
        } else if (path == QLatin1String("/v1/feedback")) {
            if (method("POST"))
                answerWith(exchange, path, m_experiments->feedback(request.body));
        } else if (path == QLatin1String("/v1/experiments")) {
            if (method("GET"))
                answerWith(exchange, path, m_experiments->list());
        } else if (path.startsWith(QLatin1String("/v1/experiments/"))) {
            const QString endpoint = QStringLiteral("/v1/experiments/{name}");
            const QString name = QUrl::fromPercentEncoding(request.path.mid(int(qstrlen("/v1/experiments/"))));
            if (request.method == "GET")
                answerWith(exchange, endpoint, m_experiments->get(name));
            else if (request.method == "PUT")
                answerWith(exchange, endpoint, m_experiments->put(name, request.body, context().namedStrategy));
            else
                fail(exchange, endpoint, ApiError{405, QStringLiteral("%1 takes GET or PUT").arg(endpoint), {}});
        } else if (path == QLatin1String("/v1/completions") || path == QLatin1String("/v1/chat/completions")) {
            if (method("POST"))
                generate(request, exchange, path, path == QLatin1String("/v1/chat/completions"));
        } else {
            fail(exchange, path, ApiError{404, QStringLiteral("there is no %1 here").arg(path), {}, QStringLiteral("not_found_error")});
        }
    }

    void answerWith(HttpExchange& exchange, const QString& endpoint, const ExperimentService::Answer& result) {
        if (std::holds_alternative<ApiError>(result))
            return fail(exchange, endpoint, std::get<ApiError>(result));
        answer(exchange, endpoint, 200, json(std::get<QJsonObject>(result)));
    }

    QJsonObject modelObject() const {
        return QJsonObject{{QStringLiteral("id"), m_modelName},
                           {QStringLiteral("object"), QStringLiteral("model")},
                           {QStringLiteral("created"), m_started},
                           {QStringLiteral("owned_by"), QStringLiteral("swb")},
                           // As llama.cpp's server tells it: what a remote client records of the model.
                           {QStringLiteral("meta"),
                            QJsonObject{{QStringLiteral("n_ctx"), m_model.info().contextLength},
                                        {QStringLiteral("n_vocab"), m_model.info().vocabSize},
                                        {QStringLiteral("n_params"), static_cast<double>(m_model.info().parameters)}}}};
    }

    QJsonObject strategyJson() const {
        return QJsonObject{{QStringLiteral("strategy"), m_strategy.toJson()},
                           {QStringLiteral("name"), m_strategy.name},
                           {QStringLiteral("hash"), m_strategy.hash()}};
    }

    void putStrategy(const HttpRequest& request, HttpExchange& exchange) {
        const QString path = QStringLiteral("/v1/strategy");
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
        Result<Strategy> strategy = Error::badInput(QStringLiteral("the body must be strategy JSON, or {\"strategy\": a preset, "
                                                                   "a saved strategy's name or strategy JSON}"));
        if (document.isObject()) {
            const QJsonObject body = document.object();
            const QJsonValue inner = body.value(QLatin1String("strategy"));
            if (body.size() == 1 && inner.isString()) {
                std::optional<Strategy> named = context().namedStrategy(inner.toString());
                strategy = named ? Result<Strategy>(*named) : Strategy::parse(inner.toString());
            } else {
                strategy = Strategy::fromJson(body.size() == 1 && inner.isObject() ? inner.toObject() : body);
            }
        }
        if (!strategy)
            return fail(exchange, path, ApiError{400, strategy.error().message, QStringLiteral("strategy")});
        if (const Status remembered = serveByDefault(strategy.value()); !remembered)
            return fail(
                exchange, path,
                ApiError{
                    500,
                    QStringLiteral("the strategy is valid but cannot be saved: %1").arg(remembered.error().message),
                    {},
                    QStringLiteral("server_error")});
        log(QJsonObject{{QStringLiteral("endpoint"), path}, {QStringLiteral("status"), 200},
                        {QStringLiteral("strategy"), m_strategy.name}, {QStringLiteral("strategy_hash"), m_strategy.hash()}});
        answer(exchange, path, 200, json(strategyJson()));
    }

    // The strategy of requests that name none, saved under its own name (reports show served runs by it) and
    // remembered by the store as the default.
    Status serveByDefault(const Strategy& strategy) {
        if (m_database) {
            RunRepository runs(*m_database);
            Result<qint64> id = runs.saveStrategy(strategy);
            if (Status remembered = id ? runs.setServedStrategy(id.value()) : Status(id.error()); !remembered)
                return remembered;
        }
        m_strategy = strategy;
        return {};
    }

    // POST /tokenize, as llama.cpp's server takes it ({"content", "add_special", "parse_special"} -> {"tokens"}):
    // how this server reads a text prompt, for remote clients that record prompt ids. On a pool thread, as
    // generation requests are read.
    void tokenize(const HttpRequest& request, HttpExchange& exchange) {
        const QString path = QStringLiteral("/tokenize");
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        const QJsonValue content = body.value(QLatin1String("content"));
        if (!content.isString())
            return fail(exchange, path,
                        ApiError{400, QStringLiteral("field 'content' must be the text to tokenize"),
                                 QStringLiteral("content")});
        const bool addSpecial = body.value(QLatin1String("add_special")).toBool(true);
        const bool parseSpecial = body.value(QLatin1String("parse_special")).toBool(false);
        QPointer<QObject> connection = exchange.context();
        HttpExchange* ex = &exchange;
        m_readers.start(
            [this, connection, ex, path, addSpecial, parseSpecial, text = content.toString().toStdString()] {
                QJsonArray tokens;
                for (TokenId id : m_tokenizer.encode(text, addSpecial, parseSpecial))
                    tokens.append(id);
                QMetaObject::invokeMethod(
                    m_guard.get(),
                    [this, connection, ex, path, tokens] {
                        if (connection)
                            answer(*ex, path, 200, json({{QStringLiteral("tokens"), tokens}}));
                    },
                    Qt::QueuedConnection);
            });
    }

    // Reads the request on a pool thread (rendering a conversation and tokenizing a prompt of up to --max-body
    // took 585 ms for 4 MiB on the network thread, which answered nothing else meanwhile), then starts it here.
    void generate(const HttpRequest& request, HttpExchange& exchange, const QString& endpoint, bool chat) {
        ApiContext ctx = context();
        // The store is this thread's: a strategy named in the request is looked up among those read now. (Only
        // when the body could name one: the key spelled out, or escaped.)
        std::vector<Strategy> named;
        if (m_database && (request.body.contains("strategy") || request.body.contains("\\u"))) {
            RunRepository runs(*m_database);
            if (Result<std::vector<std::pair<qint64, Strategy>>> list = runs.listNamedStrategies())
                for (auto& [id, strategy] : list.value())
                    named.push_back(std::move(strategy));
        }
        ctx.namedStrategy = [named = std::move(named)](const QString& name) -> std::optional<Strategy> {
            for (const Strategy& strategy : named)
                if (strategy.name == name)
                    return strategy;
            return std::nullopt;
        };
        ctx.experimentArm = m_experiments->assigner(QString::fromUtf8(request.header("x-experiment-unit")).trimmed());
        QPointer<QObject> connection = exchange.context();
        HttpExchange* ex = &exchange;
        m_readers.start([this, connection, ex, endpoint, chat, body = request.body, ctx = std::move(ctx)] {
            auto parsed = std::make_shared<std::variant<ApiRequest, ApiError>>(parseApiRequest(body, chat, ctx));
            QMetaObject::invokeMethod(
                m_guard.get(),
                [this, connection, ex, endpoint, chat, parsed] {
                    if (connection) // the client may have gone meanwhile
                        start(*ex, endpoint, chat, std::move(*parsed));
                },
                Qt::QueuedConnection);
        });
    }

    void start(HttpExchange& exchange, const QString& endpoint, bool chat, std::variant<ApiRequest, ApiError> parsed) {
        if (std::holds_alternative<ApiError>(parsed))
            return fail(exchange, endpoint, std::get<ApiError>(parsed));
        // More choices than slots and queue places together could never be taken in: not "busy", but refused.
        if (const int n = std::get<ApiRequest>(parsed).n; n > m_engine.parallel() + m_queueCapacity)
            return fail(exchange, endpoint,
                        ApiError{400,
                                 QStringLiteral("n is %1, but this server decodes %2 sequences at once and queues %3 "
                                                "more: at most %4 choices fit")
                                     .arg(n)
                                     .arg(m_engine.parallel())
                                     .arg(m_queueCapacity)
                                     .arg(m_engine.parallel() + m_queueCapacity),
                                 QStringLiteral("n")});
        auto flight = std::make_shared<InFlight>();
        flight->api = std::move(std::get<ApiRequest>(parsed));
        flight->endpoint = endpoint;
        flight->id = QStringLiteral("%1-%2").arg(chat ? QStringLiteral("chatcmpl") : QStringLiteral("cmpl"))
                         .arg(QString::number(QRandomGenerator::global()->generate64(), 36));
        flight->created = QDateTime::currentSecsSinceEpoch();
        flight->startMs = QDateTime::currentMSecsSinceEpoch();
        if (const std::optional<ExperimentAssignment>& a = flight->api.assignment) {
            flight->experimentHeaders = {{"X-Experiment", a->experiment.toUtf8()},
                                         {"X-Experiment-Arm", a->arm.toUtf8()}};
            m_experiments->assigned(*a);
        }
        const int n = flight->api.n;
        flight->results.resize(std::size_t(n));
        flight->steps.resize(std::size_t(n));
        flight->textSent.assign(std::size_t(n), 0);
        flight->charsSent.assign(std::size_t(n), 0);
        QPointer<QObject> context = exchange.context();
        HttpExchange* ex = &exchange;
        for (int i = 0; i < n; ++i) {
            auto job = std::make_shared<ServeJob>();
            job->request = flight->api.request;
            if (n > 1)
                job->request.strategy.seed = job->request.seed + std::uint64_t(i);
            job->onStep = [this, context, ex, flight, i](const ServedStep& step) {
                QMetaObject::invokeMethod(context.data(), [this, context, ex, flight, i, step] {
                    if (context)
                        onStep(*ex, flight, i, step.step);
                }, Qt::QueuedConnection);
            };
            job->onFinished = [this, context, ex, flight, i](Result<GenerationResult> result) {
                auto shared = std::make_shared<Result<GenerationResult>>(std::move(result));
                QMetaObject::invokeMethod(m_guard.get(), [this, context, ex, flight, i, shared] {
                    onFinished(context ? ex : nullptr, flight, i, std::move(*shared));
                }, Qt::QueuedConnection);
            };
            flight->jobs.push_back(job);
        }
        exchange.onClosed = [flight] {
            for (const auto& job : flight->jobs)
                job->cancelled = true;
        };
        for (const auto& job : flight->jobs)
            if (!m_engine.submit(job)) {
                for (const auto& j : flight->jobs)
                    j->cancelled = true;
                exchange.onClosed = nullptr;
                flight->jobs.clear(); // the submitted ones finish as cancelled, unanswered
                return fail(exchange, endpoint, ApiError{503, QStringLiteral("the server is busy: every slot and queue place is taken; retry shortly"),
                                                          {}, QStringLiteral("server_busy")},
                            {{"Retry-After", "1"}});
            }
        if (flight->api.stream) {
            m_metrics.request(endpoint, 200);
            exchange.beginStream(200, "text/event-stream", flight->experimentHeaders);
            if (chat)
                for (int i = 0; i < n; ++i)
                    sendChunk(exchange, *flight, i, QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                               {QStringLiteral("content"), QString()}},
                              QJsonValue(QJsonValue::Null), {});
        }
    }

    void sendChunk(HttpExchange& exchange, const InFlight& flight, int index, const QJsonObject& delta,
                   const QJsonValue& finish, const QJsonValue& logprobs) {
        QJsonObject choice{{QStringLiteral("index"), index},
                           {QStringLiteral("finish_reason"), finish},
                           {QStringLiteral("logprobs"), logprobs.isUndefined() ? QJsonValue(QJsonValue::Null) : logprobs}};
        if (flight.api.chat)
            choice.insert(QStringLiteral("delta"), delta);
        else
            choice.insert(QStringLiteral("text"), delta.value(QLatin1String("content")).toString());
        const QJsonObject chunk{{QStringLiteral("id"), flight.id},
                                {QStringLiteral("object"), flight.api.chat ? QStringLiteral("chat.completion.chunk")
                                                                           : QStringLiteral("text_completion")},
                                {QStringLiteral("created"), flight.created},
                                {QStringLiteral("model"), m_modelName},
                                {QStringLiteral("choices"), QJsonArray{choice}}};
        exchange.write("data: " + json(chunk) + "\n\n");
    }

    void onStep(HttpExchange& exchange, const std::shared_ptr<InFlight>& flight, int index, const GeneratedStep& step) {
        if (flight->jobs.empty())
            return; // answered already (refused as busy, or complete): its exchange may be gone
        if (!flight->firstTokenMs)
            flight->firstTokenMs = QDateTime::currentMSecsSinceEpoch();
        flight->steps[std::size_t(index)].push_back(step);
        if (!flight->api.stream || !exchange.isOpen())
            return;
        QJsonValue logprobs;
        if (flight->api.logprobs || flight->api.postSamplingProbs)
            logprobs = logprobsJson({step}, flight->api, m_tokenizer, flight->charsSent[std::size_t(index)]);
        if (step.shown.empty() && logprobs.isUndefined())
            return;
        flight->textSent[std::size_t(index)] += step.shown.size();
        flight->charsSent[std::size_t(index)] += textLength(step.shown);
        sendChunk(exchange, *flight, index, QJsonObject{{QStringLiteral("content"), QString::fromStdString(step.shown)}},
                  QJsonValue(QJsonValue::Null), logprobs);
    }

    void onFinished(HttpExchange* exchange, const std::shared_ptr<InFlight>& flight, int index, Result<GenerationResult> result) {
        if (flight->jobs.empty())
            return; // refused as busy: answered already
        if (result && m_database && result->finish != FinishReason::Cancelled) {
            RunRepository runs(*m_database);
            GenerationRequest request = flight->jobs[std::size_t(index)]->request;
            if (Result<RunRecord> saved = saveGeneration(runs, m_model.info(), request, result.value()); !saved)
                log(QJsonObject{{QStringLiteral("id"), flight->id}, {QStringLiteral("warning"), saved.error().message}});
            else
                m_experiments->recordRun(saved->id, flight->id, index, flight->api.assignment,
                                         double(QDateTime::currentMSecsSinceEpoch() - flight->startMs));
        }
        if (result && flight->api.stream && exchange && exchange->isOpen()) {
            // Text held back by a stop string and released at the end, then the choice's finish.
            const std::string& text = result->text;
            std::size_t& sent = flight->textSent[std::size_t(index)];
            if (sent < text.size())
                sendChunk(*exchange, *flight, index, QJsonObject{{QStringLiteral("content"), QString::fromStdString(text.substr(sent))}},
                          QJsonValue(QJsonValue::Null), {});
            sent = text.size();
            sendChunk(*exchange, *flight, index, QJsonObject{}, openAiFinishReason(result->finish), {});
        }
        flight->results[std::size_t(index)] = std::move(result);
        if (++flight->finished < flight->api.n)
            return;
        complete(exchange, flight);
    }

    void complete(HttpExchange* exchange, const std::shared_ptr<InFlight>& flight) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        int completionTokens = 0;
        QString error;
        QString finish;
        for (const auto& r : flight->results) {
            if (!r || !*r) {
                error = r ? (*r).error().message : QStringLiteral("no result");
                continue;
            }
            completionTokens += static_cast<int>((*r)->steps.size());
            finish = finishReasonName((*r)->finish);
        }
        const int promptTokens = static_cast<int>(flight->api.request.promptIds.size());
        const QJsonObject usage{{QStringLiteral("prompt_tokens"), promptTokens},
                                {QStringLiteral("completion_tokens"), completionTokens},
                                {QStringLiteral("total_tokens"), promptTokens + completionTokens}};
        const double seconds = double(now - flight->startMs) / 1000.0;
        const double ttft = flight->firstTokenMs ? double(*flight->firstTokenMs - flight->startMs) / 1000.0 : 0.0;
        const int perChoice = flight->api.n > 0 ? completionTokens / flight->api.n : 0;
        m_metrics.finished(seconds, ttft, perChoice > 1 ? (seconds - ttft) / double(perChoice - 1) : 0.0, promptTokens,
                           completionTokens);
        const Strategy& strategy = flight->api.request.strategy;
        int status = 200;
        if (exchange && exchange->isOpen()) {
            if (flight->api.stream) {
                if (!error.isEmpty())
                    exchange->write("data: " + ApiError{500, error, {}, QStringLiteral("server_error")}.body() + "\n\n");
                if (flight->api.includeUsage)
                    exchange->write("data: " + json({{QStringLiteral("id"), flight->id},
                                                      {QStringLiteral("object"), flight->api.chat ? QStringLiteral("chat.completion.chunk")
                                                                                                  : QStringLiteral("text_completion")},
                                                      {QStringLiteral("created"), flight->created},
                                                      {QStringLiteral("model"), m_modelName},
                                                      {QStringLiteral("choices"), QJsonArray{}},
                                                      {QStringLiteral("usage"), usage}}) + "\n\n");
                exchange->write("data: [DONE]\n\n");
                exchange->finish();
            } else if (!error.isEmpty()) {
                status = 500;
                fail(*exchange, flight->endpoint, ApiError{500, error, {}, QStringLiteral("server_error")});
            } else {
                QJsonArray choices;
                for (int i = 0; i < flight->api.n; ++i) {
                    const GenerationResult& r = flight->results[std::size_t(i)]->value();
                    QJsonObject choice{{QStringLiteral("index"), i},
                                       {QStringLiteral("finish_reason"), openAiFinishReason(r.finish)}};
                    QJsonValue logprobs(QJsonValue::Null);
                    if (flight->api.logprobs || flight->api.postSamplingProbs)
                        logprobs = logprobsJson(r.steps, flight->api, m_tokenizer);
                    choice.insert(QStringLiteral("logprobs"), logprobs);
                    if (flight->api.chat)
                        choice.insert(QStringLiteral("message"), QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                                              {QStringLiteral("content"), QString::fromStdString(r.text)}});
                    else
                        choice.insert(QStringLiteral("text"), QString::fromStdString(r.text));
                    choices.append(choice);
                }
                QJsonObject body{
                    {QStringLiteral("id"), flight->id},
                    {QStringLiteral("object"),
                     flight->api.chat ? QStringLiteral("chat.completion") : QStringLiteral("text_completion")},
                    {QStringLiteral("created"), flight->created},
                    {QStringLiteral("model"), m_modelName},
                    {QStringLiteral("choices"), choices},
                    {QStringLiteral("usage"), usage},
                    {QStringLiteral("strategy"), QJsonObject{{QStringLiteral("name"), strategy.name},
                                                             {QStringLiteral("hash"), strategy.hash()},
                                                             {QStringLiteral("source"), flight->api.strategySource}}}};
                if (const std::optional<ExperimentAssignment>& a = flight->api.assignment)
                    body.insert(QStringLiteral("experiment"),
                                QJsonObject{{QStringLiteral("name"), a->experiment}, {QStringLiteral("arm"), a->arm}});
                answer(*exchange, flight->endpoint, 200, json(body), "application/json", flight->experimentHeaders);
            }
        } else {
            status = 499; // the client went away
        }
        QJsonObject line{{QStringLiteral("id"), flight->id},
                         {QStringLiteral("endpoint"), flight->endpoint},
                         {QStringLiteral("status"), status},
                         {QStringLiteral("strategy"), strategy.name},
                         {QStringLiteral("strategy_hash"), strategy.hash().left(16)},
                         {QStringLiteral("strategy_source"), flight->api.strategySource},
                         {QStringLiteral("n"), flight->api.n},
                         {QStringLiteral("prompt_tokens"), promptTokens},
                         {QStringLiteral("completion_tokens"), completionTokens},
                         {QStringLiteral("finish"), finish},
                         {QStringLiteral("ttft_ms"), ttft * 1000.0},
                         {QStringLiteral("duration_ms"), seconds * 1000.0}};
        if (const std::optional<ExperimentAssignment>& a = flight->api.assignment) {
            line.insert(QStringLiteral("experiment"), a->experiment);
            line.insert(QStringLiteral("arm"), a->arm);
        }
        log(line);
        flight->jobs.clear(); // breaks the cycle jobs -> callbacks -> flight
    }

    Model& m_model;
    const Tokenizer& m_tokenizer;
    std::optional<ChatTemplate> m_chatTemplate;
    Strategy m_strategy;
    std::unique_ptr<Database> m_database;
    std::function<void(const QByteArray&)> m_log;
    int m_queueCapacity = 0;
    ServeMetrics m_metrics{{QStringLiteral("/health"), QStringLiteral("/metrics"), QStringLiteral("/v1/models"),
                            QStringLiteral("/v1/models/{id}"), QStringLiteral("/v1/strategy"),
                            QStringLiteral("/v1/completions"), QStringLiteral("/v1/chat/completions"),
                            QStringLiteral("/tokenize"), QStringLiteral("/v1/feedback"),
                            QStringLiteral("/v1/experiments"), QStringLiteral("/v1/experiments/{name}")}};
    std::unique_ptr<ExperimentService> m_experiments;
    std::unique_ptr<QObject> m_guard = std::make_unique<QObject>(); // context of the engine's finish calls
    ServingEngine m_engine;
    HttpServer m_http;
    QByteArray m_apiKey;
    int m_maxTokens = 4096;
    QString m_modelName;
    qint64 m_started = QDateTime::currentSecsSinceEpoch();
    // Reads requests off the network thread (last: destroyed first, waiting for the reads under way).
    QThreadPool m_readers;
};

OpenAiServer::OpenAiServer(Model& model, const Tokenizer& tokenizer, std::optional<ChatTemplate> chatTemplate, Strategy strategy,
                           std::unique_ptr<Database> database, const ServeOptions& options)
    : m_impl(std::make_unique<Impl>(model, tokenizer, std::move(chatTemplate), std::move(strategy), std::move(database), options)) {}

OpenAiServer::~OpenAiServer() = default;

Result<quint16> OpenAiServer::listen(const QHostAddress& address, quint16 port) {
    return m_impl->m_http.listen(address, port);
}

const QString& OpenAiServer::modelName() const {
    return m_impl->m_modelName;
}

const Strategy& OpenAiServer::strategy() const {
    return m_impl->m_strategy;
}

int OpenAiServer::slotCount() const {
    return m_impl->m_engine.parallel();
}

void OpenAiServer::stopListening() {
    m_impl->m_http.stopListening();
}

int OpenAiServer::requestsInFlight() const {
    return m_impl->m_http.exchangesInFlight();
}

} // namespace swb
