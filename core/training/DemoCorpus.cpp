#include "training/DemoCorpus.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

namespace swb {

namespace {

std::int64_t totalBytes(const std::vector<std::string>& verses) {
    std::int64_t n = 0;
    for (const std::string& v : verses)
        n += static_cast<std::int64_t>(v.size());
    return n;
}

} // namespace

Result<DemoCorpus> DemoCorpus::extract(const QString& program) {
    const QString executable = QStandardPaths::findExecutable(program);
    if (executable.isEmpty())
        return Error::badInput(QStringLiteral("the program '%1' was not found; install Debian's bible-kjv and "
                                              "bible-kjv-text packages (packaging/install-deps.sh)")
                                   .arg(program));
    QProcess bible;
    // -f turns pretty-printing off: one "Ge1:1 In the beginning..." line per verse.
    bible.start(executable, {QStringLiteral("-f"), QStringLiteral("Gen1:1-Rev22:21")});
    if (!bible.waitForFinished(120000) || bible.exitStatus() != QProcess::NormalExit || bible.exitCode() != 0)
        return Error::internal(QStringLiteral("'%1 -f Gen1:1-Rev22:21' failed: %2")
                                   .arg(executable, QString::fromLocal8Bit(bible.readAllStandardError()).trimmed()));
    const QByteArray output = bible.readAllStandardOutput();
    DemoCorpus corpus;
    int index = 0;
    for (const QByteArray& line : output.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        const qsizetype space = trimmed.indexOf(' ');
        if (space <= 0 || !trimmed.left(space).contains(':'))
            continue; // not a verse line
        std::string verse = trimmed.mid(space + 1).simplified().toStdString();
        if (verse.empty())
            continue;
        ++index;
        (index % kValidationEvery == 0 ? corpus.m_validation : corpus.m_training).push_back(std::move(verse));
    }
    if (index < 30000)
        return Error::internal(
            QStringLiteral("'%1' printed only %2 verses; the King James Bible has 31102").arg(executable).arg(index));
    return corpus;
}

std::int64_t DemoCorpus::trainingBytes() const {
    return totalBytes(m_training);
}

std::int64_t DemoCorpus::validationBytes() const {
    return totalBytes(m_validation);
}

Status DemoCorpus::writeLines(const std::vector<std::string>& verses, const QString& file) {
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Error::badInput(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    for (const std::string& v : verses) {
        out.write(v.data(), static_cast<qint64>(v.size()));
        out.write("\n", 1);
    }
    if (!out.flush())
        return Error::internal(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    return {};
}

} // namespace swb
