#include "storage/FileIdentity.h"

#include <sys/stat.h>

#include <QDir>
#include <QFileInfo>

#include "storage/Database.h"

namespace swb {

namespace {

const char* const kCompanionSuffixes[] = {"-wal", "-shm", "-journal"};

// The path a file is reached by once links and relative parts are resolved; for a file that does not
// exist (yet), its resolved folder and name, and for a dangling symbolic link, where it points.
QString resolved(const QString& path) {
    QFileInfo info(path);
    if (info.isSymLink() && !info.exists())
        info = QFileInfo(info.symLinkTarget());
    if (info.exists())
        return info.canonicalFilePath();
    const QFileInfo folder(info.absolutePath());
    const QString base = folder.exists() ? folder.canonicalFilePath() : folder.absoluteFilePath();
    return QDir(base).filePath(info.fileName());
}

bool sameInode(const QString& a, const QString& b) {
    struct stat x {};
    struct stat y {};
    return ::stat(QFile::encodeName(a).constData(), &x) == 0 && ::stat(QFile::encodeName(b).constData(), &y) == 0 &&
           x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

} // namespace

QStringList storeCompanionFiles(const QString& storePath) {
    QStringList files;
    for (const char* suffix : kCompanionSuffixes)
        files << storePath + QLatin1String(suffix);
    return files;
}

QString storeCompanionSuffix(const QString& path) {
    for (const char* suffix : kCompanionSuffixes)
        if (path.endsWith(QLatin1String(suffix)))
            return QLatin1String(suffix);
    return {};
}

QString storeOwningCompanion(const QString& path) {
    const QString suffix = storeCompanionSuffix(path);
    if (suffix.isEmpty())
        return {};
    const QString store = path.chopped(suffix.size());
    return QFileInfo::exists(store) ? store : QString();
}

bool overwrites(const QString& output, const QString& input) {
    if (output.isEmpty() || input.isEmpty())
        return false;
    if (sameInode(output, input))
        return true;
    const QString out = resolved(output);
    const QString in = resolved(input);
    if (out == in)
        return true;
    const QFileInfo folder(input);
    return folder.isDir() && QFileInfo::exists(output) && out.startsWith(in + QLatin1Char('/'));
}

QString overwrittenStoreFile(const QString& output, const QString& storePath) {
    if (overwrites(output, storePath))
        return storePath;
    for (const QString& companion : storeCompanionFiles(storePath))
        if (overwrites(output, companion))
            return companion;
    return {};
}

QString overwrittenOpenStoreFile(const QString& output) {
    for (const QString& store : Database::openPaths())
        if (QString file = overwrittenStoreFile(output, store); !file.isEmpty())
            return file;
    return {};
}

} // namespace swb
