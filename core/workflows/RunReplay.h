#pragma once

#include <vector>

#include <QString>

#include "Result.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

class Database;

// Where two runs of one prompt part: the first step whose tokens differ, or, when one run is a prefix of the
// other, the shorter one's length; -1 when they are the same tokens.
int firstDivergence(const std::vector<TokenId>& a, const std::vector<TokenId>& b);

// Makes a run and its replay under another strategy a comparison to rate: blind, slots 0 (the run) and 1 (the
// replay), shown in an order shuffled by the two runs' ids (labels A and B). Both runs must exist and share
// their prompt. Returns the comparison's id.
Result<qint64> saveReplayComparison(Database& database, qint64 runId, qint64 replayId);

} // namespace swb
