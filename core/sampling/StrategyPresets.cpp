// The built-in strategy presets: greedy, each engine's default sampling, and practice presets.

#include <QJsonArray>
#include <QJsonDocument>

#include "sampling/Strategy.h"

namespace swb {

namespace {

struct Preset {
    const char* name;
    const char* json;
};

// Engine defaults as each engine samples when asked to sample with no settings:
// transformers' GenerationConfig (do_sample=True: temperature 1, top_k 50, top_p 1);
// llama.cpp's common_params_sampling (top_k 40, top_p 0.95, min_p 0.05, temperature 0.8; penalties,
// DRY, typical and XTC off); vLLM's SamplingParams (temperature 1, no cut).
constexpr Preset kPresets[] = {
    {"greedy", R"({"samplers":[{"type":"greedy"}]})"},
    {"hf-default", R"({"order":"hf","samplers":[{"type":"temperature","value":1.0},{"type":"top_k","k":50},)"
                   R"({"type":"dist"}]})"},
    {"llamacpp-default", R"({"order":"llamacpp","samplers":[{"type":"top_k","k":40},{"type":"top_p","p":0.95},)"
                         R"({"type":"min_p","p":0.05},{"type":"temperature","value":0.8},{"type":"dist"}]})"},
    {"vllm-default", R"({"order":"vllm","samplers":[{"type":"temperature","value":1.0},{"type":"dist"}]})"},
    {"creative", R"({"samplers":[{"type":"penalties","frequency":0.2},{"type":"temperature","value":0.9},)"
                 R"({"type":"top_p","p":0.95},{"type":"dist"}]})"},
    {"technical", R"({"samplers":[{"type":"penalties","presence":0.1},{"type":"temperature","value":0.3},)"
                  R"({"type":"top_k","k":40},{"type":"dist"}]})"},
    {"chat", R"({"samplers":[{"type":"repetition_penalty","penalty":1.1},{"type":"temperature","value":0.7},)"
             R"({"type":"top_p","p":0.9},{"type":"dist"}]})"},
};

} // namespace

QStringList strategyPresetNames() {
    QStringList names;
    for (const Preset& preset : kPresets)
        names << QLatin1String(preset.name);
    return names;
}

std::optional<Strategy> strategyPreset(const QString& name) {
    for (const Preset& preset : kPresets) {
        if (name != QLatin1String(preset.name))
            continue;
        Result<Strategy> strategy = Strategy::fromJson(QJsonDocument::fromJson(preset.json).object());
        if (!strategy)
            return std::nullopt; // a broken built-in preset is caught by the presets test
        strategy->name = name;
        return strategy.value();
    }
    return std::nullopt;
}

} // namespace swb
