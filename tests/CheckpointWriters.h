#pragma once

// Tiny random models for tests, written in every checkpoint format the project reads (llama2.c .bin
// v0/v1/v2, GGUF, Hugging Face safetensors folders), and a plain double-precision reference forward
// pass for each family, written from the papers' formulas independently of core/model.
//
// Weights are kept in Meta/llama2.c layout (Q/K rows with RoPE pairs interleaved); the Hugging Face
// writer applies transformers' conversion permutation, as convert_llama_weights_to_hf.py does.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include "GgufWriter.h"
#include "Rng.h"

namespace swb::test {

using Floats = std::vector<float>;

// SplitMix64: the same numbers on every platform and standard library.
class TestRandom {
public:
    explicit TestRandom(std::uint64_t seed)
        : m_random(seed) {}
    std::uint64_t next() { return m_random.next(); }
    // Uniform in [-scale, scale).
    float uniform(float scale) { return (static_cast<float>(next() >> 40) / 16777216.0f * 2.0f - 1.0f) * scale; }
    Floats vector(std::size_t n, float scale) {
        Floats v(n);
        for (float& x : v)
            x = uniform(scale);
        return v;
    }
    // 1 + noise: norm weights.
    Floats gains(std::size_t n) {
        Floats v = vector(n, 0.2f);
        for (float& x : v)
            x += 1.0f;
        return v;
    }

private:
    swb::SplitMix64 m_random;
};

// ---- Llama ------------------------------------------------------------------------------------------

struct LlamaShape {
    int dim = 32;
    int hidden = 48;
    int layers = 2;
    int heads = 4;
    int kvHeads = 2;
    int vocab = 64;
    int context = 64;
    bool tied = false;
    bool qkvBias = false;
    double ropeTheta = 10000.0;
    double normEps = 1e-5;
    // rope_scaling {"rope_type": "llama3", factor 8, low_freq_factor 1, high_freq_factor 4,
    // original_max_position_embeddings 64}: small enough that all three bands show at head dim 8.
    bool llama3Scaling = false;
    // config.json as transformers 5 writes it: rope_theta and the scaling in one rope_parameters object.
    bool ropeParameters = false;
    int headDim() const { return dim / heads; }
    int kvDim() const { return kvHeads * headDim(); }
};

// Llama 3's RoPE scaling as llama.cpp's converter expresses it: one divisor per frequency
// (LlamaModel.generate_extra_tensors, the rope_freqs tensor). Empty without scaling.
inline std::vector<double> llama3Divisors(const LlamaShape& s) {
    std::vector<double> divisors;
    if (!s.llama3Scaling)
        return divisors;
    const double factor = 8, low = 1, high = 4, original = 64;
    for (int i = 0; i < s.headDim() / 2; ++i) {
        const double freq = 1.0 / std::pow(s.ropeTheta, 2.0 * i / s.headDim());
        const double wavelength = 2 * M_PI / freq;
        if (wavelength < original / high) {
            divisors.push_back(1);
        } else if (wavelength > original / low) {
            divisors.push_back(factor);
        } else {
            const double smooth = (original / wavelength - low) / (high - low);
            divisors.push_back(1 / ((1 - smooth) / factor + smooth));
        }
    }
    return divisors;
}

struct LlamaLayer {
    Floats attnNorm, wq, wk, wv, wo, bq, bk, bv, ffnNorm, w1, w2, w3; // w1 gate, w2 down, w3 up
};

struct LlamaWeights {
    LlamaShape shape;
    Floats embed, output, norm; // output empty when tied
    std::vector<LlamaLayer> layers;
    const Floats& classifier() const { return shape.tied ? embed : output; }
};

inline LlamaWeights randomLlama(const LlamaShape& s, std::uint64_t seed) {
    TestRandom r(seed);
    LlamaWeights w;
    w.shape = s;
    const auto n = [](int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); };
    const float inScale = 1.0f / std::sqrt(static_cast<float>(s.dim));
    const float hiddenScale = 1.0f / std::sqrt(static_cast<float>(s.hidden));
    w.embed = r.vector(n(s.vocab, s.dim), 1.0f);
    for (int l = 0; l < s.layers; ++l) {
        LlamaLayer L;
        L.attnNorm = r.gains(static_cast<std::size_t>(s.dim));
        L.wq = r.vector(n(s.dim, s.dim), inScale * 1.5f);
        L.wk = r.vector(n(s.kvDim(), s.dim), inScale * 1.5f);
        L.wv = r.vector(n(s.kvDim(), s.dim), inScale);
        L.wo = r.vector(n(s.dim, s.dim), inScale);
        if (s.qkvBias) {
            L.bq = r.vector(static_cast<std::size_t>(s.dim), 0.3f);
            L.bk = r.vector(static_cast<std::size_t>(s.kvDim()), 0.3f);
            L.bv = r.vector(static_cast<std::size_t>(s.kvDim()), 0.3f);
        }
        L.ffnNorm = r.gains(static_cast<std::size_t>(s.dim));
        L.w1 = r.vector(n(s.hidden, s.dim), inScale);
        L.w2 = r.vector(n(s.dim, s.hidden), hiddenScale);
        L.w3 = r.vector(n(s.hidden, s.dim), inScale);
        w.layers.push_back(std::move(L));
    }
    w.norm = r.gains(static_cast<std::size_t>(s.dim));
    if (!s.tied)
        w.output = r.vector(n(s.vocab, s.dim), inScale * 2.0f);
    return w;
}

// transformers' permute(): row h*hd + 2i + j of Meta's layout becomes row h*hd + j*hd/2 + i.
inline Floats permuteForHf(const Floats& w, int heads, int rowsPerHead, int columns) {
    Floats out(w.size());
    const int half = rowsPerHead / 2;
    for (int h = 0; h < heads; ++h)
        for (int i = 0; i < half; ++i)
            for (int j = 0; j < 2; ++j) {
                const std::size_t from = static_cast<std::size_t>(h * rowsPerHead + 2 * i + j) * columns;
                const std::size_t to = static_cast<std::size_t>(h * rowsPerHead + j * half + i) * columns;
                std::memcpy(out.data() + to, w.data() + from, static_cast<std::size_t>(columns) * sizeof(float));
            }
    return out;
}

// Plain reference: Meta's Llama forward pass in double precision over the whole sequence, interleaved
// RoPE, grouped-query attention. Returns logits for every position, row-major [T][vocab].
inline std::vector<double> referenceLlama(const LlamaWeights& w, const std::vector<int>& tokens) {
    const LlamaShape& s = w.shape;
    const int T = static_cast<int>(tokens.size());
    const int D = s.dim, hd = s.headDim(), H = s.heads, Hkv = s.kvHeads, F = s.hidden;
    const auto matvec = [](const Floats& m, const std::vector<double>& x, int rows, const Floats* bias) {
        std::vector<double> y(static_cast<std::size_t>(rows));
        const std::size_t cols = x.size();
        for (int r = 0; r < rows; ++r) {
            double acc = bias && !bias->empty() ? (*bias)[static_cast<std::size_t>(r)] : 0.0;
            for (std::size_t c = 0; c < cols; ++c)
                acc += static_cast<double>(m[static_cast<std::size_t>(r) * cols + c]) * x[c];
            y[static_cast<std::size_t>(r)] = acc;
        }
        return y;
    };
    const auto rmsnorm = [&](const std::vector<double>& x, const Floats& g) {
        double ss = 0;
        for (double v : x)
            ss += v * v;
        const double scale = 1.0 / std::sqrt(ss / static_cast<double>(x.size()) + s.normEps);
        std::vector<double> y(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            y[i] = x[i] * scale * g[i];
        return y;
    };
    const std::vector<double> divisors = llama3Divisors(s);
    const auto rope = [&](std::vector<double>& v, int heads, int pos) {
        for (int h = 0; h < heads; ++h)
            for (int i = 0; i < hd / 2; ++i) {
                const double freq = 1.0 / std::pow(s.ropeTheta, 2.0 * i / hd) / (divisors.empty() ? 1.0 : divisors[i]);
                const double a = pos * freq;
                double& x0 = v[static_cast<std::size_t>(h * hd + 2 * i)];
                double& x1 = v[static_cast<std::size_t>(h * hd + 2 * i + 1)];
                const double r0 = x0 * std::cos(a) - x1 * std::sin(a);
                const double r1 = x0 * std::sin(a) + x1 * std::cos(a);
                x0 = r0;
                x1 = r1;
            }
    };
    std::vector<std::vector<double>> x(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t)
        x[static_cast<std::size_t>(t)].assign(w.embed.begin() + static_cast<long>(tokens[t]) * D,
                                              w.embed.begin() + static_cast<long>(tokens[t] + 1) * D);
    for (const LlamaLayer& L : w.layers) {
        std::vector<std::vector<double>> q(T), k(T), v(T);
        for (int t = 0; t < T; ++t) {
            const auto h = rmsnorm(x[t], L.attnNorm);
            q[t] = matvec(L.wq, h, D, &L.bq);
            k[t] = matvec(L.wk, h, s.kvDim(), &L.bk);
            v[t] = matvec(L.wv, h, s.kvDim(), &L.bv);
            rope(q[t], H, t);
            rope(k[t], Hkv, t);
        }
        for (int t = 0; t < T; ++t) {
            std::vector<double> att(static_cast<std::size_t>(D), 0.0);
            for (int h = 0; h < H; ++h) {
                const int kvh = h / (H / Hkv);
                std::vector<double> score(static_cast<std::size_t>(t + 1));
                double maxScore = -1e300;
                for (int j = 0; j <= t; ++j) {
                    double dot = 0;
                    for (int i = 0; i < hd; ++i)
                        dot += q[t][h * hd + i] * k[j][kvh * hd + i];
                    score[j] = dot / std::sqrt(static_cast<double>(hd));
                    maxScore = std::max(maxScore, score[j]);
                }
                double sum = 0;
                for (double& e : score)
                    sum += (e = std::exp(e - maxScore));
                for (int j = 0; j <= t; ++j)
                    for (int i = 0; i < hd; ++i)
                        att[h * hd + i] += score[j] / sum * v[j][kvh * hd + i];
            }
            const auto o = matvec(L.wo, att, D, nullptr);
            for (int i = 0; i < D; ++i)
                x[t][i] += o[i];
            const auto h = rmsnorm(x[t], L.ffnNorm);
            const auto g = matvec(L.w1, h, F, nullptr);
            const auto u = matvec(L.w3, h, F, nullptr);
            std::vector<double> a(static_cast<std::size_t>(F));
            for (int i = 0; i < F; ++i)
                a[i] = g[i] / (1.0 + std::exp(-g[i])) * u[i];
            const auto d = matvec(L.w2, a, D, nullptr);
            for (int i = 0; i < D; ++i)
                x[t][i] += d[i];
        }
    }
    std::vector<double> logits;
    for (int t = 0; t < T; ++t) {
        const auto y = matvec(w.classifier(), rmsnorm(x[t], w.norm), s.vocab, nullptr);
        logits.insert(logits.end(), y.begin(), y.end());
    }
    return logits;
}

// ---- raw writers ------------------------------------------------------------------------------------

inline void appendFloats(QByteArray& out, const Floats& v) {
    out.append(reinterpret_cast<const char*>(v.data()), static_cast<qsizetype>(v.size() * sizeof(float)));
}
template <typename T> void appendValue(QByteArray& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

inline bool writeBytes(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// llama2.c export.py: version 0 (legacy_export) or 1 (version1_export).
inline QByteArray llama2cBytes(const LlamaWeights& w, int version) {
    const LlamaShape& s = w.shape;
    QByteArray out;
    const std::int32_t fields[7] = {
        s.dim, s.hidden, s.layers, s.heads, s.kvHeads, version == 0 && !s.tied ? -s.vocab : s.vocab, s.context};
    const auto each = [&](Floats LlamaLayer::*member) {
        for (const LlamaLayer& L : w.layers)
            appendFloats(out, L.*member);
    };
    if (version == 0) {
        out.append(reinterpret_cast<const char*>(fields), sizeof fields);
        appendFloats(out, w.embed);
        each(&LlamaLayer::attnNorm);
        each(&LlamaLayer::wq);
        each(&LlamaLayer::wk);
        each(&LlamaLayer::wv);
        each(&LlamaLayer::wo);
        each(&LlamaLayer::ffnNorm);
        each(&LlamaLayer::w1);
        each(&LlamaLayer::w2);
        each(&LlamaLayer::w3);
        appendFloats(out, w.norm);
        // freq_cis_real / freq_cis_imag, which readers skip: fill with a marker to prove it.
        appendFloats(out, Floats(static_cast<std::size_t>(s.context * s.headDim()), 12345.0f));
        if (!s.tied)
            appendFloats(out, w.output);
        return out;
    }
    appendValue<std::uint32_t>(out, 0x616b3432);
    appendValue<std::int32_t>(out, 1);
    out.append(reinterpret_cast<const char*>(fields), sizeof fields);
    appendValue<std::uint8_t>(out, s.tied ? 1 : 0);
    out.append(QByteArray(256 - out.size(), '\0'));
    each(&LlamaLayer::attnNorm);
    each(&LlamaLayer::ffnNorm);
    appendFloats(out, w.norm);
    appendFloats(out, w.embed);
    each(&LlamaLayer::wq);
    each(&LlamaLayer::wk);
    each(&LlamaLayer::wv);
    each(&LlamaLayer::wo);
    each(&LlamaLayer::w1);
    each(&LlamaLayer::w2);
    each(&LlamaLayer::w3);
    if (!s.tied)
        appendFloats(out, w.output);
    return out;
}

// llama2.c version2_export (Q8_0 groups, runq.c). Replaces the matrices of `w` by their dequantized
// values, so the caller holds the model the file really describes.
inline QByteArray llama2cQ8Bytes(LlamaWeights& w, int groupSize) {
    const LlamaShape& s = w.shape;
    QByteArray out;
    appendValue<std::uint32_t>(out, 0x616b3432);
    appendValue<std::int32_t>(out, 2);
    const std::int32_t fields[7] = {s.dim, s.hidden, s.layers, s.heads, s.kvHeads, s.vocab, s.context};
    out.append(reinterpret_cast<const char*>(fields), sizeof fields);
    appendValue<std::uint8_t>(out, s.tied ? 1 : 0);
    appendValue<std::int32_t>(out, groupSize);
    out.append(QByteArray(256 - out.size(), '\0'));
    for (const LlamaLayer& L : w.layers)
        appendFloats(out, L.attnNorm);
    for (const LlamaLayer& L : w.layers)
        appendFloats(out, L.ffnNorm);
    appendFloats(out, w.norm);
    const auto quantize = [&](Floats& m) {
        QByteArray q;
        Floats scales;
        for (std::size_t g = 0; g < m.size(); g += static_cast<std::size_t>(groupSize)) {
            float maxAbs = 0;
            for (int i = 0; i < groupSize; ++i)
                maxAbs = std::max(maxAbs, std::fabs(m[g + i]));
            const float scale = maxAbs / 127.0f;
            for (int i = 0; i < groupSize; ++i) {
                const auto v = static_cast<std::int8_t>(std::lround(m[g + i] / scale));
                q.append(static_cast<char>(v));
                m[g + i] = static_cast<float>(v) * scale;
            }
            scales.push_back(scale);
        }
        out += q;
        appendFloats(out, scales);
    };
    quantize(w.embed);
    for (Floats LlamaLayer::*member : {&LlamaLayer::wq, &LlamaLayer::wk, &LlamaLayer::wv, &LlamaLayer::wo,
                                       &LlamaLayer::w1, &LlamaLayer::w2, &LlamaLayer::w3})
        for (LlamaLayer& L : w.layers)
            quantize(L.*member);
    if (!s.tied)
        quantize(w.output);
    return out;
}

// One tensor of a safetensors file: float32 values written as F32, F16 or BF16.
struct SafeTensor {
    std::string name;
    std::vector<std::int64_t> shape;
    Floats values;
    QString dtype = QStringLiteral("F32");
};

inline std::uint16_t toBfloat16(float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return static_cast<std::uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16); // round to nearest even
}
inline float fromBfloat16(std::uint16_t b) {
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline QByteArray safetensorsBytes(const std::vector<SafeTensor>& tensors) {
    QJsonObject header;
    QByteArray data;
    for (const SafeTensor& t : tensors) {
        const qsizetype begin = data.size();
        if (t.dtype == QLatin1String("BF16")) {
            for (float f : t.values)
                appendValue<std::uint16_t>(data, toBfloat16(f));
        } else {
            appendFloats(data, t.values);
        }
        QJsonArray shape;
        for (const std::int64_t d : t.shape)
            shape.append(static_cast<double>(d));
        header[QString::fromStdString(t.name)] = QJsonObject{
            {QStringLiteral("dtype"), t.dtype},
            {QStringLiteral("shape"), shape},
            {QStringLiteral("data_offsets"), QJsonArray{static_cast<double>(begin), static_cast<double>(data.size())}}};
    }
    header[QStringLiteral("__metadata__")] = QJsonObject{{QStringLiteral("format"), QStringLiteral("pt")}};
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8 != 0) // the reference writer pads the header with spaces to 8 bytes
        json.append(' ');
    QByteArray out;
    appendValue<std::uint64_t>(out, static_cast<std::uint64_t>(json.size()));
    return out + json + data;
}

inline bool writeJson(const QString& path, const QJsonObject& object) {
    return writeBytes(path, QJsonDocument(object).toJson());
}

// A Hugging Face folder: config.json (model_type llama or qwen2) and model.safetensors (or two shards
// with an index when `shards` is 2).
inline bool writeHfLlama(const QString& folder, const LlamaWeights& w,
                         const QString& modelType = QStringLiteral("llama"),
                         const QString& dtype = QStringLiteral("F32"), int shards = 1) {
    const LlamaShape& s = w.shape;
    QDir().mkpath(folder);
    const QDir dir(folder);
    QJsonObject config{{QStringLiteral("model_type"), modelType},
                       {QStringLiteral("architectures"), QJsonArray{QStringLiteral("LlamaForCausalLM")}},
                       {QStringLiteral("hidden_size"), s.dim},
                       {QStringLiteral("intermediate_size"), s.hidden},
                       {QStringLiteral("num_hidden_layers"), s.layers},
                       {QStringLiteral("num_attention_heads"), s.heads},
                       {QStringLiteral("num_key_value_heads"), s.kvHeads},
                       {QStringLiteral("vocab_size"), s.vocab},
                       {QStringLiteral("max_position_embeddings"), s.context},
                       {QStringLiteral("rms_norm_eps"), s.normEps},
                       {QStringLiteral("rope_theta"), s.ropeTheta},
                       {QStringLiteral("tie_word_embeddings"), s.tied},
                       {QStringLiteral("torch_dtype"), QStringLiteral("float32")},
                       {QStringLiteral("bos_token_id"), 1},
                       {QStringLiteral("eos_token_id"), 2}};
    if (s.llama3Scaling)
        config[QStringLiteral("rope_scaling")] = QJsonObject{{QStringLiteral("rope_type"), QStringLiteral("llama3")},
                                                             {QStringLiteral("factor"), 8.0},
                                                             {QStringLiteral("low_freq_factor"), 1.0},
                                                             {QStringLiteral("high_freq_factor"), 4.0},
                                                             {QStringLiteral("original_max_position_embeddings"), 64}};
    if (s.ropeParameters) {
        QJsonObject rope = config.take(QStringLiteral("rope_scaling")).toObject();
        if (rope.isEmpty())
            rope[QStringLiteral("rope_type")] = QStringLiteral("default");
        rope[QStringLiteral("rope_theta")] = config.take(QStringLiteral("rope_theta"));
        config[QStringLiteral("rope_parameters")] = rope;
    }
    if (!writeJson(dir.filePath(QStringLiteral("config.json")), config))
        return false;
    std::vector<SafeTensor> t;
    const auto add = [&](std::string name, std::vector<std::int64_t> shape, Floats values) {
        t.push_back({std::move(name), std::move(shape), std::move(values), dtype});
    };
    const int hd = s.headDim();
    add("model.embed_tokens.weight", {s.vocab, s.dim}, w.embed);
    for (int l = 0; l < s.layers; ++l) {
        const LlamaLayer& L = w.layers[static_cast<std::size_t>(l)];
        const std::string p = "model.layers." + std::to_string(l) + ".";
        add(p + "input_layernorm.weight", {s.dim}, L.attnNorm);
        add(p + "self_attn.q_proj.weight", {s.dim, s.dim}, permuteForHf(L.wq, s.heads, hd, s.dim));
        add(p + "self_attn.k_proj.weight", {s.kvDim(), s.dim}, permuteForHf(L.wk, s.kvHeads, hd, s.dim));
        add(p + "self_attn.v_proj.weight", {s.kvDim(), s.dim}, L.wv);
        add(p + "self_attn.o_proj.weight", {s.dim, s.dim}, L.wo);
        if (s.qkvBias) {
            add(p + "self_attn.q_proj.bias", {s.dim}, permuteForHf(L.bq, s.heads, hd, 1));
            add(p + "self_attn.k_proj.bias", {s.kvDim()}, permuteForHf(L.bk, s.kvHeads, hd, 1));
            add(p + "self_attn.v_proj.bias", {s.kvDim()}, L.bv);
        }
        add(p + "post_attention_layernorm.weight", {s.dim}, L.ffnNorm);
        add(p + "mlp.gate_proj.weight", {s.hidden, s.dim}, L.w1);
        add(p + "mlp.down_proj.weight", {s.dim, s.hidden}, L.w2);
        add(p + "mlp.up_proj.weight", {s.hidden, s.dim}, L.w3);
    }
    add("model.norm.weight", {s.dim}, w.norm);
    if (!s.tied)
        add("lm_head.weight", {s.vocab, s.dim}, w.output);
    if (shards == 1)
        return writeBytes(dir.filePath(QStringLiteral("model.safetensors")), safetensorsBytes(t));
    const std::size_t half = t.size() / 2;
    const std::vector<SafeTensor> first(t.begin(), t.begin() + static_cast<long>(half));
    const std::vector<SafeTensor> second(t.begin() + static_cast<long>(half), t.end());
    const QString a = QStringLiteral("model-00001-of-00002.safetensors");
    const QString b = QStringLiteral("model-00002-of-00002.safetensors");
    QJsonObject map;
    for (const SafeTensor& x : first)
        map[QString::fromStdString(x.name)] = a;
    for (const SafeTensor& x : second)
        map[QString::fromStdString(x.name)] = b;
    return writeBytes(dir.filePath(a), safetensorsBytes(first)) &&
           writeBytes(dir.filePath(b), safetensorsBytes(second)) &&
           writeJson(dir.filePath(QStringLiteral("model.safetensors.index.json")),
                     QJsonObject{{QStringLiteral("metadata"), QJsonObject{}}, {QStringLiteral("weight_map"), map}});
}

// ggml Q8_0 blocks (half d, 32 int8; x = d * q) of a row-major matrix whose rows are a multiple of 32.
// d is a power of two, so that it is exact in float16 and the dequantized values are known exactly;
// m is replaced by them.
inline QByteArray quantizeQ8_0(Floats& m) {
    QByteArray out;
    for (std::size_t b = 0; b < m.size(); b += 32) {
        float maxAbs = 0;
        for (int i = 0; i < 32; ++i)
            maxAbs = std::max(maxAbs, std::fabs(m[b + i]));
        const int exponent = static_cast<int>(std::ceil(std::log2(std::max(maxAbs, 1e-4f) / 127.0f)));
        const float d = std::ldexp(1.0f, exponent);
        appendValue<std::uint16_t>(out, static_cast<std::uint16_t>((exponent + 15) << 10));
        for (int i = 0; i < 32; ++i) {
            const long q = std::clamp(std::lround(m[b + i] / d), -127L, 127L);
            out.append(static_cast<char>(static_cast<std::int8_t>(q)));
            m[b + i] = static_cast<float>(q) * d;
        }
    }
    return out;
}

// GGUF as llama.cpp's converter writes a Llama ("llama": Meta layout) or Qwen2 ("qwen2": Hugging Face
// layout, NeoX RoPE) model, all tensors F32. ggml dims are innermost first: a [out, in] matrix is {in, out}.
// With `dequantized`, every matrix whose rows fit 32-element blocks is stored as Q8_0 (as in a mixed-type
// file), and *dequantized receives the weights the file then really holds.
inline GgufWriter ggufLlama(const LlamaWeights& weights, const std::string& arch = "llama",
                            LlamaWeights* dequantized = nullptr) {
    LlamaWeights w = weights;
    const bool q8 = dequantized != nullptr;
    const LlamaShape& s = w.shape;
    GgufWriter g;
    g.addString("general.architecture", arch);
    g.addString("general.name", "test");
    g.addUint32(arch + ".context_length", static_cast<std::uint32_t>(s.context));
    g.addUint32(arch + ".embedding_length", static_cast<std::uint32_t>(s.dim));
    g.addUint32(arch + ".block_count", static_cast<std::uint32_t>(s.layers));
    g.addUint32(arch + ".feed_forward_length", static_cast<std::uint32_t>(s.hidden));
    g.addUint32(arch + ".attention.head_count", static_cast<std::uint32_t>(s.heads));
    g.addUint32(arch + ".attention.head_count_kv", static_cast<std::uint32_t>(s.kvHeads));
    g.addFloat32(arch + ".attention.layer_norm_rms_epsilon", static_cast<float>(s.normEps));
    g.addFloat32(arch + ".rope.freq_base", static_cast<float>(s.ropeTheta));
    const bool hfLayout = arch == "qwen2";
    const int hd = s.headDim();
    const auto matrix = [&](const std::string& name, Floats& v, int rows, int cols) {
        if (q8 && cols % 32 == 0)
            g.addTensorRaw(name, 8, {cols, rows}, quantizeQ8_0(v));
        else
            g.addTensorF32(name, {cols, rows}, v);
    };
    matrix("token_embd.weight", w.embed, s.vocab, s.dim);
    for (int l = 0; l < s.layers; ++l) {
        LlamaLayer& L = w.layers[static_cast<std::size_t>(l)];
        const std::string p = "blk." + std::to_string(l) + ".";
        g.addTensorF32(p + "attn_norm.weight", {s.dim}, L.attnNorm);
        if (hfLayout) {
            Floats q = permuteForHf(L.wq, s.heads, hd, s.dim);
            Floats k = permuteForHf(L.wk, s.kvHeads, hd, s.dim);
            g.addTensorF32(p + "attn_q.weight", {s.dim, s.dim}, q);
            g.addTensorF32(p + "attn_k.weight", {s.dim, s.kvDim()}, k);
        } else {
            matrix(p + "attn_q.weight", L.wq, s.dim, s.dim);
            matrix(p + "attn_k.weight", L.wk, s.kvDim(), s.dim);
        }
        matrix(p + "attn_v.weight", L.wv, s.kvDim(), s.dim);
        if (s.qkvBias) {
            g.addTensorF32(p + "attn_q.bias", {s.dim}, hfLayout ? permuteForHf(L.bq, s.heads, hd, 1) : L.bq);
            g.addTensorF32(p + "attn_k.bias", {s.kvDim()}, hfLayout ? permuteForHf(L.bk, s.kvHeads, hd, 1) : L.bk);
            g.addTensorF32(p + "attn_v.bias", {s.kvDim()}, L.bv);
        }
        matrix(p + "attn_output.weight", L.wo, s.dim, s.dim);
        g.addTensorF32(p + "ffn_norm.weight", {s.dim}, L.ffnNorm);
        matrix(p + "ffn_gate.weight", L.w1, s.hidden, s.dim);
        matrix(p + "ffn_down.weight", L.w2, s.dim, s.hidden);
        matrix(p + "ffn_up.weight", L.w3, s.hidden, s.dim);
    }
    g.addTensorF32("output_norm.weight", {s.dim}, w.norm);
    if (const std::vector<double> divisors = llama3Divisors(s); !divisors.empty())
        g.addTensorF32("rope_freqs.weight", {static_cast<std::int64_t>(divisors.size())},
                       Floats(divisors.begin(), divisors.end()));
    if (!s.tied)
        matrix("output.weight", w.output, s.vocab, s.dim);
    if (dequantized)
        *dequantized = w;
    return g;
}

// ---- GPT-2 ------------------------------------------------------------------------------------------

struct Gpt2Shape {
    int dim = 32;
    int layers = 2;
    int heads = 4;
    int vocab = 50;
    int context = 40;
    int hidden() const { return 4 * dim; }
};

// Conv1D weights in GPT-2's own [in, out] layout.
struct Gpt2Layer {
    Floats ln1w, ln1b, attnW, attnB, projW, projB, ln2w, ln2b, fcW, fcB, fc2W, fc2B;
};

struct Gpt2Weights {
    Gpt2Shape shape;
    Floats wte, wpe, lnfW, lnfB;
    std::vector<Gpt2Layer> layers;
};

inline Gpt2Weights randomGpt2(const Gpt2Shape& s, std::uint64_t seed) {
    TestRandom r(seed);
    const auto n = [](int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); };
    const auto D = static_cast<std::size_t>(s.dim);
    const float scale = 1.0f / std::sqrt(static_cast<float>(s.dim));
    Gpt2Weights w;
    w.shape = s;
    w.wte = r.vector(n(s.vocab, s.dim), 0.5f);
    w.wpe = r.vector(n(s.context, s.dim), 0.2f);
    for (int l = 0; l < s.layers; ++l) {
        Gpt2Layer L;
        L.ln1w = r.gains(D);
        L.ln1b = r.vector(D, 0.1f);
        L.attnW = r.vector(n(s.dim, 3 * s.dim), scale * 1.5f);
        L.attnB = r.vector(3 * D, 0.1f);
        L.projW = r.vector(n(s.dim, s.dim), scale);
        L.projB = r.vector(D, 0.1f);
        L.ln2w = r.gains(D);
        L.ln2b = r.vector(D, 0.1f);
        L.fcW = r.vector(n(s.dim, s.hidden()), scale);
        L.fcB = r.vector(static_cast<std::size_t>(s.hidden()), 0.1f);
        L.fc2W = r.vector(n(s.hidden(), s.dim), 1.0f / std::sqrt(static_cast<float>(s.hidden())));
        L.fc2B = r.vector(D, 0.1f);
        w.layers.push_back(std::move(L));
    }
    w.lnfW = r.gains(D);
    w.lnfB = r.vector(D, 0.1f);
    return w;
}

// GPT-2 (Radford et al. 2019, transformers' modeling_gpt2) in double precision, whole sequence.
inline std::vector<double> referenceGpt2(const Gpt2Weights& w, const std::vector<int>& tokens) {
    const Gpt2Shape& s = w.shape;
    const int T = static_cast<int>(tokens.size());
    const int D = s.dim, H = s.heads, hd = s.dim / s.heads;
    // Conv1D: y = x W + b with W [in, out].
    const auto conv = [](const std::vector<double>& x, const Floats& W, const Floats& b) {
        const std::size_t in = x.size(), out = b.size();
        std::vector<double> y(b.begin(), b.end());
        for (std::size_t i = 0; i < in; ++i)
            for (std::size_t o = 0; o < out; ++o)
                y[o] += x[i] * W[i * out + o];
        return y;
    };
    const auto layerNorm = [](const std::vector<double>& x, const Floats& g, const Floats& b) {
        double mean = 0, var = 0;
        for (double v : x)
            mean += v;
        mean /= static_cast<double>(x.size());
        for (double v : x)
            var += (v - mean) * (v - mean);
        var /= static_cast<double>(x.size());
        std::vector<double> y(x.size());
        for (std::size_t i = 0; i < x.size(); ++i)
            y[i] = (x[i] - mean) / std::sqrt(var + 1e-5) * g[i] + b[i];
        return y;
    };
    std::vector<std::vector<double>> x(static_cast<std::size_t>(T), std::vector<double>(static_cast<std::size_t>(D)));
    for (int t = 0; t < T; ++t)
        for (int i = 0; i < D; ++i)
            x[t][i] = w.wte[static_cast<std::size_t>(tokens[t]) * D + i] + w.wpe[static_cast<std::size_t>(t) * D + i];
    for (const Gpt2Layer& L : w.layers) {
        std::vector<std::vector<double>> qkv(T);
        for (int t = 0; t < T; ++t)
            qkv[t] = conv(layerNorm(x[t], L.ln1w, L.ln1b), L.attnW, L.attnB);
        for (int t = 0; t < T; ++t) {
            std::vector<double> att(static_cast<std::size_t>(D), 0.0);
            for (int h = 0; h < H; ++h) {
                std::vector<double> score(static_cast<std::size_t>(t + 1));
                double maxScore = -1e300;
                for (int j = 0; j <= t; ++j) {
                    double dot = 0;
                    for (int i = 0; i < hd; ++i)
                        dot += qkv[t][h * hd + i] * qkv[j][D + h * hd + i];
                    score[j] = dot / std::sqrt(static_cast<double>(hd));
                    maxScore = std::max(maxScore, score[j]);
                }
                double sum = 0;
                for (double& e : score)
                    sum += (e = std::exp(e - maxScore));
                for (int j = 0; j <= t; ++j)
                    for (int i = 0; i < hd; ++i)
                        att[h * hd + i] += score[j] / sum * qkv[j][2 * D + h * hd + i];
            }
            const auto o = conv(att, L.projW, L.projB);
            for (int i = 0; i < D; ++i)
                x[t][i] += o[i];
            auto f = conv(layerNorm(x[t], L.ln2w, L.ln2b), L.fcW, L.fcB);
            for (double& v : f) // gelu_new: the tanh approximation
                v = 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
            const auto d = conv(f, L.fc2W, L.fc2B);
            for (int i = 0; i < D; ++i)
                x[t][i] += d[i];
        }
    }
    std::vector<double> logits;
    for (int t = 0; t < T; ++t) {
        const auto h = layerNorm(x[t], w.lnfW, w.lnfB);
        for (int v = 0; v < s.vocab; ++v) {
            double acc = 0;
            for (int i = 0; i < D; ++i)
                acc += h[i] * w.wte[static_cast<std::size_t>(v) * D + i];
            logits.push_back(acc);
        }
    }
    return logits;
}

// A Hugging Face GPT-2 folder; `prefix` "transformer." as GPT2LMHeadModel.save_pretrained writes
// it, or "" as the original gpt2 checkpoint has it.
inline bool writeHfGpt2(const QString& folder, const Gpt2Weights& w, const std::string& prefix = "") {
    const Gpt2Shape& s = w.shape;
    QDir().mkpath(folder);
    const QDir dir(folder);
    const QJsonObject config{{QStringLiteral("model_type"), QStringLiteral("gpt2")},
                             {QStringLiteral("n_embd"), s.dim},
                             {QStringLiteral("n_layer"), s.layers},
                             {QStringLiteral("n_head"), s.heads},
                             {QStringLiteral("n_positions"), s.context},
                             {QStringLiteral("n_ctx"), s.context},
                             {QStringLiteral("vocab_size"), s.vocab},
                             {QStringLiteral("n_inner"), QJsonValue()},
                             {QStringLiteral("activation_function"), QStringLiteral("gelu_new")},
                             {QStringLiteral("layer_norm_epsilon"), 1e-5},
                             {QStringLiteral("bos_token_id"), 0},
                             {QStringLiteral("eos_token_id"), 0}};
    if (!writeJson(dir.filePath(QStringLiteral("config.json")), config))
        return false;
    std::vector<SafeTensor> t;
    const auto add = [&](const std::string& name, std::vector<std::int64_t> shape, const Floats& values) {
        t.push_back({prefix + name, std::move(shape), values});
    };
    add("wte.weight", {s.vocab, s.dim}, w.wte);
    add("wpe.weight", {s.context, s.dim}, w.wpe);
    for (int l = 0; l < s.layers; ++l) {
        const Gpt2Layer& L = w.layers[static_cast<std::size_t>(l)];
        const std::string p = "h." + std::to_string(l) + ".";
        add(p + "ln_1.weight", {s.dim}, L.ln1w);
        add(p + "ln_1.bias", {s.dim}, L.ln1b);
        add(p + "attn.c_attn.weight", {s.dim, 3 * s.dim}, L.attnW);
        add(p + "attn.c_attn.bias", {3 * s.dim}, L.attnB);
        add(p + "attn.c_proj.weight", {s.dim, s.dim}, L.projW);
        add(p + "attn.c_proj.bias", {s.dim}, L.projB);
        add(p + "ln_2.weight", {s.dim}, L.ln2w);
        add(p + "ln_2.bias", {s.dim}, L.ln2b);
        add(p + "mlp.c_fc.weight", {s.dim, s.hidden()}, L.fcW);
        add(p + "mlp.c_fc.bias", {s.hidden()}, L.fcB);
        add(p + "mlp.c_proj.weight", {s.hidden(), s.dim}, L.fc2W);
        add(p + "mlp.c_proj.bias", {s.dim}, L.fc2B);
    }
    add("ln_f.weight", {s.dim}, w.lnfW);
    add("ln_f.bias", {s.dim}, w.lnfB);
    return writeBytes(dir.filePath(QStringLiteral("model.safetensors")), safetensorsBytes(t));
}

inline Floats transposed(const Floats& m, int rows, int cols) {
    Floats out(m.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            out[static_cast<std::size_t>(c) * rows + r] = m[static_cast<std::size_t>(r) * cols + c];
    return out;
}

// GGUF "gpt2" as llama.cpp's converter writes it: Conv1D weights transposed to [out, in].
inline GgufWriter ggufGpt2(const Gpt2Weights& w) {
    const Gpt2Shape& s = w.shape;
    GgufWriter g;
    g.addString("general.architecture", "gpt2");
    g.addUint32("gpt2.context_length", static_cast<std::uint32_t>(s.context));
    g.addUint32("gpt2.embedding_length", static_cast<std::uint32_t>(s.dim));
    g.addUint32("gpt2.block_count", static_cast<std::uint32_t>(s.layers));
    g.addUint32("gpt2.feed_forward_length", static_cast<std::uint32_t>(s.hidden()));
    g.addUint32("gpt2.attention.head_count", static_cast<std::uint32_t>(s.heads));
    g.addFloat32("gpt2.attention.layer_norm_epsilon", 1e-5f);
    g.addTensorF32("token_embd.weight", {s.dim, s.vocab}, w.wte);
    g.addTensorF32("position_embd.weight", {s.dim, s.context}, w.wpe);
    for (int l = 0; l < s.layers; ++l) {
        const Gpt2Layer& L = w.layers[static_cast<std::size_t>(l)];
        const std::string p = "blk." + std::to_string(l) + ".";
        g.addTensorF32(p + "attn_norm.weight", {s.dim}, L.ln1w);
        g.addTensorF32(p + "attn_norm.bias", {s.dim}, L.ln1b);
        g.addTensorF32(p + "attn_qkv.weight", {s.dim, 3 * s.dim}, transposed(L.attnW, s.dim, 3 * s.dim));
        g.addTensorF32(p + "attn_qkv.bias", {3 * s.dim}, L.attnB);
        g.addTensorF32(p + "attn_output.weight", {s.dim, s.dim}, transposed(L.projW, s.dim, s.dim));
        g.addTensorF32(p + "attn_output.bias", {s.dim}, L.projB);
        g.addTensorF32(p + "ffn_norm.weight", {s.dim}, L.ln2w);
        g.addTensorF32(p + "ffn_norm.bias", {s.dim}, L.ln2b);
        g.addTensorF32(p + "ffn_up.weight", {s.dim, s.hidden()}, transposed(L.fcW, s.dim, s.hidden()));
        g.addTensorF32(p + "ffn_up.bias", {s.hidden()}, L.fcB);
        g.addTensorF32(p + "ffn_down.weight", {s.hidden(), s.dim}, transposed(L.fc2W, s.hidden(), s.dim));
        g.addTensorF32(p + "ffn_down.bias", {s.dim}, L.fc2B);
    }
    g.addTensorF32("output_norm.weight", {s.dim}, w.lnfW);
    g.addTensorF32("output_norm.bias", {s.dim}, w.lnfB);
    return g;
}

} // namespace swb::test
