#include "cli/RunStoreArgument.h"

#include <QFileInfo>

#include "cli/Subcommand.h"

namespace swb::cli {

std::unique_ptr<Database> openExistingRunStore(const QString& path, Database::Access access) {
    if (!QFileInfo::exists(path))
        failBadInput(QStringLiteral("there is no run store %1").arg(path));
    Result<std::unique_ptr<Database>> database = Database::open(path, access);
    if (!database)
        failBadInput(database.error().message);
    return std::move(database).value();
}

} // namespace swb::cli
