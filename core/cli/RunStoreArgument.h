#pragma once

#include <memory>

#include <QString>

namespace swb {
class Database;
}

namespace swb::cli {

// Opens the run store named by --db for a subcommand that reads what is already there: a missing file
// is bad input (exit 2) rather than a new, empty store.
std::unique_ptr<Database> openExistingRunStore(const QString& path);

} // namespace swb::cli
