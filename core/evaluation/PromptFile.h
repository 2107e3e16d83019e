#pragma once

#include <QString>
#include <QStringList>

#include "Result.h"

namespace swb {

// Reads a prompt set: .txt (one prompt per non-empty line), .jsonl (objects with a "prompt" field, or
// conversations: objects with "messages" (and "tools"), returned as their JSON line; see
// isConversationJson) or .csv (RFC 4180 with a header row holding a "prompt" column).
Result<QStringList> readPromptFile(const QString& path);

// Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF, newlines inside quotes).
// Fails on an unterminated quote, naming the line.
Result<QList<QStringList>> parseCsv(const QString& text);

} // namespace swb
