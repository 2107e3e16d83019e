#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "Result.h"

namespace swb {

class Model;
class Tokenizer;

struct PerplexityResult {
    double perplexity = 0;
    double meanNll = 0;      // nats per predicted token
    std::int64_t tokens = 0; // predicted tokens
    std::int64_t documents = 0;
};

// Perplexity of a model on text: exp of the mean negative log-likelihood (natural log) of every token
// it predicts, from the logits of Model::forward over all positions, in double precision.
class Perplexity {
public:
    // Each document on its own, from a fresh state: the tokenizer's encoding with its special prefix
    // (BOS), followed by its EOS when it has one; every token after the first is predicted. Documents
    // longer than the context are scored in consecutive windows.
    static Result<PerplexityResult> ofDocuments(Model& model, const Tokenizer& tokenizer,
                                                const std::vector<std::string>& documents);
};

} // namespace swb
