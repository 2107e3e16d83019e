#pragma once

#include <memory>
#include <vector>

#include "generation/StepScorer.h"

namespace swb {

// Classifier-free guidance as transformers' UnbatchedClassifierFreeGuidanceLogitsProcessor: the same
// model also reads an unconditional context (the negative prompt, or else the prompt's last token) and
// each step's scores become  g * (log p_cond - log p_uncond) + log p_uncond,  g the guidance scale.
class ClassifierFreeGuidance final : public StepScorer {
public:
    ClassifierFreeGuidance(Model& model, const Tokenizer& tokenizer, const DecoderSpec& decoder);
    ~ClassifierFreeGuidance() override;

    Status start(const std::vector<TokenId>& prompt) override;
    Status score(std::vector<float>& logits, DecoderStepTrace* trace = nullptr) override;
    Status advance(TokenId token) override;

private:
    struct State;
    Model& m_model;
    const Tokenizer& m_tokenizer;
    double m_scale = 1.0;
    std::string m_negativePrompt;
    bool m_hasNegativePrompt = false;
    std::unique_ptr<State> m_state;
    std::vector<float> m_unconditional;
};

} // namespace swb
