#include "cli/BusyProcesses.h"

#include <chrono>
#include <csignal>
#include <thread>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace swb::cli {

BusyProcesses::BusyProcesses(int count, unsigned boundSeconds) {
    for (int i = 0; i < count; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            // The child of a threaded process may only call async-signal-safe functions: these are.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            alarm(boundSeconds); // SIGALRM's default action ends it
            volatile unsigned long spins = 0;
            for (;;)
                spins = spins + 1;
        }
        if (pid > 0)
            m_pids.push_back(pid);
    }
    // Let the scheduler see them running before anything is measured beside them.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
}

BusyProcesses::~BusyProcesses() {
    for (const pid_t pid : m_pids)
        kill(pid, SIGKILL);
    for (const pid_t pid : m_pids)
        waitpid(pid, nullptr, 0);
}

} // namespace swb::cli
