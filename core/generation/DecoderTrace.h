#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include <QJsonObject>

#include "generation/BeamSearch.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

// What a decoder weighed at one step, for its views: each candidate with the two quantities the decoder
// combines and the score it gave them.
// - contrastive_decoding: first = expert p, second = amateur p, score = log p_e - log p_a (or the beta form);
//   kept: inside the plausibility cut; threshold = alpha * max p_e.
// - contrastive_search: first = the model's p (confidence), second = the degeneration penalty (max cosine
//   similarity to the context's hidden states), score = (1 - alpha) p - alpha penalty; kept: the one chosen.
// - cfg: first = p on the prompt, second = p on the negative (or empty) prompt, score = the guided logit.
struct DecoderCandidate {
    TokenId token = -1;
    double first = 0.0;
    double second = 0.0;
    double score = 0.0;
    bool kept = false;
};

struct DecoderStepTrace {
    std::vector<DecoderCandidate> candidates; // best score first
    double threshold = NAN;
    bool empty() const { return candidates.empty(); }
};

// The decoder's record of a whole run as the run store keeps it (runs.decoder_trace, JSON):
//   {"type": "beam" | "group_beam" | ..., "steps": [{"threshold": t, "candidates": [[token, first, second, score, kept], ...]}, ...],
//    "beam_steps": [{"candidates": [[beam, token, score, fate, forced, group], ...], "beams": [[parent, token, score, group], ...]}, ...],
//    "hypotheses": [{"tokens": [...], "text": "...", "sum_log_prob": s, "score": s, "eos": b, "words_forced": b}, ...]}
// fate: "continued", "finished" or "pruned". Only the parts a decoder has are present.
struct DecoderRecord {
    QString type;
    std::vector<DecoderStepTrace> steps;
    std::shared_ptr<const BeamResult> beam;
    bool empty() const { return steps.empty() && !beam; }
};

QJsonObject decoderRecordToJson(const DecoderRecord& record);
// Fails on a document that is not such a record (a damaged store).
Result<DecoderRecord> decoderRecordFromJson(const QJsonObject& json);
QString beamFateName(BeamCandidate::Fate fate);

} // namespace swb
