#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace swb {

// The threads the CPU kernels split their rows over: one process-wide pool whose work degrades gracefully
// on a busy machine.
//
// OpenMP (libtorch's at::parallel_for) hands each thread a fixed share of the rows and waits at a barrier
// for the last one: when another program holds a core, every product waits for a thread the kernel has
// descheduled, while the others spin. Here the rows are cut into chunks that whoever is running claims
// (the caller too), so a worker that does not get a core simply takes no chunk and the others do its share;
// the caller waits only for chunks already claimed. Idle workers spin briefly (a decode step's products
// follow each other by microseconds), then sleep on a futex until the next job.
//
// A call made while another thread's job runs, or from inside a chunk, runs on the calling thread alone.
class ThreadPool final {
public:
    // body(context, begin, end) over a part of [0, count).
    using Body = void (*)(void* context, std::int64_t begin, std::int64_t end);

    static ThreadPool& instance();

    // Splits [0, count) into chunks of at least `grain` items and runs them on at most `threads` threads,
    // the caller included; returns once every chunk has run.
    void run(std::int64_t count, std::int64_t grain, int threads, Body body, void* context);

    template <typename F>
    void parallelFor(std::int64_t count, std::int64_t grain, int threads, F&& f) {
        run(count, grain, threads, [](void* c, std::int64_t b, std::int64_t e) { (*static_cast<F*>(c))(b, e); },
            const_cast<void*>(static_cast<const void*>(&f)));
    }

    // How long an idle worker spins before it sleeps, in microseconds: longer than the gap between a decode
    // step's products, short beside a scheduler's time slice. A first choice, not yet tuned by measurement.
    static constexpr int kSpinMicroseconds = 50;

    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

private:
    ThreadPool() = default;
    ~ThreadPool() = delete; // process-wide, never destroyed: workers may sleep through static destruction
    void ensureWorkers(int count);
    void work(int index);
    void runChunks();

    // The job: state is (sequence << 1) | open. Workers join only an open job of a sequence they have not
    // worked on; `inside` counts the workers between joining and leaving, so the caller can close a job
    // and know that no worker still reads its description.
    std::atomic<std::uint32_t> m_state{0};
    std::atomic<int> m_inside{0};
    std::atomic<int> m_allowed{0}; // workers (by index) that may join: the job's threads - 1
    std::atomic<std::int64_t> m_next{0};
    std::atomic<std::int64_t> m_done{0};
    std::int64_t m_chunks = 0;
    std::int64_t m_chunkSize = 0;
    std::int64_t m_count = 0;
    Body m_body = nullptr;
    void* m_context = nullptr;

    std::mutex m_submit; // one job at a time
    std::vector<std::thread> m_workers; // grown under m_submit
};

} // namespace swb
