#include "cli/OutputFile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include "cli/Subcommand.h"

namespace swb::cli {

namespace {

// The same file, through any path: links and relative paths resolved where the files exist.
bool sameFile(const QString& a, const QString& b) {
    const QFileInfo x(a), y(b);
    const QString cx = x.exists() ? x.canonicalFilePath() : x.absoluteFilePath();
    const QString cy = y.exists() ? y.canonicalFilePath() : y.absoluteFilePath();
    return !cx.isEmpty() && cx == cy;
}

} // namespace

OutputFile::OutputFile(const QString& path, const QString& option, const QStringList& inputs)
    : m_path(path)
    , m_option(option) {
    for (const QString& input : inputs)
        if (!input.isEmpty() && sameFile(path, input))
            failBadInput(
                QStringLiteral("--%1 %2 is one of this command's inputs; choose another file").arg(option, path));
    const QFileInfo info(path);
    if (info.exists() && !info.isFile() && !info.isDir()) {
        // A device, FIFO or socket: write through it.
        auto file = std::make_unique<QFile>(path);
        if (!file->open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            failBadInput(QStringLiteral("cannot write --%1 %2: %3").arg(option, path, file->errorString()));
        m_device = std::move(file);
        return;
    }
    auto file = std::make_unique<QSaveFile>(path);
    if (!file->open(QIODevice::WriteOnly))
        failBadInput(QStringLiteral("cannot write --%1 %2: %3").arg(option, path, file->errorString()));
    m_device = std::move(file);
    m_atomic = true;
}

OutputFile::~OutputFile() = default;

QIODevice& OutputFile::device() {
    return *m_device;
}

void OutputFile::commit() {
    bool ok;
    if (m_atomic) {
        ok = static_cast<QSaveFile&>(*m_device).commit();
    } else {
        auto& file = static_cast<QFile&>(*m_device);
        ok = file.flush() && file.error() == QFileDevice::NoError;
    }
    if (!ok)
        failBadInput(QStringLiteral("cannot write --%1 %2: %3").arg(m_option, m_path, m_device->errorString()));
}

} // namespace swb::cli
