#include "chat/JinjaLexer.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "chat/JinjaSyntax.h"

namespace swb::jinja {

namespace {

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Lexer {
public:
    explicit Lexer(std::string source)
        : m_src(std::move(source)) {}

    std::vector<Token> run() {
        normalizeNewlines();
        bool lineStarting = true;
        bool stripLeading = false;
        while (m_pos <= m_src.size()) {
            std::size_t open = m_pos;
            for (;;) {
                open = m_src.find('{', open);
                if (open == std::string::npos || open + 1 >= m_src.size()) {
                    open = std::string::npos;
                    break;
                }
                const char k = m_src[open + 1];
                if (k == '{' || k == '%' || k == '#')
                    break;
                ++open;
            }
            std::string text = m_src.substr(m_pos, open == std::string::npos ? std::string::npos : open - m_pos);
            const int textLine = m_line;
            countLines(text);
            if (stripLeading) {
                std::size_t i = 0;
                while (i < text.size() && isSpace(text[i]))
                    ++i;
                text.erase(0, i);
            }
            if (open == std::string::npos) {
                push(Token::Kind::Text, std::move(text), textLine);
                break;
            }
            const char kind = m_src[open + 1];
            const char marker = open + 2 < m_src.size() ? m_src[open + 2] : '\0';
            if (marker == '-') {
                while (!text.empty() && isSpace(text.back()))
                    text.pop_back();
            } else if (kind != '{' && marker != '+') {
                const std::size_t nl = text.rfind('\n');
                const std::size_t from = nl == std::string::npos ? 0 : nl + 1;
                if ((nl != std::string::npos || lineStarting) &&
                    std::all_of(text.begin() + std::ptrdiff_t(from), text.end(),
                                [](char c) { return c == ' ' || c == '\t'; }))
                    text.resize(from);
            }
            push(Token::Kind::Text, std::move(text), textLine);
            m_pos = open + 2 + ((marker == '-' || marker == '+') ? 1 : 0);
            std::string trailing;
            if (kind == '#') {
                const std::size_t close = m_src.find("#}", m_pos);
                if (close == std::string::npos)
                    throw TemplateError{"a comment is never closed with '#}'", m_line};
                const bool minus = close > m_pos && m_src[close - 1] == '-';
                countLines(m_src.substr(m_pos, close - m_pos));
                m_pos = close + 2;
                trailing = closeTag(minus, true);
            } else if (kind == '%' && rawBlock()) {
                trailing = {};
            } else {
                const bool block = kind == '%';
                push(block ? Token::Kind::BlockBegin : Token::Kind::VariableBegin, {}, m_line);
                const bool minus = lexInside(block);
                push(block ? Token::Kind::BlockEnd : Token::Kind::VariableEnd, {}, m_line);
                trailing = closeTag(minus, block);
            }
            stripLeading = false;
            lineStarting = !trailing.empty() && trailing.back() == '\n';
        }
        push(Token::Kind::End, {}, m_line);
        return std::move(m_tokens);
    }

private:
    // Jinja2 reads the source line by line: "\r\n" and "\r" become "\n", and one trailing newline is dropped.
    void normalizeNewlines() {
        std::string out;
        out.reserve(m_src.size());
        for (std::size_t i = 0; i < m_src.size(); ++i) {
            if (m_src[i] == '\r') {
                out += '\n';
                if (i + 1 < m_src.size() && m_src[i + 1] == '\n')
                    ++i;
            } else {
                out += m_src[i];
            }
        }
        if (!out.empty() && out.back() == '\n')
            out.pop_back();
        m_src = std::move(out);
    }

    void countLines(const std::string& s) { m_line += int(std::count(s.begin(), s.end(), '\n')); }

    void push(Token::Kind kind, std::string text, int line) {
        if (kind == Token::Kind::Text && text.empty())
            return;
        m_tokens.push_back(Token{kind, std::move(text), line});
    }

    // After a tag's closing delimiter: "-" strips all following whitespace; a block's first newline goes
    // (trim_blocks). Returns what was consumed.
    std::string closeTag(bool minus, bool block) {
        const std::size_t start = m_pos;
        if (minus) {
            while (m_pos < m_src.size() && isSpace(m_src[m_pos]))
                ++m_pos;
        } else if (block && m_pos < m_src.size() && m_src[m_pos] == '\n') {
            ++m_pos;
        }
        std::string consumed = m_src.substr(start, m_pos - start);
        countLines(consumed);
        return consumed;
    }

    // {% raw %}...{% endraw %}: the text between is output as written.
    bool rawBlock() {
        std::size_t p = m_pos;
        while (p < m_src.size() && isSpace(m_src[p]))
            ++p;
        if (m_src.compare(p, 3, "raw") != 0)
            return false;
        p += 3;
        while (p < m_src.size() && isSpace(m_src[p]))
            ++p;
        if (m_src.compare(p, 2, "%}") != 0 && m_src.compare(p, 3, "-%}") != 0)
            return false;
        p = m_src.find('}', p) + 1;
        std::size_t search = p;
        for (;;) {
            const std::size_t open = m_src.find("{%", search);
            if (open == std::string::npos)
                throw TemplateError{"a raw block is never closed with '{% endraw %}'", m_line};
            std::size_t q = open + 2;
            if (q < m_src.size() && (m_src[q] == '-' || m_src[q] == '+'))
                ++q;
            while (q < m_src.size() && isSpace(m_src[q]))
                ++q;
            if (m_src.compare(q, 6, "endraw") == 0) {
                std::string text = m_src.substr(p, open - p);
                if (m_src[open + 2] == '-')
                    while (!text.empty() && isSpace(text.back()))
                        text.pop_back();
                const std::size_t close = m_src.find("%}", q);
                if (close == std::string::npos)
                    throw TemplateError{"a raw block is never closed with '{% endraw %}'", m_line};
                push(Token::Kind::Text, text, m_line);
                countLines(m_src.substr(m_pos, close + 2 - m_pos));
                const bool minus = m_src[close - 1] == '-';
                m_pos = close + 2;
                closeTag(minus, true);
                return true;
            }
            search = open + 2;
        }
    }

    // Tokens up to the tag's end; returns whether it ended with "-".
    bool lexInside(bool block) {
        int depth = 0;
        for (;;) {
            while (m_pos < m_src.size() && isSpace(m_src[m_pos])) {
                if (m_src[m_pos] == '\n')
                    ++m_line;
                ++m_pos;
            }
            if (m_pos >= m_src.size())
                throw TemplateError{
                    block ? "a tag is never closed with '%}'" : "an expression is never closed with '}}'", m_line};
            const char c = m_src[m_pos];
            const char* close = block ? "%}" : "}}";
            if (depth == 0) {
                if (m_src.compare(m_pos, 2, close) == 0) {
                    m_pos += 2;
                    return false;
                }
                if ((c == '-' || c == '+') && m_src.compare(m_pos + 1, 2, close) == 0) {
                    m_pos += 3;
                    return c == '-';
                }
            }
            if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                const std::size_t start = m_pos;
                while (m_pos < m_src.size() &&
                       (std::isalnum(static_cast<unsigned char>(m_src[m_pos])) || m_src[m_pos] == '_'))
                    ++m_pos;
                push(Token::Kind::Name, m_src.substr(start, m_pos - start), m_line);
            } else if (std::isdigit(static_cast<unsigned char>(c))) {
                const std::size_t start = m_pos;
                while (m_pos < m_src.size() &&
                       (std::isdigit(static_cast<unsigned char>(m_src[m_pos])) || m_src[m_pos] == '_'))
                    ++m_pos;
                if (m_pos + 1 < m_src.size() && m_src[m_pos] == '.' &&
                    std::isdigit(static_cast<unsigned char>(m_src[m_pos + 1]))) {
                    ++m_pos;
                    while (m_pos < m_src.size() && std::isdigit(static_cast<unsigned char>(m_src[m_pos])))
                        ++m_pos;
                }
                if (m_pos < m_src.size() && (m_src[m_pos] == 'e' || m_src[m_pos] == 'E')) {
                    std::size_t q = m_pos + 1;
                    if (q < m_src.size() && (m_src[q] == '+' || m_src[q] == '-'))
                        ++q;
                    if (q < m_src.size() && std::isdigit(static_cast<unsigned char>(m_src[q]))) {
                        m_pos = q;
                        while (m_pos < m_src.size() && std::isdigit(static_cast<unsigned char>(m_src[m_pos])))
                            ++m_pos;
                    }
                }
                std::string number = m_src.substr(start, m_pos - start);
                number.erase(std::remove(number.begin(), number.end(), '_'), number.end());
                push(Token::Kind::Number, std::move(number), m_line);
            } else if (c == '\'' || c == '"') {
                push(Token::Kind::String, stringLiteral(c), m_line);
            } else {
                static const char* const twoChar[] = {"**", "//", "==", "!=", "<=", ">="};
                std::string op(1, c);
                for (const char* t : twoChar)
                    if (m_src.compare(m_pos, 2, t) == 0)
                        op = t;
                if (op.size() == 1 && std::string("+-*/%~<>=()[]{},.:|").find(c) == std::string::npos)
                    throw TemplateError{"unexpected character '" + op + "'", m_line};
                if (c == '(' || c == '[' || c == '{')
                    ++depth;
                if ((c == ')' || c == ']' || c == '}') && depth > 0)
                    --depth;
                m_pos += op.size();
                push(Token::Kind::Operator, op, m_line);
            }
        }
    }

    std::string stringLiteral(char quote) {
        const int line = m_line;
        std::string out;
        ++m_pos;
        while (m_pos < m_src.size()) {
            const char c = m_src[m_pos++];
            if (c == quote)
                return out;
            if (c == '\n')
                ++m_line;
            if (c != '\\' || m_pos >= m_src.size()) {
                out += c;
                continue;
            }
            const char e = m_src[m_pos++];
            switch (e) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'r':
                out += '\r';
                break;
            case '\\':
                out += '\\';
                break;
            case '\'':
                out += '\'';
                break;
            case '"':
                out += '"';
                break;
            case '\n':
                ++m_line;
                break;
            default:
                out += '\\';
                out += e;
            }
        }
        throw TemplateError{"a string is never closed", line};
    }

    std::string m_src;
    std::size_t m_pos = 0;
    int m_line = 1;
    std::vector<Token> m_tokens;
};

} // namespace

std::vector<Token> tokenize(std::string source) {
    return Lexer(std::move(source)).run();
}

} // namespace swb::jinja
