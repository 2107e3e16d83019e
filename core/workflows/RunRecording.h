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

// How a run of this model is computed, as stored with it (a remote model: only its device, "remote").
RunSetup runSetup(const ModelInfo& model);

// Turns a finished generation into a RunRecord and saves it (model, strategy and run with all its
// steps; the run in one transaction). Returns the saved record with its id.
Result<RunRecord> saveGeneration(RunRepository& runs, const ModelInfo& model, const GenerationRequest& request,
                                 const GenerationResult& result, const RunProvenance& provenance = {});

// A stored run's steps as the generation loop produced them: each token with its trace and the text it
// completed, decoded in context after the prompt with the run's own tokenizer when given, else as stored.
// With the decoder's per-step traces when the run has them.
std::vector<GeneratedStep> generatedSteps(const RunRecord& run, const Tokenizer* tokenizer);

// What the run's decoder recorded (empty for a sampled run); fails on a damaged trace.
Result<DecoderRecord> decoderRecord(const RunRecord& run);

} // namespace swb
