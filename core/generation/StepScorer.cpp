#include "generation/StepScorer.h"

#include "generation/ClassifierFreeGuidance.h"
#include "generation/ContrastiveDecoding.h"

#include <cmath>
#include <limits>

namespace swb {

double logPartition(std::span<const float> row) {
    double maxLogit = -std::numeric_limits<double>::infinity();
    for (float x : row)
        maxLogit = std::max(maxLogit, double(x));
    if (!std::isfinite(maxLogit))
        return maxLogit;
    double sum = 0.0;
    for (float x : row)
        sum += std::exp(double(x) - maxLogit);
    return maxLogit + std::log(sum);
}

Result<std::unique_ptr<StepScorer>> makeStepScorer(const DecoderSpec& decoder, Model& model, const Tokenizer& tokenizer) {
    if (decoder.type == QLatin1String("contrastive_decoding")) {
        Result<std::unique_ptr<ContrastiveDecoding>> cd = ContrastiveDecoding::create(decoder, tokenizer);
        if (!cd)
            return cd.error();
        return std::unique_ptr<StepScorer>(std::move(cd).value());
    }
    if (decoder.type == QLatin1String("cfg"))
        return std::unique_ptr<StepScorer>(std::make_unique<ClassifierFreeGuidance>(model, tokenizer, decoder));
    return std::unique_ptr<StepScorer>();
}

} // namespace swb
