#pragma once

// Helpers shared by the tests: paths to reference data and running the built binaries.

#include <QDir>
#include <QProcess>
#include <QString>
#include <QStringList>

#include "sampling/Strategy.h"

namespace swb::test {

// A strategy from JSON written in a test; a typo there stops the test at once.
inline Strategy strategyFromJson(const char* json) {
    Result<Strategy> strategy = Strategy::parse(QString::fromUtf8(json));
    if (!strategy)
        qFatal("bad test strategy: %s", qPrintable(strategy.error().message));
    return strategy.value();
}

// ../shared/reference beside the checkout, or an empty string when it is absent.
inline QString referenceDir() {
    const QString dir = QStringLiteral(SWB_REFERENCE_DIR);
    return QDir(dir).exists() ? QDir(dir).canonicalPath() : QString();
}

struct ProcessResult {
    int status = -1;
    QByteArray out;
    QByteArray err;
};

inline ProcessResult runProcess(const QString& program, const QStringList& arguments, int timeoutMs = 120000,
                                const QByteArray& input = {}) {
    QProcess process;
    process.start(program, arguments);
    process.waitForStarted();
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(timeoutMs))
        process.kill();
    process.waitForFinished();
    ProcessResult result;
    result.status = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

inline ProcessResult runSwbProcess(const QStringList& arguments, int timeoutMs = 120000) {
    return runProcess(QStringLiteral(SWB_CLI_PATH), arguments, timeoutMs);
}

} // namespace swb::test

#define SWB_REQUIRE_REFERENCE()                                                                                        \
    do {                                                                                                               \
        if (swb::test::referenceDir().isEmpty())                                                                       \
            QSKIP("../shared/reference is absent: conformance test skipped");                                          \
    } while (false)
