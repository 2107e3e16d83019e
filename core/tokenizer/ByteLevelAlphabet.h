#pragma once

#include <array>
#include <string>
#include <string_view>

namespace swb {

// GPT-2's byte-level alphabet (bytes_to_unicode in openai/gpt-2 encoder.py): every byte maps to one
// printable Unicode character, so that byte-level BPE vocabularies are stored as text. Printable
// Latin-1 bytes map to themselves; the other 68 bytes map, in order, to U+0100 and up (space is 'Ġ').
class ByteLevelAlphabet {
public:
    static const ByteLevelAlphabet& instance();

    // Appends the alphabet's characters (UTF-8) for bytes to out.
    void encode(std::string_view bytes, std::string& out) const;
    // Appends the bytes that text (alphabet characters) stands for; false if text holds a character
    // outside the alphabet (then out holds the bytes decoded so far).
    bool decode(std::string_view text, std::string& out) const;

private:
    ByteLevelAlphabet();
    // UTF-8 of each byte's character: 1 or 2 bytes (all code points are below U+0144).
    std::array<std::array<char, 2>, 256> m_utf8{};
    std::array<unsigned char, 256> m_length{};
    // Code point (< 0x144) back to its byte, -1 for code points outside the alphabet.
    std::array<short, 0x144> m_byteOf{};
};

} // namespace swb
