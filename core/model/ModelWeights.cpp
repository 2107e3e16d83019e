#include "model/ModelWeights.h"

#include <algorithm>
#include <set>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "JsonError.h"
#include "formats/GgufDequantize.h"
#include "formats/GgufFile.h"
#include "formats/Llama2cCheckpoint.h"
#include "formats/SafeTensorsFile.h"
#include "model/kernels/WeightType.h"

namespace swb {

namespace {

struct Expected {
    std::string name;
    std::vector<std::int64_t> shape;
    bool required = true;
};

// Every weight the decoder reads for this configuration, with the shape the configuration implies.
std::vector<Expected> expectedWeights(const ModelConfig& c) {
    const std::int64_t dim = c.dim;
    const std::int64_t hidden = c.hiddenDim;
    const std::int64_t vocab = c.vocabSize;
    const std::int64_t qDim = static_cast<std::int64_t>(c.heads) * c.headDim;
    const std::int64_t kvDim = static_cast<std::int64_t>(c.kvHeads) * c.headDim;
    std::vector<Expected> e;
    e.push_back({"embed", {vocab, dim}});
    if (!c.tiedEmbeddings)
        e.push_back({"output", {vocab, dim}});
    e.push_back({"norm", {dim}});
    const bool gpt2 = c.family == BlockFamily::Gpt2;
    if (gpt2) {
        e.push_back({"norm_bias", {dim}});
        e.push_back({"pos_embed", {static_cast<std::int64_t>(c.contextLength), dim}});
    } else {
        e.push_back({"rope_freqs", {c.headDim / 2}, false});
    }
    for (int l = 0; l < c.layers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        e.push_back({p + "attn_norm", {dim}});
        e.push_back({p + "ffn_norm", {dim}});
        if (gpt2) {
            e.push_back({p + "attn_norm_bias", {dim}});
            e.push_back({p + "ffn_norm_bias", {dim}});
            e.push_back({p + "wqkv", {3 * dim, dim}});
            e.push_back({p + "bqkv", {3 * dim}});
            e.push_back({p + "wo", {dim, dim}});
            e.push_back({p + "bo", {dim}});
            e.push_back({p + "w_up", {hidden, dim}});
            e.push_back({p + "b_up", {hidden}});
            e.push_back({p + "w_down", {dim, hidden}});
            e.push_back({p + "b_down", {dim}});
        } else {
            e.push_back({p + "wq", {qDim, dim}});
            e.push_back({p + "wk", {kvDim, dim}});
            e.push_back({p + "wv", {kvDim, dim}});
            e.push_back({p + "wo", {dim, qDim}});
            if (c.qkvBias) {
                e.push_back({p + "bq", {qDim}});
                e.push_back({p + "bk", {kvDim}});
                e.push_back({p + "bv", {kvDim}});
            }
            e.push_back({p + "w_gate", {hidden, dim}});
            e.push_back({p + "w_up", {hidden, dim}});
            e.push_back({p + "w_down", {dim, hidden}});
        }
    }
    return e;
}

QString shapeText(const std::vector<std::int64_t>& shape) {
    QStringList parts;
    for (const std::int64_t d : shape)
        parts << QString::number(d);
    return QLatin1Char('[') + parts.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// Splits "layers.N.rest" into N and rest; returns -1 for names outside the layers.
int layerOf(const std::string& name, std::string& rest) {
    if (name.rfind("layers.", 0) != 0) {
        rest = name;
        return -1;
    }
    const std::size_t dot = name.find('.', 7);
    rest = name.substr(dot + 1);
    return std::stoi(name.substr(7, dot - 7));
}

Result<QJsonObject> readJsonObject(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    QJsonParseError error;
    const QByteArray bytes = file.readAll();
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return Error::badInput(QStringLiteral("%1 is not valid JSON: %2").arg(path, jsonErrorWhere(bytes, error)));
    if (!doc.isObject())
        return Error::badInput(QStringLiteral("%1 holds JSON of another shape; it must be an object {...}").arg(path));
    return doc.object();
}

} // namespace

std::int64_t ModelWeight::elements() const {
    std::int64_t n = 1;
    for (const std::int64_t d : shape)
        n *= d;
    return n;
}

void ModelWeight::toFloat(float* out) const {
    if (!stored) {
        dequantize(out);
        return;
    }
    // Row by row in stored order (a row is the innermost stored dimension).
    const std::int64_t columns = transposed || shape.size() < 2 ? shape.front() : shape.back();
    const std::int64_t rows = elements() / columns;
    const kernels::WeightTraits& traits = kernels::traits(*stored);
    const std::size_t rowBytes = kernels::rowBytes(*stored, columns);
    for (std::int64_t r = 0; r < rows; ++r)
        traits.toFloat(static_cast<const std::uint8_t*>(data) + r * rowBytes, out + r * columns, columns);
}

std::vector<WeightTypeTally> ModelWeights::typeTallies() const {
    std::map<QString, WeightTypeTally> byType;
    for (const auto& [name, weight] : m_weights) {
        WeightTypeTally& t = byType[weight.fileType];
        t.fileType = weight.fileType;
        ++t.tensors;
        t.elements += weight.elements();
        t.bytes += static_cast<std::int64_t>(weight.bytes);
    }
    std::vector<WeightTypeTally> out;
    for (auto& [type, tally] : byType)
        out.push_back(tally);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
    return out;
}

const ModelWeight* ModelWeights::find(const std::string& name) const {
    const auto it = m_weights.find(name);
    return it == m_weights.end() ? nullptr : &it->second;
}

Result<ModelWeights> ModelWeights::open(const QString& path) {
    ModelWeights weights;
    const QFileInfo info(path);
    if (!info.exists())
        return Error::badInput(QStringLiteral("model %1 does not exist").arg(path));
    Status status;
    if (info.isDir()) {
        status = weights.openHuggingFace(path);
    } else {
        QFile file(path);
        QByteArray magic;
        if (file.open(QIODevice::ReadOnly))
            magic = file.read(4);
        const QString suffix = info.suffix().toLower();
        if (magic == "GGUF" || suffix == QLatin1String("gguf"))
            status = weights.openGguf(path);
        else if (suffix == QLatin1String("safetensors") || info.fileName() == QLatin1String("config.json") ||
                 info.fileName().endsWith(QLatin1String(".safetensors.index.json")))
            status = weights.openHuggingFace(info.absolutePath()); // a file of a Hugging Face folder
        else
            status = weights.openLlama2c(path);
    }
    if (!status)
        return status.error();
    return weights;
}

Status ModelWeights::collect(const Naming& naming, const Fetch& fetch, const QString& container,
                             const QString& configSource) {
    std::map<QString, std::int64_t> elementsByType;
    for (const Expected& expected : expectedWeights(m_config)) {
        const SourceName source = naming(expected.name);
        auto fetched = fetch(source.name);
        if (!fetched)
            return fetched.error();
        if (!fetched.value().has_value()) {
            if (!expected.required)
                continue;
            return Error::badInput(QStringLiteral("tensor '%1' is missing from %2").arg(source.name, container));
        }
        ModelWeight weight = std::move(*fetched.value());
        std::vector<std::int64_t> logical = weight.shape;
        if (source.transposed)
            std::reverse(logical.begin(), logical.end());
        if (logical != expected.shape) {
            std::vector<std::int64_t> stored = expected.shape;
            if (source.transposed)
                std::reverse(stored.begin(), stored.end());
            return Error::badInput(
                QStringLiteral("tensor '%1' in %2 has shape %3 but %4 implies %5")
                    .arg(source.name, container, shapeText(weight.shape), configSource, shapeText(stored)));
        }
        weight.shape = logical;
        weight.transposed = source.transposed;
        m_parameters += weight.elements();
        elementsByType[weight.fileType] += weight.elements();
        m_weights.emplace(expected.name, std::move(weight));
    }
    const auto dominant = std::max_element(elementsByType.begin(), elementsByType.end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
    m_fileDtype = dominant == elementsByType.end() ? QString() : dominant->first;
    return {};
}

// --- Hugging Face ------------------------------------------------------------------------------------

namespace {

// generation_config.json's special ids over config.json's, as transformers takes them.
Status applyGenerationConfig(const QString& generationPath, ModelConfig& config) {
    auto generation = readJsonObject(generationPath);
    if (!generation)
        return generation.error();
    const QJsonObject g = generation.value();
    if (g.value(QLatin1String("bos_token_id")).isDouble())
        config.bosTokenId = g.value(QLatin1String("bos_token_id")).toInt();
    const QJsonValue eos = g.value(QLatin1String("eos_token_id"));
    if (eos.isDouble() || eos.isArray()) {
        config.eosTokenIds.clear();
        if (eos.isDouble())
            config.eosTokenIds.push_back(eos.toInt());
        for (const QJsonValue& v : eos.toArray())
            config.eosTokenIds.push_back(v.toInt());
    }
    return {};
}

// The safetensors files of a Hugging Face folder, and how messages name them together.
struct Shards {
    QStringList names;
    QString container;
    bool fromIndex = false; // named by model.safetensors.index.json
};

// Single file, or shards named by the index's weight_map.
Result<Shards> findShards(const QDir& dir, const QString& folder, const QString& indexPath) {
    Shards shards;
    QStringList& shardNames = shards.names;
    QString& container = shards.container;
    const QString singlePath = dir.filePath(QStringLiteral("model.safetensors"));
    if (QFileInfo::exists(indexPath)) {
        auto index = readJsonObject(indexPath);
        if (!index)
            return index.error();
        const QJsonObject map = index.value().value(QLatin1String("weight_map")).toObject();
        if (map.isEmpty())
            return Error::badInput(QStringLiteral("%1 has no weight_map").arg(indexPath));
        std::set<QString> unique;
        for (auto it = map.begin(); it != map.end(); ++it)
            unique.insert(it.value().toString());
        for (const QString& shard : unique)
            shardNames << shard;
        container = QStringLiteral("the shards of model.safetensors.index.json");
        shards.fromIndex = true;
    } else if (QFileInfo::exists(singlePath)) {
        shardNames << QStringLiteral("model.safetensors");
        container = QStringLiteral("model.safetensors");
    } else if (QFileInfo::exists(dir.filePath(QStringLiteral("pytorch_model.bin")))) {
        return Error::badInput(QStringLiteral("%1 holds PyTorch pickle weights (pytorch_model.bin), which are not "
                                              "supported; convert them to model.safetensors")
                                   .arg(folder));
    } else {
        return Error::badInput(
            QStringLiteral("%1 has no model.safetensors or model.safetensors.index.json").arg(folder));
    }
    return shards;
}

// A GPT-2 checkpoint's name for a decoder weight (r, in layer l, or global when layer < 0) and whether it is
// stored transposed.
std::pair<QString, bool> gpt2TensorName(int layer, const QString& r, const QString& l, const QString& gptPrefix) {
    static const std::map<QString, std::pair<QString, bool>> global = {
        {QStringLiteral("embed"), {QStringLiteral("wte.weight"), false}},
        {QStringLiteral("pos_embed"), {QStringLiteral("wpe.weight"), false}},
        {QStringLiteral("norm"), {QStringLiteral("ln_f.weight"), false}},
        {QStringLiteral("norm_bias"), {QStringLiteral("ln_f.bias"), false}},
        {QStringLiteral("output"), {QStringLiteral("lm_head.weight"), false}},
    };
    // Conv1D layers store [in, out]: the decoder views them transposed.
    static const std::map<QString, std::pair<QString, bool>> perLayer = {
        {QStringLiteral("attn_norm"), {QStringLiteral("ln_1.weight"), false}},
        {QStringLiteral("attn_norm_bias"), {QStringLiteral("ln_1.bias"), false}},
        {QStringLiteral("ffn_norm"), {QStringLiteral("ln_2.weight"), false}},
        {QStringLiteral("ffn_norm_bias"), {QStringLiteral("ln_2.bias"), false}},
        {QStringLiteral("wqkv"), {QStringLiteral("attn.c_attn.weight"), true}},
        {QStringLiteral("bqkv"), {QStringLiteral("attn.c_attn.bias"), false}},
        {QStringLiteral("wo"), {QStringLiteral("attn.c_proj.weight"), true}},
        {QStringLiteral("bo"), {QStringLiteral("attn.c_proj.bias"), false}},
        {QStringLiteral("w_up"), {QStringLiteral("mlp.c_fc.weight"), true}},
        {QStringLiteral("b_up"), {QStringLiteral("mlp.c_fc.bias"), false}},
        {QStringLiteral("w_down"), {QStringLiteral("mlp.c_proj.weight"), true}},
        {QStringLiteral("b_down"), {QStringLiteral("mlp.c_proj.bias"), false}},
    };
    if (layer < 0) {
        const auto& [name, transposed] = global.at(r);
        return {r == QLatin1String("output") ? name : gptPrefix + name, transposed};
    }
    const auto& [name, transposed] = perLayer.at(r);
    return {gptPrefix + QStringLiteral("h.%1.").arg(l) + name, transposed};
}

// A Llama-style checkpoint's name for a decoder weight (r, in layer l, or global when layer < 0).
QString llamaTensorName(int layer, const QString& r, const QString& l) {
    static const std::map<QString, QString> global = {
        {QStringLiteral("embed"), QStringLiteral("model.embed_tokens.weight")},
        {QStringLiteral("output"), QStringLiteral("lm_head.weight")},
        {QStringLiteral("norm"), QStringLiteral("model.norm.weight")},
        {QStringLiteral("rope_freqs"), QStringLiteral("model.rope_freqs")}, // never present in HF files
    };
    static const std::map<QString, QString> perLayer = {
        {QStringLiteral("attn_norm"), QStringLiteral("input_layernorm.weight")},
        {QStringLiteral("ffn_norm"), QStringLiteral("post_attention_layernorm.weight")},
        {QStringLiteral("wq"), QStringLiteral("self_attn.q_proj.weight")},
        {QStringLiteral("wk"), QStringLiteral("self_attn.k_proj.weight")},
        {QStringLiteral("wv"), QStringLiteral("self_attn.v_proj.weight")},
        {QStringLiteral("wo"), QStringLiteral("self_attn.o_proj.weight")},
        {QStringLiteral("bq"), QStringLiteral("self_attn.q_proj.bias")},
        {QStringLiteral("bk"), QStringLiteral("self_attn.k_proj.bias")},
        {QStringLiteral("bv"), QStringLiteral("self_attn.v_proj.bias")},
        {QStringLiteral("w_gate"), QStringLiteral("mlp.gate_proj.weight")},
        {QStringLiteral("w_up"), QStringLiteral("mlp.up_proj.weight")},
        {QStringLiteral("w_down"), QStringLiteral("mlp.down_proj.weight")},
    };
    if (layer < 0)
        return global.at(r);
    return QStringLiteral("model.layers.%1.").arg(l) + perLayer.at(r);
}

using SafeTensorsByName =
    std::map<QString, std::pair<std::shared_ptr<const SafeTensorsFile>, const SafeTensorsFile::Tensor*>>;

// The tensor of that name in the shards as a weight (F32, F16 or BF16); nullopt when no shard has it.
Result<std::optional<ModelWeight>> fetchSafeTensor(const SafeTensorsByName& byName, const QString& name) {
    const auto it = byName.find(name);
    if (it == byName.end())
        return std::optional<ModelWeight>();
    const auto& [file, tensor] = it->second;
    ModelWeight w;
    if (tensor->dtype == QLatin1String("F32"))
        w.stored = kernels::WeightType::F32;
    else if (tensor->dtype == QLatin1String("F16"))
        w.stored = kernels::WeightType::F16;
    else if (tensor->dtype == QLatin1String("BF16"))
        w.stored = kernels::WeightType::BF16;
    else
        return Error::badInput(QStringLiteral("tensor '%1' in %2 has dtype %3, which is not supported (F32, F16, BF16)")
                                   .arg(name, QFileInfo(file->path()).fileName(), tensor->dtype));
    w.fileType = tensor->dtype.toLower();
    w.shape = tensor->shape;
    w.data = tensor->data;
    w.bytes = tensor->bytes;
    w.owner = file;
    w.mapping = file->mapping().get();
    return std::optional<ModelWeight>(std::move(w));
}

} // namespace
Status ModelWeights::openHuggingFace(const QString& folder) {
    m_format = QStringLiteral("hf-safetensors");
    const QDir dir(folder);
    const QString configPath = dir.filePath(QStringLiteral("config.json"));
    if (!QFileInfo::exists(configPath))
        return Error::badInput(QStringLiteral("%1 is not a model: it has no config.json").arg(folder));
    auto json = readJsonObject(configPath);
    if (!json)
        return json.error();
    auto config = ModelConfig::fromHuggingFace(json.value(), QStringLiteral("config.json"));
    if (!config)
        return config.error();
    m_config = std::move(config.value());
    m_files << configPath;

    // generation_config.json overrides the special ids of config.json, as transformers does.
    const QString generationPath = dir.filePath(QStringLiteral("generation_config.json"));
    if (QFileInfo::exists(generationPath)) {
        if (Status applied = applyGenerationConfig(generationPath, m_config); !applied)
            return applied;
        m_files << generationPath;
    }

    const QString indexPath = dir.filePath(QStringLiteral("model.safetensors.index.json"));
    Result<Shards> shards = findShards(dir, folder, indexPath);
    if (!shards)
        return shards.error();
    if (shards->fromIndex)
        m_files << indexPath;

    SafeTensorsByName byName;
    for (const QString& shard : shards->names) {
        if (shard.isEmpty() || shard.contains(QLatin1Char('/')) || shard.contains(QLatin1Char('\\')))
            return Error::badInput(QStringLiteral("%1 names an invalid shard '%2'").arg(indexPath, shard));
        const QString shardPath = dir.filePath(shard);
        auto file = SafeTensorsFile::open(shardPath);
        if (!file)
            return file.error();
        auto shared = std::make_shared<const SafeTensorsFile>(std::move(file.value()));
        m_fileBytes += static_cast<std::int64_t>(shared->fileSize());
        m_files << shardPath;
        for (const SafeTensorsFile::Tensor& t : shared->tensors())
            byName[QString::fromStdString(t.name)] = {shared, &t};
    }

    const bool gpt2 = m_config.family == BlockFamily::Gpt2;
    // GPT-2 checkpoints name their tensors with or without the "transformer." prefix.
    const QString gptPrefix =
        byName.count(QStringLiteral("transformer.wte.weight")) ? QStringLiteral("transformer.") : QString();
    const Naming naming = [&](const std::string& decoderName) -> SourceName {
        std::string rest;
        const int layer = layerOf(decoderName, rest);
        const QString l = QString::number(layer);
        const QString r = QString::fromStdString(rest);
        if (gpt2) {
            const auto [name, transposed] = gpt2TensorName(layer, r, l, gptPrefix);
            return {name, transposed};
        }
        return {llamaTensorName(layer, r, l), false};
    };
    const Fetch fetch = [&](const QString& name) { return fetchSafeTensor(byName, name); };
    return collect(naming, fetch, shards->container, QStringLiteral("config.json"));
}

// --- llama2.c ----------------------------------------------------------------------------------------

Status ModelWeights::openLlama2c(const QString& path) {
    m_format = QStringLiteral("llama2c");
    auto opened = Llama2cCheckpoint::open(path);
    if (!opened)
        return opened.error();
    auto checkpoint = std::make_shared<const Llama2cCheckpoint>(std::move(opened.value()));
    const Llama2cCheckpoint::Header& h = checkpoint->header();
    m_config = ModelConfig::fromLlama2c(h.dim, h.hiddenDim, h.layers, h.heads, h.kvHeads, h.vocabSize, h.seqLen,
                                        h.sharedClassifier);
    const QString fileName = QFileInfo(path).fileName();
    if (Status valid = m_config.validate(fileName); !valid)
        return valid;
    m_files << path;
    m_fileBytes = static_cast<std::int64_t>(checkpoint->fileSize());

    const Naming naming = [](const std::string& decoderName) -> SourceName {
        static const std::map<std::string, std::string> renamed = {
            {"embed", "tok_embeddings"},
            {"attn_norm", "attention_norm"},
            {"w_gate", "w1"},
            {"w_down", "w2"},
            {"w_up", "w3"},
        };
        std::string rest;
        const int layer = layerOf(decoderName, rest);
        if (const auto it = renamed.find(rest); it != renamed.end())
            rest = it->second;
        return {QString::fromStdString(layer < 0 ? rest : "layers." + std::to_string(layer) + "." + rest), false};
    };
    const Fetch fetch = [&](const QString& name) -> Result<std::optional<ModelWeight>> {
        const Llama2cCheckpoint::Tensor* t = checkpoint->tensor(name.toStdString());
        if (!t)
            return std::optional<ModelWeight>();
        ModelWeight w;
        w.shape = t->shape;
        w.owner = checkpoint;
        if (t->f32) {
            w.stored = kernels::WeightType::F32;
            w.fileType = QStringLiteral("f32");
            w.data = t->f32;
            w.bytes = static_cast<std::size_t>(t->elements()) * sizeof(float);
        } else {
            w.fileType = QStringLiteral("q8_0"); // llama2.c's own grouping, not ggml's Q8_0 blocks
            w.bytes = static_cast<std::size_t>(t->elements() + t->elements() / t->groupSize * 4);
            const Llama2cCheckpoint::Tensor tensor = *t;
            w.dequantize = [tensor](float* out) {
                tensor.dequantize(std::span<float>(out, static_cast<std::size_t>(tensor.elements())));
            };
        }
        return std::optional<ModelWeight>(std::move(w));
    };
    return collect(naming, fetch, fileName, QStringLiteral("its header"));
}

// --- GGUF --------------------------------------------------------------------------------------------

Status ModelWeights::openGguf(const QString& path) {
    m_format = QStringLiteral("gguf");
    auto opened = GgufFile::open(path);
    if (!opened)
        return opened.error();
    auto file = std::make_shared<const GgufFile>(std::move(opened.value()));
    const QString fileName = QFileInfo(path).fileName();
    auto config = ModelConfig::fromGguf(*file, fileName);
    if (!config)
        return config.error();
    m_config = std::move(config.value());
    // What the metadata leaves open, the tensors decide: vocabulary size, tied classifier, Q/K/V biases.
    const GgufFile::Tensor* embedding = file->tensor("token_embd.weight");
    if (m_config.vocabSize == 0 && embedding && embedding->dims.size() == 2)
        m_config.vocabSize = static_cast<int>(embedding->dims[1]);
    m_config.tiedEmbeddings = file->tensor("output.weight") == nullptr;
    if (m_config.family == BlockFamily::Llama && file->tensor("blk.0.attn_q.bias"))
        m_config.qkvBias = true;
    if (Status valid = m_config.validate(fileName); !valid)
        return valid;
    m_files << path;
    m_fileBytes = static_cast<std::int64_t>(file->fileSize());

    const Naming naming = [](const std::string& decoderName) -> SourceName {
        return {QString::fromStdString(ggufTensorName(decoderName)), false};
    };
    const Fetch fetch = [&](const QString& name) -> Result<std::optional<ModelWeight>> {
        const GgufFile::Tensor* t = file->tensor(name.toStdString());
        if (!t)
            return std::optional<ModelWeight>();
        ModelWeight w;
        // ggml lists dimensions innermost first; the decoder's shapes are outermost first.
        w.shape.assign(t->dims.rbegin(), t->dims.rend());
        w.fileType = ggmlTypeName(t->type);
        w.bytes = static_cast<std::size_t>(t->bytes);
        w.owner = file;
        w.mapping = file->mapping().get();
        const std::optional<kernels::WeightType> type = kernels::fromGgml(t->type);
        if (!t->data || !type)
            return Error::badInput(QStringLiteral("tensor '%1' in %2 is stored as %3, which is not supported (f32, "
                                                  "f16, bf16, q8_0, q4_0, q4_1, q5_0, q5_1, q2_k, q3_k, q4_k, q5_k, "
                                                  "q6_k)")
                                       .arg(name, fileName, w.fileType));
        // Our idea of the size must agree with the reader's before we read the bytes.
        const std::int64_t rowLength = t->dims.empty() ? 0 : t->dims[0];
        const std::size_t rowBytes = kernels::rowBytes(*type, rowLength);
        if (rowBytes == 0 || rowBytes * static_cast<std::size_t>(t->elements() / rowLength) != t->bytes)
            return Error::badInput(
                QStringLiteral("tensor '%1' in %2 has rows of %3 elements, which is not a whole number of %4 blocks "
                               "of %5")
                    .arg(name, fileName)
                    .arg(rowLength)
                    .arg(w.fileType)
                    .arg(kernels::traits(*type).blockElements));
        w.stored = type;
        w.data = t->data;
        return std::optional<ModelWeight>(std::move(w));
    };
    return collect(naming, fetch, fileName, QStringLiteral("its metadata"));
}

std::string ggufTensorName(const std::string& decoderName) {
    static const std::map<std::string, std::string> global = {
        {"embed", "token_embd.weight"}, {"pos_embed", "position_embd.weight"}, {"output", "output.weight"},
        {"norm", "output_norm.weight"}, {"norm_bias", "output_norm.bias"},     {"rope_freqs", "rope_freqs.weight"},
    };
    static const std::map<std::string, std::string> perLayer = {
        {"attn_norm", "attn_norm.weight"},
        {"attn_norm_bias", "attn_norm.bias"},
        {"ffn_norm", "ffn_norm.weight"},
        {"ffn_norm_bias", "ffn_norm.bias"},
        {"wq", "attn_q.weight"},
        {"wk", "attn_k.weight"},
        {"wv", "attn_v.weight"},
        {"bq", "attn_q.bias"},
        {"bk", "attn_k.bias"},
        {"bv", "attn_v.bias"},
        {"wqkv", "attn_qkv.weight"},
        {"bqkv", "attn_qkv.bias"},
        {"wo", "attn_output.weight"},
        {"bo", "attn_output.bias"},
        {"w_gate", "ffn_gate.weight"},
        {"w_up", "ffn_up.weight"},
        {"b_up", "ffn_up.bias"},
        {"w_down", "ffn_down.weight"},
        {"b_down", "ffn_down.bias"},
    };
    std::string rest;
    const int layer = layerOf(decoderName, rest);
    if (layer < 0)
        return global.at(rest);
    return "blk." + std::to_string(layer) + "." + perLayer.at(rest);
}

// --- identity ----------------------------------------------------------------------------------------

Result<QString> ModelWeights::contentHash() const {
    constexpr qint64 kEdge = 1 << 20;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QByteArrayView("swb-model-identity-v1"));
    for (const QString& path : m_files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return Error::badInput(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        const qint64 size = file.size();
        QByteArray sizeBytes(8, '\0');
        for (int i = 0; i < 8; ++i)
            sizeBytes[i] = static_cast<char>((static_cast<quint64>(size) >> (8 * i)) & 0xFF);
        hash.addData(sizeBytes);
        hash.addData(file.read(std::min(size, kEdge)));
        if (size > kEdge) {
            file.seek(std::max(kEdge, size - kEdge));
            hash.addData(file.readAll());
        }
    }
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace swb
