#pragma once

// Plain HTTP/1.1 over a loopback socket for the tests of swb serve: one request per connection.

#include <QByteArray>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

namespace swb::test {

// A JSON answer's object (empty when the body is not one).
inline QJsonObject object(const QByteArray& body) {
    return QJsonDocument::fromJson(body).object();
}

struct HttpReply {
    int status = 0;
    QByteArray head;
    QByteArray body; // de-chunked
};

inline QByteArray dechunk(QByteArray data) {
    QByteArray out;
    for (;;) {
        const qsizetype line = data.indexOf("\r\n");
        if (line < 0)
            break;
        bool ok = false;
        const qsizetype size = data.left(line).toLongLong(&ok, 16);
        if (!ok || size == 0)
            break;
        out += data.mid(line + 2, size);
        data.remove(0, line + 2 + size + 2);
    }
    return out;
}

// What a socket receives until the peer closes it or timeoutMs pass.
inline QByteArray readUntilClosed(QTcpSocket& socket, int timeoutMs) {
    QByteArray data;
    QElapsedTimer timer;
    timer.start();
    while (socket.state() == QAbstractSocket::ConnectedState && timer.elapsed() < timeoutMs)
        if (socket.waitForReadyRead(200))
            data += socket.readAll();
    return data + socket.readAll();
}

// One request on its own connection (Connection: close), read to the end.
inline HttpReply exchange(quint16 port, const QByteArray& raw, int timeoutMs = 30000) {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(5000))
        return {};
    socket.write(raw);
    const QByteArray data = readUntilClosed(socket, timeoutMs);
    HttpReply reply;
    const qsizetype end = data.indexOf("\r\n\r\n");
    reply.head = data.left(end);
    reply.status = data.mid(9, 3).toInt();
    reply.body = data.mid(end + 4);
    if (reply.head.toLower().contains("transfer-encoding: chunked"))
        reply.body = dechunk(reply.body);
    return reply;
}

inline QByteArray request(const QByteArray& method, const QByteArray& path, const QByteArray& body = {},
                   const QByteArray& extraHeaders = {}) {
    return method + ' ' + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\n" +
           extraHeaders + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

} // namespace swb::test
