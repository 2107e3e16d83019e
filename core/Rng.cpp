#include "Rng.h"

namespace swb {

namespace {
// PCG's 128-bit default multiplier.
constexpr unsigned __int128 kMultiplier =
    (static_cast<unsigned __int128>(2549297995355413924ULL) << 64) | 4865540595714422341ULL;
} // namespace

void Pcg64::seedPcg(unsigned __int128 initState, unsigned __int128 initSequence) {
    m_state = 0;
    m_increment = (initSequence << 1) | 1U;
    next();
    m_state += initState;
    next();
}

void Pcg64::seedWith(std::uint64_t seed, std::uint64_t stream) {
    const auto wide = [](std::uint64_t high, std::uint64_t low) {
        return static_cast<unsigned __int128>(high) << 64 | static_cast<unsigned __int128>(low);
    };
    seedPcg(wide(splitMix64(seed), seed), wide(splitMix64(~stream), stream));
}

std::uint64_t Pcg64::next() {
    m_state = m_state * kMultiplier + m_increment;
    // XSL RR output: xor the halves, rotate right by the top 6 bits.
    const auto high = static_cast<std::uint64_t>(m_state >> 64);
    const auto low = static_cast<std::uint64_t>(m_state);
    const std::uint64_t xored = high ^ low;
    const unsigned rotation = static_cast<unsigned>(m_state >> 122);
    return (xored >> rotation) | (xored << ((64U - rotation) & 63U));
}

double Pcg64::uniform() {
    return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

} // namespace swb
