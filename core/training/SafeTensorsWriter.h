#pragma once

#include <cstdint>
#include <vector>

#include <QByteArray>
#include <QString>

#include "Result.h"

namespace swb {

// Writes a .safetensors file (Hugging Face's format: an 8-byte little-endian header length, a JSON
// header naming each tensor's dtype, shape and byte range, then the raw little-endian data). Tensors
// are written in the order added; the header is padded with spaces to 8 bytes, as the reference
// implementation does, so that every tensor starts aligned.
class SafeTensorsWriter {
public:
    // dtype: "F32", "F16" or "BF16"; data: the values in row-major order.
    void add(const QString& name, const QString& dtype, std::vector<std::int64_t> shape, QByteArray data);
    Status write(const QString& file) const;

private:
    struct Entry {
        QString name;
        QString dtype;
        std::vector<std::int64_t> shape;
        QByteArray data;
    };
    std::vector<Entry> m_entries;
};

} // namespace swb
