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

namespace swb {

// One stage of a strategy: a sampler type and its complete, validated parameters.
struct SamplerSpec {
    QString type;
    QJsonObject params;
    bool operator==(const SamplerSpec&) const = default;

    // The parameters in a few words, as lists and tables show a stage: "p=0.9", "ids=[0, 13]",
    // "bias={50: -5}"; min_keep at its default 1 left out, long lists cut ("[1, 2, 3, … 12 in all]").
    QString summary() const;
};

// How tokens are chosen beyond the chain of one sampled path. "sample" (the default): the chain, then its
// selector. "beam": Hugging Face transformers' beam search, with its fields validated and completed:
// beams (1..256), length_penalty (finite, default 1), early_stopping (true, false or "never"; default
// false), return (1..beams, default 1). The chain's samplers act as transformers' logits processors on
// each beam's log-probabilities (only those that are processors there: logit bias, banned tokens and
// words, repetition and presence/frequency penalties, no-repeat n-grams; the selector is not used).
// beam also takes "do_sample" (beam sampling: the warpers temperature, top_k, top_p, min_p, typical,
// epsilon, eta act too and the candidates are drawn) and "force_words" (constrained beam search: up to 16
// words, each a string or a list of alternative strings, tokenized without special tokens).
// "group_beam": diverse beam search, with beam's fields less do_sample and force_words, plus "groups"
// (dividing beams, default 2) and "diversity_penalty" (>= 0, default 1). See BeamSearch.h.
// "contrastive_search": Su et al. 2022 as transformers does it: "top_k" candidates (1..256, default 4), each
// scored (1 - penalty_alpha) p - penalty_alpha * max cosine similarity of its last hidden state to those of
// the context ("penalty_alpha" in [0, 1], default 0.6); the chain acts as logits processors.
// "contrastive_decoding": Li et al. 2022 with a weaker "amateur" model (a path; it must share the
// tokenizer): tokens with p_expert < alpha * max p_expert (alpha in (0, 1], default 0.1) are cut, the
// others scored log p_expert - log p_amateur, or with "beta" (O'Brien & Lewis 2023)
// (1 + beta) * logit_expert - beta * logit_amateur; the chain and its selector then act on those scores.
// "cfg": classifier-free guidance as transformers does it: guidance_scale g (default 1.5), the
// unconditional context "negative_prompt" (default: the prompt's last token); scores
// g * (log p_cond - log p_uncond) + log p_uncond, then the chain.
struct DecoderSpec {
    QString type = QStringLiteral("sample");
    QJsonObject params;
    bool isSample() const { return type == QLatin1String("sample"); }
    bool operator==(const DecoderSpec&) const = default;
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
