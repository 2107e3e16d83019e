#pragma once

#include <QString>

namespace swb {

// The reverse-DNS id used for QSettings, the .desktop file, AppStream metainfo and icons.
QString applicationId();
QString applicationVersion();

// Sets QCoreApplication's name and version so that QStandardPaths::AppDataLocation is
// ~/.local/share/<applicationId>. Call once after constructing the application object.
void initApplicationInfo();

// The bundled demo model (a Hugging Face folder, resources/models/kjv-tiny): the installed copy under
// <prefix>/share/sampling-workbench/models beside the running executable, else the source tree's (builds
// run in place). What the GUI and swb use when no model is given; if neither copy exists, the installed
// path, so that the error names where the model should be.
QString bundledModelPath();

} // namespace swb
