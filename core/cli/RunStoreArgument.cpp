#include "cli/RunStoreArgument.h"

#include <QFileInfo>

#include "cli/Subcommand.h"
#include "storage/Database.h"

namespace swb::cli {

std::unique_ptr<Database> openExistingRunStore(const QString& path) {
    if (!QFileInfo::exists(path))
        failBadInput(QStringLiteral("there is no run store %1").arg(path));
    Result<std::unique_ptr<Database>> database = Database::open(path);
    if (!database)
        failBadInput(database.error().message);
    return std::move(database).value();
}

} // namespace swb::cli
