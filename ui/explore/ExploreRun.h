#pragma once

#include <optional>
#include <vector>

#include <QString>

#include "InferenceWorker.h"
#include "explore/ReplayDialog.h"
#include "storage/RunRepository.h"

namespace swb {

class RunTokenizers;

// The run shown in Explore: a live generation or one opened from the run store.
struct ExploreRun {
    qint64 runId = 0;
    QString promptText;
    std::vector<TokenId> promptIds;
    Strategy strategy;
    std::uint64_t seed = 0;
    std::vector<GeneratedStep> steps;
    QString modelHash; // the weights the run came from
    int vocabSize = 0; // of that model
    QString finish;
    // The conversation the prompt was rendered from (Explore's chat mode); empty for a raw prompt.
    QString conversationJson;
    // The assistant's reply before this run's first step (a branch's prompt ends with it).
    QString replyPrefix;
    bool remote = false; // a remote engine's run: its steps know only their top-N candidates
    std::vector<TokenId> tokens() const;
    // The run as one side of a replay's comparison.
    ReplayDialog::Side replaySide() const;
};

// A stored run as Explore opens it.
struct StoredRun {
    ExploreRun run;
    RunRecord record;
    bool strategyKnown = false;     // its strategy was found in the store
    std::optional<BeamResult> beam; // a beam search's tree
    QString decoderError;           // its decoder trace could not be read
};

// Loads a run with its strategy and model; its step texts come from its own model's tokenizer when known (else
// that tokenizer starts loading: RunTokenizers::available follows), else as stored. A conversation's branch gets
// the reply its prompt carries past the conversation's root run.
Result<StoredRun> loadStoredRun(RunRepository& runs, RunTokenizers& tokenizers, qint64 runId);

// A branch of `run` at `step`: the run's prompt and its tokens before the step, then `continuation`, as a job
// (its strategy, seed and max tokens for the caller to set), the text shown as its prompt and, for a
// conversation, the reply up to the branch. Not a beam search's concern: the caller dispatches.
struct BranchStart {
    GenerationJob job;
    QString shownPrompt;
    QString replyPrefix;
};
BranchStart branchOf(const ExploreRun& run, int step, const std::vector<TokenId>& continuation,
                     const QString& continuationText);

} // namespace swb
