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

std::unique_ptr<Database> openOptionalRunStore(const Invocation& call) {
    if (!call.args.isSet(QStringLiteral("db")))
        return nullptr;
    Result<std::unique_ptr<Database>> database = Database::open(call.args.value(QStringLiteral("db")));
    if (!database)
        failBadInput(database.error().message);
    return std::move(database).value();
}

} // namespace swb::cli
