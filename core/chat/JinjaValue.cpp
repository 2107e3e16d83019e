#include "chat/JinjaValue.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

#include "chat/JinjaSyntax.h"
#include "tokenizer/JsonCursor.h"

namespace swb::jinja {

const Value* Value::Map::find(const std::string& key) const
{
    const auto it = index.find(key);
    return it == index.end() ? nullptr : &entries[it->second].second;
}

void Value::Map::set(const std::string& key, Value value)
{
    const auto it = index.find(key);
    if (it != index.end()) {
        entries[it->second].second = std::move(value);
        return;
    }
    index.emplace(key, entries.size());
    entries.emplace_back(key, std::move(value));
}

Value Value::list(List items)
{
    Value v;
    v.m_data = std::make_shared<List>(std::move(items));
    return v;
}

Value Value::map(bool isNamespace)
{
    Value v;
    auto m = std::make_shared<Map>();
    m->isNamespace = isNamespace;
    v.m_data = std::move(m);
    return v;
}

Value Value::callable(std::string name, std::function<Value(CallArgs&)> call)
{
    Value v;
    v.m_data = std::make_shared<Callable>(Callable{std::move(name), std::move(call)});
    return v;
}

std::int64_t Value::asInt() const
{
    if (isBool())
        return asBool() ? 1 : 0;
    if (isFloat()) { // as int(x) truncates; NaN and values past the range are clamped, not undefined
        const double d = std::get<double>(m_data);
        if (std::isnan(d))
            return 0;
        if (d >= 9.2233720368547758e18)
            return std::numeric_limits<std::int64_t>::max();
        if (d <= -9.2233720368547758e18)
            return std::numeric_limits<std::int64_t>::min();
        return std::int64_t(d);
    }
    return std::get<std::int64_t>(m_data);
}

double Value::asDouble() const
{
    return isFloat() ? std::get<double>(m_data) : double(asInt());
}

bool Value::truthy() const
{
    switch (kind()) {
    case Kind::Undefined:
    case Kind::None: return false;
    case Kind::Bool: return asBool();
    case Kind::Int: return asInt() != 0;
    case Kind::Float: return asDouble() != 0.0;
    case Kind::String: return !asString().empty();
    case Kind::List: return !asList().empty();
    case Kind::Map: return !asMap().entries.empty();
    case Kind::Callable: return true;
    }
    return false;
}

namespace {

// Python's float repr: the shortest digits that round-trip, positional for exponents in [-4, 16).
std::string floatRepr(double d)
{
    if (std::isnan(d))
        return "nan";
    if (std::isinf(d))
        return d < 0 ? "-inf" : "inf";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, end);
    const auto ePos = sci.find('e');
    std::string mantissa = sci.substr(0, ePos);
    const int exponent = std::stoi(sci.substr(ePos + 1));
    const bool negative = mantissa[0] == '-';
    if (negative)
        mantissa.erase(0, 1);
    std::string digits;
    for (char c : mantissa)
        if (c != '.')
            digits += c;
    std::string out;
    if (exponent < -4 || exponent >= 16) {
        out = digits.substr(0, 1);
        if (digits.size() > 1)
            out += "." + digits.substr(1);
        char e[16];
        std::snprintf(e, sizeof e, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out += e;
    } else if (exponent < 0) {
        out = "0.";
        out.append(std::size_t(-exponent - 1), '0');
        out += digits;
    } else {
        if (digits.size() <= std::size_t(exponent) + 1) {
            out = digits + std::string(std::size_t(exponent) + 1 - digits.size(), '0') + ".0";
        } else {
            out = digits.substr(0, std::size_t(exponent) + 1) + "." + digits.substr(std::size_t(exponent) + 1);
        }
    }
    return negative ? "-" + out : out;
}

std::string stringRepr(const std::string& s)
{
    const bool useDouble = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
    const char quote = useDouble ? '"' : '\'';
    std::string out(1, quote);
    for (unsigned char c : s) {
        if (c == '\\')
            out += "\\\\";
        else if (c == quote)
            out += std::string("\\") + char(c);
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\t')
            out += "\\t";
        else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else
            out += char(c);
    }
    out += quote;
    return out;
}

void jsonString(const std::string& s, std::string& out, bool ensureAscii = false)
{
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (ensureAscii && c >= 0x80) { // as json.dumps(ensure_ascii=True): \uXXXX, surrogate pairs past U+FFFF
            const int length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            std::uint32_t code = c & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F);
            for (int k = 1; k < length && i + 1 < s.size(); ++k)
                code = (code << 6) | (static_cast<unsigned char>(s[++i]) & 0x3F);
            char buf[16];
            if (code > 0xFFFF) {
                code -= 0x10000;
                std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF));
            } else {
                std::snprintf(buf, sizeof buf, "\\u%04x", code);
            }
            out += buf;
            continue;
        }
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    out += '"';
}

// One level deeper into nested lists and mappings while a value is walked (printed, compared, dumped):
// a list that contains itself would otherwise recurse until the stack runs out.
class WalkDepth {
public:
    WalkDepth()
    {
        if (++t_depth > kMaxValueDepth) {
            --t_depth;
            throw TemplateError{"a value nests deeper than 256 levels (a list or mapping that contains itself?)", 0};
        }
    }
    ~WalkDepth() { --t_depth; }
    WalkDepth(const WalkDepth&) = delete;
    WalkDepth& operator=(const WalkDepth&) = delete;

private:
    static inline thread_local int t_depth = 0;
};

void toJsonInto(const Value& v, const Value::JsonStyle& style, int depth, std::string& out)
{
    const int indent = style.indent;
    const std::string itemSeparator = style.separators ? style.separators->first : indent >= 0 ? "," : ", ";
    const std::string keySeparator = style.separators ? style.separators->second : ": ";
    const auto newline = [&](int level) {
        out += '\n';
        out.append(std::size_t(indent * level), ' ');
    };
    switch (v.kind()) {
    case Value::Kind::Undefined:
    case Value::Kind::None: out += "null"; return;
    case Value::Kind::Bool: out += v.asBool() ? "true" : "false"; return;
    case Value::Kind::Int: out += std::to_string(v.asInt()); return;
    case Value::Kind::Float: {
        const double d = v.asDouble();
        out += std::isnan(d) ? "NaN" : std::isinf(d) ? (d < 0 ? "-Infinity" : "Infinity") : floatRepr(d);
        return;
    }
    case Value::Kind::String: jsonString(v.asString(), out, style.ensureAscii); return;
    case Value::Kind::Callable: out += "null"; return;
    case Value::Kind::List: {
        const WalkDepth level;
        const auto& items = v.asList();
        if (items.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i)
                out += itemSeparator;
            if (indent >= 0)
                newline(depth + 1);
            toJsonInto(items[i], style, depth + 1, out);
        }
        if (indent >= 0)
            newline(depth);
        out += ']';
        return;
    }
    case Value::Kind::Map: {
        const WalkDepth level;
        const auto& all = v.asMap().entries;
        if (all.empty()) {
            out += "{}";
            return;
        }
        std::vector<const std::pair<std::string, Value>*> entries;
        for (const auto& entry : all)
            entries.push_back(&entry);
        if (style.sortKeys) // by code point, which UTF-8's byte order keeps
            std::stable_sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
        out += '{';
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (i)
                out += itemSeparator;
            if (indent >= 0)
                newline(depth + 1);
            jsonString(entries[i]->first, out, style.ensureAscii);
            out += keySeparator;
            toJsonInto(entries[i]->second, style, depth + 1, out);
        }
        if (indent >= 0)
            newline(depth);
        out += '}';
        return;
    }
    }
}

} // namespace

std::string Value::str() const
{
    switch (kind()) {
    case Kind::Undefined: return {};
    case Kind::None: return "None";
    case Kind::Bool: return asBool() ? "True" : "False";
    case Kind::Int: return std::to_string(asInt());
    case Kind::Float: return floatRepr(asDouble());
    case Kind::String: return asString();
    case Kind::List: {
        const WalkDepth level;
        std::string out = "[";
        const auto& items = asList();
        for (std::size_t i = 0; i < items.size(); ++i)
            out += (i ? ", " : "") + items[i].repr();
        return out + "]";
    }
    case Kind::Map: {
        const WalkDepth level;
        const auto& m = asMap();
        if (m.isNamespace)
            return "<Namespace>";
        std::string out = "{";
        for (std::size_t i = 0; i < m.entries.size(); ++i)
            out += (i ? ", " : "") + stringRepr(m.entries[i].first) + ": " + m.entries[i].second.repr();
        return out + "}";
    }
    case Kind::Callable: return "<function " + asCallable().name + ">";
    }
    return {};
}

std::string Value::repr() const
{
    return isString() ? stringRepr(asString()) : str();
}

std::string Value::toJson(const JsonStyle& style) const
{
    std::string out;
    toJsonInto(*this, style, 0, out);
    return out;
}

bool Value::equals(const Value& other) const
{
    if (isNumber() && other.isNumber()) {
        if (isFloat() || other.isFloat())
            return asDouble() == other.asDouble();
        return asInt() == other.asInt();
    }
    if (kind() != other.kind())
        return false;
    switch (kind()) {
    case Kind::Undefined:
    case Kind::None: return true;
    case Kind::String: return asString() == other.asString();
    case Kind::List: {
        const WalkDepth level;
        const auto& a = asList();
        const auto& b = other.asList();
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!a[i].equals(b[i]))
                return false;
        return true;
    }
    case Kind::Map: {
        const WalkDepth level;
        const auto& a = asMap();
        const auto& b = other.asMap();
        if (&a == &b)
            return true;
        if (a.entries.size() != b.entries.size())
            return false;
        for (const auto& [key, value] : a.entries) {
            const Value* o = b.find(key);
            if (!o || !value.equals(*o))
                return false;
        }
        return true;
    }
    case Kind::Callable: return &asCallable() == &other.asCallable();
    default: return false;
    }
}

std::string Value::typeName() const
{
    switch (kind()) {
    case Kind::Undefined: return "undefined";
    case Kind::None: return "none";
    case Kind::Bool: return "boolean";
    case Kind::Int: return "integer";
    case Kind::Float: return "float";
    case Kind::String: return "string";
    case Kind::List: return "list";
    case Kind::Map: return asMap().isNamespace ? "namespace" : "mapping";
    case Kind::Callable: return "function";
    }
    return {};
}

Value CallArgs::get(std::size_t position, const char* name) const
{
    if (name) {
        for (const auto& [key, value] : keyword)
            if (key == name)
                return value;
    }
    return position < positional.size() ? positional[position] : Value();
}

std::vector<std::string> codePoints(const std::string& text)
{
    std::vector<std::string> out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
        n = std::min(n, text.size() - i);
        out.push_back(text.substr(i, n));
        i += n;
    }
    return out;
}

// JSON into Values, keys in their written order (QJsonObject sorts them).
namespace {

bool readJson(JsonCursor& cursor, Value* out, int depth)
{
    if (depth > 512)
        return cursor.fail("nesting deeper than 512 levels");
    switch (cursor.peekType()) {
    case '{': {
        cursor.beginObject();
        *out = Value::map();
        std::string key;
        while (cursor.nextKey(&key)) {
            Value item;
            if (!readJson(cursor, &item, depth + 1))
                return false;
            out->asMap().set(key, std::move(item));
        }
        return cursor.ok();
    }
    case '[': {
        cursor.beginArray();
        *out = Value::list();
        while (cursor.nextElement()) {
            Value item;
            if (!readJson(cursor, &item, depth + 1))
                return false;
            out->asList().push_back(std::move(item));
        }
        return cursor.ok();
    }
    case '"': {
        std::string text;
        if (!cursor.readString(&text))
            return false;
        *out = Value(std::move(text));
        return true;
    }
    case 'n': {
        double real = 0;
        long long integer = 0;
        bool isInteger = false;
        if (!cursor.readNumber(&real, &integer, &isInteger))
            return false;
        *out = isInteger ? Value(std::int64_t(integer)) : Value(real);
        return true;
    }
    case 't':
    case 'f': {
        bool b = false;
        if (!cursor.readBool(&b))
            return false;
        *out = Value(b);
        return true;
    }
    case 'N':
        *out = Value::none();
        return cursor.readNull();
    default: return cursor.fail("expected a value");
    }
}

} // namespace

bool Value::fromJson(const std::string& text, Value* out, std::string* error)
{
    JsonCursor cursor(text);
    if (readJson(cursor, out, 0) && !cursor.atEnd())
        cursor.fail("text after the value");
    if (!cursor.ok() && error)
        *error = cursor.error();
    return cursor.ok();
}

} // namespace swb::jinja
