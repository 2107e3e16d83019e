#include "formats/GgufFile.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "formats/MappedFile.h"

namespace swb {

namespace {

// GGUF versions 2 and 3 are read; a byte-swapped version means a big-endian file, which this little-endian
// reader cannot use.
Status checkVersion(std::uint32_t version, const QString& name) {
    if (version == 2 || version == 3)
        return {};
    if (version == 0x02000000 || version == 0x03000000)
        return Error::badInput(QStringLiteral("%1 is a big-endian GGUF file, which is not supported").arg(name));
    return Error::badInput(
        QStringLiteral("%1 has unsupported GGUF version %2 (2 and 3 are supported)").arg(name).arg(version));
}

// No two tensors may share bytes (llama.cpp lays them end to end and refuses any other offset): one
// written through the other would change both.
Status checkNoOverlap(const std::vector<GgufFile::Tensor>& tensors, const QString& name) {
    std::vector<const GgufFile::Tensor*> byOffset;
    for (const GgufFile::Tensor& t : tensors)
        if (t.data && t.bytes > 0)
            byOffset.push_back(&t);
    std::sort(byOffset.begin(), byOffset.end(),
              [](const GgufFile::Tensor* a, const GgufFile::Tensor* b) { return a->offset < b->offset; });
    for (std::size_t i = 1; i < byOffset.size(); ++i) {
        const GgufFile::Tensor& before = *byOffset[i - 1];
        const GgufFile::Tensor& after = *byOffset[i];
        if (after.offset < before.offset + before.bytes)
            return Error::badInput(
                QStringLiteral("%1: tensors '%2' and '%3' overlap (bytes %4 to %5 and %6 to %7 of the "
                               "data section)")
                    .arg(name, QString::fromStdString(before.name), QString::fromStdString(after.name),
                         QString::number(before.offset), QString::number(before.offset + before.bytes),
                         QString::number(after.offset), QString::number(after.offset + after.bytes)));
    }
    return {};
}

constexpr std::uint32_t kMagic = 0x46554747; // "GGUF" read as a little-endian uint32
constexpr int kMaxArrayDepth = 8;            // nested arrays are legal; bound the recursion
constexpr std::uint32_t kMaxDims = 8;        // ggml uses 4; anything far beyond is corruption

// Size of a fixed-width value type, 0 for string and array.
std::uint64_t scalarSize(GgufFile::ValueType type) {
    using T = GgufFile::ValueType;
    switch (type) {
    case T::UInt8:
    case T::Int8:
    case T::Bool:
        return 1;
    case T::UInt16:
    case T::Int16:
        return 2;
    case T::UInt32:
    case T::Int32:
    case T::Float32:
        return 4;
    case T::UInt64:
    case T::Int64:
    case T::Float64:
        return 8;
    case T::String:
    case T::Array:
        return 0;
    }
    return 0;
}

bool isKnownType(std::uint32_t type) {
    return type <= static_cast<std::uint32_t>(GgufFile::ValueType::Float64);
}

bool isIntegerType(GgufFile::ValueType type) {
    using T = GgufFile::ValueType;
    return type == T::UInt8 || type == T::Int8 || type == T::UInt16 || type == T::Int16 || type == T::UInt32 ||
           type == T::Int32 || type == T::UInt64 || type == T::Int64 || type == T::Bool;
}

template <typename T> T load(const unsigned char* p) {
    T value;
    std::memcpy(&value, p, sizeof(T)); // unaligned-safe; GGUF is little-endian like every host we build for
    return value;
}

// Reads an integer-typed value at p; false if it does not fit int64.
bool loadInteger(GgufFile::ValueType type, const unsigned char* p, std::int64_t& out) {
    using T = GgufFile::ValueType;
    switch (type) {
    case T::UInt8:
        out = load<std::uint8_t>(p);
        return true;
    case T::Int8:
        out = load<std::int8_t>(p);
        return true;
    case T::Bool:
        out = load<std::uint8_t>(p) != 0;
        return true;
    case T::UInt16:
        out = load<std::uint16_t>(p);
        return true;
    case T::Int16:
        out = load<std::int16_t>(p);
        return true;
    case T::UInt32:
        out = load<std::uint32_t>(p);
        return true;
    case T::Int32:
        out = load<std::int32_t>(p);
        return true;
    case T::Int64:
        out = load<std::int64_t>(p);
        return true;
    case T::UInt64: {
        const auto v = load<std::uint64_t>(p);
        if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return false;
        out = static_cast<std::int64_t>(v);
        return true;
    }
    default:
        return false;
    }
}

// A bounds-checked cursor over the mapping. Every read either succeeds or records one error sentence.
class Cursor {
public:
    Cursor(const unsigned char* data, std::uint64_t size, QString fileName)
        : m_data(data)
        , m_size(size)
        , m_fileName(std::move(fileName)) {}

    std::uint64_t pos() const { return m_pos; }
    bool failed() const { return !m_error.isEmpty(); }
    const QString& error() const { return m_error; }
    const unsigned char* data() const { return m_data; }

    void fail(const QString& what) {
        if (m_error.isEmpty())
            m_error = QStringLiteral("%1: %2").arg(m_fileName, what);
    }

    bool need(std::uint64_t bytes, const char* what) {
        if (failed())
            return false;
        if (bytes > m_size - m_pos) {
            fail(QStringLiteral("the file is truncated (it ends inside %1 at byte %2)")
                     .arg(QLatin1String(what))
                     .arg(m_pos));
            return false;
        }
        return true;
    }

    template <typename T> T read(const char* what) {
        if (!need(sizeof(T), what))
            return T{};
        const T value = load<T>(m_data + m_pos);
        m_pos += sizeof(T);
        return value;
    }

    bool skip(std::uint64_t bytes, const char* what) {
        if (!need(bytes, what))
            return false;
        m_pos += bytes;
        return true;
    }

    // A GGUF string: uint64 length, then that many bytes.
    std::string_view readString(const char* what) {
        const auto length = read<std::uint64_t>(what);
        if (failed())
            return {};
        if (length > m_size - m_pos) {
            fail(QStringLiteral("bad string length %1 in %2 at byte %3 (past the end of the file)")
                     .arg(length)
                     .arg(QLatin1String(what))
                     .arg(m_pos - 8));
            return {};
        }
        const std::string_view s(reinterpret_cast<const char*>(m_data + m_pos), static_cast<std::size_t>(length));
        m_pos += length;
        return s;
    }

    // Skips one value of the given type (validating strings and nested arrays).
    void skipValue(GgufFile::ValueType type, int depth) {
        using T = GgufFile::ValueType;
        if (type == T::String) {
            readString("a metadata string");
        } else if (type == T::Array) {
            if (depth >= kMaxArrayDepth) {
                fail(QStringLiteral("metadata arrays are nested deeper than %1 levels").arg(kMaxArrayDepth));
                return;
            }
            const auto elementType = read<std::uint32_t>("an array header");
            const auto count = read<std::uint64_t>("an array header");
            if (failed())
                return;
            if (!isKnownType(elementType)) {
                fail(QStringLiteral("unknown metadata array element type %1 at byte %2").arg(elementType).arg(m_pos));
                return;
            }
            skipArray(static_cast<T>(elementType), count, depth + 1);
        } else {
            skip(scalarSize(type), "a metadata value");
        }
    }

    void skipArray(GgufFile::ValueType elementType, std::uint64_t count, int depth) {
        const std::uint64_t width = scalarSize(elementType);
        if (width > 0) {
            if (count > (m_size - m_pos) / width) {
                fail(QStringLiteral("the file is truncated (an array of %1 values at byte %2 runs past its end)")
                         .arg(count)
                         .arg(m_pos));
                return;
            }
            m_pos += count * width;
            return;
        }
        for (std::uint64_t i = 0; i < count && !failed(); ++i)
            skipValue(elementType, depth);
    }

private:
    const unsigned char* m_data;
    std::uint64_t m_size;
    std::uint64_t m_pos = 0;
    QString m_fileName;
    QString m_error;
};

// ggml's block layouts (gguf-py GGML_QUANT_SIZES), indexed by ggml type number.
struct TypeRow {
    std::uint32_t id;
    GgufFile::TypeInfo info;
};
constexpr TypeRow kTypes[] = {
    {0, {"f32", 1, 4}},         {1, {"f16", 1, 2}},         {2, {"q4_0", 32, 18}},      {3, {"q4_1", 32, 20}},
    {6, {"q5_0", 32, 22}},      {7, {"q5_1", 32, 24}},      {8, {"q8_0", 32, 34}},      {9, {"q8_1", 32, 36}},
    {10, {"q2_k", 256, 84}},    {11, {"q3_k", 256, 110}},   {12, {"q4_k", 256, 144}},   {13, {"q5_k", 256, 176}},
    {14, {"q6_k", 256, 210}},   {15, {"q8_k", 256, 292}},   {16, {"iq2_xxs", 256, 66}}, {17, {"iq2_xs", 256, 74}},
    {18, {"iq3_xxs", 256, 98}}, {19, {"iq1_s", 256, 50}},   {20, {"iq4_nl", 32, 18}},   {21, {"iq3_s", 256, 110}},
    {22, {"iq2_s", 256, 82}},   {23, {"iq4_xs", 256, 136}}, {24, {"i8", 1, 1}},         {25, {"i16", 1, 2}},
    {26, {"i32", 1, 4}},        {27, {"i64", 1, 8}},        {28, {"f64", 1, 8}},        {29, {"iq1_m", 256, 56}},
    {30, {"bf16", 1, 2}},       {34, {"tq1_0", 256, 54}},   {35, {"tq2_0", 256, 66}},
};

} // namespace

std::int64_t GgufFile::Tensor::elements() const {
    std::int64_t n = 1;
    for (const std::int64_t d : dims)
        n *= d;
    return n;
}

std::optional<GgufFile::TypeInfo> GgufFile::typeInfo(std::uint32_t ggmlType) {
    for (const TypeRow& row : kTypes)
        if (row.id == ggmlType)
            return row.info;
    return std::nullopt;
}

Result<std::uint64_t> GgufFile::tensorBytes(std::uint32_t ggmlType, const std::vector<std::int64_t>& dims) {
    const std::optional<TypeInfo> info = typeInfo(ggmlType);
    if (!info)
        return Error::badInput(QStringLiteral("unsupported tensor type %1").arg(ggmlType));
    if (dims.empty())
        return std::uint64_t{info->typeSize};
    if (dims[0] % info->blockSize != 0)
        return Error::badInput(QStringLiteral("a %1 tensor's row length %2 is not a multiple of its block size %3")
                                   .arg(QLatin1String(info->name))
                                   .arg(dims[0])
                                   .arg(info->blockSize));
    // Checked products: a corrupt shape must give an error, not an overflowed size.
    std::uint64_t bytes = static_cast<std::uint64_t>(dims[0] / info->blockSize) * info->typeSize;
    for (std::size_t i = 1; i < dims.size(); ++i) {
        const auto d = static_cast<std::uint64_t>(dims[i]);
        if (d != 0 && bytes > std::numeric_limits<std::uint64_t>::max() / d)
            return Error::badInput(QStringLiteral("a tensor's shape is too large"));
        bytes *= d;
    }
    return bytes;
}

Result<GgufFile> GgufFile::open(const QString& path) {
    Result<std::shared_ptr<const MappedFile>> mapped = MappedFile::open(path);
    if (!mapped)
        return mapped.error();
    GgufFile file;
    file.m_path = path;
    file.m_file = std::move(mapped).value();
    const QString& name = path; // errors name the file as the user gave it
    const std::uint64_t size = file.m_file->size();
    Cursor in(reinterpret_cast<const unsigned char*>(file.m_file->data()), size, name);

    if (size < 4)
        return Error::badInput(
            QStringLiteral("%1: the file is truncated (%2 bytes, too short for a GGUF header)").arg(name).arg(size));
    const auto magic = in.read<std::uint32_t>("the header");
    if (magic != kMagic)
        return Error::badInput(QStringLiteral("%1 is not a GGUF file (wrong magic bytes)").arg(name));
    file.m_version = in.read<std::uint32_t>("the header");
    if (in.failed())
        return Error::badInput(in.error());
    if (Status status = checkVersion(file.m_version, name); !status)
        return status.error();
    const auto tensorCount = in.read<std::uint64_t>("the header");
    const auto kvCount = in.read<std::uint64_t>("the header");
    if (in.failed())
        return Error::badInput(in.error());

    // Metadata: each entry is at least 8 (key length) + 4 (type) bytes; a count beyond that is corrupt.
    if (kvCount > (size - in.pos()) / 12)
        return Error::badInput(
            QStringLiteral("%1: the file is truncated (it declares %2 metadata entries)").arg(name).arg(kvCount));
    file.m_entries.reserve(static_cast<std::size_t>(kvCount));
    for (std::uint64_t i = 0; i < kvCount; ++i) {
        Entry entry;
        entry.key = std::string(in.readString("a metadata key"));
        entry.typeOffset = in.pos();
        const auto type = in.read<std::uint32_t>("a metadata entry");
        if (in.failed())
            return Error::badInput(in.error());
        if (!isKnownType(type))
            return Error::badInput(QStringLiteral("%1: metadata key '%2' has unknown value type %3")
                                       .arg(name, QString::fromStdString(entry.key))
                                       .arg(type));
        entry.type = static_cast<ValueType>(type);
        if (entry.type == ValueType::Array) {
            const auto elementType = in.read<std::uint32_t>("an array header");
            entry.count = in.read<std::uint64_t>("an array header");
            if (in.failed())
                return Error::badInput(in.error());
            if (!isKnownType(elementType))
                return Error::badInput(QStringLiteral("%1: metadata array '%2' has unknown element type %3")
                                           .arg(name, QString::fromStdString(entry.key))
                                           .arg(elementType));
            entry.elementType = static_cast<ValueType>(elementType);
            entry.offset = in.pos();
            in.skipArray(entry.elementType, entry.count, 1);
        } else {
            entry.offset = in.pos();
            in.skipValue(entry.type, 0);
        }
        if (in.failed())
            return Error::badInput(in.error());
        entry.end = in.pos();
        if (file.m_index.count(entry.key))
            return Error::badInput(
                QStringLiteral("%1: metadata key '%2' appears twice").arg(name, QString::fromStdString(entry.key)));
        file.m_index.emplace(entry.key, file.m_entries.size());
        file.m_entries.push_back(std::move(entry));
    }

    if (const Entry* alignment = file.find("general.alignment")) {
        std::int64_t value = 0;
        if (!isIntegerType(alignment->type) || alignment->type == ValueType::Bool ||
            !loadInteger(alignment->type, file.bytes() + alignment->offset, value) || value <= 0 ||
            (value & (value - 1)) != 0)
            return Error::badInput(QStringLiteral("%1: general.alignment must be a power of two").arg(name));
        file.m_alignment = static_cast<std::uint64_t>(value);
    }

    // Tensor records: name, n_dims, dims, type, offset (at least 8 + 4 + 4 + 8 bytes each).
    if (tensorCount > (size - in.pos()) / 24)
        return Error::badInput(
            QStringLiteral("%1: the file is truncated (it declares %2 tensors)").arg(name).arg(tensorCount));
    file.m_tensors.reserve(static_cast<std::size_t>(tensorCount));
    for (std::uint64_t i = 0; i < tensorCount; ++i) {
        Tensor t;
        t.name = std::string(in.readString("a tensor name"));
        const auto nDims = in.read<std::uint32_t>("a tensor record");
        if (in.failed())
            return Error::badInput(in.error());
        if (nDims > kMaxDims)
            return Error::badInput(QStringLiteral("%1: tensor '%2' claims %3 dimensions")
                                       .arg(name, QString::fromStdString(t.name), QString::number(nDims)));
        for (std::uint32_t d = 0; d < nDims; ++d) {
            const auto dim = in.read<std::uint64_t>("a tensor record");
            if (dim > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                return Error::badInput(QStringLiteral("%1: tensor '%2' has an impossible dimension")
                                           .arg(name, QString::fromStdString(t.name)));
            t.dims.push_back(static_cast<std::int64_t>(dim));
        }
        // Every tensor's element count must fit in 64 bits, even one of a type this reader cannot size (found
        // by fuzzing: elements() then overflowed).
        std::int64_t elements = 1;
        for (std::int64_t dim : t.dims)
            if (__builtin_mul_overflow(elements, dim, &elements))
                return Error::badInput(QStringLiteral("%1: tensor '%2' has more elements than can be counted")
                                           .arg(name, QString::fromStdString(t.name)));
        t.type = in.read<std::uint32_t>("a tensor record");
        t.offset = in.read<std::uint64_t>("a tensor record");
        if (in.failed())
            return Error::badInput(in.error());
        if (t.offset % file.m_alignment != 0)
            // One arg() for all: a name holding "%3" must not take the next argument's place.
            return Error::badInput(QStringLiteral("%1: tensor '%2' data offset %3 is not aligned to %4 bytes")
                                       .arg(name, QString::fromStdString(t.name), QString::number(t.offset),
                                            QString::number(file.m_alignment)));
        if (file.m_tensorIndex.count(t.name))
            return Error::badInput(
                QStringLiteral("%1: tensor '%2' appears twice").arg(name, QString::fromStdString(t.name)));
        file.m_tensorIndex.emplace(t.name, file.m_tensors.size());
        file.m_tensors.push_back(std::move(t));
    }

    // The data section starts at the next multiple of the alignment (it may be absent when there are no
    // tensors, as in vocabulary-only files).
    file.m_dataOffset = (in.pos() + file.m_alignment - 1) / file.m_alignment * file.m_alignment;
    for (Tensor& t : file.m_tensors) {
        if (!typeInfo(t.type))
            continue; // the data cannot be sized; tensorBytes() reports it when someone needs this tensor
        Result<std::uint64_t> bytes = tensorBytes(t.type, t.dims);
        if (!bytes)
            return Error::badInput(
                QStringLiteral("%1: tensor '%2': %3").arg(name, QString::fromStdString(t.name), bytes.error().message));
        const std::uint64_t available = size > file.m_dataOffset ? size - file.m_dataOffset : 0;
        if (t.offset > available || *bytes > available - t.offset)
            return Error::badInput(
                QStringLiteral("%1: the file is truncated (tensor '%2' needs bytes %3 to %4 of the data section, "
                               "which has %5)")
                    .arg(name, QString::fromStdString(t.name), QString::number(t.offset),
                         QString::number(t.offset + *bytes), QString::number(available)));
        t.bytes = *bytes;
        t.data = file.bytes() + file.m_dataOffset + t.offset;
    }
    if (Status status = checkNoOverlap(file.m_tensors, name); !status)
        return status.error();
    return file;
}

std::uint64_t GgufFile::fileSize() const {
    return m_file ? m_file->size() : 0;
}

const unsigned char* GgufFile::bytes() const {
    return reinterpret_cast<const unsigned char*>(m_file->data());
}

const GgufFile::Entry* GgufFile::find(std::string_view key) const {
    const auto it = m_index.find(key);
    return it == m_index.end() ? nullptr : &m_entries[it->second];
}

bool GgufFile::has(std::string_view key) const {
    return find(key) != nullptr;
}

QStringList GgufFile::keys() const {
    QStringList out;
    out.reserve(static_cast<qsizetype>(m_entries.size()));
    for (const Entry& e : m_entries)
        out << QString::fromStdString(e.key);
    return out;
}

std::optional<GgufFile::ValueType> GgufFile::type(std::string_view key) const {
    const Entry* e = find(key);
    return e ? std::optional(e->type) : std::nullopt;
}

std::optional<GgufFile::ValueType> GgufFile::arrayType(std::string_view key) const {
    const Entry* e = find(key);
    return e && e->type == ValueType::Array ? std::optional(e->elementType) : std::nullopt;
}

std::optional<std::uint64_t> GgufFile::arraySize(std::string_view key) const {
    const Entry* e = find(key);
    return e && e->type == ValueType::Array ? std::optional(e->count) : std::nullopt;
}

std::optional<std::int64_t> GgufFile::integer(std::string_view key) const {
    const Entry* e = find(key);
    std::int64_t value = 0;
    if (!e || !isIntegerType(e->type) || !loadInteger(e->type, bytes() + e->offset, value))
        return std::nullopt;
    return value;
}

std::optional<double> GgufFile::real(std::string_view key) const {
    const Entry* e = find(key);
    if (!e)
        return std::nullopt;
    if (e->type == ValueType::Float32)
        return load<float>(bytes() + e->offset);
    if (e->type == ValueType::Float64)
        return load<double>(bytes() + e->offset);
    return std::nullopt;
}

std::optional<std::string> GgufFile::string(std::string_view key) const {
    const Entry* e = find(key);
    if (!e || e->type != ValueType::String)
        return std::nullopt;
    const auto length = load<std::uint64_t>(bytes() + e->offset);
    return std::string(reinterpret_cast<const char*>(bytes() + e->offset + 8), static_cast<std::size_t>(length));
}

std::optional<bool> GgufFile::boolean(std::string_view key) const {
    const Entry* e = find(key);
    if (!e || e->type != ValueType::Bool)
        return std::nullopt;
    return load<std::uint8_t>(bytes() + e->offset) != 0;
}

std::optional<std::vector<std::string>> GgufFile::stringArray(std::string_view key) const {
    const Entry* e = find(key);
    if (!e || e->type != ValueType::Array || e->elementType != ValueType::String)
        return std::nullopt;
    std::vector<std::string> out;
    out.reserve(static_cast<std::size_t>(e->count));
    const unsigned char* p = bytes() + e->offset; // validated on open
    for (std::uint64_t i = 0; i < e->count; ++i) {
        const auto length = load<std::uint64_t>(p);
        out.emplace_back(reinterpret_cast<const char*>(p + 8), static_cast<std::size_t>(length));
        p += 8 + length;
    }
    return out;
}

std::optional<std::vector<std::int64_t>> GgufFile::intArray(std::string_view key) const {
    const Entry* e = find(key);
    if (!e || e->type != ValueType::Array || !isIntegerType(e->elementType))
        return std::nullopt;
    const std::uint64_t width = scalarSize(e->elementType);
    std::vector<std::int64_t> out(static_cast<std::size_t>(e->count));
    const unsigned char* p = bytes() + e->offset;
    for (std::uint64_t i = 0; i < e->count; ++i)
        if (!loadInteger(e->elementType, p + i * width, out[i]))
            return std::nullopt;
    return out;
}

std::optional<std::vector<float>> GgufFile::floatArray(std::string_view key) const {
    const Entry* e = find(key);
    if (!e || e->type != ValueType::Array)
        return std::nullopt;
    const unsigned char* p = bytes() + e->offset;
    std::vector<float> out(static_cast<std::size_t>(e->count));
    if (e->elementType == ValueType::Float32) {
        std::memcpy(out.data(), p, out.size() * sizeof(float));
    } else if (e->elementType == ValueType::Float64) {
        for (std::uint64_t i = 0; i < e->count; ++i)
            out[i] = static_cast<float>(load<double>(p + i * 8));
    } else if (isIntegerType(e->elementType)) {
        const std::uint64_t width = scalarSize(e->elementType);
        for (std::uint64_t i = 0; i < e->count; ++i) {
            std::int64_t v = 0;
            loadInteger(e->elementType, p + i * width, v);
            out[i] = static_cast<float>(v);
        }
    } else {
        return std::nullopt;
    }
    return out;
}

std::string_view GgufFile::encodedValue(std::string_view key) const {
    const Entry* e = find(key);
    if (!e)
        return {};
    return {reinterpret_cast<const char*>(bytes()) + e->typeOffset, static_cast<std::size_t>(e->end - e->typeOffset)};
}

const GgufFile::Tensor* GgufFile::tensor(std::string_view name) const {
    const auto it = m_tensorIndex.find(name);
    return it == m_tensorIndex.end() ? nullptr : &m_tensors[it->second];
}

} // namespace swb
