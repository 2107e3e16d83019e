#pragma once

#include <functional>
#include <memory>

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>

#include "Result.h"
#include "serving/HttpMessage.h"

class QTcpServer;
class QTcpSocket;
class QTimer;

namespace swb {

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

class HttpConnection;

// One request's answer: a whole response, or a stream (chunked transfer encoding, for server-sent events)
// written piece by piece and finished. Lives on the server's thread; everything else reaches it through
// queued calls on its context(). A client that goes away calls onClosed (once) and makes writes no-ops.
class HttpExchange {
public:
    void respond(int status, const QByteArray& contentType, const QByteArray& body, const HttpHeaders& extra = {});
    void beginStream(int status, const QByteArray& contentType, const HttpHeaders& extra = {});
    void write(const QByteArray& data);
    void finish();
    bool isOpen() const;
    bool answered() const { return m_answered; }
    QHostAddress peer() const;
    // A QObject on the server's thread that lives as long as this exchange (for queued calls to it).
    QObject* context() const;
    std::function<void()> onClosed;

private:
    friend class HttpConnection;
    explicit HttpExchange(HttpConnection* connection, bool keepAlive) : m_connection(connection), m_keepAlive(keepAlive) {}
    HttpConnection* m_connection;
    bool m_keepAlive;
    bool m_answered = false;
    bool m_streaming = false;
    bool m_finished = false;
};

// What the server accepts of its clients.
struct HttpLimits {
    qint64 maxBody = 4 * 1024 * 1024;
    // A request's head must arrive within this from its first byte, and its body within this from the end of
    // its head: fixed deadlines that bytes dribbled in do not extend; answered with 408.
    int requestTimeoutMs = 30'000;
    int idleTimeoutMs = 120'000; // a keep-alive connection with no request started is closed after this
    int maxConnections = 256;    // more are answered 503 and closed
};

// A small HTTP/1.1 server on QtNetwork's QTcpServer (qt6-base-dev; no further package): keep-alive, one
// request at a time per connection, the limits above, "Expect: 100-continue" answered, bodies limited before
// they are read, malformed requests answered with their status and closed. The handler runs on the server's
// thread and answers through the exchange, now or later.
class HttpServer {
public:
    using Handler = std::function<void(const HttpRequest&, HttpExchange&)>;
    // errorBody(status, message): the body of the server's own error answers (e.g. an OpenAI error object).
    using ErrorBody = std::function<QByteArray(int status, const QByteArray& message)>;

    HttpServer(Handler handler, ErrorBody errorBody, const HttpLimits& limits);
    ~HttpServer();
    Result<quint16> listen(const QHostAddress& address, quint16 port);
    // Accepts no more connections (a drain before exiting); the open ones go on.
    void stopListening();
    int openConnections() const;
    // Requests read and not yet answered in full (streams included).
    int exchangesInFlight() const;

private:
    friend class HttpConnection;
    std::unique_ptr<QTcpServer> m_server;
    Handler m_handler;
    ErrorBody m_errorBody;
    HttpLimits m_limits;
    QList<QPointer<HttpConnection>> m_connections;
};

} // namespace swb
