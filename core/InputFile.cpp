#include "InputFile.h"

#include <algorithm>

#include <QFileDevice>

namespace swb {

Result<QByteArray> readWhole(QIODevice& file, const QString& name, qint64 limit) {
    QByteArray bytes;
    constexpr qint64 kChunk = 1 << 20;
    for (;;) {
        const qint64 room = limit + 1 - bytes.size(); // one byte past the limit says the file holds more
        const QByteArray chunk = file.read(std::min(kChunk, room));
        if (chunk.isEmpty())
            break;
        bytes += chunk;
        if (bytes.size() > limit)
            return Error::badInput(QStringLiteral("%1 holds more than %2 MB; no prompt, conversation, template or "
                                                  "settings file is that large")
                                       .arg(name)
                                       .arg(limit >> 20));
    }
    if (const auto* device = qobject_cast<QFileDevice*>(&file); device && device->error() != QFileDevice::NoError)
        return Error::badInput(QStringLiteral("cannot read %1: %2").arg(name, file.errorString()));
    return bytes;
}

} // namespace swb
