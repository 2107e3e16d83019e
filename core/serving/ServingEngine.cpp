#include "serving/ServingEngine.h"

#include <chrono>
#include <optional>

#include "generation/SampledSequence.h"
#include "model/Model.h"

namespace swb {

using Clock = SampledSequence::Clock;

// A sequence in the batch: its job, cache, chain, text and the logits of its next step.
struct ServingEngine::Active {
    std::shared_ptr<ServeJob> job;
    std::unique_ptr<Model::State> state;
    std::optional<SampledSequence> sequence;
    std::vector<TokenId> next; // what the next pass reads: the prompt when joining, then each new token
    std::vector<float> logits; // the last pass's, until sampled
    Clock::time_point start;
    bool done = false;
};

ServingEngine::ServingEngine(Model& model, const Tokenizer& tokenizer, int parallel, int queueLimit)
    : m_model(model), m_tokenizer(tokenizer), m_generator(model, tokenizer), m_parallel(std::max(1, parallel)),
      m_queueLimit(std::max(0, queueLimit)) {
    m_thread = std::thread([this] { loop(); });
}

ServingEngine::~ServingEngine() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        for (const auto& job : m_queue)
            job->cancelled = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

bool ServingEngine::submit(std::shared_ptr<ServeJob> job) {
    {
        std::lock_guard lock(m_mutex);
        if (m_stop || m_accepted.load() >= m_parallel + m_queueLimit)
            return false;
        ++m_accepted;
        m_queue.push_back(std::move(job));
    }
    m_wake.notify_one();
    return true;
}

int ServingEngine::queued() const {
    std::lock_guard lock(m_mutex);
    return static_cast<int>(m_queue.size());
}

int ServingEngine::busy() const {
    return m_busy.load();
}

void ServingEngine::finish(ServeJob& job, Result<GenerationResult> result) {
    // The place is free before the caller hears of the end: a client that sends its next request as soon as
    // it has the answer must find it free.
    --m_accepted;
    job.onFinished(std::move(result));
}

void ServingEngine::runAlone(const std::shared_ptr<ServeJob>& job) {
    int index = 0;
    Result<GenerationResult> result = m_generator.generate(
        job->request,
        [&](const GeneratedStep& step) {
            job->onStep(ServedStep{step, index++});
            return !job->cancelled.load();
        },
        &job->cancelled);
    finish(*job, std::move(result));
}

void ServingEngine::admit(std::vector<std::unique_ptr<Active>>& active, std::shared_ptr<ServeJob> job) {
    const GenerationRequest& request = job->request;
    auto seq = std::make_unique<Active>();
    seq->start = Clock::now();
    seq->job = job;
    Result<SamplerChain> chain = requestChain(request, m_tokenizer);
    if (!chain) {
        finish(*job, chain.error());
        return;
    }
    Result<SampledSequence> sequence =
        SampledSequence::start(request, request.promptIds, std::move(chain).value(), m_tokenizer,
                               m_generator.stopTokens(), m_model.info().contextLength);
    if (!sequence) {
        finish(*job, sequence.error());
        return;
    }
    seq->sequence.emplace(std::move(sequence).value());
    if (seq->sequence->done()) { // max_tokens 0
        finish(*job, seq->sequence->finish(seq->start));
        return;
    }
    seq->state = m_model.newState();
    seq->next = request.promptIds; // prefilled in the next pass, beside the others' decoding
    active.push_back(std::move(seq));
}

void ServingEngine::loop() {
    std::vector<std::unique_ptr<Active>> active;
    for (;;) {
        std::vector<std::shared_ptr<ServeJob>> joining;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || !m_queue.empty() || !active.empty(); });
            if (m_stop)
                break;
            while (!m_queue.empty() && static_cast<int>(active.size() + joining.size()) < m_parallel) {
                joining.push_back(std::move(m_queue.front()));
                m_queue.pop_front();
            }
            m_busy = static_cast<int>(active.size() + joining.size());
        }
        for (std::shared_ptr<ServeJob>& job : joining) {
            if (job->cancelled.load()) {
                GenerationResult cancelled;
                cancelled.promptIds = job->request.promptIds;
                cancelled.finish = FinishReason::Cancelled;
                finish(*job, std::move(cancelled));
                continue;
            }
            if (!job->request.strategy.decoder.isSample())
                runAlone(job);
            else
                admit(active, std::move(job));
        }
        // One step of every sequence with logits: sample; then one pass for every sequence that reads
        // something (a joining prompt, or the token just drawn).
        for (std::unique_ptr<Active>& seq : active) {
            if (seq->done || seq->logits.empty())
                continue;
            ServeJob& job = *seq->job;
            SampledSequence& sequence = *seq->sequence;
            Result<bool> goesOn = sequence.step(
                seq->logits,
                [&](const GeneratedStep& added) {
                    job.onStep(ServedStep{added, sequence.produced() - 1});
                    return true;
                },
                &job.cancelled);
            seq->logits.clear();
            if (!goesOn) {
                finish(job, goesOn.error());
                seq->job.reset();
                seq->done = true;
            } else if (goesOn.value()) {
                seq->next = {sequence.next()};
            } else {
                seq->done = true;
            }
        }
        std::vector<Model::State*> states;
        std::vector<std::vector<TokenId>> reads;
        std::vector<Active*> going;
        for (std::unique_ptr<Active>& seq : active) {
            if (seq->done || seq->next.empty())
                continue;
            if (seq->job->cancelled.load()) {
                seq->sequence->cancel();
                seq->done = true;
                continue;
            }
            states.push_back(seq->state.get());
            reads.push_back(std::move(seq->next));
            seq->next.clear();
            going.push_back(seq.get());
        }
        if (!states.empty()) {
            Result<std::vector<float>> logits = m_model.forwardMany(states, reads);
            const std::size_t vocab = logits ? logits->size() / states.size() : 0;
            for (std::size_t i = 0; i < going.size(); ++i) {
                if (!logits) {
                    finish(*going[i]->job, logits.error());
                    going[i]->job.reset();
                    going[i]->done = true;
                    continue;
                }
                going[i]->logits.assign(logits->begin() + std::ptrdiff_t(i * vocab),
                                        logits->begin() + std::ptrdiff_t((i + 1) * vocab));
            }
        }
        for (std::unique_ptr<Active>& seq : active) {
            if (!seq->done || !seq->job)
                continue;
            finish(*seq->job, seq->sequence->finish(seq->start));
            seq->job.reset();
        }
        std::erase_if(active, [](const std::unique_ptr<Active>& seq) { return seq->done; });
        m_busy = static_cast<int>(active.size());
    }
    for (std::unique_ptr<Active>& seq : active)
        if (seq->job) {
            seq->sequence->cancel();
            finish(*seq->job, seq->sequence->finish(seq->start));
        }
}

} // namespace swb
