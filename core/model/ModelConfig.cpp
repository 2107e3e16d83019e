#include "model/ModelConfig.h"

#include <algorithm>
#include <limits>
#include <cstdint>
#include <optional>
#include <string>

#include <QJsonArray>
#include <QJsonValue>

#include "formats/GgufFile.h"

namespace swb {

namespace {

// Reads integer fields of a config.json, remembering the first one that is missing or not a
// positive integer so the caller can report it in one sentence.
class JsonFields {
public:
    JsonFields(const QJsonObject& object, const QString& file)
        : m_object(object)
        , m_file(file) {}

    int positive(const char* key, int fallback = -1) {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined() || value.isNull()) {
            if (fallback < 0)
                fail(QStringLiteral("%1 has no '%2'").arg(m_file, QLatin1String(key)));
            return fallback;
        }
        const double d = value.toDouble(-1);
        if (!value.isDouble() || d < 1 || d > 1e9 || d != static_cast<double>(static_cast<int>(d))) {
            fail(QStringLiteral("%1: '%2' must be an integer from 1 to 1000000000%3")
                     .arg(m_file, QLatin1String(key),
                          value.isDouble() ? QStringLiteral(", not %1").arg(QString::number(d, 'g', 12))
                                           : QStringLiteral(" (it is not a number)")));
            return 0;
        }
        return static_cast<int>(d);
    }

    double real(const char* key, double fallback) {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined() || value.isNull())
            return fallback;
        if (!value.isDouble() || !(value.toDouble() > 0)) {
            fail(QStringLiteral("%1: '%2' must be a positive number").arg(m_file, QLatin1String(key)));
            return fallback;
        }
        return value.toDouble();
    }

    bool boolean(const char* key, bool fallback) {
        const QJsonValue value = m_object.value(QLatin1String(key));
        return value.isBool() ? value.toBool() : fallback;
    }

    void fail(const QString& message) {
        if (m_error.isEmpty())
            m_error = message;
    }
    const QString& error() const { return m_error; }

private:
    const QJsonObject& m_object;
    QString m_file;
    QString m_error;
};

std::vector<int> tokenIds(const QJsonValue& value) {
    std::vector<int> ids;
    if (value.isDouble())
        ids.push_back(value.toInt());
    for (const QJsonValue& v : value.toArray())
        if (v.isDouble())
            ids.push_back(v.toInt());
    return ids;
}

} // namespace

Result<ModelConfig> ModelConfig::fromHuggingFace(const QJsonObject& json, const QString& file) {
    ModelConfig c;
    c.architecture = json.value(QLatin1String("model_type")).toString();
    JsonFields f(json, file);
    const QString type = c.architecture;
    if (type == QLatin1String("llama") || type == QLatin1String("mistral") || type == QLatin1String("qwen2")) {
        c.family = BlockFamily::Llama;
        c.dim = f.positive("hidden_size");
        c.hiddenDim = f.positive("intermediate_size");
        c.layers = f.positive("num_hidden_layers");
        c.heads = f.positive("num_attention_heads");
        c.kvHeads = f.positive("num_key_value_heads", c.heads > 0 ? c.heads : 1);
        c.headDim = f.positive("head_dim", c.heads > 0 ? c.dim / c.heads : 1);
        c.vocabSize = f.positive("vocab_size");
        c.contextLength = f.positive("max_position_embeddings", 2048);
        c.normEps = f.real("rms_norm_eps", 1e-6);
        // transformers 5 writes rope_theta and the scaling fields together in one rope_parameters object.
        const QJsonObject ropeParameters = json.value(QLatin1String("rope_parameters")).toObject();
        c.ropeTheta = f.real("rope_theta", ropeParameters.value(QLatin1String("rope_theta")).toDouble(10000.0));
        c.ropeStyle = RopeStyle::Halves;
        c.tiedEmbeddings = f.boolean("tie_word_embeddings", false);
        c.qkvBias = type == QLatin1String("qwen2") || f.boolean("attention_bias", false);
        if (f.boolean("mlp_bias", false))
            f.fail(QStringLiteral("%1: 'mlp_bias' is not supported").arg(file));
        const QJsonValue scaling = json.value(QLatin1String("rope_scaling")).isObject() ? json.value(QLatin1String("rope_scaling"))
                                                                                         : QJsonValue(ropeParameters);
        if (scaling.isObject()) {
            const QJsonObject s = scaling.toObject();
            QString kind = s.value(QLatin1String("rope_type")).toString();
            if (kind.isEmpty())
                kind = s.value(QLatin1String("type")).toString();
            if (kind == QLatin1String("llama3") || kind == QLatin1String("linear")) {
                JsonFields sf(s, file + QStringLiteral(" rope_scaling"));
                c.ropeScaling.type = kind;
                c.ropeScaling.factor = sf.real("factor", 1.0);
                if (kind == QLatin1String("llama3")) {
                    c.ropeScaling.lowFreqFactor = sf.real("low_freq_factor", 1.0);
                    c.ropeScaling.highFreqFactor = sf.real("high_freq_factor", 4.0);
                    c.ropeScaling.originalContext = sf.positive("original_max_position_embeddings", 8192);
                    if (c.ropeScaling.highFreqFactor <= c.ropeScaling.lowFreqFactor)
                        sf.fail(
                            QStringLiteral("%1: rope_scaling high_freq_factor must exceed low_freq_factor").arg(file));
                }
                if (!sf.error().isEmpty())
                    f.fail(sf.error());
            } else if (!kind.isEmpty() && kind != QLatin1String("default")) {
                f.fail(QStringLiteral("%1: rope_scaling type '%2' is not supported (supported: linear, llama3)")
                           .arg(file, kind));
            }
        }
    } else if (type == QLatin1String("gpt2")) {
        c.family = BlockFamily::Gpt2;
        c.dim = f.positive("n_embd");
        c.layers = f.positive("n_layer");
        c.heads = f.positive("n_head");
        c.kvHeads = c.heads;
        c.headDim = c.heads > 0 ? c.dim / c.heads : 0;
        c.hiddenDim = f.positive("n_inner", 4 * c.dim);
        c.vocabSize = f.positive("vocab_size");
        c.contextLength = f.positive("n_positions", f.positive("n_ctx", 1024));
        c.normEps = f.real("layer_norm_epsilon", 1e-5);
        c.tiedEmbeddings = true;
        const QString activation =
            json.value(QLatin1String("activation_function")).toString(QStringLiteral("gelu_new"));
        // GPT-2 was trained with the tanh approximation of GELU, which transformers calls gelu_new.
        if (activation != QLatin1String("gelu_new") && activation != QLatin1String("gelu_pytorch_tanh"))
            f.fail(QStringLiteral("%1: activation_function '%2' is not supported for gpt2 (expected gelu_new)")
                       .arg(file, activation));
    } else if (type.isEmpty()) {
        return Error::badInput(QStringLiteral("%1 has no 'model_type'").arg(file));
    } else {
        return Error::badInput(
            QStringLiteral("%1: model_type '%2' is not supported (supported: llama, mistral, qwen2, gpt2)")
                .arg(file, type));
    }
    if (!f.error().isEmpty())
        return Error::badInput(f.error());
    const std::vector<int> bos = tokenIds(json.value(QLatin1String("bos_token_id")));
    c.bosTokenId = bos.empty() ? -1 : bos.front();
    c.eosTokenIds = tokenIds(json.value(QLatin1String("eos_token_id")));
    if (Status valid = c.validate(file); !valid)
        return valid.error();
    return c;
}

Result<ModelConfig> ModelConfig::fromGguf(const GgufFile& file, const QString& fileName) {
    ModelConfig c;
    const std::optional<std::string> arch = file.string("general.architecture");
    if (!arch)
        return Error::badInput(QStringLiteral("%1 has no general.architecture").arg(fileName));
    c.architecture = QString::fromStdString(*arch);
    if (*arch == "llama" || *arch == "qwen2") {
        c.family = BlockFamily::Llama;
        // llama.cpp's converter puts Llama/Mistral Q/K rows back into Meta's interleaved order and
        // runs those archs with interleaved ("normal") RoPE; Qwen2 keeps the NeoX halves.
        c.ropeStyle = *arch == "llama" ? RopeStyle::Interleaved : RopeStyle::Halves;
        c.qkvBias = *arch == "qwen2";
    } else if (*arch == "gpt2") {
        c.family = BlockFamily::Gpt2;
    } else {
        return Error::badInput(QStringLiteral("%1: architecture '%2' is not supported (supported: llama, qwen2, gpt2)")
                                   .arg(fileName, c.architecture));
    }
    QString error;
    const auto key = [&](const char* name) { return *arch + "." + name; };
    const auto integer = [&](const char* name, std::int64_t fallback) -> int {
        const std::string k = key(name);
        if (!file.has(k)) {
            if (fallback < 0 && error.isEmpty())
                error = QStringLiteral("%1 has no metadata key %2").arg(fileName, QString::fromStdString(k));
            return static_cast<int>(std::max<std::int64_t>(fallback, 0));
        }
        const std::optional<std::int64_t> v = file.integer(k);
        if (!v || *v < 1 || *v > (1 << 30)) {
            if (error.isEmpty())
                error = QStringLiteral("%1: metadata key %2 must be an integer from 1 to %3%4")
                            .arg(fileName, QString::fromStdString(k))
                            .arg(1 << 30)
                            .arg(v ? QStringLiteral(", not %1").arg(*v) : QString());
            return 0;
        }
        return static_cast<int>(*v);
    };
    const auto real = [&](const char* name, double fallback) {
        const std::optional<double> v = file.real(key(name));
        return v && *v > 0 ? *v : fallback;
    };
    c.dim = integer("embedding_length", -1);
    c.layers = integer("block_count", -1);
    c.heads = integer("attention.head_count", -1);
    c.kvHeads = integer("attention.head_count_kv", c.heads);
    c.hiddenDim = integer("feed_forward_length", -1);
    c.contextLength = integer("context_length", -1);
    c.headDim = integer("attention.key_length", c.heads > 0 ? c.dim / c.heads : 1);
    c.vocabSize = integer("vocab_size", 0);
    if (c.vocabSize == 0)
        if (const std::optional<std::uint64_t> n = file.arraySize("tokenizer.ggml.tokens"))
            c.vocabSize = static_cast<int>(*n);
    if (c.family == BlockFamily::Gpt2) {
        c.normEps = real("attention.layer_norm_epsilon", 1e-5);
        c.tiedEmbeddings = true;
    } else {
        c.normEps = real("attention.layer_norm_rms_epsilon", 1e-5);
        c.ropeTheta = real("rope.freq_base", 10000.0);
        const std::optional<std::string> scaling = file.string(key("rope.scaling.type"));
        if (scaling && *scaling == "linear") {
            c.ropeScaling.type = QStringLiteral("linear");
            c.ropeScaling.factor = real("rope.scaling.factor", 1.0);
        } else if (scaling && *scaling != "none" && error.isEmpty()) {
            error = QStringLiteral("%1: rope scaling type '%2' is not supported (supported: linear)")
                        .arg(fileName, QString::fromStdString(*scaling));
        }
    }
    // RoPE over fewer dimensions than a head has (partial rotary) is not implemented; more is impossible.
    if (const std::optional<std::int64_t> rotated = file.integer(key("rope.dimension_count"));
        rotated && c.family != BlockFamily::Gpt2 && *rotated != c.headDim && error.isEmpty())
        error = *rotated > c.headDim || *rotated < 0
                    ? QStringLiteral("%1: rope.dimension_count %2 is larger than the head size %3")
                          .arg(fileName)
                          .arg(*rotated)
                          .arg(c.headDim)
                    : QStringLiteral("%1: rope.dimension_count %2 rotates part of a head of %3; partial rotary "
                                     "embeddings are not supported")
                          .arg(fileName)
                          .arg(*rotated)
                          .arg(c.headDim);
    if (!error.isEmpty())
        return Error::badInput(error);
    // Token ids within the vocabulary (an eos of -294967296 was taken and used later).
    for (const char* name : {"tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id"}) {
        const std::optional<std::int64_t> id = file.integer(name);
        if (id && (*id < 0 || (c.vocabSize > 0 && *id >= c.vocabSize) || *id > std::numeric_limits<int>::max()))
            return Error::badInput(QStringLiteral("%1: %2 %3 is outside the vocabulary of %4 tokens")
                                       .arg(fileName, QLatin1String(name))
                                       .arg(*id)
                                       .arg(c.vocabSize));
    }
    if (const auto bos = file.integer("tokenizer.ggml.bos_token_id"))
        c.bosTokenId = static_cast<int>(*bos);
    if (const auto eos = file.integer("tokenizer.ggml.eos_token_id"))
        c.eosTokenIds = {static_cast<int>(*eos)};
    return c;
}

ModelConfig ModelConfig::fromLlama2c(int dim, int hiddenDim, int layers, int heads, int kvHeads, int vocabSize,
                                     int seqLen, bool sharedClassifier) {
    ModelConfig c;
    c.architecture = QStringLiteral("llama");
    c.family = BlockFamily::Llama;
    c.dim = dim;
    c.hiddenDim = hiddenDim;
    c.layers = layers;
    c.heads = heads;
    c.kvHeads = kvHeads;
    c.headDim = dim / heads;
    c.vocabSize = vocabSize;
    c.contextLength = seqLen;
    c.normEps = 1e-5; // run.c's rmsnorm
    c.ropeTheta = 10000.0;
    c.ropeStyle = RopeStyle::Interleaved;
    c.tiedEmbeddings = sharedClassifier;
    c.bosTokenId = 1; // llama2.c's tokenizer convention; run.c stops when BOS comes back
    c.eosTokenIds = {2};
    return c;
}

Status ModelConfig::validate(const QString& source) const {
    constexpr int kLargest = 1 << 24;
    QString outside; // the first size out of range, named
    for (const auto& [name, value] : {std::pair{"dim", dim}, {"hidden", hiddenDim}, {"layers", layers}, {"heads", heads},
                                      {"kv heads", kvHeads}, {"head dim", headDim}, {"vocab", vocabSize},
                                      {"context", contextLength}})
        if (outside.isEmpty() && (value < 1 || value > kLargest))
            outside = QStringLiteral("%1 %2 is outside 1 to %3").arg(QLatin1String(name)).arg(value).arg(kLargest);
    if (!outside.isEmpty())
        return Error::badInput(
            QStringLiteral("%1 describes an invalid model shape: %10 (dim %2, hidden %3, layers %4, heads %5, "
                           "kv heads %6, head dim %7, vocab %8, context %9)")
                .arg(source)
                .arg(dim)
                .arg(hiddenDim)
                .arg(layers)
                .arg(heads)
                .arg(kvHeads)
                .arg(headDim)
                .arg(vocabSize)
                .arg(contextLength)
                .arg(outside));
    // Special token ids inside the vocabulary (bos -1: none).
    for (int id : eosTokenIds)
        if (id < 0 || id >= vocabSize)
            return Error::badInput(QStringLiteral("%1: end-of-sequence token id %2 is outside the vocabulary of %3 tokens")
                                       .arg(source)
                                       .arg(id)
                                       .arg(vocabSize));
    if (bosTokenId < -1 || bosTokenId >= vocabSize)
        return Error::badInput(QStringLiteral("%1: beginning-of-sequence token id %2 is outside the vocabulary of %3 tokens")
                                   .arg(source)
                                   .arg(bosTokenId)
                                   .arg(vocabSize));
    if (heads % kvHeads != 0)
        return Error::badInput(QStringLiteral("%1: %2 attention heads cannot be grouped over %3 key/value heads")
                                   .arg(source)
                                   .arg(heads)
                                   .arg(kvHeads));
    if (family == BlockFamily::Llama && headDim % 2 != 0)
        return Error::badInput(
            QStringLiteral("%1: head dimension %2 is odd, which RoPE cannot rotate").arg(source).arg(headDim));
    if (family == BlockFamily::Gpt2 && dim % heads != 0)
        return Error::badInput(
            QStringLiteral("%1: dimension %2 is not a multiple of %3 heads").arg(source).arg(dim).arg(heads));
    return {};
}

} // namespace swb
