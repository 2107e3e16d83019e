#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace swb::jinja {

class Value;
struct CallArgs;

// A value of the template language: Python's types as Jinja2 sees them (undefined, None, bool, int, float,
// str, list, dict, callable). Lists and dicts are shared by reference, as in Python; dicts keep their
// insertion order (tojson of a tool definition prints its keys in the order they were written).
class Value {
public:
    using List = std::vector<Value>;
    struct Map {
        // Each key as JSON writes it (a string key as is, 4096 as "4096"), with its value.
        std::vector<std::pair<std::string, Value>> entries;
        std::unordered_map<std::string, std::size_t> index; // string keys
        // Python dicts take any hashable key, and templates write {4096: 512}. Keys that are not strings
        // are kept as values (keyValues: empty while every key is a string, else one per entry) and found
        // by Python's equality, where 1, 1.0 and True are one key.
        std::vector<Value> keyValues;
        std::unordered_map<std::string, std::size_t> otherIndex;
        bool isNamespace = false;
        const Value* find(const std::string& key) const;
        void set(const std::string& key, Value value);
        const Value* findKey(const Value& key) const;
        void setKey(const Value& key, Value value); // key: hashable()
        Value keyAt(std::size_t i) const;
    };
    struct Callable {
        std::string name;
        std::function<Value(CallArgs&)> call;
    };
    enum class Kind { Undefined, None, Bool, Int, Float, String, List, Map, Callable };

    Value() = default; // undefined
    Value(bool b) : m_data(b) {}
    Value(int i) : m_data(std::int64_t(i)) {}
    Value(std::int64_t i) : m_data(i) {}
    Value(double d) : m_data(d) {}
    Value(std::string s) : m_data(std::move(s)) {}
    Value(const char* s) : m_data(std::string(s)) {}
    static Value none() { Value v; v.m_data = nullptr; return v; }
    static Value list(List items = {});
    // What Jinja2's map, select, reject, selectattr, rejectattr and items filters return: a Python
    // generator. It iterates like a list (|list makes it one) but is always true, has no length, cannot
    // be indexed and is not JSON; templates that dump one fail in transformers, and so here.
    static Value generator(List items);
    bool isGenerator() const { return m_tag == Tag::Generator; }
    // A string marked safe (|safe, |escape): Python's markupsafe.Markup. Markup + str escapes the str,
    // as transformers renders Functionary's template.
    static Value markup(std::string text);
    bool isMarkup() const { return m_tag == Tag::Markup; }
    static Value map(bool isNamespace = false);
    static Value callable(std::string name, std::function<Value(CallArgs&)> call);

    Kind kind() const { return Kind(m_data.index()); }
    bool isUndefined() const { return kind() == Kind::Undefined; }
    bool isNone() const { return kind() == Kind::None; }
    bool isBool() const { return kind() == Kind::Bool; }
    bool isInt() const { return kind() == Kind::Int; }
    bool isFloat() const { return kind() == Kind::Float; }
    bool isNumber() const { return isInt() || isFloat() || isBool(); }
    bool isString() const { return kind() == Kind::String; }
    bool isList() const { return kind() == Kind::List; }
    bool isMap() const { return kind() == Kind::Map; }
    bool isCallable() const { return kind() == Kind::Callable; }

    bool asBool() const { return std::get<bool>(m_data); }
    std::int64_t asInt() const; // bools and ints
    double asDouble() const;    // any number
    const std::string& asString() const { return std::get<std::string>(m_data); }
    List& asList() const { return *std::get<std::shared_ptr<List>>(m_data); }
    Map& asMap() const { return *std::get<std::shared_ptr<Map>>(m_data); }
    const Callable& asCallable() const { return *std::get<std::shared_ptr<Callable>>(m_data); }

    bool truthy() const;
    // Python's str(): how {{ value }} prints (None, True, 1.0, ['a', 1], {'k': 'v'}).
    std::string str() const;
    // Python's repr() (strings quoted), used inside lists and dicts.
    std::string repr() const;
    // json.dumps's options that transformers' tojson passes on.
    struct JsonStyle {
        int indent = -1;            // < 0: none
        bool ensureAscii = false;   // transformers' default: characters as they are
        bool sortKeys = false;
        std::optional<std::pair<std::string, std::string>> separators; // default: (", " or "," with indent, ": ")
    };
    // json.dumps(value, ...) as transformers' tojson does.
    std::string toJson(const JsonStyle& style) const;
    std::string toJson(int indent = -1) const { return toJson(JsonStyle{indent}); }
    // Python ==.
    bool equals(const Value& other) const;
    // Whether Python can hash it (a dict key, an `in` test on a dict): not a list, dict or callable.
    bool hashable() const;
    std::string typeName() const;

    // Parses JSON keeping object key order; false (and *error set) on malformed text.
    static bool fromJson(const std::string& text, Value* out, std::string* error);

private:
    std::variant<std::monostate, std::nullptr_t, bool, std::int64_t, double, std::string, std::shared_ptr<List>,
        std::shared_ptr<Map>, std::shared_ptr<Callable>>
        m_data;
    enum class Tag : std::uint8_t { None, Generator, Markup };
    Tag m_tag = Tag::None;
};

// Arguments of a call: positional, then keyword (name=value), in the order written.
struct CallArgs {
    std::vector<Value> positional;
    std::vector<std::pair<std::string, Value>> keyword;
    // The argument at position or by name; undefined when absent.
    Value get(std::size_t position, const char* name) const;
};

// UTF-8 helpers for Python's code-point semantics of str (len, indexing, slicing).
std::vector<std::string> codePoints(const std::string& text);

} // namespace swb::jinja
