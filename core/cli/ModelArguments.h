#pragma once

#include <memory>

#include <QCommandLineParser>

#include "cli/Subcommand.h"

namespace swb {
class Model;
class Tokenizer;
} // namespace swb

namespace swb::cli {

// A model and its tokenizer, loaded from the shared options --model, --tokenizer, --device,
// --dtype and --threads.
struct LoadedModel {
    std::unique_ptr<Model> model;
    std::unique_ptr<Tokenizer> tokenizer;
    LoadedModel();
    LoadedModel(LoadedModel&&) noexcept;
    ~LoadedModel();
};

void declareModelArguments(QCommandLineParser& parser, bool withRuntime = true);
// The --model path, or the bundled demo model when none is given.
QString modelPathArgument(const Invocation& call);
// Loads both; a problem is a Failure (exit 2) naming the file.
LoadedModel loadModelFromArguments(const Invocation& call);

} // namespace swb::cli
