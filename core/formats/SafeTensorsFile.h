#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <QString>

#include "Result.h"

namespace swb {

class MappedFile;

// A .safetensors file (Hugging Face): an 8-byte little-endian header length, a JSON header naming
// each tensor's dtype, shape and byte range, then the raw data. The file is memory-mapped and the
// tensors point into the mapping; nothing is copied. Every range is checked against the file on open.
class SafeTensorsFile {
public:
    struct Tensor {
        std::string name;
        QString dtype; // as written: "F32", "F16", "BF16", "I64", ...
        std::vector<std::int64_t> shape;
        const std::byte* data = nullptr;
        std::size_t bytes = 0;
    };

    static Result<SafeTensorsFile> open(const QString& path);

    // Bytes per element of a safetensors dtype, or 0 for one this reader does not know.
    static int elementSize(const QString& dtype);

    const QString& path() const { return m_path; }
    std::size_t fileSize() const;
    const std::vector<Tensor>& tensors() const { return m_tensors; }
    const Tensor* tensor(const std::string& name) const;
    // The optional "__metadata__" string map.
    const std::map<QString, QString>& metadata() const { return m_metadata; }
    // Keeps the mapping alive for as long as a tensor's data is in use.
    const std::shared_ptr<const MappedFile>& mapping() const { return m_file; }

private:
    QString m_path;
    std::shared_ptr<const MappedFile> m_file;
    std::vector<Tensor> m_tensors;
    std::map<std::string, std::size_t> m_index;
    std::map<QString, QString> m_metadata;
};

} // namespace swb
