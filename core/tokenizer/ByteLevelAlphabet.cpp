#include "tokenizer/ByteLevelAlphabet.h"

namespace swb {

const ByteLevelAlphabet& ByteLevelAlphabet::instance() {
    static const ByteLevelAlphabet alphabet;
    return alphabet;
}

ByteLevelAlphabet::ByteLevelAlphabet() {
    m_byteOf.fill(-1);
    int next = 256;
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        const int cp = printable ? b : next++;
        m_byteOf[static_cast<std::size_t>(cp)] = static_cast<short>(b);
        if (cp < 0x80) {
            m_utf8[b][0] = static_cast<char>(cp);
            m_length[b] = 1;
        } else {
            m_utf8[b][0] = static_cast<char>(0xC0 | (cp >> 6));
            m_utf8[b][1] = static_cast<char>(0x80 | (cp & 0x3F));
            m_length[b] = 2;
        }
    }
}

void ByteLevelAlphabet::encode(std::string_view bytes, std::string& out) const {
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out.append(m_utf8[b].data(), m_length[b]);
    }
}

bool ByteLevelAlphabet::decode(std::string_view text, std::string& out) const {
    for (std::size_t i = 0; i < text.size();) {
        const auto c0 = static_cast<unsigned char>(text[i]);
        int cp = -1;
        if (c0 < 0x80) {
            cp = c0;
            i += 1;
        } else if ((c0 & 0xE0) == 0xC0 && i + 1 < text.size()) {
            cp = ((c0 & 0x1F) << 6) | (static_cast<unsigned char>(text[i + 1]) & 0x3F);
            i += 2;
        } else {
            return false;
        }
        if (cp >= static_cast<int>(m_byteOf.size()) || m_byteOf[static_cast<std::size_t>(cp)] < 0)
            return false;
        out.push_back(static_cast<char>(m_byteOf[static_cast<std::size_t>(cp)]));
    }
    return true;
}

} // namespace swb
