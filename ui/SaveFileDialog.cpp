#include "SaveFileDialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QMessageBox>

#include "storage/FileIdentity.h"

namespace swb {

QString refusedSaveTarget(const QString& path) {
    const QString file = overwrittenOpenStoreFile(path);
    if (file.isEmpty())
        return {};
    const QString shown = QDir::toNativeSeparators(path);
    const QString suffix = storeCompanionSuffix(file);
    if (suffix.isEmpty())
        return QCoreApplication::translate("SaveFileDialog", "%1 is the open run store; choose another file.")
            .arg(shown);
    return QCoreApplication::translate("SaveFileDialog",
                                       "%1 is a file SQLite keeps for the open run store (its %2 file, which holds "
                                       "saved runs); choose another file.")
        .arg(shown, suffix.mid(1));
}

QString getSaveFileName(QWidget* parent, const QString& caption, const QString& suggestion, const QString& filter) {
    QString path = suggestion;
    for (;;) {
        path = QFileDialog::getSaveFileName(parent, caption, path, filter);
        if (path.isEmpty())
            return {};
        const QString refused = refusedSaveTarget(path);
        if (refused.isEmpty())
            return path;
        QMessageBox::warning(parent, caption, refused);
    }
}

} // namespace swb
