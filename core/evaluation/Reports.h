#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <QDateTime>
#include <QString>
#include <QStringList>

#include "Result.h"
#include "evaluation/Experiments.h"
#include "evaluation/Statistics.h"
#include "storage/ReportQueries.h"
#include "storage/RunRepository.h"

class QIODevice;

namespace swb {

class Database;

// The tables of an evaluation report. Each is a list of plain rows; writeCsv() writes any of them.
enum class ReportKind { Runs, Steps, Ratings, Preferences, Summary, Pairwise, Agreement, Raters, Experiments };

// How the summary's statistics are computed.
struct ReportOptions {
    int bootstrapRounds = 1000;
    // Seeds every bootstrap: Bradley-Terry intervals use seed; the mean of dimension d of strategy s uses
    // seed + 1 + s * dimensions + d (strategies and dimensions in report order).
    std::uint64_t seed = 0;
    // One virtual tie between every pair of strategies: keeps Bradley-Terry scores finite when a strategy
    // never wins or never loses (common in bootstrap resamples of a small evaluation); negligible with
    // hundreds of battles. 0 gives FastChat's plain maximum-likelihood fit.
    double bradleyTerryPriorTies = 1.0;
    double eloK = 4.0; // FastChat's compute_online_elo
    stats::EloScale elo;
    // A rater is suggested for setting aside below these (the evaluation guide's defaults).
    double goldAccuracyThreshold = 0.6;
    double alphaRiseThreshold = 0.05;
};

// A run as one row: its inputs and outputs, without steps.
// RunReportRow and StepReportRow: storage/ReportQueries.h.

struct RatingReportRow {
    qint64 runId = 0;
    qint64 strategyId = 0;
    QString strategy;
    QString rater;
    QString dimension;
    double score = 0.0;
    QString note;
};

struct PreferenceReportRow {
    struct Slot {
        QString label; // blind label shown to the rater
        int slot = 0;
        QString strategy;
    };
    qint64 comparisonId = 0;
    QString prompt;
    QString rater;
    QString winner;         // the winning slot's blind label, "tie" or "bothbad"
    QString winnerStrategy; // empty for tie and bothbad
    QString note;
    std::vector<Slot> entries; // in label order ("slots" is a Qt macro)
};

// One rubric dimension of one strategy: mean of its ratings with a bootstrap 95% interval.
struct DimensionSummary {
    QString dimension;
    double mean = stats::kNaN;
    stats::Interval interval;
    int n = 0;
};

// A pair of strategies: every battle between them (see Reports for how preferences become battles).
struct PairwiseRow {
    QString strategyA;
    QString strategyB;
    int winsA = 0;
    int winsB = 0;
    int ties = 0;
    int bothBad = 0;
    double winRateA = stats::kNaN; // (winsA + (ties + bothBad) / 2) / battles
    double signTestP = stats::kNaN; // exact two-sided sign test of winsA against winsB (ties left out)
    double holmP = stats::kNaN;     // signTestP adjusted by Holm across all pairs
};

// Which strategy the preferences pick, with the evidence: the one that beats every other strategy in the
// sign test at Holm-adjusted p < 0.05; else none, with the decisive battles a clear result would need.
struct PreferenceVerdict {
    enum class Kind { NoPreferences, Winner, LeaderNotClear, LeaderNotAhead, Unranked };
    Kind kind = Kind::NoPreferences;
    int winner = -1;   // index into SummaryReport::strategies; -1: no clear winner
    double worstHolmP = stats::kNaN; // the winner's largest adjusted p against another strategy
    // Without a winner: the Bradley-Terry leader, its closest rival (largest adjusted p), their decisive
    // battles, and about how many more the pair needs.
    int leader = -1;
    int rival = -1;
    int leaderWins = 0;
    int rivalWins = 0;
    double rivalHolmP = stats::kNaN;
    int furtherBattles = -1;
    QString evidence;  // the verdict in one sentence (English, as the CSV gives it)
    QString dimension; // the rubric dimension judged; empty for preferences
};

struct StrategySummary {
    qint64 strategyId = 0;
    QString strategy;
    int runs = 0;
    std::vector<DimensionSummary> dimensions; // one per SummaryReport::dimensions, same order
    double bradleyTerry = stats::kNaN;
    stats::Interval bradleyTerryInterval;
    // Bradley-Terry with the outputs' length difference as a covariate (FastChat's style control): what is
    // left of the strategy's strength when longer outputs winning is accounted for.
    double bradleyTerryLengthControlled = stats::kNaN;
    double onlineElo = stats::kNaN;
    int battles = 0;
    double winRate = stats::kNaN; // (wins + (ties + bothBad) / 2) / battles
    double meanLength = stats::kNaN;
    double meanPerplexity = stats::kNaN;
    double meanRawEntropy = stats::kNaN;
    double distinct1 = stats::kNaN;
    double distinct2 = stats::kNaN;
    double distinct3 = stats::kNaN;
    double rep4 = stats::kNaN;
};

// Inter-rater agreement on one dimension: units are runs, coders are raters.
struct AgreementRow {
    QString dimension;
    double alphaOrdinal = stats::kNaN;
    double alphaInterval = stats::kNaN;
    int units = 0;         // runs with at least two ratings on the dimension
    double pairable = 0.0; // ratings in those runs
    int raters = 0;
    stats::Interval alphaOrdinalInterval; // 95% bootstrap over the runs (units) resampled
};

struct RaterRow {
    QString rater;
    int ratings = 0;
    int preferences = 0;
    int goldAnswered = 0; // preferences on gold comparisons with a known winner
    int goldCorrect = 0;
    double goldAccuracy = stats::kNaN;
    // Ordinal alpha of each dimension (SummaryReport::dimensions' order) with this rater set aside, and the
    // mean over the dimensions of (alpha without - alpha with everyone): positive when agreement rises
    // without them.
    std::vector<double> alphaWithout;
    double alphaChange = stats::kNaN;
    // Median seconds between the rater's consecutive answers (a run's ratings, or a preference; saves within a
    // second of each other are one answer), gaps over 30 minutes left out as breaks; NaN with fewer than two.
    double medianSecondsPerItem = stats::kNaN;
    // Share of the rater's rated runs whose scores are all the same as on the run they rated just before
    // (straight-lining); NaN with fewer than two rated runs.
    double straightLining = stats::kNaN;
    QString setAside;   // the reason the rater is set aside; empty while they count
    QString suggestion; // why they might be set aside (below a threshold); empty otherwise
};

struct SummaryReport {
    QStringList dimensions; // rated dimensions: in rubric order (rubrics by id), then others by name
    std::vector<StrategySummary> strategies;
    std::vector<PairwiseRow> pairwise;
    PreferenceVerdict preferenceVerdict;
    // Per rubric dimension (in dimensions' order), the same verdict from the ratings: within each comparison
    // the strategies' runs compared by their mean score, a sign test per pair, Holm across the pairs.
    std::vector<PreferenceVerdict> dimensionVerdicts;
    // What the figures use: raters set aside (with their ratings and preferences) are left out.
    int ratersUsed = 0;
    int ratingsUsed = 0;
    int preferencesUsed = 0;
    int ratersSetAside = 0;
    // The length-controlled fit's log-odds of winning per unit of scaled length difference (NaN: undefined).
    double lengthCoefficient = stats::kNaN;
    std::vector<AgreementRow> agreement;
    std::vector<RaterRow> raters;
};

// Builds the evaluation reports from a run store.
//
// Strategies are the stored, deduplicated strategies that have runs, by id; a strategy's label is its
// name ("strategy N" when unnamed), with " #N" appended when two strategies share a name.
//
// Preferences become battles between strategies, in the order they were first given: a winning slot beats
// every other slot of its comparison; a tie or bothbad is a tie between every pair of slots (FastChat
// counts "tie (bothbad)" as a tie). Battles between two slots of the same strategy are dropped. Bradley-Terry
// scores, online Elo and win rates use these battles; a tie counts as half a win for each side.
//
// Text metrics per strategy: mean length in tokens, mean of the runs' perplexities and of their mean raw
// entropies, distinct-1/2/3 over all the strategy's runs together (Li et al. 2016), mean rep-4 over runs
// with at least four tokens. Every run in the store counts, branches included.
//
// Gold accuracy: comparisons marked gold whose gold_winner is a blind label, "tie" or "bothbad".
class Reports {
public:
    // modelHash: the content hash of the one model whose runs the reports count (with the ratings of those runs,
    // and the comparisons and preferences whose outputs all came from it); empty: every model.
    explicit Reports(Database& database, QString modelHash = {})
        : m_db(database)
        , m_modelHash(std::move(modelHash)) {}

    // The token's text for a step, given the path of the model its run came from; may return empty.
    using TokenText = std::function<QString(const QString& modelPath, int tokenId)>;

    Result<std::vector<RunReportRow>> runs();
    // Streams the steps in run and step order (a store may hold millions).
    Status forEachStep(const std::function<void(const StepReportRow&)>& visit, const TokenText& tokenText = {});
    Result<std::vector<RatingReportRow>> ratings();
    Result<std::vector<PreferenceReportRow>> preferences();
    Result<SummaryReport> summary(const ReportOptions& options = {});
    // swb serve's experiments, newest first, each as it stands (every model's: an experiment's arms are
    // strategies, whatever model served them).
    Result<std::vector<ExperimentAnalysis>> experiments(ExperimentDetail detail = ExperimentDetail::Figures);

    // The report as CSV (CsvWriter: RFC 4180, UTF-8, CRLF, formula cells neutralised).
    Status writeCsv(ReportKind kind, QIODevice& device, const ReportOptions& options = {},
                    const TokenText& tokenText = {});

    // The models the store's runs came from: content hash and the path recorded (the latest), by path.
    using ModelEntry = StoredModel;
    static Result<std::vector<ModelEntry>> models(Database& database);
    // A model of the store named by its path (as recorded), its content hash or an unambiguous prefix of it (8+
    // hex digits); one sentence listing the store's models when none or several match.
    static Result<QString> resolveModel(Database& database, const QString& pathOrHash);

    static QStringList kindNames(); // runs, steps, ratings, preferences, summary, pairwise, agreement, raters,
                                    // experiments
    static std::optional<ReportKind> kindFromName(const QString& name);

private:
    Database& m_db;
    QString m_modelHash;
};

} // namespace swb
