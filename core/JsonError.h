#pragma once

// Where Qt's JSON parser stopped, as a person finds it in an editor: line and column (1-based; columns in
// UTF-16 units, as Qt's editors count them), not a byte offset into the UTF-8 text.

#include <QByteArray>
#include <QJsonParseError>
#include <QString>
#include <utility>

namespace swb {

inline std::pair<qsizetype, qsizetype> jsonErrorLineColumn(const QByteArray& text, const QJsonParseError& error) {
    const QByteArray before = text.left(error.offset);
    return {before.count('\n') + 1, QString::fromUtf8(before.mid(before.lastIndexOf('\n') + 1)).size() + 1};
}

inline QString jsonErrorWhere(const QByteArray& text, const QJsonParseError& error) {
    const auto [line, column] = jsonErrorLineColumn(text, error);
    return QStringLiteral("%1 at line %2, column %3").arg(error.errorString()).arg(line).arg(column);
}

} // namespace swb
