#include "cli/GrammarArgument.h"

#include <QFile>

#include "sampling/GrammarStage.h"

namespace swb::cli {

QCommandLineOption grammarOption() {
    return {QStringLiteral("grammar"),
            QStringLiteral("Hold the output to a GBNF grammar, or to a JSON schema in a .json file (a grammar stage "
                           "first in the strategy)."),
            QStringLiteral("FILE")};
}

Strategy applyGrammarArgument(const Invocation& call, Strategy strategy) {
    if (!call.args.isSet(QStringLiteral("grammar")))
        return strategy;
    const QString path = call.args.value(QStringLiteral("grammar"));
    QFile file;
    openInput(file, path);
    Result<SamplerSpec> stage = grammarStageFromFile(path, readInput(file, path));
    if (!stage)
        failBadInput(stage.error().message);
    Result<Strategy> constrained = withGrammarFirst(std::move(strategy), stage.value());
    if (!constrained)
        failBadInput(QStringLiteral("--grammar: %1").arg(constrained.error().message));
    return std::move(constrained).value();
}

} // namespace swb::cli
