#pragma once

#include <functional>
#include <string>
#include <vector>

#include <QCommandLineParser>
#include <QFile>
#include <QString>
#include <QTextStream>

namespace swb::cli {

// Thrown inside the CLI layer only, caught by runSwb(): exit status and one sentence for stderr.
struct Failure {
    int status;
    QString message;
};

[[noreturn]] inline void failBadInput(const QString& message) {
    throw Failure{2, message};
}
[[noreturn]] inline void failInternal(const QString& message) {
    throw Failure{1, message};
}

// What a running subcommand sees: its parsed arguments and the two output streams.
struct Invocation {
    const QCommandLineParser& args;
    QTextStream& out;
    QTextStream& err;

    // The value of a required option; a missing one is a usage error (exit 2).
    QString required(const QString& option) const;
    // An integer option within [min, max], or fallback when absent.
    long long integer(const QString& option, long long fallback, long long min, long long max) const;
    // A floating-point option (finite), or fallback when absent.
    double real(const QString& option, double fallback) const;
};

// Bytes as they are onto the stream's device: decoded text may hold any byte sequence, which a QString
// round trip would mangle.
void writeBytes(QTextStream& out, const std::string& bytes);
// Opens path for reading, "-" meaning standard input; a Failure (exit 2) naming the file when it cannot.
void openInput(QFile& file, const QString& path);
// The whole of an input opened by openInput, at most kMaxInputFileBytes (InputFile.h); a Failure naming the
// file past that.
QByteArray readInput(QFile& file, const QString& path);

// One `swb` subcommand: its name, usage line, one-line summary, options and body.
struct Subcommand {
    QString name;
    QString synopsis;
    QString summary;
    std::function<void(QCommandLineParser&)> declareOptions;
    std::function<int(const Invocation&)> run;
    // Maintainers' tools (train-demo, perplexity): runnable, but left out of `swb --help`.
    bool hidden = false;
    // Options besides --out, --trace and --write-random-model whose value is a file the command writes (the
    // output-path rule refuses them onto the command's inputs and the store's files).
    QStringList outputOptions = {};
};

// Every subcommand, in the order `swb --help` lists them. Each group registers itself in its own file.
std::vector<Subcommand> allSubcommands();

// tokenize, detokenize (TokenizerCommands.cpp).
std::vector<Subcommand> tokenizerSubcommands();
// sample (SamplingCommands.cpp).
std::vector<Subcommand> samplingSubcommands();
// render-template, chat (ChatCommands.cpp).
std::vector<Subcommand> chatSubcommands();
// generate (GenerateCommand.cpp), batch (BatchCommand.cpp).
Subcommand generateSubcommand();
Subcommand batchSubcommand();
// sweep (SweepCommand.cpp).
Subcommand sweepSubcommand();
// serve (ServeCommand.cpp).
Subcommand serveSubcommand();
// export (ExportCommand.cpp); import-ratings, import-preferences, rater (ImportCommands.cpp).
Subcommand exportSubcommand();
// campaign (CampaignCommand.cpp).
Subcommand campaignSubcommand();
std::vector<Subcommand> importSubcommands();
// info (ModelCommands.cpp).
std::vector<Subcommand> modelSubcommands();
// quantize (QuantizeCommands.cpp).
std::vector<Subcommand> quantizationSubcommands();
// train-demo, perplexity (DemoCommands.cpp), both hidden.
std::vector<Subcommand> demoSubcommands();

// One mode of `swb bench MODE [options]`: what it measures, its options and body. Its run prints one JSON
// object of figures.
struct BenchMode {
    QString name;
    QString summary;
    std::function<void(QCommandLineParser&)> declareOptions;
    std::function<int(const Invocation&)> run;
};

// This process's memory from /proc/self/status, in bytes (zeros where unknown): resident now (VmRSS) and its
// anonymous and file-backed parts (RssAnon, RssFile), and the peak (VmHWM).
struct ProcessMemory {
    qint64 resident = 0;
    qint64 anonymous = 0;
    qint64 fileBacked = 0;
    qint64 peak = 0;
};
ProcessMemory processMemory();

// Every bench mode, in the order `swb help bench` lists them (BenchCommand.cpp). Each group registers its
// modes in its own file, like subcommands.
std::vector<BenchMode> allBenchModes();
// tokenize (BenchTokenizeCommand.cpp).
std::vector<BenchMode> tokenizerBenchModes();
// sampling (SamplingCommands.cpp).
std::vector<BenchMode> samplingBenchModes();
// storage (StorageBenchCommand.cpp).
std::vector<BenchMode> storageBenchModes();
// decode (ModelCommands.cpp).
std::vector<BenchMode> modelBenchModes();
// serve (ServeBenchCommand.cpp).
std::vector<BenchMode> serveBenchModes();
// experiment (ExperimentBenchCommand.cpp).
std::vector<BenchMode> experimentBenchModes();
// rating (RatingBenchCommand.cpp).
std::vector<BenchMode> ratingBenchModes();
// `swb bench`, dispatching to the modes (BenchCommand.cpp).
Subcommand benchSubcommand();

} // namespace swb::cli
