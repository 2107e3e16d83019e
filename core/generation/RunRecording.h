#pragma once

#include <optional>

#include <QString>

#include "Result.h"
#include "generation/Generator.h"
#include "storage/RunRepository.h"

namespace swb {

struct ModelInfo;

// Where a run came from, beyond the request itself.
struct RunProvenance {
    std::optional<qint64> promptId;
    std::optional<qint64> parentRunId;
    std::optional<int> branchStep;
    QString batchKey;
};

// Turns a finished generation into a RunRecord and saves it (model, strategy and run with all its
// steps; the run in one transaction). Returns the saved record with its id.
Result<RunRecord> saveGeneration(RunRepository& runs, const ModelInfo& model, const GenerationRequest& request,
                                 const GenerationResult& result, const RunProvenance& provenance = {});

} // namespace swb
