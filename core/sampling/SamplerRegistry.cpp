#include "sampling/SamplerRegistry.h"

#include <cmath>

#include <QJsonArray>

#include "sampling/samplers/SamplerDescriptors.h"

namespace swb {

const std::vector<SamplerDescriptor>& samplerDescriptors() {
    static const std::vector<SamplerDescriptor> all = {
        temperatureDescriptor(), dynatempDescriptor(),      topKDescriptor(),       topPDescriptor(),
        minPDescriptor(),        typicalDescriptor(),       epsilonDescriptor(),    etaDescriptor(),
        topNSigmaDescriptor(),   xtcDescriptor(),           repetitionDescriptor(), penaltiesDescriptor(),
        dryDescriptor(),         noRepeatNgramDescriptor(), logitBiasDescriptor(),  bannedTokensDescriptor(),
        bannedWordsDescriptor(), grammarDescriptor(),       distDescriptor(),       greedyDescriptor(),
        mirostatDescriptor(),    mirostatV2Descriptor(),    topADescriptor(),       tfsDescriptor(),
        smoothingDescriptor(),   topHDescriptor(),          adaptivePDescriptor(),
    };
    return all;
}

const SamplerDescriptor* findSamplerDescriptor(const QString& type) {
    for (const SamplerDescriptor& descriptor : samplerDescriptors())
        if (descriptor.type == type)
            return &descriptor;
    return nullptr;
}

namespace {

QString rangeText(const ParamSpec& spec) {
    const QString low = spec.minExclusive ? QStringLiteral("(") : QStringLiteral("[");
    const QString high = std::isinf(spec.max) ? QStringLiteral("inf)") : QString::number(spec.max) + QLatin1Char(']');
    return low + QString::number(spec.min) + QStringLiteral(", ") + high;
}

bool inRange(const ParamSpec& spec, double value) {
    if (!std::isfinite(value))
        return false;
    if (spec.minExclusive ? value <= spec.min : value < spec.min)
        return false;
    return value <= spec.max;
}

} // namespace

Result<QJsonObject> validateSamplerParams(const QJsonObject& sampler, int position) {
    const QString type = sampler.value(QLatin1String("type")).toString();
    const QString where = QStringLiteral("sampler %1").arg(position + 1);
    if (type.isEmpty())
        return Error::badInput(QStringLiteral("%1 has no \"type\"").arg(where));
    const SamplerDescriptor* descriptor = findSamplerDescriptor(type);
    if (!descriptor)
        return Error::badInput(QStringLiteral("%1: unknown sampler type '%2'").arg(where, type));
    const QString named = QStringLiteral("%1 (%2)").arg(where, type);

    for (auto it = sampler.begin(); it != sampler.end(); ++it) {
        if (it.key() == QLatin1String("type"))
            continue;
        bool known = false;
        for (const ParamSpec& spec : descriptor->params)
            known = known || spec.name == it.key();
        if (!known)
            return Error::badInput(QStringLiteral("%1: unknown field '%2'").arg(named, it.key()));
    }

    QJsonObject params;
    for (const ParamSpec& spec : descriptor->params) {
        const QJsonValue value = sampler.contains(spec.name) ? sampler.value(spec.name) : spec.defaultValue;
        const QString field = QStringLiteral("%1: field '%2'").arg(named, spec.name);
        switch (spec.kind) {
        case ParamSpec::Kind::Real:
        case ParamSpec::Kind::Integer: {
            if (!value.isDouble())
                return Error::badInput(QStringLiteral("%1 must be a number").arg(field));
            const double number = value.toDouble();
            if (spec.kind == ParamSpec::Kind::Integer && number != std::floor(number))
                return Error::badInput(QStringLiteral("%1 must be an integer, not %2").arg(field).arg(number));
            if (!inRange(spec, number))
                return Error::badInput(
                    QStringLiteral("%1 must be in %2, not %3").arg(field, rangeText(spec)).arg(number));
            break;
        }
        case ParamSpec::Kind::IdList: {
            if (!value.isArray())
                return Error::badInput(QStringLiteral("%1 must be an array of token ids").arg(field));
            for (const QJsonValue& id : value.toArray())
                if (!id.isDouble() || id.toDouble() < 0 || id.toDouble() != std::floor(id.toDouble()))
                    return Error::badInput(QStringLiteral("%1 must hold non-negative integer token ids").arg(field));
            break;
        }
        case ParamSpec::Kind::BiasMap: {
            if (!value.isObject())
                return Error::badInput(QStringLiteral("%1 must be an object of \"token id\": bias").arg(field));
            const QJsonObject map = value.toObject();
            for (auto it = map.begin(); it != map.end(); ++it) {
                bool ok = false;
                const int id = it.key().toInt(&ok);
                if (!ok || id < 0)
                    return Error::badInput(
                        QStringLiteral("%1 has key '%2', which is not a token id").arg(field, it.key()));
                if (!it.value().isDouble() || !std::isfinite(it.value().toDouble()) ||
                    std::abs(it.value().toDouble()) > 1000.0)
                    return Error::badInput(QStringLiteral("%1: the bias of token %2 must be a number in [-1000, 1000]")
                                               .arg(field, it.key()));
            }
            break;
        }
        case ParamSpec::Kind::TextList:
        case ParamSpec::Kind::TokenOrTextList: {
            if (!value.isArray())
                return Error::badInput(QStringLiteral("%1 must be an array").arg(field));
            for (const QJsonValue& item : value.toArray()) {
                const bool text = item.isString() && !item.toString().isEmpty();
                const bool token = spec.kind == ParamSpec::Kind::TokenOrTextList && item.isDouble() &&
                                   item.toDouble() >= 0 && item.toDouble() == std::floor(item.toDouble());
                if (!text && !token)
                    return Error::badInput(spec.kind == ParamSpec::Kind::TextList
                                               ? QStringLiteral("%1 must hold non-empty strings").arg(field)
                                               : QStringLiteral("%1 must hold strings or token ids").arg(field));
            }
            break;
        }
        case ParamSpec::Kind::Text:
            if (!value.isString())
                return Error::badInput(QStringLiteral("%1 must be a string").arg(field));
            break;
        case ParamSpec::Kind::Schema:
            if (!value.isObject() && !value.isBool() && !value.isNull())
                return Error::badInput(QStringLiteral("%1 must be a JSON schema (an object)").arg(field));
            break;
        case ParamSpec::Kind::Flag:
            if (!value.isBool())
                return Error::badInput(QStringLiteral("%1 must be true or false").arg(field));
            break;
        }
        params.insert(spec.name, value);
    }
    if (descriptor->check)
        if (Status s = descriptor->check(params, named); !s)
            return s.error();
    return params;
}

} // namespace swb
