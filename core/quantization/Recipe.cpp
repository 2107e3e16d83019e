#include "quantization/Recipe.h"

#include <algorithm>
#include <cstdio>

namespace swb::quantization {

namespace {

using W = kernels::WeightType;

// llama_ftype values (llama.h).
enum FileType : std::uint32_t {
    AllF32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q8_0 = 7,
    Q5_0 = 8,
    Q5_1 = 9,
    Q2_K = 10,
    Q3_K_S = 11,
    Q3_K_M = 12,
    Q3_K_L = 13,
    Q4_K_S = 14,
    Q4_K_M = 15,
    Q5_K_S = 16,
    Q5_K_M = 17,
    Q6_K = 18,
    BF16 = 32,
};

struct NamedRecipe {
    const char* name;
    FileType fileType;
    W base;
};

constexpr NamedRecipe kRecipes[] = {
    {"f32", AllF32, W::F32},
    {"f16", F16, W::F16},
    {"bf16", BF16, W::BF16},
    {"q8_0", Q8_0, W::Q8_0},
    {"q4_0", Q4_0, W::Q4_0},
    {"q4_1", Q4_1, W::Q4_1},
    {"q5_0", Q5_0, W::Q5_0},
    {"q5_1", Q5_1, W::Q5_1},
    {"q2_k", Q2_K, W::Q2_K},
    {"q3_k_s", Q3_K_S, W::Q3_K},
    {"q3_k_m", Q3_K_M, W::Q3_K},
    {"q3_k_l", Q3_K_L, W::Q3_K},
    {"q4_k_s", Q4_K_S, W::Q4_K},
    {"q4_k_m", Q4_K_M, W::Q4_K},
    {"q5_k_s", Q5_K_S, W::Q5_K},
    {"q5_k_m", Q5_K_M, W::Q5_K},
    {"q6_k", Q6_K, W::Q6_K},
    // llama-quantize's short names for the _m recipes.
    {"q3_k", Q3_K_M, W::Q3_K},
    {"q4_k", Q4_K_M, W::Q4_K},
    {"q5_k", Q5_K_M, W::Q5_K},
};

bool isQuantized(W type) {
    return type != W::F32 && type != W::F16 && type != W::BF16;
}

int blockOf(W type) {
    return kernels::traits(type).blockElements;
}

enum class Category {
    Output,
    TokenEmbedding,
    AttentionV,
    AttentionK,
    AttentionQ,
    AttentionOutput,
    FfnUp,
    FfnGate,
    FfnDown,
    Other
};

bool contains(const std::string& s, const char* part) {
    return s.find(part) != std::string::npos;
}

// llama.cpp's tensor_get_category: broad roles by name, in its order of tests.
Category categoryOf(const std::string& name) {
    if (name == "output.weight")
        return Category::Output;
    if (name == "token_embd.weight" || name == "per_layer_token_embd.weight")
        return Category::TokenEmbedding;
    if (contains(name, "attn_qkv.weight") || contains(name, "attn_kv_b.weight") || contains(name, "attn_v.weight"))
        return Category::AttentionV; // the attention-v-like tensors, the most sensitive to quantization
    if (contains(name, "attn_k.weight"))
        return Category::AttentionK;
    if (contains(name, "attn_q.weight"))
        return Category::AttentionQ;
    if (contains(name, "attn_output.weight"))
        return Category::AttentionOutput;
    if (contains(name, "ffn_up"))
        return Category::FfnUp;
    if (contains(name, "ffn_gate"))
        return Category::FfnGate;
    if (contains(name, "ffn_down"))
        return Category::FfnDown;
    return Category::Other;
}

// ggml_n_dims: trailing dimensions of 1 do not count.
int dimensionCount(const std::vector<std::int64_t>& dims) {
    int n = 1;
    for (std::size_t i = 1; i < dims.size(); ++i)
        if (dims[i] > 1)
            n = static_cast<int>(i) + 1;
    return n;
}

// llama.cpp's tensor_allows_quantization for the architectures we read: weights of two or more
// dimensions, norms, routers and a few small or positional tables excepted.
bool allowsQuantization(const TensorInfo& t) {
    const std::string& name = t.name;
    if (dimensionCount(t.dims) < 2 || name.size() < 6 || name.compare(name.size() - 6, 6, "weight") != 0)
        return false;
    static const char* const kept[] = {"_norm.weight",
                                       "ffn_gate_inp.weight",
                                       "altup",
                                       "laurel",
                                       "per_layer_model_proj",
                                       "ssm_conv1d",
                                       "shortconv.conv.weight",
                                       "time_mix_",
                                       "attn_rel_b.weight",
                                       ".position_embd",
                                       ".rel_pos",
                                       ".patch_embd"};
    for (const char* part : kept)
        if (contains(name, part))
            return false;
    return name != "position_embd.weight" && name != "token_types.weight";
}

// use_more_bits: the first and last eighth of the layers and every third one between.
bool moreBits(int i, int n) {
    return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

struct Counters {
    int attentionV = 0; // how many attention-v-like tensors the model has
    int iAttentionV = 0;
    int iFfnDown = 0;
    bool tiedEmbeddings = true;
};

// llama_tensor_get_type_impl, for the recipes of kRecipes.
W ruleType(W type, const TensorInfo& t, const ModelShape& m, FileType ft, Category c, Counters& n) {
    const bool falcon = m.architecture == "falcon";
    const int gqa = m.kvHeads > 0 ? m.heads / m.kvHeads : 0;
    const bool is70B = m.architecture == "llama" && m.layers == 80 && m.heads != m.kvHeads;
    if (c == Category::Output || (n.tiedEmbeddings && c == Category::TokenEmbedding)) {
        if (falcon || t.dims[0] % blockOf(type) != 0)
            return W::Q8_0;
        return type != W::Q8_0 ? W::Q6_K : type;
    }
    switch (c) {
    case Category::AttentionV:
        if (ft == Q2_K)
            type = gqa >= 4 ? W::Q4_K : W::Q3_K;
        else if (ft == Q3_K_M)
            type = n.iAttentionV < 2 ? W::Q5_K : W::Q4_K;
        else if (ft == Q3_K_L)
            type = W::Q5_K;
        else if ((ft == Q4_K_M || ft == Q5_K_M) && moreBits(n.iAttentionV, n.attentionV))
            type = W::Q6_K;
        else if (ft == Q4_K_S && n.iAttentionV < 4)
            type = W::Q5_K;
        if (is70B && (type == W::Q3_K || type == W::Q4_K))
            type = W::Q5_K; // attn_v is 8× smaller than attn_q there: more bits cost little
        if (m.experts == 8)
            type = W::Q8_0;
        ++n.iAttentionV;
        break;
    case Category::AttentionK:
        if (m.experts == 8)
            type = W::Q8_0;
        break;
    case Category::FfnDown: {
        int i = n.iFfnDown;
        if (m.experts > 1)
            std::sscanf(t.name.c_str(), "blk.%d.", &i); // experts' tensors are not consecutive
        const int layers = m.layers;
        if (ft == Q2_K)
            type = W::Q3_K;
        else if (ft == Q3_K_M)
            type = i < layers / 16 ? W::Q5_K : !falcon || moreBits(i, layers) ? W::Q4_K : W::Q3_K;
        else if (ft == Q3_K_L)
            type = falcon ? W::Q4_K : W::Q5_K;
        else if (ft == Q4_K_M) {
            if (falcon)
                type = i < layers / 16 ? W::Q6_K : moreBits(i, layers) ? W::Q5_K : W::Q4_K;
            else if (moreBits(i, layers))
                type = W::Q6_K;
        } else if (ft == Q5_K_M && moreBits(i, layers))
            type = W::Q6_K;
        else if (ft == Q4_K_S && !falcon && i < layers / 8)
            type = W::Q5_K;
        ++n.iFfnDown;
        break;
    }
    case Category::AttentionOutput:
        if (falcon) {
            if (ft == Q3_K_L)
                type = W::Q4_K;
        } else if (m.experts == 8) {
            if (ft == Q2_K || ft == Q3_K_S || ft == Q3_K_M || ft == Q4_K_S || ft == Q4_K_M)
                type = W::Q5_K;
        } else if (ft == Q2_K) {
            type = W::Q3_K;
        } else if (ft == Q3_K_M) {
            type = W::Q4_K;
        } else if (ft == Q3_K_L) {
            type = W::Q5_K;
        }
        break;
    default:
        break;
    }
    return type;
}

// tensor_type_fallback: a type whose block does not divide the row gives way to one whose block does.
TensorChoice withFallback(W type, const TensorInfo& t) {
    const std::int64_t row = t.dims[0];
    if (row % blockOf(type) == 0)
        return {type, {}};
    W fallback = W::F16;
    switch (type) {
    case W::Q2_K:
    case W::Q3_K:
        fallback = W::Q4_0;
        break;
    case W::Q4_K:
        fallback = W::Q5_0;
        break;
    case W::Q5_K:
        fallback = W::Q5_1;
        break;
    case W::Q6_K:
        fallback = W::Q8_0;
        break;
    default:
        break;
    }
    if (row % blockOf(fallback) != 0)
        fallback = W::F16;
    return {fallback, QStringLiteral("%1: its rows of %2 are not whole blocks of %3 (%4 elements); %5 instead")
                          .arg(QString::fromStdString(t.name))
                          .arg(row)
                          .arg(QLatin1String(kernels::traits(type).name))
                          .arg(blockOf(type))
                          .arg(QLatin1String(kernels::traits(fallback).name))};
}

int layerOf(const std::string& name) {
    int layer = -1;
    std::sscanf(name.c_str(), "blk.%d.", &layer);
    return layer;
}

} // namespace

Result<Recipe> recipeNamed(const QString& name) {
    const std::string wanted = name.toLower().toStdString();
    for (const NamedRecipe& r : kRecipes)
        if (wanted == r.name)
            return Recipe{QString::fromLatin1(r.name), r.fileType, r.base};
    if (wanted == "q2_k_s")
        return Error::badInput(QStringLiteral("recipe q2_k_s needs an importance matrix, which swb quantize does not "
                                              "make; q2_k is the nearest without one"));
    return Error::badInput(QStringLiteral("there is no quantization recipe '%1' (the recipes: %2)")
                               .arg(name, recipeNames().join(QStringLiteral(", "))));
}

QStringList recipeNames() {
    QStringList names;
    for (const NamedRecipe& r : kRecipes)
        names << QString::fromLatin1(r.name);
    return names;
}

Result<Override> parseOverride(const QString& text) {
    const qsizetype eq = text.lastIndexOf(QLatin1Char('='));
    if (eq <= 0 || eq == text.size() - 1)
        return Error::badInput(
            QStringLiteral("--keep '%1' must be PATTERN=TYPE, as in attn_v=q8_0 or 'blk\\.0\\.'=f16").arg(text));
    const std::optional<W> type = kernels::fromName(text.mid(eq + 1).toLower().toStdString());
    if (!type) {
        QStringList names;
        for (int t = 0; t <= static_cast<int>(W::Q6_K); ++t)
            names << QLatin1String(kernels::traits(static_cast<W>(t)).name);
        return Error::badInput(QStringLiteral("--keep '%1': '%2' is not a type (the types: %3)")
                                   .arg(text, text.mid(eq + 1), names.join(QStringLiteral(", "))));
    }
    Override o{text, {}, *type};
    try {
        o.pattern = std::regex(text.left(eq).toStdString());
    } catch (const std::regex_error& e) {
        return Error::badInput(QStringLiteral("--keep '%1': the pattern is not a regular expression (%2)")
                                   .arg(text, QString::fromUtf8(e.what())));
    }
    return o;
}

void sortAsLlamaCpp(std::vector<TensorInfo>& tensors) {
    std::stable_sort(tensors.begin(), tensors.end(), [](const TensorInfo& a, const TensorInfo& b) {
        const int la = layerOf(a.name);
        const int lb = layerOf(b.name);
        return la != lb ? la < lb : a.name < b.name;
    });
}

std::vector<TensorChoice> chooseTypes(const std::vector<TensorInfo>& tensors, const ModelShape& model,
                                      const Recipe& recipe, bool pure, const std::vector<Override>& overrides) {
    Counters n;
    for (const TensorInfo& t : tensors) {
        const Category c = categoryOf(t.name);
        n.attentionV += c == Category::AttentionV ? 1 : 0;
        n.tiedEmbeddings = n.tiedEmbeddings && c != Category::Output;
    }
    const auto ft = static_cast<FileType>(recipe.fileType);
    std::vector<TensorChoice> choices;
    choices.reserve(tensors.size());
    for (const TensorInfo& t : tensors) {
        if (!allowsQuantization(t)) {
            choices.push_back({t.type, {}});
            continue;
        }
        W type = recipe.base;
        const auto manual = std::find_if(overrides.begin(), overrides.end(),
                                         [&](const Override& o) { return std::regex_search(t.name, o.pattern); });
        if (manual != overrides.end())
            type = manual->type;
        else if (isQuantized(recipe.base) && !pure)
            type = ruleType(type, t, model, ft, categoryOf(t.name), n);
        choices.push_back(withFallback(type, t));
    }
    return choices;
}

} // namespace swb::quantization
