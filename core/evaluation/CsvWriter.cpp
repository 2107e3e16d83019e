#include "evaluation/CsvWriter.h"

#include <charconv>
#include <cmath>

#include <QIODevice>
#include <QRegularExpression>

namespace swb {

namespace {
// std::to_chars without a format: the shortest text that reads back as the same value, locale-free.
template <typename Real> QString shortest(Real value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, result.ptr - buffer);
}
} // namespace

bool CsvWriter::isPlainNumber(const QString& value) {
    static const QRegularExpression number(QStringLiteral(R"(^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$)"));
    return number.match(value).hasMatch();
}

QString CsvWriter::neutralise(const QString& value) {
    if (value.isEmpty())
        return value;
    const QChar first = value.front();
    const bool risky = first == QLatin1Char('=') || first == QLatin1Char('+') || first == QLatin1Char('-') ||
                       first == QLatin1Char('@') || first == QLatin1Char('\t') || first == QLatin1Char('\r');
    if (!risky || isPlainNumber(value))
        return value;
    return QLatin1Char('\'') + value;
}

QString CsvWriter::encodeCell(const QString& value) {
    QString cell = neutralise(value);
    const bool needsQuotes = cell.contains(QLatin1Char(',')) || cell.contains(QLatin1Char('"')) ||
                             cell.contains(QLatin1Char('\r')) || cell.contains(QLatin1Char('\n'));
    if (!needsQuotes)
        return cell;
    cell.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + cell + QLatin1Char('"');
}

QByteArray CsvWriter::encodeRow(const QStringList& cells) {
    QString line;
    for (qsizetype i = 0; i < cells.size(); ++i) {
        if (i > 0)
            line += QLatin1Char(',');
        line += encodeCell(cells[i]);
    }
    line += QStringLiteral("\r\n");
    return line.toUtf8();
}

void CsvWriter::writeRow(const QStringList& cells) {
    if (!m_ok)
        return;
    const QByteArray bytes = encodeRow(cells);
    if (m_device.write(bytes) != bytes.size())
        m_ok = false;
}

QString CsvWriter::number(double value) {
    if (std::isnan(value))
        return {};
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return shortest(value);
}

QString CsvWriter::number(float value) {
    if (std::isnan(value) || std::isinf(value))
        return number(static_cast<double>(value));
    return shortest(value);
}

} // namespace swb
