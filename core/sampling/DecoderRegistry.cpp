#include "sampling/DecoderRegistry.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <QJsonArray>

namespace swb {

namespace {

Result<QJsonObject> validateSample(const QString&, const QJsonObject&) {
    return QJsonObject();
}

Result<QJsonObject> validateCfg(const QString&, const QJsonObject& json) {
    const QJsonValue scale = json.value(QLatin1String("guidance_scale"));
    if (!scale.isUndefined() && (!scale.isDouble() || !std::isfinite(scale.toDouble())))
        return Error::badInput(QStringLiteral("decoder 'cfg': field 'guidance_scale' must be a finite number"));
    const QJsonValue negative = json.value(QLatin1String("negative_prompt"));
    if (!negative.isUndefined() && !negative.isString())
        return Error::badInput(QStringLiteral("decoder 'cfg': field 'negative_prompt' must be a string"));
    QJsonObject params = QJsonObject{{QStringLiteral("guidance_scale"), scale.isUndefined() ? 1.5 : scale.toDouble()}};
    if (negative.isString())
        params.insert(QStringLiteral("negative_prompt"), negative);
    return params;
}

Result<QJsonObject> validateContrastiveDecoding(const QString&, const QJsonObject& json) {
    const QString amateur = json.value(QLatin1String("amateur")).toString();
    if (amateur.trimmed().isEmpty())
        return Error::badInput(QStringLiteral("decoder 'contrastive_decoding': field 'amateur' must name the amateur "
                                              "model (a folder or file path)"));
    const QJsonValue alpha = json.value(QLatin1String("alpha"));
    if (!alpha.isUndefined() && (!alpha.isDouble() || !(alpha.toDouble() > 0.0) || alpha.toDouble() > 1.0))
        return Error::badInput(
            QStringLiteral("decoder 'contrastive_decoding': field 'alpha' must be a number in (0, 1]"));
    const QJsonValue beta = json.value(QLatin1String("beta"));
    if (!beta.isUndefined() && (!beta.isDouble() || !std::isfinite(beta.toDouble()) || beta.toDouble() < 0.0))
        return Error::badInput(
            QStringLiteral("decoder 'contrastive_decoding': field 'beta' must be a number of 0 or more"));
    QJsonObject params = QJsonObject{{QStringLiteral("amateur"), amateur},
                                     {QStringLiteral("alpha"), alpha.isUndefined() ? 0.1 : alpha.toDouble()}};
    if (!beta.isUndefined())
        params.insert(QStringLiteral("beta"), beta.toDouble());
    return params;
}

Result<QJsonObject> validateContrastiveSearch(const QString&, const QJsonObject& json) {
    const QJsonValue alpha = json.value(QLatin1String("penalty_alpha"));
    if (!alpha.isUndefined() && (!alpha.isDouble() || !(alpha.toDouble() >= 0.0) || alpha.toDouble() > 1.0))
        return Error::badInput(
            QStringLiteral("decoder 'contrastive_search': field 'penalty_alpha' must be a number in [0, 1]"));
    const QJsonValue topK = json.value(QLatin1String("top_k"));
    const double k = topK.toDouble(4.0);
    if (!topK.isUndefined() && (!topK.isDouble() || k != std::floor(k) || k < 1 || k > 256))
        return Error::badInput(
            QStringLiteral("decoder 'contrastive_search': field 'top_k' must be an integer from 1 to 256"));
    QJsonObject params = QJsonObject{{QStringLiteral("penalty_alpha"), alpha.isUndefined() ? 0.6 : alpha.toDouble()},
                                     {QStringLiteral("top_k"), static_cast<int>(k)}};
    return params;
}

Result<QJsonObject> validateBeam(const QString& type, const QJsonObject& json) {
    const bool group = type == QLatin1String("group_beam");
    const QString where = QStringLiteral("decoder '%1'").arg(type);
    const auto integer = [&](const char* key, int fallback, int low, int high) -> std::optional<int> {
        const QJsonValue v = json.value(QLatin1String(key));
        if (v.isUndefined())
            return fallback;
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || d != std::floor(d) || d < low || d > high)
            return std::nullopt;
        return static_cast<int>(d);
    };
    const std::optional<int> beams = integer("beams", 4, 1, 256);
    if (!beams)
        return Error::badInput(QStringLiteral("%1: field 'beams' must be an integer from 1 to 256").arg(where));
    const std::optional<int> returned = integer("return", 1, 1, *beams);
    if (!returned)
        return Error::badInput(
            QStringLiteral("%1: field 'return' must be an integer from 1 to beams (%2)").arg(where).arg(*beams));
    const QJsonValue penalty = json.value(QLatin1String("length_penalty"));
    if (!penalty.isUndefined() && (!penalty.isDouble() || !std::isfinite(penalty.toDouble())))
        return Error::badInput(QStringLiteral("%1: field 'length_penalty' must be a finite number").arg(where));
    const QJsonValue early = json.value(QLatin1String("early_stopping"));
    if (!early.isUndefined() && !early.isBool() && early.toString() != QLatin1String("never"))
        return Error::badInput(
            QStringLiteral("%1: field 'early_stopping' must be true, false or \"never\"").arg(where));
    QJsonObject params =
        QJsonObject{{QStringLiteral("beams"), *beams},
                    {QStringLiteral("length_penalty"), penalty.isUndefined() ? 1.0 : penalty.toDouble()},
                    {QStringLiteral("early_stopping"), early.isUndefined() ? QJsonValue(false) : early},
                    {QStringLiteral("return"), *returned}};
    if (group) {
        const std::optional<int> groups = integer("groups", 2, 1, *beams);
        if (!groups || *beams % *groups != 0)
            return Error::badInput(
                QStringLiteral("%1: field 'groups' must be an integer that divides beams (%2)").arg(where).arg(*beams));
        const QJsonValue diversity = json.value(QLatin1String("diversity_penalty"));
        if (!diversity.isUndefined() &&
            (!diversity.isDouble() || !std::isfinite(diversity.toDouble()) || diversity.toDouble() < 0.0))
            return Error::badInput(
                QStringLiteral("%1: field 'diversity_penalty' must be a number of 0 or more").arg(where));
        params.insert(QStringLiteral("groups"), *groups);
        params.insert(QStringLiteral("diversity_penalty"), diversity.isUndefined() ? 1.0 : diversity.toDouble());
        return params;
    }
    const QJsonValue doSample = json.value(QLatin1String("do_sample"));
    if (!doSample.isUndefined() && !doSample.isBool())
        return Error::badInput(QStringLiteral("%1: field 'do_sample' must be true or false").arg(where));
    if (doSample.toBool(false))
        params.insert(QStringLiteral("do_sample"), true);
    const QJsonValue words = json.value(QLatin1String("force_words"));
    if (!words.isUndefined()) {
        const QString wordsError = QStringLiteral("%1: field 'force_words' must be a list of up to 16 words, each a "
                                                  "non-empty string or a list of alternative strings")
                                       .arg(where);
        if (!words.isArray() || words.toArray().isEmpty() || words.toArray().size() > 16)
            return Error::badInput(wordsError);
        for (const QJsonValue& word : words.toArray()) {
            const QJsonArray alternatives = word.isArray() ? word.toArray() : QJsonArray{word};
            if (alternatives.isEmpty())
                return Error::badInput(wordsError);
            for (const QJsonValue& a : alternatives)
                if (!a.isString() || a.toString().isEmpty())
                    return Error::badInput(wordsError);
        }
        if (doSample.toBool(false))
            return Error::badInput(QStringLiteral("%1: force_words and do_sample do not go together (transformers' "
                                                  "constrained beam search is not sampled)")
                                       .arg(where));
        params.insert(QStringLiteral("force_words"), words);
    }
    return params;
}

// The fields beam and group_beam share.
std::vector<DecoderField> beamFields(std::vector<DecoderField> own) {
    std::vector<DecoderField> fields = {
        {QStringLiteral("beams"), QStringLiteral("1 to 256"), 4, QStringLiteral("Beams kept at each step.")},
        {QStringLiteral("length_penalty"), QStringLiteral("a finite number"), 1.0,
         QStringLiteral("Exponent of the length a finished beam's score is divided by.")},
        {QStringLiteral("early_stopping"), QStringLiteral("true, false or \"never\""), false,
         QStringLiteral("When the search ends: as soon as there are enough finished beams, when none can do better "
                        "(false), or never before the length limit.")},
        {QStringLiteral("return"), QStringLiteral("1 to beams"), 1, QStringLiteral("Hypotheses returned, best first.")},
    };
    fields.insert(fields.end(), own.begin(), own.end());
    return fields;
}

} // namespace

const std::vector<DecoderDescriptor>& decoderDescriptors() {
    static const std::vector<DecoderDescriptor> decoders = {
        {QStringLiteral("sample"),
         DecoderFamily::Sample,
         QStringLiteral("The chain, then its selector."),
         {},
         {QStringLiteral("every engine")},
         {},
         {},
         validateSample},
        {QStringLiteral("beam"),
         DecoderFamily::Beam,
         QStringLiteral("Beam search as Hugging Face transformers does it; sampled or constrained on request."),
         beamFields(
             {{QStringLiteral("do_sample"), QStringLiteral("true or false"), QJsonValue::Undefined,
               QStringLiteral("Beam sampling: the chain's warpers act and the candidates are drawn.")},
              {QStringLiteral("force_words"),
               QStringLiteral("up to 16 words, each a string or a list of alternative strings"), QJsonValue::Undefined,
               QStringLiteral("Constrained beam search: every hypothesis returned contains each word.")}}),
         {QStringLiteral("Hugging Face transformers (num_beams, do_sample, force_words_ids)"),
          QStringLiteral("vLLM (beam search)")},
         {},
         {},
         validateBeam},
        {QStringLiteral("group_beam"),
         DecoderFamily::Beam,
         QStringLiteral("Diverse beam search (Vijayakumar et al. 2016)."),
         beamFields({{QStringLiteral("groups"), QStringLiteral("an integer that divides beams"), 2,
                      QStringLiteral("Groups the beams are split into.")},
                     {QStringLiteral("diversity_penalty"), QStringLiteral("0 or more"), 1.0,
                      QStringLiteral("Subtracted from a token's score for each earlier group that chose it at this "
                                     "step.")}}),
         {QStringLiteral("Hugging Face transformers (num_beam_groups, diversity_penalty)")},
         {},
         {},
         validateBeam},
        {QStringLiteral("contrastive_search"),
         DecoderFamily::Search,
         QStringLiteral("Contrastive search (Su et al. 2022): confidence less a degeneration penalty."),
         {{QStringLiteral("penalty_alpha"), QStringLiteral("[0, 1]"), 0.6,
           QStringLiteral("Weight of the degeneration penalty against the model's confidence.")},
          {QStringLiteral("top_k"), QStringLiteral("1 to 256"), 4, QStringLiteral("Candidates rescored each step.")}},
         {QStringLiteral("Hugging Face transformers (penalty_alpha, top_k)")},
         {QStringLiteral("Token"), QStringLiteral("p (confidence)"), QStringLiteral("Degeneration penalty"),
          QStringLiteral("Score"), QStringLiteral("Chosen")},
         QStringLiteral("Contrastive search: score = (1 − α) · p − α · max cosine similarity to the context; the best "
                        "is taken."),
         validateContrastiveSearch},
        {QStringLiteral("contrastive_decoding"),
         DecoderFamily::Scored,
         QStringLiteral("Contrastive decoding (Li et al. 2022) against a weaker amateur model."),
         {{QStringLiteral("amateur"), QStringLiteral("a model's folder or file"), QJsonValue(),
           QStringLiteral("The weaker model; it must share the expert's tokenizer.")},
          {QStringLiteral("alpha"), QStringLiteral("(0, 1]"), 0.1,
           QStringLiteral("Plausibility: tokens below alpha times the expert's top p are cut.")},
          {QStringLiteral("beta"), QStringLiteral("0 or more"), QJsonValue::Undefined,
           QStringLiteral("Scores (1 + beta) · expert logit − beta · amateur logit (O'Brien & Lewis 2023) instead "
                          "of the log-probability difference.")}},
         {QStringLiteral("none built in (the papers' reference code)")},
         {QStringLiteral("Token"), QStringLiteral("Expert p"), QStringLiteral("Amateur p"),
          QStringLiteral("Contrastive score"), QStringLiteral("Plausible")},
         QStringLiteral("Contrastive decoding: candidates with expert p ≥ %1 (α · max p) are plausible and scored; the "
                        "chain then acts on the scores."),
         validateContrastiveDecoding},
        {QStringLiteral("cfg"),
         DecoderFamily::Scored,
         QStringLiteral("Classifier-free guidance: the prompt's pull, scaled, against a context without it."),
         {{QStringLiteral("guidance_scale"), QStringLiteral("a finite number"), 1.5,
           QStringLiteral("g: 1 is the model alone, more pulls harder towards the prompt.")},
          {QStringLiteral("negative_prompt"), QStringLiteral("text"), QJsonValue::Undefined,
           QStringLiteral("The unconditional context; by default the prompt's last token.")}},
         {QStringLiteral("Hugging Face transformers (guidance_scale, negative_prompt_ids)")},
         {QStringLiteral("Token"), QStringLiteral("p with the prompt"), QStringLiteral("p without"),
          QStringLiteral("Guided logit"), QStringLiteral("Kept")},
         QStringLiteral("Guidance: guided logit = g · (log p − log p without) + log p without."),
         validateCfg},
    };
    return decoders;
}

const DecoderDescriptor* findDecoder(const QString& type) {
    for (const DecoderDescriptor& decoder : decoderDescriptors())
        if (decoder.type == type)
            return &decoder;
    return nullptr;
}

DecoderFamily decoderFamily(const DecoderSpec& decoder) {
    const DecoderDescriptor* descriptor = findDecoder(decoder.type);
    return descriptor ? descriptor->family : DecoderFamily::Sample;
}

Result<DecoderSpec> validateDecoder(const QJsonValue& value) {
    if (!value.isObject())
        return Error::badInput(
            QStringLiteral("strategy: field 'decoder' must be an object such as {\"type\": \"beam\"}"));
    const QJsonObject json = value.toObject();
    DecoderSpec decoder;
    decoder.type = json.value(QLatin1String("type")).toString();
    const DecoderDescriptor* descriptor = findDecoder(decoder.type);
    if (!descriptor) {
        QStringList known;
        for (const DecoderDescriptor& d : decoderDescriptors())
            known << d.type;
        return Error::badInput(QStringLiteral("decoder: unknown type '%1' (known: %2)")
                                   .arg(decoder.type, known.join(QStringLiteral(", "))));
    }
    for (auto it = json.begin(); it != json.end(); ++it) {
        const bool listed = std::any_of(descriptor->fields.begin(), descriptor->fields.end(),
                                        [&](const DecoderField& field) { return field.name == it.key(); });
        if (it.key() == QLatin1String("type") || listed)
            continue;
        return Error::badInput(descriptor->fields.empty()
                                   ? QStringLiteral("decoder '%1' takes no fields").arg(decoder.type)
                                   : QStringLiteral("decoder '%1': unknown field '%2'").arg(decoder.type, it.key()));
    }
    Result<QJsonObject> params = descriptor->validate(decoder.type, json);
    if (!params)
        return params.error();
    decoder.params = std::move(params).value();
    return decoder;
}

} // namespace swb
