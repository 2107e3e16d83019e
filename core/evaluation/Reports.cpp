#include "evaluation/Reports.h"

#include <algorithm>
#include <map>
#include <set>

#include <QFileDevice>
#include <QHash>
#include <QIODevice>
#include <QSet>

#include "evaluation/CsvWriter.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "storage/ReportQueries.h"

namespace swb {

namespace {

QString timeText(const QDateTime& time) {
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString optionalText(const std::optional<qint64>& value) {
    return value ? QString::number(*value) : QString();
}

// Strategies with runs, by id, labelled; and which strategy each run used.
struct StrategyIndex {
    std::vector<ReportStrategy> strategies; // name: the label (a number, or #id where names repeat)
    QHash<qint64, int> byStrategyId;
    QHash<qint64, int> byRunId; // run id -> position in strategies
};

Result<StrategyIndex> loadStrategyIndex(Database& db, const QString& modelHash) {
    ReportQueries queries(db, modelHash);
    Result<std::vector<ReportStrategy>> strategies = queries.strategies();
    if (!strategies)
        return strategies.error();
    StrategyIndex index;
    QHash<QString, int> nameCount;
    for (const ReportStrategy& strategy : strategies.value()) {
        ReportStrategy entry = strategy;
        if (entry.name.isEmpty())
            entry.name = QStringLiteral("strategy %1").arg(entry.id);
        ++nameCount[entry.name];
        index.byStrategyId.insert(entry.id, static_cast<int>(index.strategies.size()));
        index.strategies.push_back(std::move(entry));
    }
    for (ReportStrategy& entry : index.strategies)
        if (nameCount.value(entry.name) > 1)
            entry.name += QStringLiteral(" #%1").arg(entry.id);
    Result<std::vector<std::pair<qint64, qint64>>> runs = queries.runStrategies();
    if (!runs)
        return runs.error();
    for (const auto& [runId, strategyId] : runs.value())
        index.byRunId.insert(runId, index.byStrategyId.value(strategyId, -1));
    return index;
}

// A battle with what decided it, for the pairwise table (which counts bothbad apart from ties).
struct RecordedBattle {
    stats::Battle battle;
    bool bothBad = false;
    qint64 runA = 0; // the runs behind the battle's two sides
    qint64 runB = 0;
};

std::vector<RecordedBattle> battlesOf(const std::vector<PreferenceRecord>& preferences,
                                      const std::map<qint64, ComparisonRecord>& comparisons,
                                      const StrategyIndex& index) {
    std::vector<RecordedBattle> battles;
    for (const PreferenceRecord& preference : preferences) {
        const auto comparison = comparisons.find(preference.comparisonId);
        if (comparison == comparisons.end())
            continue;
        const std::vector<ComparisonRecord::Entry>& entries = comparison->second.entries;
        auto strategyOf = [&](const ComparisonRecord::Entry& entry) { return index.byRunId.value(entry.runId, -1); };
        if (preference.winner == PreferenceWinner::Slot) {
            const auto winner = std::find_if(entries.begin(), entries.end(),
                                             [&](const auto& e) { return e.slot == preference.winnerSlot; });
            if (winner == entries.end())
                continue;
            for (const ComparisonRecord::Entry& other : entries) {
                const int a = strategyOf(*winner);
                const int b = strategyOf(other);
                if (other.slot != winner->slot && a >= 0 && b >= 0 && a != b)
                    battles.push_back({{a, b, stats::BattleOutcome::AWins}, false, winner->runId, other.runId});
            }
        } else {
            for (std::size_t i = 0; i < entries.size(); ++i)
                for (std::size_t j = i + 1; j < entries.size(); ++j) {
                    const int a = strategyOf(entries[i]);
                    const int b = strategyOf(entries[j]);
                    if (a >= 0 && b >= 0 && a != b)
                        battles.push_back({{a, b, stats::BattleOutcome::Tie},
                                           preference.winner == PreferenceWinner::BothBad,
                                           entries[i].runId,
                                           entries[j].runId});
                }
        }
    }
    return battles;
}

Result<std::map<qint64, ComparisonRecord>> loadComparisons(Database& db) {
    ComparisonRepository repository(db);
    Result<std::vector<ComparisonRecord>> list = repository.listComparisons();
    if (!list)
        return list.error();
    std::map<qint64, ComparisonRecord> comparisons;
    for (ComparisonRecord& comparison : list.value())
        comparisons.emplace(comparison.id, std::move(comparison));
    return comparisons;
}

// Strategies, comparisons and preferences: what every report on preferences starts from.
// Preferences and ratings of raters set aside are kept apart: every figure is computed without them.
struct Judgements {
    StrategyIndex index;
    std::map<qint64, ComparisonRecord> comparisons;
    std::vector<PreferenceRecord> preferences; // of the raters who count
    std::vector<PreferenceRecord> allPreferences;
    QSet<qint64> setAside; // rater ids
};

Result<QSet<qint64>> setAsideRaters(Database& db) {
    Result<std::vector<RaterRecord>> raters = RatingRepository(db).listRaters();
    if (!raters)
        return raters.error();
    QSet<qint64> ids;
    for (const RaterRecord& rater : raters.value())
        if (!rater.setAside.isEmpty())
            ids.insert(rater.id);
    return ids;
}

template <typename Record> std::vector<Record> counted(const std::vector<Record>& all, const QSet<qint64>& setAside) {
    std::vector<Record> kept;
    for (const Record& r : all)
        if (!setAside.contains(r.raterId))
            kept.push_back(r);
    return kept;
}

Result<Judgements> loadJudgements(Database& db, const QString& modelHash) {
    Result<StrategyIndex> index = loadStrategyIndex(db, modelHash);
    if (!index)
        return index.error();
    Result<std::map<qint64, ComparisonRecord>> comparisons = loadComparisons(db);
    if (!comparisons)
        return comparisons.error();
    Result<std::vector<PreferenceRecord>> preferences = RatingRepository(db).listPreferences();
    if (!preferences)
        return preferences.error();
    if (!modelHash.isEmpty()) {
        // One model's report: its comparisons (every output of that model) and the preferences on them.
        for (auto it = comparisons->begin(); it != comparisons->end();) {
            const bool ours =
                std::all_of(it->second.entries.begin(), it->second.entries.end(),
                            [&](const ComparisonRecord::Entry& e) { return index->byRunId.contains(e.runId); });
            it = ours ? std::next(it) : comparisons->erase(it);
        }
        std::erase_if(preferences.value(),
                      [&](const PreferenceRecord& p) { return !comparisons->count(p.comparisonId); });
    }
    Result<QSet<qint64>> setAside = setAsideRaters(db);
    if (!setAside)
        return setAside.error();
    std::vector<PreferenceRecord> kept = counted(preferences.value(), setAside.value());
    return Judgements{std::move(index).value(), std::move(comparisons).value(), std::move(kept),
                      std::move(preferences).value(), std::move(setAside).value()};
}

// The rated dimensions in rubric order (rubrics by id), then the others by name.
Result<QStringList> ratedDimensions(Database& db, const std::vector<RatingRecord>& ratings) {
    std::set<QString> rated;
    for (const RatingRecord& rating : ratings)
        rated.insert(rating.dimension);
    Result<std::vector<Rubric>> rubrics = RatingRepository(db).listRubrics();
    if (!rubrics)
        return rubrics.error();
    QStringList dimensions;
    for (const Rubric& rubric : rubrics.value())
        for (const RubricDimension& dimension : rubric.dimensions)
            if (rated.contains(dimension.name) && !dimensions.contains(dimension.name))
                dimensions << dimension.name;
    for (const QString& name : rated)
        if (!dimensions.contains(name))
            dimensions << name;
    return dimensions;
}

// Agreement per dimension, and each rater's leave-one-out ordinal alpha per dimension (by rater name).
std::vector<AgreementRow> agreementOf(const QStringList& dimensions, const std::vector<RatingRecord>& ratings,
                                      const ReportOptions& options,
                                      std::map<QString, std::vector<double>>* alphaWithout) {
    std::vector<AgreementRow> rows;
    std::map<qint64, QString> names;
    for (const RatingRecord& rating : ratings)
        names.emplace(rating.raterId, rating.raterName);
    for (auto& [id, name] : names)
        (*alphaWithout)[name].assign(static_cast<std::size_t>(dimensions.size()), stats::kNaN);
    for (qsizetype d = 0; d < dimensions.size(); ++d) {
        const QString& dimension = dimensions[d];
        std::map<qint64, int> units;
        std::map<qint64, int> coders;
        for (const RatingRecord& rating : ratings)
            if (rating.dimension == dimension) {
                units.emplace(rating.runId, static_cast<int>(units.size()));
                coders.emplace(rating.raterId, static_cast<int>(coders.size()));
            }
        std::vector<std::vector<double>> matrix(units.size(), std::vector<double>(coders.size(), stats::kNaN));
        for (const RatingRecord& rating : ratings)
            if (rating.dimension == dimension)
                matrix[static_cast<std::size_t>(units.at(rating.runId))]
                      [static_cast<std::size_t>(coders.at(rating.raterId))] = rating.score;
        const stats::AlphaResult ordinal = stats::krippendorffAlpha(matrix, stats::AlphaMetric::Ordinal);
        const stats::AlphaResult interval = stats::krippendorffAlpha(matrix, stats::AlphaMetric::Interval);
        rows.push_back({dimension, ordinal.alpha, interval.alpha, ordinal.units, ordinal.pairable,
                        static_cast<int>(coders.size()),
                        stats::krippendorffAlphaInterval(matrix, stats::AlphaMetric::Ordinal, options.bootstrapRounds,
                                                         options.seed + 7919 + static_cast<std::uint64_t>(d))});
        for (const auto& [raterId, column] : coders)
            (*alphaWithout)[names.at(raterId)][static_cast<std::size_t>(d)] =
                stats::krippendorffAlphaWithout(matrix, static_cast<std::size_t>(column), stats::AlphaMetric::Ordinal)
                    .alpha;
    }
    return rows;
}

// Each rater's pace and straight-lining, from the times and scores of their answers.
void paceOf(const std::vector<RatingRecord>& ratings, const std::vector<PreferenceRecord>& preferences,
            std::vector<RaterRow>& rows) {
    // Each rater's own records, gathered once.
    std::map<QString, std::vector<const RatingRecord*>> ratingsOf;
    for (const RatingRecord& r : ratings)
        ratingsOf[r.raterName].push_back(&r);
    std::map<QString, std::vector<QDateTime>> preferenceTimes;
    for (const PreferenceRecord& p : preferences)
        preferenceTimes[p.raterName].push_back(p.createdAt);
    for (RaterRow& row : rows) {
        std::map<qint64, QDateTime> runTimes;                  // run -> its last rating's time
        std::map<qint64, std::map<QString, double>> runScores; // run -> dimension -> score
        std::map<qint64, qint64> runOrder;                     // run -> its first rating's id (answer order)
        for (const RatingRecord* r : ratingsOf[row.rater]) {
            QDateTime& t = runTimes[r->runId];
            if (!t.isValid() || r->createdAt > t)
                t = r->createdAt;
            runScores[r->runId][r->dimension] = r->score;
            auto [it, inserted] = runOrder.emplace(r->runId, r->id);
            if (!inserted)
                it->second = std::min(it->second, r->id);
        }
        std::vector<QDateTime> times = preferenceTimes[row.rater];
        for (const auto& [run, t] : runTimes)
            times.push_back(t);
        std::sort(times.begin(), times.end());
        // Saves within a second of the one before are one answer (the rating page saves a comparison's scores
        // and its preference together); gaps over 30 minutes are breaks.
        std::vector<double> gaps;
        for (std::size_t i = 1; i < times.size(); ++i) {
            const double seconds = times[i - 1].msecsTo(times[i]) / 1000.0;
            if (seconds >= 1.0 && seconds <= 30 * 60)
                gaps.push_back(seconds);
        }
        if (!gaps.empty())
            row.medianSecondsPerItem = stats::percentile(gaps, 50.0);
        std::vector<std::pair<qint64, qint64>> order; // (first rating id, run)
        for (const auto& [run, id] : runOrder)
            order.emplace_back(id, run);
        std::sort(order.begin(), order.end());
        if (order.size() >= 2) {
            int same = 0;
            for (std::size_t i = 1; i < order.size(); ++i)
                same += runScores[order[i].second] == runScores[order[i - 1].second] ? 1 : 0;
            row.straightLining = static_cast<double>(same) / static_cast<double>(order.size() - 1);
        }
    }
}

// What a gold comparison's gold_winner names: a slot (by blind label), tie or bothbad.
struct GoldWinner {
    PreferenceWinner winner = PreferenceWinner::Tie;
    std::optional<int> slot;
};

std::optional<GoldWinner> goldWinnerOf(const ComparisonRecord& comparison) {
    const QString gold = comparison.goldWinner.trimmed();
    if (const auto winner = PreferenceRecord::winnerFromName(gold.toLower());
        winner && *winner != PreferenceWinner::Slot)
        return GoldWinner{*winner, std::nullopt};
    for (const ComparisonRecord::Entry& entry : comparison.entries)
        if (!gold.isEmpty() && entry.blindLabel.compare(gold, Qt::CaseInsensitive) == 0)
            return GoldWinner{PreferenceWinner::Slot, entry.slot};
    return std::nullopt;
}

std::vector<RaterRow> ratersOf(Database& db, const std::vector<RatingRecord>& ratings,
                               const std::vector<PreferenceRecord>& preferences,
                               const std::map<qint64, ComparisonRecord>& comparisons, Status& status) {
    std::map<QString, RaterRow> rows;
    Result<std::vector<RaterRecord>> raters = RatingRepository(db).listRaters();
    if (!raters) {
        status = raters.error();
        return {};
    }
    for (const RaterRecord& rater : raters.value()) {
        rows[rater.name].rater = rater.name;
        rows[rater.name].setAside = rater.setAside;
    }
    for (const RatingRecord& rating : ratings)
        ++rows[rating.raterName].ratings;
    for (const PreferenceRecord& preference : preferences) {
        RaterRow& row = rows[preference.raterName];
        ++row.preferences;
        const auto comparison = comparisons.find(preference.comparisonId);
        if (comparison == comparisons.end() || !comparison->second.isGold)
            continue;
        const auto gold = goldWinnerOf(comparison->second);
        if (!gold)
            continue;
        ++row.goldAnswered;
        if (gold->winner == preference.winner && gold->slot == preference.winnerSlot)
            ++row.goldCorrect;
    }
    std::vector<RaterRow> list;
    for (auto& [name, row] : rows) {
        row.rater = name;
        if (row.goldAnswered > 0)
            row.goldAccuracy = static_cast<double>(row.goldCorrect) / row.goldAnswered;
        list.push_back(row);
    }
    return list;
}

QString label(int index, const StrategyIndex& strategies) {
    return index >= 0 ? strategies.strategies[static_cast<std::size_t>(index)].name : QString();
}

QStringList runCells(const RunReportRow& run) {
    return {QString::number(run.runId), run.model, QString::number(run.strategyId), run.strategy, run.strategyJson,
            QString::number(run.seed), run.prompt, run.text, QString::number(run.tokens), run.finishReason,
            CsvWriter::number(run.ttftMs), CsvWriter::number(run.tokensPerSecond), optionalText(run.parentRunId),
            run.branchStep ? QString::number(*run.branchStep + 1) : QString(), // counted from 1, as the GUI
            timeText(run.createdAt),
            // How it was computed; an empty cell is unknown (a run stored before schema 6, a remote engine).
            run.setup.threads ? QString::number(*run.setup.threads) : QString(),
            run.setup.fastMath ? (*run.setup.fastMath ? QStringLiteral("true") : QStringLiteral("false")) : QString(),
            run.setup.computeDtype, run.setup.device, run.setup.kernelPath};
}

// One pair of strategies in a sign test: a's wins and b's (ties left out), and the Holm-adjusted p.
struct PairTest {
    int a = 0;
    int b = 0;
    int winsA = 0;
    int winsB = 0;
    double holmP = 1.0;
};

// The strategy that beats every other one in the sign test at Holm-adjusted p < 0.05, if any; else the
// leader by score (Bradley-Terry for preferences, the mean for a dimension) and the decisive pairs its
// closest rival needs (80% power at the level Holm gives the smallest p: 0.05 / pairs). dimension: empty for
// preferences.
PreferenceVerdict verdictOf(int players, const std::vector<PairTest>& tests, const std::vector<double>& scores,
                            const StrategyIndex& index, const QString& dimension) {
    PreferenceVerdict verdict;
    verdict.dimension = dimension;
    const bool preferences = dimension.isEmpty();
    if (tests.empty()) {
        verdict.evidence = preferences
                               ? QStringLiteral("no preferences yet")
                               : QStringLiteral("%1: no comparison has two strategies rated yet").arg(dimension);
        return verdict;
    }
    const QString prefix = preferences ? QString() : dimension + QStringLiteral(": ");
    const auto against = [&](int s, int t, double* holm, int* wins, int* losses) {
        for (const PairTest& test : tests)
            if ((test.a == s && test.b == t) || (test.a == t && test.b == s)) {
                *holm = test.holmP;
                *wins = test.a == s ? test.winsA : test.winsB;
                *losses = test.a == s ? test.winsB : test.winsA;
                return true;
            }
        return false;
    };
    // Strategies that take part (have a pair in the tests); one never compared does not block a winner.
    std::set<int> taking;
    for (const PairTest& test : tests) {
        taking.insert(test.a);
        taking.insert(test.b);
    }
    for (int s = 0; s < players && verdict.winner < 0; ++s) {
        if (!taking.count(s))
            continue;
        double worst = 0.0;
        bool beatsAll = true;
        int opponents = 0;
        for (int t = 0; t < players && beatsAll; ++t) {
            double holm = 1.0;
            int wins = 0, losses = 0;
            if (t == s || !against(s, t, &holm, &wins, &losses))
                continue;
            ++opponents;
            beatsAll = wins > losses && holm < 0.05;
            worst = std::max(worst, holm);
        }
        if (beatsAll && opponents == static_cast<int>(taking.size()) - 1 && opponents > 0) {
            verdict.kind = PreferenceVerdict::Kind::Winner;
            verdict.winner = s;
            verdict.worstHolmP = worst;
            verdict.evidence =
                prefix + QStringLiteral("%1 beats every other strategy (sign test, Holm-adjusted p <= %2)")
                             .arg(label(s, index))
                             .arg(worst, 0, 'g', 3);
        }
    }
    if (verdict.winner >= 0)
        return verdict;
    int leader = -1;
    for (int s = 0; s < players; ++s)
        if (std::isfinite(scores[static_cast<std::size_t>(s)]) &&
            (leader < 0 || scores[static_cast<std::size_t>(s)] > scores[static_cast<std::size_t>(leader)]))
            leader = s;
    if (leader < 0) {
        verdict.kind = PreferenceVerdict::Kind::Unranked;
        verdict.evidence = prefix + QStringLiteral("no clear winner: the data do not rank the strategies");
        return verdict;
    }
    int weakest = -1, weakWins = 0, weakLosses = 0;
    double weakP = -1.0;
    for (int t = 0; t < players; ++t) {
        double holm = 1.0;
        int wins = 0, losses = 0;
        if (t != leader && against(leader, t, &holm, &wins, &losses) && holm >= weakP) {
            weakest = t;
            weakP = holm;
            weakWins = wins;
            weakLosses = losses;
        }
    }
    verdict.leader = leader;
    verdict.rival = weakest;
    verdict.leaderWins = weakWins;
    verdict.rivalWins = weakLosses;
    verdict.rivalHolmP = weakP;
    const int decisive = weakWins + weakLosses;
    // Every decisive battle won (1 to 0 after one battle): no share to plan with, but the exact test says how
    // many such battles it takes.
    const double alpha = 0.05 / double(tests.size());
    const int needed = decisive == 0 ? -1
                       : weakLosses == 0 ? stats::signTestAllWonSize(alpha)
                                         : stats::signTestSampleSize(double(weakWins) / decisive, alpha);
    if (weakest >= 0 && weakWins > weakLosses && needed >= 0) {
        verdict.kind = PreferenceVerdict::Kind::LeaderNotClear;
        verdict.furtherBattles = std::max(0, needed - decisive);
        verdict.evidence =
            prefix + QStringLiteral("no clear winner: %1 leads but not clearly against %2 (%3 to %4, "
                                    "Holm-adjusted p = %5); about %6 more decisive %7 between them at this "
                                    "win share")
                         .arg(label(leader, index), label(weakest, index))
                         .arg(weakWins)
                         .arg(weakLosses)
                         .arg(weakP, 0, 'g', 3)
                         .arg(verdict.furtherBattles)
                         .arg(preferences ? QStringLiteral("battles") : QStringLiteral("comparisons"));
    } else {
        verdict.kind = PreferenceVerdict::Kind::LeaderNotAhead;
        verdict.evidence =
            prefix + QStringLiteral("no clear winner: %1 leads by %2 but does not win more than it loses "
                                    "against every other strategy")
                         .arg(label(leader, index),
                              preferences ? QStringLiteral("Bradley-Terry") : QStringLiteral("mean score"));
    }
    return verdict;
}

PreferenceVerdict preferenceVerdict(int players, const std::map<std::pair<int, int>, PairwiseRow>& pairs,
                                    const std::vector<PairwiseRow>& rows, const StrategyIndex& index,
                                    const std::vector<double>& scores) {
    std::vector<PairTest> tests;
    std::size_t row = 0;
    for (const auto& [key, pair] : pairs)
        tests.push_back({key.first, key.second, pair.winsA, pair.winsB, rows[row++].holmP});
    return verdictOf(players, tests, scores, index, {});
}

// Per dimension: strategies compared within each comparison (its prompt and sample), each run's mean score
// over its raters; a pair's sign test counts the comparisons where one scored higher. Holm across the pairs.
std::vector<PreferenceVerdict> dimensionVerdicts(const SummaryReport& report, const std::vector<RatingRecord>& ratings,
                                                 const std::map<qint64, ComparisonRecord>& comparisons,
                                                 const StrategyIndex& index) {
    std::vector<PreferenceVerdict> verdicts;
    const auto players = static_cast<int>(report.strategies.size());
    for (qsizetype d = 0; d < report.dimensions.size(); ++d) {
        const QString& dimension = report.dimensions[d];
        std::map<qint64, std::pair<double, int>> perRun; // run -> sum, count
        for (const RatingRecord& r : ratings)
            if (r.dimension == dimension) {
                auto& [sum, count] = perRun[r.runId];
                sum += r.score;
                ++count;
            }
        std::map<std::pair<int, int>, std::pair<int, int>> wins; // (lo, hi) -> wins of lo, wins of hi
        for (const auto& [id, comparison] : comparisons) {
            std::vector<std::pair<int, double>> rated; // strategy, mean
            for (const ComparisonRecord::Entry& e : comparison.entries) {
                const auto found = perRun.find(e.runId);
                const int strategy = index.byRunId.value(e.runId, -1);
                if (found != perRun.end() && strategy >= 0)
                    rated.emplace_back(strategy, found->second.first / found->second.second);
            }
            for (std::size_t i = 0; i < rated.size(); ++i)
                for (std::size_t j = i + 1; j < rated.size(); ++j) {
                    auto [s, ms] = rated[i];
                    auto [t, mt] = rated[j];
                    if (s == t || ms == mt)
                        continue;
                    if (s > t) {
                        std::swap(s, t);
                        std::swap(ms, mt);
                    }
                    auto& [lo, hi] = wins[{s, t}];
                    ++(ms > mt ? lo : hi);
                }
        }
        std::vector<PairTest> tests;
        std::vector<double> p;
        for (const auto& [key, w] : wins) {
            tests.push_back({key.first, key.second, w.first, w.second, 1.0});
            p.push_back(stats::signTestPValue(w.first, w.second));
        }
        const std::vector<double> holm = stats::holmAdjust(p);
        for (std::size_t i = 0; i < tests.size(); ++i)
            tests[i].holmP = holm[i];
        std::vector<double> means;
        for (const StrategySummary& s : report.strategies)
            means.push_back(s.dimensions[static_cast<std::size_t>(d)].n > 0
                                ? s.dimensions[static_cast<std::size_t>(d)].mean
                                : stats::kNaN);
        verdicts.push_back(verdictOf(players, tests, means, index, dimension));
    }
    return verdicts;
}

} // namespace

Result<std::vector<Reports::ModelEntry>> Reports::models(Database& database) {
    return ReportQueries::models(database);
}

Result<QString> Reports::resolveModel(Database& database, const QString& pathOrHash) {
    Result<std::vector<ModelEntry>> entries = models(database);
    if (!entries)
        return entries.error();
    QStringList matches;
    Result<QStringList> atPath = ReportQueries::contentHashesAt(database, pathOrHash);
    if (!atPath)
        return atPath.error();
    for (const QString& hash : atPath.value())
        if (std::any_of(entries->begin(), entries->end(), [&](const ModelEntry& e) { return e.contentHash == hash; }))
            matches << hash;
    if (matches.isEmpty() && pathOrHash.size() >= 8)
        for (const ModelEntry& entry : entries.value())
            if (entry.contentHash.startsWith(pathOrHash.toLower()))
                matches << entry.contentHash;
    if (matches.size() == 1)
        return matches.front();
    QStringList known;
    for (const ModelEntry& entry : entries.value())
        known << QStringLiteral("%1 (%2)").arg(entry.path, entry.contentHash.left(12));
    if (matches.isEmpty())
        return Error::badInput(
            QStringLiteral("no run in the store came from the model %1; its models: %2")
                .arg(pathOrHash, known.isEmpty() ? QStringLiteral("none") : known.join(QStringLiteral(", "))));
    return Error::badInput(QStringLiteral("%1 names %2 models of the store; give more of the hash: %3")
                               .arg(pathOrHash)
                               .arg(matches.size())
                               .arg(known.join(QStringLiteral(", "))));
}

QStringList Reports::kindNames() {
    return {QStringLiteral("runs"),        QStringLiteral("steps"),   QStringLiteral("ratings"),
            QStringLiteral("preferences"), QStringLiteral("summary"), QStringLiteral("pairwise"),
            QStringLiteral("agreement"),   QStringLiteral("raters"),  QStringLiteral("experiments")};
}

std::optional<ReportKind> Reports::kindFromName(const QString& name) {
    const qsizetype index = kindNames().indexOf(name);
    if (index < 0)
        return std::nullopt;
    return static_cast<ReportKind>(index);
}

Result<std::vector<RunReportRow>> Reports::runs() {
    Result<StrategyIndex> index = loadStrategyIndex(m_db, m_modelHash);
    if (!index)
        return index.error();
    Result<std::vector<RunReportRow>> rows = ReportQueries(m_db, m_modelHash).runs();
    if (!rows)
        return rows.error();
    for (RunReportRow& row : rows.value())
        row.strategy = label(index->byStrategyId.value(row.strategyId, -1), index.value());
    return rows;
}

Status Reports::forEachStep(const std::function<void(const StepReportRow&)>& visit, const TokenText& tokenText) {
    return ReportQueries(m_db, m_modelHash).forEachStep([&](const StepReportRow& stored, const QString& modelPath) {
        StepReportRow row = stored;
        // A remote run's token texts are the engine's, as the store kept them; a local run's come from its
        // model's tokenizer.
        if (row.remote)
            row.tokenText = row.storedText;
        else if (tokenText)
            row.tokenText = tokenText(modelPath, row.tokenId);
        visit(row);
    });
}

Result<std::vector<RatingReportRow>> Reports::ratings() {
    Result<StrategyIndex> index = loadStrategyIndex(m_db, m_modelHash);
    if (!index)
        return index.error();
    Result<std::vector<RatingRecord>> ratings = RatingRepository(m_db).listRatings();
    if (!ratings)
        return ratings.error();
    Result<QSet<qint64>> setAside = setAsideRaters(m_db);
    if (!setAside)
        return setAside.error();
    std::vector<RatingReportRow> rows;
    for (const RatingRecord& rating : counted(ratings.value(), setAside.value())) {
        if (!m_modelHash.isEmpty() && !index->byRunId.contains(rating.runId))
            continue;
        const int strategy = index->byRunId.value(rating.runId, -1);
        rows.push_back({rating.runId, strategy >= 0 ? index->strategies[static_cast<std::size_t>(strategy)].id : 0,
                        label(strategy, index.value()), rating.raterName, rating.dimension, rating.score, rating.note});
    }
    return rows;
}

Result<std::vector<PreferenceReportRow>> Reports::preferences() {
    Result<Judgements> judgements = loadJudgements(m_db, m_modelHash);
    if (!judgements)
        return judgements.error();
    const StrategyIndex& index = judgements->index;
    const std::map<qint64, ComparisonRecord>& comparisons = judgements->comparisons;
    std::vector<PreferenceReportRow> rows;
    for (const PreferenceRecord& preference : judgements->preferences) {
        PreferenceReportRow row;
        row.comparisonId = preference.comparisonId;
        row.rater = preference.raterName;
        row.note = preference.note;
        row.winner = PreferenceRecord::winnerName(preference.winner);
        const auto comparison = comparisons.find(preference.comparisonId);
        if (comparison != comparisons.end()) {
            row.prompt = comparison->second.promptText;
            for (const ComparisonRecord::Entry& entry : comparison->second.entries) {
                const QString strategy = label(index.byRunId.value(entry.runId, -1), index);
                row.entries.push_back({entry.blindLabel, entry.slot, strategy});
                if (preference.winner == PreferenceWinner::Slot && preference.winnerSlot == entry.slot) {
                    row.winner = entry.blindLabel;
                    row.winnerStrategy = strategy;
                }
            }
            std::sort(row.entries.begin(), row.entries.end(), [](const auto& a, const auto& b) {
                return a.label.size() != b.label.size() ? a.label.size() < b.label.size() : a.label < b.label;
            });
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

namespace {

// The pairwise table (rows, with sign-test and Holm-adjusted p values) from the battles, keyed by (lower, higher)
// strategy position; each strategy's credit (a win 1, a tie 1/2) and battles played.
std::map<std::pair<int, int>, PairwiseRow> pairwiseOf(const std::vector<RecordedBattle>& recorded,
                                                      const StrategyIndex& index, std::vector<double>& credit,
                                                      std::vector<int>& played, std::vector<PairwiseRow>& rows) {
    std::map<std::pair<int, int>, PairwiseRow> pairs;
    for (const RecordedBattle& b : recorded) {
        const int lo = std::min(b.battle.a, b.battle.b);
        const int hi = std::max(b.battle.a, b.battle.b);
        PairwiseRow& row = pairs[{lo, hi}];
        const bool loIsA = lo == b.battle.a;
        if (b.battle.outcome == stats::BattleOutcome::Tie) {
            ++(b.bothBad ? row.bothBad : row.ties);
            credit[static_cast<std::size_t>(lo)] += 0.5;
            credit[static_cast<std::size_t>(hi)] += 0.5;
        } else {
            const bool loWon = (b.battle.outcome == stats::BattleOutcome::AWins) == loIsA;
            ++(loWon ? row.winsA : row.winsB);
            credit[static_cast<std::size_t>(loWon ? lo : hi)] += 1.0;
        }
        ++played[static_cast<std::size_t>(lo)];
        ++played[static_cast<std::size_t>(hi)];
    }
    for (auto& [key, row] : pairs) {
        row.strategyA = label(key.first, index);
        row.strategyB = label(key.second, index);
        const int total = row.winsA + row.winsB + row.ties + row.bothBad;
        row.winRateA = (row.winsA + 0.5 * (row.ties + row.bothBad)) / total;
        row.signTestP = stats::signTestPValue(row.winsA, row.winsB);
        rows.push_back(row);
    }
    std::vector<double> signP;
    for (const PairwiseRow& row : rows)
        signP.push_back(row.signTestP);
    const std::vector<double> holm = stats::holmAdjust(signP);
    for (std::size_t i = 0; i < rows.size(); ++i)
        rows[i].holmP = holm[i];
    return pairs;
}

// A strategy's text metrics over its runs: mean length, perplexity and raw entropy, distinct-n, rep-4.
void addTextMetrics(StrategySummary& summary, const std::vector<qint64>& runs, const QHash<qint64, RunSteps>& steps) {
    std::vector<double> lengths, perplexities, entropies, rep4;
    std::vector<std::vector<int>> texts;
    for (qint64 runId : runs) {
        static const RunSteps kNoSteps;
        const auto found = steps.constFind(runId);
        const RunSteps& run = found != steps.cend() ? found.value() : kNoSteps;
        lengths.push_back(static_cast<double>(run.tokens.size()));
        if (!run.tokens.empty()) {
            perplexities.push_back(stats::perplexity(run.rawP));
            if (const double entropy = stats::mean(run.rawEntropy); !std::isnan(entropy)) // unknown: a remote run's
                entropies.push_back(entropy);
        }
        if (const double r = stats::repetitionRate(run.tokens, 4); !std::isnan(r))
            rep4.push_back(r);
        texts.push_back(run.tokens);
    }
    summary.meanLength = stats::mean(lengths);
    summary.meanPerplexity = stats::mean(perplexities);
    summary.meanRawEntropy = stats::mean(entropies);
    summary.distinct1 = stats::distinctN(texts, 1);
    summary.distinct2 = stats::distinctN(texts, 2);
    summary.distinct3 = stats::distinctN(texts, 3);
    summary.rep4 = stats::mean(rep4);
}

// Each rater's agreement without them, and the raters below the thresholds, suggested for setting aside
// (the user decides).
void suggestSettingAside(SummaryReport& report, const std::map<QString, std::vector<double>>& alphaWithout,
                         const ReportOptions& options) {
    for (RaterRow& row : report.raters) {
        const auto found = alphaWithout.find(row.rater);
        row.alphaWithout = found != alphaWithout.end()
                               ? found->second
                               : std::vector<double>(static_cast<std::size_t>(report.dimensions.size()), stats::kNaN);
        std::vector<double> changes;
        for (std::size_t d = 0; d < row.alphaWithout.size(); ++d)
            if (std::isfinite(row.alphaWithout[d]) && std::isfinite(report.agreement[d].alphaOrdinal))
                changes.push_back(row.alphaWithout[d] - report.agreement[d].alphaOrdinal);
        row.alphaChange = stats::mean(changes);
        // Below the thresholds: suggested for setting aside (the user decides).
        QStringList why;
        if (row.setAside.isEmpty() && std::isfinite(row.goldAccuracy) &&
            row.goldAccuracy < options.goldAccuracyThreshold)
            why << QStringLiteral("gold accuracy %1 below %2")
                       .arg(row.goldAccuracy, 0, 'g', 3)
                       .arg(options.goldAccuracyThreshold);
        if (row.setAside.isEmpty() && std::isfinite(row.alphaChange) && row.alphaChange >= options.alphaRiseThreshold)
            why << QStringLiteral("alpha rises by %1 without them").arg(row.alphaChange, 0, 'f', 3);
        row.suggestion = why.join(QStringLiteral("; "));
    }
}

} // namespace

Result<SummaryReport> Reports::summary(const ReportOptions& options) {
    Result<Judgements> judgements = loadJudgements(m_db, m_modelHash);
    if (!judgements)
        return judgements.error();
    const StrategyIndex* index = &judgements->index;
    const std::map<qint64, ComparisonRecord>* comparisons = &judgements->comparisons;
    const std::vector<PreferenceRecord>* preferences = &judgements->preferences;
    Result<std::vector<RatingRecord>> allRatings = RatingRepository(m_db).listRatings();
    if (!allRatings)
        return allRatings.error();
    if (!m_modelHash.isEmpty())
        std::erase_if(allRatings.value(), [&](const RatingRecord& r) { return !index->byRunId.contains(r.runId); });
    // Everything below counts only the raters not set aside; the raters' table lists everyone.
    const std::vector<RatingRecord> ratings = counted(allRatings.value(), judgements->setAside);
    Result<QStringList> dimensions = ratedDimensions(m_db, ratings);
    if (!dimensions)
        return dimensions.error();
    Result<QHash<qint64, RunSteps>> steps = ReportQueries(m_db).stepSeries();
    if (!steps)
        return steps.error();

    SummaryReport report;
    report.dimensions = dimensions.value();
    const auto players = static_cast<int>(index->strategies.size());
    const std::vector<RecordedBattle> recorded = battlesOf(*preferences, *comparisons, *index);
    std::vector<stats::Battle> battles;
    for (const RecordedBattle& b : recorded)
        battles.push_back(b.battle);
    stats::BradleyTerryOptions bt;
    bt.elo = options.elo;
    bt.priorTies = options.bradleyTerryPriorTies;
    const stats::BradleyTerryFit fit = stats::bradleyTerry(players, battles, bt);
    const std::vector<stats::Interval> intervals =
        stats::bradleyTerryIntervals(players, battles, bt, options.bootstrapRounds, options.seed);
    const std::vector<double> elo = stats::onlineElo(players, battles, options.eloK, options.elo);
    // Length-controlled: each side's length in tokens.
    std::vector<stats::LengthBattle> withLengths;
    for (const RecordedBattle& b : recorded) {
        const auto tokens = [&](qint64 run) {
            const auto found = steps->constFind(run);
            return found != steps->cend() ? static_cast<double>(found->tokens.size()) : 0.0;
        };
        withLengths.push_back({b.battle, tokens(b.runA), tokens(b.runB)});
    }
    const stats::LengthControlledFit controlled =
        stats::lengthControlledBradleyTerry(players, withLengths, options.elo);
    report.lengthCoefficient = controlled.lengthCoefficient;

    // Pairwise counts, keyed by (lower, higher) strategy position.
    std::vector<double> credit(static_cast<std::size_t>(players), 0.0);
    std::vector<int> played(static_cast<std::size_t>(players), 0);
    const std::map<std::pair<int, int>, PairwiseRow> pairs =
        pairwiseOf(recorded, *index, credit, played, report.pairwise);
    report.preferenceVerdict = preferenceVerdict(players, pairs, report.pairwise, *index, fit.scores);

    // Per strategy: runs, text metrics, ratings.
    std::vector<std::vector<qint64>> runsOf(static_cast<std::size_t>(players));
    for (auto it = index->byRunId.cbegin(); it != index->byRunId.cend(); ++it)
        if (it.value() >= 0)
            runsOf[static_cast<std::size_t>(it.value())].push_back(it.key());
    for (int s = 0; s < players; ++s) {
        const auto su = static_cast<std::size_t>(s);
        std::sort(runsOf[su].begin(), runsOf[su].end());
        StrategySummary summary;
        summary.strategyId = index->strategies[su].id;
        summary.strategy = index->strategies[su].name;
        summary.runs = static_cast<int>(runsOf[su].size());
        summary.bradleyTerry = fit.scores[su];
        summary.bradleyTerryInterval = intervals[su];
        summary.bradleyTerryLengthControlled = controlled.scores[su];
        summary.onlineElo = played[su] > 0 ? elo[su] : stats::kNaN;
        summary.battles = played[su];
        if (played[su] > 0)
            summary.winRate = credit[su] / played[su];

        addTextMetrics(summary, runsOf[su], steps.value());

        for (qsizetype d = 0; d < report.dimensions.size(); ++d) {
            std::vector<double> scores;
            for (const RatingRecord& rating : ratings)
                if (rating.dimension == report.dimensions[d] && index->byRunId.value(rating.runId, -1) == s)
                    scores.push_back(rating.score);
            const std::uint64_t seed =
                options.seed + 1 +
                static_cast<std::uint64_t>(s) * static_cast<std::uint64_t>(report.dimensions.size()) +
                static_cast<std::uint64_t>(d);
            summary.dimensions.push_back({report.dimensions[d], stats::mean(scores),
                                          stats::bootstrapMeanInterval(scores, options.bootstrapRounds, seed),
                                          static_cast<int>(scores.size())});
        }
        report.strategies.push_back(std::move(summary));
    }

    report.dimensionVerdicts = dimensionVerdicts(report, ratings, *comparisons, *index);
    std::map<QString, std::vector<double>> alphaWithout;
    report.agreement = agreementOf(report.dimensions, ratings, options, &alphaWithout);
    Status status;
    report.raters = ratersOf(m_db, allRatings.value(), judgements->allPreferences, *comparisons, status);
    if (!status)
        return status.error();
    paceOf(allRatings.value(), judgements->allPreferences, report.raters);
    QSet<QString> countedRaters;
    for (const RatingRecord& r : ratings)
        countedRaters.insert(r.raterName);
    for (const PreferenceRecord& p : *preferences)
        countedRaters.insert(p.raterName);
    report.ratersUsed = static_cast<int>(countedRaters.size());
    report.ratingsUsed = static_cast<int>(ratings.size());
    report.preferencesUsed = static_cast<int>(preferences->size());
    report.ratersSetAside = static_cast<int>(judgements->setAside.size());
    suggestSettingAside(report, alphaWithout, options);
    return report;
}

namespace {

// The tables as CSV, one function each (the runs, steps and ratings tables are written where they are read).
void writePreferencesTable(CsvWriter& csv, const std::vector<PreferenceReportRow>& rows) {
    // One strategy column per blind label that occurs, in label order.
    QStringList labels;
    for (const PreferenceReportRow& row : rows)
        for (const PreferenceReportRow::Slot& slot : row.entries)
            if (!labels.contains(slot.label))
                labels << slot.label;
    std::sort(labels.begin(), labels.end(),
              [](const QString& a, const QString& b) { return a.size() != b.size() ? a.size() < b.size() : a < b; });
    QStringList header{QStringLiteral("comparison_id"), QStringLiteral("prompt"),          QStringLiteral("rater"),
                       QStringLiteral("winner"),        QStringLiteral("winner_strategy"), QStringLiteral("note")};
    for (const QString& l : labels)
        header << QStringLiteral("strategy_%1").arg(l);
    csv.writeRow(header);
    for (const PreferenceReportRow& row : rows) {
        QStringList cells{
            QString::number(row.comparisonId), row.prompt, row.rater, row.winner, row.winnerStrategy, row.note};
        for (const QString& l : labels) {
            const auto slot = std::find_if(row.entries.begin(), row.entries.end(),
                                           [&](const PreferenceReportRow::Slot& s) { return s.label == l; });
            cells << (slot != row.entries.end() ? slot->strategy : QString());
        }
        csv.writeRow(cells);
    }
}

void writeSummaryTable(CsvWriter& csv, const SummaryReport& report) {
    QStringList header{QStringLiteral("strategy_id"), QStringLiteral("strategy"), QStringLiteral("runs")};
    for (const QString& d : report.dimensions)
        header << d + QStringLiteral("_mean") << d + QStringLiteral("_ci_low") << d + QStringLiteral("_ci_high")
               << d + QStringLiteral("_n");
    header << QStringLiteral("bt_score") << QStringLiteral("bt_ci_low") << QStringLiteral("bt_ci_high")
           << QStringLiteral("bt_length_controlled") << QStringLiteral("length_coefficient")
           << QStringLiteral("online_elo") << QStringLiteral("battles") << QStringLiteral("win_rate")
           << QStringLiteral("mean_length") << QStringLiteral("mean_perplexity") << QStringLiteral("mean_raw_entropy")
           << QStringLiteral("distinct_1") << QStringLiteral("distinct_2") << QStringLiteral("distinct_3")
           << QStringLiteral("rep_4") << QStringLiteral("preference_best") << QStringLiteral("preference_verdict");
    for (const QString& d : report.dimensions)
        header << d + QStringLiteral("_best") << d + QStringLiteral("_verdict");
    header << QStringLiteral("raters_used") << QStringLiteral("ratings_used") << QStringLiteral("preferences_used")
           << QStringLiteral("raters_set_aside");
    csv.writeRow(header);
    for (std::size_t i = 0; i < report.strategies.size(); ++i) {
        const StrategySummary& s = report.strategies[i];
        QStringList cells{QString::number(s.strategyId), s.strategy, QString::number(s.runs)};
        for (const DimensionSummary& d : s.dimensions)
            cells << CsvWriter::number(d.mean) << CsvWriter::number(d.interval.low)
                  << CsvWriter::number(d.interval.high) << QString::number(d.n);
        cells << CsvWriter::number(s.bradleyTerry) << CsvWriter::number(s.bradleyTerryInterval.low)
              << CsvWriter::number(s.bradleyTerryInterval.high) << CsvWriter::number(s.bradleyTerryLengthControlled)
              << CsvWriter::number(report.lengthCoefficient) << CsvWriter::number(s.onlineElo)
              << QString::number(s.battles) << CsvWriter::number(s.winRate) << CsvWriter::number(s.meanLength)
              << CsvWriter::number(s.meanPerplexity) << CsvWriter::number(s.meanRawEntropy)
              << CsvWriter::number(s.distinct1) << CsvWriter::number(s.distinct2) << CsvWriter::number(s.distinct3)
              << CsvWriter::number(s.rep4)
              << (report.preferenceVerdict.winner == int(i) ? QStringLiteral("true") : QStringLiteral("false"))
              << report.preferenceVerdict.evidence;
        for (const PreferenceVerdict& v : report.dimensionVerdicts)
            cells << (v.winner == int(i) ? QStringLiteral("true") : QStringLiteral("false")) << v.evidence;
        cells << QString::number(report.ratersUsed) << QString::number(report.ratingsUsed)
              << QString::number(report.preferencesUsed) << QString::number(report.ratersSetAside);
        csv.writeRow(cells);
    }
}

void writePairwiseTable(CsvWriter& csv, const SummaryReport& report) {
    csv.writeRow({QStringLiteral("strategy_a"), QStringLiteral("strategy_b"), QStringLiteral("wins_a"),
                  QStringLiteral("wins_b"), QStringLiteral("ties"), QStringLiteral("bothbad"),
                  QStringLiteral("win_rate_a"), QStringLiteral("sign_test_p"), QStringLiteral("holm_p")});
    for (const PairwiseRow& row : report.pairwise)
        csv.writeRow({row.strategyA, row.strategyB, QString::number(row.winsA), QString::number(row.winsB),
                      QString::number(row.ties), QString::number(row.bothBad), CsvWriter::number(row.winRateA),
                      CsvWriter::number(row.signTestP), CsvWriter::number(row.holmP)});
}

void writeAgreementTable(CsvWriter& csv, const SummaryReport& report) {
    csv.writeRow({QStringLiteral("dimension"), QStringLiteral("alpha_ordinal"), QStringLiteral("alpha_interval"),
                  QStringLiteral("units"), QStringLiteral("pairable_values"), QStringLiteral("raters"),
                  QStringLiteral("alpha_ordinal_ci_low"), QStringLiteral("alpha_ordinal_ci_high")});
    for (const AgreementRow& row : report.agreement)
        csv.writeRow({row.dimension, CsvWriter::number(row.alphaOrdinal), CsvWriter::number(row.alphaInterval),
                      QString::number(row.units), CsvWriter::number(row.pairable), QString::number(row.raters),
                      CsvWriter::number(row.alphaOrdinalInterval.low),
                      CsvWriter::number(row.alphaOrdinalInterval.high)});
}

void writeRatersTable(CsvWriter& csv, const SummaryReport& report) {
    QStringList header{QStringLiteral("rater"),        QStringLiteral("ratings"),
                       QStringLiteral("preferences"),  QStringLiteral("gold_answered"),
                       QStringLiteral("gold_correct"), QStringLiteral("gold_accuracy")};
    for (const QString& d : report.dimensions)
        header << QStringLiteral("alpha_without_") + d;
    header << QStringLiteral("alpha_change") << QStringLiteral("median_seconds_per_item")
           << QStringLiteral("straight_lining") << QStringLiteral("set_aside") << QStringLiteral("suggested");
    csv.writeRow(header);
    for (const RaterRow& row : report.raters) {
        QStringList cells{row.rater,
                          QString::number(row.ratings),
                          QString::number(row.preferences),
                          QString::number(row.goldAnswered),
                          QString::number(row.goldCorrect),
                          CsvWriter::number(row.goldAccuracy)};
        for (double alpha : row.alphaWithout)
            cells << CsvWriter::number(alpha);
        cells << CsvWriter::number(row.alphaChange) << CsvWriter::number(row.medianSecondsPerItem)
              << CsvWriter::number(row.straightLining) << row.setAside << row.suggestion;
        csv.writeRow(cells);
    }
}

// One row per experiment and arm; the comparison columns compare the arm with the control (empty for it).
void writeExperimentsTable(CsvWriter& csv, const std::vector<ExperimentAnalysis>& experiments) {
    csv.writeRow({QStringLiteral("experiment"),
                  QStringLiteral("state"),
                  QStringLiteral("metric"),
                  QStringLiteral("arm"),
                  QStringLiteral("control"),
                  QStringLiteral("strategy"),
                  QStringLiteral("strategy_hash"),
                  QStringLiteral("weight"),
                  QStringLiteral("requests"),
                  QStringLiteral("units"),
                  QStringLiteral("feedback"),
                  QStringLiteral("mean"),
                  QStringLiteral("mean_ci_low"),
                  QStringLiteral("mean_ci_high"),
                  QStringLiteral("mean_latency_ms"),
                  QStringLiteral("mean_completion_tokens"),
                  QStringLiteral("difference"),
                  QStringLiteral("confidence_sequence_low"),
                  QStringLiteral("confidence_sequence_high"),
                  QStringLiteral("p_value"),
                  QStringLiteral("more_feedbacks_for_80_power"),
                  QStringLiteral("verdict"),
                  QStringLiteral("winner"),
                  QStringLiteral("decision")});
    for (const ExperimentAnalysis& e : experiments)
        for (std::size_t i = 0; i < e.arms.size(); ++i) {
            const ArmAnalysis& a = e.arms[i];
            const bool control = i == 0;
            csv.writeRow({e.experiment.name,
                          e.experiment.running ? QStringLiteral("running") : QStringLiteral("stopped"),
                          e.experiment.metric,
                          a.name,
                          control ? QStringLiteral("yes") : QStringLiteral("no"),
                          a.strategyName,
                          a.strategyHash,
                          CsvWriter::number(a.weight),
                          QString::number(a.requests),
                          QString::number(a.units),
                          QString::number(a.feedback),
                          CsvWriter::number(a.mean),
                          CsvWriter::number(a.meanInterval.low),
                          CsvWriter::number(a.meanInterval.high),
                          CsvWriter::number(a.meanLatencyMs),
                          CsvWriter::number(a.meanTokens),
                          control ? QString() : CsvWriter::number(a.difference),
                          control ? QString() : CsvWriter::number(a.confidenceSequence.low),
                          control ? QString() : CsvWriter::number(a.confidenceSequence.high),
                          control ? QString() : CsvWriter::number(a.pValue),
                          control || a.feedbacksForPower < 0 ? QString() : QString::number(a.feedbacksForPower),
                          ExperimentAnalysis::verdictName(e.verdict),
                          e.winner,
                          e.decision});
        }
}

} // namespace

Result<std::vector<ExperimentAnalysis>> Reports::experiments(ExperimentDetail detail) {
    Result<std::vector<ExperimentRecord>> all = ExperimentRepository(m_db).list();
    if (!all)
        return all.error();
    std::vector<ExperimentAnalysis> out;
    for (const ExperimentRecord& experiment : all.value()) {
        Result<ExperimentAnalysis> analysis = loadExperimentAnalysis(m_db, experiment, detail);
        if (!analysis)
            return analysis.error();
        out.push_back(std::move(analysis).value());
    }
    return out;
}

Status Reports::writeCsv(ReportKind kind, QIODevice& device, const ReportOptions& options, const TokenText& tokenText) {
    CsvWriter csv(device);
    auto finish = [&]() -> Status {
        if (!csv.ok()) {
            const auto* file = qobject_cast<const QFileDevice*>(&device);
            return Error::badInput(
                file && !file->fileName().isEmpty()
                    ? QStringLiteral("cannot write the report to %1: %2").arg(file->fileName(), device.errorString())
                    : QStringLiteral("cannot write the report: %1").arg(device.errorString()));
        }
        return {};
    };
    switch (kind) {
    case ReportKind::Runs: {
        Result<std::vector<RunReportRow>> rows = runs();
        if (!rows)
            return rows.error();
        csv.writeRow(
            {QStringLiteral("run_id"),        QStringLiteral("model"),         QStringLiteral("strategy_id"),
             QStringLiteral("strategy"),      QStringLiteral("strategy_json"), QStringLiteral("seed"),
             QStringLiteral("prompt"),        QStringLiteral("text"),          QStringLiteral("tokens"),
             QStringLiteral("finish"),        QStringLiteral("ttft_ms"),       QStringLiteral("tokens_per_second"),
             QStringLiteral("parent_run_id"), QStringLiteral("branch_step"),   QStringLiteral("created_at"),
             QStringLiteral("threads"),       QStringLiteral("fast_math"),     QStringLiteral("compute_dtype"),
             QStringLiteral("device"),        QStringLiteral("kernel_path")});
        for (const RunReportRow& row : rows.value())
            csv.writeRow(runCells(row));
        return finish();
    }
    case ReportKind::Steps: {
        csv.writeRow({QStringLiteral("run_id"), QStringLiteral("step"), QStringLiteral("token_id"),
                      QStringLiteral("token_text"), QStringLiteral("raw_p"), QStringLiteral("final_p"),
                      QStringLiteral("raw_rank"), QStringLiteral("raw_entropy"), QStringLiteral("final_entropy"),
                      QStringLiteral("final_count")});
        Status status = forEachStep(
            [&](const StepReportRow& row) {
                csv.writeRow({QString::number(row.runId), QString::number(row.step), QString::number(row.tokenId),
                              row.tokenText, CsvWriter::number(row.rawP), CsvWriter::number(row.finalP),
                              row.rawRank > 0 ? QString::number(row.rawRank) : QString(), // empty: unknown
                              CsvWriter::number(row.rawEntropy), CsvWriter::number(row.finalEntropy),
                              row.finalCount >= 0 ? QString::number(row.finalCount) : QString()});
            },
            tokenText);
        if (!status)
            return status;
        return finish();
    }
    case ReportKind::Ratings: {
        Result<std::vector<RatingReportRow>> rows = ratings();
        if (!rows)
            return rows.error();
        csv.writeRow({QStringLiteral("run_id"), QStringLiteral("strategy_id"), QStringLiteral("strategy"),
                      QStringLiteral("rater"), QStringLiteral("dimension"), QStringLiteral("score"),
                      QStringLiteral("note")});
        for (const RatingReportRow& row : rows.value())
            csv.writeRow({QString::number(row.runId), QString::number(row.strategyId), row.strategy, row.rater,
                          row.dimension, CsvWriter::number(row.score), row.note});
        return finish();
    }
    case ReportKind::Preferences: {
        Result<std::vector<PreferenceReportRow>> rows = preferences();
        if (!rows)
            return rows.error();
        writePreferencesTable(csv, rows.value());
        return finish();
    }
    case ReportKind::Experiments: {
        Result<std::vector<ExperimentAnalysis>> all = experiments();
        if (!all)
            return all.error();
        writeExperimentsTable(csv, all.value());
        return finish();
    }
    case ReportKind::Summary:
    case ReportKind::Pairwise:
    case ReportKind::Agreement:
    case ReportKind::Raters:
        break;
    }

    ReportOptions effective = options;
    if (kind != ReportKind::Summary && kind != ReportKind::Agreement)
        effective.bootstrapRounds = 0; // the other tables use no interval
    Result<SummaryReport> report = summary(effective);
    if (!report)
        return report.error();
    switch (kind) {
    case ReportKind::Summary:
        writeSummaryTable(csv, report.value());
        break;
    case ReportKind::Pairwise:
        writePairwiseTable(csv, report.value());
        break;
    case ReportKind::Agreement:
        writeAgreementTable(csv, report.value());
        break;
    default:
        writeRatersTable(csv, report.value());
        break;
    }
    return finish();
}

} // namespace swb
