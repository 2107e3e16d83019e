#pragma once

#include <QByteArray>
#include <QString>

#include "Result.h"
#include "sampling/Strategy.h"

namespace swb {

// A grammar stage from a file's bytes: a JSON schema when the name ends in .json, else GBNF; checked (syntax
// errors at their line and column, schema errors at their place), one sentence naming the file when not.
Result<SamplerSpec> grammarStageFromFile(const QString& name, const QByteArray& bytes);

// The strategy with a grammar stage first, where llama.cpp and vLLM apply it; refused when it has one already.
Result<Strategy> withGrammarFirst(Strategy strategy, const SamplerSpec& stage);

} // namespace swb
