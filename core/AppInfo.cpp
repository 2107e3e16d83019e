#include "AppInfo.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

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

QString bundledModelPath() {
    const QString relative = QStringLiteral("sampling-workbench/models/kjv-tiny");
    QString installed;
    if (QCoreApplication::instance())
        installed = QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../") +
                                    QStringLiteral(SWB_INSTALL_DATADIR) + QLatin1Char('/') + relative);
    for (const QString& candidate :
         {installed, QDir::cleanPath(QStringLiteral(SWB_SOURCE_DIR) + QStringLiteral("/resources/models/kjv-tiny"))})
        if (!candidate.isEmpty() && QFileInfo::exists(candidate + QStringLiteral("/config.json")))
            return candidate;
    return !installed.isEmpty()
               ? installed
               : QDir::cleanPath(QStringLiteral(SWB_INSTALL_FULL_DATADIR) + QLatin1Char('/') + relative);
}

} // namespace swb
