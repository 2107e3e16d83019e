#include "serving/HttpServer.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace swb {

// A client connection: its socket, its parser and the exchange in flight (at most one).
class HttpConnection : public QObject {
public:
    HttpConnection(HttpServer& server, QTcpSocket* socket)
        : m_server(server)
        , m_socket(socket)
        , m_parser(server.m_limits.maxBody) {
        m_socket->setParent(this);
        // Streamed tokens are small writes: without this, Nagle's algorithm holds each until the client's
        // delayed ACK (~40 ms on Linux).
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_timer.setSingleShot(true);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { timedOut(); });
        QObject::connect(m_socket, &QTcpSocket::readyRead, this, [this] { readSome(); });
        QObject::connect(m_socket, &QTcpSocket::disconnected, this, [this] { gone(); });
        m_timer.start(m_server.m_limits.idleTimeoutMs);
    }

    // Idle: closed. A head or body past its deadline: 408, then closed.
    void timedOut() {
        if (m_phase == Phase::Idle || m_exchange)
            return close();
        const bool body = m_phase == Phase::Body;
        const QByteArray message =
            (body ? "the request body did not arrive within " : "the request head did not arrive within ") +
            QByteArray::number(m_server.m_limits.requestTimeoutMs / 1000.0, 'g', 4) + " s";
        m_exchange.reset(new HttpExchange(this, false));
        m_exchange->respond(408, "application/json", m_server.m_errorBody(408, message));
    }

    void readSome() {
        const QByteArray data = m_socket->readAll();
        m_parser.feed(data.constData(), data.size());
        next();
    }

    // Serves the next complete request, unless one is in flight.
    void next() {
        if (m_exchange || m_closing)
            return;
        if (m_parser.state() == HttpRequestParser::State::Failed) {
            const int status = m_parser.errorStatus();
            m_exchange.reset(new HttpExchange(this, false));
            m_exchange->respond(status, "application/json", m_server.m_errorBody(status, m_parser.errorMessage()));
            return;
        }
        if (m_parser.state() != HttpRequestParser::State::Complete) {
            // Each phase's deadline starts once, when the phase does: bytes trickling in do not extend it.
            const Phase phase = m_parser.awaitingBody()   ? Phase::Body
                                : m_parser.buffered() > 0 ? Phase::Head
                                                          : Phase::Idle;
            if (phase != m_phase) {
                m_phase = phase;
                m_timer.start(phase == Phase::Idle ? m_server.m_limits.idleTimeoutMs
                                                   : m_server.m_limits.requestTimeoutMs);
                if (phase == Phase::Body && m_parser.head().header("expect").toLower() == "100-continue")
                    send("HTTP/1.1 100 Continue\r\n\r\n");
            }
            return;
        }
        m_timer.stop();
        m_phase = Phase::Serving;
        const HttpRequest request = m_parser.take();
        m_exchange.reset(new HttpExchange(this, request.keepAlive));
        m_server.m_handler(request, *m_exchange);
    }

    void send(const QByteArray& bytes) {
        if (m_socket->state() == QAbstractSocket::ConnectedState)
            m_socket->write(bytes);
    }

    // The exchange is answered in full: serve the next request or close.
    void done(bool keepAlive) {
        if (!keepAlive) {
            m_closing = true;
            m_socket->disconnectFromHost();
            return;
        }
        // Delete the finished exchange later: its handler may still be on the stack.
        HttpExchange* finished = m_exchange.release();
        QTimer::singleShot(0, this, [this, finished] {
            delete finished;
            next();
        });
    }

    void close() {
        m_closing = true;
        m_socket->abort();
        gone();
    }

    void gone() {
        if (m_gone)
            return;
        m_gone = true;
        m_timer.stop();
        if (m_exchange && m_exchange->onClosed && !m_exchange->m_finished) {
            const auto closed = std::move(m_exchange->onClosed);
            m_exchange->onClosed = nullptr;
            closed();
        }
        deleteLater();
    }

    bool open() const { return !m_gone && m_socket->state() == QAbstractSocket::ConnectedState; }
    bool serving() const { return !m_gone && m_exchange && !m_exchange->m_finished; }
    QHostAddress peer() const { return m_socket->peerAddress(); }

private:
    enum class Phase { Idle, Head, Body, Serving };
    HttpServer& m_server;
    QTcpSocket* m_socket;
    HttpRequestParser m_parser;
    std::unique_ptr<HttpExchange> m_exchange;
    QTimer m_timer;
    Phase m_phase = Phase::Idle;
    bool m_closing = false;
    bool m_gone = false;
};

namespace {

QByteArray head(int status, const HttpHeaders& headers) {
    QByteArray out = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReason(status) + "\r\n";
    for (const auto& [name, value] : headers)
        out += name + ": " + value + "\r\n";
    return out + "\r\n";
}

} // namespace

void HttpExchange::respond(int status, const QByteArray& contentType, const QByteArray& body, const HttpHeaders& extra) {
    if (m_answered)
        return;
    m_answered = true;
    m_finished = true;
    HttpHeaders headers = {{"Content-Type", contentType},
                           {"Content-Length", QByteArray::number(body.size())},
                           {"Connection", m_keepAlive ? "keep-alive" : "close"}};
    headers += extra;
    m_connection->send(head(status, headers) + body);
    m_connection->done(m_keepAlive);
}

void HttpExchange::beginStream(int status, const QByteArray& contentType, const HttpHeaders& extra) {
    if (m_answered)
        return;
    m_answered = true;
    m_streaming = true;
    HttpHeaders headers = {{"Content-Type", contentType},
                           {"Transfer-Encoding", "chunked"},
                           {"Cache-Control", "no-cache"},
                           {"Connection", m_keepAlive ? "keep-alive" : "close"}};
    headers += extra;
    m_connection->send(head(status, headers));
}

void HttpExchange::write(const QByteArray& data) {
    if (!m_streaming || m_finished || data.isEmpty())
        return;
    m_connection->send(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
}

void HttpExchange::finish() {
    if (!m_streaming || m_finished)
        return;
    m_finished = true;
    m_connection->send("0\r\n\r\n");
    m_connection->done(m_keepAlive);
}

bool HttpExchange::isOpen() const {
    return !m_finished && m_connection->open();
}

QHostAddress HttpExchange::peer() const {
    return m_connection->peer();
}

QObject* HttpExchange::context() const {
    return m_connection;
}

HttpServer::HttpServer(Handler handler, ErrorBody errorBody, const HttpLimits& limits)
    : m_server(std::make_unique<QTcpServer>())
    , m_handler(std::move(handler))
    , m_errorBody(std::move(errorBody))
    , m_limits(limits) {
    QObject::connect(m_server.get(), &QTcpServer::newConnection, m_server.get(), [this] {
        while (QTcpSocket* socket = m_server->nextPendingConnection()) {
            m_connections.removeAll(nullptr);
            if (openConnections() >= m_limits.maxConnections) {
                // Turned away at once, with the reason: a flood of connections cannot hold the server's memory.
                const QByteArray body =
                    m_errorBody(503, "the server has as many connections open as it accepts (" +
                                         QByteArray::number(m_limits.maxConnections) + "); retry shortly");
                socket->write(head(503, {{"Content-Type", "application/json"},
                                         {"Content-Length", QByteArray::number(body.size())},
                                         {"Retry-After", "1"},
                                         {"Connection", "close"}}) +
                              body);
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
                socket->disconnectFromHost();
                continue;
            }
            m_connections.append(new HttpConnection(*this, socket));
        }
    });
}

HttpServer::~HttpServer() {
    for (const QPointer<HttpConnection>& c : m_connections)
        delete c.data();
}

Result<quint16> HttpServer::listen(const QHostAddress& address, quint16 port) {
    if (!m_server->listen(address, port))
        return Error::badInput(QStringLiteral("cannot listen on %1:%2: %3")
                                   .arg(address.toString())
                                   .arg(port)
                                   .arg(m_server->errorString()));
    return m_server->serverPort();
}

void HttpServer::stopListening() {
    m_server->close();
}

int HttpServer::exchangesInFlight() const {
    int n = 0;
    for (const QPointer<HttpConnection>& c : m_connections)
        n += c && c->serving();
    return n;
}

int HttpServer::openConnections() const {
    int n = 0;
    for (const QPointer<HttpConnection>& c : m_connections)
        n += c && c->open();
    return n;
}

} // namespace swb
