#include "formats/SafeTensorsFile.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "formats/MappedFile.h"

namespace swb {

namespace {

// Headers of real checkpoints are well under a megabyte; the cap keeps a corrupt length from
// making us parse gigabytes as JSON.
constexpr std::uint64_t kMaxHeaderBytes = 100u << 20;

std::uint64_t readLittleEndian64(const std::byte* p) {
    std::uint64_t value = 0;
    for (int i = 7; i >= 0; --i)
        value = (value << 8) | static_cast<std::uint8_t>(p[i]);
    return value;
}

} // namespace

int SafeTensorsFile::elementSize(const QString& dtype) {
    static const std::map<QString, int> sizes = {
        {QStringLiteral("F64"), 8},  {QStringLiteral("F32"), 4},     {QStringLiteral("F16"), 2},
        {QStringLiteral("BF16"), 2}, {QStringLiteral("I64"), 8},     {QStringLiteral("I32"), 4},
        {QStringLiteral("I16"), 2},  {QStringLiteral("I8"), 1},      {QStringLiteral("U8"), 1},
        {QStringLiteral("BOOL"), 1}, {QStringLiteral("F8_E4M3"), 1}, {QStringLiteral("F8_E5M2"), 1},
        {QStringLiteral("U16"), 2},  {QStringLiteral("U32"), 4},     {QStringLiteral("U64"), 8},
    };
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

std::size_t SafeTensorsFile::fileSize() const {
    return m_file ? m_file->size() : 0;
}

const SafeTensorsFile::Tensor* SafeTensorsFile::tensor(const std::string& name) const {
    const auto it = m_index.find(name);
    return it == m_index.end() ? nullptr : &m_tensors[it->second];
}

Result<SafeTensorsFile> SafeTensorsFile::open(const QString& path) {
    auto mapped = MappedFile::open(path);
    if (!mapped)
        return mapped.error();
    SafeTensorsFile file;
    file.m_path = path;
    file.m_file = std::move(mapped.value());
    const std::byte* base = file.m_file->data();
    const std::size_t size = file.m_file->size();
    const QString name = file.m_file->fileName();
    if (size < 8)
        return Error::badInput(
            QStringLiteral("%1 is truncated: %2 bytes, too short for a safetensors header").arg(name).arg(size));
    const std::uint64_t headerBytes = readLittleEndian64(base);
    if (headerBytes < 2 || headerBytes > kMaxHeaderBytes)
        return Error::badInput(QStringLiteral("%1 is not a safetensors file (header length %2 is implausible)")
                                   .arg(name)
                                   .arg(headerBytes));
    if (headerBytes > size - 8)
        return Error::badInput(QStringLiteral("%1 is truncated: its header needs %2 bytes but the file has %3")
                                   .arg(name)
                                   .arg(headerBytes + 8)
                                   .arg(size));

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(
        QByteArray::fromRawData(reinterpret_cast<const char*>(base + 8), static_cast<qsizetype>(headerBytes)),
        &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return Error::badInput(
            QStringLiteral("%1 is not a safetensors file (its header is not a JSON object)").arg(name));

    const std::byte* data = base + 8 + headerBytes;
    const std::uint64_t dataBytes = size - 8 - headerBytes;
    const QJsonObject header = doc.object();
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == QLatin1String("__metadata__")) {
            const QJsonObject meta = it.value().toObject();
            for (auto m = meta.begin(); m != meta.end(); ++m)
                file.m_metadata[m.key()] = m.value().toString();
            continue;
        }
        const QJsonObject entry = it.value().toObject();
        Tensor tensor;
        tensor.name = it.key().toStdString();
        tensor.dtype = entry.value(QLatin1String("dtype")).toString();
        const auto bad = [&](const QString& why) {
            return Error::badInput(QStringLiteral("%1: tensor '%2' %3").arg(name, it.key(), why));
        };
        const int elementBytes = elementSize(tensor.dtype);
        if (elementBytes == 0)
            return bad(QStringLiteral("has unknown dtype '%1'").arg(tensor.dtype));
        const QJsonArray shape = entry.value(QLatin1String("shape")).toArray();
        const QJsonArray offsets = entry.value(QLatin1String("data_offsets")).toArray();
        if (!entry.value(QLatin1String("shape")).isArray() || offsets.size() != 2)
            return bad(QStringLiteral("has no valid shape and data_offsets"));
        // Multiply with an overflow check: a corrupt header must not wrap around into a small size.
        std::uint64_t elements = 1;
        for (const QJsonValue& dim : shape) {
            const double d = dim.toDouble(-1);
            if (d < 0 || d != static_cast<double>(static_cast<std::int64_t>(d)) || d > 1e15)
                return bad(QStringLiteral("has an invalid dimension"));
            const auto n = static_cast<std::uint64_t>(d);
            if (n != 0 && elements > std::numeric_limits<std::uint64_t>::max() / 8 / n)
                return bad(QStringLiteral("is impossibly large"));
            elements *= n;
            tensor.shape.push_back(static_cast<std::int64_t>(n));
        }
        const double begin = offsets[0].toDouble(-1);
        const double end = offsets[1].toDouble(-1);
        if (begin < 0 || end < begin || begin != std::floor(begin) || end != std::floor(end) || end > 1e18)
            return bad(QStringLiteral("has invalid data_offsets"));
        const auto first = static_cast<std::uint64_t>(begin);
        const auto last = static_cast<std::uint64_t>(end);
        if (last - first != elements * static_cast<std::uint64_t>(elementBytes))
            return bad(QStringLiteral("has %1 bytes of data but its shape and dtype need %2")
                           .arg(last - first)
                           .arg(elements * static_cast<std::uint64_t>(elementBytes)));
        if (last > dataBytes)
            return Error::badInput(QStringLiteral("%1 is truncated: tensor '%2' ends at byte %3 of %4 data bytes")
                                       .arg(name, it.key())
                                       .arg(last)
                                       .arg(dataBytes));
        tensor.data = data + first;
        tensor.bytes = static_cast<std::size_t>(last - first);
        file.m_index[tensor.name] = file.m_tensors.size();
        file.m_tensors.push_back(std::move(tensor));
    }
    // As the format's reference reader requires: the tensors, in offset order, cover the data exactly, end to
    // end, with no gap, no overlap and nothing after the last.
    std::vector<const Tensor*> byOffset;
    for (const Tensor& t : file.m_tensors)
        byOffset.push_back(&t);
    std::sort(byOffset.begin(), byOffset.end(), [](const Tensor* a, const Tensor* b) {
        return a->data != b->data ? a->data < b->data : a->bytes < b->bytes;
    });
    std::uint64_t covered = 0;
    for (const Tensor* t : byOffset) {
        const auto first = static_cast<std::uint64_t>(t->data - data);
        if (first != covered)
            return Error::badInput(
                QStringLiteral("%1: tensor '%2' starts at byte %3 of the data, where the tensors before it end at %4 "
                               "(the tensors must lie end to end, without gaps or overlaps)")
                    .arg(name, QString::fromStdString(t->name))
                    .arg(first)
                    .arg(covered));
        covered = first + t->bytes;
    }
    if (covered != dataBytes)
        return Error::badInput(QStringLiteral("%1: the tensors cover %2 of its %3 data bytes").arg(name).arg(covered).arg(dataBytes));
    return file;
}

} // namespace swb
