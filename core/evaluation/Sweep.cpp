#include "evaluation/Sweep.h"

#include <algorithm>
#include <cmath>

#include <QJsonArray>
#include <QJsonValue>

#include "evaluation/CsvWriter.h"
#include "sampling/SamplerRegistry.h"
#include "sampling/StepTrace.h"

namespace swb {

namespace {

constexpr int kMaxAxisValues = 16;

const ParamSpec* findParam(const SamplerDescriptor& descriptor, const QString& name) {
    for (const ParamSpec& param : descriptor.params)
        if (param.name == name)
            return &param;
    return nullptr;
}

// The shortest text that reads back as the same value ("0.7", not "0.69999999999999996").
QString numberText(double value) {
    return CsvWriter::number(value);
}

} // namespace

Result<SweepAxis> SweepAxis::parse(const QString& text) {
    const qsizetype equals = text.indexOf(QLatin1Char('='));
    const qsizetype dot = text.left(equals).indexOf(QLatin1Char('.'));
    if (equals < 0 || dot < 0)
        return Error::badInput(QStringLiteral("a sweep axis is written SAMPLER.PARAM=V1,V2,... (e.g. "
                                              "temperature.value=0.5,0.7,1), not \"%1\"")
                                   .arg(text));
    SweepAxis axis;
    axis.sampler = text.left(dot).trimmed();
    axis.param = text.mid(dot + 1, equals - dot - 1).trimmed();
    const SamplerDescriptor* descriptor = findSamplerDescriptor(axis.sampler);
    if (!descriptor)
        return Error::badInput(QStringLiteral("sweep axis %1: there is no sampler \"%2\"").arg(text, axis.sampler));
    const ParamSpec* param = findParam(*descriptor, axis.param);
    if (!param) {
        QStringList numeric;
        for (const ParamSpec& p : descriptor->params)
            if (p.kind == ParamSpec::Kind::Real || p.kind == ParamSpec::Kind::Integer)
                numeric << p.name;
        return Error::badInput(QStringLiteral("sweep axis %1: %2 has no numeric parameter \"%3\" (it has: %4)")
                                   .arg(text, axis.sampler, axis.param,
                                        numeric.isEmpty() ? QStringLiteral("none") : numeric.join(QStringLiteral(", "))));
    }
    if (param->kind != ParamSpec::Kind::Real && param->kind != ParamSpec::Kind::Integer)
        return Error::badInput(QStringLiteral("sweep axis %1: %2 is not a number").arg(text, axis.label()));
    const QStringList values = text.mid(equals + 1).split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (values.isEmpty())
        return Error::badInput(QStringLiteral("sweep axis %1 has no values").arg(axis.label()));
    if (values.size() > kMaxAxisValues)
        return Error::badInput(QStringLiteral("sweep axis %1 has %2 values; at most %3")
                                   .arg(axis.label())
                                   .arg(values.size())
                                   .arg(kMaxAxisValues));
    for (const QString& item : values) {
        bool ok = false;
        const double value = item.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(value))
            return Error::badInput(QStringLiteral("sweep axis %1: \"%2\" is not a finite number").arg(axis.label(), item.trimmed()));
        if (param->kind == ParamSpec::Kind::Integer && value != std::floor(value))
            return Error::badInput(QStringLiteral("sweep axis %1: %2 must be a whole number").arg(axis.label(), item.trimmed()));
        if (value < param->min || value > param->max || (param->minExclusive && value == param->min))
            return Error::badInput(QStringLiteral("sweep axis %1: %2 is outside %3%4, %5]")
                                       .arg(axis.label(), item.trimmed(),
                                            param->minExclusive ? QStringLiteral("(") : QStringLiteral("["),
                                            numberText(param->min), numberText(param->max)));
        if (std::find(axis.values.begin(), axis.values.end(), value) != axis.values.end())
            return Error::badInput(QStringLiteral("sweep axis %1: %2 is given twice").arg(axis.label(), item.trimmed()));
        axis.values.push_back(value);
    }
    return axis;
}

QString SweepAxis::toString() const {
    QStringList texts;
    for (double value : values)
        texts << numberText(value);
    return label() + QLatin1Char('=') + texts.join(QLatin1Char(','));
}

Result<SweepSpec> SweepSpec::fromJson(const QJsonObject& json) {
    static const QStringList known{QStringLiteral("base"),    QStringLiteral("x"),    QStringLiteral("y"),
                                   QStringLiteral("prompts"), QStringLiteral("samples"), QStringLiteral("seed"),
                                   QStringLiteral("max_tokens")};
    for (auto it = json.begin(); it != json.end(); ++it)
        if (!known.contains(it.key()))
            return Error::badInput(QStringLiteral("a sweep has no field \"%1\" (fields: %2)").arg(it.key(), known.join(QStringLiteral(", "))));
    SweepSpec spec;
    if (!json.value(QStringLiteral("base")).isObject())
        return Error::badInput(QStringLiteral("a sweep's \"base\" must be a strategy (a JSON object)"));
    Result<Strategy> base = Strategy::fromJson(json.value(QStringLiteral("base")).toObject());
    if (!base)
        return Error::badInput(QStringLiteral("the sweep's base strategy: %1").arg(base.error().message));
    spec.base = base.value();
    if (!json.value(QStringLiteral("x")).isString())
        return Error::badInput(QStringLiteral("a sweep's \"x\" must be an axis, \"SAMPLER.PARAM=V1,V2,...\""));
    Result<SweepAxis> x = SweepAxis::parse(json.value(QStringLiteral("x")).toString());
    if (!x)
        return x.error();
    spec.x = x.value();
    if (json.contains(QStringLiteral("y")) && !json.value(QStringLiteral("y")).isNull()) {
        if (!json.value(QStringLiteral("y")).isString())
            return Error::badInput(QStringLiteral("a sweep's \"y\" must be an axis, \"SAMPLER.PARAM=V1,V2,...\""));
        Result<SweepAxis> y = SweepAxis::parse(json.value(QStringLiteral("y")).toString());
        if (!y)
            return y.error();
        spec.y = y.value();
    }
    const QJsonValue prompts = json.value(QStringLiteral("prompts"));
    if (!prompts.isArray())
        return Error::badInput(QStringLiteral("a sweep's \"prompts\" must be a list of strings"));
    for (const QJsonValue& prompt : prompts.toArray()) {
        if (!prompt.isString())
            return Error::badInput(QStringLiteral("a sweep's \"prompts\" must be a list of strings"));
        spec.prompts << prompt.toString();
    }
    const auto wholeNumber = [&](const char* field, double low, double high, double fallback) -> Result<double> {
        const QJsonValue value = json.value(QLatin1String(field));
        if (value.isUndefined())
            return fallback;
        if (!value.isDouble() || value.toDouble() != std::floor(value.toDouble()) || value.toDouble() < low ||
            value.toDouble() > high)
            return Error::badInput(QStringLiteral("a sweep's \"%1\" must be a whole number from %2 to %3")
                                       .arg(QLatin1String(field), numberText(low), numberText(high)));
        return value.toDouble();
    };
    Result<double> samples = wholeNumber("samples", 1, 1000, spec.samples);
    if (!samples)
        return samples.error();
    Result<double> seed = wholeNumber("seed", 0, 9007199254740991.0, 0); // 2^53 - 1: exact in JSON
    if (!seed)
        return seed.error();
    Result<double> maxTokens = wholeNumber("max_tokens", 1, 4096, spec.maxTokens);
    if (!maxTokens)
        return maxTokens.error();
    spec.samples = static_cast<int>(samples.value());
    spec.seed = static_cast<std::uint64_t>(seed.value());
    spec.maxTokens = static_cast<int>(maxTokens.value());
    if (Status status = spec.validate(); !status)
        return status.error();
    return spec;
}

QJsonObject SweepSpec::toJson() const {
    QJsonObject json{{QStringLiteral("base"), base.toJson()},
                     {QStringLiteral("x"), x.toString()},
                     {QStringLiteral("prompts"), QJsonArray::fromStringList(prompts)},
                     {QStringLiteral("samples"), samples},
                     {QStringLiteral("seed"), static_cast<double>(seed)},
                     {QStringLiteral("max_tokens"), maxTokens}};
    if (y)
        json.insert(QStringLiteral("y"), y->toString());
    return json;
}

Status SweepSpec::validate() const {
    if (x.values.empty())
        return Error::badInput(QStringLiteral("a sweep needs an x axis with at least one value"));
    if (y && y->label() == x.label())
        return Error::badInput(QStringLiteral("a sweep's two axes are the same parameter, %1").arg(x.label()));
    if (!base.decoder.isSample())
        return Error::badInput(QStringLiteral("a sweep runs sampled strategies; the base strategy's decoder is %1")
                                   .arg(base.decoder.type));
    if (prompts.isEmpty())
        return Error::badInput(QStringLiteral("a sweep needs at least one prompt"));
    for (qsizetype i = 0; i < prompts.size(); ++i)
        if (prompts.at(i).isEmpty())
            return Error::badInput(QStringLiteral("prompt %1 of the sweep is empty").arg(i + 1));
    if (samples < 1 || samples > 1000)
        return Error::badInput(QStringLiteral("a sweep's samples must be from 1 to 1000"));
    if (maxTokens < 1 || maxTokens > 4096)
        return Error::badInput(QStringLiteral("a sweep's max tokens must be from 1 to 4096"));
    // Counted in 64 bits (an int product of a large prompt set went negative), and bounded.
    constexpr std::int64_t kMostRuns = 1'000'000;
    const std::int64_t runs = std::int64_t(x.values.size()) * std::int64_t(y ? y->values.size() : 1) *
                              std::int64_t(prompts.size()) * std::int64_t(samples);
    if (runs > kMostRuns)
        return Error::badInput(QStringLiteral("the sweep would make %1 runs (%2 cells × %3 prompts × %4 samples); at "
                                              "most %5 are allowed")
                                   .arg(runs)
                                   .arg(std::int64_t(x.values.size()) * std::int64_t(y ? y->values.size() : 1))
                                   .arg(prompts.size())
                                   .arg(samples)
                                   .arg(kMostRuns));
    for (int row = 0; row < rows(); ++row)
        for (int column = 0; column < columns(); ++column)
            if (Result<Strategy> cell = sweepCellStrategy(*this, column, row); !cell)
                return cell.error();
    return {};
}

Result<Strategy> sweepCellStrategy(const SweepSpec& spec, int column, int row) {
    QStringList name{spec.x.label() + QLatin1Char('=') + numberText(spec.x.values.at(static_cast<std::size_t>(column)))};
    if (spec.y)
        name << spec.y->label() + QLatin1Char('=') + numberText(spec.y->values.at(static_cast<std::size_t>(row)));
    const QString cell = name.join(QStringLiteral(", "));
    Result<Strategy> strategy = withSamplerParams(
        spec.base, spec.x.sampler, QJsonObject{{spec.x.param, spec.x.values.at(static_cast<std::size_t>(column))}});
    if (strategy && spec.y)
        strategy = withSamplerParams(strategy.value(), spec.y->sampler,
                                     QJsonObject{{spec.y->param, spec.y->values.at(static_cast<std::size_t>(row))}});
    if (!strategy)
        return Error::badInput(QStringLiteral("sweep cell %1: %2").arg(cell, strategy.error().message));
    strategy->name = cell;
    strategy->seed.reset();
    return strategy;
}

SweepCellMetrics sweepCellMetrics(const std::vector<std::vector<StepTrace>>& runs) {
    SweepCellMetrics metrics;
    metrics.runs = static_cast<int>(runs.size());
    if (runs.empty())
        return metrics;
    std::vector<std::vector<int>> texts;
    std::vector<double> lengths, entropies, rep4;
    double logSum = 0.0;
    std::size_t tokens = 0;
    int looping = 0;
    for (const std::vector<StepTrace>& steps : runs) {
        const stats::TextMetrics run = stats::textMetrics(steps);
        std::vector<int> ids;
        for (const StepTrace& step : steps) {
            ids.push_back(step.chosen);
            logSum += std::log(static_cast<double>(step.rawP));
        }
        tokens += steps.size();
        texts.push_back(std::move(ids));
        lengths.push_back(static_cast<double>(steps.size()));
        if (!std::isnan(run.meanRawEntropy))
            entropies.push_back(run.meanRawEntropy);
        if (!std::isnan(run.rep4))
            rep4.push_back(run.rep4);
        looping += run.loops > 0 ? 1 : 0;
    }
    metrics.meanLength = stats::mean(lengths);
    metrics.meanRawEntropy = stats::mean(entropies);
    metrics.perplexity = tokens > 0 ? std::exp(-logSum / static_cast<double>(tokens)) : stats::kNaN;
    metrics.distinct1 = stats::distinctN(texts, 1);
    metrics.distinct2 = stats::distinctN(texts, 2);
    metrics.rep4 = stats::mean(rep4);
    metrics.loopShare = static_cast<double>(looping) / static_cast<double>(runs.size());
    return metrics;
}

const std::vector<SweepMetric>& sweepMetrics() {
    static const std::vector<SweepMetric> metrics{
        {QStringLiteral("mean_raw_entropy"), [](const SweepCellMetrics& m) { return m.meanRawEntropy; }},
        {QStringLiteral("perplexity"), [](const SweepCellMetrics& m) { return m.perplexity; }},
        {QStringLiteral("distinct_1"), [](const SweepCellMetrics& m) { return m.distinct1; }},
        {QStringLiteral("distinct_2"), [](const SweepCellMetrics& m) { return m.distinct2; }},
        {QStringLiteral("rep_4"), [](const SweepCellMetrics& m) { return m.rep4; }},
        {QStringLiteral("mean_length"), [](const SweepCellMetrics& m) { return m.meanLength; }},
        {QStringLiteral("loop_share"), [](const SweepCellMetrics& m) { return m.loopShare; }},
    };
    return metrics;
}

bool writeSweepCsv(QIODevice& out, const SweepSpec& spec, const std::vector<SweepCellResult>& cells) {
    CsvWriter csv(out);
    QStringList header{spec.x.label(), spec.y ? spec.y->label() : QStringLiteral("y"), QStringLiteral("runs")};
    for (const SweepMetric& metric : sweepMetrics())
        header << metric.key;
    csv.writeRow(header);
    for (const SweepCellResult& cell : cells) {
        QStringList row{CsvWriter::number(spec.x.values.at(static_cast<std::size_t>(cell.column))),
                        spec.y ? CsvWriter::number(spec.y->values.at(static_cast<std::size_t>(cell.row))) : QString(),
                        QString::number(cell.metrics.runs)};
        for (const SweepMetric& metric : sweepMetrics())
            row << CsvWriter::number(metric.value(cell.metrics));
        csv.writeRow(row);
    }
    return csv.ok();
}

} // namespace swb
