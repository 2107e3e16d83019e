#include <cstdio>

#include <QCoreApplication>
#include <QTextStream>

#include "AppInfo.h"
#include "cli/CommandLine.h"

int main(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    swb::initApplicationInfo();
    QTextStream out(stdout);
    QTextStream err(stderr);
    return swb::cli::runSwb(QCoreApplication::arguments(), out, err);
}
