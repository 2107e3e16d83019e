#pragma once

#include <cstddef>
#include <string_view>

// UTF-8 helpers shared by the tokenizers. Tokenizers must never fail on bad input, so nothing here
// rejects a byte: an invalid byte counts as a character of its own.
namespace swb::utf8 {

// Length of the sequence a lead byte announces (1 for ASCII, continuation and invalid bytes), the way
// llama.cpp's unicode_len_utf8 splits text into symbols.
inline std::size_t sequenceLength(unsigned char lead) {
    if (lead < 0xC0)
        return 1;
    if (lead < 0xE0)
        return 2;
    if (lead < 0xF0)
        return 3;
    if (lead < 0xF8)
        return 4;
    return 1;
}

inline bool isContinuation(unsigned char byte) {
    return (byte & 0xC0) == 0x80;
}

// How many leading bytes of text can be emitted without cutting a character in two: all of them unless
// text ends with the first bytes of a multi-byte sequence that later bytes could still complete.
inline std::size_t completePrefix(std::string_view text) {
    const std::size_t n = text.size();
    // A sequence is at most 4 bytes, so only its last 3 bytes can belong to an unfinished one.
    for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
        const auto byte = static_cast<unsigned char>(text[n - back]);
        if (isContinuation(byte))
            continue;
        const std::size_t need = sequenceLength(byte);
        return need > back ? n - back : n;
    }
    return n;
}

} // namespace swb::utf8
