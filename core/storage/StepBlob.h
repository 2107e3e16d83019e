#pragma once

#include <optional>
#include <vector>

#include <QByteArray>

#include "sampling/StepTrace.h"

namespace swb {

// Packed little-endian BLOB layouts of the steps table (independent of the host's byte order):
//
// alternatives: N records of 16 bytes, the step's top-N raw candidates in raw order:
//   int32 id, float32 raw logit, float32 raw p, float32 final p (0 when cut)
//
// stages: per stage, in chain order:
//   uint8 name length L, L bytes of UTF-8 sampler name, int32 kept,
//   float64 kept mass, float64 threshold (NaN when none)
//
// prompt ids (runs.prompt_ids): int32 per token.
namespace step_blob {

QByteArray packAlternatives(const std::vector<TopCandidate>& top);
std::optional<std::vector<TopCandidate>> unpackAlternatives(const QByteArray& blob);

QByteArray packStages(const std::vector<StageTrace>& stages);
std::optional<std::vector<StageTrace>> unpackStages(const QByteArray& blob);

QByteArray packIds(const std::vector<TokenId>& ids);
std::optional<std::vector<TokenId>> unpackIds(const QByteArray& blob);

} // namespace step_blob

} // namespace swb
