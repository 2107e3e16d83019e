#include "AppInfo.h"

#include <QCoreApplication>

namespace swb {

QString applicationId() {
    return QStringLiteral(SWB_APP_ID);
}

QString applicationVersion() {
    return QStringLiteral(SWB_VERSION);
}

void initApplicationInfo() {
    QCoreApplication::setOrganizationName(QString());
    QCoreApplication::setApplicationName(applicationId());
    QCoreApplication::setApplicationVersion(applicationVersion());
}

} // namespace swb
