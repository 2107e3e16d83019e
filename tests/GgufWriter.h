#pragma once

// A small GGUF writer for tests (GGUF v3 by default, little-endian; layout of ggml's docs/gguf.md):
// metadata of the common types and tensors (F32, or raw bytes of any ggml type). Lets tests build model
// and vocabulary files, and broken ones, without shipping binaries.
//
//     swb::test::GgufWriter w;
//     w.addString("general.architecture", "llama");
//     w.addUint32("llama.block_count", 2);
//     w.addTensorF32("token_embd.weight", {dim, vocab}, values);
//     QVERIFY(w.write(dir.filePath("model.gguf")));

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <QByteArray>
#include <QFile>
#include <QString>

namespace swb::test {

class GgufWriter {
public:
    enum Type : std::uint32_t {
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

    void setVersion(std::uint32_t version) { m_version = version; }
    // Also writes general.alignment (uint32), as converters do when they change it.
    void setAlignment(std::uint32_t alignment) {
        m_alignment = alignment;
        addUint32("general.alignment", alignment);
    }

    void addUint32(const std::string& key, std::uint32_t v) { scalar(key, UInt32, v); }
    void addInt32(const std::string& key, std::int32_t v) { scalar(key, Int32, v); }
    void addUint64(const std::string& key, std::uint64_t v) { scalar(key, UInt64, v); }
    void addFloat32(const std::string& key, float v) { scalar(key, Float32, v); }
    void addBool(const std::string& key, bool v) { scalar(key, Bool, static_cast<std::uint8_t>(v ? 1 : 0)); }
    void addString(const std::string& key, const std::string& v) {
        header(key, String);
        putString(m_meta, v);
    }
    void addStringArray(const std::string& key, const std::vector<std::string>& values) {
        header(key, Array);
        put(m_meta, static_cast<std::uint32_t>(String));
        put(m_meta, static_cast<std::uint64_t>(values.size()));
        for (const std::string& v : values)
            putString(m_meta, v);
    }
    void addInt32Array(const std::string& key, const std::vector<std::int32_t>& values) { array(key, Int32, values); }
    void addFloat32Array(const std::string& key, const std::vector<float>& values) { array(key, Float32, values); }

    // dims in ggml order (dims[0] is the row length).
    void addTensorF32(const std::string& name, const std::vector<std::int64_t>& dims,
                      const std::vector<float>& values) {
        QByteArray data(reinterpret_cast<const char*>(values.data()),
                        static_cast<qsizetype>(values.size() * sizeof(float)));
        addTensorRaw(name, 0, dims, data);
    }
    // Any ggml type; data is the tensor's bytes as ggml stores them.
    void addTensorRaw(const std::string& name, std::uint32_t ggmlType, const std::vector<std::int64_t>& dims,
                      const QByteArray& data) {
        m_tensors.push_back({name, ggmlType, dims, data, std::nullopt});
    }
    // The offset a tensor's record claims, instead of where its data lies (for broken files).
    void setTensorOffset(const std::string& name, std::uint64_t offset) {
        for (TensorRecord& t : m_tensors)
            if (t.name == name)
                t.claimedOffset = offset;
    }

    QByteArray bytes() const {
        QByteArray out;
        put(out, static_cast<std::uint32_t>(0x46554747)); // "GGUF"
        put(out, m_version);
        put(out, static_cast<std::uint64_t>(m_tensors.size()));
        put(out, static_cast<std::uint64_t>(m_count));
        out += m_meta;
        std::uint64_t offset = 0;
        for (const TensorRecord& t : m_tensors) {
            putString(out, t.name);
            put(out, static_cast<std::uint32_t>(t.dims.size()));
            for (const std::int64_t d : t.dims)
                put(out, static_cast<std::uint64_t>(d));
            put(out, t.type);
            put(out, t.claimedOffset.value_or(offset));
            offset = align(offset + static_cast<std::uint64_t>(t.data.size()));
        }
        if (!m_tensors.empty()) {
            out.append(QByteArray(static_cast<qsizetype>(align(out.size()) - out.size()), '\0'));
            for (const TensorRecord& t : m_tensors) {
                out += t.data;
                out.append(QByteArray(static_cast<qsizetype>(align(t.data.size()) - t.data.size()), '\0'));
            }
        }
        return out;
    }

    bool write(const QString& path) const {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        const QByteArray data = bytes();
        return file.write(data) == data.size();
    }

private:
    struct TensorRecord {
        std::string name;
        std::uint32_t type;
        std::vector<std::int64_t> dims;
        QByteArray data;
        std::optional<std::uint64_t> claimedOffset;
    };

    template <typename T> static void put(QByteArray& out, T value) {
        char buffer[sizeof(T)];
        std::memcpy(buffer, &value, sizeof(T));
        out.append(buffer, sizeof(T));
    }
    static void putString(QByteArray& out, const std::string& s) {
        put(out, static_cast<std::uint64_t>(s.size()));
        out.append(s.data(), static_cast<qsizetype>(s.size()));
    }
    void header(const std::string& key, Type type) {
        putString(m_meta, key);
        put(m_meta, static_cast<std::uint32_t>(type));
        ++m_count;
    }
    template <typename T> void scalar(const std::string& key, Type type, T value) {
        header(key, type);
        put(m_meta, value);
    }
    template <typename T> void array(const std::string& key, Type type, const std::vector<T>& values) {
        header(key, Array);
        put(m_meta, static_cast<std::uint32_t>(type));
        put(m_meta, static_cast<std::uint64_t>(values.size()));
        for (const T& v : values)
            put(m_meta, v);
    }
    std::uint64_t align(std::uint64_t n) const { return (n + m_alignment - 1) / m_alignment * m_alignment; }

    std::uint32_t m_version = 3;
    std::uint32_t m_alignment = 32;
    QByteArray m_meta;
    std::uint64_t m_count = 0;
    std::vector<TensorRecord> m_tensors;
};

} // namespace swb::test
