#include "cli/Subcommand.h"

namespace swb::cli {

std::vector<Subcommand> allSubcommands() {
    std::vector<Subcommand> all;
    return all;
}

} // namespace swb::cli
