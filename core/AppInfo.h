#pragma once

#include <QString>

namespace swb {

// The reverse-DNS id used for QSettings, the .desktop file, AppStream metainfo and icons.
QString applicationId();
QString applicationVersion();

// Sets QCoreApplication's name and version so that QStandardPaths::AppDataLocation is
// ~/.local/share/<applicationId>. Call once after constructing the application object.
void initApplicationInfo();

} // namespace swb
