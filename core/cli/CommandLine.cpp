#include "cli/CommandLine.h"

#include <cmath>
#include <exception>

#include <QCoreApplication>
#include <QTextStream>

#include "cli/Subcommand.h"
#include "storage/FileIdentity.h"

namespace swb::cli {

QString Invocation::required(const QString& option) const {
    if (!args.isSet(option))
        failBadInput(QStringLiteral("missing required option --%1").arg(option));
    return args.value(option);
}

long long Invocation::integer(const QString& option, long long fallback, long long min, long long max) const {
    if (!args.isSet(option))
        return fallback;
    bool ok = false;
    const long long value = args.value(option).toLongLong(&ok);
    if (!ok || value < min || value > max)
        failBadInput(QStringLiteral("--%1 must be an integer from %2 to %3, not '%4'")
                         .arg(option)
                         .arg(min)
                         .arg(max)
                         .arg(args.value(option)));
    return value;
}

double Invocation::real(const QString& option, double fallback) const {
    if (!args.isSet(option))
        return fallback;
    bool ok = false;
    const double value = args.value(option).toDouble(&ok);
    if (!ok || !std::isfinite(value))
        failBadInput(QStringLiteral("--%1 must be a finite number, not '%2'").arg(option, args.value(option)));
    return value;
}

namespace {

const Subcommand* findSubcommand(const std::vector<Subcommand>& all, const QString& name) {
    for (const Subcommand& command : all)
        if (command.name == name)
            return &command;
    return nullptr;
}

void printOverview(const std::vector<Subcommand>& all, QTextStream& out) {
    out << "Usage: swb SUBCOMMAND [OPTIONS]\n"
        << "Sampling Workbench command-line tool: inspect models, tokenize, sample and generate with traces,\n"
        << "run batches into the run store, measure performance.\n\n"
        << "Subcommands:\n";
    for (const Subcommand& command : all)
        if (!command.hidden)
            out << "  " << command.name.leftJustified(20) << command.summary << '\n';
    out << "\nGeneral options:\n"
        << "  --help, -h         show this help; 'swb help SUBCOMMAND' or 'swb SUBCOMMAND --help' for one\n"
        << "  --version, -v      print the version\n\n"
        << "Exit status: 0 success, 2 bad input or usage, 1 internal failure.\n";
}

void printSubcommandHelp(const Subcommand& command, QTextStream& out) {
    QCommandLineParser parser;
    command.declareOptions(parser);
    out << "Usage: " << command.synopsis << "\n" << command.summary << "\n";
    const QString help = parser.helpText();
    // helpText() starts with its own "Usage:" line for the program; keep only the option table.
    const qsizetype options = help.indexOf(QLatin1String("Options:"));
    if (options >= 0)
        out << '\n' << help.mid(options);
}

// The store companion's part in a sentence: "the write-ahead log of".
QString companionRole(const QString& file) {
    const QString suffix = storeCompanionSuffix(file);
    if (suffix == QLatin1String("-wal"))
        return QStringLiteral("the write-ahead log of");
    if (suffix == QLatin1String("-shm"))
        return QStringLiteral("the shared-memory file of");
    if (suffix == QLatin1String("-journal"))
        return QStringLiteral("the journal of");
    return {};
}

// The one output-path rule of every subcommand, before it reads or writes anything: a file it writes
// (--out, --trace, --write-random-model, the command's own outputOptions) is never one of its inputs (any other
// option's value or argument that names a file: the store, a model or its folder's files, a prompt, messages, template
// or strategy file), through any path or link, nor the companion of any existing run store (its -wal, -shm,
// -journal); and a store is never named by a companion.
void refuseOutputsOntoInputs(const QCommandLineParser& parser, const QStringList& commandOutputs) {
    const QStringList outputs =
        QStringList{QStringLiteral("out"), QStringLiteral("trace"), QStringLiteral("write-random-model")} +
        commandOutputs;
    const QStringList given = parser.optionNames(); // isSet() would warn about options a command lacks
    for (const QString& store : given.contains(QLatin1String("db")) ? parser.values(QStringLiteral("db")) : QStringList{})
        if (const QString role = companionRole(store); !role.isEmpty())
            failBadInput(QStringLiteral("--db %1 is %2 another run store, not a store; name the store itself")
                             .arg(store, role));
    for (const QString& output : outputs) {
        if (!given.contains(output))
            continue;
        const QString target = parser.value(output);
        if (const QString store = storeOwningCompanion(target); !store.isEmpty())
            failBadInput(QStringLiteral("--%1 %2 is %3 the run store %4; choose another file")
                             .arg(output, target, companionRole(target), store));
        for (const QString& name : given) {
            if (outputs.contains(name))
                continue;
            for (const QString& input : parser.values(name)) {
                if (name == QLatin1String("db")) {
                    const QString file = overwrittenStoreFile(target, input);
                    if (file == input)
                        failBadInput(QStringLiteral("--%1 %2 is the run store (--db %3); choose another file")
                                         .arg(output, target, input));
                    if (!file.isEmpty())
                        failBadInput(QStringLiteral("--%1 %2 is %3 the run store %4; choose another file")
                                         .arg(output, target, companionRole(file), input));
                } else if (overwrites(target, input)) {
                    failBadInput(QStringLiteral("--%1 %2 would overwrite this command's input --%3 %4; choose "
                                                "another file")
                                     .arg(output, target, name, input));
                }
            }
        }
        for (const QString& input : parser.positionalArguments())
            if (overwrites(target, input))
                failBadInput(QStringLiteral("--%1 %2 would overwrite this command's input %3; choose another file")
                                 .arg(output, target, input));
    }
}

int runSubcommand(const Subcommand& command, const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    command.declareOptions(parser);
    if (!parser.parse(arguments))
        failBadInput(QStringLiteral("%1 (see 'swb help %2')")
                         .arg(parser.errorText().chopped(parser.errorText().endsWith('.') ? 1 : 0), command.name));
    if (parser.isSet(help)) {
        printSubcommandHelp(command, out);
        return 0;
    }
    refuseOutputsOntoInputs(parser, command.outputOptions);
    return command.run(Invocation{parser, out, err});
}

} // namespace

int runSwb(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    const std::vector<Subcommand> all = allSubcommands();
    const QString first = arguments.value(1);
    int status = 0;
    try {
        if (first.isEmpty() || first == QLatin1String("--help") || first == QLatin1String("-h")) {
            printOverview(all, out);
        } else if (first == QLatin1String("--version") || first == QLatin1String("-v")) {
            out << "swb " << QStringLiteral(SWB_VERSION) << '\n';
        } else if (first == QLatin1String("help")) {
            const QString name = arguments.value(2);
            if (name.isEmpty()) {
                printOverview(all, out);
            } else if (const Subcommand* command = findSubcommand(all, name)) {
                printSubcommandHelp(*command, out);
            } else {
                failBadInput(QStringLiteral("unknown subcommand '%1' (see 'swb --help')").arg(name));
            }
        } else if (first.startsWith('-')) {
            failBadInput(QStringLiteral("unknown option '%1' (see 'swb --help')").arg(first));
        } else if (const Subcommand* command = findSubcommand(all, first)) {
            QStringList rest = arguments.mid(2);
            rest.prepend(QStringLiteral("swb %1").arg(first));
            status = runSubcommand(*command, rest, out, err);
        } else {
            failBadInput(QStringLiteral("unknown subcommand '%1' (see 'swb --help')").arg(first));
        }
    } catch (const Failure& failure) {
        out.flush();
        err << "swb: " << failure.message << '\n';
        status = failure.status;
    } catch (const std::exception& e) {
        out.flush();
        // An exception escaping a subcommand is our bug, never the user's; keep it to one line.
        err << "swb: internal error: " << QString::fromLocal8Bit(e.what()).section('\n', 0, 0) << '\n';
        status = 1;
    }
    out.flush();
    // What was printed must have reached standard output (a full disk, a closed pipe, a size limit).
    if (out.status() == QTextStream::WriteFailed && status == 0) {
        err << "swb: cannot write to standard output\n";
        status = 2;
    }
    err.flush();
    return status;
}

} // namespace swb::cli
