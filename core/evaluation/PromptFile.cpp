#include "evaluation/PromptFile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include "chat/ChatTemplate.h"

namespace swb {

Result<QList<QStringList>> parseCsv(const QString& text) {
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    bool fieldStarted = false;
    int line = 1;
    int quoteLine = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == QLatin1Char('\n'))
                    ++line;
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
            quoteLine = line;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
            fieldStarted = false;
        } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
            continue;
        } else if (c == QLatin1Char('\n')) {
            row << field;
            rows << row;
            row.clear();
            field.clear();
            fieldStarted = false;
            ++line;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        return Error::badInput(QStringLiteral("line %1: a quoted field is never closed").arg(quoteLine));
    if (fieldStarted || !row.isEmpty()) {
        row << field;
        rows << row;
    }
    return rows;
}

Result<QStringList> readPromptFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot read the prompt file %1: %2").arg(path, file.errorString()));
    const QString text = QString::fromUtf8(file.readAll());
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
