#include "cli/OutputFile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include "cli/Subcommand.h"

namespace swb::cli {

OutputFile::OutputFile(const QString& path, const QString& option)
    : m_path(path)
    , m_option(option) {
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
