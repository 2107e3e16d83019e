#include "chat/JinjaTemplate.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "chat/JinjaSyntax.h"

namespace swb::jinja {

namespace {

constexpr int kMaxNesting = 256;          // brackets in an expression, blocks in a template
constexpr int kMaxCallDepth = 200;        // macro calls

// ---------------------------------------------------------------------------------------------------------
// Lexer: text, tags and the tokens inside tags, with Jinja2's whitespace control (trim_blocks, lstrip_blocks,
// "-" and "+" markers) applied as the tags are found.

struct Token {
    enum class Kind { Text, VariableBegin, VariableEnd, BlockBegin, BlockEnd, Name, String, Number, Operator, End };
    Kind kind = Kind::End;
    std::string text;
    int line = 1;
};

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Lexer {
public:
    explicit Lexer(std::string source) : m_src(std::move(source)) {}

    std::vector<Token> run()
    {
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
                if ((nl != std::string::npos || lineStarting)
                    && std::all_of(text.begin() + std::ptrdiff_t(from), text.end(),
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
    void normalizeNewlines()
    {
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

    void push(Token::Kind kind, std::string text, int line)
    {
        if (kind == Token::Kind::Text && text.empty())
            return;
        m_tokens.push_back(Token{kind, std::move(text), line});
    }

    // After a tag's closing delimiter: "-" strips all following whitespace; a block's first newline goes
    // (trim_blocks). Returns what was consumed.
    std::string closeTag(bool minus, bool block)
    {
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
    bool rawBlock()
    {
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
    bool lexInside(bool block)
    {
        int depth = 0;
        for (;;) {
            while (m_pos < m_src.size() && isSpace(m_src[m_pos])) {
                if (m_src[m_pos] == '\n')
                    ++m_line;
                ++m_pos;
            }
            if (m_pos >= m_src.size())
                throw TemplateError{block ? "a tag is never closed with '%}'" : "an expression is never closed with '}}'",
                    m_line};
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
                while (m_pos < m_src.size()
                    && (std::isalnum(static_cast<unsigned char>(m_src[m_pos])) || m_src[m_pos] == '_'))
                    ++m_pos;
                push(Token::Kind::Name, m_src.substr(start, m_pos - start), m_line);
            } else if (std::isdigit(static_cast<unsigned char>(c))) {
                const std::size_t start = m_pos;
                while (m_pos < m_src.size() && (std::isdigit(static_cast<unsigned char>(m_src[m_pos])) || m_src[m_pos] == '_'))
                    ++m_pos;
                if (m_pos + 1 < m_src.size() && m_src[m_pos] == '.'
                    && std::isdigit(static_cast<unsigned char>(m_src[m_pos + 1]))) {
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

    std::string stringLiteral(char quote)
    {
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
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case '\\': out += '\\'; break;
            case '\'': out += '\''; break;
            case '"': out += '"'; break;
            case '\n': ++m_line; break;
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

// ---------------------------------------------------------------------------------------------------------
// Parser: recursive descent with Jinja2's precedence (or < and < not < comparisons < + - < ~ < * / // % <
// ** < unary - < filters and tests < postfix . [] ()).

using ExprPtr = std::unique_ptr<Expr>;

class Parser {
public:
    explicit Parser(std::vector<Token> tokens) : m_tokens(std::move(tokens)) {}

    Body parseTemplate()
    {
        std::string endTag;
        Body body = parseBody({}, &endTag);
        return body;
    }

private:
    const Token& peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)]; }
    const Token& next() { return m_tokens[std::min(m_pos++, m_tokens.size() - 1)]; }
    bool isOp(const char* op, std::size_t ahead = 0) const
    {
        return peek(ahead).kind == Token::Kind::Operator && peek(ahead).text == op;
    }
    bool isName(const char* name, std::size_t ahead = 0) const
    {
        return peek(ahead).kind == Token::Kind::Name && peek(ahead).text == name;
    }
    [[noreturn]] void fail(const std::string& why) const { throw TemplateError{why, peek().line}; }
    std::string describe(const Token& t) const
    {
        switch (t.kind) {
        case Token::Kind::End: return "the end of the template";
        case Token::Kind::BlockEnd: return "the end of the tag";
        case Token::Kind::VariableEnd: return "'}}'";
        case Token::Kind::Text: return "text";
        default: return "'" + t.text + "'";
        }
    }
    void expectOp(const char* op)
    {
        if (!isOp(op))
            fail(std::string("expected '") + op + "' but found " + describe(peek()));
        ++m_pos;
    }
    std::string expectName()
    {
        if (peek().kind != Token::Kind::Name)
            fail("expected a name but found " + describe(peek()));
        return next().text;
    }
    void expectBlockEnd()
    {
        if (peek().kind != Token::Kind::BlockEnd)
            fail("expected the end of the tag but found " + describe(peek()));
        ++m_pos;
    }
    void enter()
    {
        if (++m_depth > kMaxNesting)
            fail("the template nests deeper than " + std::to_string(kMaxNesting) + " levels");
    }

    // Nodes until one of the end tags (whose name goes to *endTag, the tag itself not consumed beyond its name).
    Body parseBody(const std::vector<std::string>& ends, std::string* endTag, const Token* opener = nullptr)
    {
        enter();
        Body body;
        for (;;) {
            const Token& t = peek();
            if (t.kind == Token::Kind::End) {
                if (!ends.empty())
                    throw TemplateError{"'{% " + (opener ? opener->text : ends.back()) + " %}' is never closed with '{% "
                            + ends.back() + " %}'",
                        opener ? opener->line : peek().line};
                break;
            }
            if (t.kind == Token::Kind::Text) {
                auto node = std::make_unique<Node>();
                node->type = Node::Type::Text;
                node->line = t.line;
                node->text = t.text;
                body.push_back(std::move(node));
                ++m_pos;
            } else if (t.kind == Token::Kind::VariableBegin) {
                ++m_pos;
                auto node = std::make_unique<Node>();
                node->type = Node::Type::Output;
                node->line = t.line;
                node->expr = parseExpression();
                if (peek().kind != Token::Kind::VariableEnd)
                    fail("expected '}}' but found " + describe(peek()));
                ++m_pos;
                body.push_back(std::move(node));
            } else if (t.kind == Token::Kind::BlockBegin) {
                const Token& tag = peek(1);
                if (tag.kind != Token::Kind::Name)
                    fail("expected a tag name after '{%'");
                if (std::find(ends.begin(), ends.end(), tag.text) != ends.end()) {
                    m_pos += 2;
                    *endTag = tag.text;
                    --m_depth;
                    return body;
                }
                m_pos += 2;
                body.push_back(parseStatement(tag));
            } else {
                fail("unexpected " + describe(t));
            }
        }
        --m_depth;
        return body;
    }

    std::unique_ptr<Node> parseStatement(const Token& tag)
    {
        auto node = std::make_unique<Node>();
        node->line = tag.line;
        const std::string& name = tag.text;
        std::string endTag;
        if (name == "if") {
            node->type = Node::Type::If;
            node->conditions.push_back(parseExpression());
            expectBlockEnd();
            for (;;) {
                node->bodies.push_back(parseBody({"elif", "else", "endif"}, &endTag, &tag));
                if (endTag == "elif") {
                    node->conditions.push_back(parseExpression());
                    expectBlockEnd();
                } else if (endTag == "else") {
                    expectBlockEnd();
                    node->bodies.push_back(parseBody({"endif"}, &endTag, &tag));
                    expectBlockEnd();
                    break;
                } else {
                    expectBlockEnd();
                    break;
                }
            }
        } else if (name == "for") {
            node->type = Node::Type::For;
            node->targets = parseTargets();
            if (!isName("in"))
                fail("expected 'in' in the for loop but found " + describe(peek()));
            ++m_pos;
            node->expr = parseExpression(false);
            if (isName("if")) {
                ++m_pos;
                node->conditions.push_back(parseExpression(false));
            }
            if (isName("recursive"))
                fail("recursive for loops are not supported");
            expectBlockEnd();
            node->bodies.push_back(parseBody({"else", "endfor"}, &endTag, &tag));
            expectBlockEnd();
            if (endTag == "else") {
                node->bodies.push_back(parseBody({"endfor"}, &endTag, &tag));
                expectBlockEnd();
            }
        } else if (name == "set") {
            if (peek().kind == Token::Kind::Name && isOp(".", 1)) {
                node->type = Node::Type::Set;
                auto ns = std::make_unique<Expr>();
                ns->op = Expr::Op::Name;
                ns->line = peek().line;
                ns->name = next().text;
                ++m_pos;
                node->attributeTarget = std::move(ns);
                node->attribute = expectName();
                expectOp("=");
                node->expr = parseExpression();
                expectBlockEnd();
            } else {
                node->targets = parseTargets();
                if (isOp("=")) {
                    ++m_pos;
                    node->type = Node::Type::Set;
                    node->expr = parseExpression();
                    expectBlockEnd();
                } else {
                    node->type = Node::Type::SetBlock;
                    if (isOp("|")) {
                        ++m_pos;
                        node->filter = parseFilterChain(nullptr);
                    }
                    expectBlockEnd();
                    node->bodies.push_back(parseBody({"endset"}, &endTag, &tag));
                    expectBlockEnd();
                }
            }
        } else if (name == "macro") {
            node->type = Node::Type::Macro;
            node->text = expectName();
            expectOp("(");
            while (!isOp(")")) {
                std::string param = expectName();
                ExprPtr defaultValue;
                if (isOp("=")) {
                    ++m_pos;
                    defaultValue = parseInner();
                }
                node->parameters.emplace_back(std::move(param), std::move(defaultValue));
                if (!isOp(","))
                    break;
                ++m_pos;
            }
            expectOp(")");
            expectBlockEnd();
            node->bodies.push_back(parseBody({"endmacro"}, &endTag, &tag));
            if (peek().kind == Token::Kind::Name)
                ++m_pos; // {% endmacro name %}
            expectBlockEnd();
        } else if (name == "break" || name == "continue") {
            node->type = name == "break" ? Node::Type::Break : Node::Type::Continue;
            expectBlockEnd();
        } else if (name == "filter") {
            node->type = Node::Type::FilterBlock;
            node->filter = parseFilterChain(nullptr);
            expectBlockEnd();
            node->bodies.push_back(parseBody({"endfilter"}, &endTag, &tag));
            expectBlockEnd();
        } else if (name == "do") {
            node->type = Node::Type::Do;
            node->expr = parseExpression();
            expectBlockEnd();
        } else if (name == "generation") {
            // transformers' {% generation %} marks assistant text for masks; it renders its body unchanged.
            expectBlockEnd();
            node->type = Node::Type::If;
            auto yes = std::make_unique<Expr>();
            yes->literal = Value(true);
            node->conditions.push_back(std::move(yes));
            node->bodies.push_back(parseBody({"endgeneration"}, &endTag, &tag));
            expectBlockEnd();
        } else {
            throw TemplateError{"unknown tag '{% " + name + " %}'", tag.line};
        }
        return node;
    }

    std::vector<std::string> parseTargets()
    {
        std::vector<std::string> names;
        const bool parenthesised = isOp("(");
        if (parenthesised)
            ++m_pos;
        names.push_back(expectName());
        while (isOp(",")) {
            ++m_pos;
            names.push_back(expectName());
        }
        if (parenthesised)
            expectOp(")");
        return names;
    }

    ExprPtr make(Expr::Op op, int line)
    {
        auto e = std::make_unique<Expr>();
        e->op = op;
        e->line = line;
        return e;
    }

    // An expression; a bare "a, b" is a tuple (a list) where allowed.
    ExprPtr parseExpression(bool withConditional = true)
    {
        enter();
        ExprPtr e = withConditional ? parseConditional() : parseOr();
        if (isOp(",") && peek(1).kind != Token::Kind::BlockEnd && peek(1).kind != Token::Kind::VariableEnd
            && m_allowTuple) {
            auto tuple = make(Expr::Op::List, e->line);
            tuple->children.push_back(std::move(e));
            while (isOp(",")) {
                ++m_pos;
                if (peek().kind == Token::Kind::BlockEnd || peek().kind == Token::Kind::VariableEnd)
                    break;
                tuple->children.push_back(parseConditional());
            }
            e = std::move(tuple);
        }
        --m_depth;
        return e;
    }

    ExprPtr parseInner()
    {
        const bool saved = m_allowTuple;
        m_allowTuple = false;
        enter();
        ExprPtr e = parseConditional();
        --m_depth;
        m_allowTuple = saved;
        return e;
    }

    ExprPtr parseConditional()
    {
        ExprPtr value = parseOr();
        while (isName("if")) {
            const int line = peek().line;
            ++m_pos;
            auto cond = make(Expr::Op::Conditional, line);
            ExprPtr test = parseOr();
            ExprPtr otherwise;
            if (isName("else")) {
                ++m_pos;
                otherwise = parseConditional();
            }
            cond->children.push_back(std::move(value));
            cond->children.push_back(std::move(test));
            cond->children.push_back(std::move(otherwise));
            value = std::move(cond);
        }
        return value;
    }

    ExprPtr parseOr()
    {
        ExprPtr left = parseAnd();
        while (isName("or")) {
            auto e = make(Expr::Op::Or, next().line);
            e->children.push_back(std::move(left));
            e->children.push_back(parseAnd());
            left = std::move(e);
        }
        return left;
    }

    ExprPtr parseAnd()
    {
        ExprPtr left = parseNot();
        while (isName("and")) {
            auto e = make(Expr::Op::And, next().line);
            e->children.push_back(std::move(left));
            e->children.push_back(parseNot());
            left = std::move(e);
        }
        return left;
    }

    ExprPtr parseNot()
    {
        if (isName("not")) {
            auto e = make(Expr::Op::Not, next().line);
            enter();
            e->children.push_back(parseNot());
            --m_depth;
            return e;
        }
        return parseCompare();
    }

    ExprPtr parseCompare()
    {
        ExprPtr left = parseMath1();
        for (;;) {
            std::string op;
            bool negated = false;
            if (peek().kind == Token::Kind::Operator
                && (peek().text == "==" || peek().text == "!=" || peek().text == "<" || peek().text == ">"
                    || peek().text == "<=" || peek().text == ">=")) {
                op = next().text;
            } else if (isName("in")) {
                ++m_pos;
                op = "in";
            } else if (isName("not") && isName("in", 1)) {
                m_pos += 2;
                op = "in";
                negated = true;
            } else {
                return left;
            }
            auto e = make(Expr::Op::Binary, left->line);
            e->name = op;
            e->negated = negated;
            e->children.push_back(std::move(left));
            e->children.push_back(parseMath1());
            left = std::move(e);
        }
    }

    ExprPtr binaryLoop(ExprPtr (Parser::*operand)(), std::initializer_list<const char*> ops)
    {
        ExprPtr left = (this->*operand)();
        for (;;) {
            const char* found = nullptr;
            for (const char* op : ops)
                if (isOp(op))
                    found = op;
            if (!found)
                return left;
            ++m_pos;
            auto e = make(Expr::Op::Binary, left->line);
            e->name = found;
            e->children.push_back(std::move(left));
            e->children.push_back((this->*operand)());
            left = std::move(e);
        }
    }

    ExprPtr parseMath1() { return binaryLoop(&Parser::parseConcat, {"+", "-"}); }
    ExprPtr parseConcat() { return binaryLoop(&Parser::parseMath2, {"~"}); }
    ExprPtr parseMath2() { return binaryLoop(&Parser::parsePow, {"*", "/", "//", "%"}); }
    ExprPtr parsePow() { return binaryLoop(&Parser::parseUnary, {"**"}); }

    ExprPtr parseUnary()
    {
        if (isOp("-") || isOp("+")) {
            const bool negate = isOp("-");
            const int line = next().line;
            enter();
            ExprPtr operand = parseUnary();
            --m_depth;
            if (!negate)
                return operand;
            auto e = make(Expr::Op::Negate, line);
            e->children.push_back(std::move(operand));
            return e;
        }
        return parseFilters(parsePostfix(parsePrimary()));
    }

    ExprPtr parsePrimary()
    {
        const Token& t = peek();
        enter();
        ExprPtr e;
        if (t.kind == Token::Kind::Name) {
            ++m_pos;
            if (t.text == "true" || t.text == "True") {
                e = make(Expr::Op::Literal, t.line);
                e->literal = Value(true);
            } else if (t.text == "false" || t.text == "False") {
                e = make(Expr::Op::Literal, t.line);
                e->literal = Value(false);
            } else if (t.text == "none" || t.text == "None") {
                e = make(Expr::Op::Literal, t.line);
                e->literal = Value::none();
            } else {
                e = make(Expr::Op::Name, t.line);
                e->name = t.text;
            }
        } else if (t.kind == Token::Kind::String) {
            e = make(Expr::Op::Literal, t.line);
            std::string s = next().text;
            while (peek().kind == Token::Kind::String) // adjacent literals concatenate
                s += next().text;
            e->literal = Value(std::move(s));
        } else if (t.kind == Token::Kind::Number) {
            e = make(Expr::Op::Literal, t.line);
            const std::string& n = next().text;
            if (n.find_first_of(".eE") != std::string::npos) {
                e->literal = Value(std::strtod(n.c_str(), nullptr)); // 1e999 is inf, as in Python
            } else {
                try {
                    e->literal = Value(std::int64_t(std::stoll(n)));
                } catch (...) {
                    throw TemplateError{"the number " + n + " is too large", t.line};
                }
            }
        } else if (isOp("(")) {
            ++m_pos;
            if (isOp(")")) {
                ++m_pos;
                e = make(Expr::Op::List, t.line);
            } else {
                const bool saved = m_allowTuple;
                m_allowTuple = true;
                e = parseExpression();
                m_allowTuple = saved;
                expectOp(")");
            }
        } else if (isOp("[")) {
            ++m_pos;
            e = make(Expr::Op::List, t.line);
            while (!isOp("]")) {
                e->children.push_back(parseInner());
                if (!isOp(","))
                    break;
                ++m_pos;
            }
            expectOp("]");
        } else if (isOp("{")) {
            ++m_pos;
            e = make(Expr::Op::Dict, t.line);
            while (!isOp("}")) {
                e->children.push_back(parseInner());
                expectOp(":");
                e->children.push_back(parseInner());
                if (!isOp(","))
                    break;
                ++m_pos;
            }
            expectOp("}");
        } else {
            fail("expected a value but found " + describe(t));
        }
        --m_depth;
        return e;
    }

    void parseCallArguments(Expr& call)
    {
        expectOp("(");
        while (!isOp(")")) {
            if (peek().kind == Token::Kind::Name && isOp("=", 1)) {
                std::string key = next().text;
                ++m_pos;
                call.keywords.emplace_back(std::move(key), parseInner());
            } else {
                call.children.push_back(parseInner());
            }
            if (!isOp(","))
                break;
            ++m_pos;
        }
        expectOp(")");
    }

    ExprPtr parsePostfix(ExprPtr e)
    {
        for (;;) {
            if (isOp(".")) {
                ++m_pos;
                auto attr = make(Expr::Op::Attr, e->line);
                if (peek().kind == Token::Kind::Number) {
                    attr->op = Expr::Op::Index;
                    auto key = make(Expr::Op::Literal, e->line);
                    const std::string& digits = next().text;
                    if (digits.size() >= 19 || digits.find_first_not_of("0123456789") != std::string::npos)
                        throw TemplateError{"'" + digits + "' is not an index", e->line};
                    key->literal = Value(std::int64_t(std::stoll(digits)));
                    attr->children.push_back(std::move(e));
                    attr->children.push_back(std::move(key));
                } else {
                    attr->name = expectName();
                    attr->children.push_back(std::move(e));
                }
                e = std::move(attr);
            } else if (isOp("[")) {
                ++m_pos;
                std::vector<ExprPtr> parts(3);
                bool slice = false;
                int part = 0;
                while (!isOp("]")) {
                    if (isOp(":")) {
                        slice = true;
                        if (++part > 2)
                            fail("a slice has at most three parts");
                        ++m_pos;
                        continue;
                    }
                    parts[std::size_t(part)] = parseInner();
                    if (!isOp(":") && !isOp("]"))
                        fail("expected ']' but found " + describe(peek()));
                }
                expectOp("]");
                auto index = make(slice ? Expr::Op::Slice : Expr::Op::Index, e->line);
                index->children.push_back(std::move(e));
                if (slice) {
                    for (auto& p : parts)
                        index->children.push_back(std::move(p));
                } else {
                    if (!parts[0])
                        fail("empty subscript");
                    index->children.push_back(std::move(parts[0]));
                }
                e = std::move(index);
            } else if (isOp("(")) {
                auto call = make(Expr::Op::Call, e->line);
                call->children.push_back(std::move(e));
                parseCallArguments(*call);
                e = std::move(call);
            } else {
                return e;
            }
        }
    }

    // subject | f1(args) | f2 ... ; subject may be null (filter blocks).
    ExprPtr parseFilterChain(ExprPtr subject)
    {
        for (;;) {
            auto f = make(Expr::Op::Filter, peek().line);
            f->name = expectName();
            f->children.push_back(std::move(subject));
            if (isOp("("))
                parseCallArguments(*f);
            subject = std::move(f);
            if (!isOp("|"))
                return subject;
            ++m_pos;
        }
    }

    bool startsTestArgument() const
    {
        const Token& t = peek();
        if (t.kind == Token::Kind::String || t.kind == Token::Kind::Number)
            return true;
        if (t.kind == Token::Kind::Name)
            return t.text != "and" && t.text != "or" && t.text != "else" && t.text != "if" && t.text != "in"
                && t.text != "is" && t.text != "not";
        return isOp("[") || isOp("{") || isOp("-");
    }

    ExprPtr parseFilters(ExprPtr e)
    {
        for (;;) {
            if (isOp("|")) {
                ++m_pos;
                auto f = make(Expr::Op::Filter, peek().line);
                f->name = expectName();
                f->children.push_back(std::move(e));
                if (isOp("("))
                    parseCallArguments(*f);
                e = std::move(f);
            } else if (isName("is")) {
                const int line = next().line;
                auto t = make(Expr::Op::Test, line);
                if (isName("not")) {
                    ++m_pos;
                    t->negated = true;
                }
                if (isName("none") || isName("true") || isName("false"))
                    t->name = next().text;
                else
                    t->name = expectName();
                t->children.push_back(std::move(e));
                if (isOp("("))
                    parseCallArguments(*t);
                else if (startsTestArgument())
                    t->children.push_back(parsePostfix(parsePrimary()));
                e = std::move(t);
            } else {
                return e;
            }
        }
    }

    std::vector<Token> m_tokens;
    std::size_t m_pos = 0;
    int m_depth = 0;
    bool m_allowTuple = true;
};

} // namespace

// -------------------------------------------------------------------------------------------------------------
// Renderer

enum class Flow { Normal, Break, Continue };

class Renderer {
public:
    explicit Renderer(const Value& context)
    {
        m_globals = makeGlobals();
        if (context.isMap())
            for (const auto& [key, value] : context.asMap().entries)
                m_globals.asMap().set(key, value);
        m_scopes.push_back(Scope{});
    }

    std::string run(const Program& program)
    {
        std::string out;
        exec(program.body, out);
        return out;
    }

    Value eval(const Expr& e);
    Value callValue(const Value& callee, CallArgs& args, int line);

private:
    struct Scope {
        std::unordered_map<std::string, Value> vars;
        bool isolated = false; // a macro's body: names below it are not visible
    };

    Value lookup(const std::string& name)
    {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            const auto found = it->vars.find(name);
            if (found != it->vars.end())
                return found->second;
            if (it->isolated) {
                // macros see the template's top-level names and the globals
                const auto top = m_scopes.front().vars.find(name);
                if (top != m_scopes.front().vars.end())
                    return top->second;
                break;
            }
        }
        if (const Value* v = m_globals.asMap().find(name))
            return *v;
        return {};
    }

    void assign(const std::vector<std::string>& targets, const Value& value, int line)
    {
        auto& vars = m_scopes.back().vars;
        if (targets.size() == 1) {
            vars[targets[0]] = value;
            return;
        }
        const std::vector<Value> items = iterate(value, line);
        if (items.size() != targets.size())
            throw TemplateError{"cannot unpack " + std::to_string(items.size()) + " values into "
                    + std::to_string(targets.size()) + " names",
                line};
        for (std::size_t i = 0; i < targets.size(); ++i)
            vars[targets[i]] = items[i];
    }

    void write(std::string& out, const std::string& text, int line)
    {
        if (out.size() + text.size() > kMaxStringBytes)
            throw TemplateError{"the output grows beyond 16 MB", line};
        out += text;
    }

    Flow exec(const Body& body, std::string& out);
    Value filterChain(const Expr* chain, Value value);
    Flow execFor(const Node& node, std::string& out);
    Value defineMacro(const Node& node);
    Value binary(const Expr& e);

    Value m_globals;
    std::vector<Scope> m_scopes;
    int m_callDepth = 0;
};

Flow Renderer::exec(const Body& body, std::string& out)
{
    const Node* current = nullptr; // names the line of an error thrown without one (a value walked)
    try {
    for (const auto& nodePtr : body) {
        const Node& node = *nodePtr;
        current = &node;
        switch (node.type) {
        case Node::Type::Text: write(out, node.text, node.line); break;
        case Node::Type::Output: write(out, eval(*node.expr).str(), node.line); break;
        case Node::Type::If: {
            std::size_t branch = 0;
            for (; branch < node.conditions.size(); ++branch)
                if (eval(*node.conditions[branch]).truthy())
                    break;
            if (branch < node.bodies.size()) {
                const Flow flow = exec(node.bodies[branch], out);
                if (flow != Flow::Normal)
                    return flow;
            }
            break;
        }
        case Node::Type::For: {
            const Flow flow = execFor(node, out);
            if (flow != Flow::Normal)
                return flow;
            break;
        }
        case Node::Type::Set:
            if (node.attributeTarget) {
                const Value ns = eval(*node.attributeTarget);
                if (!ns.isMap() || !ns.asMap().isNamespace)
                    throw TemplateError{"cannot set an attribute of " + node.attributeTarget->name
                            + ", which is not a namespace",
                        node.line};
                ns.asMap().set(node.attribute, eval(*node.expr));
            } else {
                assign(node.targets, eval(*node.expr), node.line);
            }
            break;
        case Node::Type::SetBlock:
        case Node::Type::FilterBlock: {
            std::string captured;
            exec(node.bodies[0], captured);
            const Value value = filterChain(node.filter.get(), Value(std::move(captured)));
            if (node.type == Node::Type::SetBlock)
                assign(node.targets, value, node.line);
            else
                write(out, value.str(), node.line);
            break;
        }
        case Node::Type::Macro: m_scopes.back().vars[node.text] = defineMacro(node); break;
        case Node::Type::Break: return Flow::Break;
        case Node::Type::Continue: return Flow::Continue;
        case Node::Type::Do: eval(*node.expr); break;
        }
    }
    } catch (TemplateError& error) {
        if (error.line == 0 && current)
            error.line = current->line;
        throw;
    }
    return Flow::Normal;
}

// A block's filters (`{% filter f | g %}`, `{% set x | f %}`): the chain's innermost subject is null, and
// the block's text goes there.
Value Renderer::filterChain(const Expr* chain, Value value)
{
    std::vector<const Expr*> filters;
    for (const Expr* f = chain; f; f = f->children[0].get())
        filters.push_back(f);
    for (auto it = filters.rbegin(); it != filters.rend(); ++it) {
        CallArgs args;
        for (std::size_t i = 1; i < (*it)->children.size(); ++i)
            args.positional.push_back(eval(*(*it)->children[i]));
        for (const auto& [key, expr] : (*it)->keywords)
            args.keyword.emplace_back(key, eval(*expr));
        value = applyFilter(*this, (*it)->name, value, args, (*it)->line);
    }
    return value;
}

Flow Renderer::execFor(const Node& node, std::string& out)
{
    const Value iterable = eval(*node.expr);
    std::vector<Value> items = iterate(iterable, node.line);
    m_scopes.push_back(Scope{});
    if (!node.conditions.empty()) {
        std::vector<Value> kept;
        for (const Value& item : items) {
            chargeStep();
            assign(node.targets, item, node.line);
            if (eval(*node.conditions[0]).truthy())
                kept.push_back(item);
        }
        items = std::move(kept);
    }
    const std::int64_t n = std::int64_t(items.size());
    for (std::int64_t i = 0; i < n; ++i) {
        chargeStep();
        auto& vars = m_scopes.back().vars;
        Value loop = Value::map();
        auto& l = loop.asMap();
        l.set("index", Value(i + 1));
        l.set("index0", Value(i));
        l.set("revindex", Value(n - i));
        l.set("revindex0", Value(n - i - 1));
        l.set("first", Value(i == 0));
        l.set("last", Value(i == n - 1));
        l.set("length", Value(n));
        l.set("depth", Value(1));
        l.set("depth0", Value(0));
        l.set("previtem", i > 0 ? items[std::size_t(i - 1)] : Value());
        l.set("nextitem", i + 1 < n ? items[std::size_t(i + 1)] : Value());
        l.set("cycle", Value::callable("cycle", [i](CallArgs& args) {
            if (args.positional.empty())
                return Value();
            return args.positional[std::size_t(i) % args.positional.size()];
        }));
        vars["loop"] = loop;
        assign(node.targets, items[std::size_t(i)], node.line);
        if (exec(node.bodies[0], out) == Flow::Break)
            break;
    }
    m_scopes.pop_back();
    if (n == 0 && node.bodies.size() > 1) {
        const Flow flow = exec(node.bodies[1], out);
        if (flow != Flow::Normal)
            return flow;
    }
    return Flow::Normal;
}

Value Renderer::defineMacro(const Node& node)
{
    const Node* macro = &node;
    return Value::callable(node.text, [this, macro](CallArgs& args) -> Value {
        chargeStep();
        if (m_callDepth >= kMaxCallDepth)
            throw TemplateError{"macro '" + macro->text + "' recurses deeper than " + std::to_string(kMaxCallDepth)
                    + " calls",
                macro->line};
        Scope scope;
        scope.isolated = true;
        const auto& params = macro->parameters;
        Value varargs = Value::list();
        Value kwargs = Value::map();
        for (std::size_t i = 0; i < args.positional.size(); ++i) {
            if (i < params.size())
                scope.vars[params[i].first] = args.positional[i];
            else
                varargs.asList().push_back(args.positional[i]);
        }
        for (const auto& [key, value] : args.keyword) {
            const auto& name = key; // clang 14 cannot capture a structured binding
            const bool known = std::any_of(params.begin(), params.end(), [&](const auto& p) { return p.first == name; });
            if (known)
                scope.vars[key] = value;
            else
                kwargs.asMap().set(key, value);
        }
        ++m_callDepth;
        m_scopes.push_back(std::move(scope));
        for (const auto& [name, defaultExpr] : params)
            if (!m_scopes.back().vars.count(name))
                m_scopes.back().vars[name] = defaultExpr ? eval(*defaultExpr) : Value();
        m_scopes.back().vars["varargs"] = varargs;
        m_scopes.back().vars["kwargs"] = kwargs;
        std::string out;
        try {
            exec(macro->bodies[0], out);
        } catch (...) {
            m_scopes.pop_back();
            --m_callDepth;
            throw;
        }
        m_scopes.pop_back();
        --m_callDepth;
        return Value(std::move(out));
    });
}

Value Renderer::callValue(const Value& callee, CallArgs& args, int line)
{
    if (!callee.isCallable())
        throw TemplateError{"cannot call a value of type " + callee.typeName(), line};
    try {
        return callee.asCallable().call(args);
    } catch (TemplateError& error) {
        if (error.line == 0)
            error.line = line;
        throw;
    }
}

namespace {

// Integers are 64-bit here where Python's grow without bound: a result that does not fit is refused.
TemplateError overflow(const std::string& op, const Value& a, const Value& b, int line)
{
    return TemplateError{"integer overflow: " + a.str() + " " + op + " " + b.str() + " does not fit in 64 bits", line};
}

Value arithmetic(const std::string& op, const Value& a, const Value& b, int line)
{
    if (op == "+") {
        if (a.isString() && b.isString()) {
            if (a.isMarkup() || b.isMarkup()) // Markup + str escapes the str, as Python's markupsafe does
                return Value::markup((a.isMarkup() ? a.asString() : escapeHtml(a.asString())) +
                    (b.isMarkup() ? b.asString() : escapeHtml(b.asString())));
            chargeBytes(a.asString().size() + b.asString().size());
            return Value(a.asString() + b.asString());
        }
        if (a.isList() && b.isList()) {
            if (a.asList().size() + b.asList().size() > kMaxListItems)
                throw TemplateError{"a list grows beyond a million items", line};
            Value::List joined = a.asList();
            joined.insert(joined.end(), b.asList().begin(), b.asList().end());
            return Value::list(std::move(joined));
        }
    }
    if (op == "*") {
        const Value* text = a.isString() || a.isList() ? &a : b.isString() || b.isList() ? &b : nullptr;
        const Value* count = text == &a ? &b : &a;
        if (text && count->isNumber() && !count->isFloat()) {
            const std::int64_t n = std::max<std::int64_t>(0, count->asInt());
            if (text->isString()) {
                const std::size_t size = text->asString().size();
                if (size == 0 || n == 0) // (an empty string repeated 2^40 times must not loop 2^40 times)
                    return Value(std::string());
                if (size > 0 && std::uint64_t(n) > kMaxStringBytes / size)
                    throw TemplateError{"a repeated string grows beyond 16 MB", line};
                chargeBytes(std::size_t(n) * size);
                std::string out;
                out.reserve(std::size_t(n) * size);
                for (std::int64_t i = 0; i < n; ++i)
                    out += text->asString();
                return Value(std::move(out));
            }
            const std::size_t items = text->asList().size();
            if (items == 0 || n == 0)
                return Value::list();
            if (items > 0 && std::uint64_t(n) > kMaxListItems / items)
                throw TemplateError{"a repeated list grows beyond a million items", line};
            Value::List out;
            for (std::int64_t i = 0; i < n; ++i)
                out.insert(out.end(), text->asList().begin(), text->asList().end());
            return Value::list(std::move(out));
        }
    }
    if (op == "%" && a.isString()) {
        // printf-style formatting: %s and %d with one value or a list of values
        std::vector<Value> values = b.isList() ? b.asList() : std::vector<Value>{b};
        std::string out;
        std::size_t next = 0;
        const std::string& f = a.asString();
        for (std::size_t i = 0; i < f.size(); ++i) {
            if (f[i] != '%' || i + 1 >= f.size()) {
                out += f[i];
                continue;
            }
            const char spec = f[++i];
            if (spec == '%') {
                out += '%';
            } else if (spec == 's' || spec == 'd' || spec == 'r') {
                if (next >= values.size())
                    throw TemplateError{"not enough values for the format string", line};
                const Value& v = values[next++];
                if (spec == 'd' && !v.isNumber()) // as Python: "%d" % "x" is a TypeError
                    throw TemplateError{"%d format: a number is required, not " + v.typeName(), line};
                out += spec == 'r' ? v.repr() : spec == 'd' ? std::to_string(v.asInt()) : v.str();
            } else {
                throw TemplateError{std::string("unsupported format '%") + spec + "'", line};
            }
        }
        return Value(std::move(out));
    }
    if (!a.isNumber() || !b.isNumber())
        throw TemplateError{"unsupported operand types for " + op + ": " + a.typeName() + " and " + b.typeName(), line};
    const bool useFloat = a.isFloat() || b.isFloat();
    if (op == "/") {
        if (b.asDouble() == 0)
            throw TemplateError{"division by zero", line};
        return Value(a.asDouble() / b.asDouble());
    }
    if (op == "**") {
        if (!useFloat && b.asInt() >= 0) {
            const std::int64_t base = a.asInt();
            std::int64_t exponent = b.asInt();
            if (base == 0 || base == 1)
                return Value(exponent == 0 ? std::int64_t(1) : base);
            if (base == -1)
                return Value(exponent % 2 == 0 ? std::int64_t(1) : std::int64_t(-1));
            std::int64_t r = 1; // |base| >= 2: at most 63 products before an overflow
            for (; exponent > 0; --exponent)
                if (__builtin_mul_overflow(r, base, &r))
                    throw overflow(op, a, b, line);
            return Value(r);
        }
        return Value(std::pow(a.asDouble(), b.asDouble()));
    }
    if (useFloat) {
        const double x = a.asDouble(), y = b.asDouble();
        if (op == "+")
            return Value(x + y);
        if (op == "-")
            return Value(x - y);
        if (op == "*")
            return Value(x * y);
        if (y == 0)
            throw TemplateError{"division by zero", line};
        if (op == "//")
            return Value(std::floor(x / y));
        return Value(x - y * std::floor(x / y));
    }
    const std::int64_t x = a.asInt(), y = b.asInt();
    std::int64_t r = 0;
    if (op == "+" || op == "-" || op == "*") {
        const bool overflowed = op == "+"   ? __builtin_add_overflow(x, y, &r)
                                : op == "-" ? __builtin_sub_overflow(x, y, &r)
                                            : __builtin_mul_overflow(x, y, &r);
        if (overflowed)
            throw overflow(op, a, b, line);
        return Value(r);
    }
    if (y == 0)
        throw TemplateError{"division by zero", line};
    if (x == std::numeric_limits<std::int64_t>::min() && y == -1) { // the one quotient that does not fit
        if (op == "%")
            return Value(std::int64_t(0));
        throw overflow(op, a, b, line);
    }
    // Python's floor division and modulo (the remainder takes the divisor's sign), without x - q * y, which
    // overflows for INT64_MIN % 85 (the fuzzer's find).
    const std::int64_t remainder = x % y;
    const bool adjust = remainder != 0 && ((remainder < 0) != (y < 0));
    if (op == "//")
        return Value(x / y - (adjust ? 1 : 0));
    return Value(adjust ? remainder + y : remainder);
}

std::int64_t normalizeIndex(std::int64_t i, std::int64_t size)
{
    return i < 0 ? i + size : i;
}

} // namespace

Value Renderer::binary(const Expr& e)
{
    const Value a = eval(*e.children[0]);
    const Value b = eval(*e.children[1]);
    const std::string& op = e.name;
    if (op == "==")
        return Value(a.equals(b));
    if (op == "!=")
        return Value(!a.equals(b));
    if (op == "<")
        return Value(compare(a, b, e.line) < 0);
    if (op == ">")
        return Value(compare(a, b, e.line) > 0);
    if (op == "<=")
        return Value(compare(a, b, e.line) <= 0);
    if (op == ">=")
        return Value(compare(a, b, e.line) >= 0);
    if (op == "in")
        return Value(contains(b, a, e.line) != e.negated);
    if (op == "~") {
        if (a.isString() && b.isString()) // sized before anything is copied
            chargeBytes(a.asString().size() + b.asString().size());
        std::string left = a.str();
        const std::string right = b.str();
        chargeBytes(left.size() + right.size());
        return Value(std::move(left) + right);
    }
    return arithmetic(op, a, b, e.line);
}

Value Renderer::eval(const Expr& e)
{
    switch (e.op) {
    case Expr::Op::Literal: return e.literal;
    case Expr::Op::Name: return lookup(e.name);
    case Expr::Op::List: {
        Value::List items;
        for (const auto& child : e.children)
            items.push_back(eval(*child));
        return Value::list(std::move(items));
    }
    case Expr::Op::Dict: {
        Value map = Value::map();
        for (std::size_t i = 0; i + 1 < e.children.size(); i += 2) {
            const Value key = eval(*e.children[i]);
            if (!key.hashable())
                throw TemplateError{"a " + key.typeName() + " cannot be a dict key", e.line};
            map.asMap().setKey(key, eval(*e.children[i + 1]));
        }
        return map;
    }
    case Expr::Op::Attr: {
        const Value object = eval(*e.children[0]);
        if (object.isUndefined()) // Jinja2's Undefined raises on any attribute, as transformers renders
            throw TemplateError{"cannot read ." + e.name + " of an undefined value", e.line};
        if (object.isMap()) {
            Value m = object.asMap().isNamespace ? Value() : method(object, e.name, e.line);
            if (!m.isUndefined())
                return m;
            if (const Value* v = object.asMap().find(e.name))
                return *v;
            return {};
        }
        return method(object, e.name, e.line);
    }
    case Expr::Op::Index: {
        const Value object = eval(*e.children[0]);
        const Value key = eval(*e.children[1]);
        if (object.isUndefined())
            throw TemplateError{"cannot read [" + key.repr() + "] of an undefined value", e.line};
        Value item = getItem(object, key);
        if (item.isUndefined() && key.isString() && !object.isMap())
            return method(object, key.asString(), e.line);
        return item;
    }
    case Expr::Op::Slice: {
        const Value object = eval(*e.children[0]);
        const auto part = [&](std::size_t i) { return e.children[i] ? eval(*e.children[i]) : Value::none(); };
        const Value start = part(1), stop = part(2), step = part(3);
        std::vector<std::string> chars;
        std::int64_t size = 0;
        if (object.isString()) {
            chars = codePoints(object.asString());
            size = std::int64_t(chars.size());
        } else if (object.isList()) {
            size = std::int64_t(object.asList().size());
        } else {
            throw TemplateError{"cannot slice a value of type " + object.typeName(), e.line};
        }
        const std::int64_t s = step.isNumber() ? step.asInt() : 1;
        if (s == 0)
            throw TemplateError{"a slice step cannot be zero", e.line};
        auto clamp = [&](const Value& v, std::int64_t fallback) {
            if (!v.isNumber())
                return fallback;
            std::int64_t i = normalizeIndex(v.asInt(), size);
            if (s > 0)
                return std::clamp<std::int64_t>(i, 0, size);
            return std::clamp<std::int64_t>(i, -1, size - 1);
        };
        const std::int64_t from = clamp(start, s > 0 ? 0 : size - 1);
        const std::int64_t to = clamp(stop, s > 0 ? size : -1);
        std::vector<std::int64_t> picks;
        for (std::int64_t i = from; s > 0 ? i < to : i > to; i += s)
            picks.push_back(i);
        if (object.isString()) {
            std::string out;
            for (std::int64_t i : picks)
                out += chars[std::size_t(i)];
            return Value(std::move(out));
        }
        Value::List out;
        for (std::int64_t i : picks)
            out.push_back(object.asList()[std::size_t(i)]);
        return Value::list(std::move(out));
    }
    case Expr::Op::Call: {
        const Value callee = eval(*e.children[0]);
        if (callee.isUndefined()) {
            const Expr& c = *e.children[0];
            throw TemplateError{(c.op == Expr::Op::Name || c.op == Expr::Op::Attr ? "'" + c.name + "'" : "the called value")
                    + " is undefined",
                e.line};
        }
        CallArgs args;
        for (std::size_t i = 1; i < e.children.size(); ++i)
            args.positional.push_back(eval(*e.children[i]));
        for (const auto& [key, expr] : e.keywords)
            args.keyword.emplace_back(key, eval(*expr));
        return callValue(callee, args, e.line);
    }
    case Expr::Op::Filter: {
        Value subject = eval(*e.children[0]);
        CallArgs args;
        for (std::size_t i = 1; i < e.children.size(); ++i)
            args.positional.push_back(eval(*e.children[i]));
        for (const auto& [key, expr] : e.keywords)
            args.keyword.emplace_back(key, eval(*expr));
        return applyFilter(*this, e.name, std::move(subject), args, e.line);
    }
    case Expr::Op::Test: {
        const Value subject = eval(*e.children[0]);
        CallArgs args;
        for (std::size_t i = 1; i < e.children.size(); ++i)
            args.positional.push_back(eval(*e.children[i]));
        for (const auto& [key, expr] : e.keywords)
            args.keyword.emplace_back(key, eval(*expr));
        if (!hasTest(e.name)) {
            // a test named after a callable in scope is not Jinja; name the unknown test
            throw TemplateError{"unknown test '" + e.name + "'", e.line};
        }
        return Value(applyTest(e.name, subject, args, e.line) != e.negated);
    }
    case Expr::Op::Not: return Value(!eval(*e.children[0]).truthy());
    case Expr::Op::Negate: {
        const Value v = eval(*e.children[0]);
        if (v.isFloat())
            return Value(-v.asDouble());
        if (v.isNumber()) {
            if (v.asInt() == std::numeric_limits<std::int64_t>::min())
                throw TemplateError{"integer overflow: -(" + v.str() + ") does not fit in 64 bits", e.line};
            return Value(-v.asInt());
        }
        throw TemplateError{"cannot negate a value of type " + v.typeName(), e.line};
    }
    case Expr::Op::Binary: return binary(e);
    case Expr::Op::And: {
        Value a = eval(*e.children[0]);
        return a.truthy() ? eval(*e.children[1]) : a;
    }
    case Expr::Op::Or: {
        Value a = eval(*e.children[0]);
        return a.truthy() ? a : eval(*e.children[1]);
    }
    case Expr::Op::Conditional:
        if (eval(*e.children[1]).truthy())
            return eval(*e.children[0]);
        return e.children[2] ? eval(*e.children[2]) : Value();
    }
    return {};
}

Value callFromBuiltin(Renderer& renderer, const Value& callee, CallArgs& args, int line)
{
    return renderer.callValue(callee, args, line);
}

namespace {

// The offset of the first byte that keeps `text` from being UTF-8 text (a malformed or overlong sequence, a
// surrogate, a NUL byte), or npos.
std::size_t firstNonText(const std::string& text)
{
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        if (c == 0)
            return i;
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t code = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            code = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            code = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            code = c & 0x07;
        } else {
            return i;
        }
        if (i + length > n)
            return i;
        for (std::size_t k = 1; k < length; ++k) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            code = (code << 6) | (s[i + k] & 0x3F);
        }
        if ((length == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) ||
            (length == 4 && (code < 0x10000 || code > 0x10FFFF)))
            return i;
        i += length;
    }
    return std::string::npos;
}

} // namespace

Result<Template> Template::parse(const std::string& source)
{
    if (const std::size_t at = firstNonText(source); at != std::string::npos) {
        const auto line = 1 + std::count(source.begin(), source.begin() + std::ptrdiff_t(at), '\n');
        return Error::badInput(QStringLiteral("line %1: the template is not text: byte %2 is %3")
                                   .arg(line)
                                   .arg(at)
                                   .arg(source[at] == 0 ? QStringLiteral("a NUL byte")
                                                        : QStringLiteral("not valid UTF-8")));
    }
    try {
        auto program = std::make_shared<Program>();
        program->body = Parser(Lexer(source).run()).parseTemplate();
        return Template(std::move(program));
    } catch (const TemplateError& error) {
        return Error::badInput(QStringLiteral("line %1: %2").arg(error.line).arg(QString::fromStdString(error.message)));
    } catch (const std::exception& error) { // as in render: an error, never an abort
        return Error::badInput(QStringLiteral("the template does not parse: %1").arg(QString::fromUtf8(error.what())));
    }
}

Result<std::string> Template::render(const Value& context) const
{
    try {
        t_renderBudget = RenderBudget{};
        Renderer renderer(context);
        return renderer.run(*m_program);
    } catch (const TemplateError& error) {
        return Error::badInput(QStringLiteral("line %1: %2").arg(error.line).arg(QString::fromStdString(error.message)));
    } catch (const std::bad_alloc&) {
        return Error::badInput(QStringLiteral("the template needs more memory than there is"));
    } catch (const std::exception& error) { // a value of a type no check above expected: an error, never an abort
        return Error::badInput(QStringLiteral("the template failed: %1").arg(QString::fromUtf8(error.what())));
    }
}

} // namespace swb::jinja
