#pragma once

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "model/kernels/WeightType.h"

// Which ggml type each tensor of a model gets when it is quantized: llama.cpp's recipes (its llama_ftype
// values and llama_tensor_get_type's rules, without an importance matrix), the user's own overrides, and the
// fallbacks for rows that are not a whole number of blocks.

namespace swb::quantization {

// A recipe as llama-quantize names it: "q4_k_m" gives most tensors Q4_K and some Q5_K or Q6_K.
struct Recipe {
    QString name;
    std::uint32_t fileType = 0; // llama_ftype, written as general.file_type
    kernels::WeightType base = kernels::WeightType::F16;
};

// By llama-quantize's name, any case ("Q4_K_M"; q3_k, q4_k and q5_k are its names for the _m recipes too);
// an error sentence listing the names for any other.
Result<Recipe> recipeNamed(const QString& name);
QStringList recipeNames();

// --keep PATTERN=TYPE (llama-quantize's --tensor-type): tensors whose name the regular expression matches
// anywhere get TYPE, before the recipe's rules are asked.
struct Override {
    QString text;
    std::regex pattern;
    kernels::WeightType type = kernels::WeightType::F16;
};
Result<Override> parseOverride(const QString& text);

// The hyperparameters the rules read.
struct ModelShape {
    std::string architecture; // general.architecture
    int layers = 0;
    int heads = 0;
    int kvHeads = 0;
    int experts = 0;
};

struct TensorInfo {
    std::string name;
    std::vector<std::int64_t> dims; // ggml order, the row first
    kernels::WeightType type = kernels::WeightType::F32;
};

struct TensorChoice {
    kernels::WeightType type = kernels::WeightType::F32;
    // Set when the row length forced a type other than the rules' choice, saying which and why.
    QString fallback;
};

// llama.cpp's order of a model's tensors (the tensors outside layers by name, then each layer's by name): the
// order its quantizer visits them in, which the per-layer rules count along.
void sortAsLlamaCpp(std::vector<TensorInfo>& tensors);

// Every tensor's type, the tensors in sortAsLlamaCpp's order. `pure` is llama-quantize's --pure: the
// recipe's base type for every tensor the rules would quantize, fallbacks aside.
std::vector<TensorChoice> chooseTypes(const std::vector<TensorInfo>& tensors, const ModelShape& model,
                                      const Recipe& recipe, bool pure, const std::vector<Override>& overrides);

} // namespace swb::quantization
