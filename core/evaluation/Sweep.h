#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "Result.h"
#include "evaluation/Statistics.h"
#include "sampling/Strategy.h"

class QIODevice;

namespace swb {

// One axis of a parameter sweep: a sampler's parameter and the values it takes, written
// "SAMPLER.PARAM=V1,V2,..." (e.g. "temperature.value=0.5,0.7,1.0" or "min_p.p=0,0.05,0.1").
struct SweepAxis {
    QString sampler;
    QString param;
    std::vector<double> values;

    static Result<SweepAxis> parse(const QString& text);
    QString label() const { return sampler + QLatin1Char('.') + param; } // "min_p.p"
    QString toString() const;                                             // as parse() reads it
    bool operator==(const SweepAxis&) const = default;
};

// A grid of one or two parameters of a strategy, run over a prompt set and samples: cell (i, j) is the base
// strategy with x at x.values[i] and y at y.values[j]. Sample k of every cell uses seed + k (the same draws
// wherever the cells agree), so cells differ only in the swept parameters.
struct SweepSpec {
    Strategy base;
    SweepAxis x;
    std::optional<SweepAxis> y;
    QStringList prompts; // raw prompts
    int samples = 4;
    std::uint64_t seed = 0;
    int maxTokens = 64;

    int columns() const { return static_cast<int>(x.values.size()); }
    int rows() const { return y ? static_cast<int>(y->values.size()) : 1; }
    int runsPerCell() const { return static_cast<int>(prompts.size()) * samples; }

    // {"base": strategy, "x": "temperature.value=...", "y": "...", "prompts": [...], "samples": 4, "seed": 0,
    //  "max_tokens": 64}; every field checked (at most 16 values per axis, 1..1000 samples, 1..4096 tokens,
    //  every cell a valid strategy).
    static Result<SweepSpec> fromJson(const QJsonObject& json);
    QJsonObject toJson() const;
    // Checks the grid and that every cell makes a valid strategy; one sentence naming what is wrong.
    Status validate() const;
};

// The strategy of cell (column, row): the base with the axes' values set. A sampler the base lacks is added
// before the selector, with its other parameters at their defaults (then re-ordered for the base's engine
// order). Named "x=…, y=…" after the cell.
Result<Strategy> sweepCellStrategy(const SweepSpec& spec, int column, int row);

// Automatic metrics of one cell, over its runs (each a list of step traces).
struct SweepCellMetrics {
    int runs = 0;
    double meanLength = stats::kNaN;     // tokens per run
    double meanRawEntropy = stats::kNaN; // nats: the mean over runs of each run's mean raw entropy
    double perplexity = stats::kNaN;     // exp(-mean ln raw p) over every token of the cell's runs
    double distinct1 = stats::kNaN;      // over the cell's runs together (n-grams never span two runs)
    double distinct2 = stats::kNaN;
    double rep4 = stats::kNaN;      // mean over runs that have a 4-gram
    double loopShare = stats::kNaN; // share of runs with a repetition loop (stats::findRepetitionLoops)
};
SweepCellMetrics sweepCellMetrics(const std::vector<std::vector<StepTrace>>& runs);

// The metrics a sweep's heatmap can show, in menu order: the CSV column ("mean_raw_entropy") and a reader. The
// interface names them (SweepView::metricTitle).
struct SweepMetric {
    QString key;
    double (*value)(const SweepCellMetrics&);
};
const std::vector<SweepMetric>& sweepMetrics();

// One row per cell: x, y (empty without a y axis), runs and every metric. CRLF, RFC 4180.
struct SweepCellResult {
    int column = 0;
    int row = 0;
    SweepCellMetrics metrics;
};
bool writeSweepCsv(QIODevice& out, const SweepSpec& spec, const std::vector<SweepCellResult>& cells);

} // namespace swb
