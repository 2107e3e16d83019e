#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include <QCoreApplication>
#include <QTextStream>

#include "AppInfo.h"
#include "cli/CommandLine.h"

int main(int argc, char* argv[]) {
    // A file-size limit (ulimit -f) makes a write fail with EFBIG, which names the file in one sentence,
    // instead of killing the process with SIGXFSZ halfway through an output.
    std::signal(SIGXFSZ, SIG_IGN);
    QCoreApplication app(argc, argv);
    swb::initApplicationInfo();
    QTextStream out(stdout);
    QTextStream err(stderr);
    int status = swb::cli::runSwb(QCoreApplication::arguments(), out, err);
    // stdio may hold the last of the output until here: its write errors count too.
    if ((std::fflush(stdout) != 0 || std::ferror(stdout)) && status == 0) {
        std::fprintf(stderr, "swb: cannot write to standard output: %s\n", std::strerror(errno));
        status = 2;
    }
    return status;
}
