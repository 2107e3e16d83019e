#pragma once

#include <QByteArray>
#include <QString>

#include "Result.h"

class QIODevice;

namespace swb {

// Far more than any prompt, conversation, chat template, strategy or settings file holds; a file past it (or
// a device that never ends, /dev/zero) is refused before it can take the machine's memory.
constexpr qint64 kMaxInputFileBytes = 64LL << 20;

// The bytes of an open file, read to its end but never past `limit`; a file that holds more is bad input
// naming `name`.
Result<QByteArray> readWhole(QIODevice& file, const QString& name, qint64 limit = kMaxInputFileBytes);

} // namespace swb
