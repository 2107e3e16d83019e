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
// UTF-8 character not yet complete. Stacks and stack sets are interned as they are met, and the steps
// between them remembered, so a state seen before costs a table lookup; allowed() walks the token trie
// once per state and keeps the answer. Thread-safe (one lock; a chain's clones share one automaton).
class GrammarAutomaton {
public:
    GrammarAutomaton(Grammar grammar, std::shared_ptr<const TokenTrie> trie);

    struct State {
        std::uint32_t set = 0;     // interned stack set; 0 is the empty set: nothing can continue
        std::uint32_t partial = 0; // an unfinished UTF-8 character: value << 5 | length << 2 | bytes to come
        bool operator==(const State&) const = default;
    };

    State start();
    // The state after `bytes`; dead() when the grammar refuses them.
    State advance(State state, std::string_view bytes);
    static bool dead(State state) { return state.set == 0; }
    // Whether the text so far is a whole string of the grammar (an end token may come).
    bool complete(State state);
    // Bit i set: token i's bytes can continue the text (the end tokens are not in the trie).
    std::shared_ptr<const std::vector<std::uint64_t>> allowed(State state);

    const TokenTrie& trie() const { return *m_trie; }

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
    State feed(State state, std::uint8_t byte, bool& charDone);
    void walk(std::uint32_t node, State state, std::vector<std::uint64_t>& bits);

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
    std::unordered_map<std::uint64_t, std::shared_ptr<const std::vector<std::uint64_t>>> m_allowed;
    std::size_t m_allowedBytes = 0;
    std::uint32_t m_startSet = 0;
};

} // namespace swb
