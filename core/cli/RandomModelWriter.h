#pragma once

#include <cstdint>

#include <QString>

namespace swb::cli {

// The shape of a random Llama-shaped model for `swb bench decode --write-random-model`.
struct RandomShape {
    int dim = 768;
    int layers = 12;
    int heads = 12;
    int kvHeads = 0; // 0: as many as heads
    int hidden = 2048;
    int vocab = 32000;
    int context = 1024;
    int kvHeadCount() const { return kvHeads > 0 ? kvHeads : heads; }
};

// Writes a GGUF file ("llama" architecture, a synthetic SentencePiece vocabulary that llama.cpp loads too)
// whose every matrix has the ggml type `type` ("f32", "f16", "bf16", "q8_0", … "q6_k") and random
// contents: random quants under scales chosen so that weights stay near ±1/√(row length), norms 1. Streams
// the tensors, so writing a multi-gigabyte model takes no more memory than one matrix row of blocks.
// Returns an error sentence, or an empty string.
QString writeRandomGguf(const QString& path, const RandomShape& shape, const QString& type, std::uint64_t seed);

} // namespace swb::cli
