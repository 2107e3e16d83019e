#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "grammar/Grammar.h"
#include "grammar/TokenTrie.h"

namespace swb {

// Runs a Grammar over bytes the way llama.cpp's grammar sampler does: a state is the set of parse stacks
// (positions in the rules, innermost last) that the text so far leaves open, plus the first bytes of a
// UTF-8 character not yet complete. Stacks, stack sets and states are interned as they are met, and each
// state's 256 byte steps kept in a row as they are found: the automaton becomes, lazily, a DFA over bytes,
// and the trie walk of allowed() an array lookup per edge. allowed() keeps its answer per state.
// Thread-safe (one lock; a chain's clones share one automaton).
class GrammarAutomaton {
public:
    GrammarAutomaton(Grammar grammar, std::shared_ptr<const TokenTrie> trie);
    // The automaton of a GBNF text over a trie, shared by every chain that uses it while any does (the
    // runs of a batch, the server's requests): what one run's steps found, the next finds ready. One
    // sentence when the text does not parse.
    static Result<std::shared_ptr<GrammarAutomaton>> shared(const std::string& gbnf,
                                                            std::shared_ptr<const TokenTrie> trie);

    struct State {
        std::uint32_t id = 0; // 0: nothing can continue
        bool operator==(const State&) const = default;
    };

    State start();
    // The state after `bytes`; dead() when the grammar refuses them.
    State advance(State state, std::string_view bytes);
    static bool dead(State state) { return state.id == 0; }
    // Whether the text so far is a whole string of the grammar (an end token may come).
    bool complete(State state);
    // Bit i set: token i's bytes can continue the text (the end tokens are not in the trie).
    std::shared_ptr<const std::vector<std::uint64_t>> allowed(State state);

    const TokenTrie& trie() const { return *m_trie; }
    // More ways to read the text than kMaxOpenStacks were open at once (a grammar ambiguous without bound,
    // such as nested repetitions of nullable rules): the state that would have held them is dead instead.
    bool overflowed() const { return m_overflowed; }
    static constexpr std::size_t kMaxOpenStacks = 2048;

private:
    struct StackNode {
        std::uint32_t top; // into m_elements
        std::uint32_t below;
    };
    std::uint32_t stack(std::uint32_t top, std::uint32_t below);
    void expand(std::uint32_t stack, std::vector<std::uint32_t>& out);
    const std::vector<std::uint32_t>& afterChar(std::uint32_t stack);
    std::uint32_t internSet(std::vector<std::uint32_t>& stacks);
    std::uint32_t step(std::uint32_t set, std::uint32_t cp);
    bool partialViable(std::uint32_t set, std::uint32_t partial) const;
    // Where the text stands: a stack set and an unfinished UTF-8 character (value << 5 | length << 2 |
    // bytes to come; 0 when none).
    struct Position {
        std::uint32_t set = 0;
        std::uint32_t partial = 0;
    };
    std::uint32_t internPosition(Position position);
    // The state after one byte (the trie walk's inner step): its row entry, computed on first use.
    std::uint32_t feed(std::uint32_t state, std::uint8_t byte) {
        const std::uint32_t next = m_rows[std::size_t{state} * 256 + byte];
        return next != kUnknown ? next : feedUncached(state, byte);
    }
    std::uint32_t feedUncached(std::uint32_t state, std::uint8_t byte);
    Position byteStep(Position position, std::uint8_t byte);
    void walk(std::uint32_t node, std::uint32_t state, std::vector<std::uint64_t>& bits);

    static constexpr std::uint32_t kUnknown = 0xFFFFFFFF;

    std::vector<GrammarElement> m_elements; // every rule, one after another
    std::vector<std::uint32_t> m_ruleStart;
    std::uint32_t m_root = 0;
    std::shared_ptr<const TokenTrie> m_trie;
    std::mutex m_mutex;
    std::vector<StackNode> m_stacks; // 0: the empty stack
    std::unordered_map<std::uint64_t, std::uint32_t> m_stackIds;
    std::vector<std::vector<std::uint32_t>> m_afterChar; // per stack: expanded stacks once its top matched
    std::vector<std::uint8_t> m_afterCharDone;
    std::vector<std::vector<std::uint32_t>> m_sets; // 0: the empty set
    std::unordered_map<std::string, std::uint32_t> m_setIds;
    std::unordered_map<std::uint64_t, std::uint32_t> m_steps; // set << 21 | code point -> set
    std::vector<Position> m_positions;                        // by state id; 0: dead
    std::unordered_map<std::uint64_t, std::uint32_t> m_positionIds;
    std::vector<std::uint32_t> m_rows; // state * 256 + byte -> state, kUnknown until found
    std::vector<std::shared_ptr<const std::vector<std::uint64_t>>> m_allowed; // by state id
    std::size_t m_allowedBytes = 0;
    std::uint32_t m_start = 0;
    bool m_overflowed = false;
};

} // namespace swb
