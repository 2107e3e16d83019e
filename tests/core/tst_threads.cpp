// The thread policy (model/ThreadPolicy.h) and the kernels' pool (model/ThreadPool.h): every index of a job run
// exactly once whatever the thread count, grain and callers; nested and concurrent jobs; the CPUs a process may
// use read from its affinity mask and from cgroup files written here; the automatic choice; and a model whose
// logits come out bit for bit the same on one thread and on several, exact and with fast math, in decode,
// batched decode and prefill (the BLAS tiles).

#include <atomic>
#include <cstring>
#include <thread>

#include <sched.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "cli/RandomModelWriter.h"
#include "model/Model.h"
#include "model/ThreadPolicy.h"
#include "model/ThreadPool.h"

using namespace swb;

namespace {

// Runs a job over `count` items and returns how often each index was visited.
std::vector<int> visits(std::int64_t count, std::int64_t grain, int threads) {
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(count));
    ThreadPool::instance().parallelFor(count, grain, threads, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
            seen[static_cast<std::size_t>(i)].fetch_add(1);
    });
    std::vector<int> out;
    for (const auto& s : seen)
        out.push_back(s.load());
    return out;
}

void writeFile(const QString& path, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

// Restores the process's CPU affinity when a test that narrows it ends, passed or not.
class AffinityGuard {
public:
    AffinityGuard() { sched_getaffinity(0, sizeof m_saved, &m_saved); }
    ~AffinityGuard() { sched_setaffinity(0, sizeof m_saved, &m_saved); }

private:
    cpu_set_t m_saved{};
};

} // namespace

class ThreadsTest : public QObject {
    Q_OBJECT

private slots:
    void everyIndexOnce_data() {
        QTest::addColumn<qint64>("count");
        QTest::addColumn<qint64>("grain");
        QTest::addColumn<int>("threads");
        QTest::newRow("one item") << qint64(1) << qint64(32) << 4;
        QTest::newRow("less than a grain") << qint64(31) << qint64(32) << 2;
        QTest::newRow("grains, 2 threads") << qint64(4096) << qint64(32) << 2;
        QTest::newRow("ragged end") << qint64(32001) << qint64(32) << 3;
        QTest::newRow("grain 1, 8 threads") << qint64(1000) << qint64(1) << 8;
        QTest::newRow("more threads than chunks") << qint64(70) << qint64(32) << 16;
        QTest::newRow("one thread") << qint64(500) << qint64(7) << 1;
    }
    void everyIndexOnce() {
        QFETCH(qint64, count);
        QFETCH(qint64, grain);
        QFETCH(int, threads);
        for (int round = 0; round < 50; ++round) { // jobs back to back, as a decode step's products follow
            const std::vector<int> seen = visits(count, grain, threads);
            QCOMPARE(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(count));
        }
    }

    void chunksRespectTheGrain() {
        std::atomic<std::int64_t> smallest{1 << 30};
        std::atomic<int> chunks{0};
        ThreadPool::instance().parallelFor(1000, 32, 2, [&](std::int64_t begin, std::int64_t end) {
            chunks.fetch_add(1);
            if (end != 1000) { // only the last chunk may be short
                std::int64_t s = smallest.load();
                while (end - begin < s && !smallest.compare_exchange_weak(s, end - begin)) {
                }
            }
        });
        QVERIFY(smallest.load() >= 32);
        QVERIFY(chunks.load() >= 2); // split, not run whole
    }

    void nestedJobsRunInline() {
        std::vector<std::atomic<int>> seen(64 * 100);
        ThreadPool::instance().parallelFor(64, 1, 4, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t outer = begin; outer < end; ++outer)
                ThreadPool::instance().parallelFor(100, 1, 4, [&](std::int64_t b, std::int64_t e) {
                    for (std::int64_t i = b; i < e; ++i)
                        seen[static_cast<std::size_t>(outer * 100 + i)].fetch_add(1);
                });
        });
        for (const auto& s : seen)
            QCOMPARE(s.load(), 1);
    }

    void concurrentCallers() {
        // Two threads submitting at once: one gets the pool, the other runs its jobs alone; both complete.
        std::atomic<bool> ok{true};
        const auto caller = [&] {
            for (int round = 0; round < 200; ++round) {
                const std::vector<int> seen = visits(777, 16, 3);
                if (std::count(seen.begin(), seen.end(), 1) != 777)
                    ok = false;
            }
        };
        std::thread a(caller), b(caller);
        a.join();
        b.join();
        QVERIFY(ok.load());
    }

    void usableCpusFollowTheAffinityMask() {
        cpu_set_t all;
        QCOMPARE(sched_getaffinity(0, sizeof all, &all), 0);
        QCOMPARE(usableCpus() <= CPU_COUNT(&all), true);
        AffinityGuard guard;
        int first = 0;
        while (!CPU_ISSET(first, &all))
            ++first;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        QCOMPARE(sched_setaffinity(0, sizeof one, &one), 0);
        QCOMPARE(usableCpus(), 1);
    }

    void cgroupQuotas() {
        QTemporaryDir dir;
        const QString root = dir.path();
        // v2: the tightest quota up the hierarchy; "max" is none.
        writeFile(root + "/user.slice/app/cpu.max", "max 100000\n");
        writeFile(root + "/user.slice/cpu.max", "150000 100000\n");
        QCOMPARE(cgroupCpuQuota("0::/user.slice/app\n", root), 1.5);
        writeFile(root + "/user.slice/app/cpu.max", "50000 100000\n");
        QCOMPARE(cgroupCpuQuota("0::/user.slice/app\n", root), 0.5);
        QCOMPARE(cgroupCpuQuota("0::/elsewhere\n", root), 0.0);
        // v1: cpu.cfs_quota_us of -1 is none.
        writeFile(root + "/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "300000\n");
        writeFile(root + "/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
        QCOMPARE(cgroupCpuQuota("12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n", root), 3.0);
        writeFile(root + "/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "-1\n");
        QCOMPARE(cgroupCpuQuota("4:cpu,cpuacct:/docker/abc\n", root), 0.0);
    }

    void automaticChoice() {
        const ThreadChoice set = chooseThreads(3, 1LL << 30);
        QCOMPARE(set.threads, 3);
        QVERIFY(!set.automatic);
        const ThreadChoice small = chooseThreads(0, 4LL << 20); // the demo model's 4.4 MB a step
        QCOMPARE(small.threads, 1);
        QVERIFY(small.automatic);
        QVERIFY(small.reason.contains(QLatin1String("too small")));
        const ThreadChoice large = chooseThreads(0, 600LL << 20); // a 1.1B Q4_K model's step
        QCOMPARE(large.threads, usableCpus());
        QVERIFY(large.automatic);
        QVERIFY(large.reason.startsWith(QStringLiteral("auto: %1").arg(usableCpus())));
    }

    void sameBitsOnOneThreadAndSeveral_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("fastMath");
        QTest::newRow("q4_k exact") << "q4_k" << false;
        QTest::newRow("q4_k fast math") << "q4_k" << true;
        QTest::newRow("q8_0 fast math") << "q8_0" << true;
        QTest::newRow("f32") << "f32" << false;
    }
    void sameBitsOnOneThreadAndSeveral() {
        QFETCH(QString, type);
        QFETCH(bool, fastMath);
        QTemporaryDir dir;
        const QString path = dir.filePath("model.gguf");
        cli::RandomShape shape;
        shape.dim = 256;
        shape.layers = 2;
        shape.heads = 4;
        shape.hidden = 512;
        shape.vocab = 1000;
        shape.context = 128;
        QCOMPARE(cli::writeRandomGguf(path, shape, type, 7), QString());
        std::vector<std::vector<float>> results[2];
        for (int i = 0; i < 2; ++i) {
            ModelOptions options;
            options.threads = i == 0 ? 1 : 4;
            options.fastMath = fastMath;
            auto model = Model::load(path, options);
            QVERIFY2(model, qPrintable(model ? QString() : model.error().message));
            QCOMPARE(model.value()->info().threads, options.threads);
            std::vector<TokenId> prompt;
            for (int t = 0; t < 40; ++t) // past 32 rows: prefill through the BLAS tiles
                prompt.push_back((t * 37 + 5) % shape.vocab);
            auto a = model.value()->newState();
            auto b = model.value()->newState();
            auto prefill = model.value()->forward(*a, prompt, true);
            QVERIFY(prefill);
            results[i].push_back(prefill.value());
            QVERIFY(model.value()->forward(*b, std::vector<TokenId>{3, 4, 5}));
            for (int step = 0; step < 4; ++step) {
                auto one = model.value()->forward(*a, std::vector<TokenId>{static_cast<TokenId>(11 + step)});
                QVERIFY(one);
                results[i].push_back(one.value());
                std::vector<Model::State*> states{a.get(), b.get()};
                auto both = model.value()->forwardBatch(states, std::vector<TokenId>{17, 19});
                QVERIFY(both);
                results[i].push_back(both.value());
            }
        }
        QCOMPARE(results[0].size(), results[1].size());
        for (std::size_t r = 0; r < results[0].size(); ++r) {
            QCOMPARE(results[0][r].size(), results[1][r].size());
            QVERIFY2(std::memcmp(results[0][r].data(), results[1][r].data(), results[0][r].size() * sizeof(float)) == 0,
                     qPrintable(QStringLiteral("pass %1 differs between 1 and 4 threads").arg(r)));
        }
    }
};

QTEST_GUILESS_MAIN(ThreadsTest)
#include "tst_threads.moc"
