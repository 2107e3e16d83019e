// Compiled only by the test layers/wrong-include-fails, which expects it not to build: sampling sits below
// storage (README, Layout), so storage's headers are not on sampling's include path.
#include "sampling/Strategy.h"
#include "storage/Database.h"

int layerViolation() {
    return 0;
}
