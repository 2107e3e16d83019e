#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <QString>

#include "Result.h"

class QSaveFile;

namespace swb {

// A GGUF file (version 3) written in one pass, the way llama.cpp's quantizer lays one out: the metadata and
// every tensor record first, then the tensors' data in the order they were added, each padded to the
// alignment. Data streams through write(), so a file of any size takes no more memory than the caller's
// buffer. The file is written to a temporary beside `path` and put in place by finish(); a write that fails
// (a full disk) or is abandoned (destroyed before finish) removes the temporary and leaves whatever was
// at `path` as it was.
class GgufWriter {
public:
    explicit GgufWriter(QString path);
    ~GgufWriter();
    const QString& path() const { return m_path; }
    GgufWriter(const GgufWriter&) = delete;
    GgufWriter& operator=(const GgufWriter&) = delete;

    // Metadata, in the order set; setting a key again moves it last with its new value, as ggml's gguf_set_val
    // does (so a quantized file's keys come in llama-quantize's order). `encoded` is a value as
    // GgufFile::encodedValue gives it (its type field first).
    void setEncoded(const std::string& key, std::string_view encoded);
    void setUInt32(const std::string& key, std::uint32_t value);
    void setString(const std::string& key, std::string_view value);
    void setInt32(const std::string& key, std::int32_t value);
    void setFloat32(const std::string& key, float value);
    void setBool(const std::string& key, bool value);
    void setStringArray(const std::string& key, const std::vector<std::string>& values);
    void setInt32Array(const std::string& key, const std::vector<std::int32_t>& values);
    void setFloat32Array(const std::string& key, const std::vector<float>& values);
    // A tensor record (dims in ggml order, the row first); its size follows from the type and shape. An
    // error for a type GgufFile cannot size or a row that is not a whole number of blocks.
    Status addTensor(const std::string& name, const std::vector<std::int64_t>& dims, std::uint32_t ggmlType);
    std::uint64_t tensorBytes(std::size_t index) const { return m_tensors[index].bytes; }

    // Opens the temporary and writes the header, the metadata and the tensor records.
    Status begin();
    // Appends to the data of the tensors in order; a write may end one tensor and begin the next.
    Status write(const void* data, std::uint64_t bytes);
    // Checks that every tensor got all its bytes and puts the file in place.
    Status finish();

private:
    struct Tensor {
        std::string name;
        std::vector<std::int64_t> dims;
        std::uint32_t type = 0;
        std::uint64_t bytes = 0;
        std::uint64_t offset = 0;
    };
    Status writeRaw(const void* data, std::uint64_t bytes);
    Status pad();
    void skipEmptyTensors();
    Error failure() const;

    QString m_path;
    std::unique_ptr<QSaveFile> m_file;
    std::vector<std::pair<std::string, std::string>> m_metadata; // key, encoded value
    std::vector<Tensor> m_tensors;
    std::uint64_t m_alignment = 32;
    std::size_t m_current = 0; // the tensor being written
    std::uint64_t m_currentWritten = 0;
};

} // namespace swb
