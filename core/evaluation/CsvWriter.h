#pragma once

#include <QString>
#include <QStringList>

class QIODevice;

namespace swb {

// Writes RFC 4180 CSV, UTF-8 without a byte-order mark, CRLF after every row (the header too).
// A cell is quoted when it holds a comma, a double quote, CR or LF; quotes inside are doubled.
//
// Formula injection (OWASP "CSV Injection"): a cell that starts with =, +, -, @, tab or CR gets a
// single quote (') in front, so a spreadsheet shows it as text instead of running it. A cell that is
// entirely a decimal number ("-0.5", "+3", "-1e-05") is left alone: no spreadsheet reads it as a
// formula, and prefixing it would turn every negative figure into text.
class CsvWriter {
public:
    explicit CsvWriter(QIODevice& device)
        : m_device(device) {}

    void writeRow(const QStringList& cells);
    // False once a write to the device has failed.
    bool ok() const { return m_ok; }

    // One cell as written: neutralised, then quoted when needed.
    static QString encodeCell(const QString& value);
    static QString neutralise(const QString& value);
    static bool isPlainNumber(const QString& value);
    static QByteArray encodeRow(const QStringList& cells);

    // Numbers as cells: the shortest text that reads back as the same double ("0.1", "1e-05"); NaN is an
    // empty cell (no value), infinities are "inf" and "-inf".
    static QString number(double value);
    // The same for a value recorded as float32 (probabilities in step traces): "0.2" rather than
    // "0.20000000298023224".
    static QString number(float value);

private:
    QIODevice& m_device;
    bool m_ok = true;
};

} // namespace swb
