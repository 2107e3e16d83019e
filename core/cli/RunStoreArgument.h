#pragma once

#include <memory>

#include <QString>

#include "storage/Database.h"

namespace swb::cli {

struct Invocation;

// Opens the run store named by --db for a subcommand that reads what is already there: a missing file
// is bad input (exit 2) rather than a new, empty store. Commands that only read open it read-only, so
// that a store in use by the workbench (or one the user may not write) is never changed.
std::unique_ptr<Database> openExistingRunStore(const QString& path,
                                               Database::Access access = Database::Access::ReadWrite);

// The run store of an optional --db (created when new, migrated when old), opened before any slow work so a
// bad one fails fast; nullptr without --db.
std::unique_ptr<Database> openOptionalRunStore(const Invocation& call);

} // namespace swb::cli
