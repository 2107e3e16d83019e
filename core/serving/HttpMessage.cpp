#include "serving/HttpMessage.h"

namespace swb {

namespace {

constexpr qint64 kMaxHead = 16 * 1024;
constexpr int kMaxHeaders = 100;

bool isToken(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '!' || c == '#' || c == '$' || c == '%' || c == '&' || c == '\'' || c == '*' ||
           c == '+' || c == '^' || c == '`' || c == '|' || c == '~';
}

} // namespace

QByteArray HttpRequest::header(const QByteArray& lowerName) const {
    for (const auto& [name, value] : headers)
        if (name == lowerName)
            return value;
    return {};
}

QByteArray httpReason(int status) {
    switch (status) {
    case 200: return "OK";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

HttpRequestParser::State HttpRequestParser::fail(int status, const char* message) {
    m_state = State::Failed;
    m_errorStatus = status;
    m_errorMessage = message;
    return m_state;
}

HttpRequestParser::State HttpRequestParser::feed(const char* data, qint64 size) {
    if (m_state == State::Failed)
        return m_state;
    if (size > 0)
        m_buffer.append(data, size);
    return parse();
}

HttpRequestParser::State HttpRequestParser::parse() {
    if (m_state == State::Complete)
        return m_state;
    if (!m_haveHead) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_buffer.size() > kMaxHead)
                return fail(431, "the request line and headers are longer than 16 KiB");
            return State::NeedMore;
        }
        if (end > kMaxHead)
            return fail(431, "the request line and headers are longer than 16 KiB");
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        m_request = HttpRequest{};
        // The request line: METHOD SP target SP HTTP/1.x
        const QByteArray line = lines.front().endsWith('\r') ? lines.front().chopped(1) : lines.front();
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() != 3 || parts[0].isEmpty() || parts[1].isEmpty() || !parts[1].startsWith('/'))
            return fail(400, "the request line is not 'METHOD /path HTTP/1.1'");
        for (char c : parts[0])
            if (!isToken(c))
                return fail(400, "the request method is malformed");
        if (parts[2] != "HTTP/1.1" && parts[2] != "HTTP/1.0")
            return fail(505, "only HTTP/1.1 and HTTP/1.0 are served");
        m_request.method = parts[0];
        const qsizetype question = parts[1].indexOf('?');
        m_request.path = question < 0 ? parts[1] : parts[1].left(question);
        m_request.query = question < 0 ? QByteArray() : parts[1].mid(question + 1);
        m_request.keepAlive = parts[2] == "HTTP/1.1";
        if (lines.size() - 1 > kMaxHeaders)
            return fail(431, "the request has more than 100 headers");
        bool haveLength = false;
        m_bodyLength = 0;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            QByteArray header = lines[i].endsWith('\r') ? lines[i].chopped(1) : lines[i];
            const qsizetype colon = header.indexOf(':');
            if (colon <= 0)
                return fail(400, "a header line has no 'name: value'");
            const QByteArray name = header.left(colon).toLower();
            for (char c : name)
                if (!isToken(c))
                    return fail(400, "a header name is malformed");
            const QByteArray value = header.mid(colon + 1).trimmed();
            if (name == "content-length") {
                bool ok = false;
                const qint64 length = value.toLongLong(&ok);
                if (!ok || length < 0 || (haveLength && length != m_bodyLength))
                    return fail(400, "the Content-Length header is not a valid length");
                haveLength = true;
                m_bodyLength = length;
            } else if (name == "transfer-encoding" && value.toLower() != "identity") {
                return fail(501, "chunked request bodies are not accepted; send a Content-Length");
            } else if (name == "connection") {
                const QByteArray v = value.toLower();
                if (v.contains("close"))
                    m_request.keepAlive = false;
                else if (v.contains("keep-alive"))
                    m_request.keepAlive = true;
            }
            m_request.headers.append({name, value});
        }
        if (m_bodyLength > m_maxBody)
            return fail(413, "the request body is larger than the server accepts");
        m_buffer.remove(0, end + 4);
        m_haveHead = true;
    }
    if (m_buffer.size() < m_bodyLength)
        return State::NeedMore;
    m_request.body = m_buffer.left(m_bodyLength);
    m_buffer.remove(0, m_bodyLength);
    m_state = State::Complete;
    return m_state;
}

HttpRequest HttpRequestParser::take() {
    HttpRequest request = std::move(m_request);
    m_request = HttpRequest{};
    m_haveHead = false;
    m_bodyLength = 0;
    m_state = State::NeedMore;
    if (!m_buffer.isEmpty())
        parse();
    return request;
}

} // namespace swb
