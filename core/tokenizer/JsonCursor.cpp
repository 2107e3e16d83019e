#include "tokenizer/JsonCursor.h"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace swb {

bool JsonCursor::fail(const std::string& what)
{
    if (m_error.empty())
        m_error = what + " at byte " + std::to_string(m_pos);
    return false;
}

void JsonCursor::skipSpace()
{
    while (m_pos < m_text.size()) {
        const char c = m_text[m_pos];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return;
        ++m_pos;
    }
}

bool JsonCursor::expect(char c)
{
    skipSpace();
    if (m_pos >= m_text.size() || m_text[m_pos] != c)
        return fail(std::string("expected '") + c + "'");
    ++m_pos;
    return true;
}

bool JsonCursor::atEnd()
{
    skipSpace();
    return m_pos >= m_text.size();
}

char JsonCursor::peekType()
{
    skipSpace();
    if (!ok() || m_pos >= m_text.size())
        return 0;
    const char c = m_text[m_pos];
    if (c == '{' || c == '[' || c == '"' || c == 't' || c == 'f')
        return c;
    if (c == 'n')
        return 'N';
    if (c == '-' || (c >= '0' && c <= '9'))
        return 'n';
    return 0;
}

bool JsonCursor::beginObject()
{
    if (!expect('{'))
        return false;
    m_firstStack.push_back(1);
    return true;
}

bool JsonCursor::beginArray()
{
    if (!expect('['))
        return false;
    m_firstStack.push_back(1);
    return true;
}

bool JsonCursor::nextKey(std::string* key)
{
    if (!ok() || m_firstStack.empty())
        return false;
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == '}') {
        ++m_pos;
        m_firstStack.pop_back();
        return false;
    }
    if (!m_firstStack.back() && !expect(','))
        return false;
    m_firstStack.back() = 0;
    skipSpace();
    if (!readString(key))
        return false;
    return expect(':');
}

bool JsonCursor::nextElement()
{
    if (!ok() || m_firstStack.empty())
        return false;
    skipSpace();
    if (m_pos < m_text.size() && m_text[m_pos] == ']') {
        ++m_pos;
        m_firstStack.pop_back();
        return false;
    }
    if (!m_firstStack.back() && !expect(','))
        return false;
    m_firstStack.back() = 0;
    return true;
}

namespace {

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

bool JsonCursor::readString(std::string* out)
{
    skipSpace();
    if (m_pos >= m_text.size() || m_text[m_pos] != '"')
        return fail("expected a string");
    ++m_pos;
    out->clear();
    for (;;) {
        // Copy the run up to the next quote or backslash at once.
        std::size_t end = m_pos;
        while (end < m_text.size() && m_text[end] != '"' && m_text[end] != '\\') {
            if (static_cast<unsigned char>(m_text[end]) < 0x20) {
                m_pos = end;
                return fail("a control character in a string");
            }
            ++end;
        }
        out->append(m_text.data() + m_pos, end - m_pos);
        m_pos = end;
        if (m_pos >= m_text.size())
            return fail("a string never ends");
        if (m_text[m_pos] == '"') {
            ++m_pos;
            return true;
        }
        ++m_pos; // backslash
        if (m_pos >= m_text.size())
            return fail("a string never ends");
        const char e = m_text[m_pos++];
        switch (e) {
        case '"': *out += '"'; break;
        case '\\': *out += '\\'; break;
        case '/': *out += '/'; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u': {
            const auto hex4 = [&](std::uint32_t* cp) {
                if (m_pos + 4 > m_text.size())
                    return false;
                *cp = 0;
                for (int i = 0; i < 4; ++i) {
                    const int v = hexValue(m_text[m_pos + std::size_t(i)]);
                    if (v < 0)
                        return false;
                    *cp = (*cp << 4) | std::uint32_t(v);
                }
                m_pos += 4;
                return true;
            };
            std::uint32_t cp = 0;
            if (!hex4(&cp))
                return fail("a bad \\u escape");
            if (cp >= 0xD800 && cp < 0xDC00 && m_pos + 1 < m_text.size() && m_text[m_pos] == '\\'
                && m_text[m_pos + 1] == 'u') {
                m_pos += 2;
                std::uint32_t low = 0;
                if (!hex4(&low) || low < 0xDC00 || low >= 0xE000)
                    return fail("a bad surrogate pair");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            appendUtf8(*out, cp);
            break;
        }
        default: return fail("a bad escape in a string");
        }
    }
}

bool JsonCursor::readInteger(long long* out)
{
    skipSpace();
    const std::size_t start = m_pos;
    bool negative = false;
    if (m_pos < m_text.size() && m_text[m_pos] == '-') {
        negative = true;
        ++m_pos;
    }
    long long value = 0;
    std::size_t digits = 0;
    while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9') {
        if (value > (1LL << 53))
            return fail("an integer too large");
        value = value * 10 + (m_text[m_pos] - '0');
        ++m_pos;
        ++digits;
    }
    if (digits == 0 || (m_pos < m_text.size() && (m_text[m_pos] == '.' || m_text[m_pos] == 'e' || m_text[m_pos] == 'E'))) {
        m_pos = start;
        return fail("expected an integer");
    }
    *out = negative ? -value : value;
    return true;
}

bool JsonCursor::readNumber(double* real, long long* integer, bool* isInteger)
{
    skipSpace();
    const std::size_t start = m_pos;
    while (m_pos < m_text.size()) {
        const char c = m_text[m_pos];
        if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'))
            break;
        ++m_pos;
    }
    const std::string_view token = m_text.substr(start, m_pos - start);
    *isInteger = token.find_first_of(".eE") == std::string_view::npos;
    if (*isInteger) {
        auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), *integer);
        if (ec == std::errc() && end == token.data() + token.size()) {
            *real = double(*integer);
            return true;
        }
        *isInteger = false;
    }
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), *real);
    if (token.empty() || ec != std::errc() || end != token.data() + token.size()) {
        m_pos = start;
        return fail("expected a number");
    }
    return true;
}

bool JsonCursor::readBool(bool* out)
{
    skipSpace();
    if (m_text.substr(m_pos, 4) == "true") {
        m_pos += 4;
        *out = true;
        return true;
    }
    if (m_text.substr(m_pos, 5) == "false") {
        m_pos += 5;
        *out = false;
        return true;
    }
    return fail("expected true or false");
}

bool JsonCursor::readNull()
{
    skipSpace();
    if (m_text.substr(m_pos, 4) != "null")
        return fail("expected null");
    m_pos += 4;
    return true;
}

bool JsonCursor::skipValue()
{
    std::string_view ignored;
    return rawValue(&ignored);
}

bool JsonCursor::rawValue(std::string_view* out)
{
    skipSpace();
    const std::size_t start = m_pos;
    if (m_pos >= m_text.size())
        return fail("expected a value");
    const char c = m_text[m_pos];
    if (c == '"') {
        // Skip without decoding.
        ++m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != '"')
            m_pos += m_text[m_pos] == '\\' ? 2 : 1;
        if (m_pos >= m_text.size())
            return fail("a string never ends");
        ++m_pos;
    } else if (c == '{' || c == '[') {
        int depth = 0;
        while (m_pos < m_text.size()) {
            const char d = m_text[m_pos];
            if (d == '"') {
                ++m_pos;
                while (m_pos < m_text.size() && m_text[m_pos] != '"')
                    m_pos += m_text[m_pos] == '\\' ? 2 : 1;
                ++m_pos;
                continue;
            }
            if (d == '{' || d == '[') {
                if (++depth > 1000)
                    return fail("nesting deeper than 1000 levels");
            } else if (d == '}' || d == ']') {
                if (--depth == 0) {
                    ++m_pos;
                    break;
                }
            }
            ++m_pos;
        }
        if (depth != 0)
            return fail("a value never ends");
    } else {
        while (m_pos < m_text.size()) {
            const char d = m_text[m_pos];
            if (d == ',' || d == '}' || d == ']' || d == ' ' || d == '\n' || d == '\r' || d == '\t')
                break;
            ++m_pos;
        }
        if (m_pos == start)
            return fail("expected a value");
    }
    *out = m_text.substr(start, m_pos - start);
    return true;
}

} // namespace swb
