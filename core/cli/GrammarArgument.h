#pragma once

#include <QCommandLineOption>

#include "cli/Subcommand.h"
#include "sampling/Strategy.h"

namespace swb::cli {

// --grammar FILE: the output held to a GBNF grammar, or to a JSON schema in a .json file.
QCommandLineOption grammarOption();
// The strategy with --grammar's stage first (where llama.cpp applies it); unchanged without --grammar. A file
// that does not parse fails (exit 2) with its line and column.
Strategy applyGrammarArgument(const Invocation& call, Strategy strategy);

} // namespace swb::cli
