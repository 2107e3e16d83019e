// swb bench MODE [options]: one subcommand, a table of modes. Each group of modes registers itself in its
// own file (tokenizerBenchModes(), samplingBenchModes(), storageBenchModes(), modelBenchModes(), ratingBenchModes(),
// serveBenchModes(), experimentBenchModes()).

#include <algorithm>

#include <QFile>
#include <QStringList>
#include <QTextStream>

#include "cli/Subcommand.h"

namespace swb::cli {

std::vector<BenchMode> allBenchModes() {
    std::vector<BenchMode> all;
    for (BenchMode& mode : tokenizerBenchModes())
        all.push_back(std::move(mode));
    for (BenchMode& mode : samplingBenchModes())
        all.push_back(std::move(mode));
    for (BenchMode& mode : storageBenchModes())
        all.push_back(std::move(mode));
    for (BenchMode& mode : modelBenchModes())
        all.push_back(std::move(mode));
    for (BenchMode& mode : ratingBenchModes())
        all.push_back(std::move(mode));
    for (BenchMode& mode : serveBenchModes())
        all.push_back(std::move(mode));
    for (BenchMode& mode : experimentBenchModes())
        all.push_back(std::move(mode));
    return all;
}

ProcessMemory processMemory() {
    ProcessMemory memory;
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return memory;
    for (const QByteArray& line : status.readAll().split('\n')) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 2)
            continue;
        const qint64 bytes = fields[1].toLongLong() * 1024; // the kernel writes kB
        if (fields[0] == "VmRSS:")
            memory.resident = bytes;
        else if (fields[0] == "RssAnon:")
            memory.anonymous = bytes;
        else if (fields[0] == "RssFile:")
            memory.fileBacked = bytes;
        else if (fields[0] == "VmHWM:")
            memory.peak = bytes;
    }
    return memory;
}

namespace {

// `swb bench MODE --help`: the mode's own options.
void printModeHelp(const BenchMode& mode, QTextStream& out) {
    QCommandLineParser parser;
    mode.declareOptions(parser);
    out << "Usage: swb bench " << mode.name << " [options]\n" << mode.summary << "\n";
    const QString help = parser.helpText();
    const qsizetype options = help.indexOf(QLatin1String("Options:"));
    if (options >= 0)
        out << '\n' << help.mid(options);
}

} // namespace

Subcommand benchSubcommand() {
    QStringList names;
    QString table;
    for (const BenchMode& mode : allBenchModes()) {
        names << mode.name;
        table += QStringLiteral("\n  %1%2").arg(mode.name.leftJustified(12), mode.summary);
    }
    return {
        QStringLiteral("bench"),
        QStringLiteral("swb bench %1 [options]").arg(names.join(QLatin1Char('|'))),
        QStringLiteral("Measure performance; prints one JSON object of figures. Modes:%1\n"
                       "'swb bench MODE --help' lists a mode's options.")
            .arg(table),
        [](QCommandLineParser& parser) {
            // Everything after MODE belongs to the mode: collect it as positional arguments here and parse
            // it again with the mode's own options, so each mode accepts exactly its own.
            parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsPositionalArguments);
            parser.addPositionalArgument(QStringLiteral("MODE"), QStringLiteral("What to measure."),
                                         QStringLiteral("MODE [options]"));
        },
        [](const Invocation& inv) {
            const QStringList positional = inv.args.positionalArguments();
            const std::vector<BenchMode> modes = allBenchModes();
            QStringList names;
            for (const BenchMode& mode : modes)
                names << mode.name;
            if (positional.isEmpty())
                failBadInput(QStringLiteral("name a bench mode: %1").arg(names.join(QStringLiteral(", "))));
            const auto mode =
                std::find_if(modes.begin(), modes.end(), [&](const BenchMode& m) { return m.name == positional[0]; });
            if (mode == modes.end())
                failBadInput(QStringLiteral("unknown bench mode '%1' (modes: %2)")
                                 .arg(positional[0], names.join(QStringLiteral(", "))));
            QCommandLineParser parser;
            parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
            const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                          QStringLiteral("Show this help."));
            parser.addOption(help);
            mode->declareOptions(parser);
            QStringList arguments = positional.mid(1);
            arguments.prepend(QStringLiteral("swb bench %1").arg(mode->name));
            if (!parser.parse(arguments))
                failBadInput(
                    QStringLiteral("%1 (see 'swb bench %2 --help')")
                        .arg(parser.errorText().chopped(parser.errorText().endsWith('.') ? 1 : 0), mode->name));
            if (parser.isSet(help)) {
                printModeHelp(*mode, inv.out);
                return 0;
            }
            if (!parser.positionalArguments().isEmpty())
                failBadInput(QStringLiteral("unexpected argument '%1' (see 'swb bench %2 --help')")
                                 .arg(parser.positionalArguments().first(), mode->name));
            return mode->run(Invocation{parser, inv.out, inv.err});
        },
    };
}

} // namespace swb::cli
