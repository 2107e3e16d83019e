#include "grammar/GrammarAutomaton.h"

#include <algorithm>
#include <tuple>

namespace swb {

namespace {

using Type = GrammarElement::Type;

bool endsAlternative(const GrammarElement& e) {
    return e.type == Type::End || e.type == Type::Alt;
}

// Partial UTF-8: value << 5 | length << 2 | bytes still to come (at most 3).
constexpr std::uint32_t partialPack(std::uint32_t value, std::uint32_t length, std::uint32_t remaining) {
    return value << 5 | length << 2 | remaining;
}
constexpr std::uint32_t partialValue(std::uint32_t p) {
    return p >> 5;
}
constexpr std::uint32_t partialLength(std::uint32_t p) {
    return (p >> 2) & 7;
}
constexpr std::uint32_t partialRemaining(std::uint32_t p) {
    return p & 3;
}

// Whether some code point in [low, high] matches the character set at `set`.
bool setMatchesRange(const GrammarElement* set, std::uint32_t low, std::uint32_t high) {
    if (set->type == Type::CharAny)
        return true;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
    const GrammarElement* e = set;
    do {
        if (e[1].type == Type::CharRangeUpper) {
            ranges.emplace_back(e->value, e[1].value);
            e += 2;
        } else {
            ranges.emplace_back(e->value, e->value);
            e += 1;
        }
    } while (e->type == Type::CharAlt);
    if (set->type == Type::Char)
        return std::any_of(ranges.begin(), ranges.end(), [&](auto r) { return r.first <= high && low <= r.second; });
    // Negated: is some point of [low, high] outside every range?
    std::sort(ranges.begin(), ranges.end());
    std::uint32_t candidate = low;
    for (const auto& [from, to] : ranges)
        if (from <= candidate && candidate <= to)
            candidate = to + 1;
    return candidate <= high;
}

} // namespace

GrammarAutomaton::GrammarAutomaton(Grammar grammar, std::shared_ptr<const TokenTrie> trie)
    : m_trie(std::move(trie)) {
    for (const std::vector<GrammarElement>& rule : grammar.rules) {
        m_ruleStart.push_back(static_cast<std::uint32_t>(m_elements.size()));
        m_elements.insert(m_elements.end(), rule.begin(), rule.end());
    }
    m_root = grammar.root;
    m_stacks.push_back({0, 0});
    m_afterChar.emplace_back();
    m_afterCharDone.push_back(1);
    m_sets.emplace_back();
    m_setIds.emplace(std::string(), 0);
    // The start: every alternative of root, expanded to its first characters.
    std::vector<std::uint32_t> stacks;
    for (std::uint32_t at = m_ruleStart[m_root];; ++at) {
        if (endsAlternative(m_elements[at]))
            expand(0, stacks);
        else
            expand(stack(at, 0), stacks);
        while (!endsAlternative(m_elements[at]))
            ++at;
        if (m_elements[at].type == Type::End)
            break;
    }
    // Room for the states a typical schema meets, so that the first walks do not spend their time growing tables.
    m_rows.reserve(std::size_t{1024} * 256);
    m_positions.reserve(1024);
    m_positionIds.reserve(1024);
    m_steps.reserve(std::size_t{1} << 15);
    m_positions.push_back({}); // 0: dead
    m_rows.assign(256, 0);
    m_allowed.emplace_back();
    m_start = internPosition({internSet(stacks), 0});
}

Result<std::shared_ptr<GrammarAutomaton>> GrammarAutomaton::shared(const std::string& gbnf,
                                                                   std::shared_ptr<const TokenTrie> trie) {
    static std::mutex mutex;
    static std::vector<std::tuple<std::string, const TokenTrie*, std::weak_ptr<GrammarAutomaton>>> known;
    {
        std::lock_guard lock(mutex);
        std::erase_if(known, [](const auto& entry) { return std::get<2>(entry).expired(); });
        for (const auto& [text, over, automaton] : known)
            if (over == trie.get() && text == gbnf)
                if (std::shared_ptr<GrammarAutomaton> alive = automaton.lock())
                    return alive;
    }
    Result<Grammar> grammar = parseGbnf(gbnf);
    if (!grammar)
        return grammar.error();
    const TokenTrie* over = trie.get();
    auto automaton = std::make_shared<GrammarAutomaton>(std::move(grammar).value(), std::move(trie));
    std::lock_guard lock(mutex);
    known.emplace_back(gbnf, over, automaton);
    return automaton;
}

std::uint32_t GrammarAutomaton::stack(std::uint32_t top, std::uint32_t below) {
    const std::uint64_t key = std::uint64_t{top} << 32 | below;
    const auto [it, added] = m_stackIds.emplace(key, static_cast<std::uint32_t>(m_stacks.size()));
    if (added) {
        m_stacks.push_back({top, below});
        m_afterChar.emplace_back();
        m_afterCharDone.push_back(0);
    }
    return it->second;
}

// Appends the stacks `id` stands for once every rule reference on top is replaced by the rule's
// alternatives: each ends with a character set on top, or is empty (the grammar is complete).
void GrammarAutomaton::expand(std::uint32_t id, std::vector<std::uint32_t>& out) {
    if (out.size() > 4 * kMaxOpenStacks) {
        m_overflowed = true;
        return;
    }
    if (id == 0) {
        out.push_back(0);
        return;
    }
    const StackNode node = m_stacks[id];
    const GrammarElement& top = m_elements[node.top];
    if (top.type != Type::RuleRef) {
        out.push_back(id);
        return;
    }
    // The reference is replaced by what follows it, and each alternative goes on top of that.
    const std::uint32_t rest = endsAlternative(m_elements[node.top + 1]) ? node.below : stack(node.top + 1, node.below);
    for (std::uint32_t at = m_ruleStart[top.value];; ++at) {
        if (endsAlternative(m_elements[at]))
            expand(rest, out);
        else
            expand(stack(at, rest), out);
        while (!endsAlternative(m_elements[at]))
            ++at;
        if (m_elements[at].type == Type::End)
            break;
    }
}

const std::vector<std::uint32_t>& GrammarAutomaton::afterChar(std::uint32_t id) {
    if (!m_afterCharDone[id]) {
        const StackNode node = m_stacks[id];
        const std::uint32_t next =
            static_cast<std::uint32_t>(grammarCharSetEnd(&m_elements[node.top]) - m_elements.data());
        std::vector<std::uint32_t> stacks;
        expand(endsAlternative(m_elements[next]) ? node.below : stack(next, node.below), stacks);
        std::sort(stacks.begin(), stacks.end());
        stacks.erase(std::unique(stacks.begin(), stacks.end()), stacks.end());
        m_afterChar[id] = std::move(stacks);
        m_afterCharDone[id] = 1;
    }
    return m_afterChar[id];
}

std::uint32_t GrammarAutomaton::internSet(std::vector<std::uint32_t>& stacks) {
    std::sort(stacks.begin(), stacks.end());
    stacks.erase(std::unique(stacks.begin(), stacks.end()), stacks.end());
    if (stacks.empty())
        return 0;
    std::string key(reinterpret_cast<const char*>(stacks.data()), stacks.size() * sizeof(std::uint32_t));
    const auto [it, added] = m_setIds.emplace(std::move(key), static_cast<std::uint32_t>(m_sets.size()));
    if (added)
        m_sets.push_back(stacks);
    return it->second;
}

// The set after one whole code point.
std::uint32_t GrammarAutomaton::step(std::uint32_t set, std::uint32_t cp) {
    const std::uint64_t key = std::uint64_t{set} << 21 | cp;
    if (const auto found = m_steps.find(key); found != m_steps.end())
        return found->second;
    std::vector<std::uint32_t> next;
    for (std::uint32_t id : m_sets[set])
        if (id != 0 && grammarCharMatches(&m_elements[m_stacks[id].top], cp)) {
            const std::vector<std::uint32_t>& after = afterChar(id);
            next.insert(next.end(), after.begin(), after.end());
        }
    std::uint32_t result = 0;
    if (m_overflowed || next.size() > 4 * kMaxOpenStacks) {
        m_overflowed = true;
    } else {
        result = internSet(next);
        if (m_sets[result].size() > kMaxOpenStacks) {
            m_overflowed = true;
            result = 0;
        }
    }
    m_steps.emplace(key, result);
    return result;
}

// Whether some code point starting with the partial character's bytes can come next.
bool GrammarAutomaton::partialViable(std::uint32_t set, std::uint32_t partial) const {
    const std::uint32_t remaining = partialRemaining(partial);
    static constexpr std::uint32_t kLowest[5] = {0, 0, 0x80, 0x800, 0x10000};
    const std::uint32_t low = std::max(partialValue(partial) << (6 * remaining), kLowest[partialLength(partial)]);
    const std::uint32_t high = std::min(((partialValue(partial) + 1) << (6 * remaining)) - 1, 0x10FFFFu);
    // Surrogates are not characters of UTF-8: only the parts of the range outside them count.
    const std::pair<std::uint32_t, std::uint32_t> parts[2] = {{low, std::min(high, 0xD7FFu)},
                                                              {std::max(low, 0xE000u), high}};
    return std::any_of(m_sets[set].begin(), m_sets[set].end(), [&](std::uint32_t id) {
        return id != 0 && std::any_of(std::begin(parts), std::end(parts), [&](const auto& part) {
                   return part.first <= part.second &&
                          setMatchesRange(&m_elements[m_stacks[id].top], part.first, part.second);
               });
    });
}

// One byte: completes a code point or extends the partial one; dead on invalid UTF-8 or a character the
// grammar cannot take.
std::uint32_t GrammarAutomaton::internPosition(Position position) {
    if (position.set == 0)
        return 0;
    const std::uint64_t key = std::uint64_t{position.set} << 32 | position.partial;
    const auto [it, added] = m_positionIds.emplace(key, static_cast<std::uint32_t>(m_positions.size()));
    if (added) {
        m_positions.push_back(position);
        m_rows.resize(m_rows.size() + 256, kUnknown);
        m_allowed.emplace_back();
    }
    return it->second;
}

std::uint32_t GrammarAutomaton::feedUncached(std::uint32_t state, std::uint8_t byte) {
    const std::uint32_t next = internPosition(byteStep(m_positions[state], byte));
    m_rows[std::size_t{state} * 256 + byte] = next;
    return next;
}

GrammarAutomaton::Position GrammarAutomaton::byteStep(Position state, std::uint8_t byte) {
    if (partialRemaining(state.partial) == 0) {
        if (byte < 0x80)
            return {step(state.set, byte), 0};
        const std::uint32_t length = byte >= 0xF8 ? 0 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0;
        if (length == 0)
            return {0, 0};
        const std::uint32_t partial = partialPack(byte & (0xFFu >> (length + 1)), length, length - 1);
        return partialViable(state.set, partial) ? Position{state.set, partial} : Position{0, 0};
    }
    if ((byte & 0xC0) != 0x80)
        return {0, 0};
    const std::uint32_t value = partialValue(state.partial) << 6 | (byte & 0x3F);
    const std::uint32_t remaining = partialRemaining(state.partial) - 1;
    const std::uint32_t length = partialLength(state.partial);
    if (remaining > 0) {
        const std::uint32_t partial = partialPack(value, length, remaining);
        return partialViable(state.set, partial) ? Position{state.set, partial} : Position{0, 0};
    }
    static constexpr std::uint32_t kLowest[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (value < kLowest[length] || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return {0, 0}; // overlong, beyond Unicode, or a surrogate (not UTF-8: RFC 3629)
    return {step(state.set, value), 0};
}

GrammarAutomaton::State GrammarAutomaton::start() {
    return {m_start};
}

GrammarAutomaton::State GrammarAutomaton::advance(State state, std::string_view bytes) {
    std::lock_guard lock(m_mutex);
    for (char c : bytes) {
        if (dead(state))
            break;
        state.id = feed(state.id, static_cast<std::uint8_t>(c));
    }
    return state;
}

bool GrammarAutomaton::complete(State state) {
    std::lock_guard lock(m_mutex);
    const Position position = m_positions[state.id];
    const std::vector<std::uint32_t>& stacks = m_sets[position.set];
    return partialRemaining(position.partial) == 0 && !stacks.empty() && stacks.front() == 0;
}

void GrammarAutomaton::walk(std::uint32_t nodeIndex, std::uint32_t state, std::vector<std::uint64_t>& bits) {
    const TokenTrie::Node& node = m_trie->node(nodeIndex);
    for (std::uint32_t edge = node.firstChild; edge < node.firstChild + node.childCount; ++edge) {
        const std::uint32_t next = feed(state, m_trie->childByte(edge));
        if (next == 0)
            continue;
        const std::uint32_t child = m_trie->childNode(edge);
        for (TokenId id : m_trie->tokensAt(m_trie->node(child)))
            bits[static_cast<std::size_t>(id) / 64] |= std::uint64_t{1} << (id % 64);
        walk(child, next, bits);
    }
}

std::shared_ptr<const std::vector<std::uint64_t>> GrammarAutomaton::allowed(State state) {
    std::lock_guard lock(m_mutex);
    if (m_allowed[state.id])
        return m_allowed[state.id];
    auto bits = std::make_shared<std::vector<std::uint64_t>>(static_cast<std::size_t>(m_trie->vocabSize()) / 64 + 1, 0);
    if (!dead(state))
        walk(0, state.id, *bits);
    // A long run through many states keeps at most 64 MB of answers.
    m_allowedBytes += bits->size() * sizeof(std::uint64_t);
    if (m_allowedBytes > (std::size_t{64} << 20)) {
        for (auto& kept : m_allowed)
            kept.reset();
        m_allowedBytes = bits->size() * sizeof(std::uint64_t);
    }
    m_allowed[state.id] = bits;
    return bits;
}

} // namespace swb
