// The filters, tests, methods and global functions that chat templates use, with Jinja2's and Python's
// semantics (transformers renders chat templates with Jinja2; tojson is its json.dumps override).

#include <algorithm>
#include <limits>
#include <cmath>
#include <ctime>
#include <unordered_set>

#include "chat/JinjaSyntax.h"

namespace swb::jinja {

namespace {

// The widest padding center, indent and tojson's indent may ask for: far above any real template's, far
// below what would need gigabytes.
constexpr std::int64_t kMaxWidth = 10'000;

[[noreturn]] void fail(const std::string& why, int line)
{
    throw TemplateError{why, line};
}

std::string lowerAscii(std::string s)
{
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string upperAscii(std::string s)
{
    for (char& c : s)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool isPythonSpace(const std::string& cp)
{
    static const std::unordered_set<std::string> spaces = {" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d",
        "\x1e", "\x1f", "\xc2\x85", "\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81", "\xe2\x80\x82",
        "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88",
        "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f",
        "\xe3\x80\x80"};
    return spaces.count(cp) > 0;
}

// str.strip / lstrip / rstrip: whitespace (Python's, Unicode included) or the given characters.
std::string strip(const std::string& s, const Value& chars, bool left, bool right)
{
    const std::vector<std::string> cps = codePoints(s);
    std::unordered_set<std::string> set;
    const bool custom = chars.isString();
    if (custom)
        for (auto& c : codePoints(chars.asString()))
            set.insert(c);
    const auto strippable = [&](const std::string& c) { return custom ? set.count(c) > 0 : isPythonSpace(c); };
    std::size_t begin = 0, end = cps.size();
    if (left)
        while (begin < end && strippable(cps[begin]))
            ++begin;
    if (right)
        while (end > begin && strippable(cps[end - 1]))
            --end;
    std::string out;
    for (std::size_t i = begin; i < end; ++i)
        out += cps[i];
    return out;
}

std::vector<std::string> split(const std::string& s, const Value& separator, std::int64_t maxSplit)
{
    std::vector<std::string> parts;
    if (!separator.isString()) {
        // runs of whitespace, leading and trailing ignored
        const std::vector<std::string> cps = codePoints(s);
        std::size_t i = 0;
        std::int64_t splits = 0;
        while (i < cps.size()) {
            while (i < cps.size() && isPythonSpace(cps[i]))
                ++i;
            if (i >= cps.size())
                break;
            std::string part;
            if (maxSplit >= 0 && splits >= maxSplit) {
                for (; i < cps.size(); ++i)
                    part += cps[i];
                std::string trimmed = strip(part, Value(), false, true);
                parts.push_back(trimmed);
                break;
            }
            while (i < cps.size() && !isPythonSpace(cps[i]))
                part += cps[i++];
            parts.push_back(part);
            ++splits;
        }
        return parts;
    }
    const std::string& sep = separator.asString();
    if (sep.empty())
        throw TemplateError{"empty separator", 0};
    std::size_t start = 0;
    std::int64_t splits = 0;
    for (;;) {
        const std::size_t at = (maxSplit >= 0 && splits >= maxSplit) ? std::string::npos : s.find(sep, start);
        if (at == std::string::npos) {
            parts.push_back(s.substr(start));
            return parts;
        }
        parts.push_back(s.substr(start, at - start));
        start = at + sep.size();
        ++splits;
    }
}

std::string replaceAll(const std::string& s, const std::string& from, const std::string& to, std::int64_t count)
{
    if (from.empty()) {
        // Python inserts the replacement between every character
        std::string out;
        std::int64_t done = 0;
        for (const auto& cp : codePoints(s)) {
            if (count < 0 || done < count) {
                out += to;
                ++done;
            }
            out += cp;
        }
        if (count < 0 || done < count)
            out += to;
        return out;
    }
    std::string out;
    std::size_t start = 0;
    std::int64_t done = 0;
    while (count < 0 || done < count) {
        const std::size_t at = s.find(from, start);
        if (at == std::string::npos)
            break;
        out += s.substr(start, at - start) + to;
        start = at + from.size();
        ++done;
    }
    return out + s.substr(start);
}

std::string title(const std::string& s)
{
    std::string out;
    bool previousCased = false;
    for (char c : s) {
        const bool alpha = std::isalpha(static_cast<unsigned char>(c));
        out += alpha ? char(previousCased ? std::tolower(static_cast<unsigned char>(c))
                                          : std::toupper(static_cast<unsigned char>(c)))
                     : c;
        previousCased = alpha;
    }
    return out;
}

std::string capitalize(const std::string& s)
{
    std::string out = lowerAscii(s);
    if (!out.empty())
        out[0] = char(std::toupper(static_cast<unsigned char>(out[0])));
    return out;
}

bool startsWith(const std::string& s, const Value& prefix, bool atEnd)
{
    const auto one = [&](const std::string& p) {
        if (p.size() > s.size())
            return false;
        return atEnd ? s.compare(s.size() - p.size(), p.size(), p) == 0 : s.compare(0, p.size(), p) == 0;
    };
    if (prefix.isList())
        return std::any_of(prefix.asList().begin(), prefix.asList().end(),
            [&](const Value& p) { return p.isString() && one(p.asString()); });
    return prefix.isString() && one(prefix.asString());
}

std::vector<std::string> splitLines(const std::string& s)
{
    std::vector<std::string> lines;
    std::string current;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\n' || s[i] == '\r') {
            lines.push_back(current);
            current.clear();
            if (s[i] == '\r' && i + 1 < s.size() && s[i + 1] == '\n')
                ++i;
        } else {
            current += s[i];
        }
    }
    if (!current.empty())
        lines.push_back(current);
    return lines;
}

// The attribute a selectattr/map/sort refers to; "a.b" follows nested attributes.
Value attributeOf(const Value& v, const std::string& path)
{
    Value current = v;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = path.find('.', start);
        const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        Value next;
        if (current.isMap()) {
            if (const Value* found = current.asMap().find(part))
                next = *found;
        } else if (current.isList() && !part.empty() && part.size() < 19 && std::all_of(part.begin(), part.end(), ::isdigit)) {
            next = getItem(current, Value(std::int64_t(std::stoll(part))));
        }
        current = next;
        if (dot == std::string::npos)
            return current;
        start = dot + 1;
    }
}

Value toList(const Value& v, int line)
{
    return Value::list(iterate(v, line));
}

// dict.items(): [key, value] pairs in insertion order.
Value mapItems(const Value& v)
{
    const auto& m = v.asMap();
    Value::List pairs;
    for (std::size_t i = 0; i < m.entries.size(); ++i)
        pairs.push_back(Value::list({m.keyAt(i), m.entries[i].second}));
    return Value::list(std::move(pairs));
}

CallArgs restOf(const CallArgs& args, std::size_t from)
{
    CallArgs rest;
    for (std::size_t i = from; i < args.positional.size(); ++i)
        rest.positional.push_back(args.positional[i]);
    rest.keyword = args.keyword;
    return rest;
}

std::string indent(const std::string& s, const Value& width, bool first, bool blank)
{
    if (width.isNumber() && (width.asInt() < 0 || width.asInt() > kMaxWidth))
        throw TemplateError{"indent's width must be from 0 to " + std::to_string(kMaxWidth) + ", not " + width.str(), 0};
    const std::string pad = width.isString() ? width.asString()
                                             : std::string(std::size_t(width.isNumber() ? width.asInt() : 4), ' ');
    std::size_t lineCount = 1;
    for (char c : s)
        lineCount += c == '\n';
    chargeBytes(s.size() + lineCount * pad.size());
    std::vector<std::string> lines = splitLines(s + "\n");
    std::string out;
    if (blank) {
        for (std::size_t i = 0; i < lines.size(); ++i)
            out += (i ? "\n" + pad : "") + lines[i];
    } else if (!lines.empty()) {
        out = lines[0];
        for (std::size_t i = 1; i < lines.size(); ++i)
            out += "\n" + (lines[i].empty() ? lines[i] : pad + lines[i]);
    }
    return first ? pad + out : out;
}

std::string strftimeNow(const std::string& format)
{
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char buf[512];
    const std::size_t n = std::strftime(buf, sizeof buf, format.c_str(), &local);
    return std::string(buf, n);
}

} // namespace

std::string escapeHtml(const std::string& text)
{
    std::string out;
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&#34;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    chargeBytes(out.size());
    return out;
}

Value getItem(const Value& object, const Value& key)
{
    if (object.isMap()) {
        if (const Value* v = key.hashable() ? object.asMap().findKey(key) : nullptr)
            return *v;
        return {};
    }
    if (object.isList() && key.isNumber() && !key.isFloat()) {
        const auto& items = object.asList();
        std::int64_t i = key.asInt();
        if (i < 0)
            i += std::int64_t(items.size());
        if (i < 0 || i >= std::int64_t(items.size()))
            return {};
        return items[std::size_t(i)];
    }
    if (object.isString() && key.isNumber() && !key.isFloat()) {
        const auto cps = codePoints(object.asString());
        std::int64_t i = key.asInt();
        if (i < 0)
            i += std::int64_t(cps.size());
        if (i < 0 || i >= std::int64_t(cps.size()))
            return {};
        return Value(cps[std::size_t(i)]);
    }
    return {};
}

bool contains(const Value& container, const Value& item, int line)
{
    if (container.isString()) {
        if (!item.isString())
            fail("'in <string>' needs a string on the left, not " + item.typeName(), line);
        return container.asString().find(item.asString()) != std::string::npos;
    }
    if (container.isList())
        return std::any_of(container.asList().begin(), container.asList().end(),
            [&](const Value& v) { return v.equals(item); });
    if (container.isMap())
        return item.hashable() && container.asMap().findKey(item) != nullptr;
    if (container.isUndefined())
        return false;
    fail("a value of type " + container.typeName() + " cannot contain anything", line);
}

std::vector<Value> iterate(const Value& value, int line)
{
    switch (value.kind()) {
    case Value::Kind::Undefined: return {};
    case Value::Kind::List: return value.asList();
    case Value::Kind::Map: {
        const auto& m = value.asMap();
        std::vector<Value> keys;
        for (std::size_t i = 0; i < m.entries.size(); ++i)
            keys.push_back(m.keyAt(i));
        return keys;
    }
    case Value::Kind::String: {
        std::vector<Value> chars;
        for (auto& c : codePoints(value.asString()))
            chars.emplace_back(std::move(c));
        return chars;
    }
    default: fail("a value of type " + value.typeName() + " is not iterable", line);
    }
}

int compare(const Value& a, const Value& b, int line)
{
    if (a.isNumber() && b.isNumber()) {
        const double x = a.asDouble(), y = b.asDouble();
        return x < y ? -1 : x > y ? 1 : 0;
    }
    if (a.isString() && b.isString())
        return a.asString().compare(b.asString()) < 0 ? -1 : a.asString() == b.asString() ? 0 : 1;
    if (a.isList() && b.isList()) {
        const auto &x = a.asList(), &y = b.asList();
        for (std::size_t i = 0; i < std::min(x.size(), y.size()); ++i)
            if (int c = compare(x[i], y[i], line))
                return c;
        return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
    }
    fail("cannot compare " + a.typeName() + " with " + b.typeName(), line);
}

namespace {

bool testDefined(const std::string&, const Value& v, CallArgs&, int) {
    return !v.isUndefined();
}

bool testUndefined(const std::string&, const Value& v, CallArgs&, int) {
    return v.isUndefined();
}

bool testNone(const std::string&, const Value& v, CallArgs&, int) {
    return v.isNone();
}

bool testBoolean(const std::string&, const Value& v, CallArgs&, int) {
    return v.isBool();
}

bool testTrue(const std::string&, const Value& v, CallArgs&, int) {
    return v.isBool() && v.asBool();
}

bool testFalse(const std::string&, const Value& v, CallArgs&, int) {
    return v.isBool() && !v.asBool();
}

bool testInteger(const std::string&, const Value& v, CallArgs&, int) {
    return v.isInt();
}

bool testFloat(const std::string&, const Value& v, CallArgs&, int) {
    return v.isFloat();
}

bool testNumber(const std::string&, const Value& v, CallArgs&, int) {
    return v.isNumber();
}

bool testString(const std::string&, const Value& v, CallArgs&, int) {
    return v.isString();
}

bool testMapping(const std::string&, const Value& v, CallArgs&, int) {
    return v.isMap();
}

bool testIterable(const std::string&, const Value& v, CallArgs&, int) {
    return v.isList() || v.isMap() || v.isString() || v.isUndefined();
}

bool testSequence(const std::string&, const Value& v, CallArgs&, int) {
    return (v.isList() && !v.isGenerator()) || v.isMap() || v.isString() || v.isUndefined();
}

bool testCallable(const std::string&, const Value& v, CallArgs&, int) {
    return v.isCallable();
}

bool testOdd(const std::string&, const Value& v, CallArgs&, int) {
    return v.isNumber() && v.asInt() % 2 != 0;
}

bool testEven(const std::string&, const Value& v, CallArgs&, int) {
    return v.isNumber() && v.asInt() % 2 == 0;
}

bool testDivisibleby(const std::string&, const Value& v, CallArgs& args, int) {
    const Value arg = args.get(0, nullptr);
    return v.isNumber() && arg.isNumber() && arg.asInt() != 0 && v.asInt() % arg.asInt() == 0;
}

bool testEq(const std::string&, const Value& v, CallArgs& args, int) {
    const Value arg = args.get(0, nullptr);
    return v.equals(arg);
}

bool testNe(const std::string&, const Value& v, CallArgs& args, int) {
    const Value arg = args.get(0, nullptr);
    return !v.equals(arg);
}

bool testLt(const std::string&, const Value& v, CallArgs& args, int line) {
    const Value arg = args.get(0, nullptr);
    return compare(v, arg, line) < 0;
}

bool testLe(const std::string&, const Value& v, CallArgs& args, int line) {
    const Value arg = args.get(0, nullptr);
    return compare(v, arg, line) <= 0;
}

bool testGt(const std::string&, const Value& v, CallArgs& args, int line) {
    const Value arg = args.get(0, nullptr);
    return compare(v, arg, line) > 0;
}

bool testGe(const std::string&, const Value& v, CallArgs& args, int line) {
    const Value arg = args.get(0, nullptr);
    return compare(v, arg, line) >= 0;
}

bool testIn(const std::string&, const Value& v, CallArgs& args, int line) {
    const Value arg = args.get(0, nullptr);
    return contains(arg, v, line);
}

bool testSameas(const std::string&, const Value& v, CallArgs& args, int) {
    const Value arg = args.get(0, nullptr);
    if (v.isMap() && arg.isMap())
        return &v.asMap() == &arg.asMap();
    if (v.isList() && arg.isList())
        return &v.asList() == &arg.asList();
    return v.kind() == arg.kind() && (v.isNone() || v.isUndefined() || v.equals(arg));
}

bool testLower(const std::string&, const Value& v, CallArgs&, int) {
    return v.isString() && lowerAscii(v.asString()) == v.asString();
}

bool testUpper(const std::string&, const Value& v, CallArgs&, int) {
    return v.isString() && upperAscii(v.asString()) == v.asString();
}

bool testEscaped(const std::string&, const Value&, CallArgs&, int) {
    return false;
}

// "is filter" and "is test": whether the string names a filter, or a test.
bool testFilter(const std::string& name, const Value& v, CallArgs&, int) {
    if (!v.isString())
        return false;
    return name == "filter" ? findFilter(v.asString()) != nullptr : findTest(v.asString()) != nullptr;
}

} // namespace

Test findTest(const std::string& name) {
    static const std::unordered_map<std::string, Test> tests = {
        {"defined", testDefined},
        {"undefined", testUndefined},
        {"none", testNone},
        {"boolean", testBoolean},
        {"true", testTrue},
        {"false", testFalse},
        {"integer", testInteger},
        {"float", testFloat},
        {"number", testNumber},
        {"string", testString},
        {"mapping", testMapping},
        {"iterable", testIterable},
        {"sequence", testSequence},
        {"callable", testCallable},
        {"odd", testOdd},
        {"even", testEven},
        {"divisibleby", testDivisibleby},
        {"eq", testEq},
        {"equalto", testEq},
        {"==", testEq},
        {"ne", testNe},
        {"!=", testNe},
        {"lt", testLt},
        {"lessthan", testLt},
        {"<", testLt},
        {"le", testLe},
        {"<=", testLe},
        {"gt", testGt},
        {"greaterthan", testGt},
        {">", testGt},
        {"ge", testGe},
        {">=", testGe},
        {"in", testIn},
        {"sameas", testSameas},
        {"lower", testLower},
        {"upper", testUpper},
        {"escaped", testEscaped},
        {"filter", testFilter},
        {"test", testFilter},
    };
    const auto found = tests.find(name);
    return found == tests.end() ? nullptr : found->second;
}

namespace {

// A filter by name, for the filters that take another filter's name (map) or use one (dictsort, items).
Value applyFilter(const std::string& name, Value v, CallArgs& args, int line);

Value filterTrim(const std::string&, Value v, CallArgs& args, int) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    return Value(strip(v.str(), arg(0, "chars"), true, true));
}

Value filterLength(const std::string&, Value v, CallArgs&, int line) {
    if (v.isString())
        return Value(std::int64_t(codePoints(v.asString()).size()));
    if (v.isGenerator())
        fail("a generator (what map, select or items return) has no length; add |list first", line);
    if (v.isList())
        return Value(std::int64_t(v.asList().size()));
    if (v.isMap())
        return Value(std::int64_t(v.asMap().entries.size()));
    if (v.isUndefined())
        return Value(0);
    fail("a value of type " + v.typeName() + " has no length", line);
}

Value filterTojson(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    // transformers' tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False).
    const Value width = arg(1, "indent");
    if (width.isNumber() && (width.asInt() < 0 || width.asInt() > kMaxWidth))
        fail("tojson's indent must be from 0 to " + std::to_string(kMaxWidth) + ", not " + width.str(), line);
    Value::JsonStyle style;
    style.indent = width.isNumber() ? int(width.asInt()) : -1;
    style.ensureAscii = arg(0, "ensure_ascii").truthy();
    style.sortKeys = arg(3, "sort_keys").truthy();
    if (const Value separators = arg(2, "separators"); !separators.isUndefined() && !separators.isNone()) {
        if (!separators.isList() || separators.asList().size() != 2 || !separators.asList()[0].isString() ||
            !separators.asList()[1].isString())
            fail("tojson's separators must be two strings, (item, key)", line);
        style.separators = std::pair{separators.asList()[0].asString(), separators.asList()[1].asString()};
    }
    std::string json = v.toJson(style);
    chargeBytes(json.size());
    return Value(std::move(json));
}

Value filterItems(const std::string&, Value v, CallArgs&, int line) {
    if (v.isUndefined() || v.isNone())
        return Value::list();
    if (!v.isMap())
        fail("items needs a mapping, not " + v.typeName(), line);
    Value pairs = mapItems(v);
    return Value::generator(std::move(pairs.asList()));
}

Value filterDictsort(const std::string&, Value v, CallArgs& args, int line) {
    Value items = applyFilter("items", v, args, line);
    auto& list = items.asList();
    std::stable_sort(list.begin(), list.end(),
                     [&](const Value& a, const Value& b) { return compare(a.asList()[0], b.asList()[0], line) < 0; });
    return items;
}

Value filterJoin(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    const Value sep = arg(0, "d");
    const Value attribute = arg(1, "attribute");
    std::string out;
    bool firstItem = true;
    for (const Value& item : iterate(v, line)) {
        out += (firstItem ? "" : sep.str()) +
               (attribute.isString() ? attributeOf(item, attribute.asString()) : item).str();
        firstItem = false;
        if (out.size() > kMaxStringBytes)
            fail("join's result grows beyond 16 MB", line);
    }
    chargeBytes(out.size());
    return Value(std::move(out));
}

Value filterUpper(const std::string&, Value v, CallArgs&, int) {
    return Value(upperAscii(v.str()));
}

Value filterLower(const std::string&, Value v, CallArgs&, int) {
    return Value(lowerAscii(v.str()));
}

Value filterTitle(const std::string&, Value v, CallArgs&, int) {
    return Value(title(v.str()));
}

Value filterCapitalize(const std::string&, Value v, CallArgs&, int) {
    return Value(capitalize(v.str()));
}

Value filterDefault(const std::string&, Value v, CallArgs& args, int) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    const bool boolean = arg(1, "boolean").truthy();
    if (v.isUndefined() || (boolean && !v.truthy())) {
        const Value fallback = arg(0, "default_value");
        return fallback.isUndefined() ? Value("") : fallback;
    }
    return v;
}

Value filterSelectattr(const std::string& name, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    const bool byAttribute = name == "selectattr" || name == "rejectattr";
    const bool keep = name == "selectattr" || name == "select";
    const std::size_t testAt = byAttribute ? 1 : 0;
    const Value attribute = byAttribute ? arg(0, nullptr) : Value();
    const Value test = arg(testAt, nullptr);
    CallArgs testArgs = restOf(args, testAt + 1);
    const Test named = test.isString() ? findTest(test.asString()) : nullptr;
    if (test.isString() && !named)
        fail("unknown test '" + test.asString() + "'", line);
    Value::List out;
    for (const Value& item : v.truthy() ? iterate(v, line) : std::vector<Value>{}) { // Jinja2: `if seq:`
        const Value subject = byAttribute ? attributeOf(item, attribute.str()) : item;
        const bool passes = named ? named(test.asString(), subject, testArgs, line) : subject.truthy();
        if (passes == keep)
            out.push_back(item);
    }
    return Value::generator(std::move(out));
}

Value filterMap(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    Value::List out;
    const std::vector<Value> items = v.truthy() ? iterate(v, line) : std::vector<Value>{}; // Jinja2: `if value:`
    const Value attribute = arg(99, "attribute");
    if (attribute.isString()) {
        const Value fallback = arg(99, "default");
        for (const Value& item : items) {
            Value a = attributeOf(item, attribute.asString());
            out.push_back(a.isUndefined() && !fallback.isUndefined() ? fallback : a);
        }
    } else {
        const Value filter = arg(0, nullptr);
        if (!filter.isString())
            fail("map needs a filter name or attribute=", line);
        CallArgs rest = restOf(args, 1);
        for (const Value& item : items)
            out.push_back(applyFilter(filter.asString(), item, rest, line));
    }
    return Value::generator(std::move(out));
}

Value filterFirst(const std::string&, Value v, CallArgs&, int line) {
    const auto items = iterate(v, line);
    return items.empty() ? Value() : items.front();
}

Value filterLast(const std::string&, Value v, CallArgs&, int line) {
    if (v.isGenerator())
        fail("last cannot read a generator backwards (what map, select or items return); add |list first", line);
    const auto items = iterate(v, line);
    return items.empty() ? Value() : items.back();
}

Value filterReplace(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    const Value count = arg(2, "count");
    const std::string text = v.str(), from = arg(0, "old").str(), to = arg(1, "new").str();
    if (to.size() > from.size()) { // the result's size before building it
        std::uint64_t found = 0;
        const std::size_t step = std::max<std::size_t>(from.size(), 1);
        for (std::size_t at = text.find(from); at != std::string::npos && at <= text.size();
             at = text.find(from, at + step))
            ++found;
        if (from.empty())
            found = text.size() + 1;
        if (count.isNumber() && count.asInt() >= 0)
            found = std::min<std::uint64_t>(found, std::uint64_t(count.asInt()));
        if (text.size() + found * (to.size() - from.size()) > kMaxStringBytes)
            fail("replace's result grows beyond 16 MB", line);
    }
    std::string replaced = replaceAll(text, from, to, count.isNumber() ? count.asInt() : -1);
    chargeBytes(replaced.size());
    return Value(std::move(replaced));
}

Value filterIndent(const std::string&, Value v, CallArgs& args, int) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    return Value(indent(v.str(), arg(0, "width"), arg(1, "first").truthy(), arg(2, "blank").truthy()));
}

Value filterString(const std::string&, Value v, CallArgs&, int) {
    return Value(v.str());
}

Value filterSafe(const std::string&, Value v, CallArgs&, int) {
    return v.isMarkup() ? v : Value::markup(v.str());
}

Value filterE(const std::string& name, Value v, CallArgs&, int) {
    return v.isMarkup() && name != "forceescape" ? v : Value::markup(escapeHtml(v.str()));
}

Value filterInt(const std::string&, Value v, CallArgs& args, int) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    if (v.isNumber())
        return Value(v.asInt());
    if (v.isString()) {
        try {
            return Value(Value(std::stod(v.asString())).asInt()); // "nan", "1e300": clamped, never undefined
        } catch (...) {
        }
    }
    const Value fallback = arg(0, "default");
    return fallback.isUndefined() ? Value(0) : fallback;
}

Value filterFloat(const std::string&, Value v, CallArgs&, int) {
    if (v.isNumber())
        return Value(v.asDouble());
    if (v.isString()) {
        try {
            return Value(std::stod(v.asString()));
        } catch (...) {
        }
    }
    return Value(0.0);
}

Value filterAbs(const std::string&, Value v, CallArgs&, int line) {
    if (v.isFloat())
        return Value(std::fabs(v.asDouble()));
    if (v.isNumber()) {
        if (v.asInt() == std::numeric_limits<std::int64_t>::min())
            fail("integer overflow: abs(" + v.str() + ") does not fit in 64 bits", line);
        return Value(std::int64_t(std::llabs(v.asInt())));
    }
    fail("abs needs a number", line);
}

Value filterRound(const std::string&, Value v, CallArgs& args, int) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    const std::int64_t precision = arg(0, "precision").isNumber() ? arg(0, "precision").asInt() : 0;
    const std::string method = arg(1, "method").isString() ? arg(1, "method").asString() : "common";
    const double scale = std::pow(10.0, double(precision));
    double x = v.asDouble() * scale;
    x = method == "floor" ? std::floor(x) : method == "ceil" ? std::ceil(x) : std::round(x);
    return Value(x / scale);
}

Value filterList(const std::string&, Value v, CallArgs&, int line) {
    return toList(v, line);
}

Value filterReverse(const std::string&, Value v, CallArgs&, int line) {
    if (v.isString()) {
        auto cps = codePoints(v.asString());
        std::string out;
        for (auto it = cps.rbegin(); it != cps.rend(); ++it)
            out += *it;
        return Value(std::move(out));
    }
    Value::List items = iterate(v, line);
    std::reverse(items.begin(), items.end());
    return Value::list(std::move(items));
}

Value filterSort(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    Value::List items = iterate(v, line);
    const bool descending = arg(0, "reverse").truthy();
    const Value attribute = arg(2, "attribute");
    std::stable_sort(items.begin(), items.end(), [&](const Value& a, const Value& b) {
        const Value x = attribute.isString() ? attributeOf(a, attribute.asString()) : a;
        const Value y = attribute.isString() ? attributeOf(b, attribute.asString()) : b;
        return descending ? compare(x, y, line) > 0 : compare(x, y, line) < 0;
    });
    return Value::list(std::move(items));
}

Value filterUnique(const std::string&, Value v, CallArgs&, int line) {
    Value::List out;
    for (const Value& item : iterate(v, line))
        if (std::none_of(out.begin(), out.end(), [&](const Value& o) { return o.equals(item); }))
            out.push_back(item);
    return Value::list(std::move(out));
}

Value filterSum(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    Value total = arg(1, "start").isUndefined() ? Value(0) : arg(1, "start");
    const Value attribute = arg(0, "attribute");
    for (const Value& item : iterate(v, line)) {
        const Value x = attribute.isString() ? attributeOf(item, attribute.asString()) : item;
        total =
            total.isFloat() || x.isFloat() ? Value(total.asDouble() + x.asDouble()) : Value(total.asInt() + x.asInt());
    }
    return total;
}

Value filterMin(const std::string& name, Value v, CallArgs&, int line) {
    const auto items = iterate(v, line);
    if (items.empty())
        return {};
    Value best = items[0];
    for (const Value& item : items)
        if (name == "min" ? compare(item, best, line) < 0 : compare(item, best, line) > 0)
            best = item;
    return best;
}

Value filterWordcount(const std::string&, Value v, CallArgs&, int) {
    return Value(std::int64_t(split(v.str(), Value(), -1).size()));
}

Value filterAttr(const std::string&, Value v, CallArgs& args, int) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    return v.isMap() ? attributeOf(v, arg(0, "name").str()) : Value();
}

Value filterCenter(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    const std::int64_t width = arg(0, "width").isNumber() ? arg(0, "width").asInt() : 80;
    if (width > kMaxWidth)
        fail("center's width must be at most " + std::to_string(kMaxWidth) + ", not " + std::to_string(width), line);
    const std::string s = v.str();
    const std::int64_t length = std::int64_t(codePoints(s).size());
    if (length >= width)
        return Value(s);
    const std::int64_t total = width - length;
    const std::int64_t left = total / 2 + (total & width & 1);
    return Value(std::string(std::size_t(left), ' ') + s + std::string(std::size_t(total - left), ' '));
}

Value filterBatch(const std::string&, Value v, CallArgs& args, int line) {
    const auto arg = [&](std::size_t i, const char* key) { return args.get(i, key); };
    const std::int64_t size = arg(0, "linecount").asInt();
    if (size <= 0)
        fail("batch needs a positive size", line);
    Value::List out;
    Value::List current;
    for (const Value& item : iterate(v, line)) {
        current.push_back(item);
        if (std::int64_t(current.size()) == size) {
            out.push_back(Value::list(std::move(current)));
            current.clear();
        }
    }
    if (!current.empty())
        out.push_back(Value::list(std::move(current)));
    return Value::list(std::move(out));
}

Value filterFormat(const std::string&, Value v, CallArgs& args, int) {
    CallArgs none;
    Value values = Value::list(args.positional);
    (void)none;
    // "%s" formatting with the filter's arguments
    std::string out;
    std::size_t next = 0;
    const std::string f = v.str();
    for (std::size_t i = 0; i < f.size(); ++i) {
        if (f[i] != '%' || i + 1 >= f.size()) {
            out += f[i];
            continue;
        }
        const char spec = f[++i];
        if (spec == '%')
            out += '%';
        else if (next < values.asList().size())
            out += spec == 'r' ? values.asList()[next++].repr() : values.asList()[next++].str();
    }
    return Value(std::move(out));
}

} // namespace

Filter findFilter(const std::string& name) {
    static const std::unordered_map<std::string, Filter> filters = {
        {"trim", filterTrim},
        {"length", filterLength},
        {"count", filterLength},
        {"tojson", filterTojson},
        {"items", filterItems},
        {"dictsort", filterDictsort},
        {"join", filterJoin},
        {"upper", filterUpper},
        {"lower", filterLower},
        {"title", filterTitle},
        {"capitalize", filterCapitalize},
        {"default", filterDefault},
        {"d", filterDefault},
        {"selectattr", filterSelectattr},
        {"rejectattr", filterSelectattr},
        {"select", filterSelectattr},
        {"reject", filterSelectattr},
        {"map", filterMap},
        {"first", filterFirst},
        {"last", filterLast},
        {"replace", filterReplace},
        {"indent", filterIndent},
        {"string", filterString},
        {"safe", filterSafe},
        {"e", filterE},
        {"escape", filterE},
        {"forceescape", filterE},
        {"int", filterInt},
        {"float", filterFloat},
        {"abs", filterAbs},
        {"round", filterRound},
        {"list", filterList},
        {"reverse", filterReverse},
        {"sort", filterSort},
        {"unique", filterUnique},
        {"sum", filterSum},
        {"min", filterMin},
        {"max", filterMin},
        {"wordcount", filterWordcount},
        {"attr", filterAttr},
        {"center", filterCenter},
        {"batch", filterBatch},
        {"format", filterFormat},
    };
    const auto found = filters.find(name);
    return found == filters.end() ? nullptr : found->second;
}

namespace {

Value applyFilter(const std::string& name, Value v, CallArgs& args, int line) {
    const Filter filter = findFilter(name);
    if (!filter)
        fail("unknown filter '" + name + "'", line);
    return filter(name, std::move(v), args, line);
}

} // namespace

namespace {

// A method bound to its value: a callable named after the method that receives the value first.
template <typename Fn> Value bind(const Value& self, const std::string& name, Fn fn) {
    Value captured = self;
    return Value::callable(name, [captured, fn](CallArgs& args) { return fn(captured, args); });
}

// The methods of each kind of value by name (name is the one it was called by: some have several).
using Method = Value (*)(const Value& self, const std::string& name, int line);

Value stringStrip(const Value& self, const std::string& name, int) {
    return bind(self, name, [left = name != "rstrip", right = name != "lstrip"](const Value& s, CallArgs& a) {
        return Value(strip(s.asString(), a.get(0, "chars"), left, right));
    });
}

Value stringSplit(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs& a) {
        const Value max = a.get(1, "maxsplit");
        Value::List parts;
        for (auto& p : split(s.asString(), a.get(0, "sep"), max.isNumber() ? max.asInt() : -1))
            parts.emplace_back(std::move(p));
        return Value::list(std::move(parts));
    });
}

Value stringRsplit(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs& a) {
        const Value sep = a.get(0, "sep");
        const Value max = a.get(1, "maxsplit");
        const std::int64_t limit = max.isNumber() ? max.asInt() : -1;
        if (!sep.isString() || limit < 0) {
            Value::List parts;
            for (auto& p : split(s.asString(), sep, -1))
                parts.emplace_back(std::move(p));
            return Value::list(std::move(parts));
        }
        std::vector<std::string> parts;
        std::string rest = s.asString();
        for (std::int64_t i = 0; i < limit; ++i) {
            const std::size_t at = rest.rfind(sep.asString());
            if (at == std::string::npos)
                break;
            parts.insert(parts.begin(), rest.substr(at + sep.asString().size()));
            rest = rest.substr(0, at);
        }
        parts.insert(parts.begin(), rest);
        Value::List out;
        for (auto& p : parts)
            out.emplace_back(std::move(p));
        return Value::list(std::move(out));
    });
}

Value stringStartswith(const Value& self, const std::string& name, int) {
    return bind(self, name, [atEnd = name == "endswith"](const Value& s, CallArgs& a) {
        return Value(startsWith(s.asString(), a.get(0, nullptr), atEnd));
    });
}

Value stringUpper(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs&) { return Value(upperAscii(s.asString())); });
}

Value stringLower(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs&) { return Value(lowerAscii(s.asString())); });
}

Value stringTitle(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs&) { return Value(title(s.asString())); });
}

Value stringCapitalize(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs&) { return Value(capitalize(s.asString())); });
}

Value stringReplace(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs& a) {
        const Value count = a.get(2, "count");
        return Value(replaceAll(s.asString(), a.get(0, nullptr).str(), a.get(1, nullptr).str(),
                                count.isNumber() ? count.asInt() : -1));
    });
}

Value stringFind(const Value& self, const std::string& name, int) {
    return bind(self, name, [name](const Value& s, CallArgs& a) {
        const std::string needle = a.get(0, nullptr).str();
        const std::string& hay = s.asString();
        if (name == "count") {
            if (needle.empty())
                return Value(std::int64_t(codePoints(hay).size() + 1));
            std::int64_t n = 0;
            for (std::size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + needle.size()))
                ++n;
            return Value(n);
        }
        const std::size_t at = name == "rfind" ? hay.rfind(needle) : hay.find(needle);
        if (at == std::string::npos) {
            if (name == "index")
                throw TemplateError{"substring not found", 0};
            return Value(-1);
        }
        return Value(std::int64_t(codePoints(hay.substr(0, at)).size()));
    });
}

Value stringSplitlines(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs&) {
        Value::List out;
        for (auto& l : splitLines(s.asString()))
            out.emplace_back(std::move(l));
        return Value::list(std::move(out));
    });
}

Value stringJoin(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs& a) {
        std::string out;
        bool first = true;
        for (const Value& item : iterate(a.get(0, nullptr), 0)) {
            out += (first ? "" : s.asString()) + item.str();
            first = false;
        }
        return Value(std::move(out));
    });
}

Value stringIsdigit(const Value& self, const std::string& name, int) {
    return bind(self, name, [name](const Value& s, CallArgs&) {
        const std::string& t = s.asString();
        if (t.empty())
            return Value(false);
        if (name == "isupper" || name == "islower") {
            const bool anyCased = std::any_of(t.begin(), t.end(), ::isalpha);
            const bool match = name == "isupper" ? t == upperAscii(t) : t == lowerAscii(t);
            return Value(anyCased && match);
        }
        int (*pred)(int) = name == "isdigit"   ? ::isdigit
                           : name == "isspace" ? ::isspace
                           : name == "isalpha" ? ::isalpha
                                               : ::isalnum;
        return Value(
            std::all_of(t.begin(), t.end(), [pred](char c) { return pred(static_cast<unsigned char>(c)) != 0; }));
    });
}

Value stringFormat(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& s, CallArgs& a) {
        // str.format with {} and {0} fields
        std::string out;
        const std::string& f = s.asString();
        std::size_t auto_ = 0;
        for (std::size_t i = 0; i < f.size(); ++i) {
            if (f[i] == '{' && i + 1 < f.size() && f[i + 1] == '{') {
                out += '{';
                ++i;
            } else if (f[i] == '}' && i + 1 < f.size() && f[i + 1] == '}') {
                out += '}';
                ++i;
            } else if (f[i] == '{') {
                const std::size_t close = f.find('}', i);
                if (close == std::string::npos)
                    throw TemplateError{"unmatched '{' in a format string", 0};
                const std::string field = f.substr(i + 1, close - i - 1);
                Value v = field.empty()                                        ? a.get(auto_++, nullptr)
                          : std::all_of(field.begin(), field.end(), ::isdigit) ? a.get(std::stoul(field), nullptr)
                                                                               : a.get(999, field.c_str());
                out += v.str();
                i = close;
            } else {
                out += f[i];
            }
        }
        return Value(std::move(out));
    });
}

Value mapItems(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& m, CallArgs&) { return mapItems(m); });
}

Value mapKeys(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& m, CallArgs&) { return Value::list(iterate(m, 0)); });
}

Value mapValues(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& m, CallArgs&) {
        Value::List values;
        for (const auto& [key, value] : m.asMap().entries)
            values.push_back(value);
        return Value::list(std::move(values));
    });
}

Value mapGet(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& m, CallArgs& a) {
        const Value key = a.get(0, nullptr);
        const Value* found = key.hashable() ? m.asMap().findKey(key) : nullptr;
        if (found)
            return *found;
        const Value fallback = a.get(1, "default");
        return fallback.isUndefined() ? Value::none() : fallback;
    });
}

Value listAppend(const Value&, const std::string& name, int line) {
    fail("list." + name + " changes the list, which transformers' immutable sandbox refuses; build a new list instead",
         line);
}

Value listPop(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& l, CallArgs& a) {
        auto& items = l.asList();
        if (items.empty())
            throw TemplateError{"pop from an empty list", 0};
        std::int64_t i = a.get(0, nullptr).isNumber() ? a.get(0, nullptr).asInt() : -1;
        if (i < 0)
            i += std::int64_t(items.size());
        if (i < 0 || i >= std::int64_t(items.size()))
            throw TemplateError{"pop index out of range", 0};
        Value v = items[std::size_t(i)];
        items.erase(items.begin() + i);
        return v;
    });
}

Value listIndex(const Value& self, const std::string& name, int) {
    return bind(self, name, [](const Value& l, CallArgs& a) {
        const auto& items = l.asList();
        for (std::size_t i = 0; i < items.size(); ++i)
            if (items[i].equals(a.get(0, nullptr)))
                return Value(std::int64_t(i));
        throw TemplateError{"the value is not in the list", 0};
    });
}

const std::unordered_map<std::string, Method>& stringMethods() {
    static const std::unordered_map<std::string, Method> methods = {
        {"strip", stringStrip},
        {"lstrip", stringStrip},
        {"rstrip", stringStrip},
        {"split", stringSplit},
        {"rsplit", stringRsplit},
        {"startswith", stringStartswith},
        {"endswith", stringStartswith},
        {"upper", stringUpper},
        {"lower", stringLower},
        {"title", stringTitle},
        {"capitalize", stringCapitalize},
        {"replace", stringReplace},
        {"find", stringFind},
        {"rfind", stringFind},
        {"count", stringFind},
        {"index", stringFind},
        {"splitlines", stringSplitlines},
        {"join", stringJoin},
        {"isdigit", stringIsdigit},
        {"isspace", stringIsdigit},
        {"isalpha", stringIsdigit},
        {"isalnum", stringIsdigit},
        {"isupper", stringIsdigit},
        {"islower", stringIsdigit},
        {"format", stringFormat},
    };
    return methods;
}

const std::unordered_map<std::string, Method>& mapMethods() {
    static const std::unordered_map<std::string, Method> methods = {
        {"items", mapItems},
        {"keys", mapKeys},
        {"values", mapValues},
        {"get", mapGet},
    };
    return methods;
}

const std::unordered_map<std::string, Method>& listMethods() {
    static const std::unordered_map<std::string, Method> methods = {
        {"append", listAppend},  {"extend", listAppend}, {"insert", listAppend}, {"remove", listAppend},
        {"reverse", listAppend}, {"sort", listAppend},   {"pop", listPop},       {"index", listIndex},
    };
    return methods;
}

} // namespace

Value method(const Value& self, const std::string& name, int line) {
    const std::unordered_map<std::string, Method>* methods = self.isString() ? &stringMethods()
                                                             : self.isMap() && !self.asMap().isNamespace ? &mapMethods()
                                                             : self.isList() ? &listMethods()
                                                                             : nullptr;
    if (!methods)
        return {};
    const auto found = methods->find(name);
    return found == methods->end() ? Value() : found->second(self, name, line);
}

Value makeGlobals()
{
    Value globals = Value::map();
    auto& g = globals.asMap();
    g.set("raise_exception", Value::callable("raise_exception", [](CallArgs& args) -> Value {
        throw TemplateError{"the template raised an error: " + args.get(0, "message").str(), 0};
    }));
    g.set("strftime_now", Value::callable("strftime_now", [](CallArgs& args) {
        return Value(strftimeNow(args.get(0, "format").str()));
    }));
    g.set("range", Value::callable("range", [](CallArgs& args) {
        std::int64_t start = 0, stop = 0, step = 1;
        if (args.positional.size() == 1) {
            stop = args.positional[0].asInt();
        } else if (args.positional.size() >= 2) {
            start = args.positional[0].asInt();
            stop = args.positional[1].asInt();
            if (args.positional.size() >= 3)
                step = args.positional[2].asInt();
        }
        if (step == 0)
            throw TemplateError{"range() step cannot be zero", 0};
        Value::List out;
        for (std::int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
            if (out.size() >= 1'000'000)
                throw TemplateError{"range() longer than a million items", 0};
            out.emplace_back(i);
        }
        return Value::list(std::move(out));
    }));
    g.set("namespace", Value::callable("namespace", [](CallArgs& args) {
        Value ns = Value::map(true);
        for (const Value& init : args.positional)
            if (init.isMap())
                for (std::size_t i = 0; i < init.asMap().entries.size(); ++i)
                    ns.asMap().setKey(init.asMap().keyAt(i), init.asMap().entries[i].second);
        for (const auto& [key, value] : args.keyword)
            ns.asMap().set(key, value);
        return ns;
    }));
    g.set("dict", Value::callable("dict", [](CallArgs& args) {
        Value d = Value::map();
        for (const auto& [key, value] : args.keyword)
            d.asMap().set(key, value);
        return d;
    }));
    return globals;
}

} // namespace swb::jinja
