#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "generation/Generator.h"

namespace swb {

class Model;
class Tokenizer;

// One token as served: its text (what the client sees, after stop strings) and its trace, from which the
// raw top-N log-probabilities and the post-chain probabilities come.
struct ServedStep {
    GeneratedStep step;
    int index = 0;
};

// A sequence to decode. The callbacks run on the engine's thread: they must only hand their data on.
struct ServeJob {
    GenerationRequest request; // promptIds set (usePromptIds), strategy, seed, maxTokens, traceLevel, topN
    std::atomic<bool> cancelled{false};
    std::function<void(const ServedStep&)> onStep;
    // The whole generation (steps with traces, text, finish reason), or why it failed.
    std::function<void(Result<GenerationResult>)> onFinished;
};

// Continuous batching: up to `parallel` sequences decode together, one batched forward pass of the model
// per step; a new sequence joins between steps (its prompt read in the same pass as the others' next
// tokens), a finished or cancelled one leaves between steps. Each steps as a SampledSequence, the loop of
// Generator::generate. Beyond `parallel`, sequences wait in a queue of at most `queueLimit`.
// Sampling decoders only are batched; a strategy with another decoder (beam search, contrastive decoding or
// search, guidance) runs on its own while the batch waits.
class ServingEngine {
public:
    ServingEngine(Model& model, const Tokenizer& tokenizer, int parallel, int queueLimit);
    ~ServingEngine();
    ServingEngine(const ServingEngine&) = delete;
    ServingEngine& operator=(const ServingEngine&) = delete;

    // False when the queue is full (the caller answers 503).
    bool submit(std::shared_ptr<ServeJob> job);
    int queued() const;
    int busy() const;
    int parallel() const { return m_parallel; }
    // Tokens of the model's context and the stop tokens, for request checks on the caller's side.
    const Generator& generator() const { return m_generator; }

private:
    struct Active;
    void loop();
    void admit(std::vector<std::unique_ptr<Active>>& active, std::shared_ptr<ServeJob> job);
    void runAlone(const std::shared_ptr<ServeJob>& job);
    void finish(ServeJob& job, Result<GenerationResult> result);

    Model& m_model;
    const Tokenizer& m_tokenizer;
    Generator m_generator;
    const int m_parallel;
    const int m_queueLimit;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::shared_ptr<ServeJob>> m_queue;
    std::atomic<int> m_busy{0};
    std::atomic<int> m_accepted{0}; // submitted and not yet finished: at most parallel + queueLimit
    bool m_stop = false;
    std::thread m_thread;
};

} // namespace swb
