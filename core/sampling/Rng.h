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

// SplitMix64 finaliser (Steele, Lea, Flood 2014): spreads nearby seeds far apart.
std::uint64_t splitMix64(std::uint64_t x);

} // namespace swb
