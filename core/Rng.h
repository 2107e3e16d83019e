#pragma once

#include <cstdint>

namespace swb {

// The project's own random number generator: PCG64 (PCG XSL RR 128/64, O'Neill 2014), the
// generator numpy uses by default. Seeding and the uint64 -> double conversion are ours and
// documented, so the same seed gives the same stream on every build, compiler and platform
// (std:: distributions differ between standard libraries).
class Pcg64 {
public:
    explicit Pcg64(std::uint64_t seed = 0, std::uint64_t stream = 0) { seedWith(seed, stream); }

    // PCG's own seeding (pcg64 srandom): state 0, increment (initSequence << 1) | 1, one step, add
    // initState, one step. seedWith() widens a 64-bit seed and stream to these 128-bit values:
    // initState = splitMix64(seed) << 64 | seed, initSequence = splitMix64(~stream) << 64 | stream.
    void seedPcg(unsigned __int128 initState, unsigned __int128 initSequence);
    void seedWith(std::uint64_t seed, std::uint64_t stream = 0);

    std::uint64_t next();
    // Uniform double in [0, 1): the top 53 bits of next() times 2^-53.
    double uniform();

    bool operator==(const Pcg64& other) const = default;

private:
    unsigned __int128 m_state = 0;
    unsigned __int128 m_increment = 1;
};

// SplitMix64 (Steele, Lea, Flood 2014). Its finaliser spreads nearby values far apart (hash keys, seeds);
// splitMix64(x) is the finaliser of x plus the golden-ratio increment; the generator adds that increment to
// its state before each number. The same numbers on every platform and standard library.
inline constexpr std::uint64_t kSplitMix64Increment = 0x9E3779B97F4A7C15ULL;

constexpr std::uint64_t splitMix64Finalise(std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

constexpr std::uint64_t splitMix64(std::uint64_t x) {
    return splitMix64Finalise(x + kSplitMix64Increment);
}

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed)
        : m_state(seed) {}
    std::uint64_t next() { return splitMix64Finalise(m_state += kSplitMix64Increment); }

private:
    std::uint64_t m_state;
};

} // namespace swb
