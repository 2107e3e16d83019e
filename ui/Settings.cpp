#include "Settings.h"

#include "AppInfo.h"

namespace swb {

Settings::Settings()
    : m_store(std::make_unique<QSettings>(applicationId(), QStringLiteral("settings"))) {}

} // namespace swb
