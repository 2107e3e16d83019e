#include "evaluation/PromptFile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "InputFile.h"
#include "chat/ChatTemplate.h"

namespace swb {

void CsvParser::endField() {
    m_row << m_field;
    m_field.clear();
    m_fieldStarted = false;
}

void CsvParser::endRecord(std::vector<CsvRecord>& records) {
    endField();
    records.push_back({m_recordLine, std::move(m_row)});
    m_row.clear();
}

void CsvParser::feed(QStringView text, std::vector<CsvRecord>& records) {
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (m_quoteEnded) { // the character after a quote in a quoted field decides what the quote was
            m_quoteEnded = false;
            if (c == QLatin1Char('"')) {
                m_field += c; // a doubled quote
                continue;
            }
            m_quoted = false;
        }
        if (m_quoted) {
            if (c == QLatin1Char('"')) {
                m_quoteEnded = true;
            } else {
                if (c == QLatin1Char('\n'))
                    ++m_line;
                m_field += c;
            }
            continue;
        }
        if (m_pendingCr) {
            m_pendingCr = false;
            if (c != QLatin1Char('\n')) {
                m_field += QLatin1Char('\r');
                m_fieldStarted = true;
            }
        }
        if (c == QLatin1Char('"') && !m_fieldStarted) {
            m_quoted = true;
            m_fieldStarted = true;
            m_quoteLine = m_line;
        } else if (c == QLatin1Char(',')) {
            endField();
        } else if (c == QLatin1Char('\r')) {
            m_pendingCr = true;
        } else if (c == QLatin1Char('\n')) {
            endRecord(records);
            ++m_line;
            m_recordLine = m_line;
        } else {
            m_field += c;
            m_fieldStarted = true;
        }
    }
}

Status CsvParser::finish(std::vector<CsvRecord>& records) {
    if (m_quoteEnded) {
        m_quoteEnded = false;
        m_quoted = false;
    }
    if (m_quoted)
        return Error::badInput(QStringLiteral("line %1: a quoted field is never closed").arg(m_quoteLine));
    if (m_pendingCr) {
        m_pendingCr = false;
        m_field += QLatin1Char('\r');
        m_fieldStarted = true;
    }
    if (m_fieldStarted || !m_row.isEmpty())
        endRecord(records);
    return {};
}

Result<QList<QStringList>> parseCsv(const QString& text) {
    CsvParser parser;
    std::vector<CsvRecord> records;
    parser.feed(text, records);
    if (Status status = parser.finish(records); !status)
        return status.error();
    QList<QStringList> rows;
    rows.reserve(static_cast<qsizetype>(records.size()));
    for (CsvRecord& record : records)
        rows << std::move(record.cells);
    return rows;
}

Result<QStringList> readPromptFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot read the prompt file %1: %2").arg(path, file.errorString()));
    Result<QByteArray> bytes = readWhole(file, path);
    if (!bytes)
        return bytes.error();
    const QString text = QString::fromUtf8(bytes.value());
    const QString suffix = QFileInfo(path).suffix().toLower();
    QStringList prompts;
    if (suffix == QLatin1String("jsonl")) {
        int line = 0;
        for (const QString& row : text.split(QLatin1Char('\n'))) {
            ++line;
            if (row.trimmed().isEmpty())
                continue;
            const QJsonDocument document = QJsonDocument::fromJson(row.toUtf8());
            const QJsonValue prompt = document.object().value(QLatin1String("prompt"));
            if (document.isObject() && document.object().value(QLatin1String("messages")).isArray()) {
                // A conversation: kept as written (key order matters to templates that print tools).
                if (Status valid = validateConversation(row.trimmed().toStdString()); !valid)
                    return Error::badInput(QStringLiteral("%1, line %2: %3").arg(path).arg(line).arg(valid.error().message));
                prompts << row.trimmed();
                continue;
            }
            if (!document.isObject() || !prompt.isString())
                return Error::badInput(QStringLiteral("%1, line %2: expected a JSON object with a \"prompt\" string or "
                                                      "a \"messages\" array")
                                           .arg(path)
                                           .arg(line));
            prompts << prompt.toString();
        }
    } else if (suffix == QLatin1String("csv")) {
        Result<QList<QStringList>> rows = parseCsv(text);
        if (!rows)
            return Error::badInput(QStringLiteral("%1, %2").arg(path, rows.error().message));
        if (rows->isEmpty())
            return Error::badInput(QStringLiteral("%1 is empty").arg(path));
        const qsizetype column = rows->first().indexOf(QStringLiteral("prompt"));
        if (column < 0)
            return Error::badInput(QStringLiteral("%1 has no \"prompt\" column in its header row").arg(path));
        for (qsizetype r = 1; r < rows->size(); ++r) {
            const QStringList& row = rows->at(r);
            if (row.size() == 1 && row.first().isEmpty())
                continue;
            if (column >= row.size())
                return Error::badInput(QStringLiteral("%1, row %2 has no prompt cell").arg(path).arg(r + 1));
            prompts << row[column];
        }
    } else {
        for (const QString& row : text.split(QLatin1Char('\n'))) {
            const QString prompt = row.endsWith(QLatin1Char('\r')) ? row.chopped(1) : row;
            if (!prompt.trimmed().isEmpty())
                prompts << prompt;
        }
    }
    if (prompts.isEmpty())
        return Error::badInput(QStringLiteral("the prompt file %1 holds no prompts").arg(path));
    return prompts;
}

} // namespace swb
