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
// Fails (exit 2) when path is a server's address, for commands that need the model here.
void refuseRemoteModel(const QString& path);
// The --model path, or the bundled demo model when none is given; a server's address is refused.
QString modelPathArgument(const Invocation& call);
// Loads both; a problem is a Failure (exit 2) naming the file.
LoadedModel loadModelFromArguments(const Invocation& call);
// The model at `path` (a file or folder here) with the other options as given.
LoadedModel loadModelFromArguments(const Invocation& call, const QString& path);

} // namespace swb::cli
