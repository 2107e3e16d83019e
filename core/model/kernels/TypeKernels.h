#pragma once

// The traits of each weight type, defined in its family's file (FloatTypes.cpp, Q8_0.cpp,
// LegacyQuants.cpp, KQuants.cpp) and gathered into the table in WeightType.cpp.

#include "model/kernels/WeightType.h"

namespace swb::kernels {

extern const WeightTraits kF32Traits, kF16Traits, kBF16Traits;
extern const WeightTraits kQ8_0Traits;
extern const WeightTraits kQ4_0Traits, kQ4_1Traits, kQ5_0Traits, kQ5_1Traits;
extern const WeightTraits kQ2_KTraits, kQ3_KTraits, kQ4_KTraits, kQ5_KTraits, kQ6_KTraits;

} // namespace swb::kernels
