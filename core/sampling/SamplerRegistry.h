#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include "Result.h"
#include "sampling/Sampler.h"

namespace swb {

class Tokenizer;

// One parameter of a sampler as the strategy JSON spells it, with its range and meaning.
struct ParamSpec {
    enum class Kind { Real, Integer, IdList, BiasMap, TextList, TokenOrTextList, Text, Schema, Flag };
    QString name;
    Kind kind = Kind::Real;
    double min = 0.0;
    double max = 0.0;
    bool minExclusive = false;
    QJsonValue defaultValue;
    QString doc;
};

// A sampler type: its JSON name, whose semantics it follows, its parameters and its factory.
// params handed to make() are validated and completed with defaults.
struct SamplerDescriptor {
    QString type;
    QString engine; // "Hugging Face transformers", "OpenAI", "llama.cpp", "Sampling Workbench"
    QString summary;
    std::vector<ParamSpec> params;
    bool selector = false;
    std::function<Result<std::unique_ptr<Sampler>>(const QJsonObject& params, const Tokenizer* tokenizer)> make;
    // Checks what the fields' kinds cannot say (how they go together, a grammar's syntax); optional.
    std::function<Status(const QJsonObject& params, const QString& where)> check = {};
};

// Every sampler type, in menu order.
const std::vector<SamplerDescriptor>& samplerDescriptors();
const SamplerDescriptor* findSamplerDescriptor(const QString& type);

// Checks one sampler's JSON object (type, fields, ranges) and returns its parameters with
// defaults filled in. Errors name the sampler (by position and type) and the field.
Result<QJsonObject> validateSamplerParams(const QJsonObject& sampler, int position);

} // namespace swb
