#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <QString>
#include <QStringList>

#include "Result.h"

namespace swb {

class MappedFile;

// A GGUF file (versions 2 and 3; ggml's docs/gguf.md), memory-mapped and validated on open: every
// metadata value and tensor record is bounds-checked, tensor data ranges included. Metadata values are
// decoded on demand from the mapping; tensors point into it. Copies share the mapping, which lives as
// long as the last copy (or a shared_ptr taken from mapping()).
//
// Keys are UTF-8 (std::string_view so that literals need no conversion); integers of any width and
// booleans read as integer(), float32/float64 as real().
class GgufFile {
public:
    // GGUF metadata value types, numbered as in the file.
    enum class ValueType : std::uint32_t {
        UInt8 = 0,
        Int8 = 1,
        UInt16 = 2,
        Int16 = 3,
        UInt32 = 4,
        Int32 = 5,
        Float32 = 6,
        Bool = 7,
        String = 8,
        Array = 9,
        UInt64 = 10,
        Int64 = 11,
        Float64 = 12,
    };

    // Block layout of a ggml tensor type: blockSize elements take typeSize bytes.
    struct TypeInfo {
        const char* name;
        std::uint32_t blockSize;
        std::uint32_t typeSize;
    };

    struct Tensor {
        std::string name;
        std::uint32_t type = 0;         // ggml type (0 F32, 1 F16, 2 Q4_0, 8 Q8_0, 12 Q4_K, 14 Q6_K, 30 BF16, ...)
        std::vector<std::int64_t> dims; // ggml order: dims[0] is the innermost (row) dimension
        std::uint64_t offset = 0;       // from the start of the data section
        // Into the mapping; nullptr (and bytes 0) when the type is unknown to us: tensorBytes() says why.
        const unsigned char* data = nullptr;
        std::uint64_t bytes = 0;

        std::int64_t elements() const;
    };

    static Result<GgufFile> open(const QString& path);

    const QString& path() const { return m_path; }
    std::uint32_t version() const { return m_version; }
    std::uint64_t alignment() const { return m_alignment; }
    // Byte offset of the tensor data section in the file.
    std::uint64_t dataOffset() const { return m_dataOffset; }
    std::uint64_t fileSize() const;
    const std::shared_ptr<const MappedFile>& mapping() const { return m_file; }

    bool has(std::string_view key) const;
    // Keys in file order.
    QStringList keys() const;
    std::optional<ValueType> type(std::string_view key) const;
    // Element type and length of an array value.
    std::optional<ValueType> arrayType(std::string_view key) const;
    std::optional<std::uint64_t> arraySize(std::string_view key) const;

    // Any integer type or bool; nullopt for other types or a uint64 beyond int64's range.
    std::optional<std::int64_t> integer(std::string_view key) const;
    // float32 or float64.
    std::optional<double> real(std::string_view key) const;
    // The string's bytes as stored (UTF-8 by the spec, not checked).
    std::optional<std::string> string(std::string_view key) const;
    std::optional<bool> boolean(std::string_view key) const;
    std::optional<std::vector<std::string>> stringArray(std::string_view key) const;
    // An array of any integer type (or bool).
    std::optional<std::vector<std::int64_t>> intArray(std::string_view key) const;
    // An array of float32 or float64 (or of integers, converted: llama.cpp accepts int32 scores).
    std::optional<std::vector<float>> floatArray(std::string_view key) const;
    // The entry's value as the file encodes it, its type field first (for arrays: type, element type, count,
    // elements): what a writer copies to carry the value into another file unchanged. Empty when absent.
    std::string_view encodedValue(std::string_view key) const;

    const std::vector<Tensor>& tensors() const { return m_tensors; }
    const Tensor* tensor(std::string_view name) const;

    // nullopt for a ggml type this reader does not know.
    static std::optional<TypeInfo> typeInfo(std::uint32_t ggmlType);
    // Size in bytes of a tensor of that type and shape; an error for an unknown type or a row length that
    // is not a multiple of the type's block size.
    static Result<std::uint64_t> tensorBytes(std::uint32_t ggmlType, const std::vector<std::int64_t>& dims);

private:
    struct Entry {
        std::string key;
        ValueType type = ValueType::UInt8;
        ValueType elementType = ValueType::UInt8; // arrays only
        std::uint64_t count = 0;                  // arrays only
        std::uint64_t offset = 0;                 // of the value (for arrays: of the first element)
        std::uint64_t typeOffset = 0;             // of the type field before it
        std::uint64_t end = 0;                    // just past the value
    };
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };

    const Entry* find(std::string_view key) const;
    const unsigned char* bytes() const;

    QString m_path;
    std::shared_ptr<const MappedFile> m_file;
    std::uint32_t m_version = 0;
    std::uint64_t m_alignment = 32;
    std::uint64_t m_dataOffset = 0;
    std::vector<Entry> m_entries;
    std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> m_index;
    std::vector<Tensor> m_tensors;
    std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>> m_tensorIndex;
};

} // namespace swb
