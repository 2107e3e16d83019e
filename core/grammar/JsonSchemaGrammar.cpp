#include "grammar/JsonSchemaGrammar.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace swb {

namespace {

// The primitive rules, as llama.cpp's converter spells them (its SPACE_RULE and PRIMITIVE_RULES).
const std::map<std::string, std::pair<std::string, std::vector<std::string>>>& primitives() {
    static const std::map<std::string, std::pair<std::string, std::vector<std::string>>> rules = {
        {"space", {R"(| " " | "\n"{1,2} [ \t]{0,20})", {}}},
        {"boolean", {R"(("true" | "false"))", {}}},
        {"decimal-part", {"[0-9]{1,16}", {}}},
        {"integral-part", {"[0] | [1-9] [0-9]{0,15}", {}}},
        {"number",
         {R"(("-"? integral-part) ("." decimal-part)? ([eE] [-+]? integral-part)?)",
          {"integral-part", "decimal-part"}}},
        {"integer", {R"(("-"? integral-part))", {"integral-part"}}},
        {"value",
         {"object | array | string | number | boolean | null",
          {"object", "array", "string", "number", "boolean", "null"}}},
        {"object",
         {R"("{" space ( string ":" space value ("," space string ":" space value)* )? space "}")",
          {"string", "value"}}},
        {"array", {R"("[" space ( value ("," space value)* )? space "]")", {"value"}}},
        {"uuid",
         {R"("\"" [0-9a-fA-F]{8} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{12} "\"")",
          {}}},
        {"char", {R"([^"\\\x7F\x00-\x1F] | [\\] (["\\bfnrt] | "u" [0-9a-fA-F]{4}))", {}}},
        {"string", {R"("\"" char* "\"")", {"char"}}},
        {"null", {R"("null")", {}}},
        {"date", {R"([0-9]{4} "-" ( "0" [1-9] | "1" [0-2] ) "-" ( "0" [1-9] | [1-2] [0-9] | "3" [0-1] ))", {}}},
        {"time",
         {R"(([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ( "." [0-9]{3} )? ( "Z" | ( "+" | "-" ) ( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9] ))",
          {}}},
        {"date-time", {R"(date "T" time)", {"date", "time"}}},
        {"date-string", {R"("\"" date "\"")", {"date"}}},
        {"time-string", {R"("\"" time "\"")", {"time"}}},
        {"date-time-string", {R"("\"" date-time "\"")", {"date-time"}}},
    };
    return rules;
}

// A GBNF string literal for raw text.
std::string literal(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
        case '\r':
            out += "\\r";
            break;
        case '\n':
            out += "\\n";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        default:
            out += c;
        }
    }
    return out + '"';
}

// A JSON value's compact text (what a constant must be spelled as).
std::string jsonText(const QJsonValue& value) {
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2).toStdString();
}

// "{m,n}" and its short forms; max nullopt: unbounded.
std::string braces(int min, std::optional<int> max) {
    if (!max)
        return min == 0 ? "*" : min == 1 ? "+" : "{" + std::to_string(min) + ",}";
    if (min == 0 && *max == 1)
        return "?";
    if (min == *max)
        return "{" + std::to_string(min) + "}";
    return "{" + std::to_string(min) + "," + std::to_string(*max) + "}";
}

// item repeated min..max times with separator between, as llama.cpp's build_repetition writes it.
std::string repetition(const std::string& item, int min, std::optional<int> max, const std::string& separator) {
    if (max && *max == 0)
        return "";
    if (min == 0 && max && *max == 1)
        return item + "?";
    if (separator.empty())
        return item + braces(min, max);
    const std::string rest = "(" + separator + " " + item + ")" +
                             braces(min == 0 ? 0 : min - 1, max ? std::optional<int>(*max - 1) : std::nullopt);
    const std::string result = item + " " + rest;
    return min == 0 ? "(" + result + ")?" : result;
}

const std::set<QString>& annotations() {
    static const std::set<QString> keys = {
        QStringLiteral("title"),      QStringLiteral("description"), QStringLiteral("default"),
        QStringLiteral("examples"),   QStringLiteral("$schema"),     QStringLiteral("$id"),
        QStringLiteral("$comment"),   QStringLiteral("$defs"),       QStringLiteral("definitions"),
        QStringLiteral("deprecated"), QStringLiteral("readOnly"),    QStringLiteral("writeOnly"),
    };
    return keys;
}

const std::set<QString>& understood() {
    static const std::set<QString> keys = {
        QStringLiteral("type"),      QStringLiteral("properties"),
        QStringLiteral("required"),  QStringLiteral("additionalProperties"),
        QStringLiteral("enum"),      QStringLiteral("const"),
        QStringLiteral("items"),     QStringLiteral("prefixItems"),
        QStringLiteral("minItems"),  QStringLiteral("maxItems"),
        QStringLiteral("minLength"), QStringLiteral("maxLength"),
        QStringLiteral("pattern"),   QStringLiteral("format"),
        QStringLiteral("anyOf"),     QStringLiteral("oneOf"),
        QStringLiteral("$ref"),      QStringLiteral("propertyOrdering"),
    };
    return keys;
}

class SchemaConverter {
public:
    explicit SchemaConverter(const QJsonValue& root)
        : m_root(root) {
        m_rules["space"] = primitives().at("space").first;
    }

    Result<std::string> convert() {
        const std::string root = visit(m_root, "", QStringLiteral(""));
        if (m_error)
            return *m_error;
        if (root != "root")
            m_rules["root"] = root;
        std::string out;
        for (const auto& [name, body] : m_rules)
            out += name + " ::= " + body + "\n";
        return out;
    }

private:
    std::string fail(const QString& path, const QString& message) {
        if (!m_error)
            m_error = Error::badInput(
                QStringLiteral("json_schema at %1: %2").arg(path.isEmpty() ? QStringLiteral("/") : path, message));
        return {};
    }

    static std::string ruleName(const std::string& name) {
        std::string out;
        for (char c : name)
            out += ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) ? c : '-';
        return out.empty() ? "root" : out;
    }

    std::string addRule(const std::string& name, const std::string& body) {
        const std::string base = ruleName(name);
        std::string key = base;
        for (int i = 0;; ++i) {
            const auto found = m_rules.find(key);
            if (found == m_rules.end() || found->second == body)
                break;
            key = base + std::to_string(i);
        }
        m_rules[key] = body;
        return key;
    }

    std::string addPrimitive(const std::string& name, const std::string& primitive) {
        const auto& [body, deps] = primitives().at(primitive);
        const std::string key = addRule(name, body);
        for (const std::string& dep : deps)
            if (!m_rules.contains(dep))
                addPrimitive(dep, dep);
        return key;
    }

    static std::string child(const std::string& name, const std::string& part) {
        return name.empty() ? part : name + "-" + part;
    }

    std::string visit(const QJsonValue& value, const std::string& name, const QString& path) {
        if (m_error)
            return {};
        if (++m_depth > 64) {
            --m_depth;
            return fail(path, QStringLiteral("the schema nests more than 64 levels"));
        }
        const std::string rule = visitValue(value, name, path);
        --m_depth;
        return rule;
    }

    std::string visitValue(const QJsonValue& value, const std::string& name, const QString& path) {
        const bool reserved = primitives().contains(name) || name == "root";
        const std::string ruleFor = name.empty() ? "root" : reserved ? name + "-" : name;
        if (value.isBool())
            return value.toBool() ? addRule(ruleFor, addPrimitive("value", "value"))
                                  : fail(path, QStringLiteral("the schema false accepts nothing"));
        if (!value.isObject())
            return fail(path, QStringLiteral("a schema must be an object or a boolean"));
        const QJsonObject schema = value.toObject();
        for (auto it = schema.begin(); it != schema.end(); ++it)
            if (!understood().contains(it.key()) && !annotations().contains(it.key()))
                return fail(path, QStringLiteral("the keyword '%1' is not supported").arg(it.key()));

        if (schema.contains(QLatin1String("$ref")))
            return addRule(ruleFor, resolveRef(schema.value(QLatin1String("$ref")), path));
        for (const char* key : {"anyOf", "oneOf"}) {
            if (!schema.contains(QLatin1String(key)))
                continue;
            const QJsonArray alternatives = schema.value(QLatin1String(key)).toArray();
            if (alternatives.isEmpty())
                return fail(path, QStringLiteral("%1 must be a non-empty array").arg(QLatin1String(key)));
            std::string body;
            for (int i = 0; i < alternatives.size(); ++i) {
                body += (i ? " | " : "") + visit(alternatives[i], child(name, std::to_string(i)),
                                                 path + QStringLiteral("/%1/%2").arg(QLatin1String(key)).arg(i));
            }
            return addRule(ruleFor, body);
        }
        const QJsonValue type = schema.value(QLatin1String("type"));
        if (type.isArray()) {
            std::string body;
            const QJsonArray types = type.toArray();
            for (int i = 0; i < types.size(); ++i) {
                if (!types[i].isString())
                    return fail(path + QStringLiteral("/type"),
                                QStringLiteral("type must be a string or an array of strings"));
                QJsonObject one = schema;
                one.insert(QStringLiteral("type"), types[i]);
                body += (i ? " | " : "") + visit(one, child(name, types[i].toString().toStdString()), path);
            }
            return types.isEmpty() ? fail(path, QStringLiteral("type must not be an empty array"))
                                   : addRule(ruleFor, body);
        }
        if (schema.contains(QLatin1String("const")))
            return addRule(ruleFor, literal(jsonText(schema.value(QLatin1String("const")))));
        if (schema.contains(QLatin1String("enum"))) {
            const QJsonArray values = schema.value(QLatin1String("enum")).toArray();
            if (values.isEmpty())
                return fail(path + QStringLiteral("/enum"), QStringLiteral("enum must be a non-empty array"));
            std::string body = "(";
            for (int i = 0; i < values.size(); ++i)
                body += (i ? " | " : "") + literal(jsonText(values[i]));
            return addRule(ruleFor, body + ")");
        }
        if (!type.isUndefined() && !type.isString())
            return fail(path + QStringLiteral("/type"), QStringLiteral("type must be a string or an array of strings"));
        const QString kind = type.toString();
        static const std::set<QString> kinds = {
            QStringLiteral("object"),  QStringLiteral("array"),   QStringLiteral("string"), QStringLiteral("number"),
            QStringLiteral("integer"), QStringLiteral("boolean"), QStringLiteral("null")};
        if ((!kind.isEmpty() || type.isString()) && !kinds.contains(kind))
            return fail(path + QStringLiteral("/type"), QStringLiteral("unknown type '%1'").arg(kind));
        if (kind.isEmpty() || kind == QLatin1String("object")) {
            const QJsonValue additional = schema.value(QLatin1String("additionalProperties"));
            if (schema.contains(QLatin1String("properties")) ||
                (!additional.isUndefined() && additional != QJsonValue(true)))
                return addRule(ruleFor, objectRule(schema, name, path));
        }
        if ((kind.isEmpty() || kind == QLatin1String("array")) &&
            (schema.contains(QLatin1String("items")) || schema.contains(QLatin1String("prefixItems"))))
            return arrayRule(schema, name, ruleFor, path);
        if (kind.isEmpty() || kind == QLatin1String("string")) {
            if (schema.contains(QLatin1String("pattern")))
                return patternRule(schema.value(QLatin1String("pattern")), ruleFor, path + QStringLiteral("/pattern"));
            if (schema.contains(QLatin1String("format")))
                return formatRule(schema.value(QLatin1String("format")).toString(), ruleFor, path);
            if (schema.contains(QLatin1String("minLength")) || schema.contains(QLatin1String("maxLength"))) {
                const std::string chars = addPrimitive("char", "char");
                int min = 0;
                std::optional<int> max;
                if (!count(schema, "minLength", path, min) || !count(schema, "maxLength", path, max))
                    return {};
                return addRule(ruleFor, R"("\"" )" + repetition(chars, min, max, "") + R"( "\"")");
            }
        }
        if (kind.isEmpty())
            return addRule(ruleFor, addPrimitive("value", "value"));
        return addPrimitive(ruleFor == "root" ? "root" : kind.toStdString(), kind.toStdString());
    }

    template <typename T> bool count(const QJsonObject& schema, const char* key, const QString& path, T& out) {
        if (!schema.contains(QLatin1String(key)))
            return true;
        const QJsonValue v = schema.value(QLatin1String(key));
        if (!v.isDouble() || !(v.toDouble() >= 0 && v.toDouble() <= 10000) ||
            v.toDouble() != std::floor(v.toDouble())) {
            fail(path + QLatin1Char('/') + QLatin1String(key),
                 QStringLiteral("%1 must be a whole number from 0 to 10000").arg(QLatin1String(key)));
            return false;
        }
        out = static_cast<int>(v.toDouble());
        return true;
    }

    std::string resolveRef(const QJsonValue& ref, const QString& path) {
        const QString target = ref.toString();
        if (!target.startsWith(QLatin1String("#")))
            return fail(
                path + QStringLiteral("/$ref"),
                QStringLiteral("only references within the schema (\"#/...\") are supported, not '%1'").arg(target));
        const std::string name = "ref" + ruleName(target.mid(1).toStdString());
        if (m_rules.contains(name) || m_resolving.contains(target))
            return name;
        QJsonValue node = m_root;
        for (const QString& raw : target.mid(1).split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
            QString part = raw;
            part.replace(QLatin1String("~1"), QLatin1String("/")).replace(QLatin1String("~0"), QLatin1String("~"));
            if (node.isObject() && node.toObject().contains(part))
                node = node.toObject().value(part);
            else if (node.isArray() && part.toInt() >= 0 && part.toInt() < node.toArray().size())
                node = node.toArray().at(part.toInt());
            else
                return fail(path + QStringLiteral("/$ref"),
                            QStringLiteral("'%1' names nothing in the schema").arg(target));
        }
        m_resolving.insert(target);
        const std::string rule = visit(node, name, QStringLiteral("%1 (%2)").arg(path, target));
        m_resolving.erase(target);
        return rule;
    }

    std::string objectRule(const QJsonObject& schema, const std::string& name, const QString& path) {
        const QJsonValue propertiesValue = schema.value(QLatin1String("properties"));
        if (!propertiesValue.isUndefined() && !propertiesValue.isObject())
            return fail(path + QStringLiteral("/properties"), QStringLiteral("properties must be an object"));
        std::set<QString> required;
        for (const QJsonValue& key : schema.value(QLatin1String("required")).toArray())
            required.insert(key.toString());
        // QJsonObject keeps its keys sorted: the schema's order survives only as Gemini's propertyOrdering.
        const QJsonObject properties = propertiesValue.toObject();
        std::vector<QString> order;
        for (const QJsonValue& key : schema.value(QLatin1String("propertyOrdering")).toArray())
            if (properties.contains(key.toString()) &&
                std::find(order.begin(), order.end(), key.toString()) == order.end())
                order.push_back(key.toString());
        for (const QString& key : properties.keys())
            if (std::find(order.begin(), order.end(), key) == order.end())
                order.push_back(key);
        std::vector<std::string> requiredRules;
        std::vector<std::pair<std::string, std::string>> optionalRules; // (key, kv rule)
        std::vector<std::string> names;
        for (const QString& key : order) {
            const std::string prop = key.toStdString();
            const std::string valueRule =
                visit(properties.value(key), child(name, prop), path + QStringLiteral("/properties/") + key);
            const std::string kv =
                addRule(child(name, prop) + "-kv", literal(jsonText(key)) + R"( space ":" space )" + valueRule);
            if (required.contains(key))
                requiredRules.push_back(kv);
            else
                optionalRules.emplace_back(prop, kv);
            names.push_back(prop);
        }
        for (const QString& key : required)
            if (!properties.contains(key))
                return fail(path + QStringLiteral("/required"),
                            QStringLiteral("'%1' is required but not among the properties").arg(key));
        const QJsonValue additional = schema.value(QLatin1String("additionalProperties"));
        if (additional == QJsonValue(true) || additional.isObject()) {
            const std::string sub = child(name, "additional");
            const std::string valueRule = additional.isObject() ? visit(additional, sub + "-value",
                                                                        path + QStringLiteral("/additionalProperties"))
                                                                : addPrimitive("value", "value");
            const std::string keyRule =
                names.empty() ? addPrimitive("string", "string") : addRule(sub + "-k", notStrings(names));
            optionalRules.emplace_back("*", addRule(sub + "-kv", keyRule + R"( ":" space )" + valueRule));
        } else if (!additional.isUndefined() && additional != QJsonValue(false)) {
            return fail(path + QStringLiteral("/additionalProperties"),
                        QStringLiteral("additionalProperties must be a boolean or a schema"));
        }
        std::string rule = R"("{" space )";
        for (std::size_t i = 0; i < requiredRules.size(); ++i)
            rule += (i ? R"( "," space )" : "") + requiredRules[i];
        if (!optionalRules.empty()) {
            rule += " (";
            if (!requiredRules.empty())
                rule += R"( "," space ( )";
            for (std::size_t i = 0; i < optionalRules.size(); ++i)
                rule += (i ? " | " : "") + optionalTail(optionalRules, i, false, name);
            if (!requiredRules.empty())
                rule += " )";
            rule += " )?";
        }
        return rule + R"( space "}")";
    }

    // The optional properties from i on, in order, any subset (llama.cpp's get_recursive_refs).
    std::string optionalTail(const std::vector<std::pair<std::string, std::string>>& props, std::size_t i,
                             bool firstOptional, const std::string& name) {
        const auto& [key, kv] = props[i];
        const std::string comma = R"(( "," space )" + kv + " )";
        std::string out = firstOptional ? comma + (key == "*" ? "*" : "?") : kv + (key == "*" ? " " + comma + "*" : "");
        if (i + 1 < props.size())
            out += " " + addRule(child(name, key) + "-rest", optionalTail(props, i + 1, true, name));
        return out;
    }

    // A JSON string that is none of the names (llama.cpp's _not_strings): a trie of the names, where
    // leaving it early or by another character is free.
    std::string notStrings(const std::vector<std::string>& names) {
        struct Node {
            std::map<char, Node> children;
            bool end = false;
        };
        Node trie;
        for (const std::string& n : names) {
            Node* at = &trie;
            for (char c : n)
                at = &at->children[c];
            at->end = true;
        }
        const std::string chars = addPrimitive("char", "char");
        // At a node: one of its children's characters and on, another character and anything after it,
        // or the end of the string when what came so far is not a name.
        std::function<std::string(const Node&)> visitNode = [&](const Node& node) {
            std::string out = "(";
            std::string others = R"([^"\\\x7F\x00-\x1F)";
            for (const auto& [c, next] : node.children) {
                out +=
                    literal(std::string(1, c)) + " " + (next.children.empty() ? chars + "+" : visitNode(next)) + " | ";
                others += (c == ']' || c == '\\' || c == '-' || c == '^') ? std::string("\\") + c : std::string(1, c);
            }
            out += others + "] " + chars + "*";
            if (!node.end)
                out += " | ";
            return out + ")";
        };
        return R"("\"" )" + visitNode(trie) + R"( "\"" space)";
    }

    std::string arrayRule(const QJsonObject& schema, const std::string& name, const std::string& ruleFor,
                          const QString& path) {
        const bool tuple = schema.contains(QLatin1String("prefixItems"));
        const QJsonValue items = schema.value(QLatin1String(tuple ? "prefixItems" : "items"));
        if (items.isArray()) {
            std::string rule = R"("[" space )";
            const QJsonArray list = items.toArray();
            for (int i = 0; i < list.size(); ++i)
                rule +=
                    (i ? R"( "," space )" : "") +
                    visit(list[i], child(name, "tuple-" + std::to_string(i)),
                          path + QStringLiteral("/%1/%2").arg(QLatin1String(tuple ? "prefixItems" : "items")).arg(i));
            return addRule(ruleFor, rule + R"( space "]")");
        }
        const std::string item = visit(items, child(name, "item"), path + QStringLiteral("/items"));
        int min = 0;
        std::optional<int> max;
        if (!count(schema, "minItems", path, min) || !count(schema, "maxItems", path, max))
            return {};
        if (max && *max < min)
            return fail(path, QStringLiteral("maxItems %1 is below minItems %2").arg(*max).arg(min));
        return addRule(ruleFor, R"("[" space )" + repetition(item, min, max, R"("," space)") + R"( space "]")");
    }

    std::string formatRule(const QString& format, const std::string& ruleFor, const QString& path) {
        if (format == QLatin1String("uuid"))
            return addPrimitive(ruleFor == "root" ? "root" : "uuid", "uuid");
        if (format == QLatin1String("date") || format == QLatin1String("time") ||
            format == QLatin1String("date-time")) {
            const std::string primitive = format.toStdString() + "-string";
            return addRule(ruleFor, addPrimitive(primitive, primitive));
        }
        return fail(path + QStringLiteral("/format"),
                    QStringLiteral("the format '%1' is not supported (date, time, date-time, uuid are)").arg(format));
    }

    std::string patternRule(const QJsonValue& value, const std::string& ruleFor, const QString& path);

    const QJsonValue m_root;
    std::map<std::string, std::string> m_rules;
    std::set<QString> m_resolving;
    std::optional<Error> m_error;
    int m_depth = 0;
};

// A JSON schema pattern (ECMA regular expression) as a GBNF expression for the characters of a JSON
// string: literals, classes, ., \d \w \s and their negations, groups, alternatives and repetitions. What a
// JSON string must escape is spelled escaped; classes never produce a quote, a backslash or a control
// character (the generated strings are a subset of the pattern's where it would).
class PatternTranslator {
public:
    explicit PatternTranslator(std::string pattern)
        : m_src(std::move(pattern)) {}

    // The expression, and whether the pattern was anchored at its start and its end.
    std::optional<std::string> translate(bool& anchoredStart, bool& anchoredEnd) {
        std::size_t end = m_src.size();
        anchoredStart = !m_src.empty() && m_src[0] == '^';
        anchoredEnd = end > 0 && m_src[end - 1] == '$' && (end < 2 || m_src[end - 2] != '\\');
        m_pos = anchoredStart ? 1 : 0;
        m_end = anchoredEnd ? end - 1 : end;
        std::optional<std::string> body = alternatives();
        if (body && m_pos != m_end)
            return failed(m_src[m_pos] == ')' ? "unbalanced parentheses" : "an anchor or character it cannot place");
        return body;
    }
    const std::string& error() const { return m_error; }

private:
    std::optional<std::string> failed(const std::string& why) {
        if (m_error.empty())
            m_error = why + " at character " + std::to_string(m_pos + 1);
        return std::nullopt;
    }
    bool more() const { return m_pos < m_end; }

    std::optional<std::string> alternatives() {
        std::vector<std::string> options;
        bool nullable = false;
        for (;;) {
            std::optional<std::string> sequence = this->sequence();
            if (!sequence)
                return std::nullopt;
            nullable = nullable || m_nullable;
            options.push_back(*sequence);
            if (!more() || m_src[m_pos] != '|')
                break;
            ++m_pos;
        }
        m_nullable = nullable;
        if (options.size() == 1)
            return options[0];
        std::string out = "(";
        for (std::size_t i = 0; i < options.size(); ++i)
            out += (i ? " | " : "") + options[i];
        return out + ")";
    }

    std::optional<std::string> sequence() {
        std::string out;
        bool nullable = true;
        while (more() && m_src[m_pos] != '|' && m_src[m_pos] != ')') {
            std::optional<std::string> atom = this->atom();
            if (!atom)
                return std::nullopt;
            std::optional<std::string> quantified = quantifier(*atom);
            if (!quantified)
                return std::nullopt;
            nullable = nullable && m_nullable;
            out += (out.empty() ? "" : " ") + *quantified;
        }
        m_nullable = nullable;
        return out.empty() ? std::string("\"\"") : out;
    }

    std::optional<std::string> quantifier(const std::string& atom) {
        if (!more())
            return atom;
        const char c = m_src[m_pos];
        std::string suffix;
        if (c == '*' || c == '+' || c == '?') {
            ++m_pos;
            suffix = std::string(1, c);
        } else if (c == '{') {
            const std::size_t close = m_src.find('}', m_pos);
            if (close == std::string::npos || close >= m_end)
                return failed("an unclosed {");
            const std::string inner = m_src.substr(m_pos + 1, close - m_pos - 1);
            const std::size_t comma = inner.find(',');
            const std::string low = inner.substr(0, comma);
            const std::string high = comma == std::string::npos ? low : inner.substr(comma + 1);
            const auto number = [](const std::string& digits) {
                return !digits.empty() && digits.size() <= 5 &&
                       std::all_of(digits.begin(), digits.end(), [](char d) { return d >= '0' && d <= '9'; });
            };
            if (!number(low) || (!high.empty() && !number(high)) || inner.find(',', comma + 1) != std::string::npos ||
                std::stoi(low) > 10000 || (!high.empty() && std::stoi(high) > 10000))
                return failed("a repetition {" + inner + "} that is not {m}, {m,} or {m,n} with counts up to 10000");
            if (!high.empty() && std::stoi(high) < std::stoi(low))
                return failed("a repetition {" + inner + "} whose maximum is below its minimum");
            suffix = "{" + inner + "}";
            m_pos = close + 1;
        } else {
            return atom;
        }
        if (more() && m_src[m_pos] == '?') // lazy: the same strings
            ++m_pos;
        // GBNF writes an unbounded repetition as a rule that calls itself after the item: left-recursive
        // when the item can match nothing.
        const bool unbounded =
            suffix == "*" || suffix == "+" || suffix.back() == ',' || suffix.find(",}") != std::string::npos;
        if (unbounded && m_nullable)
            return failed("an unbounded repetition of a part that can match nothing");
        m_nullable = m_nullable || suffix == "*" || suffix == "?" || suffix.rfind("{0", 0) == 0;
        return "(" + atom + ")" + suffix;
    }

    // One character of the pattern as a GBNF literal of the JSON string's text.
    static std::string jsonChar(unsigned char c) {
        if (c == '"')
            return R"("\\\"")";
        if (c == '\\')
            return R"("\\\\")";
        if (c < 0x20) {
            static const char* hex = "0123456789abcdef";
            return std::string(R"("\\u00)") + hex[c >> 4] + hex[c & 15] + '"';
        }
        return literal(std::string(1, static_cast<char>(c)));
    }

    static constexpr const char* kSafe = R"("\\\x7F\x00-\x1F)";

    std::optional<std::string> classEscape(char e, bool inClass) {
        switch (e) {
        case 'd':
            return inClass ? std::string("0-9") : std::string("[0-9]");
        case 'w':
            return inClass ? std::string("a-zA-Z0-9_") : std::string("[a-zA-Z0-9_]");
        case 's':
            return inClass ? std::string(" ") : std::string("[ ]");
        case 'D':
            return inClass ? std::optional<std::string>() : std::string("[^0-9") + kSafe + "]";
        case 'W':
            return inClass ? std::optional<std::string>() : std::string("[^a-zA-Z0-9_") + kSafe + "]";
        case 'S':
            return inClass ? std::optional<std::string>() : std::string("[^ \\t\\n\\r") + kSafe + "]";
        default:
            return std::nullopt;
        }
    }

    std::optional<std::string> atom() {
        const char c = m_src[m_pos++];
        m_nullable = false;
        if (c == '(') {
            if (m_src.compare(m_pos, 2, "?:") == 0)
                m_pos += 2;
            else if (more() && m_src[m_pos] == '?')
                return failed("a group kind other than (?:...)");
            std::optional<std::string> inner = alternatives(); // sets m_nullable
            if (!inner)
                return std::nullopt;
            if (!more() || m_src[m_pos] != ')')
                return failed("unbalanced parentheses");
            ++m_pos;
            return "(" + *inner + ")";
        }
        if (c == '[')
            return characterClass();
        if (c == '.')
            return std::string("[^") + kSafe + "]";
        if (c == '^' || c == '$')
            return failed("an anchor inside the pattern");
        if (c == '*' || c == '+' || c == '?' || c == '{')
            return failed("a repetition of nothing");
        if (c == '\\') {
            if (!more())
                return failed("a trailing backslash");
            const char e = m_src[m_pos++];
            if (std::optional<std::string> set = classEscape(e, false))
                return set;
            if (e == 'n' || e == 't' || e == 'r')
                return jsonChar(e == 'n' ? '\n' : e == 't' ? '\t' : '\r');
            if (std::string("\\^$.|?*+()[]{}/-\"").find(e) != std::string::npos)
                return jsonChar(static_cast<unsigned char>(e));
            return failed(std::string("the escape \\") + e);
        }
        if (static_cast<unsigned char>(c) >= 0x80) {
            std::string bytes;
            (void)restOfCharacter(c, bytes);
            return literal(bytes);
        }
        return jsonChar(static_cast<unsigned char>(c));
    }

    // A character whose first byte (lead) was just read: the rest of its UTF-8 bytes taken too; its code point.
    std::uint32_t restOfCharacter(char lead, std::string& bytes) {
        const auto first = static_cast<unsigned char>(lead);
        bytes.assign(1, lead);
        const int length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1;
        std::uint32_t cp = length == 1 ? first : first & (0xFFu >> (length + 1));
        for (int i = 1; i < length && more() && (static_cast<unsigned char>(m_src[m_pos]) & 0xC0) == 0x80; ++i) {
            cp = cp << 6 | (static_cast<unsigned char>(m_src[m_pos]) & 0x3F);
            bytes += m_src[m_pos++];
        }
        return cp;
    }

    std::optional<std::string> characterClass() {
        std::string out = "[";
        const bool negated = more() && m_src[m_pos] == '^';
        if (negated) {
            out += '^';
            ++m_pos;
        }
        bool first = true;
        long previous = -1;  // the last single character, which a '-' may start a range from
        long rangeFrom = -1; // set after such a '-'
        while (more() && (m_src[m_pos] != ']' || first)) {
            first = false;
            bool escaped = false;
            char c = m_src[m_pos++];
            if (c == '\\') {
                if (!more())
                    return failed("a trailing backslash");
                const char e = m_src[m_pos++];
                if (std::optional<std::string> set = classEscape(e, true)) {
                    if (rangeFrom >= 0)
                        return failed("a range that ends in a class escape");
                    out += *set;
                    previous = -1;
                    continue;
                }
                escaped = true;
                if (e == 'D' || e == 'W' || e == 'S')
                    return failed(std::string("\\") + e + " inside a class");
                c = e;
            }
            if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20)
                return failed("a class holding a quote, a backslash or a control character");
            if (c == '-' && !escaped && previous >= 0 && rangeFrom < 0 && more() && m_src[m_pos] != ']') {
                rangeFrom = previous; // the next character ends a range
                out += c;
                continue;
            }
            std::string bytes(1, c);
            const long cp = static_cast<unsigned char>(c) >= 0x80 ? long(restOfCharacter(c, bytes))
                                                                  : long(static_cast<unsigned char>(c));
            if (rangeFrom >= 0 && cp < rangeFrom)
                return failed("a range whose end comes before its start");
            previous = rangeFrom >= 0 ? -1 : cp;
            rangeFrom = -1;
            if (c == ']' || c == '[' || c == '^' || c == '-')
                out += '\\';
            out += bytes;
        }
        if (!more())
            return failed("an unclosed [");
        ++m_pos;
        if (negated)
            out += kSafe;
        return out + "]";
    }

    std::string m_src;
    std::size_t m_pos = 0;
    std::size_t m_end = 0;
    std::string m_error;
    bool m_nullable = false; // whether the part just translated can match nothing
};

std::string SchemaConverter::patternRule(const QJsonValue& value, const std::string& ruleFor, const QString& path) {
    if (!value.isString())
        return fail(path, QStringLiteral("pattern must be a string"));
    PatternTranslator translator(value.toString().toStdString());
    bool anchoredStart = false;
    bool anchoredEnd = false;
    const std::optional<std::string> body = translator.translate(anchoredStart, anchoredEnd);
    if (!body)
        return fail(path, QStringLiteral("the pattern '%1' is not supported: %2")
                              .arg(value.toString(), QString::fromStdString(translator.error())));
    const std::string any = anchoredStart && anchoredEnd ? std::string() : addPrimitive("char", "char") + "*";
    return addRule(ruleFor,
                   R"("\"" )" + (anchoredStart ? "" : any + " ") + *body + (anchoredEnd ? "" : " " + any) + R"( "\"")");
}

} // namespace

std::string anyJsonGbnf() {
    std::string out = "root ::= value\n";
    for (const char* name : {"value", "object", "array", "string", "char", "number", "integral-part", "decimal-part",
                             "boolean", "null", "space"})
        out += std::string(name) + " ::= " + primitives().at(name).first + "\n";
    return out;
}

Result<std::string> jsonSchemaToGbnf(const QJsonValue& schema) {
    return SchemaConverter(schema).convert();
}

} // namespace swb
