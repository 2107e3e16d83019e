#pragma once

// Shared by the libFuzzer harnesses: the fuzz input as a file (for readers that take paths) and the
// bundled demo model's tokenizer.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include "tokenizer/TokenizerLoader.h"

namespace swb::fuzz {

// A directory of this process's own in /dev/shm (memory), created once.
inline QString scratchDir() {
    static const QString dir = [] {
        const QString path = QStringLiteral("/dev/shm/swb-fuzz-%1").arg(QCoreApplication::applicationPid());
        QDir().mkpath(path);
        return path;
    }();
    return dir;
}

// Writes the input to scratchDir()/name and returns the path.
inline QString inputFile(const std::uint8_t* data, std::size_t size, const char* name) {
    const QString path = scratchDir() + QLatin1Char('/') + QLatin1String(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(reinterpret_cast<const char*>(data), static_cast<qint64>(size));
    return path;
}

inline const Tokenizer& demoTokenizer() {
    static const std::unique_ptr<Tokenizer> tokenizer =
        loadTokenizer(QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny")).value();
    return *tokenizer;
}

} // namespace swb::fuzz
