#include "chat/JinjaParser.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace swb::jinja {

namespace {

constexpr int kMaxNesting = 256; // brackets in an expression, blocks in a template

using ExprPtr = std::unique_ptr<Expr>;

class Parser {
public:
    explicit Parser(std::vector<Token> tokens)
        : m_tokens(std::move(tokens)) {}

    Body parseTemplate() {
        std::string endTag;
        Body body = parseBody({}, &endTag);
        return body;
    }

private:
    const Token& peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_pos + ahead, m_tokens.size() - 1)]; }
    const Token& next() { return m_tokens[std::min(m_pos++, m_tokens.size() - 1)]; }
    bool isOp(const char* op, std::size_t ahead = 0) const {
        return peek(ahead).kind == Token::Kind::Operator && peek(ahead).text == op;
    }
    bool isName(const char* name, std::size_t ahead = 0) const {
        return peek(ahead).kind == Token::Kind::Name && peek(ahead).text == name;
    }
    [[noreturn]] void fail(const std::string& why) const { throw TemplateError{why, peek().line}; }
    std::string describe(const Token& t) const {
        switch (t.kind) {
        case Token::Kind::End:
            return "the end of the template";
        case Token::Kind::BlockEnd:
            return "the end of the tag";
        case Token::Kind::VariableEnd:
            return "'}}'";
        case Token::Kind::Text:
            return "text";
        default:
            return "'" + t.text + "'";
        }
    }
    void expectOp(const char* op) {
        if (!isOp(op))
            fail(std::string("expected '") + op + "' but found " + describe(peek()));
        ++m_pos;
    }
    std::string expectName() {
        if (peek().kind != Token::Kind::Name)
            fail("expected a name but found " + describe(peek()));
        return next().text;
    }
    void expectBlockEnd() {
        if (peek().kind != Token::Kind::BlockEnd)
            fail("expected the end of the tag but found " + describe(peek()));
        ++m_pos;
    }
    void enter() {
        if (++m_depth > kMaxNesting)
            fail("the template nests deeper than " + std::to_string(kMaxNesting) + " levels");
    }

    // Nodes until one of the end tags (whose name goes to *endTag, the tag itself not consumed beyond its name).
    Body parseBody(const std::vector<std::string>& ends, std::string* endTag, const Token* opener = nullptr) {
        enter();
        Body body;
        for (;;) {
            const Token& t = peek();
            if (t.kind == Token::Kind::End) {
                if (!ends.empty())
                    throw TemplateError{"'{% " + (opener ? opener->text : ends.back()) +
                                            " %}' is never closed with '{% " + ends.back() + " %}'",
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

    std::unique_ptr<Node> parseStatement(const Token& tag) {
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

    std::vector<std::string> parseTargets() {
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

    ExprPtr make(Expr::Op op, int line) {
        auto e = std::make_unique<Expr>();
        e->op = op;
        e->line = line;
        return e;
    }

    // An expression; a bare "a, b" is a tuple (a list) where allowed.
    ExprPtr parseExpression(bool withConditional = true) {
        enter();
        ExprPtr e = withConditional ? parseConditional() : parseOr();
        if (isOp(",") && peek(1).kind != Token::Kind::BlockEnd && peek(1).kind != Token::Kind::VariableEnd &&
            m_allowTuple) {
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

    ExprPtr parseInner() {
        const bool saved = m_allowTuple;
        m_allowTuple = false;
        enter();
        ExprPtr e = parseConditional();
        --m_depth;
        m_allowTuple = saved;
        return e;
    }

    ExprPtr parseConditional() {
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

    ExprPtr parseOr() {
        ExprPtr left = parseAnd();
        while (isName("or")) {
            auto e = make(Expr::Op::Or, next().line);
            e->children.push_back(std::move(left));
            e->children.push_back(parseAnd());
            left = std::move(e);
        }
        return left;
    }

    ExprPtr parseAnd() {
        ExprPtr left = parseNot();
        while (isName("and")) {
            auto e = make(Expr::Op::And, next().line);
            e->children.push_back(std::move(left));
            e->children.push_back(parseNot());
            left = std::move(e);
        }
        return left;
    }

    ExprPtr parseNot() {
        if (isName("not")) {
            auto e = make(Expr::Op::Not, next().line);
            enter();
            e->children.push_back(parseNot());
            --m_depth;
            return e;
        }
        return parseCompare();
    }

    ExprPtr parseCompare() {
        ExprPtr left = parseMath1();
        for (;;) {
            std::string op;
            bool negated = false;
            if (peek().kind == Token::Kind::Operator &&
                (peek().text == "==" || peek().text == "!=" || peek().text == "<" || peek().text == ">" ||
                 peek().text == "<=" || peek().text == ">=")) {
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

    ExprPtr binaryLoop(ExprPtr (Parser::*operand)(), std::initializer_list<const char*> ops) {
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

    ExprPtr parseUnary() {
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

    ExprPtr parsePrimary() {
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

    void parseCallArguments(Expr& call) {
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

    ExprPtr parsePostfix(ExprPtr e) {
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
    ExprPtr parseFilterChain(ExprPtr subject) {
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

    bool startsTestArgument() const {
        const Token& t = peek();
        if (t.kind == Token::Kind::String || t.kind == Token::Kind::Number)
            return true;
        if (t.kind == Token::Kind::Name)
            return t.text != "and" && t.text != "or" && t.text != "else" && t.text != "if" && t.text != "in" &&
                   t.text != "is" && t.text != "not";
        return isOp("[") || isOp("{") || isOp("-");
    }

    ExprPtr parseFilters(ExprPtr e) {
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

// Finds each filter and test by name, where Jinja2 does: an unknown one is an error at parse time naming its
// line, unless it sits in an if (a statement's conditions and branches, or a conditional expression), where
// Jinja2 raises it only if that code runs (the renderer does the same with a filter or test left null). A
// for loop's body, a macro and a filter block check strictly again, as Jinja2's new frames do.
void resolve(Expr& e, bool soft);

void resolve(Body& body, bool soft) {
    for (const std::unique_ptr<Node>& node : body) {
        const bool ifNode = node->type == Node::Type::If;
        const bool newFrame = node->type == Node::Type::For || node->type == Node::Type::Macro ||
                              node->type == Node::Type::FilterBlock || node->type == Node::Type::SetBlock;
        if (node->expr)
            resolve(*node->expr, soft);
        if (node->attributeTarget)
            resolve(*node->attributeTarget, soft);
        for (const std::unique_ptr<Expr>& condition : node->conditions)
            resolve(*condition, ifNode || (soft && !newFrame));
        for (const auto& parameter : node->parameters)
            if (parameter.second)
                resolve(*parameter.second, false);
        if (node->filter)
            resolve(*node->filter, false);
        for (Body& inner : node->bodies)
            resolve(inner, ifNode || (soft && !newFrame));
    }
}

void resolve(Expr& e, bool soft) {
    if (e.op == Expr::Op::Conditional)
        soft = true;
    if (e.op == Expr::Op::Filter) {
        e.filter = findFilter(e.name);
        if (!e.filter && !soft)
            throw TemplateError{"unknown filter '" + e.name + "'", e.line};
    } else if (e.op == Expr::Op::Test) {
        e.test = findTest(e.name);
        if (!e.test && !soft)
            throw TemplateError{"unknown test '" + e.name + "'", e.line};
    }
    for (const std::unique_ptr<Expr>& child : e.children)
        if (child)
            resolve(*child, soft);
    for (const auto& keyword : e.keywords)
        if (keyword.second)
            resolve(*keyword.second, soft);
}

} // namespace

Body parseTokens(std::vector<Token> tokens) {
    Body body = Parser(std::move(tokens)).parseTemplate();
    resolve(body, false);
    return body;
}

} // namespace swb::jinja
