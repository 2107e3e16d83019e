#pragma once

#include <cstdint>

#include <QByteArray>
#include <QString>

namespace swb {

// How many threads a model's CPU products run on when the user does not say: the CPUs this process may
// use (its affinity mask and its container's CPU quota, not the machine's core count), and one thread for
// a model whose decode step is too small to split (the threads would cost more than they give).
struct ThreadChoice {
    int threads = 1;
    bool automatic = true; // false: the user's --threads / setting
    QString reason;        // one line for the model bar and `swb info`, e.g. "auto: 2 of 2 usable CPUs"
};

// The CPUs this process may run on: sched_getaffinity's count, lowered to the cgroup CPU quota
// (cgroup v2 cpu.max up the hierarchy, or v1 cpu.cfs_quota_us / cpu.cfs_period_us), rounded up; at least 1.
int usableCpus();

// The tightest CPU quota, in CPUs (1.5 for "150000 100000"), that the cgroups named by `procCgroup` (the text of
// /proc/self/cgroup) and their ancestors set under `cgroupRoot` (/sys/fs/cgroup); 0 when none does.
double cgroupCpuQuota(const QByteArray& procCgroup, const QString& cgroupRoot);

// A model whose decode step reads fewer weight bytes than this runs on one thread by default: below it the
// second thread's wake-ups and the split cost more than the halved products save. Measured with swb bench
// decode, two threads against one (median of three pairs, f32 Llama-shaped models, 2-core AMD EPYC Zen 4,
// idle): 2.1 MB a step (the demo model) 0.85x, 4.3 MB 0.85x, 8.3 MB 1.3x, 21.5 MB 1.02x, 46.5 MB 0.98x,
// 106 MB 1.35x, 240 MB 1.86x.
constexpr std::int64_t kSmallModelBytes = 8LL << 20;

// requested > 0: the user's count (kept, even above the usable CPUs, which the CLI warns about);
// 0: automatic for a model whose decode step reads `weightBytesPerToken`.
ThreadChoice chooseThreads(int requested, std::int64_t weightBytesPerToken, bool onCpu = true);

} // namespace swb
