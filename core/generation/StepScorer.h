#pragma once

#include <memory>
#include <span>
#include <vector>

#include "Result.h"
#include "generation/DecoderTrace.h"
#include "sampling/Strategy.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

class Model;

// A decoder that rewrites each step's logits before the chain sees them, from a second view of the text
// that it keeps in step with the run: contrastive decoding (an amateur model) or classifier-free
// guidance (the same model on a negative prompt).
class StepScorer {
public:
    virtual ~StepScorer() = default;
    // The second view reads the run's prompt.
    virtual Status start(const std::vector<TokenId>& prompt) = 0;
    // logits (the model's for this step) become the decoder's scores; trace, when given, receives what the
    // decoder weighed (see DecoderStepTrace).
    virtual Status score(std::vector<float>& logits, DecoderStepTrace* trace = nullptr) = 0;
    // The second view reads the token chosen.
    virtual Status advance(TokenId token) = 0;
};

// log sum exp of a logits row, in double (the row's log-softmax is row - this); not finite when the row
// holds NaN or no finite value.
double logPartition(std::span<const float> row);

// A step's trace from full rows: the `best` candidates by score (first, second as the decoder defines them;
// kept = a finite score), then up to `cut` of those whose score is -inf (cut), largest `first` first.
DecoderStepTrace decoderStepTrace(std::span<const float> scores, std::span<const double> first,
                                  std::span<const double> second, std::size_t best = 32, std::size_t cut = 8);

// The scorer of a strategy's decoder (nullptr for sampling and beam search, which need none).
Result<std::unique_ptr<StepScorer>> makeStepScorer(const DecoderSpec& decoder, Model& model, const Tokenizer& tokenizer);

} // namespace swb
