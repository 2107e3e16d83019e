#pragma once

// A model served by another engine, over its OpenAI-compatible API: `swb serve`, llama.cpp's server, vLLM,
// or any server that speaks /v1/completions. The engine samples; we send the strategy as that engine's
// request fields and read back each token with its top-N log-probabilities (raw), and where the engine gives
// them, the probabilities after its samplers (our post_sampling_probs; llama.cpp's would replace the raw ones,
// so they are not asked for). Token ids come from engines that give them (vLLM's return_tokens_as_token_ids,
// which `swb serve` also takes; llama.cpp's "id").

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <QJsonObject>
#include <QString>
#include <QUrl>

#include "Result.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "sampling/Strategy.h"
#include "tokenizer/Tokenizer.h"
#include "workflows/ComparisonRunner.h"

namespace swb {

enum class RemoteEngineKind { Swb, LlamaCpp, Vllm, OpenAi };
QString remoteEngineName(RemoteEngineKind kind);

struct RemoteModel {
    QUrl base; // ends in /v1
    QString apiKey;
    QString modelId; // the first model of GET /v1/models
    RemoteEngineKind engine = RemoteEngineKind::OpenAi;
    // What GET /v1/models tells of the model, where the engine says it (llama.cpp's and swb serve's "meta":
    // n_ctx, n_vocab, n_params; vLLM's max_model_len); 0 where it does not.
    int contextLength = 0;
    int vocabSize = 0;
    qint64 parameters = 0;
};

// Whether a --model value names a remote engine (an http:// or https:// address).
bool isRemoteModelAddress(const QString& model);

// GET {base}/models: which model the engine serves and which engine it is (its owned_by: "swb", "llamacpp",
// "vllm"; any other is a plain OpenAI-compatible server). One sentence when it cannot be reached, refuses
// the key, or does not answer as an OpenAI-compatible server.
Result<RemoteModel> connectRemoteModel(const QString& address, const QString& apiKey, int timeoutMs = 15000);

// The request fields that make the engine apply the strategy; one sentence naming what it cannot apply
// (a sampler, a decoder, an order it does not follow) when it cannot. Before anything is sent. contextLength:
// the model's context where the engine says it (0: unknown), the history penalties look back over.
Result<QJsonObject> remoteSamplingFields(const Strategy& strategy, RemoteEngineKind engine, int contextLength = 0);

struct RemoteCandidate {
    int id = -1;          // -1 where the engine gives no id
    std::string text;     // the token's text as the engine spells it
    double logprob = 0.0; // raw
    std::optional<double> postProb;
};

struct RemoteStep {
    RemoteCandidate chosen;
    std::vector<RemoteCandidate> top; // the engine's top-N raw candidates, most likely first
    std::vector<RemoteCandidate> postTop; // its top-N after its samplers, where it gives them
    std::string text; // the text this step added
};

struct RemoteRequest {
    std::string prompt;            // text, or
    std::vector<int> promptIds;    // token ids (used when not empty), or
    // a conversation (a JSON array of messages, or {"messages", "tools"}): sent to /v1/chat/completions,
    // rendered by the engine's own chat template
    std::string conversationJson;
    Strategy strategy;
    std::optional<std::uint64_t> seed;
    int maxTokens = 128;
    int topN = 5; // log-probabilities per token (engines cap it: OpenAI and vLLM at 20)
};

struct RemoteResult {
    std::vector<RemoteStep> steps;
    std::string text;
    QString finishReason; // the engine's ("stop", "length")
    // A "stop" that a stop string made (vLLM's stop_reason names it; otherwise the tokens the engine sent
    // spell one of the request's stop strings, which an end token never does).
    bool stopString = false;
    double timeToFirstTokenMs = 0.0;
    double tokensPerSecond = 0.0;
};

// A remote run as the run store keeps runs: the engine's tokens with what it told of each step (raw top-N
// log-probabilities as raw_p, its post-sampling probabilities as final_p where it gave them, 0 elsewhere);
// and the model as an address (format "remote", the engine and model name, an identity hashed from both).
GenerationResult toGenerationResult(const RemoteResult& remote, const RemoteRequest& request);
// toGenerationResult with the prompt ids the engine read a text prompt as (remoteTokenize), where it says:
// what a run of the engine is stored as (generate, batch, Compare, Explore).
GenerationResult remoteGenerationResult(const RemoteModel& model, const RemoteResult& remote,
                                        const RemoteRequest& request);
GeneratedStep toGeneratedStep(const RemoteStep& step);
// The remote request for a generation request (its prompt text or ids, strategy and seed, max tokens).
RemoteRequest remoteRequestFor(const GenerationRequest& request, int topN = 5);
ModelInfo remoteModelInfo(const RemoteModel& model);

// The token ids the engine reads a text prompt as (its specials added, as it does for a completion): POST
// {root}/tokenize of llama.cpp, vLLM and swb serve. nullopt from an engine without it (other servers) or when
// it does not answer; the run then keeps no prompt ids.
std::optional<std::vector<int>> remoteTokenize(const RemoteModel& model, const std::string& prompt);

// POST {base}/completions (or /chat/completions for a conversation), streamed: onStep for each token as it comes (false cancels: the request is
// aborted). One sentence for what went wrong (the engine's error message included).
// cancel, when given, is polled every 100 ms as well: a Stop reaches an engine that has not sent a token yet.
Result<RemoteResult> remoteGenerate(const RemoteModel& model, const RemoteRequest& request,
                                    const std::function<bool(const RemoteStep&)>& onStep = {},
                                    const std::atomic<bool>* cancel = nullptr);

// The token texts of a remote model, as far as its answers told them (the engine keeps its tokenizer):
// each step's token and candidates with both an id and a text. Written by the thread that talks to the
// engine, read by any. It cannot encode: the engine tokenizes prompts itself.
class RemoteVocabulary final : public Tokenizer {
public:
    explicit RemoteVocabulary(QString engine) : m_kind(QStringLiteral("remote: ") + engine) {}
    void learn(const RemoteStep& step);
    QString kind() const override { return m_kind; }
    int vocabSize() const override;
    const SpecialTokens& specialTokens() const override { return m_special; }
    std::vector<TokenId> encode(const std::string&, bool, bool) const override { return {}; }
    std::string decode(const std::vector<TokenId>& ids) const override;
    std::string piece(TokenId id) const override;
    std::string tokenText(TokenId id) const override { return piece(id); }
    bool isSpecial(TokenId) const override { return false; }

private:
    QString m_kind;
    SpecialTokens m_special;
    mutable std::mutex m_mutex;
    std::map<TokenId, std::string> m_pieces;
};

// A run source that sends each request of a batch to the engine in turn (batch, Compare); vocabulary, when
// given, learns the texts of the tokens that come back.
RunSource remoteRunSource(const RemoteModel& model, std::shared_ptr<RemoteVocabulary> vocabulary = {});

} // namespace swb
