#include "cli/RandomModelWriter.h"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <QFile>

#include "model/kernels/WeightType.h"

namespace swb::cli {

namespace {

// xorshift64*: deterministic, fast, good enough for weights nobody reads.
struct Random {
    std::uint64_t state;
    std::uint64_t next() {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        return state * 0x2545F4914F6CDD1Dull;
    }
    float uniform() { return static_cast<float>(next() >> 40) / 16777216.0f * 2.0f - 1.0f; } // [-1, 1)
};

std::uint16_t toHalf(float f) {
    // Round to nearest even for the normal range the scales live in.
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    const std::uint32_t sign = (bits >> 16) & 0x8000;
    const int exponent = static_cast<int>((bits >> 23) & 0xFF) - 127 + 15;
    if (exponent <= 0)
        return static_cast<std::uint16_t>(sign);
    std::uint32_t mantissa = bits & 0x7FFFFF;
    std::uint32_t half = sign | (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
    const std::uint32_t rest = mantissa & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
        ++half;
    return static_cast<std::uint16_t>(half);
}

void putHalf(std::uint8_t* p, float f) {
    const std::uint16_t h = toHalf(f);
    p[0] = static_cast<std::uint8_t>(h & 0xFF);
    p[1] = static_cast<std::uint8_t>(h >> 8);
}

struct TypeRecipe {
    const char* name;
    std::uint32_t ggml;
    kernels::WeightType type;
};

constexpr TypeRecipe kTypes[] = {
    {"f32", 0, kernels::WeightType::F32},    {"f16", 1, kernels::WeightType::F16},
    {"bf16", 30, kernels::WeightType::BF16}, {"q8_0", 8, kernels::WeightType::Q8_0},
    {"q4_0", 2, kernels::WeightType::Q4_0},  {"q4_1", 3, kernels::WeightType::Q4_1},
    {"q5_0", 6, kernels::WeightType::Q5_0},  {"q5_1", 7, kernels::WeightType::Q5_1},
    {"q2_k", 10, kernels::WeightType::Q2_K}, {"q3_k", 11, kernels::WeightType::Q3_K},
    {"q4_k", 12, kernels::WeightType::Q4_K}, {"q5_k", 13, kernels::WeightType::Q5_K},
    {"q6_k", 14, kernels::WeightType::Q6_K},
};

// One block (or float element run) of random weights of magnitude about `scale`: random bytes for the
// quants, then the type's scale fields set so that the largest value is about `scale`.
void fillBlock(kernels::WeightType type, std::uint8_t* b, int bytes, float scale, Random& rng) {
    using W = kernels::WeightType;
    switch (type) {
    case W::F32:
        for (int i = 0; i < bytes / 4; ++i) {
            const float v = rng.uniform() * scale;
            std::memcpy(b + 4 * i, &v, 4);
        }
        return;
    case W::F16:
    case W::BF16:
        for (int i = 0; i < bytes / 2; ++i) {
            const float v = rng.uniform() * scale;
            if (type == W::F16) {
                putHalf(b + 2 * i, v);
            } else {
                std::uint32_t bits;
                std::memcpy(&bits, &v, 4);
                b[2 * i] = static_cast<std::uint8_t>((bits >> 16) & 0xFF);
                b[2 * i + 1] = static_cast<std::uint8_t>(bits >> 24);
            }
        }
        return;
    default:
        break;
    }
    for (int i = 0; i < bytes; i += 8) {
        const std::uint64_t r = rng.next();
        std::memcpy(b + i, &r, static_cast<std::size_t>(std::min(8, bytes - i)));
    }
    switch (type) {
    case W::Q8_0:
        putHalf(b, scale / 127);
        break;
    case W::Q4_0:
        putHalf(b, scale / 8);
        break;
    case W::Q5_0:
        putHalf(b, scale / 16);
        break;
    case W::Q4_1:
        putHalf(b, 2 * scale / 15);
        putHalf(b + 2, -scale);
        break;
    case W::Q5_1:
        putHalf(b, 2 * scale / 31);
        putHalf(b + 2, -scale);
        break;
    case W::Q2_K:
        putHalf(b + 80, 2 * scale / 45);
        putHalf(b + 82, scale / 15);
        break;
    case W::Q3_K:
        putHalf(b + 108, scale / 128);
        break;
    case W::Q4_K:
        putHalf(b, 2 * scale / 945);
        putHalf(b + 2, scale / 63);
        break;
    case W::Q5_K:
        putHalf(b, 2 * scale / 1953);
        putHalf(b + 2, scale / 63);
        break;
    case W::Q6_K:
        putHalf(b + 208, scale / (128 * 32));
        break;
    default:
        break;
    }
}

class Writer {
public:
    explicit Writer(QFile& file)
        : m_file(file) {}
    bool ok() const { return m_ok; }
    void raw(const void* p, std::size_t n) {
        if (m_ok)
            m_ok = m_file.write(static_cast<const char*>(p), static_cast<qint64>(n)) == static_cast<qint64>(n);
    }
    template <typename T> void value(T v) { raw(&v, sizeof v); }
    void string(const std::string& s) {
        value<std::uint64_t>(s.size());
        raw(s.data(), s.size());
    }
    void key(const std::string& k, std::uint32_t type) {
        string(k);
        value(type);
    }
    void pad(std::uint64_t alignment) {
        const qint64 position = m_file.pos();
        const qint64 padding = static_cast<qint64>((alignment - position % alignment) % alignment);
        const std::vector<char> zeros(static_cast<std::size_t>(padding), 0);
        raw(zeros.data(), zeros.size());
    }

private:
    QFile& m_file;
    bool m_ok = true;
};

struct TensorPlan {
    std::string name;
    std::vector<std::int64_t> dims; // ggml order: row length first
    kernels::WeightType type;
    std::uint32_t ggml;
    float scale; // 0: ones (norm weights)
    std::uint64_t bytes;
    std::uint64_t offset;
};

// A SentencePiece-style vocabulary of `vocab` tokens: <unk>, <s>, </s>, the 256 byte tokens, then distinct
// pieces; with their GGUF token types.
void randomVocabulary(int vocab, std::vector<std::string>& tokens, std::vector<std::int32_t>& types) {
    tokens = {"<unk>", "<s>", "</s>"};
    types = {2, 3, 3};
    char byteName[8];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(byteName, sizeof byteName, "<0x%02X>", b);
        tokens.emplace_back(byteName);
        types.push_back(6);
    }
    for (int i = 0; static_cast<int>(tokens.size()) < vocab; ++i) {
        std::string piece = "\xe2\x96\x81"; // ▁
        for (int n = i;; n = n / 26 - 1) {
            piece += static_cast<char>('a' + n % 26);
            if (n < 26)
                break;
        }
        tokens.push_back(piece);
        types.push_back(1);
    }
    tokens.resize(static_cast<std::size_t>(vocab));
    types.resize(static_cast<std::size_t>(vocab));
}

} // namespace

QString writeRandomGguf(const QString& path, const RandomShape& s, const QString& typeName, std::uint64_t seed) {
    const TypeRecipe* recipe = nullptr;
    for (const TypeRecipe& r : kTypes)
        if (typeName == QLatin1String(r.name))
            recipe = &r;
    if (!recipe) {
        QStringList names;
        for (const TypeRecipe& r : kTypes)
            names << QLatin1String(r.name);
        return QStringLiteral("--weight-type must be one of %1, not '%2'")
            .arg(names.join(QStringLiteral(", ")), typeName);
    }
    const int headDim = s.dim / s.heads;
    const std::int64_t kvDim = static_cast<std::int64_t>(s.kvHeadCount()) * headDim;
    const int block = kernels::traits(recipe->type).blockElements;
    if (s.dim % block != 0 || s.hidden % block != 0)
        return QStringLiteral("%1 needs the model dimension and the hidden size to be multiples of %2")
            .arg(typeName)
            .arg(block);

    constexpr std::uint64_t kAlignment = 32;
    std::vector<TensorPlan> tensors;
    std::uint64_t offset = 0;
    const auto add = [&](const std::string& name, std::int64_t columns, std::int64_t rows, bool matrix) {
        TensorPlan t{name, {columns}, recipe->type, recipe->ggml, 0.0f, 0, offset};
        if (matrix) {
            t.dims.push_back(rows);
            t.scale = 1.0f / std::sqrt(static_cast<float>(columns)) * 1.7f;
            t.bytes = kernels::rowBytes(recipe->type, columns) * static_cast<std::uint64_t>(rows);
        } else {
            t.type = kernels::WeightType::F32;
            t.ggml = 0;
            t.bytes = static_cast<std::uint64_t>(columns) * 4;
        }
        offset = (offset + t.bytes + kAlignment - 1) / kAlignment * kAlignment;
        tensors.push_back(std::move(t));
    };
    add("token_embd.weight", s.dim, s.vocab, true);
    tensors.back().scale = 1.0f;
    for (int l = 0; l < s.layers; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        add(p + "attn_norm.weight", s.dim, 1, false);
        add(p + "attn_q.weight", s.dim, s.dim, true);
        add(p + "attn_k.weight", s.dim, kvDim, true);
        add(p + "attn_v.weight", s.dim, kvDim, true);
        add(p + "attn_output.weight", s.dim, s.dim, true);
        add(p + "ffn_norm.weight", s.dim, 1, false);
        add(p + "ffn_gate.weight", s.dim, s.hidden, true);
        add(p + "ffn_up.weight", s.dim, s.hidden, true);
        add(p + "ffn_down.weight", s.hidden, s.dim, true);
    }
    add("output_norm.weight", s.dim, 1, false);
    add("output.weight", s.dim, s.vocab, true);

    std::vector<std::string> tokens;
    std::vector<std::int32_t> types;
    randomVocabulary(s.vocab, tokens, types);

    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    Writer w(file);
    enum : std::uint32_t { UInt32 = 4, Int32 = 5, Float32 = 6, String = 8, Array = 9 };
    w.value<std::uint32_t>(0x46554747); // "GGUF"
    w.value<std::uint32_t>(3);
    w.value<std::uint64_t>(tensors.size());
    w.value<std::uint64_t>(18);
    const auto u32 = [&](const char* k, std::uint32_t v) {
        w.key(k, UInt32);
        w.value(v);
    };
    const auto f32 = [&](const char* k, float v) {
        w.key(k, Float32);
        w.value(v);
    };
    w.key("general.architecture", String);
    w.string("llama");
    w.key("general.name", String);
    w.string("swb random " + typeName.toStdString());
    u32("general.file_type", 0);
    u32("llama.context_length", static_cast<std::uint32_t>(s.context));
    u32("llama.embedding_length", static_cast<std::uint32_t>(s.dim));
    u32("llama.block_count", static_cast<std::uint32_t>(s.layers));
    u32("llama.feed_forward_length", static_cast<std::uint32_t>(s.hidden));
    u32("llama.attention.head_count", static_cast<std::uint32_t>(s.heads));
    u32("llama.attention.head_count_kv", static_cast<std::uint32_t>(s.kvHeadCount()));
    u32("llama.rope.dimension_count", static_cast<std::uint32_t>(headDim));
    f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
    f32("llama.rope.freq_base", 10000.0f);
    w.key("tokenizer.ggml.model", String);
    w.string("llama");
    w.key("tokenizer.ggml.tokens", Array);
    w.value<std::uint32_t>(String);
    w.value<std::uint64_t>(tokens.size());
    for (const std::string& t : tokens)
        w.string(t);
    w.key("tokenizer.ggml.scores", Array);
    w.value<std::uint32_t>(Float32);
    w.value<std::uint64_t>(tokens.size());
    for (std::size_t i = 0; i < tokens.size(); ++i)
        w.value(-static_cast<float>(i));
    w.key("tokenizer.ggml.token_type", Array);
    w.value<std::uint32_t>(Int32);
    w.value<std::uint64_t>(types.size());
    for (const std::int32_t t : types)
        w.value(t);
    u32("tokenizer.ggml.bos_token_id", 1);
    u32("tokenizer.ggml.eos_token_id", 2);
    for (const TensorPlan& t : tensors) {
        w.string(t.name);
        w.value<std::uint32_t>(static_cast<std::uint32_t>(t.dims.size()));
        for (const std::int64_t d : t.dims)
            w.value<std::uint64_t>(static_cast<std::uint64_t>(d));
        w.value(t.ggml);
        w.value(t.offset);
    }
    w.pad(kAlignment);
    const qint64 dataStart = file.pos();

    Random rng{seed * 0x9E3779B97F4A7C15ull + 1};
    std::vector<std::uint8_t> row;
    for (const TensorPlan& t : tensors) {
        w.pad(kAlignment);
        if (file.pos() - dataStart != static_cast<qint64>(t.offset))
            return QStringLiteral("internal error: misplaced tensor %1").arg(QString::fromStdString(t.name));
        if (t.scale == 0.0f) {
            const std::vector<float> ones(static_cast<std::size_t>(t.dims[0]), 1.0f);
            w.raw(ones.data(), ones.size() * 4);
            continue;
        }
        const kernels::WeightTraits& traits = kernels::traits(t.type);
        const std::size_t rowBytes = kernels::rowBytes(t.type, t.dims[0]);
        row.resize(rowBytes);
        const int blockBytes = traits.blockElements == 1 ? static_cast<int>(rowBytes) : traits.blockBytes;
        for (std::int64_t r = 0; r < t.dims[1] && w.ok(); ++r) {
            for (std::size_t at = 0; at < rowBytes; at += static_cast<std::size_t>(blockBytes))
                fillBlock(t.type, row.data() + at, blockBytes, t.scale, rng);
            w.raw(row.data(), rowBytes);
        }
    }
    if (!w.ok() || !file.flush())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace swb::cli
