#pragma once

#include <vector>

#include <QString>
#include <QStringList>
#include <QStringView>

#include "Result.h"

namespace swb {

// Reads a prompt set: .txt (one prompt per non-empty line), .jsonl (objects with a "prompt" field, or
// conversations: objects with "messages" (and "tools"), returned as their JSON line; see
// isConversationJson) or .csv (RFC 4180 with a header row holding a "prompt" column).
Result<QStringList> readPromptFile(const QString& path);

// One CSV record and the line it starts on (a quoted field may run over several lines).
struct CsvRecord {
    int line = 0;
    QStringList cells;
};

// RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF, newlines inside quotes) read from text that comes
// in pieces, as a file read in chunks does: each record is handed out as soon as it is complete, so a file
// of any length is read in constant memory. A CR not followed by LF is part of its field.
class CsvParser {
public:
    // Parses more text; appends the records it completes.
    void feed(QStringView text, std::vector<CsvRecord>& records);
    // The end of the text: appends the last record, if any; fails on a quoted field never closed.
    Status finish(std::vector<CsvRecord>& records);

private:
    void endField();
    void endRecord(std::vector<CsvRecord>& records);

    QStringList m_row;
    QString m_field;
    bool m_quoted = false;
    bool m_quoteEnded = false; // a quote inside a quoted field: the end, or the first of a doubled quote
    bool m_fieldStarted = false;
    bool m_pendingCr = false;
    int m_line = 1;
    int m_recordLine = 1;
    int m_quoteLine = 0;
};

// The whole of a CSV text at once (CsvParser). Fails on an unterminated quote, naming the line.
Result<QList<QStringList>> parseCsv(const QString& text);

} // namespace swb
