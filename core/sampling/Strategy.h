#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "Result.h"
#include "sampling/DecoderRegistry.h"

namespace swb {

// One stage of a strategy: a sampler type and its complete, validated parameters.
struct SamplerSpec {
    QString type;
    QJsonObject params;
    bool operator==(const SamplerSpec&) const = default;

    // The parameters in a few words, as lists and tables show a stage: "p=0.9", "ids=[0, 13]",
    // "bias={50: -5}"; min_keep at its default 1 left out, long lists cut ("[1, 2, 3, … 12 in all]"); a grammar
    // by what it is ("gbnf: root ::= …", "json_schema: age, name", "any JSON").
    QString summary() const;
};

// Engines whose order of applying samplers a strategy can follow (see StrategyPresets).
enum class EngineOrder { AsListed, HuggingFace, LlamaCpp, Vllm };

// A decoding strategy as the user writes it:
//   {"name": "...", "seed": 42, "order": "llama.cpp", "samplers": [{"type": "temperature", "value": 0.7}, ...]}
// seed and order are optional; without a selector at the end, "dist" is appended. Parameters are
// validated and completed with their defaults, so two spellings of one strategy compare equal.
struct Strategy {
    QString name;
    std::optional<std::uint64_t> seed;
    EngineOrder order = EngineOrder::AsListed;
    std::vector<SamplerSpec> samplers; // in application order (already re-ordered for `order`)
    // Stop strings (OpenAI's `stop`): generation ends before the first one the output contains.
    // JSON: "stop": "text" or ["a", "b"] (at most 16, none empty). Part of the strategy's identity.
    std::vector<std::string> stop;
    // JSON: "decoder": {"type": "beam", "beams": 4, ...}; absent: sampling. Part of the identity.
    DecoderSpec decoder;

    static Result<Strategy> fromJson(const QJsonObject& json);
    // A preset name (optionally "preset@engine", engine hf|llamacpp|vllm), a JSON file path, or JSON text.
    static Result<Strategy> parse(const QString& text);

    QJsonObject toJson() const;
    // Compact JSON with sorted keys of the samplers alone (name, seed excluded): the identity used
    // to deduplicate strategies in the run store.
    QByteArray canonicalSamplersJson() const;
    QString hash() const; // hex SHA-256 of canonicalSamplersJson()
    bool operator==(const Strategy&) const = default;
};

// The strategy with params set on its first sampler of `type`, or, when it has none, that sampler added before
// the selector with its other parameters at their defaults (then ordered as the strategy's engine order asks);
// checked like any strategy. Name, seed, stop strings and decoder are kept.
Result<Strategy> withSamplerParams(const Strategy& strategy, const QString& type, const QJsonObject& params);

QString engineOrderName(EngineOrder order);
std::optional<EngineOrder> engineOrderFromName(const QString& name);
// Stable re-ordering of samplers the way the engine applies them; the selector stays last.
std::vector<SamplerSpec> reorderForEngine(const std::vector<SamplerSpec>& samplers, EngineOrder order);

// Names of the built-in presets, and their strategies.
QStringList strategyPresetNames();
std::optional<Strategy> strategyPreset(const QString& name);

} // namespace swb
