#include "sampling/GrammarStage.h"

#include <algorithm>

#include <QJsonDocument>
#include <QJsonObject>

#include "JsonError.h"
#include "sampling/SamplerRegistry.h"

namespace swb {

Result<SamplerSpec> grammarStageFromFile(const QString& name, const QByteArray& bytes) {
    QJsonObject stage{{QStringLiteral("type"), QStringLiteral("grammar")}};
    if (name.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        QJsonParseError error;
        const QJsonDocument schema = QJsonDocument::fromJson(bytes, &error);
        if (error.error != QJsonParseError::NoError)
            return Error::badInput(QStringLiteral("%1 is not JSON: %2").arg(name, jsonErrorWhere(bytes, error)));
        if (!schema.isObject())
            return Error::badInput(QStringLiteral("%1 is not a JSON schema (an object)").arg(name));
        stage.insert(QStringLiteral("json_schema"), schema.object());
    } else {
        const QString text = QString::fromUtf8(bytes);
        if (text.toUtf8() != bytes)
            return Error::badInput(QStringLiteral("%1 is not UTF-8 text").arg(name));
        stage.insert(QStringLiteral("gbnf"), text);
    }
    Result<QJsonObject> params = validateSamplerParams(stage, 0);
    if (!params) {
        QString message = params.error().message;
        message.remove(QStringLiteral("sampler 1 (grammar): "));
        return Error::badInput(QStringLiteral("%1: %2").arg(name, message));
    }
    return SamplerSpec{QStringLiteral("grammar"), params.value()};
}

Result<Strategy> withGrammarFirst(Strategy strategy, const SamplerSpec& stage) {
    std::vector<SamplerSpec>& samplers = strategy.samplers;
    if (std::any_of(samplers.begin(), samplers.end(),
                    [](const SamplerSpec& s) { return s.type == QLatin1String("grammar"); }))
        return Error::badInput(QStringLiteral("the strategy already has a grammar stage"));
    samplers.insert(samplers.begin(), stage);
    return strategy;
}

} // namespace swb
