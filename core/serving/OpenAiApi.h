#pragma once

#include <optional>
#include <string>

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include "generation/Generator.h"
#include "sampling/Strategy.h"

namespace swb {

class ChatTemplate;
class Tokenizer;

// An OpenAI-style error: the HTTP status and the body's {"error": {"message", "type", "param", "code"}}.
struct ApiError {
    int status = 400;
    QString message;
    QString param; // the request field at fault, when one is
    QString type = QStringLiteral("invalid_request_error");
    QString code = {}; // OpenAI's machine-readable code ("model_not_found"), when there is one
    QByteArray body() const;
};

// The arm of the served experiment a request was assigned to, by its unit (the request's `user`, else its
// X-Experiment-Unit header, else the request itself: then the unit is empty).
struct ExperimentAssignment {
    qint64 experimentId = 0;
    QString experiment;
    QString arm;
    QString unit;
    Strategy strategy;
};

// What the server knows when it reads a request.
struct ApiContext {
    const Tokenizer* tokenizer = nullptr;
    const ChatTemplate* chatTemplate = nullptr; // null: the model has none (chat requests are refused)
    Strategy defaultStrategy;
    QString modelName;
    int vocabSize = 0;
    int contextLength = 0;
    int maxTokensLimit = 4096; // the most tokens one request may ask for
    int maxN = 16;
    // A saved strategy by name (from the run store), when there is one.
    std::function<std::optional<Strategy>(const QString&)> namedStrategy;
    // The served experiment's arm for a request that names no strategy and sets no sampling field, given its
    // `user` (empty when none); nullopt when no experiment is served.
    std::function<std::optional<ExperimentAssignment>(const QString& user)> experimentArm;
};

// A request of POST /v1/completions or /v1/chat/completions, read and checked.
//
// Sampling: without any of the fields below, the server's default strategy. With any of them, a strategy
// built from them as OpenAI (and vLLM, whose order it follows) means them: logit_bias, frequency/presence
// penalties (over prompt and output, as llama.cpp counts them), repetition_penalty, dry_*, temperature (0:
// greedy), top_k, top_p, min_p, typical_p, top_n_sigma, xtc_*, then a seeded draw (mirostat 1/2 as the
// selector). "strategy" (a preset, a saved strategy's name, or strategy JSON, decoders included) overrides
// them all. stop and seed apply to either.
struct ApiRequest {
    bool chat = false;
    bool stream = false;
    bool includeUsage = false;
    int n = 1;
    // Raw top-N log-probabilities per token (completions' logprobs N; chat's logprobs + top_logprobs N).
    bool logprobs = false;
    int topLogprobs = 0;
    // llama.cpp's extension: also each token's probability after the chain (and the top-N's).
    bool postSamplingProbs = false;
    // vLLM's extension: tokens in logprobs spelled "token_id:N" (a client then knows each token's id).
    bool tokensAsIds = false;
    QString model;
    GenerationRequest request; // prompt ids resolved (usePromptIds), strategy, seed, maxTokens, traceLevel
    QString strategySource;    // "default", "fields", "strategy" or "experiment"
    std::optional<ExperimentAssignment> assignment; // set when strategySource is "experiment"
};

std::variant<ApiRequest, ApiError> parseApiRequest(const QByteArray& body, bool chat, const ApiContext& context);

// OpenAI's finish_reason for ours: "stop" (end token or stop string), "length" (max tokens or context).
QString openAiFinishReason(FinishReason finish);

// An answer's JSON text (compact). As QJsonDocument writes it, except that completions' top_logprobs objects
// list their tokens most likely first, as OpenAI's do (QJsonObject keeps keys in alphabetical order).
QByteArray answerJson(const QJsonObject& answer);

// The characters (Unicode code points) of UTF-8 text: what OpenAI's text_offset counts.
std::size_t textLength(const std::string& utf8);

// The logprobs object of one choice: completions' {tokens, token_logprobs, top_logprobs, text_offset} or
// chat's {content: [{token, logprob, bytes, top_logprobs}]}, with post_sampling_probs when asked.
QJsonObject logprobsJson(const std::vector<GeneratedStep>& steps, const ApiRequest& request, const Tokenizer& tokenizer,
                         std::size_t textOffset = 0); // characters before the first step

} // namespace swb
