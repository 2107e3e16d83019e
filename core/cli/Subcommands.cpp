#include "cli/Subcommand.h"

namespace swb::cli {

std::vector<Subcommand> allSubcommands() {
    std::vector<Subcommand> all;
    for (Subcommand& command : modelSubcommands())
        all.push_back(std::move(command));
    for (Subcommand& command : tokenizerSubcommands())
        all.push_back(std::move(command));
    all.push_back(generateSubcommand());
    for (Subcommand& command : chatSubcommands())
        all.push_back(std::move(command));
    all.push_back(batchSubcommand());
    for (Subcommand& command : importSubcommands())
        all.push_back(std::move(command));
    all.push_back(exportSubcommand());
    for (Subcommand& command : samplingSubcommands())
        all.push_back(std::move(command));
    all.push_back(benchSubcommand());
    for (Subcommand& command : demoSubcommands())
        all.push_back(std::move(command));
    return all;
}

} // namespace swb::cli
