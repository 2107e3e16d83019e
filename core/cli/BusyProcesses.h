#pragma once

#include <vector>

#include <sys/types.h>

namespace swb::cli {

// The contention benchmarks' load (`swb bench decode|serve --contend N`): N processes that only spin, as a
// browser, an IDE or a build does on a user's desktop. Each is a fork that runs no code but its loop, is
// killed when this object goes away or the benchmark dies (PR_SET_PDEATHSIG), and ends by itself after
// `boundSeconds` in any case.
class BusyProcesses final {
public:
    BusyProcesses(int count, unsigned boundSeconds);
    ~BusyProcesses();
    BusyProcesses(const BusyProcesses&) = delete;
    BusyProcesses& operator=(const BusyProcesses&) = delete;

    int count() const { return static_cast<int>(m_pids.size()); }

private:
    std::vector<pid_t> m_pids;
};

} // namespace swb::cli
