#pragma once

// Helpers shared by the tests: paths to reference data and running the built binaries.

#include <functional>

#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
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

// Runs `undo` when it leaves scope, however the test function leaves (a failed QVERIFY returns early).
class RestoreOnExit {
public:
    explicit RestoreOnExit(std::function<void()> undo)
        : m_undo(std::move(undo)) {}
    ~RestoreOnExit() { m_undo(); }
    RestoreOnExit(const RestoreOnExit&) = delete;
    RestoreOnExit& operator=(const RestoreOnExit&) = delete;

private:
    std::function<void()> m_undo;
};

// The bundled demo model's folder (resources/models/kjv-tiny).
inline QString demoModel() {
    return QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
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

// A running `swb serve` (the demo model unless the arguments name one) on a free loopback port.
class ServeProcess {
public:
    explicit ServeProcess(const QStringList& arguments) {
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral(SWB_CLI_PATH), QStringList{"serve", "--port", "0"} + arguments);
        QElapsedTimer timer;
        timer.start();
        static const QRegularExpression listening(QStringLiteral("(?:listening|rating) on http://127\\.0\\.0\\.1:(\\d+)/"));
        while (timer.elapsed() < 60000 && m_port == 0 && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(100);
            m_err += m_process.readAllStandardError();
            const QRegularExpressionMatch match = listening.match(QString::fromUtf8(m_err));
            if (match.hasMatch())
                m_port = static_cast<quint16>(match.captured(1).toUInt());
        }
    }
    ~ServeProcess() {
        m_process.terminate();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
        m_process.waitForFinished();
    }
    quint16 port() const { return m_port; }
    // SIGTERM, then the exit status once it has exited within timeoutMs (-1: still running, or it crashed).
    int terminateAndWait(int timeoutMs) {
        m_process.terminate();
        if (!m_process.waitForFinished(timeoutMs))
            return -1;
        m_err += m_process.readAllStandardError();
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
    }
    // The log lines written so far (one JSON object per request).
    QList<QJsonObject> log() {
        m_err += m_process.readAllStandardError();
        QList<QJsonObject> lines;
        for (const QByteArray& line : m_err.split('\n'))
            if (line.startsWith('{'))
                lines.append(QJsonDocument::fromJson(line).object());
        return lines;
    }
    QByteArray stderrText() {
        m_err += m_process.readAllStandardError();
        return m_err;
    }

private:
    QProcess m_process;
    QByteArray m_err;
    quint16 m_port = 0;
};

} // namespace swb::test

#define SWB_REQUIRE_REFERENCE()                                                                                        \
    do {                                                                                                               \
        if (swb::test::referenceDir().isEmpty())                                                                       \
            QSKIP("../shared/reference is absent: conformance test skipped");                                          \
    } while (false)
