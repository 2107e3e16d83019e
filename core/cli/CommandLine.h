#pragma once

#include <QStringList>

class QTextStream;

namespace swb::cli {

// The `swb` tool. arguments[0] is the program name. Returns the process exit status:
// 0 success, 2 bad input or usage, 1 internal failure. Errors are one sentence on err.
int runSwb(const QStringList& arguments, QTextStream& out, QTextStream& err);

} // namespace swb::cli
