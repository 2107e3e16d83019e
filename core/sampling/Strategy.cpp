#include "sampling/Strategy.h"

#include <algorithm>
#include <cmath>

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include "JsonError.h"
#include "sampling/SamplerRegistry.h"

namespace swb {

QString engineOrderName(EngineOrder order) {
    switch (order) {
    case EngineOrder::AsListed:
        return QStringLiteral("as_listed");
    case EngineOrder::HuggingFace:
        return QStringLiteral("hf");
    case EngineOrder::LlamaCpp:
        return QStringLiteral("llamacpp");
    case EngineOrder::Vllm:
        return QStringLiteral("vllm");
    }
    return {};
}

std::optional<EngineOrder> engineOrderFromName(const QString& name) {
    const QString n = name.toLower().remove(QLatin1Char('.')).remove(QLatin1Char('-')).remove(QLatin1Char('_'));
    if (n == QLatin1String("aslisted"))
        return EngineOrder::AsListed;
    if (n == QLatin1String("hf") || n == QLatin1String("huggingface") || n == QLatin1String("transformers"))
        return EngineOrder::HuggingFace;
    if (n == QLatin1String("llamacpp"))
        return EngineOrder::LlamaCpp;
    if (n == QLatin1String("vllm"))
        return EngineOrder::Vllm;
    return std::nullopt;
}

std::vector<SamplerSpec> reorderForEngine(const std::vector<SamplerSpec>& samplers, EngineOrder order) {
    if (order == EngineOrder::AsListed)
        return samplers;
    // Ranks follow each engine's pipeline: transformers' _get_logits_processor (processors, then
    // warpers temperature, top_k, top_p, min_p, typical, epsilon, eta); llama.cpp's default sampler
    // sequence (logit bias, penalties, dry, top_n_sigma, top_k, typical, top_p, min_p, xtc,
    // temperature); vLLM's sampler (logits processors, penalties, temperature, top_k/top_p, min_p). A
    // grammar comes first in llama.cpp (its resampling path masks the raw logits before the chain) and in
    // vLLM (the structured-output bitmask), among the logits processors in transformers.
    // Samplers an engine lacks keep their relative place among its nearest kin.
    static const QStringList hf = {QStringLiteral("logit_bias"),      QStringLiteral("repetition_penalty"),
                                   QStringLiteral("penalties"),       QStringLiteral("dry"),
                                   QStringLiteral("no_repeat_ngram"), QStringLiteral("banned_tokens"),
                                   QStringLiteral("banned_words"),    QStringLiteral("grammar"),
                                   QStringLiteral("temperature"),     QStringLiteral("dynatemp"),
                                   QStringLiteral("smoothing"),       QStringLiteral("top_h"),
                                   QStringLiteral("top_k"),           QStringLiteral("top_p"),
                                   QStringLiteral("min_p"),           QStringLiteral("typical"),
                                   QStringLiteral("epsilon"),         QStringLiteral("eta"),
                                   QStringLiteral("top_a"),           QStringLiteral("tfs"),
                                   QStringLiteral("top_n_sigma"),     QStringLiteral("xtc")};
    static const QStringList llamaCpp = {QStringLiteral("grammar"),
                                         QStringLiteral("logit_bias"),
                                         QStringLiteral("banned_tokens"),
                                         QStringLiteral("banned_words"),
                                         QStringLiteral("no_repeat_ngram"),
                                         QStringLiteral("repetition_penalty"),
                                         QStringLiteral("penalties"),
                                         QStringLiteral("dry"),
                                         QStringLiteral("top_n_sigma"),
                                         QStringLiteral("top_k"),
                                         QStringLiteral("tfs"),
                                         QStringLiteral("typical"),
                                         QStringLiteral("top_p"),
                                         QStringLiteral("min_p"),
                                         QStringLiteral("epsilon"),
                                         QStringLiteral("eta"),
                                         QStringLiteral("top_a"),
                                         QStringLiteral("top_h"),
                                         QStringLiteral("xtc"),
                                         QStringLiteral("temperature"),
                                         QStringLiteral("dynatemp"),
                                         QStringLiteral("smoothing")};
    static const QStringList vllm = {QStringLiteral("grammar"),
                                     QStringLiteral("logit_bias"),
                                     QStringLiteral("banned_tokens"),
                                     QStringLiteral("banned_words"),
                                     QStringLiteral("no_repeat_ngram"),
                                     QStringLiteral("repetition_penalty"),
                                     QStringLiteral("penalties"),
                                     QStringLiteral("dry"),
                                     QStringLiteral("temperature"),
                                     QStringLiteral("dynatemp"),
                                     QStringLiteral("smoothing"),
                                     QStringLiteral("top_k"),
                                     QStringLiteral("top_p"),
                                     QStringLiteral("min_p"),
                                     QStringLiteral("typical"),
                                     QStringLiteral("epsilon"),
                                     QStringLiteral("eta"),
                                     QStringLiteral("top_a"),
                                     QStringLiteral("tfs"),
                                     QStringLiteral("top_h"),
                                     QStringLiteral("top_n_sigma"),
                                     QStringLiteral("xtc")};
    const QStringList& ranks = order == EngineOrder::HuggingFace ? hf
                               : order == EngineOrder::LlamaCpp  ? llamaCpp
                                                                 : vllm;
    const auto rank = [&](const SamplerSpec& spec) {
        const SamplerDescriptor* descriptor = findSamplerDescriptor(spec.type);
        if (descriptor && descriptor->selector)
            return 1000;
        const qsizetype index = ranks.indexOf(spec.type);
        return index < 0 ? 999 : static_cast<int>(index);
    };
    std::vector<SamplerSpec> sorted = samplers;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](const SamplerSpec& a, const SamplerSpec& b) { return rank(a) < rank(b); });
    return sorted;
}

Result<Strategy> Strategy::fromJson(const QJsonObject& json) {
    static const QStringList known = {QStringLiteral("name"), QStringLiteral("seed"), QStringLiteral("order"),
                                      QStringLiteral("samplers"), QStringLiteral("stop"),
                                      QStringLiteral("decoder")};
    for (auto it = json.begin(); it != json.end(); ++it)
        if (!known.contains(it.key()))
            return Error::badInput(QStringLiteral("strategy: unknown field '%1'").arg(it.key()));
    Strategy strategy;
    strategy.name = json.value(QLatin1String("name")).toString();
    if (json.contains(QLatin1String("seed"))) {
        const QJsonValue seed = json.value(QLatin1String("seed"));
        const double value = seed.toDouble(-1);
        if (!seed.isDouble() || value < 0 || value != std::floor(value) || value > 9007199254740992.0)
            return Error::badInput(QStringLiteral("strategy: field 'seed' must be a non-negative integer"));
        strategy.seed = static_cast<std::uint64_t>(value);
    }
    if (json.contains(QLatin1String("order"))) {
        const auto order = engineOrderFromName(json.value(QLatin1String("order")).toString());
        if (!order)
            return Error::badInput(
                QStringLiteral("strategy: field 'order' must be one of as_listed, hf, llamacpp, vllm"));
        strategy.order = *order;
    }
    if (json.contains(QLatin1String("stop"))) {
        const QJsonValue stop = json.value(QLatin1String("stop"));
        const QJsonArray list = stop.isString() ? QJsonArray{stop} : stop.toArray();
        if (!(stop.isString() || stop.isArray()) || list.size() > 16)
            return Error::badInput(QStringLiteral("strategy: field 'stop' must be a string or an array of at most 16 strings"));
        for (const QJsonValue& s : list) {
            if (!s.isString() || s.toString().isEmpty())
                return Error::badInput(QStringLiteral("strategy: every stop string must be a non-empty string"));
            strategy.stop.push_back(s.toString().toStdString());
        }
    }
    if (json.contains(QLatin1String("decoder"))) {
        Result<DecoderSpec> decoder = validateDecoder(json.value(QLatin1String("decoder")));
        if (!decoder)
            return decoder.error();
        strategy.decoder = decoder.value();
    }
    const QJsonValue samplers = json.value(QLatin1String("samplers"));
    if (!samplers.isArray())
        return Error::badInput(QStringLiteral("strategy: field 'samplers' must be an array"));
    const QJsonArray list = samplers.toArray();
    std::vector<SamplerSpec> specs;
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list[i].isObject())
            return Error::badInput(QStringLiteral("sampler %1 must be a JSON object").arg(i + 1));
        Result<QJsonObject> params = validateSamplerParams(list[i].toObject(), static_cast<int>(i));
        if (!params)
            return params.error();
        const QString type = list[i].toObject().value(QLatin1String("type")).toString();
        const bool selector = findSamplerDescriptor(type)->selector;
        if (selector && i + 1 != list.size())
            return Error::badInput(
                QStringLiteral("sampler %1 (%2) selects the token, so it must come last").arg(i + 1).arg(type));
        specs.push_back({type, params.value()});
    }
    if (specs.empty() || !findSamplerDescriptor(specs.back().type)->selector)
        specs.push_back({QStringLiteral("dist"), {}});
    strategy.samplers = reorderForEngine(specs, strategy.order);
    return strategy;
}

namespace {

// Why a parsed document is no strategy: where the JSON breaks, or that it is valid JSON of another shape.
QString notAnObject(const QByteArray& text, const QJsonDocument& document, const QJsonParseError& error) {
    if (error.error != QJsonParseError::NoError)
        return jsonErrorWhere(text, error);
    return document.isArray() ? QStringLiteral("it is a JSON array; a strategy is an object {\"samplers\": [...]}")
                              : QStringLiteral("a strategy is a JSON object {\"samplers\": [...]}");
}

} // namespace

Result<Strategy> Strategy::parse(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed.startsWith(QLatin1Char('{')) || trimmed.startsWith(QLatin1Char('['))) {
        QJsonParseError error;
        const QByteArray bytes = trimmed.toUtf8();
        const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
        if (!document.isObject())
            return Error::badInput(QStringLiteral("strategy JSON is malformed: %1").arg(notAnObject(bytes, document, error)));
        return fromJson(document.object());
    }
    const QString presetName = trimmed.section(QLatin1Char('@'), 0, 0);
    if (std::optional<Strategy> preset = strategyPreset(presetName)) {
        if (trimmed.contains(QLatin1Char('@'))) {
            const auto order = engineOrderFromName(trimmed.section(QLatin1Char('@'), 1));
            if (!order)
                return Error::badInput(QStringLiteral("unknown engine order '%1' (use hf, llamacpp or vllm)")
                                           .arg(trimmed.section(QLatin1Char('@'), 1)));
            preset->order = *order;
            preset->name += QLatin1Char('@') + engineOrderName(*order);
            preset->samplers = reorderForEngine(preset->samplers, *order);
        }
        return *preset;
    }
    if (QFileInfo(trimmed).isFile()) {
        QFile file(trimmed);
        if (!file.open(QIODevice::ReadOnly))
            return Error::badInput(QStringLiteral("cannot read strategy file %1: %2").arg(trimmed, file.errorString()));
        QJsonParseError error;
        const QByteArray bytes = file.readAll();
        const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
        if (!document.isObject())
            return Error::badInput(QStringLiteral("strategy file %1 is not a strategy: %2")
                                       .arg(trimmed, notAnObject(bytes, document, error)));
        Result<Strategy> strategy = fromJson(document.object());
        if (!strategy)
            return Error::badInput(QStringLiteral("%1: %2").arg(trimmed, strategy.error().message));
        if (strategy->name.isEmpty())
            strategy->name = QFileInfo(trimmed).completeBaseName();
        return strategy;
    }
    return Error::badInput(QStringLiteral("'%1' is neither a preset (%2), a strategy file nor JSON")
                               .arg(trimmed, strategyPresetNames().join(QStringLiteral(", "))));
}

Result<Strategy> withSamplerParams(const Strategy& strategy, const QString& type, const QJsonObject& params) {
    QJsonObject json = strategy.toJson();
    QJsonArray samplers = json.value(QStringLiteral("samplers")).toArray();
    bool found = false;
    for (qsizetype i = 0; i < samplers.size() && !found; ++i) {
        QJsonObject sampler = samplers.at(i).toObject();
        if (sampler.value(QStringLiteral("type")).toString() != type)
            continue;
        for (auto it = params.begin(); it != params.end(); ++it)
            sampler.insert(it.key(), it.value());
        samplers.replace(i, sampler);
        found = true;
    }
    if (!found) {
        qsizetype at = samplers.size();
        if (at > 0) {
            const SamplerDescriptor* last =
                findSamplerDescriptor(samplers.at(at - 1).toObject().value(QStringLiteral("type")).toString());
            if (last && last->selector)
                --at;
        }
        QJsonObject sampler = params;
        sampler.insert(QStringLiteral("type"), type);
        samplers.insert(at, sampler);
    }
    json.insert(QStringLiteral("samplers"), samplers);
    return Strategy::fromJson(json);
}

QJsonObject Strategy::toJson() const {
    QJsonObject json;
    if (!name.isEmpty())
        json.insert(QStringLiteral("name"), name);
    if (seed)
        json.insert(QStringLiteral("seed"), static_cast<double>(*seed));
    if (order != EngineOrder::AsListed)
        json.insert(QStringLiteral("order"), engineOrderName(order));
    QJsonArray list;
    for (const SamplerSpec& spec : samplers) {
        QJsonObject sampler = spec.params;
        sampler.insert(QStringLiteral("type"), spec.type);
        list.append(sampler);
    }
    json.insert(QStringLiteral("samplers"), list);
    if (!decoder.isSample()) {
        QJsonObject d = decoder.params;
        d.insert(QStringLiteral("type"), decoder.type);
        json.insert(QStringLiteral("decoder"), d);
    }
    if (!stop.empty()) {
        QJsonArray stops;
        for (const std::string& s : stop)
            stops.append(QString::fromStdString(s));
        json.insert(QStringLiteral("stop"), stops);
    }
    return json;
}

QByteArray Strategy::canonicalSamplersJson() const {
    QJsonObject json = toJson();
    json.remove(QStringLiteral("name"));
    json.remove(QStringLiteral("seed"));
    json.remove(QStringLiteral("order")); // already applied to the sampler order
    return QJsonDocument(json).toJson(QJsonDocument::Compact);
}

QString Strategy::hash() const {
    return QString::fromLatin1(QCryptographicHash::hash(canonicalSamplersJson(), QCryptographicHash::Sha256).toHex());
}

QString SamplerSpec::summary() const {
    constexpr qsizetype kShown = 4;
    const auto scalar = [](const QJsonValue& v) {
        if (v.isDouble())
            return QString::number(v.toDouble(), 'g', 4);
        if (v.isString())
            return QStringLiteral("\"%1\"").arg(v.toString());
        if (v.isArray())
            return QStringLiteral("[…]");
        if (v.isObject())
            return QStringLiteral("{…}");
        return v.toVariant().toString();
    };
    const auto cut = [](QStringList items, qsizetype total) {
        if (total > kShown)
            items << QStringLiteral("… %1 in all").arg(total);
        return items.join(QStringLiteral(", "));
    };
    if (type == QLatin1String("grammar")) { // one of its three fields says what it is
        const QString gbnf = params.value(QLatin1String("gbnf")).toString();
        if (!gbnf.isEmpty()) {
            const QString first = gbnf.section(QLatin1Char('\n'), 0, 0).simplified();
            return QStringLiteral("gbnf: %1").arg(first.size() > 40 ? first.left(39) + QStringLiteral("…") : first);
        }
        const QJsonObject schema = params.value(QLatin1String("json_schema")).toObject();
        if (!schema.isEmpty() || params.value(QLatin1String("json_schema")).isObject()) {
            const QStringList keys = schema.value(QLatin1String("properties")).toObject().keys();
            return keys.isEmpty() ? QStringLiteral("json_schema")
                                  : QStringLiteral("json_schema: %1").arg(cut(keys.mid(0, kShown), keys.size()));
        }
        return QStringLiteral("any JSON");
    }
    QStringList parts;
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (it.key() == QLatin1String("min_keep") && it.value().toInt() == 1)
            continue;
        const QJsonValue v = it.value();
        QString text;
        if (v.isArray()) {
            const QJsonArray array = v.toArray();
            QStringList items;
            for (qsizetype i = 0; i < std::min(kShown, array.size()); ++i)
                items << scalar(array.at(i));
            text = QStringLiteral("[%1]").arg(cut(items, array.size()));
        } else if (v.isObject()) {
            const QJsonObject object = v.toObject();
            QStringList items;
            for (auto e = object.begin(); e != object.end() && items.size() < kShown; ++e)
                items << QStringLiteral("%1: %2").arg(e.key(), scalar(e.value()));
            text = QStringLiteral("{%1}").arg(cut(items, object.size()));
        } else {
            text = scalar(v);
        }
        parts << QStringLiteral("%1=%2").arg(it.key(), text);
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace swb
