#include "chat/JinjaRenderer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace swb::jinja {

namespace {

constexpr int kMaxCallDepth = 200; // macro calls

} // namespace

enum class Flow { Normal, Break, Continue };

class Renderer {
public:
    explicit Renderer(const Value& context) {
        m_globals = makeGlobals();
        if (context.isMap())
            for (const auto& [key, value] : context.asMap().entries)
                m_globals.asMap().set(key, value);
        m_scopes.push_back(Scope{});
    }

    std::string run(const Program& program) {
        std::string out;
        exec(program.body, out);
        return out;
    }

    Value eval(const Expr& e);
    Value callValue(const Value& callee, CallArgs& args, int line);
    // A call's, filter's or test's arguments: its children after the first (the callee or subject), evaluated,
    // and its keywords.
    CallArgs arguments(const Expr& e);

private:
    struct Scope {
        std::unordered_map<std::string, Value> vars;
        bool isolated = false; // a macro's body: names below it are not visible
    };

    Value lookup(const std::string& name) {
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

    void assign(const std::vector<std::string>& targets, const Value& value, int line) {
        auto& vars = m_scopes.back().vars;
        if (targets.size() == 1) {
            vars[targets[0]] = value;
            return;
        }
        const std::vector<Value> items = iterate(value, line);
        if (items.size() != targets.size())
            throw TemplateError{"cannot unpack " + std::to_string(items.size()) + " values into " +
                                    std::to_string(targets.size()) + " names",
                                line};
        for (std::size_t i = 0; i < targets.size(); ++i)
            vars[targets[i]] = items[i];
    }

    void write(std::string& out, const std::string& text, int line) {
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

Flow Renderer::exec(const Body& body, std::string& out) {
    const Node* current = nullptr; // names the line of an error thrown without one (a value walked)
    try {
        for (const auto& nodePtr : body) {
            const Node& node = *nodePtr;
            current = &node;
            switch (node.type) {
            case Node::Type::Text:
                write(out, node.text, node.line);
                break;
            case Node::Type::Output:
                write(out, eval(*node.expr).str(), node.line);
                break;
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
                        throw TemplateError{"cannot set an attribute of " + node.attributeTarget->name +
                                                ", which is not a namespace",
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
            case Node::Type::Macro:
                m_scopes.back().vars[node.text] = defineMacro(node);
                break;
            case Node::Type::Break:
                return Flow::Break;
            case Node::Type::Continue:
                return Flow::Continue;
            case Node::Type::Do:
                eval(*node.expr);
                break;
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
Value Renderer::filterChain(const Expr* chain, Value value) {
    std::vector<const Expr*> filters;
    for (const Expr* f = chain; f; f = f->children[0].get())
        filters.push_back(f);
    for (auto it = filters.rbegin(); it != filters.rend(); ++it) {
        CallArgs args = arguments(**it);
        value = (*it)->filter((*it)->name, value, args, (*it)->line);
    }
    return value;
}

Flow Renderer::execFor(const Node& node, std::string& out) {
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

Value Renderer::defineMacro(const Node& node) {
    const Node* macro = &node;
    return Value::callable(node.text, [this, macro](CallArgs& args) -> Value {
        chargeStep();
        if (m_callDepth >= kMaxCallDepth)
            throw TemplateError{"macro '" + macro->text + "' recurses deeper than " + std::to_string(kMaxCallDepth) +
                                    " calls",
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
            const bool known =
                std::any_of(params.begin(), params.end(), [&](const auto& p) { return p.first == name; });
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

CallArgs Renderer::arguments(const Expr& e) {
    CallArgs args;
    for (std::size_t i = 1; i < e.children.size(); ++i)
        args.positional.push_back(eval(*e.children[i]));
    for (const auto& [key, expr] : e.keywords)
        args.keyword.emplace_back(key, eval(*expr));
    return args;
}

Value Renderer::callValue(const Value& callee, CallArgs& args, int line) {
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
TemplateError overflow(const std::string& op, const Value& a, const Value& b, int line) {
    return TemplateError{"integer overflow: " + a.str() + " " + op + " " + b.str() + " does not fit in 64 bits", line};
}

Value arithmetic(const std::string& op, const Value& a, const Value& b, int line) {
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

std::int64_t normalizeIndex(std::int64_t i, std::int64_t size) {
    return i < 0 ? i + size : i;
}

} // namespace

Value Renderer::binary(const Expr& e) {
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

Value Renderer::eval(const Expr& e) {
    switch (e.op) {
    case Expr::Op::Literal:
        return e.literal;
    case Expr::Op::Name:
        return lookup(e.name);
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
            throw TemplateError{
                (c.op == Expr::Op::Name || c.op == Expr::Op::Attr ? "'" + c.name + "'" : "the called value") +
                    " is undefined",
                e.line};
        }
        CallArgs args = arguments(e);
        return callValue(callee, args, e.line);
    }
    case Expr::Op::Filter: {
        Value subject = eval(*e.children[0]);
        CallArgs args = arguments(e);
        if (!e.filter) // in a branch of an if: Jinja2 says so when it runs
            throw TemplateError{"unknown filter '" + e.name + "'", e.line};
        return e.filter(e.name, std::move(subject), args, e.line);
    }
    case Expr::Op::Test: {
        const Value subject = eval(*e.children[0]);
        CallArgs args = arguments(e);
        if (!e.test)
            throw TemplateError{"unknown test '" + e.name + "'", e.line};
        return Value(e.test(e.name, subject, args, e.line) != e.negated);
    }
    case Expr::Op::Not:
        return Value(!eval(*e.children[0]).truthy());
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
    case Expr::Op::Binary:
        return binary(e);
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

std::string renderProgram(const Program& program, const Value& context) {
    Renderer renderer(context);
    return renderer.run(program);
}

} // namespace swb::jinja
