#include "model/ThreadPool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace swb {

namespace {

// True on a thread that is running a chunk: a job started from inside one runs inline.
thread_local bool t_inJob = false;

void relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

// Waits for `done()`: a short spin (chunks take microseconds), then yielding the core, so that a worker the
// kernel preempted in the middle of its chunk can get it back sooner.
template <typename Done>
void waitFor(Done done) {
    for (int i = 0; i < 2048; ++i) {
        if (done())
            return;
        relax();
    }
    while (!done())
        std::this_thread::yield();
}

} // namespace

ThreadPool& ThreadPool::instance() {
    static ThreadPool* pool = new ThreadPool;
    return *pool;
}

void ThreadPool::run(std::int64_t count, std::int64_t grain, int threads, Body body, void* context) {
    if (count <= 0)
        return;
    grain = std::max<std::int64_t>(grain, 1);
    const std::int64_t most = (count + grain - 1) / grain;
    threads = static_cast<int>(std::clamp<std::int64_t>(threads, 1, most));
    if (threads <= 1 || t_inJob) {
        body(context, 0, count);
        return;
    }
    std::unique_lock<std::mutex> lock(m_submit, std::try_to_lock);
    if (!lock.owns_lock()) { // another thread's job is running: do not wait for it
        body(context, 0, count);
        return;
    }
    ensureWorkers(threads - 1);
    // About eight chunks a thread: small enough that the others absorb the share of a thread that does not
    // get a core, large enough that claiming one costs nothing against its work.
    const std::int64_t perThread = 8;
    m_chunkSize = std::max(grain, (count + threads * perThread - 1) / (threads * perThread));
    m_chunks = (count + m_chunkSize - 1) / m_chunkSize;
    m_count = count;
    m_body = body;
    m_context = context;
    m_next.store(0, std::memory_order_relaxed);
    m_done.store(0, std::memory_order_relaxed);
    m_allowed.store(threads - 1, std::memory_order_relaxed);
    const std::uint32_t sequence = (m_state.load(std::memory_order_relaxed) >> 1) + 1;
    m_state.store((sequence << 1) | 1U, std::memory_order_seq_cst);
    m_state.notify_all(); // a system call only when a worker sleeps

    t_inJob = true;
    runChunks();
    t_inJob = false;
    waitFor([this] { return m_done.load(std::memory_order_acquire) == m_chunks; });
    // Close the job, then wait for workers that joined it to leave before its description is reused.
    m_state.store(sequence << 1, std::memory_order_seq_cst);
    waitFor([this] { return m_inside.load(std::memory_order_seq_cst) == 0; });
}

void ThreadPool::runChunks() {
    for (;;) {
        const std::int64_t chunk = m_next.fetch_add(1, std::memory_order_relaxed);
        if (chunk >= m_chunks)
            return;
        const std::int64_t begin = chunk * m_chunkSize;
        m_body(m_context, begin, std::min(m_count, begin + m_chunkSize));
        m_done.fetch_add(1, std::memory_order_release);
    }
}

void ThreadPool::ensureWorkers(int count) {
    while (static_cast<int>(m_workers.size()) < count) {
        const int index = static_cast<int>(m_workers.size());
        m_workers.emplace_back([this, index] { work(index); });
        m_workers.back().detach();
    }
}

void ThreadPool::work(int index) {
    using Clock = std::chrono::steady_clock;
    std::uint32_t seen = 0; // the last job this worker joined or declined
    Clock::time_point idleSince = Clock::now();
    for (;;) {
        const std::uint32_t state = m_state.load(std::memory_order_acquire);
        if ((state & 1U) != 0 && (state >> 1) != seen) {
            m_inside.fetch_add(1, std::memory_order_seq_cst);
            if (m_state.load(std::memory_order_seq_cst) == state) {
                if (index < m_allowed.load(std::memory_order_relaxed)) {
                    t_inJob = true;
                    runChunks();
                    t_inJob = false;
                }
                seen = state >> 1;
            }
            m_inside.fetch_sub(1, std::memory_order_release);
            idleSince = Clock::now();
            continue;
        }
        // Idle: spin a little, since the next product of a decode step follows within microseconds, then
        // sleep until the state changes (a futex wait).
        bool changed = false;
        while (!changed && Clock::now() - idleSince < std::chrono::microseconds(kSpinMicroseconds)) {
            for (int i = 0; i < 32 && !changed; ++i) {
                relax();
                changed = m_state.load(std::memory_order_relaxed) != state;
            }
        }
        if (!changed)
            m_state.wait(state, std::memory_order_acquire);
    }
}

} // namespace swb
