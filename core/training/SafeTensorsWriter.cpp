#include "training/SafeTensorsWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace swb {

void SafeTensorsWriter::add(const QString& name, const QString& dtype, std::vector<std::int64_t> shape,
                            QByteArray data) {
    m_entries.push_back({name, dtype, std::move(shape), std::move(data)});
}

Status SafeTensorsWriter::write(const QString& file) const {
    QJsonObject header{{QStringLiteral("__metadata__"), QJsonObject{{QStringLiteral("format"), QStringLiteral("pt")}}}};
    qint64 offset = 0;
    for (const Entry& e : m_entries) {
        QJsonArray shape;
        for (const std::int64_t d : e.shape)
            shape.append(static_cast<qint64>(d));
        header.insert(e.name,
                      QJsonObject{{QStringLiteral("dtype"), e.dtype},
                                  {QStringLiteral("shape"), shape},
                                  {QStringLiteral("data_offsets"), QJsonArray{offset, offset + e.data.size()}}});
        offset += e.data.size();
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8 != 0)
        json.append(' ');
    QByteArray length(8, '\0');
    for (int i = 0; i < 8; ++i)
        length[i] = static_cast<char>((static_cast<quint64>(json.size()) >> (8 * i)) & 0xff);
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Error::badInput(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    bool ok = out.write(length) == 8 && out.write(json) == json.size();
    for (const Entry& e : m_entries)
        ok = ok && out.write(e.data) == e.data.size();
    if (!ok || !out.flush())
        return Error::internal(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    return {};
}

} // namespace swb
