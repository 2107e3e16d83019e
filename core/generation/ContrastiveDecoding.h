#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "Result.h"
#include "generation/StepScorer.h"
#include "sampling/Strategy.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

class Model;

// Contrastive decoding (Li et al. 2022): a weaker "amateur" model runs beside the expert on the same
// tokens, and each step's expert logits are replaced by contrastive scores before the chain sees them:
// tokens with p_expert < alpha * max p_expert are cut (-inf), the others scored
// log p_expert - log p_amateur, or with beta (O'Brien & Lewis 2023) (1 + beta) logit_expert - beta logit_amateur.
class ContrastiveDecoding final : public StepScorer {
public:
    // Loads the amateur the decoder names and checks that it reads text with the expert's vocabulary.
    static Result<std::unique_ptr<ContrastiveDecoding>> create(const DecoderSpec& decoder, const Tokenizer& expertTokenizer);
    ~ContrastiveDecoding() override;

    Status start(const std::vector<TokenId>& prompt) override;
    Status score(std::vector<float>& expertLogits, DecoderStepTrace* trace = nullptr) override;
    Status advance(TokenId token) override;

private:
    ContrastiveDecoding() = default;
    std::unique_ptr<Model> m_amateur;
    struct State;
    std::unique_ptr<State> m_state;
    std::vector<float> m_amateurLogits;
    double m_alpha = 0.1;
    std::optional<double> m_beta;
};

} // namespace swb
