// swb serve: the loaded model behind an OpenAI-compatible HTTP API, with continuous batching, a strategy
// switchable at run time, Prometheus metrics and one log line per request.

#include <csignal>
#include <memory>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTimer>

#include "chat/ChatTemplate.h"
#include "cli/ChatArguments.h"
#include "cli/ModelArguments.h"
#include "cli/RunStoreArgument.h"
#include "cli/Subcommand.h"
#include "model/Model.h"
#include "serving/ExperimentService.h"
#include "serving/OpenAiServer.h"
#include "serving/RatingServer.h"
#include "storage/CampaignRepository.h"
#include "storage/Database.h"
#include "storage/ExperimentRepository.h"
#include "storage/RunRepository.h"
#include "tokenizer/Tokenizer.h"

namespace swb::cli {

namespace {

volatile std::sig_atomic_t g_stopSignal = 0;

// Runs the event loop until SIGINT or SIGTERM, then drains: no new connections, the requests in flight
// (streams included) finish, for at most the drain timeout, and the process exits 0.
template <typename Server> void serveUntilStopped(const Invocation& call, Server& server) {
    std::signal(SIGINT, [](int) { g_stopSignal = 1; });
    std::signal(SIGTERM, [](int) { g_stopSignal = 1; });
    const qint64 drainMs = call.integer(QStringLiteral("drain-timeout"), 30, 0, 86400) * 1000;
    QElapsedTimer draining;
    QTimer watch;
    QObject::connect(&watch, &QTimer::timeout, [&] {
        if (!g_stopSignal)
            return;
        if (!draining.isValid()) {
            draining.start();
            server.stopListening();
            call.err << QStringLiteral("swb serve: stopping; %1 request(s) in flight may finish within %2 s\n")
                            .arg(server.requestsInFlight())
                            .arg(drainMs / 1000);
            call.err.flush();
        }
        if (server.requestsInFlight() == 0 || draining.elapsed() >= drainMs) {
            if (const int cut = server.requestsInFlight(); cut > 0)
                call.err << QStringLiteral("swb serve: drain timeout: %1 request(s) cut\n").arg(cut);
            QCoreApplication::quit();
        }
    });
    watch.start(50);
    QCoreApplication::exec();
    call.err << "swb serve: stopped\n";
}

QString hostText(const QHostAddress& address) {
    return address.protocol() == QAbstractSocket::IPv6Protocol ? QStringLiteral("[%1]").arg(address.toString())
                                                               : address.toString();
}

// swb serve --rating: the store's campaigns to raters in their browsers; no model. Each rater's link carries
// its own unguessable token, so listening beyond loopback needs no API key.
int runRatingServer(const Invocation& call, const QHostAddress& address, quint16 port) {
    if (!call.args.isSet(QStringLiteral("db")))
        failBadInput(QStringLiteral("--rating serves the campaigns of a run store: give it with --db FILE"));
    std::unique_ptr<Database> database = openExistingRunStore(call.required(QStringLiteral("db")));
    Result<std::vector<CampaignRecord>> campaigns = CampaignRepository(*database).list();
    if (!campaigns)
        failBadInput(campaigns.error().message);
    if (campaigns->empty())
        failBadInput(QStringLiteral("%1 has no rating campaign yet; create one with swb campaign create").arg(database->path()));
    RatingServer server(std::move(database), [&call](const QByteArray& line) {
        call.err << line << '\n';
        call.err.flush();
    });
    Result<quint16> bound = server.listen(address, port);
    if (!bound)
        failBadInput(bound.error().message);
    call.err << QStringLiteral("swb serve: rating on http://%1:%2/rate/TOKEN (%3 campaign(s); swb campaign status lists "
                               "the links)\n")
                    .arg(hostText(address))
                    .arg(bound.value())
                    .arg(campaigns->size());
    call.err.flush();
    serveUntilStopped(call, server);
    return 0;
}

// --experiment NAME [--arm A=STRATEGY ...] [--split W,W...] [--metric thumbs|score] [--auto-promote]: the
// experiment started in the run store before the server opens it (one without arms is resumed from there).
void startExperiment(const Invocation& call, Database* database) {
    const QString name = call.args.value(QStringLiteral("experiment"));
    for (const char* option : {"arm", "split", "metric", "auto-promote"})
        if (call.args.isSet(QLatin1String(option)) && name.isEmpty())
            failBadInput(
                QStringLiteral("--%1 belongs to an experiment: give it --experiment NAME").arg(QLatin1String(option)));
    if (name.isEmpty())
        return;
    if (!database)
        failBadInput(
            QStringLiteral("--experiment keeps its assignments and feedback in a run store: give it --db FILE"));
    ExperimentRepository experiments(*database);
    const QStringList arms = call.args.values(QStringLiteral("arm"));
    Result<ExperimentRecord> design = Error::badInput(QString());
    if (arms.isEmpty()) {
        Result<std::optional<ExperimentRecord>> stored = experiments.find(name);
        if (!stored || !stored.value())
            failBadInput(
                QStringLiteral("there is no experiment '%1' in %2 to resume: give its arms with --arm NAME=STRATEGY "
                               "(twice or more; the first is the control)")
                    .arg(name, database->path()));
        design = *stored.value();
        design->autoPromote = call.args.isSet(QStringLiteral("auto-promote"));
    } else {
        const QStringList split = call.args.isSet(QStringLiteral("split"))
                                      ? call.args.value(QStringLiteral("split")).split(QLatin1Char(','))
                                      : QStringList();
        if (!split.isEmpty() && split.size() != arms.size())
            failBadInput(QStringLiteral("--split gives %1 shares for %2 arms").arg(split.size()).arg(arms.size()));
        QJsonArray armsJson;
        for (qsizetype i = 0; i < arms.size(); ++i) {
            const qsizetype equals = arms[i].indexOf(QLatin1Char('='));
            if (equals <= 0)
                failBadInput(
                    QStringLiteral("--arm reads NAME=STRATEGY (a preset, a saved strategy's name, a JSON file or "
                                   "JSON), not '%1'")
                        .arg(arms[i]));
            QJsonObject arm{{QStringLiteral("name"), arms[i].left(equals)},
                            {QStringLiteral("strategy"), arms[i].mid(equals + 1)}};
            if (!split.isEmpty()) {
                bool ok = false;
                const double weight = split[i].trimmed().toDouble(&ok);
                if (!ok || !(weight > 0))
                    failBadInput(QStringLiteral("--split takes shares above 0 separated by commas (50,50), not '%1'")
                                     .arg(call.args.value(QStringLiteral("split"))));
                arm.insert(QStringLiteral("weight"), weight);
            }
            armsJson.append(arm);
        }
        QJsonObject body{{QStringLiteral("arms"), armsJson},
                         {QStringLiteral("auto_promote"), call.args.isSet(QStringLiteral("auto-promote"))}};
        if (call.args.isSet(QStringLiteral("metric")))
            body.insert(QStringLiteral("metric"), call.args.value(QStringLiteral("metric")));
        RunRepository runs(*database);
        design = ExperimentService::designFromJson(name, body, [&](const QString& wanted) -> std::optional<Strategy> {
            Result<std::optional<Strategy>> found = runs.findNamedStrategy(wanted);
            return found ? found.value() : std::nullopt;
        });
    }
    if (!design)
        failBadInput(design.error().message);
    Result<ExperimentRecord> started = experiments.start(std::move(design).value());
    if (!started)
        failBadInput(started.error().message);
    QStringList armText;
    for (const ExperimentArm& arm : started->arms)
        armText << QStringLiteral("%1 %2 (weight %3)")
                       .arg(arm.name, arm.strategy.name.isEmpty() ? arm.strategy.hash().left(12) : arm.strategy.name)
                       .arg(arm.weight);
    call.err << QStringLiteral("swb serve: experiment %1 on %2, arms %3; feedback is %4%5\n")
                    .arg(name, database->path(), armText.join(QStringLiteral(", ")), started->metric,
                         started->autoPromote ? QStringLiteral(", the winner is promoted") : QString());
}

int runServe(const Invocation& call) {
    const QString host = call.args.isSet(QStringLiteral("host")) ? call.args.value(QStringLiteral("host")) : QStringLiteral("127.0.0.1");
    QHostAddress address;
    if (host == QLatin1String("localhost"))
        address = QHostAddress::LocalHost;
    else if (!address.setAddress(host))
        failBadInput(QStringLiteral("--host takes an IP address such as 127.0.0.1 or 0.0.0.0, not '%1'").arg(host));
    QString apiKey = call.args.value(QStringLiteral("api-key"));
    if (call.args.isSet(QStringLiteral("api-key-file"))) {
        // The key from a file, so that it is not in the process list.
        if (!apiKey.isEmpty())
            failBadInput(QStringLiteral("give the API key with --api-key or --api-key-file, not both"));
        const QString path = call.args.value(QStringLiteral("api-key-file"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            failBadInput(QStringLiteral("cannot read the API key file %1: %2").arg(path, file.errorString()));
        apiKey = QString::fromUtf8(file.readAll()).trimmed();
        if (apiKey.isEmpty() || apiKey.contains(QLatin1Char('\n')))
            failBadInput(QStringLiteral("the API key file %1 must hold one key on one line").arg(path));
    }
    const quint16 port = static_cast<quint16>(call.integer(QStringLiteral("port"), 8080, 0, 65535));
    if (call.args.isSet(QStringLiteral("rating")))
        return runRatingServer(call, address, port);
    if (!address.isLoopback() && apiKey.isEmpty())
        failBadInput(QStringLiteral("listening on %1, which is not loopback, needs --api-key KEY (clients then send "
                                    "'Authorization: Bearer KEY')")
                         .arg(host));

    std::unique_ptr<Database> database = openOptionalRunStore(call);
    // The default strategy: --strategy, else $SAMPLING_STRATEGY, else the one a PUT left in --db, else greedy.
    QString source = call.args.value(QStringLiteral("strategy"));
    if (source.isEmpty())
        source = qEnvironmentVariable("SAMPLING_STRATEGY");
    std::optional<Strategy> strategy;
    if (source.isEmpty() && database) {
        RunRepository runs(*database);
        if (Result<std::optional<Strategy>> served = runs.servedStrategy(); served && served.value())
            strategy = *served.value();
        else if (Result<std::vector<std::pair<qint64, Strategy>>> named = runs.listNamedStrategies())
            for (const auto& [id, s] : named.value()) // a store from before schema 7 named it instead
                if (s.name == OpenAiServer::kServedStrategyName)
                    strategy = s;
    }
    if (!strategy) {
        Result<Strategy> parsed = Strategy::parse(source.isEmpty() ? QStringLiteral("greedy") : source);
        if (!parsed)
            failBadInput(QStringLiteral("the default strategy (%1) is not valid: %2")
                             .arg(call.args.isSet(QStringLiteral("strategy")) ? QStringLiteral("--strategy") : QStringLiteral("SAMPLING_STRATEGY"),
                                  parsed.error().message));
        strategy = parsed.value();
    }
    startExperiment(call, database.get());
    QString note;
    std::optional<ChatTemplate> chatTemplate = chatTemplateFromArguments(call, modelPathArgument(call), &note);
    LoadedModel loaded = loadModelFromArguments(call);
    ServeOptions options;
    options.parallel = static_cast<int>(call.integer(QStringLiteral("parallel"), 4, 1, 256));
    options.queue = static_cast<int>(call.integer(QStringLiteral("queue"), 64, 0, 100000));
    options.apiKey = apiKey;
    options.maxTokensLimit = static_cast<int>(call.integer(QStringLiteral("max-tokens-limit"), 4096, 1, 10'000'000));
    options.http.maxBody = call.integer(QStringLiteral("max-body"), 4 * 1024 * 1024, 1024, 1LL << 32);
    options.http.requestTimeoutMs =
        static_cast<int>(call.integer(QStringLiteral("request-timeout"), 30, 1, 3600) * 1000);
    options.http.maxConnections = static_cast<int>(call.integer(QStringLiteral("max-connections"), 256, 1, 100000));
    options.log = [&call](const QByteArray& line) {
        call.err << line << '\n';
        call.err.flush();
    };
    OpenAiServer server(*loaded.model, *loaded.tokenizer, std::move(chatTemplate), *strategy, std::move(database), options);
    Result<quint16> bound = server.listen(address, port);
    if (!bound)
        failBadInput(bound.error().message);
    call.err << QStringLiteral("swb serve: listening on http://%1:%2/v1 (model %3, strategy %4 %5, %6 slots)%7\n")
                    .arg(hostText(address))
                    .arg(bound.value())
                    .arg(server.modelName(), server.strategy().name.isEmpty() ? QStringLiteral("(unnamed)") : server.strategy().name,
                         server.strategy().hash().left(12))
                    .arg(server.slotCount())
                    .arg(note.isEmpty() ? QString() : QStringLiteral("; ") + note + QStringLiteral(": chat requests are refused"));
    call.err.flush();
    serveUntilStopped(call, server);
    return 0;
}

} // namespace

Subcommand serveSubcommand() {
    return {
        QStringLiteral("serve"),
        QStringLiteral(
            "swb serve [--model PATH] [--tokenizer PATH] [--host 127.0.0.1] [--port 8080] [--parallel N] "
            "[--queue N] [--strategy S] [--db FILE] [--api-key KEY | --api-key-file FILE] "
            "[--max-tokens-limit N] [--max-body BYTES] "
            "[--request-timeout S] [--max-connections N] [--drain-timeout S] "
            "[--experiment NAME --arm A=S --arm B=S [--split 50,50] [--metric thumbs|score] [--auto-promote]] "
            "[--chat-template FILE] [--threads N] | swb serve --rating --db FILE [--host ADDR] [--port N]"),
        QStringLiteral("Serve the model over an OpenAI-compatible HTTP API (completions, chat, streaming, logprobs), "
                       "decoding up to --parallel requests together."),
        [](QCommandLineParser& parser) {
            declareModelArguments(parser);
            parser.addOptions({
                {QStringLiteral("host"),
                 QStringLiteral("Address to listen on (default 127.0.0.1; others need --api-key)."),
                 QStringLiteral("ADDR")},
                {QStringLiteral("port"), QStringLiteral("Port (default 8080; 0 picks a free one, printed at start)."),
                 QStringLiteral("N")},
                {QStringLiteral("parallel"),
                 QStringLiteral("Sequences decoded together in one batched step (default 4)."), QStringLiteral("N")},
                {QStringLiteral("queue"),
                 QStringLiteral("Sequences that may wait for a slot (default 64); beyond, 503."), QStringLiteral("N")},
                {QStringLiteral("strategy"),
                 QStringLiteral("Default strategy (preset, JSON file or JSON); else $SAMPLING_STRATEGY, else greedy."),
                 QStringLiteral("S")},
                {QStringLiteral("db"),
                 QStringLiteral("Record every served run in this run store; PUT /v1/strategy persists there."),
                 QStringLiteral("FILE")},
                {QStringLiteral("api-key"),
                 QStringLiteral("Require 'Authorization: Bearer KEY' on every request but /health."),
                 QStringLiteral("KEY")},
                {QStringLiteral("max-tokens-limit"),
                 QStringLiteral("Most tokens one request may ask for (default 4096)."), QStringLiteral("N")},
                {QStringLiteral("api-key-file"),
                 QStringLiteral("Read the API key from this file (one line), so it is not in the process list."),
                 QStringLiteral("FILE")},
                {QStringLiteral("max-body"), QStringLiteral("Largest request body in bytes (default 4 MiB)."),
                 QStringLiteral("BYTES")},
                {QStringLiteral("request-timeout"),
                 QStringLiteral("Seconds a request's head may take from its first byte, and its body from the end "
                                "of the head (default 30); then 408."),
                 QStringLiteral("S")},
                {QStringLiteral("max-connections"),
                 QStringLiteral("Connections open at once (default 256); more are answered 503."), QStringLiteral("N")},
                {QStringLiteral("drain-timeout"),
                 QStringLiteral("On SIGTERM or SIGINT, seconds the requests in flight may take to finish before "
                                "the server exits (default 30)."),
                 QStringLiteral("S")},
                {QStringLiteral("experiment"),
                 QStringLiteral("Serve an A/B experiment of this name (kept in --db; without --arm, the stored one "
                                "resumes): requests naming no strategy get an arm, sticky per user."),
                 QStringLiteral("NAME")},
                {QStringLiteral("arm"),
                 QStringLiteral("An arm of the experiment, NAME=STRATEGY (twice or more; the first is the control)."),
                 QStringLiteral("NAME=S")},
                {QStringLiteral("split"),
                 QStringLiteral("The arms' shares of the traffic, e.g. 50,50 (default equal)."), QStringLiteral("W,W")},
                {QStringLiteral("metric"),
                 QStringLiteral("The feedback the experiment compares: thumbs (up/down, default) or score (1-5)."),
                 QStringLiteral("M")},
                {QStringLiteral("auto-promote"),
                 QStringLiteral("When the sequential test decides, make the winning arm the default strategy.")},
                {QStringLiteral("rating"),
                 QStringLiteral("Serve the rating page of --db's campaigns instead of a model (each rater's link "
                                "/rate/TOKEN; any --host, no key needed).")},
            });
            declareChatTemplateArgument(parser);
        },
        runServe};
}

} // namespace swb::cli
