#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

namespace swb {

// One HTTP/1.1 request as the server reads it. Header names are kept lower-cased.
struct HttpRequest {
    QByteArray method;
    QByteArray path;  // the target without its query
    QByteArray query; // after '?', undecoded
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    bool keepAlive = true;

    QByteArray header(const QByteArray& lowerName) const;
};

// Reads HTTP/1.1 requests from a byte stream, one after another (keep-alive): the request line, headers
// and a Content-Length body. Refuses, with the status to answer and one sentence, what it will not read:
// a request line or headers over 16 KiB, more than 100 headers, a body over the body limit (before
// reading it), chunked request bodies, a malformed line. Pure and incremental (no sockets), so it can be
// tested and fuzzed on its own.
class HttpRequestParser {
public:
    enum class State { NeedMore, Complete, Failed };

    explicit HttpRequestParser(qint64 maxBody = 4 * 1024 * 1024) : m_maxBody(maxBody) {}

    // Appends bytes and parses as far as they go. After Complete, take() the request; the bytes after it
    // stay buffered for the next one. After Failed the stream is not read further.
    State feed(const char* data, qint64 size);
    HttpRequest take();
    State state() const { return m_state; }
    int errorStatus() const { return m_errorStatus; }
    const QByteArray& errorMessage() const { return m_errorMessage; }
    // Bytes buffered and not yet part of a request.
    qint64 buffered() const { return m_buffer.size(); }
    // The request's head has been read and its body is awaited (NeedMore); head() is that request so far.
    bool awaitingBody() const { return m_haveHead && m_state == State::NeedMore; }
    const HttpRequest& head() const { return m_request; }

private:
    State fail(int status, const char* message);
    State parse();

    qint64 m_maxBody;
    QByteArray m_buffer;
    HttpRequest m_request;
    bool m_haveHead = false;
    qint64 m_bodyLength = 0;
    State m_state = State::NeedMore;
    int m_errorStatus = 0;
    QByteArray m_errorMessage;
};

// The reason phrase of a status code we send.
QByteArray httpReason(int status);

} // namespace swb
