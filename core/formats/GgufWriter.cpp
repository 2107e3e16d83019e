#include "formats/GgufWriter.h"

#include <algorithm>
#include <cstring>

#include <QSaveFile>

#include "formats/GgufFile.h"

namespace swb {

namespace {

constexpr std::uint32_t kMagic = 0x46554747; // "GGUF"

template <typename T> void append(std::string& out, T value) {
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

void appendString(std::string& out, std::string_view s) {
    append<std::uint64_t>(out, s.size());
    out.append(s);
}

// An unsigned integer value from its encoding (type field first); 0 for any other type.
std::uint64_t encodedInteger(std::string_view encoded) {
    using T = GgufFile::ValueType;
    if (encoded.size() < 4)
        return 0;
    std::uint32_t type = 0;
    std::memcpy(&type, encoded.data(), 4);
    const std::size_t width = type == static_cast<std::uint32_t>(T::UInt8)    ? 1
                              : type == static_cast<std::uint32_t>(T::UInt16) ? 2
                              : type == static_cast<std::uint32_t>(T::UInt32) ? 4
                              : type == static_cast<std::uint32_t>(T::UInt64) ? 8
                                                                              : 0;
    if (width == 0 || encoded.size() < 4 + width)
        return 0;
    std::uint64_t value = 0;
    std::memcpy(&value, encoded.data() + 4, width);
    return value;
}

} // namespace

GgufWriter::GgufWriter(QString path)
    : m_path(std::move(path)) {}

GgufWriter::~GgufWriter() = default; // an unfinished QSaveFile removes its temporary

void GgufWriter::setEncoded(const std::string& key, std::string_view encoded) {
    if (key == "general.alignment") {
        const std::uint64_t alignment = encodedInteger(encoded);
        if (alignment > 0 && (alignment & (alignment - 1)) == 0)
            m_alignment = alignment;
    }
    // As gguf_set_val: a key set again leaves its place and goes last.
    std::erase_if(m_metadata, [&](const auto& kv) { return kv.first == key; });
    m_metadata.emplace_back(key, std::string(encoded));
}

void GgufWriter::setUInt32(const std::string& key, std::uint32_t value) {
    std::string encoded;
    append(encoded, static_cast<std::uint32_t>(GgufFile::ValueType::UInt32));
    append(encoded, value);
    setEncoded(key, encoded);
}

void GgufWriter::setString(const std::string& key, std::string_view value) {
    std::string encoded;
    append(encoded, static_cast<std::uint32_t>(GgufFile::ValueType::String));
    appendString(encoded, value);
    setEncoded(key, encoded);
}

void GgufWriter::setInt32(const std::string& key, std::int32_t value) {
    std::string encoded;
    append(encoded, static_cast<std::uint32_t>(GgufFile::ValueType::Int32));
    append(encoded, value);
    setEncoded(key, encoded);
}

void GgufWriter::setFloat32(const std::string& key, float value) {
    std::string encoded;
    append(encoded, static_cast<std::uint32_t>(GgufFile::ValueType::Float32));
    append(encoded, value);
    setEncoded(key, encoded);
}

void GgufWriter::setBool(const std::string& key, bool value) {
    std::string encoded;
    append(encoded, static_cast<std::uint32_t>(GgufFile::ValueType::Bool));
    append<std::uint8_t>(encoded, value ? 1 : 0);
    setEncoded(key, encoded);
}

namespace {

// An array value: the array type, the element type, the count, then each element as `each` appends it.
template <typename T, typename Append>
std::string encodedArray(GgufFile::ValueType elementType, const std::vector<T>& values, Append each) {
    std::string encoded;
    append(encoded, static_cast<std::uint32_t>(GgufFile::ValueType::Array));
    append(encoded, static_cast<std::uint32_t>(elementType));
    append<std::uint64_t>(encoded, values.size());
    for (const T& v : values)
        each(encoded, v);
    return encoded;
}

} // namespace

void GgufWriter::setStringArray(const std::string& key, const std::vector<std::string>& values) {
    setEncoded(key, encodedArray(GgufFile::ValueType::String, values,
                                 [](std::string& out, const std::string& v) { appendString(out, v); }));
}

void GgufWriter::setInt32Array(const std::string& key, const std::vector<std::int32_t>& values) {
    setEncoded(key, encodedArray(GgufFile::ValueType::Int32, values,
                                 [](std::string& out, std::int32_t v) { append(out, v); }));
}

void GgufWriter::setFloat32Array(const std::string& key, const std::vector<float>& values) {
    setEncoded(key,
               encodedArray(GgufFile::ValueType::Float32, values, [](std::string& out, float v) { append(out, v); }));
}

Status GgufWriter::addTensor(const std::string& name, const std::vector<std::int64_t>& dims, std::uint32_t ggmlType) {
    Result<std::uint64_t> bytes = GgufFile::tensorBytes(ggmlType, dims);
    if (!bytes)
        return Error::badInput(
            QStringLiteral("tensor %1: %2").arg(QString::fromStdString(name), bytes.error().message));
    std::uint64_t offset = 0;
    if (!m_tensors.empty()) {
        const Tensor& last = m_tensors.back();
        offset = (last.offset + last.bytes + m_alignment - 1) / m_alignment * m_alignment;
    }
    m_tensors.push_back({name, dims, ggmlType, *bytes, offset});
    return {};
}

Error GgufWriter::failure() const {
    return Error::badInput(QStringLiteral("cannot write %1: %2").arg(m_path, m_file->errorString()));
}

Status GgufWriter::writeRaw(const void* data, std::uint64_t bytes) {
    if (m_file->write(static_cast<const char*>(data), static_cast<qint64>(bytes)) != static_cast<qint64>(bytes))
        return failure();
    return {};
}

Status GgufWriter::pad() {
    static const char zeros[256] = {};
    const std::uint64_t at = static_cast<std::uint64_t>(m_file->pos());
    const std::uint64_t padding = (m_alignment - at % m_alignment) % m_alignment;
    for (std::uint64_t left = padding; left > 0;) {
        const std::uint64_t n = std::min<std::uint64_t>(left, sizeof zeros);
        if (Status s = writeRaw(zeros, n); !s)
            return s;
        left -= n;
    }
    return {};
}

Status GgufWriter::begin() {
    m_file = std::make_unique<QSaveFile>(m_path);
    if (!m_file->open(QIODevice::WriteOnly))
        return failure();
    std::string header;
    append(header, kMagic);
    append<std::uint32_t>(header, 3);
    append<std::uint64_t>(header, m_tensors.size());
    append<std::uint64_t>(header, m_metadata.size());
    for (const auto& [key, encoded] : m_metadata) {
        appendString(header, key);
        header.append(encoded);
    }
    for (const Tensor& t : m_tensors) {
        appendString(header, t.name);
        append<std::uint32_t>(header, static_cast<std::uint32_t>(t.dims.size()));
        for (std::int64_t d : t.dims)
            append<std::uint64_t>(header, static_cast<std::uint64_t>(d));
        append(header, t.type);
        append(header, t.offset);
    }
    if (Status s = writeRaw(header.data(), header.size()); !s)
        return s;
    return pad();
}

void GgufWriter::skipEmptyTensors() {
    while (m_current < m_tensors.size() && m_tensors[m_current].bytes == 0)
        ++m_current;
}

Status GgufWriter::write(const void* data, std::uint64_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (bytes > 0) {
        skipEmptyTensors();
        if (m_current >= m_tensors.size())
            return Error::internal(QStringLiteral("%1: more data than the tensors hold").arg(m_path));
        const Tensor& t = m_tensors[m_current];
        const std::uint64_t n = std::min(bytes, t.bytes - m_currentWritten);
        if (Status s = writeRaw(p, n); !s)
            return s;
        p += n;
        bytes -= n;
        m_currentWritten += n;
        if (m_currentWritten == t.bytes) {
            ++m_current;
            m_currentWritten = 0;
            if (Status s = pad(); !s)
                return s;
        }
    }
    return {};
}

Status GgufWriter::finish() {
    if (!m_file)
        return Error::internal(QStringLiteral("%1: finished before it began").arg(m_path));
    skipEmptyTensors();
    if (m_current != m_tensors.size())
        return Error::internal(QStringLiteral("%1: tensor %2 got only part of its data")
                                   .arg(m_path, QString::fromStdString(m_tensors[m_current].name)));
    if (!m_file->commit())
        return failure();
    return {};
}

} // namespace swb
