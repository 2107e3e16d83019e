#pragma once

#include "sampling/Strategy.h"

namespace swb {

// The strategy being edited (Explore's editor), for the views that start from it: Compare's "Explore's strategy"
// and Sweep's base strategy.
class StrategySource {
public:
    // Always valid, its seed included.
    virtual const Strategy& strategy() const = 0;

protected:
    ~StrategySource() = default;
};

} // namespace swb
