#include "generation/StepScorer.h"

#include "generation/ClassifierFreeGuidance.h"
#include "generation/ContrastiveDecoding.h"

#include <algorithm>
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

DecoderStepTrace decoderStepTrace(std::span<const float> scores, std::span<const double> first,
                                  std::span<const double> second, std::size_t best, std::size_t cut) {
    std::vector<std::size_t> kept;
    std::vector<std::size_t> removed;
    for (std::size_t v = 0; v < scores.size(); ++v)
        (std::isfinite(scores[v]) ? kept : removed).push_back(v);
    const auto take = [](std::vector<std::size_t>& items, std::size_t count, auto better) {
        count = std::min(count, items.size());
        std::partial_sort(items.begin(), items.begin() + std::ptrdiff_t(count), items.end(), better);
        items.resize(count);
    };
    take(kept, best, [&](std::size_t a, std::size_t b) { return scores[a] != scores[b] ? scores[a] > scores[b] : a < b; });
    take(removed, cut, [&](std::size_t a, std::size_t b) { return first[a] != first[b] ? first[a] > first[b] : a < b; });
    DecoderStepTrace trace;
    for (std::size_t v : kept)
        trace.candidates.push_back({TokenId(v), first[v], second[v], double(scores[v]), true});
    for (std::size_t v : removed)
        trace.candidates.push_back({TokenId(v), first[v], second[v], double(scores[v]), false});
    return trace;
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
