#pragma once

// A JSON reader and a JSON schema validator written only for tests, independently of the grammar code: the
// reader follows RFC 8259 by hand (numbers of any size, escapes, surrogate pairs), the validator JSON
// Schema's meaning of the keywords our converter takes (additionalProperties absent means allowed,
// oneOf means exactly one, pattern searches with QRegularExpression).

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>

namespace swb::test {

struct JsonNode {
    enum class Kind { Null, Bool, Number, String, Array, Object };
    Kind kind = Kind::Null;
    bool boolean = false;
    std::string numberText;
    double number = 0.0;
    std::string text; // a string's decoded UTF-8
    std::vector<JsonNode> items;
    std::vector<std::pair<std::string, JsonNode>> members;
};

class JsonReader {
public:
    // The value the whole text holds, or nullopt with error() saying where it went wrong.
    std::optional<JsonNode> read(const std::string& text) {
        m_s = text;
        m_i = 0;
        m_error.clear();
        JsonNode node;
        skip();
        if (!value(node, 0))
            return std::nullopt;
        skip();
        if (m_i != m_s.size()) {
            fail("text after the value");
            return std::nullopt;
        }
        return node;
    }
    const std::string& error() const { return m_error; }

private:
    bool fail(const std::string& why) {
        if (m_error.empty())
            m_error = why + " at byte " + std::to_string(m_i);
        return false;
    }
    void skip() {
        while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\n' || m_s[m_i] == '\r'))
            ++m_i;
    }
    bool literal(const char* word) {
        const std::size_t n = std::char_traits<char>::length(word);
        if (m_s.compare(m_i, n, word) != 0)
            return false;
        m_i += n;
        return true;
    }
    static bool digit(char c) { return c >= '0' && c <= '9'; }

    bool value(JsonNode& node, int depth) {
        if (depth > 200 || m_i >= m_s.size())
            return (fail("a value expected"));
        const char c = m_s[m_i];
        if (literal("null")) {
            node.kind = JsonNode::Kind::Null;
            return true;
        }
        if (literal("true") || literal("false")) {
            node.kind = JsonNode::Kind::Bool;
            node.boolean = c == 't';
            return true;
        }
        if (c == '"') {
            node.kind = JsonNode::Kind::String;
            return string(node.text);
        }
        if (c == '-' || digit(c))
            return number(node);
        if (c == '[') {
            node.kind = JsonNode::Kind::Array;
            ++m_i;
            skip();
            if (m_i < m_s.size() && m_s[m_i] == ']') {
                ++m_i;
                return true;
            }
            for (;;) {
                JsonNode item;
                skip();
                if (!value(item, depth + 1))
                    return false;
                node.items.push_back(std::move(item));
                skip();
                if (m_i < m_s.size() && m_s[m_i] == ',') {
                    ++m_i;
                    continue;
                }
                if (m_i < m_s.size() && m_s[m_i] == ']') {
                    ++m_i;
                    return true;
                }
                return (fail("',' or ']' expected"));
            }
        }
        if (c == '{') {
            node.kind = JsonNode::Kind::Object;
            ++m_i;
            skip();
            if (m_i < m_s.size() && m_s[m_i] == '}') {
                ++m_i;
                return true;
            }
            for (;;) {
                skip();
                std::string key;
                if (m_i >= m_s.size() || m_s[m_i] != '"' || !string(key))
                    return (fail("a key expected"));
                skip();
                if (m_i >= m_s.size() || m_s[m_i] != ':')
                    return (fail("':' expected"));
                ++m_i;
                skip();
                JsonNode item;
                if (!value(item, depth + 1))
                    return false;
                node.members.emplace_back(std::move(key), std::move(item));
                skip();
                if (m_i < m_s.size() && m_s[m_i] == ',') {
                    ++m_i;
                    continue;
                }
                if (m_i < m_s.size() && m_s[m_i] == '}') {
                    ++m_i;
                    return true;
                }
                return (fail("',' or '}' expected"));
            }
        }
        return (fail("a value expected"));
    }

    bool number(JsonNode& node) {
        const std::size_t start = m_i;
        if (m_s[m_i] == '-')
            ++m_i;
        if (m_i < m_s.size() && m_s[m_i] == '0') {
            ++m_i;
        } else if (m_i < m_s.size() && digit(m_s[m_i]) && m_s[m_i] != '0') {
            while (m_i < m_s.size() && digit(m_s[m_i]))
                ++m_i;
        } else {
            return (fail("a digit expected"));
        }
        if (m_i < m_s.size() && m_s[m_i] == '.') {
            ++m_i;
            if (m_i >= m_s.size() || !digit(m_s[m_i]))
                return (fail("a digit after '.' expected"));
            while (m_i < m_s.size() && digit(m_s[m_i]))
                ++m_i;
        }
        if (m_i < m_s.size() && (m_s[m_i] == 'e' || m_s[m_i] == 'E')) {
            ++m_i;
            if (m_i < m_s.size() && (m_s[m_i] == '+' || m_s[m_i] == '-'))
                ++m_i;
            if (m_i >= m_s.size() || !digit(m_s[m_i]))
                return (fail("an exponent digit expected"));
            while (m_i < m_s.size() && digit(m_s[m_i]))
                ++m_i;
        }
        node.kind = JsonNode::Kind::Number;
        node.numberText = m_s.substr(start, m_i - start);
        node.number = std::strtod(node.numberText.c_str(), nullptr);
        return true;
    }

    static void put(std::string& out, std::uint32_t cp) {
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

    bool hex4(std::uint32_t& out) {
        out = 0;
        for (int k = 0; k < 4; ++k, ++m_i) {
            if (m_i >= m_s.size())
                return false;
            const char h = m_s[m_i];
            const int v = digit(h)                 ? h - '0'
                          : (h >= 'a' && h <= 'f') ? h - 'a' + 10
                          : (h >= 'A' && h <= 'F') ? h - 'A' + 10
                                                   : -1;
            if (v < 0)
                return false;
            out = out * 16 + std::uint32_t(v);
        }
        return true;
    }

    bool string(std::string& out) {
        ++m_i; // the opening quote
        while (m_i < m_s.size()) {
            const auto c = static_cast<unsigned char>(m_s[m_i]);
            if (c == '"') {
                ++m_i;
                return true;
            }
            if (c < 0x20)
                return (fail("a control character in a string"));
            if (c != '\\') {
                out += char(c);
                ++m_i;
                continue;
            }
            if (++m_i >= m_s.size())
                break;
            const char e = m_s[m_i++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp))
                    return (fail("four hex digits expected"));
                if (cp >= 0xD800 && cp < 0xDC00 && m_s.compare(m_i, 2, "\\u") == 0) {
                    const std::size_t back = m_i;
                    m_i += 2;
                    std::uint32_t low = 0;
                    if (hex4(low) && low >= 0xDC00 && low < 0xE000)
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                    else
                        m_i = back;
                }
                put(out, cp);
                break;
            }
            default:
                return (fail("an unknown escape"));
            }
        }
        return (fail("an unclosed string"));
    }

    std::string m_s;
    std::size_t m_i = 0;
    std::string m_error;
};

inline bool sameValue(const JsonNode& node, const QJsonValue& value) {
    switch (node.kind) {
    case JsonNode::Kind::Null:
        return value.isNull();
    case JsonNode::Kind::Bool:
        return value.isBool() && value.toBool() == node.boolean;
    case JsonNode::Kind::Number:
        return value.isDouble() && value.toDouble() == node.number;
    case JsonNode::Kind::String:
        return value.isString() && value.toString().toStdString() == node.text;
    case JsonNode::Kind::Array: {
        if (!value.isArray() || value.toArray().size() != qsizetype(node.items.size()))
            return false;
        for (std::size_t i = 0; i < node.items.size(); ++i)
            if (!sameValue(node.items[i], value.toArray().at(qsizetype(i))))
                return false;
        return true;
    }
    case JsonNode::Kind::Object: {
        if (!value.isObject() || value.toObject().size() != qsizetype(node.members.size()))
            return false;
        for (const auto& [key, item] : node.members)
            if (!sameValue(item, value.toObject().value(QString::fromStdString(key))))
                return false;
        return true;
    }
    }
    return false;
}

// Empty when value follows schema; else what does not, with its place.
inline std::string validate(const JsonNode& value, const QJsonValue& schemaValue, const QJsonObject& root,
                            const std::string& where = "/") {
    if (schemaValue.isBool())
        return schemaValue.toBool() ? "" : where + ": the schema false";
    const QJsonObject schema = schemaValue.toObject();
    if (schema.contains("$ref")) {
        QJsonValue target = root;
        for (const QString& part : schema.value("$ref").toString().mid(2).split('/'))
            target = target.toObject().value(part);
        return validate(value, target, root, where);
    }
    if (schema.contains("anyOf") || schema.contains("oneOf")) {
        const bool one = schema.contains("oneOf");
        int matched = 0;
        for (const QJsonValue& option : schema.value(one ? "oneOf" : "anyOf").toArray())
            matched += validate(value, option, root, where).empty();
        if (one ? matched != 1 : matched == 0)
            return where + ": " + std::to_string(matched) + " alternatives match";
    }
    if (schema.contains("const") && !sameValue(value, schema.value("const")))
        return where + ": not the constant";
    if (schema.contains("enum")) {
        bool found = false;
        for (const QJsonValue& option : schema.value("enum").toArray())
            found = found || sameValue(value, option);
        if (!found)
            return where + ": not in the enum";
    }
    if (schema.contains("type")) {
        const QJsonValue type = schema.value("type");
        const QJsonArray types = type.isArray() ? type.toArray() : QJsonArray{type};
        bool typed = false;
        for (const QJsonValue& t : types) {
            const QString name = t.toString();
            const bool integral = value.kind == JsonNode::Kind::Number &&
                                  (value.numberText.find_first_of(".eE") == std::string::npos ||
                                   (std::isfinite(value.number) && std::floor(value.number) == value.number));
            typed = typed || (name == "null" && value.kind == JsonNode::Kind::Null) ||
                    (name == "boolean" && value.kind == JsonNode::Kind::Bool) ||
                    (name == "number" && value.kind == JsonNode::Kind::Number) || (name == "integer" && integral) ||
                    (name == "string" && value.kind == JsonNode::Kind::String) ||
                    (name == "array" && value.kind == JsonNode::Kind::Array) ||
                    (name == "object" && value.kind == JsonNode::Kind::Object);
        }
        if (!typed)
            return where + ": not of the type";
    }
    if (value.kind == JsonNode::Kind::String) {
        const QString text = QString::fromStdString(value.text);
        const auto length = text.toUcs4().size();
        if (schema.contains("minLength") && length < schema.value("minLength").toInt())
            return where + ": too short";
        if (schema.contains("maxLength") && length > schema.value("maxLength").toInt())
            return where + ": too long";
        if (schema.contains("pattern") &&
            !QRegularExpression(schema.value("pattern").toString()).match(text).hasMatch())
            return where + ": does not match the pattern";
        static const std::map<QString, QString> formats = {
            {"date", R"(^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$)"},
            {"time", R"(^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$)"},
            {"date-time",
             R"(^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$)"},
            {"uuid", R"(^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$)"}};
        if (schema.contains("format") &&
            !QRegularExpression(formats.at(schema.value("format").toString())).match(text).hasMatch())
            return where + ": not a " + schema.value("format").toString().toStdString();
    }
    if (value.kind == JsonNode::Kind::Array) {
        const auto n = static_cast<int>(value.items.size());
        if (schema.contains("minItems") && n < schema.value("minItems").toInt())
            return where + ": too few items";
        if (schema.contains("maxItems") && n > schema.value("maxItems").toInt())
            return where + ": too many items";
        const QJsonArray prefix = schema.value("prefixItems").toArray();
        for (int i = 0; i < n; ++i) {
            const QJsonValue itemSchema = i < prefix.size() ? prefix[i] : schema.value("items");
            if (itemSchema.isUndefined())
                continue;
            if (std::string e =
                    validate(value.items[std::size_t(i)], itemSchema, root, where + std::to_string(i) + "/");
                !e.empty())
                return e;
        }
    }
    if (value.kind == JsonNode::Kind::Object) {
        const QJsonObject properties = schema.value("properties").toObject();
        for (const QJsonValue& key : schema.value("required").toArray()) {
            bool present = false;
            for (const auto& member : value.members)
                present = present || member.first == key.toString().toStdString();
            if (!present)
                return where + ": '" + key.toString().toStdString() + "' is missing";
        }
        for (std::size_t i = 0; i < value.members.size(); ++i) {
            const auto& [key, item] = value.members[i];
            for (std::size_t j = 0; j < i; ++j)
                if (value.members[j].first == key)
                    return where + ": '" + key + "' twice";
            const QString name = QString::fromStdString(key);
            const QJsonValue sub =
                properties.contains(name) ? properties.value(name) : schema.value("additionalProperties");
            if (sub.isUndefined())
                continue;
            if (std::string e = validate(item, sub, root, where + key + "/"); !e.empty())
                return e;
        }
    }
    return {};
}

} // namespace swb::test
