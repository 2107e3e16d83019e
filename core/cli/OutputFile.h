#pragma once

#include <memory>

#include <QString>

class QIODevice;

namespace swb::cli {

// A file a subcommand writes because the user named it (--out, --trace). Never one of the command's
// inputs: runSubcommand refuses that before the command starts (CommandLine.cpp). Written through when it is
// not a regular file (/dev/null, a FIFO: never replaced by a regular file); else written to a temporary
// beside it and renamed over it on commit(), so a failed command leaves the old file as it was.
// Problems are Failures (exit 2) naming the option and the file.
class OutputFile {
public:
    OutputFile(const QString& path, const QString& option);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    QIODevice& device();
    void commit();

private:
    QString m_path;
    QString m_option;
    std::unique_ptr<QIODevice> m_device;
    bool m_atomic = false;
};

} // namespace swb::cli
