#pragma once

#include <functional>
#include <memory>
#include <optional>

#include <QHostAddress>
#include <QString>

#include "Result.h"
#include "sampling/Strategy.h"
#include "serving/HttpServer.h"

namespace swb {

class ChatTemplate;
class Database;
class Model;
class Tokenizer;

struct ServeOptions {
    int parallel = 4;            // sequences decoded together
    int queue = 64;              // sequences that may wait for a slot
    QString apiKey;              // required as a Bearer token when set (all but /health)
    int maxTokensLimit = 4096;   // the most tokens one request may ask for
    HttpLimits http;             // body size, request deadlines, connections
    std::function<void(const QByteArray&)> log; // one JSON line per request
};

// The model behind an OpenAI-compatible HTTP API (see README "Serving"): POST /v1/completions and
// /v1/chat/completions (streamed as server-sent events when asked), GET /v1/models, GET/PUT /v1/strategy,
// GET /metrics, GET /health. Lives on the calling thread's event loop; the model decodes on the engine's
// own thread with continuous batching. A strategy PUT is saved in the run store (when given) under its own
// name and remembered there as the served default (RunRepository::servedStrategy); served runs are recorded there.
class OpenAiServer {
public:
    // The name a PUT strategy was saved under before schema 7 (a restart still finds it in such a store).
    static inline const QString kServedStrategyName = QStringLiteral("serve default");

    OpenAiServer(Model& model, const Tokenizer& tokenizer, std::optional<ChatTemplate> chatTemplate, Strategy strategy,
                 std::unique_ptr<Database> database, const ServeOptions& options);
    ~OpenAiServer();
    Result<quint16> listen(const QHostAddress& address, quint16 port);
    const QString& modelName() const;
    const Strategy& strategy() const;
    int slotCount() const;
    // Accepts no more connections; the requests in flight go on (a drain before exiting).
    void stopListening();
    int requestsInFlight() const;

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace swb
