#pragma once

// The decoders a strategy may name, as the samplers have theirs (SamplerRegistry.h): each one's type, how
// the generator runs it, a line for the help and the GUI, and its JSON checked and completed with its
// defaults. The only place besides each decoder's own file (generation/) that names decoder types.

#include <vector>

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include "Result.h"

namespace swb {

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

// How a decoder chooses tokens, which says how the generator runs it.
enum class DecoderFamily {
    Sample, // the chain and its selector, one sequence (batched by the server)
    Beam,   // a search over beams (generation/BeamSearch.h)
    Search, // contrastive search: the top candidates rescored with the model's hidden states
    Scored, // the chain on logits that a step scorer rewrites each step (generation/StepScorer.h)
};

// One JSON field of a decoder besides "type".
struct DecoderField {
    QString name;
    QString range;           // the values validation takes, in words: "1 to 256", "(0, 1]", "true or false"
    QJsonValue defaultValue; // what an absent field becomes; null: required; undefined: stays absent
    QString doc;
};

struct DecoderDescriptor {
    QString type;
    DecoderFamily family = DecoderFamily::Sample;
    QString summary; // one line: what it does, after whom
    std::vector<DecoderField> fields;
    // Where else it runs, and as what: "Hugging Face transformers (num_beams)".
    QStringList engines;
    // What its steps' decoder traces (generation/DecoderTrace.h) hold, for views: the titles of a candidate's token,
    // first, second, score and kept columns, and how the score is made (%1: the step's threshold). Empty for a
    // decoder whose steps carry no such trace.
    QStringList traceColumns;
    QString traceNote;
    // The decoder's JSON object (only listed fields; validateDecoder refuses others) checked field by field and
    // completed with its defaults (without "type"); one sentence naming the field when it is wrong.
    Result<QJsonObject> (*validate)(const QString& type, const QJsonObject& json) = nullptr;
};

// Every decoder, sample first.
const std::vector<DecoderDescriptor>& decoderDescriptors();
// The decoder of a type; null when there is none.
const DecoderDescriptor* findDecoder(const QString& type);
// The family of a valid decoder (Sample for an unknown type, which validation refuses first).
DecoderFamily decoderFamily(const DecoderSpec& decoder);

// A strategy's "decoder" field, checked and completed through its descriptor: a field it does not list is refused
// by name.
Result<DecoderSpec> validateDecoder(const QJsonValue& value);

} // namespace swb
