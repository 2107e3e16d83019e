#pragma once

#include <QString>
#include <QStringList>

namespace swb {

struct RunSetup;

// How a run was computed, in the user's words: "2 threads · exact · f32 · cpu · avx2"; the fields it did not
// record are left out, and a run that recorded none reads "unknown" (stored before the store kept it).
QString setupText(const RunSetup& setup);

// A decode speed as people read one: "27", "3.4", "0.27" tokens a second (never "0" for a slow run).
QString rateText(double tokensPerSecond);

// The fields two runs differ in (setupDifferences' names), in the user's words: "fast math, threads".
QString setupDifferenceText(const QStringList& differences);

} // namespace swb
