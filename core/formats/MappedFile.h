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
    // Lets the system take back the memory of the whole pages in [begin, begin + bytes): a reader done with a
    // part of a file larger than memory (a quantizer's input) keeps its footprint to what it still reads. The
    // contents stay readable (read from the file again when touched).
    void release(const void* begin, std::size_t bytes) const;

private:
    MappedFile() = default;
    QString m_path;
    QFile m_file; // the mapping lives as long as the QFile stays open
    const std::byte* m_data = nullptr;
    std::size_t m_size = 0;
};

} // namespace swb
