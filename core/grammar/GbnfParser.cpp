#include "grammar/Grammar.h"

#include <algorithm>
#include <map>
#include <optional>

namespace swb {

namespace {

using Type = GrammarElement::Type;

// Repetition counts beyond this are refused: x{100000} would expand to as many copies.
constexpr std::uint32_t kMaxRepetition = 10000;
// Elements of all rules together, after repetitions are expanded.
constexpr std::size_t kMaxElements = 4'000'000;

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// A syntax error: where, and what was expected.
struct ParseError {
    std::size_t at = 0;
    QString message;
};

class GbnfParser {
public:
    explicit GbnfParser(std::string_view text)
        : m_text(text) {}

    Result<Grammar> parse() {
        if (std::optional<ParseError> failed = parseRules())
            return error(failed->at, failed->message);
        for (std::size_t id = 0; id < m_grammar.names.size(); ++id)
            if (!m_defined[id])
                return error(m_firstUse[id], QStringLiteral("rule '%1' is used but never defined")
                                                 .arg(QString::fromStdString(m_grammar.names[id])));
        const auto root = m_symbols.find("root");
        if (root == m_symbols.end())
            return Error::badInput(QStringLiteral("the grammar has no rule named 'root'"));
        m_grammar.root = root->second;
        if (Status s = checkLeftRecursion(); !s)
            return s.error();
        if (!productive()[m_grammar.root])
            return Error::badInput(QStringLiteral("the grammar accepts no string: 'root' never finishes (every "
                                                  "alternative needs a rule that never finishes)"));
        return std::move(m_grammar);
    }

private:
    Error error(std::size_t at, const QString& message) const {
        std::size_t line = 1;
        std::size_t column = 1;
        for (std::size_t i = 0; i < at && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80) {
                ++column;
            }
        }
        return Error::badInput(QStringLiteral("grammar line %1, column %2: %3").arg(line).arg(column).arg(message));
    }

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek(std::size_t ahead = 0) const { return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0'; }

    void skipSpace(bool newlineOk) {
        while (!atEnd()) {
            const char c = peek();
            if (c == ' ' || c == '\t' || c == '\r' || (newlineOk && c == '\n')) {
                ++m_pos;
            } else if (c == '#') {
                while (!atEnd() && peek() != '\n')
                    ++m_pos;
            } else {
                break;
            }
        }
    }

    std::uint32_t symbol(const std::string& name, std::size_t usedAt) {
        const auto [it, added] = m_symbols.emplace(name, static_cast<std::uint32_t>(m_grammar.names.size()));
        if (added) {
            m_grammar.names.push_back(name);
            m_grammar.rules.emplace_back();
            m_defined.push_back(false);
            m_firstUse.push_back(usedAt);
            m_origin.push_back(static_cast<std::uint32_t>(m_origin.size()));
        }
        return it->second;
    }

    std::uint32_t generatedSymbol(const std::string& base) {
        std::string name;
        do
            name = base + '_' + std::to_string(m_generated++);
        while (m_symbols.contains(name));
        const std::uint32_t id = symbol(name, m_pos);
        m_defined[id] = true;
        m_origin[id] = m_origin[m_symbols.find(base)->second];
        return id;
    }

    std::optional<ParseError> parseRules() {
        if (m_text.size() > kMaxGbnfBytes)
            return ParseError{0, QStringLiteral("the grammar is %1 bytes; at most %2 are accepted")
                                     .arg(m_text.size())
                                     .arg(kMaxGbnfBytes)};
        skipSpace(true);
        if (atEnd())
            return ParseError{m_pos, QStringLiteral("the grammar is empty")};
        while (!atEnd()) {
            if (std::optional<ParseError> failed = parseRule())
                return failed;
            skipSpace(true);
        }
        return std::nullopt;
    }

    std::optional<ParseError> parseRule() {
        const std::size_t start = m_pos;
        while (!atEnd() && isNameChar(peek()))
            ++m_pos;
        if (m_pos == start)
            return ParseError{m_pos, QStringLiteral("expected a rule name")};
        const std::string name(m_text.substr(start, m_pos - start));
        skipSpace(false);
        if (m_text.substr(m_pos, 3) != "::=")
            return ParseError{
                m_pos, QStringLiteral("expected '::=' after the rule name '%1'").arg(QString::fromStdString(name))};
        m_pos += 3;
        skipSpace(true);
        const std::uint32_t id = symbol(name, start);
        if (m_defined[id])
            return ParseError{start, QStringLiteral("rule '%1' is defined twice").arg(QString::fromStdString(name))};
        m_defined[id] = true;
        std::vector<GrammarElement> rule;
        if (std::optional<ParseError> failed = parseAlternatives(name, rule, false))
            return failed;
        m_grammar.rules[id] = std::move(rule);
        skipSpace(false);
        if (!atEnd() && peek() != '\n')
            return ParseError{
                m_pos,
                QStringLiteral("expected the end of the line after the rule '%1'").arg(QString::fromStdString(name))};
        return std::nullopt;
    }

    std::optional<ParseError> parseAlternatives(const std::string& name, std::vector<GrammarElement>& out,
                                                bool nested) {
        if (std::optional<ParseError> failed = parseSequence(name, out, nested))
            return failed;
        while (peek() == '|') {
            ++m_pos;
            skipSpace(true);
            out.push_back({Type::Alt, 0});
            if (std::optional<ParseError> failed = parseSequence(name, out, nested))
                return failed;
        }
        out.push_back({Type::End, 0});
        return std::nullopt;
    }

    // One code point of a literal or a class, escapes decoded.
    std::optional<ParseError> parseChar(std::uint32_t& cp) {
        if (atEnd())
            return ParseError{m_pos, QStringLiteral("unexpected end of the grammar")};
        const auto lead = static_cast<unsigned char>(peek());
        if (lead == '\\') {
            const char kind = peek(1);
            m_pos += 2;
            switch (kind) {
            case 'n':
                cp = '\n';
                return std::nullopt;
            case 'r':
                cp = '\r';
                return std::nullopt;
            case 't':
                cp = '\t';
                return std::nullopt;
            case '\\':
            case '"':
            case '[':
            case ']':
            case '-':
            case '^':
                cp = static_cast<unsigned char>(kind);
                return std::nullopt;
            case 'x':
                return parseHex(2, cp);
            case 'u':
                return parseHex(4, cp);
            case 'U':
                return parseHex(8, cp);
            default:
                return ParseError{m_pos - 2, QStringLiteral("unknown escape '\\%1'").arg(QChar::fromLatin1(kind))};
            }
        }
        // A UTF-8 sequence; a byte that does not start a valid one stands for itself.
        std::size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        cp = length == 1 ? lead : lead & (0xFF >> (length + 1));
        for (std::size_t i = 1; i < length; ++i) {
            const auto next = static_cast<unsigned char>(peek(i));
            if ((next & 0xC0) != 0x80)
                return ParseError{m_pos, QStringLiteral("invalid UTF-8 in the grammar")};
            cp = (cp << 6) | (next & 0x3F);
        }
        m_pos += length;
        return std::nullopt;
    }

    std::optional<ParseError> parseHex(int digits, std::uint32_t& cp) {
        cp = 0;
        for (int i = 0; i < digits; ++i) {
            const char c = peek();
            int value = -1;
            if (c >= '0' && c <= '9')
                value = c - '0';
            else if (c >= 'a' && c <= 'f')
                value = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F')
                value = c - 'A' + 10;
            if (value < 0)
                return ParseError{m_pos, QStringLiteral("expected %1 hexadecimal digits").arg(digits)};
            cp = cp * 16 + static_cast<std::uint32_t>(value);
            ++m_pos;
        }
        if (cp > 0x10FFFF)
            return ParseError{m_pos, QStringLiteral("code point U+%1 is beyond Unicode").arg(cp, 0, 16)};
        return std::nullopt;
    }

    std::optional<ParseError> parseLiteral(std::vector<GrammarElement>& out) {
        const std::size_t open = m_pos++;
        while (peek() != '"') {
            if (atEnd() || peek() == '\n')
                return ParseError{open, QStringLiteral("the string literal is not closed")};
            std::uint32_t cp = 0;
            if (std::optional<ParseError> failed = parseChar(cp))
                return failed;
            out.push_back({Type::Char, cp});
        }
        ++m_pos;
        return std::nullopt;
    }

    std::optional<ParseError> parseClass(std::vector<GrammarElement>& out) {
        const std::size_t open = m_pos++;
        Type first = Type::Char;
        if (peek() == '^') {
            first = Type::CharNot;
            ++m_pos;
        }
        const std::size_t start = out.size();
        while (peek() != ']') {
            if (atEnd() || peek() == '\n')
                return ParseError{open, QStringLiteral("the character class is not closed")};
            std::uint32_t low = 0;
            if (std::optional<ParseError> failed = parseChar(low))
                return failed;
            out.push_back({out.size() == start ? first : Type::CharAlt, low});
            if (peek() == '-' && peek(1) != ']') {
                ++m_pos;
                std::uint32_t high = 0;
                const std::size_t at = m_pos;
                if (std::optional<ParseError> failed = parseChar(high))
                    return failed;
                if (high < low)
                    return ParseError{at, QStringLiteral("the range's end comes before its start")};
                out.push_back({Type::CharRangeUpper, high});
            }
        }
        if (out.size() == start) // [] matches nothing, [^] anything
            out.push_back({first, 0x110000});
        ++m_pos;
        return std::nullopt;
    }

    std::optional<ParseError> parseCount(std::uint32_t& value) {
        const std::size_t start = m_pos;
        std::uint64_t number = 0;
        while (peek() >= '0' && peek() <= '9') {
            number = number * 10 + static_cast<std::uint64_t>(peek() - '0');
            if (number > kMaxRepetition)
                return ParseError{start, QStringLiteral("a repetition count is at most %1").arg(kMaxRepetition)};
            ++m_pos;
        }
        if (m_pos == start)
            return ParseError{m_pos, QStringLiteral("expected a number")};
        value = static_cast<std::uint32_t>(number);
        return std::nullopt;
    }

    // x{min,max} (max 0 with unbounded: no upper limit) on out[from, end): min copies, then the optional
    // rest as generated rules, the way llama.cpp expands them.
    std::optional<ParseError> repeat(const std::string& name, std::vector<GrammarElement>& out, std::size_t from,
                                     std::uint32_t min, std::uint32_t max, bool unbounded) {
        const std::vector<GrammarElement> item(out.begin() + static_cast<std::ptrdiff_t>(from), out.end());
        out.resize(from);
        if (item.size() * std::max<std::size_t>(min, 1) + m_elements > kMaxElements)
            return ParseError{m_pos, QStringLiteral("the grammar is too large once repetitions are expanded")};
        for (std::uint32_t i = 0; i < min; ++i)
            out.insert(out.end(), item.begin(), item.end());
        m_elements += item.size() * min;
        if (unbounded) { // R ::= item R | (empty)
            const std::uint32_t rule = generatedSymbol(name);
            std::vector<GrammarElement> body = item;
            body.push_back({Type::RuleRef, rule});
            body.push_back({Type::Alt, 0});
            body.push_back({Type::End, 0});
            m_grammar.rules[rule] = std::move(body);
            out.push_back({Type::RuleRef, rule});
            return std::nullopt;
        }
        if (max == min)
            return std::nullopt;
        if (item.size() * (max - min) + m_elements > kMaxElements)
            return ParseError{m_pos, QStringLiteral("the grammar is too large once repetitions are expanded")};
        // R1 ::= item R2 | (empty); ... Rk ::= item | (empty)
        std::uint32_t next = 0;
        bool hasNext = false;
        for (std::uint32_t i = 0; i < max - min; ++i) {
            const std::uint32_t rule = generatedSymbol(name);
            std::vector<GrammarElement> body = item;
            if (hasNext)
                body.push_back({Type::RuleRef, next});
            body.push_back({Type::Alt, 0});
            body.push_back({Type::End, 0});
            m_elements += body.size();
            m_grammar.rules[rule] = std::move(body);
            next = rule;
            hasNext = true;
        }
        out.push_back({Type::RuleRef, next});
        return std::nullopt;
    }

    std::optional<ParseError> parseRepetition(const std::string& name, std::vector<GrammarElement>& out,
                                              std::optional<std::size_t> lastItem) {
        const char op = peek();
        if (!lastItem)
            return ParseError{m_pos, QStringLiteral("'%1' repeats nothing").arg(QChar::fromLatin1(op))};
        ++m_pos;
        if (op == '*')
            return repeat(name, out, *lastItem, 0, 0, true);
        if (op == '+')
            return repeat(name, out, *lastItem, 1, 0, true);
        if (op == '?')
            return repeat(name, out, *lastItem, 0, 1, false);
        // {m}, {m,}, {m,n}, {,n}
        skipSpace(false);
        std::uint32_t min = 0;
        if (peek() != ',')
            if (std::optional<ParseError> failed = parseCount(min))
                return failed;
        skipSpace(false);
        std::uint32_t max = min;
        bool unbounded = false;
        if (peek() == ',') {
            ++m_pos;
            skipSpace(false);
            if (peek() == '}') {
                unbounded = true;
            } else if (std::optional<ParseError> failed = parseCount(max)) {
                return failed;
            }
            skipSpace(false);
        }
        if (peek() != '}')
            return ParseError{m_pos, QStringLiteral("expected '}' to close the repetition")};
        ++m_pos;
        if (!unbounded && max < min)
            return ParseError{m_pos - 1,
                              QStringLiteral("the repetition's maximum %1 is below its minimum %2").arg(max).arg(min)};
        return repeat(name, out, *lastItem, min, max, unbounded);
    }

    std::optional<ParseError> parseSequence(const std::string& name, std::vector<GrammarElement>& out, bool nested) {
        std::optional<std::size_t> lastItem;
        while (!atEnd()) {
            const char c = peek();
            const std::size_t itemStart = out.size();
            std::optional<ParseError> failed;
            if (c == '"') {
                failed = parseLiteral(out);
            } else if (c == '[') {
                failed = parseClass(out);
            } else if (c == '.') {
                ++m_pos;
                out.push_back({Type::CharAny, 0});
            } else if (c == '(') {
                const std::size_t open = m_pos++;
                skipSpace(true);
                const std::uint32_t rule = generatedSymbol(name);
                std::vector<GrammarElement> body;
                if ((failed = parseAlternatives(name, body, true)))
                    return failed;
                m_grammar.rules[rule] = std::move(body);
                if (peek() != ')')
                    return ParseError{open, QStringLiteral("the group opened here is not closed with ')'")};
                ++m_pos;
                out.push_back({Type::RuleRef, rule});
            } else if (isNameChar(c)) {
                const std::size_t start = m_pos;
                while (!atEnd() && isNameChar(peek()))
                    ++m_pos;
                out.push_back({Type::RuleRef, symbol(std::string(m_text.substr(start, m_pos - start)), start)});
            } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                failed = parseRepetition(name, out, lastItem);
                if (!failed) {
                    lastItem.reset(); // x** is not GBNF
                    skipSpace(nested);
                    continue;
                }
            } else if (c == '<' || (c == '!' && peek(1) == '<')) {
                return ParseError{m_pos, QStringLiteral("token references (<...>) are not supported; spell the text")};
            } else {
                break;
            }
            if (failed)
                return failed;
            lastItem = itemStart;
            m_elements += out.size() - itemStart;
            if (m_elements > kMaxElements)
                return ParseError{m_pos, QStringLiteral("the grammar has too many elements")};
            skipSpace(nested);
        }
        return std::nullopt;
    }

    // Rules that can match the empty string (a fixpoint over the alternatives).
    std::vector<bool> nullable() const {
        std::vector<bool> empty(m_grammar.rules.size(), false);
        for (bool changed = true; changed;) {
            changed = false;
            for (std::size_t r = 0; r < m_grammar.rules.size(); ++r) {
                if (empty[r])
                    continue;
                bool alternativeEmpty = true;
                for (const GrammarElement& e : m_grammar.rules[r]) {
                    if (e.type == Type::Alt || e.type == Type::End) {
                        if (alternativeEmpty) {
                            empty[r] = changed = true;
                            break;
                        }
                        alternativeEmpty = true;
                    } else if (e.type != Type::RuleRef || !empty[e.value]) {
                        if (e.type != Type::CharRangeUpper && e.type != Type::CharAlt)
                            alternativeEmpty = false;
                    }
                }
            }
        }
        return empty;
    }

    // Rules that can finish: some alternative of only characters and rules that can.
    std::vector<bool> productive() const {
        std::vector<bool> finishes(m_grammar.rules.size(), false);
        for (bool changed = true; changed;) {
            changed = false;
            for (std::size_t r = 0; r < m_grammar.rules.size(); ++r) {
                if (finishes[r])
                    continue;
                bool ok = true;
                for (const GrammarElement& e : m_grammar.rules[r]) {
                    if (e.type == Type::Alt || e.type == Type::End) {
                        if (ok) {
                            finishes[r] = changed = true;
                            break;
                        }
                        ok = true;
                    } else if (e.type == Type::RuleRef && !finishes[e.value]) {
                        ok = false;
                    }
                }
            }
        }
        return finishes;
    }

    // A rule that can reach itself without consuming a character loops forever (GBNF forbids it).
    Status checkLeftRecursion() const {
        const std::vector<bool> empty = nullable();
        const std::size_t n = m_grammar.rules.size();
        std::vector<std::vector<std::uint32_t>> leftEdges(n);
        for (std::size_t r = 0; r < n; ++r) {
            bool atStart = true;
            for (const GrammarElement& e : m_grammar.rules[r]) {
                if (e.type == Type::Alt || e.type == Type::End) {
                    atStart = true;
                } else if (atStart && e.type == Type::RuleRef) {
                    leftEdges[r].push_back(e.value);
                    atStart = empty[e.value];
                } else if (e.type != Type::CharRangeUpper && e.type != Type::CharAlt) {
                    atStart = false;
                }
            }
        }
        std::vector<std::uint8_t> state(n, 0); // 0 unvisited, 1 on the path, 2 done
        for (std::size_t start = 0; start < n; ++start) {
            if (state[start])
                continue;
            std::vector<std::pair<std::uint32_t, std::size_t>> path{{static_cast<std::uint32_t>(start), 0}};
            state[start] = 1;
            while (!path.empty()) {
                auto& [rule, next] = path.back();
                if (next == leftEdges[rule].size()) {
                    state[rule] = 2;
                    path.pop_back();
                    continue;
                }
                const std::uint32_t to = leftEdges[rule][next++];
                if (state[to] == 1)
                    return Error::badInput(QStringLiteral("the grammar is left-recursive: rule '%1' can reach "
                                                          "itself before matching any character")
                                               .arg(QString::fromStdString(userName(to))));
                if (state[to] == 0) {
                    state[to] = 1;
                    path.push_back({to, 0});
                }
            }
        }
        return {};
    }

    // The rule the user wrote that a rule belongs to (a group or repetition's generated rule: its parent).
    std::string userName(std::uint32_t rule) const { return m_grammar.names[m_origin[rule]]; }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_elements = 0;
    std::size_t m_generated = 0;
    std::map<std::string, std::uint32_t, std::less<>> m_symbols;
    std::vector<bool> m_defined;
    std::vector<std::size_t> m_firstUse;
    std::vector<std::uint32_t> m_origin;
    Grammar m_grammar;
};

} // namespace

Result<Grammar> parseGbnf(std::string_view text) {
    return GbnfParser(text).parse();
}

const GrammarElement* grammarCharSetEnd(const GrammarElement* set) {
    const GrammarElement* e = set + 1;
    while (e->type == Type::CharRangeUpper || e->type == Type::CharAlt)
        ++e;
    return e;
}

bool grammarCharMatches(const GrammarElement* set, std::uint32_t cp) {
    if (set->type == Type::CharAny)
        return true;
    const bool negated = set->type == Type::CharNot;
    bool found = false;
    const GrammarElement* e = set;
    do {
        if (e[1].type == Type::CharRangeUpper) {
            found = found || (e->value <= cp && cp <= e[1].value);
            e += 2;
        } else {
            found = found || e->value == cp;
            e += 1;
        }
    } while (e->type == Type::CharAlt);
    return found != negated;
}

} // namespace swb
