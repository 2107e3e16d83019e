#include "interop/StrategyFormats.h"

#include <algorithm>
#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "JsonError.h"
#include "grammar/JsonSchemaGrammar.h"
#include "sampling/SamplerRegistry.h"

namespace swb {

namespace {

// The tools, as columns of the tables below.
enum Tool { Llama, Webui, Tavern, Hf, ToolCount };

Tool toolOf(StrategyFormat format) {
    switch (format) {
    case StrategyFormat::LlamaCppJson:
    case StrategyFormat::LlamaCppFlags:
        return Llama;
    case StrategyFormat::WebuiYaml:
        return Webui;
    case StrategyFormat::SillyTavern:
        return Tavern;
    case StrategyFormat::GenerationConfig:
        return Hf;
    }
    return Llama;
}

// One of our sampler parameters and the field each tool keeps it in (null: the tool has none). A "main"
// parameter switches the sampler on in the tools when it is not `off`; scale: the webui's and SillyTavern's
// value is ours times it (their epsilon and eta cutoffs count in units of 1e-4).
struct Knob {
    const char* sampler;
    const char* param;
    const char* key[ToolCount];
    const char* flag; // llama.cpp's command-line flag
    bool main;
    double off;
    double scale;
};

const Knob kKnobs[] = {
    {"temperature", "value", {"temperature", "temperature", "temp", "temperature"}, "--temp", true, 1.0, 1},
    {"top_k", "k", {"top_k", "top_k", "top_k", "top_k"}, "--top-k", true, 0, 1},
    {"top_p", "p", {"top_p", "top_p", "top_p", "top_p"}, "--top-p", true, 1.0, 1},
    {"min_p", "p", {"min_p", "min_p", "min_p", "min_p"}, "--min-p", true, 0, 1},
    {"typical", "p", {"typical_p", "typical_p", "typical_p", "typical_p"}, "--typical", true, 1.0, 1},
    {"top_n_sigma", "n", {"top_n_sigma", "top_n_sigma", "nsigma", nullptr}, "--top-nsigma", true, -1.0, 1},
    {"xtc", "probability", {"xtc_probability", "xtc_probability", "xtc_probability", nullptr}, "--xtc-probability", true, 0, 1},
    {"xtc", "threshold", {"xtc_threshold", "xtc_threshold", "xtc_threshold", nullptr}, "--xtc-threshold", false, 0, 1},
    {"dry", "multiplier", {"dry_multiplier", "dry_multiplier", "dry_multiplier", nullptr}, "--dry-multiplier", true, 0, 1},
    {"dry", "base", {"dry_base", "dry_base", "dry_base", nullptr}, "--dry-base", false, 0, 1},
    {"dry", "allowed_length", {"dry_allowed_length", "dry_allowed_length", "dry_allowed_length", nullptr}, "--dry-allowed-length", false, 0, 1},
    {"dry", "last_n", {"dry_penalty_last_n", nullptr, "dry_penalty_last_n", nullptr}, "--dry-penalty-last-n", false, 0, 1},
    {"repetition_penalty", "penalty", {"repeat_penalty", "repetition_penalty", "rep_pen", "repetition_penalty"}, "--repeat-penalty", true, 1.0, 1},
    {"penalties", "frequency", {"frequency_penalty", "frequency_penalty", "freq_pen", nullptr}, "--frequency-penalty", true, 0, 1},
    {"penalties", "presence", {"presence_penalty", "presence_penalty", "presence_pen", nullptr}, "--presence-penalty", true, 0, 1},
    {"penalties", "last_n", {"repeat_last_n", "repetition_penalty_range", "rep_pen_range", nullptr}, "--repeat-last-n", false, 0, 1},
    {"tfs", "z", {nullptr, "tfs", "tfs", nullptr}, nullptr, true, 1.0, 1},
    {"top_a", "a", {nullptr, "top_a", "top_a", nullptr}, nullptr, true, 0, 1},
    {"epsilon", "epsilon", {nullptr, "epsilon_cutoff", "epsilon_cutoff", "epsilon_cutoff"}, nullptr, true, 0, 1e4},
    {"eta", "epsilon", {nullptr, "eta_cutoff", "eta_cutoff", "eta_cutoff"}, nullptr, true, 0, 1e4},
    {"smoothing", "factor", {nullptr, "smoothing_factor", "smoothing_factor", nullptr}, nullptr, true, 0, 1},
    {"smoothing", "curve", {nullptr, "smoothing_curve", "smoothing_curve", nullptr}, nullptr, false, 0, 1},
    {"no_repeat_ngram", "n", {nullptr, "no_repeat_ngram_size", "no_repeat_ngram_size", "no_repeat_ngram_size"}, nullptr, true, 0, 1},
};

// Mirostat: mode, tau, eta.
const char* const kMirostatKeys[ToolCount][3] = {{"mirostat", "mirostat_tau", "mirostat_eta"},
                                                 {"mirostat_mode", "mirostat_tau", "mirostat_eta"},
                                                 {"mirostat_mode", "mirostat_tau", "mirostat_eta"},
                                                 {nullptr, nullptr, nullptr}};
const char* const kMirostatFlags[3] = {"--mirostat", "--mirostat-ent", "--mirostat-lr"};

// The names the tools give samplers in their order lists.
struct OrderName {
    const char* sampler;
    const char* llama;
    const char* webui; // also SillyTavern's sampler_priority
};
const OrderName kOrderNames[] = {
    {"repetition_penalty", "penalties", "repetition_penalty"},
    {"penalties", "penalties", "presence_penalty"},
    {"dry", "dry", "dry"},
    {"top_n_sigma", "top_n_sigma", "top_n_sigma"},
    {"temperature", "temperature", "temperature"},
    {"smoothing", nullptr, "quadratic_sampling"},
    {"top_k", "top_k", "top_k"},
    {"top_p", "top_p", "top_p"},
    {"typical", "typ_p", "typical_p"},
    {"epsilon", nullptr, "epsilon_cutoff"},
    {"eta", nullptr, "eta_cutoff"},
    {"tfs", nullptr, "tfs"},
    {"top_a", nullptr, "top_a"},
    {"min_p", "min_p", "min_p"},
    {"xtc", "xtc", "xtc"},
    {"no_repeat_ngram", nullptr, "no_repeat_ngram"},
};
// The orders the tools apply samplers in when not told (llama.cpp's common_params_sampling; the webui's
// sampler_priority default, sampler_hijack.py).
const QStringList kLlamaDefaultOrder{"penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p", "xtc", "temperature"};
const QStringList kWebuiDefaultOrder{"repetition_penalty", "presence_penalty", "frequency_penalty", "dry", "top_n_sigma",
                                     "temperature", "dynamic_temperature", "quadratic_sampling", "top_k", "top_p",
                                     "typical_p", "epsilon_cutoff", "eta_cutoff", "tfs", "top_a", "min_p", "mirostat",
                                     "xtc", "encoder_repetition_penalty", "no_repeat_ngram"};

QString toolName(Tool tool) {
    switch (tool) {
    case Llama:
        return QStringLiteral("llama.cpp");
    case Webui:
        return QStringLiteral("text-generation-webui");
    case Tavern:
        return QStringLiteral("SillyTavern");
    default:
        return QStringLiteral("transformers");
    }
}

QString number(double value) {
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return QString::number(static_cast<qint64>(value));
    return QString::number(value, 'g', 15);
}

QString orderName(const QString& sampler, Tool tool) {
    for (const OrderName& name : kOrderNames)
        if (sampler == QLatin1String(name.sampler))
            return QLatin1String(tool == Llama ? name.llama : name.webui);
    return {};
}

// Fields in the order they were set.
struct Fields {
    QStringList keys;
    QHash<QString, QJsonValue> values;
    void set(const QString& key, const QJsonValue& value) {
        if (!values.contains(key))
            keys << key;
        values.insert(key, value);
    }
};

QString flagOf(const QString& key) {
    for (const Knob& knob : kKnobs)
        if (knob.key[Llama] && key == QLatin1String(knob.key[Llama]))
            return QLatin1String(knob.flag);
    for (int i = 0; i < 3; ++i)
        if (key == QLatin1String(kMirostatKeys[Llama][i]))
            return QLatin1String(kMirostatFlags[i]);
    if (key == QLatin1String("seed"))
        return QStringLiteral("--seed");
    if (key == QLatin1String("samplers"))
        return QStringLiteral("--samplers");
    if (key == QLatin1String("grammar"))
        return QStringLiteral("--grammar");
    if (key == QLatin1String("json_schema"))
        return QStringLiteral("--json-schema");
    return {};
}

QString shellQuoted(const QString& text) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_.,:/=+-]+$"));
    if (plain.match(text).hasMatch())
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString yamlScalar(const QJsonValue& value) {
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return number(value.toDouble());
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

QString serialize(const Fields& fields, StrategyFormat format) {
    switch (format) {
    case StrategyFormat::LlamaCppFlags: {
        QStringList words;
        for (const QString& key : fields.keys) {
            const QJsonValue value = fields.values.value(key);
            if (value.isArray()) {
                QStringList names;
                for (const QJsonValue& name : value.toArray())
                    names << name.toString();
                words << flagOf(key) << shellQuoted(names.join(QLatin1Char(';')));
            } else {
                words << flagOf(key) << (value.isDouble() ? number(value.toDouble()) : shellQuoted(value.toString()));
            }
        }
        return words.join(QLatin1Char(' ')) + QLatin1Char('\n');
    }
    case StrategyFormat::WebuiYaml: {
        QString yaml;
        for (const QString& key : fields.keys) {
            const QJsonValue value = fields.values.value(key);
            if (value.isArray()) {
                yaml += key + QStringLiteral(":\n");
                for (const QJsonValue& item : value.toArray())
                    yaml += QStringLiteral("  - ") + yamlScalar(item) + QLatin1Char('\n');
            } else {
                yaml += key + QStringLiteral(": ") + yamlScalar(value) + QLatin1Char('\n');
            }
        }
        return yaml;
    }
    default: {
        QJsonObject object;
        for (const QString& key : fields.keys)
            object.insert(key, fields.values.value(key));
        return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented));
    }
    }
}

// What an export builds as it reads the strategy: the tool's fields, the notes on what does not translate, and the
// samplers' order list.
struct ExportDraft {
    ExportDraft(StrategyFormat format, Tool tool)
        : format(format)
        , tool(tool)
        , name(toolName(tool)) {}

    StrategyFormat format;
    Tool tool;
    QString name;
    ExportedStrategy out;
    Fields fields;
    bool greedyChain = false;
    QStringList mirostatIgnores;
    QJsonArray order;
    bool orderKnown = true;
};

// Every sampler the tool has, off (the tools' defaults are not ours).
void setSamplersOff(ExportDraft& draft) {
    const Tool tool = draft.tool;
    for (const Knob& knob : kKnobs)
        if (knob.key[tool] && knob.main)
            draft.fields.set(QLatin1String(knob.key[tool]),
                             knob.off * (tool == Webui || tool == Tavern ? knob.scale : 1));
    if (kMirostatKeys[tool][0])
        draft.fields.set(QLatin1String(kMirostatKeys[tool][0]), 0);
    if (tool == Llama)
        draft.fields.set(QStringLiteral("repeat_last_n"), -1); // penalties count the whole history, as ours do
    if (tool == Webui || tool == Tavern)
        draft.fields.set(QLatin1String(tool == Webui ? "repetition_penalty_range" : "rep_pen_range"),
                         0); // 0: the whole context
    if (tool == Hf)
        draft.fields.set(QStringLiteral("do_sample"), true);
}

// A mirostat or mirostat_v2 sampler as the tool's Mirostat mode, tau and eta.
void exportMirostat(ExportDraft& draft, const Strategy& strategy, const SamplerSpec& sampler) {
    const Tool tool = draft.tool;
    const QByteArray type = sampler.type.toLatin1();
    if (!kMirostatKeys[tool][0]) {
        draft.out.notes << QStringLiteral("%1 has no %2; it is left out and the token is drawn from the chain")
                               .arg(draft.name, sampler.type);
        return;
    }
    for (const SamplerSpec& other : strategy.samplers)
        if (other.type != sampler.type && other.type != QLatin1String("temperature"))
            draft.mirostatIgnores << other.type;
    draft.fields.set(QLatin1String(kMirostatKeys[tool][0]), type == "mirostat" ? 1 : 2);
    draft.fields.set(QLatin1String(kMirostatKeys[tool][1]), sampler.params.value(QLatin1String("tau")));
    draft.fields.set(QLatin1String(kMirostatKeys[tool][2]), sampler.params.value(QLatin1String("eta")));
    if (type == "mirostat" && sampler.params.value(QLatin1String("m")).toInt() != 100)
        draft.out.notes << QStringLiteral("%1's Mirostat 1.0 always estimates from 100 tokens; m %2 is not kept")
                               .arg(draft.name)
                               .arg(sampler.params.value(QLatin1String("m")).toInt());
}

// Each parameter of a sampler the tool has, in the tool's field for it; a note for one it has no field for and
// that is not at its default.
void exportSamplerParams(ExportDraft& draft, const SamplerSpec& sampler) {
    const Tool tool = draft.tool;
    const QString& name = draft.name;
    const QByteArray type = sampler.type.toLatin1();
    const SamplerDescriptor* descriptor = findSamplerDescriptor(sampler.type);
    for (auto it = sampler.params.begin(); it != sampler.params.end(); ++it) {
        const Knob* knob = nullptr;
        for (const Knob& k : kKnobs)
            if (type == k.sampler && it.key() == QLatin1String(k.param) && k.key[tool])
                knob = &k;
        if (knob) {
            const double scale = tool == Webui || tool == Tavern ? knob->scale : 1;
            double value = it.value().toDouble() * scale;
            // The webui's and SillyTavern's penalty range: 0 is the whole context (our -1).
            if ((tool == Webui || tool == Tavern) && type == "penalties" && it.key() == QLatin1String("last_n")) {
                if (value == 0)
                    draft.out.notes << QStringLiteral(
                                           "%1 cannot switch the penalties' history off (last_n 0); its range "
                                           "0 means the whole context")
                                           .arg(name);
                value = value < 0 ? 0 : value;
            }
            draft.fields.set(QLatin1String(knob->key[tool]), value);
            continue;
        }
        // A parameter the tool has no field for: fine at its default, a note otherwise.
        QJsonValue fallback;
        if (descriptor)
            for (const ParamSpec& param : descriptor->params)
                if (param.name == it.key())
                    fallback = param.defaultValue;
        if (it.value() != fallback && !(type == "dry" && it.key() == QLatin1String("breakers") && tool == Llama))
            draft.out.notes << QStringLiteral("%1 has no field for %2's %3 (%4 here); it is not kept")
                                   .arg(name, sampler.type, it.key(),
                                        QString::fromUtf8(
                                            QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact))
                                            .mid(1)
                                            .chopped(1));
    }
}

// A grammar stage: llama.cpp's grammar (GBNF) or json_schema, the webui's grammar_string (GBNF; a schema as the GBNF
// it converts to); the other formats have none. None of them lists it in an order: they apply it first.
void exportGrammar(ExportDraft& draft, const SamplerSpec& sampler) {
    const QString gbnf = sampler.params.value(QLatin1String("gbnf")).toString();
    const QJsonValue schema = sampler.params.value(QLatin1String("json_schema"));
    Result<std::string> text = !gbnf.isEmpty()     ? Result<std::string>(gbnf.toStdString())
                               : schema.isObject() ? jsonSchemaToGbnf(schema)
                                                   : Result<std::string>(anyJsonGbnf());
    if (draft.tool == Llama && schema.isObject()) {
        draft.fields.set(
            QStringLiteral("json_schema"),
            draft.format == StrategyFormat::LlamaCppFlags
                ? QJsonValue(QString::fromUtf8(QJsonDocument(schema.toObject()).toJson(QJsonDocument::Compact)))
                : schema);
    } else if ((draft.tool == Llama || draft.tool == Webui) && text) {
        draft.fields.set(draft.tool == Llama ? QStringLiteral("grammar") : QStringLiteral("grammar_string"),
                         QString::fromStdString(text.value()));
        if (draft.tool == Webui && schema.isObject())
            draft.out.notes << QStringLiteral("%1 takes a grammar, not a schema: the schema is written as the GBNF "
                                              "it converts to")
                                   .arg(draft.name);
    } else {
        draft.out.notes << QStringLiteral("%1 has no grammar; it is left out").arg(draft.name);
    }
}

// One sampler of the chain: its fields, or a note when the tool has no such sampler, and its place in the order.
void exportSampler(ExportDraft& draft, const Strategy& strategy, const SamplerSpec& sampler) {
    const Tool tool = draft.tool;
    const QByteArray type = sampler.type.toLatin1();
    if (type == "greedy") {
        draft.greedyChain = true;
        if (tool == Hf)
            draft.fields.set(QStringLiteral("do_sample"), false);
        else
            draft.fields.set(QLatin1String(kKnobs[0].key[tool]), 0); // temperature 0: greedy in these tools
        return;
    }
    if (type == "dist")
        return;
    if (type == "grammar") {
        exportGrammar(draft, sampler);
        return;
    }
    if (type == "mirostat" || type == "mirostat_v2") {
        exportMirostat(draft, strategy, sampler);
        return;
    }
    const bool mapped = std::any_of(std::begin(kKnobs), std::end(kKnobs),
                                    [&](const Knob& k) { return type == k.sampler && k.key[tool]; });
    if (!mapped) {
        draft.out.notes << QStringLiteral("%1 has no %2 sampler; it is left out").arg(draft.name, sampler.type);
        return;
    }
    exportSamplerParams(draft, sampler);
    if (type == "dry" && draft.format == StrategyFormat::LlamaCppJson)
        draft.fields.set(QStringLiteral("dry_sequence_breakers"), sampler.params.value(QLatin1String("breakers")));
    else if (type == "dry" && tool == Llama)
        draft.out.notes << QStringLiteral("DRY's sequence breakers are not written as flags (give each with "
                                          "--dry-sequence-breaker); llama.cpp's default breakers apply");
    const QString listed = orderName(sampler.type, tool);
    if (listed.isEmpty()) {
        draft.orderKnown = false;
    } else if (!draft.order.contains(listed)) {
        draft.order.append(listed);
        if (sampler.type == QLatin1String("penalties") && tool != Llama)
            draft.order.append(QStringLiteral("frequency_penalty"));
    }
}

// The seed and the stop strings, where the format has them.
void exportSeedAndStops(ExportDraft& draft, const Strategy& strategy) {
    const Tool tool = draft.tool;
    if (strategy.seed) {
        if (tool == Hf)
            draft.out.notes << QStringLiteral("a generation_config has no seed (transformers takes it from set_seed); "
                                              "seed %1 is not kept")
                                   .arg(*strategy.seed);
        else
            draft.fields.set(QStringLiteral("seed"), static_cast<double>(*strategy.seed));
    }
    if (!strategy.stop.empty()) {
        QJsonArray stops;
        for (const std::string& stop : strategy.stop)
            stops.append(QString::fromStdString(stop));
        if (draft.format == StrategyFormat::LlamaCppJson)
            draft.fields.set(QStringLiteral("stop"), stops);
        else if (tool == Hf)
            draft.fields.set(QStringLiteral("stop_strings"), stops);
        else
            draft.out.notes
                << QStringLiteral("stop strings do not go in this format; give them to %1 separately").arg(draft.name);
    }
}

// The order the samplers run in.
void exportOrder(ExportDraft& draft, const Strategy& strategy) {
    const Tool tool = draft.tool;
    if (tool == Hf) {
        if (reorderForEngine(strategy.samplers, EngineOrder::HuggingFace) != strategy.samplers)
            draft.out.notes << QStringLiteral("transformers applies its processors and warpers in a fixed order; this "
                                              "strategy's order is not kept");
    } else if (!draft.order.isEmpty()) {
        if (tool == Llama)
            draft.fields.set(QStringLiteral("samplers"), draft.order);
        else
            draft.fields.set(QStringLiteral("sampler_priority"), draft.order);
        if (!draft.orderKnown)
            draft.out.notes << QStringLiteral("some samplers have no place in %1's order list").arg(draft.name);
    }
}

// Decoders: transformers' beam search, contrastive search and guidance; a note for any other.
void exportDecoder(ExportDraft& draft, const DecoderSpec& decoder) {
    const Tool tool = draft.tool;
    Fields& fields = draft.fields;
    if (!decoder.isSample()) {
        const QByteArray type = decoder.type.toLatin1();
        const auto param = [&](const char* key) { return decoder.params.value(QLatin1String(key)); };
        if (tool == Hf && (type == "beam" || type == "group_beam")) {
            fields.set(QStringLiteral("num_beams"), param("beams"));
            fields.set(QStringLiteral("length_penalty"), param("length_penalty"));
            fields.set(QStringLiteral("early_stopping"), param("early_stopping"));
            fields.set(QStringLiteral("num_return_sequences"), param("return"));
            fields.set(QStringLiteral("do_sample"), type == "beam" && param("do_sample").toBool());
            if (type == "group_beam") {
                fields.set(QStringLiteral("num_beam_groups"), param("groups"));
                fields.set(QStringLiteral("diversity_penalty"), param("diversity_penalty"));
            }
        } else if (tool == Hf && type == "contrastive_search") {
            fields.set(QStringLiteral("penalty_alpha"), param("penalty_alpha"));
            fields.set(QStringLiteral("top_k"), param("top_k"));
            fields.set(QStringLiteral("do_sample"), false);
        } else if (tool == Hf && type == "cfg") {
            fields.set(QStringLiteral("guidance_scale"), param("guidance_scale"));
        } else {
            draft.out.notes << QStringLiteral("%1 has no %2 decoder in this format; only the chain is written")
                                   .arg(draft.name, decoder.type);
        }
    }
}

} // namespace

QStringList strategyFormatNames() {
    return {QStringLiteral("llamacpp-json"), QStringLiteral("llamacpp-flags"), QStringLiteral("webui-yaml"),
            QStringLiteral("sillytavern"), QStringLiteral("generation-config")};
}

std::optional<StrategyFormat> strategyFormatFromName(const QString& name) {
    const int index = static_cast<int>(strategyFormatNames().indexOf(name));
    if (index < 0)
        return std::nullopt;
    return static_cast<StrategyFormat>(index);
}

QString strategyFormatTitle(StrategyFormat format) {
    switch (format) {
    case StrategyFormat::LlamaCppJson:
        return QStringLiteral("llama.cpp server JSON");
    case StrategyFormat::LlamaCppFlags:
        return QStringLiteral("llama.cpp command-line flags");
    case StrategyFormat::WebuiYaml:
        return QStringLiteral("text-generation-webui preset (YAML)");
    case StrategyFormat::SillyTavern:
        return QStringLiteral("SillyTavern preset (JSON)");
    case StrategyFormat::GenerationConfig:
        return QStringLiteral("transformers generation_config.json");
    }
    return {};
}

Result<ExportedStrategy> exportStrategy(const Strategy& strategy, StrategyFormat format) {
    const Tool tool = toolOf(format);
    ExportDraft draft(format, tool);
    // Every sampler the tool has, off, unless the strategy says otherwise (the tools' defaults are not ours).
    setSamplersOff(draft);
    for (const SamplerSpec& sampler : strategy.samplers)
        exportSampler(draft, strategy, sampler);
    exportSeedAndStops(draft, strategy);
    if (!draft.mirostatIgnores.isEmpty() && tool != Hf)
        draft.out.notes << QStringLiteral("with Mirostat, %1 uses only the temperature; %2 would not act")
                               .arg(draft.name, draft.mirostatIgnores.join(QStringLiteral(", ")));
    // llama.cpp makes a temperature of 0 greedy inside its temperature sampler, which must then be listed.
    if (draft.greedyChain && tool == Llama && !draft.order.isEmpty() &&
        !draft.order.contains(QStringLiteral("temperature")))
        draft.order.append(QStringLiteral("temperature"));
    exportOrder(draft, strategy);
    exportDecoder(draft, strategy.decoder);
    draft.out.text = serialize(draft.fields, format);
    return std::move(draft.out);
}

namespace {

// "--temp 0.8 --samplers 'top_k;temperature'" -> {temperature: 0.8, samplers: [...]}; the flags of kKnobs and
// Mirostat, --seed / -s, --samplers.
Result<QJsonObject> parseFlags(const QString& text, QStringList& notes) {
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            inWord = true;
        } else if (c == QLatin1Char('\\') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('\n')) {
            ++i;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull())
        return Error::badInput(QStringLiteral("the flags end inside a quoted value"));
    if (inWord)
        words << word;
    QJsonObject json;
    QStringList ignored;
    for (qsizetype i = 0; i < words.size(); ++i) {
        QString flag = words.at(i);
        QString value;
        if (const qsizetype equals = flag.indexOf(QLatin1Char('=')); flag.startsWith(QLatin1String("--")) && equals > 0) {
            value = flag.mid(equals + 1);
            flag = flag.left(equals);
        }
        QString key;
        for (const Knob& knob : kKnobs)
            if (knob.flag && flag == QLatin1String(knob.flag))
                key = QLatin1String(knob.key[Llama]);
        for (int m = 0; m < 3; ++m)
            if (flag == QLatin1String(kMirostatFlags[m]))
                key = QLatin1String(kMirostatKeys[Llama][m]);
        if (flag == QLatin1String("--temperature"))
            key = QStringLiteral("temperature");
        if (flag == QLatin1String("--seed") || flag == QLatin1String("-s"))
            key = QStringLiteral("seed");
        if (flag == QLatin1String("--samplers"))
            key = QStringLiteral("samplers");
        if (flag == QLatin1String("--grammar") || flag == QLatin1String("--json-schema") || flag == QLatin1String("-j"))
            key = flag == QLatin1String("--grammar") ? QStringLiteral("grammar") : QStringLiteral("json_schema");
        const bool takesValue = !key.isEmpty();
        if (takesValue && value.isEmpty()) {
            if (i + 1 >= words.size())
                return Error::badInput(QStringLiteral("%1 needs a value").arg(flag));
            value = words.at(++i);
        }
        if (!takesValue) {
            if (flag.startsWith(QLatin1Char('-')))
                ignored << flag;
            continue;
        }
        if (key == QLatin1String("samplers")) {
            json.insert(key, QJsonArray::fromStringList(value.split(QLatin1Char(';'), Qt::SkipEmptyParts)));
            continue;
        }
        if (key == QLatin1String("grammar") || key == QLatin1String("json_schema")) {
            if (key == QLatin1String("json_schema") && !QJsonDocument::fromJson(value.toUtf8()).isObject())
                return Error::badInput(QStringLiteral("%1 takes a JSON schema (an object), not '%2'").arg(flag, value));
            json.insert(key, value);
            continue;
        }
        bool ok = false;
        const double number = value.toDouble(&ok);
        if (!ok || !std::isfinite(number))
            return Error::badInput(QStringLiteral("%1 takes a number, not '%2'").arg(flag, value));
        json.insert(key, number);
    }
    if (!ignored.isEmpty())
        notes << QStringLiteral("not part of a strategy, ignored: %1").arg(ignored.join(QStringLiteral(", ")));
    return json;
}

// A flat YAML mapping as the webui writes presets: "key: value" lines, lists as "- item" lines under a key
// or [a, b]; comments after #.
Result<QJsonObject> parseFlatYaml(const QString& text) {
    QJsonObject json;
    QString listKey;
    QJsonArray list;
    const auto scalar = [](QString value) -> QJsonValue {
        value = value.trimmed();
        if (value == QLatin1String("true") || value == QLatin1String("True"))
            return true;
        if (value == QLatin1String("false") || value == QLatin1String("False"))
            return false;
        if (value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')) && value.size() >= 2)
            return value.mid(1, value.size() - 2).replace(QStringLiteral("\\n"), QStringLiteral("\n"));
        if (value.startsWith(QLatin1Char('\'')) && value.endsWith(QLatin1Char('\'')) && value.size() >= 2)
            return value.mid(1, value.size() - 2);
        bool ok = false;
        const double number = value.toDouble(&ok);
        return ok ? QJsonValue(number) : QJsonValue(value);
    };
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype n = 0; n < lines.size(); ++n) {
        QString line = lines.at(n);
        // A quoted value that goes on over indented lines (as yaml.dump writes long strings): one line, the breaks
        // folded to spaces, "\n" escapes kept for the caller.
        if (const qsizetype colon = line.indexOf(QStringLiteral(": ")); colon > 0) {
            const QString value = line.mid(colon + 2).trimmed();
            const QChar quote = value.isEmpty() ? QChar() : value.at(0);
            if ((quote == QLatin1Char('"') || quote == QLatin1Char('\'')) && (value.size() < 2 || !value.endsWith(quote)))
                while (n + 1 < lines.size() && !lines.at(n + 1).isEmpty() && lines.at(n + 1).at(0).isSpace()) {
                    line += QLatin1Char(' ') + lines.at(++n).trimmed();
                    if (line.endsWith(quote))
                        break;
                }
        }
        if (const qsizetype hash = line.indexOf(QStringLiteral(" #")); hash >= 0)
            line = line.left(hash);
        if (line.trimmed().startsWith(QLatin1Char('#')) || line.trimmed().isEmpty())
            continue;
        if (line.trimmed().startsWith(QLatin1String("- "))) {
            if (listKey.isEmpty())
                return Error::badInput(QStringLiteral("line %1: a list item outside a list").arg(n + 1));
            list.append(scalar(line.trimmed().mid(2))); // stored once the list ends: inserting the array at every
            continue;                                   // item copied it each time (quadratic in its length)
        }
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        if (colon <= 0 || line.at(0).isSpace())
            return Error::badInput(QStringLiteral("line %1 is not \"key: value\"").arg(n + 1));
        const QString key = line.left(colon).trimmed();
        const QString value = line.mid(colon + 1).trimmed();
        if (!listKey.isEmpty())
            json.insert(listKey, list);
        listKey.clear();
        list = {};
        if (value.isEmpty()) {
            listKey = key;
            json.insert(key, QJsonArray());
        } else if (value.startsWith(QLatin1Char('[')) && value.endsWith(QLatin1Char(']'))) {
            QJsonArray inline_;
            for (const QString& item : value.mid(1, value.size() - 2).split(QLatin1Char(','), Qt::SkipEmptyParts))
                inline_.append(scalar(item));
            json.insert(key, inline_);
        } else {
            json.insert(key, scalar(value));
        }
    }
    if (!listKey.isEmpty())
        json.insert(listKey, list);
    return json;
}

// The text as the tool's settings: flags, a webui preset or a JSON object.
Result<QJsonObject> parseSettings(const QString& text, StrategyFormat format, const QString& name, QStringList& notes) {
    QJsonObject given;
    if (format == StrategyFormat::LlamaCppFlags) {
        Result<QJsonObject> parsed = parseFlags(text, notes);
        if (!parsed)
            return parsed.error();
        given = parsed.value();
    } else if (format == StrategyFormat::WebuiYaml) {
        Result<QJsonObject> parsed = parseFlatYaml(text);
        if (!parsed)
            return Error::badInput(QStringLiteral("not a webui preset: %1").arg(parsed.error().message));
        given = parsed.value();
    } else {
        const QByteArray bytes = text.toUtf8();
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
        if (error.error != QJsonParseError::NoError)
            return Error::badInput(QStringLiteral("not valid JSON: %1").arg(jsonErrorWhere(bytes, error)));
        if (!document.isObject())
            return Error::badInput(QStringLiteral("%1 settings are a JSON object").arg(name));
        given = document.object();
    }
    return given;
}

// What an import reads: the tool, its settings (its own defaults, then what the text gives) and the notes on what
// does not translate.
struct ImportDraft {
    explicit ImportDraft(Tool tool)
        : tool(tool)
        , name(toolName(tool)) {}

    Tool tool;
    QString name;
    ImportedStrategy out;
    QJsonObject values;

    // The setting's number, or fallback when it holds none.
    double number(const char* key, double fallback) const {
        const QJsonValue v = values.value(QLatin1String(key));
        return v.isDouble() ? v.toDouble() : fallback;
    }
};

// The tool's own defaults.
QJsonObject toolDefaults(Tool tool) {
    QJsonObject values;
    if (tool == Llama)
        values = QJsonObject{{"temperature", 0.8}, {"top_k", 40}, {"top_p", 0.95}, {"min_p", 0.05}, {"repeat_last_n", 64},
                             {"dry_base", 1.75}, {"dry_allowed_length", 2}, {"dry_penalty_last_n", -1}, {"xtc_threshold", 0.1},
                             {"mirostat_tau", 5.0}, {"mirostat_eta", 0.1}};
    else if (tool == Hf)
        values = QJsonObject{{"do_sample", false}, {"top_k", 50}};
    else
        values = QJsonObject{{"dry_base", 1.75}, {"dry_allowed_length", 2}, {"xtc_threshold", 0.1}, {"smoothing_curve", 1.0},
                             {"mirostat_tau", 5.0}, {"mirostat_eta", 0.1}, {"repetition_penalty_range", 1024}, {"rep_pen_range", 1024}};
    return values;
}

// Whether key is a setting of the tool that a strategy has a place for.
bool isKnownSetting(const QString& key, Tool tool) {
    bool known = key == QLatin1String("seed") || key == QLatin1String("samplers") ||
                 key == QLatin1String("sampler_priority") || key == QLatin1String("temperature_last") ||
                 key == QLatin1String("do_sample") || key == QLatin1String("stop") ||
                 key == QLatin1String("stop_strings") || key == QLatin1String("dry_sequence_breakers");
    for (const Knob& knob : kKnobs)
        known = known || (knob.key[tool] && key == QLatin1String(knob.key[tool]));
    for (int m = 0; m < 3; ++m)
        known = known || (kMirostatKeys[tool][m] && key == QLatin1String(kMirostatKeys[tool][m]));
    if (tool == Hf)
        known = known || key == QLatin1String("num_beams");
    if (tool == Llama)
        known = known || key == QLatin1String("grammar") || key == QLatin1String("json_schema");
    if (tool == Webui || tool == Tavern)
        known = known || key == QLatin1String("grammar_string");
    return known;
}

// The given settings over the tool's defaults, the ones not read noted; the webui's and SillyTavern's penalty range
// as ours.
Status readSettings(ImportDraft& draft, const QJsonObject& given) {
    // The tool's own defaults, then what the text gives.
    draft.values = toolDefaults(draft.tool);
    QJsonObject& values = draft.values;
    QStringList unknown;
    for (auto it = given.begin(); it != given.end(); ++it) {
        if (!isKnownSetting(it.key(), draft.tool)) {
            unknown << it.key();
            continue;
        }
        // A numeric field must hold a finite number (the tools would not read "0.7" or nan as one).
        const bool textual = it.key() == QLatin1String("samplers") || it.key() == QLatin1String("sampler_priority") ||
                             it.key() == QLatin1String("stop") || it.key() == QLatin1String("stop_strings") ||
                             it.key() == QLatin1String("dry_sequence_breakers") || it.value().isBool() ||
                             it.key() == QLatin1String("grammar") || it.key() == QLatin1String("json_schema") ||
                             it.key() == QLatin1String("grammar_string");
        if (!textual && !(it.value().isDouble() && std::isfinite(it.value().toDouble())))
            return Error::badInput(QStringLiteral("%1 must be a finite number").arg(it.key()));
        values.insert(it.key(), it.value());
    }
    if (!unknown.isEmpty())
        draft.out.notes << QStringLiteral("not read (not sampling, or no sampler of ours): %1")
                               .arg(unknown.join(QStringLiteral(", ")));

    // The webui's and SillyTavern's penalty range counts from the end, 0 (or below) being the whole context.
    for (const char* key : {"repetition_penalty_range", "rep_pen_range"}) {
        const double range = values.value(QLatin1String(key)).toDouble();
        if (values.value(QLatin1String(key)).isDouble() && range <= 0)
            values.insert(QLatin1String(key), -1);
    }
    return {};
}

// The Mirostat mode the settings give: 0 (off), 1 or 2.
Result<int> mirostatMode(const ImportDraft& draft) {
    const Tool tool = draft.tool;
    const QJsonObject& values = draft.values;
    const int mirostatValue = kMirostatKeys[tool][0] ? static_cast<int>(std::clamp(values.value(QLatin1String(kMirostatKeys[tool][0])).toDouble(0), -1.0, 3.0)) : 0;
    if (kMirostatKeys[tool][0] && values.contains(QLatin1String(kMirostatKeys[tool][0])) &&
        (mirostatValue < 0 || mirostatValue > 2 ||
         values.value(QLatin1String(kMirostatKeys[tool][0])).toDouble() != mirostatValue))
        return Error::badInput(QStringLiteral("%1 must be 0, 1 or 2").arg(QLatin1String(kMirostatKeys[tool][0])));
    return mirostatValue;
}

// A sampler the settings switch on, with every parameter the tool gives.
struct Active {
    QString type;
    QJsonObject params;
};

// The samplers the values switch on, each with every parameter the tool gives.
std::vector<Active> activeSamplers(ImportDraft& draft) {
    const Tool tool = draft.tool;
    const QJsonObject& values = draft.values;
    std::vector<Active> active;
    for (const Knob& knob : kKnobs) {
        if (!knob.key[tool] || !knob.main)
            continue;
        const QJsonValue value = values.value(QLatin1String(knob.key[tool]));
        if (!value.isDouble())
            continue;
        const double scale = tool == Webui || tool == Tavern ? knob.scale : 1;
        const double ours = value.toDouble() / scale;
        const bool on = QByteArrayView(knob.sampler) == "top_n_sigma" ? ours > 0 : ours != knob.off;
        if (!on || (QByteArrayView(knob.sampler) == "top_k" && ours < 0))
            continue;
        auto found = std::find_if(active.begin(), active.end(), [&](const Active& a) { return a.type == QLatin1String(knob.sampler); });
        if (found == active.end()) {
            active.push_back({QLatin1String(knob.sampler), {}});
            found = active.end() - 1;
            for (const Knob& other : kKnobs)
                if (QByteArrayView(other.sampler) == knob.sampler && other.key[tool] && values.value(QLatin1String(other.key[tool])).isDouble())
                    found->params.insert(QLatin1String(other.param),
                                         values.value(QLatin1String(other.key[tool])).toDouble() / (tool == Webui || tool == Tavern ? other.scale : 1));
        }
    }
    const auto isActive = [&](const char* type) {
        return std::any_of(active.begin(), active.end(), [&](const Active& a) { return a.type == QLatin1String(type); });
    };
    if (tool == Llama && isActive("dry") && values.value(QStringLiteral("dry_sequence_breakers")).isArray())
        for (Active& a : active)
            if (a.type == QLatin1String("dry"))
                a.params.insert(QStringLiteral("breakers"), values.value(QStringLiteral("dry_sequence_breakers")));
    const QString rangeKey = tool == Llama ? QStringLiteral("repeat_last_n")
                             : tool == Webui ? QStringLiteral("repetition_penalty_range")
                                             : QStringLiteral("rep_pen_range");
    if (tool != Hf && isActive("repetition_penalty") && draft.number(qPrintable(rangeKey), -1) != -1)
        draft.out.notes << QStringLiteral(
                               "%1's repetition penalty counts the last %2 tokens; ours (transformers') counts the "
                               "whole history")
                               .arg(draft.name)
                               .arg(draft.number(qPrintable(rangeKey), -1));
    return active;
}

// The order list as names: a JSON list, or a string of names split on newlines, commas, semicolons or spaces.
QStringList givenSamplerOrder(const ImportDraft& draft) {
    const QString orderKey = draft.tool == Llama ? QStringLiteral("samplers") : QStringLiteral("sampler_priority");
    QStringList givenOrder;
    const QJsonValue orderValue = draft.values.value(orderKey);
    if (orderValue.isArray())
        for (const QJsonValue& v : orderValue.toArray())
            givenOrder << v.toString();
    else if (orderValue.isString())
        givenOrder = orderValue.toString().split(QRegularExpression(QStringLiteral("[\\s,;]+")), Qt::SkipEmptyParts);
    return givenOrder;
}

// A temperature of 0 (or below) is greedy in llama.cpp (inside its temperature sampler, so only when that is
// listed), the webui and SillyTavern (which also take do_sample false); transformers samples only with do_sample.
bool isGreedy(const ImportDraft& draft, const QStringList& givenOrder) {
    const Tool tool = draft.tool;
    const QJsonObject& values = draft.values;
    const bool temperatureListed = tool != Llama || givenOrder.isEmpty() || givenOrder.contains(QStringLiteral("temperature"));
    const bool greedy =
        tool == Hf ? !values.value(QStringLiteral("do_sample")).toBool()
                   : (temperatureListed && values.value(QLatin1String(kKnobs[0].key[tool])).isDouble() &&
                      values.value(QLatin1String(kKnobs[0].key[tool])).toDouble() <= 0) ||
                         (tool != Llama && values.value(QStringLiteral("do_sample")).isBool() &&
                          !values.value(QStringLiteral("do_sample")).toBool());
    return greedy;
}

// The active samplers in the order given, else the tool's (llama.cpp or the webui and SillyTavern): those not in
// the list are left out by llama.cpp, put last by the others.
std::vector<Active> listedOrder(ImportDraft& draft, const std::vector<Active>& active, const QStringList& givenOrder) {
    const Tool tool = draft.tool;
    std::vector<Active> ordered;
    QStringList names = givenOrder;
    if (names.isEmpty())
        names = tool == Llama ? kLlamaDefaultOrder : kWebuiDefaultOrder;
    if (tool != Llama && draft.values.value(QStringLiteral("temperature_last")).toBool()) {
        names.removeAll(QStringLiteral("temperature"));
        names << QStringLiteral("temperature");
    }
    // Every active sampler a listed name stands for (llama.cpp's "penalties" is both penalty samplers).
    std::vector<Active> rest = active;
    for (const QString& listed : names)
        for (auto it = rest.begin(); it != rest.end();) {
            if (orderName(it->type, tool) == listed ||
                (it->type == QLatin1String("penalties") && listed == QLatin1String("frequency_penalty"))) {
                ordered.push_back(*it);
                it = rest.erase(it);
            } else {
                ++it;
            }
        }
    if (!rest.empty()) {
        QStringList left;
        for (const Active& a : rest)
            left << a.type;
        if (tool == Llama) {
            draft.out.notes << QStringLiteral("llama.cpp applies only the samplers in its list; %1 left out")
                                   .arg(left.join(QStringLiteral(", ")));
        } else {
            ordered.insert(ordered.end(), rest.begin(), rest.end());
            draft.out.notes
                << QStringLiteral("%1 is not in the priority list; put last").arg(left.join(QStringLiteral(", ")));
        }
    }
    return ordered;
}

// Order: the one given, else the tool's.
std::vector<Active> orderedSamplers(ImportDraft& draft, const std::vector<Active>& active,
                                    const QStringList& givenOrder, bool greedy, int mirostat) {
    const Tool tool = draft.tool;
    std::vector<Active> ordered;
    if (tool != Hf && mirostat > 0) {
        // With Mirostat, llama.cpp's chain is the temperature, then Mirostat, and the webui's keeps only the
        // temperature of its warpers: the other samplers are not used.
        for (const Active& a : active)
            if (a.type == QLatin1String("temperature"))
                ordered.push_back(a);
        if (active.size() > ordered.size())
            draft.out.notes << QStringLiteral(
                                   "with Mirostat, %1 uses only the temperature; the other samplers are left out")
                                   .arg(draft.name);
    } else if (tool == Hf) {
        // Without do_sample transformers takes the argmax of the processed scores: its warpers never run.
        QStringList dropped;
        for (const Active& a : active) {
            if (!greedy || a.type == QLatin1String("repetition_penalty") || a.type == QLatin1String("no_repeat_ngram"))
                ordered.push_back(a);
            else
                dropped << a.type;
        }
        if (!dropped.isEmpty())
            draft.out.notes << QStringLiteral(
                                   "do_sample is false, so transformers decodes greedily and never applies %1")
                                   .arg(dropped.join(QStringLiteral(", ")));
    } else {
        ordered = listedOrder(draft, active, givenOrder);
    }
    return ordered;
}

// The strategy's JSON: the ordered samplers (then Mirostat or greedy), the decoder, the seed and the stop strings.
QJsonObject importedStrategyJson(const ImportDraft& draft, const std::vector<Active>& ordered, bool greedy,
                                 int mirostat) {
    const Tool tool = draft.tool;
    const QJsonObject& values = draft.values;
    QJsonArray samplers;
    for (const Active& a : ordered) {
        if (greedy && a.type == QLatin1String("temperature"))
            continue;
        QJsonObject sampler = a.params;
        sampler.insert(QStringLiteral("type"), a.type);
        samplers.append(sampler);
    }
    if (mirostat > 0 && !greedy)
        samplers.append(QJsonObject{{"type", mirostat == 1 ? "mirostat" : "mirostat_v2"},
                                    {"tau", draft.number(kMirostatKeys[tool][1], 5.0)},
                                    {"eta", draft.number(kMirostatKeys[tool][2], 0.1)}});
    else if (greedy)
        samplers.append(QJsonObject{{"type", "greedy"}});
    // A grammar first, where the tools apply it (llama.cpp's json_schema may come as text from a flag).
    const QJsonValue gbnf = values.value(tool == Llama ? QStringLiteral("grammar") : QStringLiteral("grammar_string"));
    QJsonValue schema = values.value(QStringLiteral("json_schema"));
    if (schema.isString())
        schema = QJsonDocument::fromJson(schema.toString().toUtf8()).object();
    if (schema.isObject() && tool == Llama)
        samplers.prepend(QJsonObject{{"type", "grammar"}, {"json_schema", schema}});
    else if (gbnf.isString() && !gbnf.toString().isEmpty())
        samplers.prepend(QJsonObject{{"type", "grammar"}, {"gbnf", gbnf}});
    QJsonObject json{{"samplers", samplers}};
    if (tool == Hf)
        json.insert(QStringLiteral("order"), QStringLiteral("hf"));
    if (tool == Hf && draft.number("num_beams", 1) > 1)
        json.insert(QStringLiteral("decoder"), QJsonObject{{"type", "beam"}, {"beams", draft.number("num_beams", 1)}});
    if (values.value(QStringLiteral("seed")).isDouble() && values.value(QStringLiteral("seed")).toDouble() >= 0)
        json.insert(QStringLiteral("seed"), values.value(QStringLiteral("seed")));
    const QJsonValue stop = values.value(tool == Hf ? QStringLiteral("stop_strings") : QStringLiteral("stop"));
    if (stop.isArray() || stop.isString())
        json.insert(QStringLiteral("stop"), stop);
    return json;
}

} // namespace

Result<ImportedStrategy> importStrategy(const QString& text, StrategyFormat format) {
    ImportDraft draft(toolOf(format));
    const QString& name = draft.name;
    Result<QJsonObject> given = parseSettings(text, format, name, draft.out.notes);
    if (!given)
        return given.error();
    if (Status read = readSettings(draft, given.value()); !read)
        return read.error();
    Result<int> mirostatValue = mirostatMode(draft);
    if (!mirostatValue)
        return mirostatValue.error();
    const std::vector<Active> active = activeSamplers(draft);
    const QStringList order = givenSamplerOrder(draft);
    const bool greedy = isGreedy(draft, order);
    const int mirostat = mirostatValue.value();
    const std::vector<Active> ordered = orderedSamplers(draft, active, order, greedy, mirostat);
    Result<Strategy> strategy = Strategy::fromJson(importedStrategyJson(draft, ordered, greedy, mirostat));
    if (!strategy)
        return Error::badInput(QStringLiteral("these %1 settings make no valid strategy: %2").arg(name, strategy.error().message));
    draft.out.strategy = strategy.value();
    draft.out.strategy.name = QStringLiteral("from %1").arg(name);
    return std::move(draft.out);
}

} // namespace swb
