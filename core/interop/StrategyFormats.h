#pragma once

#include <optional>

#include <QString>
#include <QStringList>

#include "Result.h"
#include "sampling/Strategy.h"

namespace swb {

// A strategy in other tools' settings formats, both ways:
//   llamacpp-json      llama.cpp server /completion fields ("samplers" keeps the order)
//   llamacpp-flags     llama-cli / llama-server command-line flags (--samplers "a;b;c" keeps the order)
//   webui-yaml         a text-generation-webui preset (user_data/presets/*.yaml; sampler_priority keeps the order)
//   sillytavern        a SillyTavern text-completion preset (JSON; sampler_priority keeps the order)
//   generation-config  a transformers generation_config.json (transformers applies its own fixed order)
// Export writes every field the tool reads (neutral where the strategy is silent, since each tool has defaults
// of its own) and says in notes what does not translate. Import starts from the tool's own defaults (llama.cpp:
// top-k 40, top-p 0.95, min-p 0.05, temperature 0.8; transformers: do_sample false, i.e. greedy; the webui and
// SillyTavern: every sampler off) and says in notes which fields it does not read.
enum class StrategyFormat { LlamaCppJson, LlamaCppFlags, WebuiYaml, SillyTavern, GenerationConfig };

QStringList strategyFormatNames();
std::optional<StrategyFormat> strategyFormatFromName(const QString& name);
QString strategyFormatTitle(StrategyFormat format); // "llama.cpp server JSON"

struct ExportedStrategy {
    QString text;
    QStringList notes; // what does not translate, one sentence each
};
Result<ExportedStrategy> exportStrategy(const Strategy& strategy, StrategyFormat format);

struct ImportedStrategy {
    Strategy strategy;
    QStringList notes;
};
Result<ImportedStrategy> importStrategy(const QString& text, StrategyFormat format);

} // namespace swb
