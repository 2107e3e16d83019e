#pragma once

#include <cstddef>
#include <memory>

#include <QFile>
#include <QString>

#include "Result.h"

namespace swb {

// A whole file mapped read-only into memory. Checkpoint readers hand out pointers into it instead of
// copying weights; whoever keeps such a pointer keeps a shared_ptr to the MappedFile alive with it.
class MappedFile {
public:
    static Result<std::shared_ptr<const MappedFile>> open(const QString& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const std::byte* data() const { return m_data; }
    std::size_t size() const { return m_size; }
    const QString& path() const { return m_path; }
    // The file name without its folder, for error messages.
    QString fileName() const;

private:
    MappedFile() = default;
    QString m_path;
    QFile m_file; // the mapping lives as long as the QFile stays open
    const std::byte* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace swb
