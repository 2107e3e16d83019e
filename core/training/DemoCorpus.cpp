#include "training/DemoCorpus.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

namespace swb {

namespace {

std::int64_t totalBytes(const std::vector<std::string>& chapters) {
    std::int64_t n = 0;
    for (const std::string& c : chapters)
        n += static_cast<std::int64_t>(c.size());
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
    int verses = 0, chapters = 0;
    QByteArray chapter; // "Ge1" of "Ge1:1": a new one starts a new chapter
    std::string text;
    int textVerses = 0;
    const auto endChapter = [&] {
        if (text.empty())
            return;
        ++chapters;
        const bool held = chapters % kValidationEvery == 0;
        (held ? corpus.m_validation : corpus.m_training).push_back(std::move(text));
        (held ? corpus.m_validationVerses : corpus.m_trainingVerses) += textVerses;
        text.clear();
        textVerses = 0;
    };
    for (const QByteArray& line : output.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        const qsizetype space = trimmed.indexOf(' ');
        const qsizetype colon = trimmed.left(space).indexOf(':');
        if (space <= 0 || colon < 0)
            continue; // not a verse line
        const std::string verse = trimmed.mid(space + 1).simplified().toStdString();
        if (verse.empty())
            continue;
        if (trimmed.left(colon) != chapter) {
            endChapter();
            chapter = trimmed.left(colon);
        }
        if (!text.empty())
            text += '\n';
        text += verse;
        ++textVerses;
        ++verses;
    }
    endChapter();
    if (verses < 30000 || chapters < 1100)
        return Error::internal(QStringLiteral("'%1' printed only %2 verses in %3 chapters; the King James Bible has "
                                              "31102 in 1189")
                                   .arg(executable)
                                   .arg(verses)
                                   .arg(chapters));
    return corpus;
}

std::int64_t DemoCorpus::trainingBytes() const {
    return totalBytes(m_training);
}

std::int64_t DemoCorpus::validationBytes() const {
    return totalBytes(m_validation);
}

Status DemoCorpus::writeChapters(const std::vector<std::string>& chapters, const QString& file) {
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Error::badInput(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    for (const std::string& c : chapters) {
        out.write(c.data(), static_cast<qint64>(c.size()));
        out.write("\n\n", 2);
    }
    if (!out.flush())
        return Error::internal(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    return {};
}

} // namespace swb
