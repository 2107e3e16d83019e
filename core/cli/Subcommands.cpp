#include "cli/Subcommand.h"

#include "InputFile.h"

#include <cstdio>

namespace swb::cli {

void writeBytes(QTextStream& out, const std::string& bytes) {
    out.flush();
    if (QIODevice* device = out.device()) {
        device->write(bytes.data(), static_cast<qint64>(bytes.size()));
        if (auto* file = qobject_cast<QFile*>(device))
            file->flush();
    } else {
        out << QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
    }
}

void openInput(QFile& file, const QString& path) {
    if (path == QLatin1String("-")) {
        if (!file.open(stdin, QIODevice::ReadOnly))
            failBadInput(QStringLiteral("cannot read standard input"));
        return;
    }
    file.setFileName(path);
    if (!file.open(QIODevice::ReadOnly))
        failBadInput(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
}

QByteArray readInput(QFile& file, const QString& path) {
    Result<QByteArray> bytes =
        readWhole(file, path == QLatin1String("-") ? QStringLiteral("standard input") : path);
    if (!bytes)
        failBadInput(bytes.error().message);
    return std::move(bytes).value();
}

std::vector<Subcommand> allSubcommands() {
    std::vector<Subcommand> all;
    for (Subcommand& command : modelSubcommands())
        all.push_back(std::move(command));
    for (Subcommand& command : tokenizerSubcommands())
        all.push_back(std::move(command));
    all.push_back(generateSubcommand());
    for (Subcommand& command : chatSubcommands())
        all.push_back(std::move(command));
    all.push_back(batchSubcommand());
    all.push_back(sweepSubcommand());
    all.push_back(serveSubcommand());
    for (Subcommand& command : importSubcommands())
        all.push_back(std::move(command));
    all.push_back(exportSubcommand());
    all.push_back(campaignSubcommand());
    for (Subcommand& command : quantizationSubcommands())
        all.push_back(std::move(command));
    for (Subcommand& command : samplingSubcommands())
        all.push_back(std::move(command));
    all.push_back(benchSubcommand());
    for (Subcommand& command : demoSubcommands())
        all.push_back(std::move(command));
    return all;
}

} // namespace swb::cli
