#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <QString>

#include "Result.h"
#include "generation/BeamSearch.h"
#include "generation/DecoderTrace.h"
#include "sampling/SamplerChain.h"
#include "sampling/Strategy.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

class Model;

// GrammarDeadEnd: a grammar stage found that no token can continue the text (GenerationResult::finishDetail
// says why).
enum class FinishReason { Eos, StopString, MaxTokens, ContextLimit, Cancelled, GrammarDeadEnd };
QString finishReasonName(FinishReason reason);

struct GenerationRequest {
    std::string prompt; // UTF-8; encoded with the vocabulary's BOS/EOS rule
    // When set, used instead of encoding prompt (branching continues from an exact token prefix).
    std::vector<TokenId> promptIds;
    bool usePromptIds = false;
    Strategy strategy;
    std::uint64_t seed = 0; // used when the strategy names none
    int maxTokens = 128;
    TraceLevel traceLevel = TraceLevel::Full;
    int topN = 64;
    bool parseSpecial = false;
    // Whether encoding the prompt adds BOS/EOS as the vocabulary asks; a prompt rendered by a chat template
    // carries its own special tokens (transformers' apply_chat_template encodes without adding any).
    bool addSpecial = true;
    // The conversation prompt was rendered from (JSON), recorded with the run; empty for a raw prompt.
    std::string conversationJson;
};

// One generated token: its trace and the text it completed (may be empty while a UTF-8 character
// is split across tokens, or for special tokens).
struct GeneratedStep {
    TokenId token = -1;
    StepTrace trace;
    std::string text;
    // What this step added to the run's visible text: text, less whatever a stop string holds back or
    // removes (and plus text held back before it that turned out not to start one).
    std::string shown;
    // What a decoder other than sampling weighed at this step (empty for sampling and beam search).
    DecoderStepTrace decoder;
};

struct GenerationResult {
    std::vector<TokenId> promptIds;
    std::vector<GeneratedStep> steps;
    std::string text; // the continuation, decoded, up to (not including) a stop string
    FinishReason finish = FinishReason::MaxTokens;
    std::string stopString; // the stop string that ended the run (finish StopString)
    QString finishDetail;   // why a grammar ended the run (finish GrammarDeadEnd)
    std::uint64_t seed = 0;
    double timeToFirstTokenMs = 0.0;
    double tokensPerSecond = 0.0; // decode speed after the first token
    // A beam decoder's search (steps is then its best hypothesis, each step traced with the distribution its
    // beam's processors left, draw NaN); null for the other decoders.
    std::shared_ptr<const BeamResult> beam;
};

// Sets a result's time to first token (start to firstToken) and its decode speed after it (tokens − 1 over
// firstToken to end); neither when no token came.
void setTimings(GenerationResult& result, std::chrono::steady_clock::time_point start,
                std::chrono::steady_clock::time_point firstToken, std::chrono::steady_clock::time_point end,
                std::size_t tokens);

// "the prompt of N bytes is at least M tokens long; the model's context holds C": a prompt refused by its
// bytes before it is tokenized (Tokenizer::fewestTokens), in the CLI, the GUI and the server alike.
inline QString promptTooLong(std::size_t bytes, std::size_t fewestTokens, int context) {
    return QStringLiteral("the prompt of %1 bytes is at least %2 tokens long; the model's context holds %3")
        .arg(bytes)
        .arg(fewestTokens)
        .arg(context);
}

// Whether a run whose history (prompt and tokens so far) is historySize long has filled a context of
// `context` positions: decoding the token just drawn needs position historySize - 1, and positions run
// from 0 to context - 1. One rule for single runs, batches and the server (which stopped a token early).
inline bool contextFull(std::size_t historySize, int context) {
    return context > 0 && historySize > static_cast<std::size_t>(context);
}

// The generation loop: prompt -> prefill -> (sample -> decode) until EOS, max tokens, the context
// limit or cancellation. Stops at the model's EOS and end-of-turn ids (for llama2.c checkpoints, at BOS, as
// run.c does) and at the strategy's stop strings, matched across token boundaries and never emitted.
class Generator {
public:
    Generator(Model& model, const Tokenizer& tokenizer);

    // onStep is called after every token (on the calling thread); returning false stops the run
    // (finish reason Cancelled), as does cancel becoming true.
    Result<GenerationResult> generate(const GenerationRequest& request,
                                      const std::function<bool(const GeneratedStep&)>& onStep = {},
                                      const std::atomic<bool>* cancel = nullptr);

    // Several requests on one prompt at once (e.g. the strategies of one comparison): the prompt is
    // prefilled once, then every unfinished sequence advances by one token per batched forward pass.
    // Each result equals what generate() gives for that request alone. onStep(index, step) as above.
    std::vector<Result<GenerationResult>> generateBatch(
        const std::vector<GenerationRequest>& requests,
        const std::function<bool(std::size_t, const GeneratedStep&)>& onStep = {},
        const std::atomic<bool>* cancel = nullptr);

    // Beam search (request.strategy.decoder of type "beam" or "group_beam"; see BeamSearch.h) from the request's prompt for
    // at most maxTokens new tokens; onStep after each step (returning false cancels, as does cancel).
    Result<BeamResult> beamSearch(const GenerationRequest& request,
                                  const std::function<bool(const BeamStep&)>& onStep = {},
                                  const std::atomic<bool>* cancel = nullptr);

    // What a run of `strategy` would refuse at its start, checked without running it (the sampler chain against
    // this tokenizer, a beam or contrastive decoder's options and chain), so that a batch refuses a strategy
    // before it has saved any run.
    Status checkStrategy(const Strategy& strategy) const;

    // Called with every step of a beam search that generate() runs (a beam decoder), as it is taken.
    void setBeamObserver(std::function<void(const BeamStep&)> observer) { m_beamObserver = std::move(observer); }

    // The request's prompt as token ids (its promptIds, or its prompt encoded), checked: not empty, inside the
    // context and the vocabulary; one sentence saying which when not.
    Result<std::vector<TokenId>> promptTokens(const GenerationRequest& request) const;
    // The token ids a prompt becomes (with BOS/EOS as the vocabulary asks).
    std::vector<TokenId> encodePrompt(const std::string& prompt, bool parseSpecial, bool addSpecial = true) const;
    // Tokens that end generation.
    const std::vector<TokenId>& stopTokens() const { return m_stopTokens; }

private:
    Result<GenerationResult> generateWithBeams(const GenerationRequest& request,
                                               const std::function<bool(const GeneratedStep&)>& onStep,
                                               const std::atomic<bool>* cancel);
    Result<GenerationResult> contrastiveSearch(const GenerationRequest& request,
                                               const std::function<bool(const GeneratedStep&)>& onStep,
                                               const std::atomic<bool>* cancel);

    Model& m_model;
    const Tokenizer& m_tokenizer;
    std::vector<TokenId> m_stopTokens;
    std::function<void(const BeamStep&)> m_beamObserver;
};

} // namespace swb
