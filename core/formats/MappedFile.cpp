#include "formats/MappedFile.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#include <QFileInfo>

namespace swb {

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const QString& path) {
    std::shared_ptr<MappedFile> file(new MappedFile);
    file->m_path = path;
    file->m_file.setFileName(path);
    const QFileInfo info(path);
    if (!info.exists())
        return Error::badInput(QStringLiteral("%1 does not exist").arg(path));
    if (info.isDir())
        return Error::badInput(QStringLiteral("%1 is a folder, not a file").arg(path));
    if (!file->m_file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot open %1: %2").arg(path, file->m_file.errorString()));
    file->m_size = static_cast<std::size_t>(file->m_file.size());
    // An empty file cannot be mapped; readers see size 0 and report it as truncated.
    if (file->m_size > 0) {
        uchar* mapped = file->m_file.map(0, file->m_file.size());
        if (!mapped)
            return Error::badInput(
                QStringLiteral("cannot map %1 into memory: %2").arg(path, file->m_file.errorString()));
        file->m_data = reinterpret_cast<const std::byte*>(mapped);
    }
    return std::shared_ptr<const MappedFile>(std::move(file));
}

MappedFile::~MappedFile() {
    if (m_data)
        m_file.unmap(reinterpret_cast<uchar*>(const_cast<std::byte*>(m_data)));
}

QString MappedFile::fileName() const {
    return QFileInfo(m_path).fileName();
}

void MappedFile::release(const void* begin, std::size_t bytes) const {
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto from = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page;
    const auto to = (reinterpret_cast<std::uintptr_t>(begin) + bytes) / page * page;
    if (to > from)
        madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED); // advice: a failure changes nothing
}

} // namespace swb
