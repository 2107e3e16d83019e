// GBNF text: parsed; a grammar that parses is run over the demo vocabulary's trie (the allowed tokens at the
// start and after a token) and over a few texts byte by byte.
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "grammar/Grammar.h"
#include "grammar/GrammarAutomaton.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    swb::Result<swb::Grammar> grammar = swb::parseGbnf(text);
    if (!grammar)
        return 0;
    static const std::shared_ptr<const swb::TokenTrie> trie = swb::TokenTrie::build(swb::fuzz::demoTokenizer());
    swb::GrammarAutomaton automaton(std::move(grammar).value(), trie);
    swb::GrammarAutomaton::State state = automaton.start();
    const std::shared_ptr<const std::vector<std::uint64_t>> allowed = automaton.allowed(state);
    for (int id = 0; id < trie->vocabSize(); ++id)
        if (((*allowed)[std::size_t(id) / 64] >> (id % 64)) & 1) {
            state = automaton.advance(state, trie->piece(id));
            if (swb::GrammarAutomaton::dead(state) && !automaton.overflowed())
                __builtin_trap(); // an allowed token must keep the grammar alive
            (void)automaton.allowed(state);
            break;
        }
    for (const char* sample : {"a", "{\"a\": 1}", "\xC3\xA9", "\xF0\x9F\x98\x80", "0123456789", "  \n"})
        (void)automaton.complete(automaton.advance(automaton.start(), sample));
    return 0;
}
