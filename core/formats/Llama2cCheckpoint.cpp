#include "formats/Llama2cCheckpoint.h"

#include <cstring>
#include <limits>

#include "formats/MappedFile.h"

namespace swb {

namespace {

constexpr std::uint32_t kMagic = 0x616b3432; // "ak42" read as a little-endian uint32
constexpr std::size_t kVersionedHeaderBytes = 256;
constexpr int kMaxDimension = 1 << 20; // far beyond any llama2.c model; catches garbage headers

std::int32_t readInt32(const std::byte* p) {
    std::int32_t value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

// Where each tensor of a checkpoint with header h lies (byte offsets from the file's start, the weights
// after `offset`), in the file's order; *end is where the last one ends. Laid out before the total is
// checked against the file size, so no pointer is formed into a file too short for it.
struct PlannedTensor {
    std::string name;
    std::vector<std::int64_t> shape;
    bool quantized;
    std::uint64_t offset;
    std::uint64_t scalesOffset;
};

std::vector<PlannedTensor> planTensors(const Llama2cCheckpoint::Header& h, std::uint64_t offset, std::uint64_t* end) {
    const std::int64_t dim = h.dim;
    const std::int64_t hidden = h.hiddenDim;
    const std::int64_t headSize = dim / h.heads;
    const std::int64_t kvDim = headSize * h.kvHeads;
    const std::int64_t vocab = h.vocabSize;

    std::vector<PlannedTensor> plan;
    std::uint64_t cursor = offset;
    const auto add = [&](std::string tensorName, std::vector<std::int64_t> shape, bool quantized) {
        std::uint64_t n = 1;
        for (const std::int64_t d : shape)
            n *= static_cast<std::uint64_t>(d);
        PlannedTensor p{std::move(tensorName), std::move(shape), quantized, cursor, 0};
        if (quantized) {
            cursor += n;
            p.scalesOffset = cursor;
            cursor += n / static_cast<std::uint64_t>(h.groupSize) * sizeof(float);
        } else {
            cursor += n * sizeof(float);
        }
        plan.push_back(std::move(p));
    };
    const auto perLayer = [&](const char* tensorName, std::vector<std::int64_t> shape, bool quantized) {
        for (int l = 0; l < h.layers; ++l)
            add("layers." + std::to_string(l) + "." + tensorName, shape, quantized);
    };
    const auto skip = [&](std::uint64_t bytes) { cursor += bytes; };

    if (h.version == 0) {
        add("tok_embeddings", {vocab, dim}, false);
        perLayer("attention_norm", {dim}, false);
        perLayer("wq", {dim, dim}, false);
        perLayer("wk", {kvDim, dim}, false);
        perLayer("wv", {kvDim, dim}, false);
        perLayer("wo", {dim, dim}, false);
        perLayer("ffn_norm", {dim}, false);
        perLayer("w1", {hidden, dim}, false);
        perLayer("w2", {dim, hidden}, false);
        perLayer("w3", {hidden, dim}, false);
        add("norm", {dim}, false);
        // freq_cis_real and freq_cis_imag: run.c skips them and computes RoPE itself, so do we.
        skip(2 * static_cast<std::uint64_t>(h.seqLen) * static_cast<std::uint64_t>(headSize / 2) * sizeof(float));
        if (!h.sharedClassifier)
            add("output", {vocab, dim}, false);
    } else {
        const bool q = h.version == 2;
        perLayer("attention_norm", {dim}, false);
        perLayer("ffn_norm", {dim}, false);
        add("norm", {dim}, false);
        add("tok_embeddings", {vocab, dim}, q);
        perLayer("wq", {dim, dim}, q);
        perLayer("wk", {kvDim, dim}, q);
        perLayer("wv", {kvDim, dim}, q);
        perLayer("wo", {dim, dim}, q);
        perLayer("w1", {hidden, dim}, q);
        perLayer("w2", {dim, hidden}, q);
        perLayer("w3", {hidden, dim}, q);
        if (!h.sharedClassifier)
            add("output", {vocab, dim}, q);
    }
    *end = cursor;
    return plan;
}

} // namespace

std::int64_t Llama2cCheckpoint::Tensor::elements() const {
    std::int64_t n = 1;
    for (const std::int64_t d : shape)
        n *= d;
    return n;
}

void Llama2cCheckpoint::Tensor::dequantize(std::span<float> out) const {
    const std::int64_t n = elements();
    if (f32) {
        std::memcpy(out.data(), f32, static_cast<std::size_t>(n) * sizeof(float));
        return;
    }
    for (std::int64_t i = 0; i < n; ++i)
        out[static_cast<std::size_t>(i)] = static_cast<float>(q8[i]) * scales[i / groupSize];
}

std::size_t Llama2cCheckpoint::fileSize() const {
    return m_file ? m_file->size() : 0;
}

const Llama2cCheckpoint::Tensor* Llama2cCheckpoint::tensor(const std::string& name) const {
    for (const Tensor& t : m_tensors)
        if (t.name == name)
            return &t;
    return nullptr;
}

Result<Llama2cCheckpoint> Llama2cCheckpoint::open(const QString& path) {
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return mapped.error();
    Llama2cCheckpoint checkpoint;
    checkpoint.m_path = path;
    checkpoint.m_file = std::move(mapped.value());
    const std::byte* base = checkpoint.m_file->data();
    const std::size_t size = checkpoint.m_file->size();
    const QString name = checkpoint.m_file->fileName();
    Header& h = checkpoint.m_header;

    if (size < 7 * sizeof(std::int32_t))
        return Error::badInput(
            QStringLiteral("%1 is truncated: %2 bytes, too short for a llama2.c header").arg(name).arg(size));
    std::size_t offset = 0;
    std::int32_t raw[7];
    if (static_cast<std::uint32_t>(readInt32(base)) == kMagic) {
        if (size < kVersionedHeaderBytes)
            return Error::badInput(
                QStringLiteral("%1 is truncated: %2 bytes, too short for a llama2.c v1/v2 header").arg(name).arg(size));
        h.version = readInt32(base + 4);
        if (h.version != 1 && h.version != 2)
            return Error::badInput(
                QStringLiteral("%1 is a llama2.c checkpoint of version %2; only versions 0, 1 and 2 are supported")
                    .arg(name)
                    .arg(h.version));
        for (int i = 0; i < 7; ++i)
            raw[i] = readInt32(base + 8 + 4 * i);
        h.sharedClassifier = static_cast<std::uint8_t>(base[36]) != 0;
        if (h.version == 2)
            h.groupSize = readInt32(base + 37);
        offset = kVersionedHeaderBytes;
    } else {
        for (int i = 0; i < 7; ++i)
            raw[i] = readInt32(base + 4 * i);
        h.version = 0;
        h.sharedClassifier = raw[5] > 0;
        // (The lowest int32 has no positive counterpart: it stays negative, and the shape check refuses it.)
        raw[5] = raw[5] < 0 && raw[5] != std::numeric_limits<std::int32_t>::min() ? -raw[5] : raw[5];
        offset = 7 * sizeof(std::int32_t);
    }
    const std::int32_t* fields = raw;
    h.dim = fields[0];
    h.hiddenDim = fields[1];
    h.layers = fields[2];
    h.heads = fields[3];
    h.kvHeads = fields[4];
    h.vocabSize = fields[5];
    h.seqLen = fields[6];

    const QString shapeText =
        QStringLiteral("dim %1, hidden %2, %3 layers, %4 heads, %5 kv heads, vocab %6, seq_len %7")
            .arg(h.dim)
            .arg(h.hiddenDim)
            .arg(h.layers)
            .arg(h.heads)
            .arg(h.kvHeads)
            .arg(h.vocabSize)
            .arg(h.seqLen);
    const auto inRange = [](int v) { return v > 0 && v <= kMaxDimension; };
    if (!inRange(h.dim) || !inRange(h.hiddenDim) || !inRange(h.layers) || h.layers > 4096 || !inRange(h.heads) ||
        !inRange(h.kvHeads) || !inRange(h.vocabSize) || !inRange(h.seqLen) || h.dim % h.heads != 0 ||
        h.heads % h.kvHeads != 0 || (h.dim / h.heads) % 2 != 0)
        return Error::badInput(
            QStringLiteral("%1 is not a llama2.c checkpoint: its header (%2) is not a valid model shape")
                .arg(name, shapeText));
    if (h.version == 2 && (h.groupSize <= 0 || h.dim % h.groupSize != 0 || h.hiddenDim % h.groupSize != 0))
        return Error::badInput(
            QStringLiteral("%1: llama2.c version 2 group size %2 does not divide the model's dimensions")
                .arg(name)
                .arg(h.groupSize));

    std::uint64_t cursor = 0;
    const std::vector<PlannedTensor> plan = planTensors(h, offset, &cursor);

    if (cursor > size)
        return Error::badInput(QStringLiteral("%1 is truncated or does not match its header: the header (%2) needs %3 "
                                              "bytes but the file has %4")
                                   .arg(name, shapeText)
                                   .arg(cursor)
                                   .arg(size));
    if (cursor < size)
        return Error::badInput(
            QStringLiteral("%1 does not match its header: the header (%2) describes %3 bytes but the "
                           "file has %4")
                .arg(name, shapeText)
                .arg(cursor)
                .arg(size));

    for (const PlannedTensor& p : plan) {
        Tensor t;
        t.name = p.name;
        t.shape = p.shape;
        if (p.quantized) {
            t.q8 = reinterpret_cast<const std::int8_t*>(base + p.offset);
            t.scales = reinterpret_cast<const float*>(base + p.scalesOffset);
            t.groupSize = h.groupSize;
        } else {
            t.f32 = reinterpret_cast<const float*>(base + p.offset);
        }
        checkpoint.m_tensors.push_back(std::move(t));
    }
    return checkpoint;
}

} // namespace swb
