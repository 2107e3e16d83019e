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
    if (!keyValues.empty())
        keyValues.emplace_back(key);
    entries.emplace_back(key, std::move(value));
}

namespace {

// A key that is not a string, as Python hashes it: 1, 1.0 and True are one key.
std::string otherKey(const Value& key)
{
    if (key.isNone())
        return "n";
    if (key.isUndefined())
        return "u";
    if (key.isFloat()) {
        const double d = key.asDouble();
        if (!(std::trunc(d) == d && std::fabs(d) < 9.2e18))
            return "f" + key.str();
    }
    return "i" + std::to_string(key.asInt());
}

// How json.dumps writes a key that is not a string.
std::string jsonKeyText(const Value& key)
{
    if (key.isNone())
        return "null";
    if (key.isBool())
        return key.asBool() ? "true" : "false";
    return key.str();
}

} // namespace

const Value* Value::Map::findKey(const Value& key) const
{
    if (key.isString())
        return find(key.asString());
    const auto it = otherIndex.find(otherKey(key));
    return it == otherIndex.end() ? nullptr : &entries[it->second].second;
}

void Value::Map::setKey(const Value& key, Value value)
{
    if (key.isString()) {
        set(key.asString(), std::move(value));
        return;
    }
    const std::string hashed = otherKey(key);
    const auto it = otherIndex.find(hashed);
    if (it != otherIndex.end()) {
        entries[it->second].second = std::move(value);
        return;
    }
    if (keyValues.empty())
        for (const auto& entry : entries)
            keyValues.emplace_back(entry.first);
    otherIndex.emplace(hashed, entries.size());
    keyValues.push_back(key);
    entries.emplace_back(jsonKeyText(key), std::move(value));
}

Value Value::Map::keyAt(std::size_t i) const
{
    return keyValues.empty() ? Value(entries[i].first) : keyValues[i];
}

bool Value::hashable() const
{
    return !isList() && !isMap() && !isCallable();
}

Value Value::list(List items)
{
    Value v;
    v.m_data = std::make_shared<List>(std::move(items));
    return v;
}

Value Value::generator(List items)
{
    Value v = list(std::move(items));
    v.m_tag = Tag::Generator;
    return v;
}

Value Value::markup(std::string text)
{
    Value v(std::move(text));
    v.m_tag = Tag::Markup;
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
    case Kind::List: return isGenerator() || !asList().empty();
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
// nested JSON arrays in a conversation, or lists nested by a template's loop, would otherwise recurse until
// the stack runs out.
class WalkDepth {
public:
    WalkDepth()
    {
        if (++t_depth > kMaxValueDepth) {
            --t_depth;
            throw TemplateError{"a value nests deeper than 256 levels", 0};
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
        if (v.isGenerator())
            throw TemplateError{"a generator (what map, select or items return) is not JSON; add |list first", 0};
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
        if (v.asMap().isNamespace)
            throw TemplateError{"a namespace is not JSON", 0};
        const WalkDepth level;
        const auto& all = v.asMap().entries;
        if (all.empty()) {
            out += "{}";
            return;
        }
        const auto& m = v.asMap();
        std::vector<std::size_t> order(all.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        if (style.sortKeys) // strings by code point, which UTF-8's byte order keeps; numbers by value
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                const Value ka = m.keyAt(a);
                const Value kb = m.keyAt(b);
                if (ka.isNumber() && kb.isNumber())
                    return ka.asDouble() < kb.asDouble();
                return all[a].first < all[b].first;
            });
        std::vector<const std::pair<std::string, Value>*> entries;
        for (const std::size_t i : order)
            entries.push_back(&all[i]);
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
        if (isGenerator())
            return "<generator object>";
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
            out += (i ? ", " : "") + m.keyAt(i).repr() + ": " + m.entries[i].second.repr();
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
        if (isGenerator() || other.isGenerator())
            return &asList() == &other.asList();
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
        if (a.isNamespace || b.isNamespace) // Python compares namespaces by identity
            return false;
        if (a.entries.size() != b.entries.size())
            return false;
        for (std::size_t i = 0; i < a.entries.size(); ++i) {
            const Value* o = b.findKey(a.keyAt(i));
            if (!o || !a.entries[i].second.equals(*o))
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
    case Kind::List: return isGenerator() ? "generator" : "list";
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
