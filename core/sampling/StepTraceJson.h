#pragma once

#include <QJsonObject>

#include "sampling/StepTrace.h"

namespace swb {

// The StepTrace as one JSON object, the shape of `swb sample` and of each line of `--trace FILE.jsonl`:
// {"chosen", "raw_p", "final_p", "raw_rank", "raw_entropy", "final_entropy", "draw" (null for greedy),
//  "final_count", "stages": [{"sampler", "kept", "kept_mass", "threshold"}], "top": [{"id", "logit", "raw_p",
//  "final_p"}]}
QJsonObject stepTraceToJson(const StepTrace& trace);

} // namespace swb
