// End to end: `swb batch` on the bundled demo model, ratings and preferences imported from CSV files this
// test writes, every report exported and parsed back; the summary checked against figures the test works
// out itself from its own data and from the database. Then bad input: files refused whole with every bad
// line named, and exports to places that cannot be written.

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include "CheckpointWriters.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "evaluation/PromptFile.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "storage/RunRepository.h"

namespace {

struct Run {
    qint64 id = 0;
    QString strategy;
    QString text;
    std::vector<int> tokens;
    std::vector<double> rawP;
    std::vector<double> rawEntropy;
};

struct Slot {
    int slot = 0;
    qint64 runId = 0;
    QString label;
};

struct Rating {
    qint64 runId;
    QString rater;
    QString dimension;
    double score;
    QString note;
};

struct Preference {
    qint64 comparisonId;
    QString rater;
    QString winner; // as written in the file
};

using Table = QList<QStringList>;

// One strategy's battles as the test counts them.
struct Tally {
    double credit = 0;
    int battles = 0;
    int wins = 0;
};

QString quoted(const QString& cell) {
    QString escaped = cell;
    escaped.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QByteArray readFile(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

QByteArray readBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool near(double actual, double expected, double tolerance = 1e-9) {
    return std::abs(actual - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

double number(const QString& cell) {
    bool ok = false;
    const double value = cell.toDouble(&ok);
    return ok ? value : NAN;
}

double meanOf(const std::vector<double>& values) {
    double sum = 0;
    for (double v : values)
        sum += v;
    return values.empty() ? NAN : sum / static_cast<double>(values.size());
}

// Starts-with rule of the README: = + - @ tab CR, unless the whole cell is a number.
QString expectedCell(const QString& text) {
    static const QString risky = QStringLiteral("=+-@\t\r");
    bool isNumber = false;
    text.toDouble(&isNumber);
    if (!text.isEmpty() && risky.contains(text.front()) && !isNumber)
        return QLatin1Char('\'') + text;
    return text;
}

} // namespace

class TestReportsCli : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db;
    std::map<qint64, Run> m_runs;
    std::map<qint64, std::vector<Slot>> m_comparisons;
    std::vector<Rating> m_ratings;
    std::vector<Preference> m_preferences;
    qint64 m_gold = 0;
    QString m_goldLabel;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    static swb::test::ProcessResult swb(const QStringList& args) { return swb::test::runSwbProcess(args, 300000); }

    // Runs a query on a connection of the test's own (not the code under test).
    void query(const QString& sql, const std::function<void(QSqlQuery&)>& visit, const QString& store = {}) {
        const QString name = QStringLiteral("tst-reports-reader");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(store.isEmpty() ? m_db : store);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY2(q.exec(sql), qPrintable(sql));
            while (q.next())
                visit(q);
        }
        QSqlDatabase::removeDatabase(name);
    }
    int count(const QString& table) {
        int n = -1;
        query(QStringLiteral("SELECT count(*) FROM %1").arg(table), [&](QSqlQuery& q) { n = q.value(0).toInt(); });
        return n;
    }

    // Exports a report to a file, checks line endings and header, parses it back.
    // The exact two-sided sign test, from the binomial coefficients.
    static double binomialTwoSided(int wins, int losses) {
        const int n = wins + losses;
        double tail = 0.0, coefficient = 1.0; // C(n, 0)
        for (int k = 0; k <= std::min(wins, losses); ++k) {
            tail += coefficient;
            coefficient = coefficient * (n - k) / (k + 1);
        }
        return n == 0 ? 1.0 : std::min(1.0, 2.0 * tail / std::pow(2.0, n));
    }

    // The report's file, written by swb export.
    QString exportReportBytes(const QString& report) {
        const QString out = path(report + QStringLiteral("-bytes.csv"));
        swb({QStringLiteral("export"), QStringLiteral("--db"), m_db, QStringLiteral("--report"), report,
             QStringLiteral("--out"), out});
        return out;
    }

    Table exportReport(const QString& report, const QStringList& expectedHeader = {}) {
        const QString out = path(report + QStringLiteral(".csv"));
        const auto result = swb({QStringLiteral("export"), QStringLiteral("--db"), m_db, QStringLiteral("--report"),
                                 report, QStringLiteral("--out"), out});
        if (result.status != 0)
            qWarning() << result.err;
        const QByteArray bytes = readBytes(out);
        // Every line ends in CRLF: no LF without its CR outside quoted cells (the texts hold no LF).
        if (bytes.isEmpty() || !bytes.endsWith("\r\n"))
            return {};
        const auto parsed = swb::parseCsv(QString::fromUtf8(bytes));
        if (!parsed.ok() || parsed->isEmpty())
            return {};
        if (!expectedHeader.isEmpty() && parsed->first() != expectedHeader) {
            qWarning() << "header" << parsed->first() << "expected" << expectedHeader;
            return {};
        }
        for (const QStringList& row : parsed.value())
            if (row.size() != parsed->first().size())
                return {};
        return parsed.value();
    }

    static int column(const Table& table, const QString& name) { return static_cast<int>(table.first().indexOf(name)); }
    static const QStringList* rowWhere(const Table& table, const QString& columnName, const QString& value) {
        const int c = column(table, columnName);
        for (qsizetype r = 1; r < table.size(); ++r)
            if (table[r][c] == value)
                return &table[r];
        return nullptr;
    }

    QString strategyOfLabel(qint64 comparison, const QString& label) const {
        for (const Slot& slot : m_comparisons.at(comparison))
            if (slot.label.compare(label, Qt::CaseInsensitive) == 0)
                return m_runs.at(slot.runId).strategy;
        return {};
    }

    // Battles the way the README defines them, from the test's own preferences: with two slots, a label is
    // a win of its strategy over the other, tie and bothbad a tie.
    std::map<QString, Tally> tallies() const {
        std::map<QString, Tally> tally;
        for (const Preference& p : m_preferences) {
            const auto& entries = m_comparisons.at(p.comparisonId);
            const QString a = m_runs.at(entries[0].runId).strategy;
            const QString b = m_runs.at(entries[1].runId).strategy;
            ++tally[a].battles;
            ++tally[b].battles;
            if (p.winner == QLatin1String("tie") || p.winner == QLatin1String("bothbad")) {
                tally[a].credit += 0.5;
                tally[b].credit += 0.5;
            } else {
                const QString winner = strategyOfLabel(p.comparisonId, p.winner);
                tally[winner].credit += 1;
                ++tally[winner].wins;
            }
        }
        return tally;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = path(QStringLiteral("eval.sqlite"));
        writeFile(path(QStringLiteral("prompts.txt")), "And God said\nIn the beginning\nThe LORD is my shepherd\n"
                                                       "Blessed are the meek\nAnd it came to pass\n");
        const auto batch =
            swb({QStringLiteral("batch"), QStringLiteral("--prompts"), path(QStringLiteral("prompts.txt")),
                 QStringLiteral("--strategy"), QStringLiteral("greedy"), QStringLiteral("--strategy"),
                 QStringLiteral("chat"), QStringLiteral("--max-tokens"), QStringLiteral("12"), QStringLiteral("--db"),
                 m_db, QStringLiteral("--blind")});
        QVERIFY2(batch.status == 0, batch.err.constData());

        query(QStringLiteral("SELECT r.id, s.name, r.text FROM runs r JOIN strategies s ON s.id = r.strategy_id"),
              [&](QSqlQuery& q) {
                  m_runs[q.value(0).toLongLong()] = {
                      q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), {}, {}, {}};
              });
        query(QStringLiteral("SELECT run_id, token, raw_p, raw_entropy FROM steps ORDER BY run_id, step"),
              [&](QSqlQuery& q) {
                  Run& run = m_runs[q.value(0).toLongLong()];
                  run.tokens.push_back(q.value(1).toInt());
                  run.rawP.push_back(q.value(2).toDouble());
                  run.rawEntropy.push_back(q.value(3).toDouble());
              });
        query(QStringLiteral("SELECT comparison_id, slot, run_id, blind_label FROM comparison_runs ORDER BY "
                             "comparison_id, slot"),
              [&](QSqlQuery& q) {
                  m_comparisons[q.value(0).toLongLong()].push_back(
                      {q.value(1).toInt(), q.value(2).toLongLong(), q.value(3).toString()});
              });
        QCOMPARE(m_runs.size(), std::size_t(10));
        QCOMPARE(m_comparisons.size(), std::size_t(5));

        // The first comparison becomes a gold one: greedy's output is the expected winner.
        m_gold = m_comparisons.begin()->first;
        for (const Slot& slot : m_comparisons.begin()->second)
            if (m_runs.at(slot.runId).strategy == QLatin1String("greedy"))
                m_goldLabel = slot.label;
        query(QStringLiteral("UPDATE comparisons SET is_gold = 1, gold_winner = '%1' WHERE id = %2")
                  .arg(m_goldLabel)
                  .arg(m_gold),
              [](QSqlQuery&) {});

        // Ratings: two raters score relevance (0-3) and fluency (0-2); only ann scores usefulness (0-4).
        // Columns in an unusual order, notes with commas, quotes, a new line and a formula.
        for (const auto& [id, run] : m_runs) {
            for (const QString& rater : {QStringLiteral("ann"), QStringLiteral("bob")}) {
                const int b = rater == QLatin1String("bob") ? 1 : 0;
                m_ratings.push_back({id, rater, QStringLiteral("relevance"), double((id * 7 + 2 * b) % 4),
                                     id == 1 ? QStringLiteral("=SUM(A1:A9)") : QString()});
                m_ratings.push_back({id, rater, QStringLiteral("fluency"), double((id + b) % 3),
                                     id == 2 ? QStringLiteral("fine, \"mostly\"\nsecond line") : QString()});
            }
            m_ratings.push_back({id, QStringLiteral("ann"), QStringLiteral("usefulness"), double(id % 5), {}});
        }
        QByteArray ratings = "rater,run_id,score,dimension,note\r\n";
        for (const Rating& r : m_ratings)
            ratings += QStringList{quoted(r.rater), QString::number(r.runId), QString::number(r.score), r.dimension,
                                   quoted(r.note)}
                           .join(',')
                           .toUtf8() +
                       "\n";
        writeFile(path(QStringLiteral("ratings.csv")), ratings);
        const auto imported = swb({QStringLiteral("import-ratings"), QStringLiteral("--db"), m_db,
                                   QStringLiteral("--csv"), path(QStringLiteral("ratings.csv"))});
        QVERIFY2(imported.status == 0, imported.err.constData());
        const QJsonObject summary = QJsonDocument::fromJson(imported.out).object();
        QCOMPARE(summary.value(QLatin1String("ratings_imported")).toInt(), int(m_ratings.size()));
        QCOMPARE(summary.value(QLatin1String("raters")).toInt(), 2);
        QCOMPARE(count(QStringLiteral("ratings")), int(m_ratings.size()));

        // Preferences: labels (one lower-case), ties and bothbad from two raters.
        const QStringList ann = {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("tie"),
                                 QStringLiteral("bothbad"), QStringLiteral("b")};
        const QStringList bob = {QStringLiteral("B"), QStringLiteral("A"), QStringLiteral("A"), QStringLiteral("tie"),
                                 QStringLiteral("bothbad")};
        int i = 0;
        for (const auto& [id, entries] : m_comparisons) {
            m_preferences.push_back({id, QStringLiteral("ann"), ann[i]});
            m_preferences.push_back({id, QStringLiteral("bob"), bob[i]});
            ++i;
        }
        QByteArray preferences = "comparison_id,rater,winner\n";
        for (const Preference& p : m_preferences)
            preferences += QStringLiteral("%1,%2,%3\n").arg(p.comparisonId).arg(p.rater, p.winner).toUtf8();
        writeFile(path(QStringLiteral("preferences.csv")), preferences);
        const auto votes = swb({QStringLiteral("import-preferences"), QStringLiteral("--db"), m_db,
                                QStringLiteral("--csv"), path(QStringLiteral("preferences.csv"))});
        QVERIFY2(votes.status == 0, votes.err.constData());
        QCOMPARE(QJsonDocument::fromJson(votes.out).object().value(QLatin1String("preferences_imported")).toInt(), 10);
        QCOMPARE(count(QStringLiteral("preferences")), 10);
    }

    void summaryMatchesIndependentFigures() {
        const QStringList dims = {QStringLiteral("relevance"), QStringLiteral("fluency"), QStringLiteral("usefulness")};
        QStringList header = {QStringLiteral("strategy_id"), QStringLiteral("strategy"), QStringLiteral("runs")};
        for (const QString& d : dims)
            header << d + "_mean" << d + "_ci_low" << d + "_ci_high" << d + "_n";
        header << "bt_score"
               << "bt_ci_low"
               << "bt_ci_high"
               << "bt_length_controlled"
               << "length_coefficient"
               << "online_elo"
               << "battles"
               << "win_rate"
               << "mean_length"
               << "mean_perplexity"
               << "mean_raw_entropy"
               << "distinct_1"
               << "distinct_2"
               << "distinct_3"
               << "rep_4"
               << "preference_best"
               << "preference_verdict";
        for (const QString& d : dims)
            header << d + "_best" << d + "_verdict";
        header << "raters_used"
               << "ratings_used"
               << "preferences_used"
               << "raters_set_aside";
        const Table table = exportReport(QStringLiteral("summary"), header);
        QCOMPARE(table.size(), 3);
        // Per dimension: within each comparison the two strategies' runs by their mean score over raters, a
        // sign test over the comparisons where they differ (one pair: Holm leaves p as it is).
        for (const QString& d : dims) {
            int greedyHigher = 0, chatHigher = 0;
            for (const auto& [comparison, entries] : m_comparisons) {
                std::map<QString, std::pair<double, int>> mean; // strategy -> sum, n
                for (const Slot& slot : entries)
                    for (const Rating& r : m_ratings)
                        if (r.runId == slot.runId && r.dimension == d) {
                            mean[m_runs.at(slot.runId).strategy].first += r.score;
                            ++mean[m_runs.at(slot.runId).strategy].second;
                        }
                if (mean.count("greedy") && mean.count("chat")) {
                    const double g = mean["greedy"].first / mean["greedy"].second, c = mean["chat"].first / mean["chat"].second;
                    greedyHigher += g > c;
                    chatHigher += c > g;
                }
            }
            const bool clear = greedyHigher + chatHigher > 0 && binomialTwoSided(greedyHigher, chatHigher) < 0.05;
            const QString best = clear ? (greedyHigher > chatHigher ? QStringLiteral("greedy") : QStringLiteral("chat")) : QString();
            for (const QString& strategy : {QStringLiteral("greedy"), QStringLiteral("chat")}) {
                const QStringList* row = rowWhere(table, QStringLiteral("strategy"), strategy);
                QVERIFY(row);
                QCOMPARE(row->value(header.indexOf(d + "_best")), strategy == best ? QStringLiteral("true") : QStringLiteral("false"));
                const QString verdict = row->value(header.indexOf(d + "_verdict"));
                QVERIFY2(verdict.startsWith(d + ": " + (best.isEmpty() ? QStringLiteral("no ") : best)), qPrintable(verdict));
                if (!best.isEmpty() || greedyHigher + chatHigher == 0)
                    continue;
                // Without a winner, the leader's count against its rival is the one counted here.
                QVERIFY2(verdict.contains(QStringLiteral("(%1 to %2").arg(std::max(greedyHigher, chatHigher)).arg(std::min(greedyHigher, chatHigher))) ||
                             verdict.contains("does not win more"),
                         qPrintable(verdict));
            }
        }
        // The verdict on preferences: the sign test of the one pair (ties left out), by hand below.
        {
            int winsGreedy = 0, winsChat = 0;
            for (const Preference& p : m_preferences)
                if (p.winner != QLatin1String("tie") && p.winner != QLatin1String("bothbad"))
                    ++(strategyOfLabel(p.comparisonId, p.winner) == QLatin1String("greedy") ? winsGreedy : winsChat);
            const double p = binomialTwoSided(winsGreedy, winsChat);
            const QString best = p < 0.05 ? (winsGreedy > winsChat ? QStringLiteral("greedy") : QStringLiteral("chat")) : QString();
            for (const QString& strategy : {QStringLiteral("greedy"), QStringLiteral("chat")}) {
                const QStringList* row = rowWhere(table, QStringLiteral("strategy"), strategy);
                QVERIFY(row);
                QCOMPARE(row->value(header.indexOf("preference_best")), strategy == best ? QStringLiteral("true") : QStringLiteral("false"));
                QVERIFY2(row->value(header.indexOf("preference_verdict")).startsWith(best.isEmpty() ? QStringLiteral("no clear winner") : best),
                         qPrintable(row->value(header.indexOf("preference_verdict"))));
            }
        }
        const std::map<QString, Tally> tally = tallies();
        double eloSum = 0;
        std::map<QString, double> bt;
        for (const QString& strategy : {QStringLiteral("greedy"), QStringLiteral("chat")}) {
            const QStringList* row = rowWhere(table, QStringLiteral("strategy"), strategy);
            QVERIFY(row);
            auto cell = [&](const QString& name) { return number(row->at(column(table, name))); };
            std::vector<const Run*> runs;
            for (const auto& [id, run] : m_runs)
                if (run.strategy == strategy)
                    runs.push_back(&run);
            QCOMPARE(cell("runs"), double(runs.size()));

            for (const QString& d : dims) {
                std::vector<double> scores;
                for (const Rating& r : m_ratings)
                    if (r.dimension == d && m_runs.at(r.runId).strategy == strategy)
                        scores.push_back(r.score);
                QCOMPARE(cell(d + "_n"), double(scores.size()));
                QVERIFY2(near(cell(d + "_mean"), meanOf(scores)), qPrintable(d));
                QVERIFY(cell(d + "_ci_low") <= cell(d + "_mean") && cell(d + "_mean") <= cell(d + "_ci_high"));
            }

            const Tally& t = tally.at(strategy);
            QCOMPARE(cell("battles"), double(t.battles));
            QVERIFY(near(cell("win_rate"), t.credit / t.battles));
            bt[strategy] = cell("bt_score");
            QVERIFY(cell("bt_ci_low") <= bt[strategy] && bt[strategy] <= cell("bt_ci_high"));
            eloSum += cell("online_elo");
            // Each online update moves a rating by less than K = 4.
            QVERIFY(std::abs(cell("online_elo") - 1000) < 4.0 * t.battles);

            std::vector<double> lengths, perplexities, entropies, rep4;
            std::set<std::vector<int>> grams[4];
            int totals[4] = {0, 0, 0, 0};
            for (const Run* run : runs) {
                lengths.push_back(double(run->tokens.size()));
                double logSum = 0;
                for (double p : run->rawP)
                    logSum += std::log(p);
                perplexities.push_back(std::exp(-logSum / double(run->rawP.size())));
                entropies.push_back(meanOf(run->rawEntropy));
                for (int n = 1; n <= 3; ++n)
                    for (std::size_t i = 0; i + n <= run->tokens.size(); ++i) {
                        grams[n].insert(std::vector<int>(run->tokens.begin() + i, run->tokens.begin() + i + n));
                        ++totals[n];
                    }
                std::set<std::vector<int>> seen;
                int repeats = 0, all = 0;
                for (std::size_t i = 0; i + 4 <= run->tokens.size(); ++i, ++all)
                    if (!seen.insert(std::vector<int>(run->tokens.begin() + i, run->tokens.begin() + i + 4)).second)
                        ++repeats;
                if (all > 0)
                    rep4.push_back(double(repeats) / all);
            }
            QVERIFY(near(cell("mean_length"), meanOf(lengths)));
            QVERIFY(near(cell("mean_perplexity"), meanOf(perplexities)));
            QVERIFY(near(cell("mean_raw_entropy"), meanOf(entropies)));
            QVERIFY(near(cell("distinct_1"), double(grams[1].size()) / totals[1]));
            QVERIFY(near(cell("distinct_2"), double(grams[2].size()) / totals[2]));
            QVERIFY(near(cell("distinct_3"), double(grams[3].size()) / totals[3]));
            QVERIFY(near(cell("rep_4"), meanOf(rep4)));
        }
        // Online Elo is zero-sum: two players starting at 1000 keep a total of 2000.
        QVERIFY(near(eloSum, 2000.0));
        // Bradley-Terry with one virtual tie per pair (README): P(greedy beats chat) = (credit + 0.5) / (n + 1),
        // and the scores average 1000.
        const double n = tally.at(QStringLiteral("greedy")).battles;
        const double p = (tally.at(QStringLiteral("greedy")).credit + 0.5) / (n + 1);
        QVERIFY(near(1 / (1 + std::pow(10, (bt["chat"] - bt["greedy"]) / 400)), p));
        QVERIFY(near((bt["chat"] + bt["greedy"]) / 2, 1000.0));
    }

    void pairwiseMatchesIndependentCounts() {
        const Table table = exportReport(QStringLiteral("pairwise"), {"strategy_a", "strategy_b", "wins_a", "wins_b",
                                                                      "ties", "bothbad", "win_rate_a", "sign_test_p",
                                                                      "holm_p"});
        QCOMPARE(table.size(), 2);
        const QStringList& row = table[1];
        const QString a = row[0];
        const QString b = row[1];
        QCOMPARE(QSet<QString>({a, b}), QSet<QString>({QStringLiteral("greedy"), QStringLiteral("chat")}));
        int winsA = 0, winsB = 0, ties = 0, bothBad = 0;
        for (const Preference& p : m_preferences) {
            if (p.winner == QLatin1String("tie"))
                ++ties;
            else if (p.winner == QLatin1String("bothbad"))
                ++bothBad;
            else if (strategyOfLabel(p.comparisonId, p.winner) == a)
                ++winsA;
            else
                ++winsB;
        }
        QCOMPARE(row[2].toInt(), winsA);
        QCOMPARE(row[3].toInt(), winsB);
        QCOMPARE(row[4].toInt(), ties);
        QCOMPARE(row[5].toInt(), bothBad);
        QVERIFY(near(number(row[6]), (winsA + 0.5 * (ties + bothBad)) / 10.0));
        QVERIFY(near(number(row[7]), binomialTwoSided(winsA, winsB)));
        QCOMPARE(row[8], row[7]); // one pair: Holm leaves it as it is
    }

    void agreementMatchesClosedForm() {
        const Table table = exportReport(QStringLiteral("agreement"),
                                         {"dimension", "alpha_ordinal", "alpha_interval", "units", "pairable_values",
                                          "raters", "alpha_ordinal_ci_low", "alpha_ordinal_ci_high"});
        QCOMPARE(table.size(), 4);
        // Two raters, no missing values: interval alpha = 1 - (n - 1) sum_u (a_u - b_u)^2 / (n SS), n = 2 units,
        // SS the sum of squared deviations of all 2N values from their mean.
        for (const QString& d : {QStringLiteral("relevance"), QStringLiteral("fluency")}) {
            std::map<qint64, std::pair<double, double>> byRun;
            std::vector<double> all;
            for (const Rating& r : m_ratings)
                if (r.dimension == d) {
                    (r.rater == QLatin1String("ann") ? byRun[r.runId].first : byRun[r.runId].second) = r.score;
                    all.push_back(r.score);
                }
            const double mean = meanOf(all);
            double ss = 0, disagreement = 0;
            for (double v : all)
                ss += (v - mean) * (v - mean);
            for (const auto& [run, pair] : byRun)
                disagreement += (pair.first - pair.second) * (pair.first - pair.second);
            const double n = double(all.size());
            const QStringList* row = rowWhere(table, QStringLiteral("dimension"), d);
            QVERIFY(row);
            QVERIFY2(near(number(row->at(2)), 1 - (n - 1) * disagreement / (n * ss)), qPrintable(row->join(',')));
            QVERIFY(number(row->at(1)) <= 1.0);
            QCOMPARE(row->at(3), QStringLiteral("10"));
            QCOMPARE(row->at(4), QStringLiteral("20"));
            QCOMPARE(row->at(5), QStringLiteral("2"));
            // The bootstrap interval over the runs brackets alpha (with ten units it cannot be one point).
            QVERIFY2(number(row->at(6)) <= number(row->at(1)) && number(row->at(1)) <= number(row->at(7)) &&
                         number(row->at(6)) < number(row->at(7)),
                     qPrintable(row->join(',')));
        }
        // Usefulness has one rater only: nothing to agree on, alpha empty.
        const QStringList* useful = rowWhere(table, QStringLiteral("dimension"), QStringLiteral("usefulness"));
        QVERIFY(useful);
        QVERIFY(useful->at(1).isEmpty() && useful->at(2).isEmpty());
        QCOMPARE(useful->at(3), QStringLiteral("0"));
    }

    void ratersAndGoldAccuracy() {
        const Table table = exportReport(QStringLiteral("raters"),
                                         {"rater", "ratings", "preferences", "gold_answered", "gold_correct",
                                          "gold_accuracy", "alpha_without_relevance", "alpha_without_fluency",
                                          "alpha_without_usefulness", "alpha_change", "median_seconds_per_item",
                                          "straight_lining", "set_aside", "suggested"});
        QCOMPARE(table.size(), 3);
        for (const QString& rater : {QStringLiteral("ann"), QStringLiteral("bob")}) {
            int ratings = 0, preferences = 0, correct = 0;
            for (const Rating& r : m_ratings)
                ratings += r.rater == rater;
            for (const Preference& p : m_preferences) {
                preferences += p.rater == rater;
                if (p.rater == rater && p.comparisonId == m_gold)
                    correct = p.winner.compare(m_goldLabel, Qt::CaseInsensitive) == 0;
            }
            const QStringList* row = rowWhere(table, QStringLiteral("rater"), rater);
            QVERIFY(row);
            QCOMPARE(row->at(1).toInt(), ratings);
            QCOMPARE(row->at(2).toInt(), preferences);
            QCOMPARE(row->at(3), QStringLiteral("1"));
            QCOMPARE(row->at(4).toInt(), correct);
            QCOMPARE(number(row->at(5)), double(correct));
            // With two raters, setting one aside leaves nobody to agree with: alpha undefined, no change.
            for (int c = 6; c <= 9; ++c)
                QVERIFY2(row->at(c).isEmpty(), qPrintable(row->join(',')));
            // Pace from the stored times, by the rule the report documents: a run's answer is its last rating,
            // a preference is an answer, and gaps from 1 s to 30 min between consecutive answers are timed.
            // An import stamps all its rows with one time, so here the only possible gap is between the
            // ratings import and the preferences import, however slowly either was written.
            std::vector<QDateTime> answers;
            query(QStringLiteral("SELECT max(r.created_at) FROM ratings r JOIN raters t ON t.id = r.rater_id "
                                 "WHERE t.name = '%1' GROUP BY r.run_id UNION ALL SELECT p.created_at FROM preferences p "
                                 "JOIN raters t ON t.id = p.rater_id WHERE t.name = '%1'")
                      .arg(rater),
                  [&](QSqlQuery& q) { answers.push_back(QDateTime::fromString(q.value(0).toString(), Qt::ISODateWithMs)); });
            std::sort(answers.begin(), answers.end());
            std::vector<double> gaps;
            for (std::size_t i = 1; i < answers.size(); ++i)
                if (const double g = answers[i - 1].msecsTo(answers[i]) / 1000.0; g >= 1.0 && g <= 1800.0)
                    gaps.push_back(g);
            QVERIFY(gaps.size() <= 1);
            if (gaps.empty())
                QVERIFY2(row->at(10).isEmpty(), qPrintable(row->join(',')));
            else
                QVERIFY2(std::abs(number(row->at(10)) - gaps[0]) < 1e-3, qPrintable(row->join(',')));
            // Straight-lining: runs in the order the rater first rated them; a run whose scores all equal the
            // previous run's counts.
            std::vector<qint64> order;
            std::map<qint64, std::map<QString, double>> scores;
            for (const Rating& r : m_ratings)
                if (r.rater == rater) {
                    if (!scores.count(r.runId))
                        order.push_back(r.runId);
                    scores[r.runId][r.dimension] = r.score;
                }
            int same = 0;
            for (std::size_t i = 1; i < order.size(); ++i)
                same += scores[order[i]] == scores[order[i - 1]];
            QVERIFY2(near(number(row->at(11)), double(same) / double(order.size() - 1)), qPrintable(row->join(',')));
        }
    }

    // A rater set aside (with the reason) leaves every figure; restored, everything is as before.
    void settingARaterAsideRecomputesEverything() {
        const QByteArray before = readBytes(exportReportBytes(QStringLiteral("summary")));
        int bobRatings = 0, bobPreferences = 0;
        for (const Rating& r : m_ratings)
            bobRatings += r.rater == QLatin1String("bob");
        for (const Preference& p : m_preferences)
            bobPreferences += p.rater == QLatin1String("bob");
        QVERIFY(bobRatings > 0 && bobPreferences > 0);
        const auto aside = swb({"rater", "--db", m_db, "--name", "bob", "--set-aside", "gold accuracy 0"});
        QVERIFY2(aside.status == 0, aside.err.constData());

        const Table summary = exportReport(QStringLiteral("summary"));
        QVERIFY(summary.size() > 1);
        const QStringList& header = summary[0];
        const QStringList& row = summary[1];
        QCOMPARE(row[header.indexOf("raters_used")], QStringLiteral("1"));
        QCOMPARE(row[header.indexOf("ratings_used")].toInt(), int(m_ratings.size()) - bobRatings);
        QCOMPARE(row[header.indexOf("preferences_used")].toInt(), int(m_preferences.size()) - bobPreferences);
        QCOMPARE(row[header.indexOf("raters_set_aside")], QStringLiteral("1"));
        // The rows of the ratings and preferences reports leave bob out; the raters' table keeps him, marked.
        for (const QString& report : {QStringLiteral("ratings"), QStringLiteral("preferences")}) {
            const Table table = exportReport(report);
            const int rater = int(table[0].indexOf("rater"));
            QVERIFY(table.size() > 1);
            for (int i = 1; i < table.size(); ++i)
                QVERIFY(table[i][rater] != QLatin1String("bob"));
        }
        const Table raters = exportReport(QStringLiteral("raters"));
        const QStringList* bob = rowWhere(raters, QStringLiteral("rater"), QStringLiteral("bob"));
        QVERIFY(bob);
        QCOMPARE(bob->at(raters[0].indexOf("set_aside")), QStringLiteral("gold accuracy 0"));
        QCOMPARE(bob->at(raters[0].indexOf("ratings")).toInt(), bobRatings); // his own counts stay shown
        // Agreement with one rater left: nothing to agree on.
        const Table agreement = exportReport(QStringLiteral("agreement"));
        for (int i = 1; i < agreement.size(); ++i)
            QVERIFY2(agreement[i][1].isEmpty(), qPrintable(agreement[i].join(',')));

        QCOMPARE(swb({"rater", "--db", m_db, "--name", "bob", "--restore"}).status, 0);
        // The thresholds are the user's: an accuracy every rater misses suggests everyone with a gold answer.
        {
            const auto strict = swb({"export", "--db", m_db, "--report", "raters", "--gold-threshold", "1.01"});
            QCOMPARE(strict.status, 2); // an accuracy is at most 1
            const auto all = swb({"export", "--db", m_db, "--report", "raters", "--gold-threshold", "1"});
            QCOMPARE(all.status, 0);
            const auto table = swb::parseCsv(QString::fromUtf8(all.out)).value();
            const int accuracy = int(table[0].indexOf("gold_accuracy")), suggested = int(table[0].indexOf("suggested"));
            for (int i = 1; i < table.size(); ++i)
                if (!table[i][accuracy].isEmpty() && table[i][accuracy].toDouble() < 1.0)
                    QVERIFY2(table[i][suggested].contains("gold accuracy"), qPrintable(table[i].join(',')));
            const auto none = swb({"export", "--db", m_db, "--report", "raters", "--gold-threshold", "0", "--alpha-rise", "10"});
            const auto quiet = swb::parseCsv(QString::fromUtf8(none.out)).value();
            for (int i = 1; i < quiet.size(); ++i)
                QVERIFY(quiet[i][suggested].isEmpty());
        }
        QCOMPARE(readBytes(exportReportBytes(QStringLiteral("summary"))), before);
        // Bad requests: one sentence, exit 2.
        QCOMPARE(swb({"rater", "--db", m_db, "--name", "nobody", "--restore"}).status, 2);
        QCOMPARE(swb({"rater", "--db", m_db, "--name", "bob", "--set-aside", " "}).status, 2);
        QCOMPARE(swb({"rater", "--db", m_db, "--name", "bob"}).status, 2);
    }

    void reportsPerModel() {
        // A copy of the store gains the same prompts and strategies run on a second model (a tiny random
        // llama2.c one): strategies are shared by hash, so without --model every strategy counts both models'
        // runs; with it, one model's runs, and only the comparisons of that model's outputs.
        const QString store = path(QStringLiteral("two-models.sqlite"));
        QFile::remove(store);
        QVERIFY(QFile::copy(m_db, store));
        std::vector<std::pair<std::string, float>> vocab = swb::test::llama2cBaseVocab();
        swb::test::LlamaShape shape;
        shape.vocab = static_cast<int>(vocab.size());
        shape.context = 128;
        const QString tiny = path(QStringLiteral("tiny.bin"));
        QVERIFY(swb::test::writeBytes(tiny, swb::test::llama2cBytes(swb::test::randomLlama(shape, 5), 0)));
        QVERIFY(swb::test::writeFile(path(QStringLiteral("tok.bin")), swb::test::tokBin(vocab)));
        const auto batch = swb({QStringLiteral("batch"), QStringLiteral("--model"), tiny, QStringLiteral("--tokenizer"),
                                path(QStringLiteral("tok.bin")), QStringLiteral("--prompts"), path(QStringLiteral("prompts.txt")),
                                QStringLiteral("--strategy"), QStringLiteral("greedy"), QStringLiteral("--strategy"),
                                QStringLiteral("chat"), QStringLiteral("--max-tokens"), QStringLiteral("6"),
                                QStringLiteral("--db"), store});
        QVERIFY2(batch.status == 0, batch.err.constData());
        const auto summary = [&](const QStringList& extra) {
            const QString out = path(QStringLiteral("per-model.csv"));
            const auto result = swb(QStringList{QStringLiteral("export"), QStringLiteral("--db"), store,
                                                QStringLiteral("--report"), QStringLiteral("summary"),
                                                QStringLiteral("--out"), out} + extra);
            Table table;
            if (result.status == 0)
                table = swb::parseCsv(QString::fromUtf8(readBytes(out))).value();
            return table;
        };
        const auto runsOf = [&](const Table& table, const QString& strategy) {
            const QStringList* row = rowWhere(table, QStringLiteral("strategy"), strategy);
            return row ? (*row)[column(table, QStringLiteral("runs"))].toInt() : -1;
        };
        const Table all = summary({});
        QCOMPARE(runsOf(all, QStringLiteral("greedy")), 10);
        const Table demo = summary({QStringLiteral("--model"), QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny")});
        const Table small = summary({QStringLiteral("--model"), QFileInfo(tiny).absoluteFilePath()});
        QVERIFY(!demo.isEmpty() && !small.isEmpty());
        QCOMPARE(runsOf(demo, QStringLiteral("greedy")), 5);
        QCOMPARE(runsOf(demo, QStringLiteral("chat")), 5);
        QCOMPARE(runsOf(small, QStringLiteral("greedy")), 5);
        // The preferences were all given on the demo model's comparisons: all of them count for it, none for the
        // tiny model.
        const QString used = QStringLiteral("preferences_used");
        QCOMPARE((*rowWhere(demo, QStringLiteral("strategy"), QStringLiteral("greedy")))[column(demo, used)],
                 (*rowWhere(all, QStringLiteral("strategy"), QStringLiteral("greedy")))[column(all, used)]);
        QCOMPARE((*rowWhere(small, QStringLiteral("strategy"), QStringLiteral("greedy")))[column(small, used)], QStringLiteral("0"));
        QCOMPARE((*rowWhere(small, QStringLiteral("strategy"), QStringLiteral("greedy")))[column(small, QStringLiteral("ratings_used"))],
                 QStringLiteral("0"));
        // The runs report, by content hash prefix.
        QString hash;
        query(QStringLiteral("SELECT content_hash FROM models WHERE path = '%1'").arg(QFileInfo(tiny).absoluteFilePath()),
              [&](QSqlQuery& q) { hash = q.value(0).toString(); }, store);
        QVERIFY(hash.size() >= 12);
        const auto runs = swb({QStringLiteral("export"), QStringLiteral("--db"), store, QStringLiteral("--report"),
                               QStringLiteral("runs"), QStringLiteral("--model"), hash.left(12)});
        QCOMPARE(runs.status, 0);
        QCOMPARE(runs.out.count("\r\n"), 11); // the header and the tiny model's 10 runs
        // A model the store does not know: one sentence naming its models.
        const auto unknown = swb({QStringLiteral("export"), QStringLiteral("--db"), store, QStringLiteral("--report"),
                                  QStringLiteral("runs"), QStringLiteral("--model"), QStringLiteral("/no/such/model")});
        QCOMPARE(unknown.status, 2);
        QVERIFY2(unknown.err.startsWith("swb: no run in the store came from the model /no/such/model; its models: "),
                 unknown.err.constData());
    }

    void runsReport() {
        const Table table =
            exportReport(QStringLiteral("runs"), {"run_id", "model", "strategy_id", "strategy", "strategy_json", "seed",
                                                  "prompt", "text", "tokens", "finish", "ttft_ms", "tokens_per_second",
                                                  "parent_run_id", "branch_step", "created_at", "threads", "fast_math",
                                                  "compute_dtype", "device", "kernel_path"});
        QCOMPARE(table.size(), 11);
        // How each run was computed: the batch ran the demo model with default settings, on this CPU's kernels
        // (the demo model's step reads under a megabyte: one thread, by the thread policy's cut-off).
        const auto info = swb({QStringLiteral("info")});
        QCOMPARE(info.status, 0);
        const QString kernelPath = QJsonDocument::fromJson(info.out).object().value(QLatin1String("kernel_path")).toString();
        QVERIFY2(QStringList({"avx512", "avx2", "portable"}).contains(kernelPath), qPrintable(kernelPath));
        for (qsizetype r = 1; r < table.size(); ++r) {
            const Run& run = m_runs.at(table[r][0].toLongLong());
            QCOMPARE(table[r][3], run.strategy);
            QCOMPARE(table[r][7], expectedCell(run.text));
            QCOMPARE(table[r][8].toInt(), int(run.tokens.size()));
            QVERIFY(QJsonDocument::fromJson(table[r][4].toUtf8()).isObject());
            QVERIFY(table[r][1].endsWith(QStringLiteral("kjv-tiny")));
            QVERIFY(table[r][12].isEmpty());
            QCOMPARE(table[r].mid(15), QStringList({"1", "false", "f32", "cpu", kernelPath}));
        }
    }

    void stepsReport() {
        const Table table =
            exportReport(QStringLiteral("steps"), {"run_id", "step", "token_id", "token_text", "raw_p", "final_p",
                                                   "raw_rank", "raw_entropy", "final_entropy", "final_count"});
        std::size_t steps = 0;
        for (const auto& [id, run] : m_runs)
            steps += run.tokens.size();
        QCOMPARE(std::size_t(table.size() - 1), steps);
        int withText = 0;
        for (qsizetype r = 1; r < table.size(); ++r) {
            const Run& run = m_runs.at(table[r][0].toLongLong());
            const auto step = static_cast<std::size_t>(table[r][1].toInt());
            QCOMPARE(table[r][2].toInt(), run.tokens.at(step));
            QVERIFY(near(number(table[r][4]), run.rawP.at(step), 1e-6));
            withText += !table[r][3].isEmpty();
        }
        QVERIFY(withText > int(steps) / 2); // the demo model's tokenizer names the tokens
    }

    void ratingsAndPreferencesReports() {
        const Table ratings = exportReport(
            QStringLiteral("ratings"), {"run_id", "strategy_id", "strategy", "rater", "dimension", "score", "note"});
        QCOMPARE(ratings.size(), qsizetype(m_ratings.size() + 1));
        for (const Rating& r : m_ratings) {
            bool found = false;
            for (qsizetype i = 1; i < ratings.size(); ++i)
                if (ratings[i][0].toLongLong() == r.runId && ratings[i][3] == r.rater && ratings[i][4] == r.dimension) {
                    found = true;
                    QCOMPARE(number(ratings[i][5]), r.score);
                    QCOMPARE(ratings[i][6], expectedCell(r.note));
                    QCOMPARE(ratings[i][2], m_runs.at(r.runId).strategy);
                }
            QVERIFY(found);
        }

        const Table preferences =
            exportReport(QStringLiteral("preferences"), {"comparison_id", "prompt", "rater", "winner",
                                                         "winner_strategy", "note", "strategy_A", "strategy_B"});
        QCOMPARE(preferences.size(), 11);
        for (qsizetype i = 1; i < preferences.size(); ++i) {
            const QStringList& row = preferences[i];
            const qint64 comparison = row[0].toLongLong();
            const auto p = std::find_if(m_preferences.begin(), m_preferences.end(), [&](const Preference& p) {
                return p.comparisonId == comparison && p.rater == row[2];
            });
            QVERIFY(p != m_preferences.end());
            if (p->winner == QLatin1String("tie") || p->winner == QLatin1String("bothbad")) {
                QCOMPARE(row[3], p->winner);
                QVERIFY(row[4].isEmpty());
            } else {
                QCOMPARE(row[3], p->winner.toUpper());
                QCOMPARE(row[4], strategyOfLabel(comparison, p->winner));
            }
            QCOMPARE(row[6], strategyOfLabel(comparison, QStringLiteral("A")));
            QCOMPARE(row[7], strategyOfLabel(comparison, QStringLiteral("B")));
        }
    }

    void stdoutWithoutOut() {
        const auto result = swb({QStringLiteral("export"), QStringLiteral("--db"), m_db, QStringLiteral("--report"),
                                 QStringLiteral("pairwise")});
        QCOMPARE(result.status, 0);
        exportReport(QStringLiteral("pairwise"));
        QCOMPARE(result.out, readBytes(path(QStringLiteral("pairwise.csv"))));
    }

    // Output paths that would destroy data: the run store itself (as --out of export, or --trace of
    // generate) is refused with the store untouched; a FIFO (like /dev/null) is written through, not
    // replaced by a regular file; a full standard output is an error, not a silent exit 0.
    void outputsNeverDestroyInputs() {
        const QByteArray before = readFile(m_db);
        const auto onStore = swb({QStringLiteral("export"), QStringLiteral("--db"), m_db, QStringLiteral("--report"),
                                  QStringLiteral("runs"), QStringLiteral("--out"), m_db});
        QCOMPARE(onStore.status, 2);
        QVERIFY2(onStore.err.contains("--out") && onStore.err.count('\n') == 1, onStore.err.constData());
        QCOMPARE(readFile(m_db), before);
        // The same file through another path.
        const QString relative = QDir::current().relativeFilePath(m_db);
        const auto trace = swb({QStringLiteral("generate"), QStringLiteral("--prompt"), QStringLiteral("And"),
                                QStringLiteral("--max-tokens"), QStringLiteral("3"), QStringLiteral("--db"), m_db,
                                QStringLiteral("--trace"), relative});
        QCOMPARE(trace.status, 2);
        QVERIFY2(trace.err.contains("--trace"), trace.err.constData());
        QCOMPARE(readFile(m_db), before);

        const QString fifo = path(QStringLiteral("report.fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QProcess reader;
        reader.start(QStringLiteral("cat"), {fifo});
        QVERIFY(reader.waitForStarted());
        const auto toFifo = swb({QStringLiteral("export"), QStringLiteral("--db"), m_db, QStringLiteral("--report"),
                                 QStringLiteral("runs"), QStringLiteral("--out"), fifo});
        QVERIFY(reader.waitForFinished(30000));
        QCOMPARE(toFifo.status, 0);
        QVERIFY(reader.readAllStandardOutput().startsWith("run_id,"));
        QVERIFY(!QFileInfo(fifo).isFile()); // still the FIFO

        QProcess full;
        full.setStandardOutputFile(QStringLiteral("/dev/full"));
        full.start(QStringLiteral(SWB_CLI_PATH), {QStringLiteral("export"), QStringLiteral("--db"), m_db,
                                                  QStringLiteral("--report"), QStringLiteral("runs")});
        QVERIFY(full.waitForFinished(60000));
        QCOMPARE(full.exitCode(), 2);
        QVERIFY(full.readAllStandardError().contains("standard output"));
    }

    void badRatingsImportNothing() {
        const int before = count(QStringLiteral("ratings"));
        const int raters = count(QStringLiteral("raters"));
        // line 2 good (a new rater), 3 unknown run, 4 score out of range, 5-6 a good row with a two-line note,
        // 7 unknown dimension, 8 not a number, 9 repeats line 2.
        writeFile(path(QStringLiteral("bad-ratings.csv")), "run_id,rater,dimension,score,note\n"
                                                           "1,carol,relevance,2,\n"
                                                           "9999,carol,relevance,1,\n"
                                                           "1,carol,fluency,3,\n"
                                                           "2,carol,fluency,1,\"two\nlines\"\n"
                                                           "2,carol,tone,1,\n"
                                                           "3,carol,relevance,abc,\n"
                                                           "1,carol,relevance,1,\n");
        const auto result = swb({QStringLiteral("import-ratings"), QStringLiteral("--db"), m_db,
                                 QStringLiteral("--csv"), path(QStringLiteral("bad-ratings.csv"))});
        QCOMPARE(result.status, 2);
        QVERIFY(result.out.isEmpty());
        const QStringList lines = QString::fromUtf8(result.err).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        const QStringList bad = {"line 3:", "line 4:", "line 7:", "line 8:", "line 9:"};
        for (int i = 0; i < bad.size(); ++i)
            QVERIFY2(lines[i].startsWith(QStringLiteral("swb: ")) && lines[i].contains(bad[i]), qPrintable(lines[i]));
        QVERIFY(lines[0].contains(QStringLiteral("9999")));
        QVERIFY(lines[1].contains(QStringLiteral("outside")));
        QVERIFY(lines[4].contains(QStringLiteral("line 2")));
        QVERIFY(lines[5].contains(QStringLiteral("nothing was imported")));
        QCOMPARE(count(QStringLiteral("ratings")), before);
        QCOMPARE(count(QStringLiteral("raters")), raters);
    }

    void badPreferencesImportNothing() {
        const qint64 c = m_comparisons.begin()->first;
        writeFile(path(QStringLiteral("bad-preferences.csv")), QStringLiteral("comparison_id,rater,winner\n"
                                                                              "%1,dave,A\n"
                                                                              "9999,dave,A\n"
                                                                              "%1,erin,Z\n"
                                                                              "%1,erin,\n"
                                                                              "%1,dave,tie\n")
                                                                   .arg(c)
                                                                   .toUtf8());
        const auto result = swb({QStringLiteral("import-preferences"), QStringLiteral("--db"), m_db,
                                 QStringLiteral("--csv"), path(QStringLiteral("bad-preferences.csv"))});
        QCOMPARE(result.status, 2);
        const QStringList lines = QString::fromUtf8(result.err).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        for (int i = 0; i < 4; ++i)
            QVERIFY2(lines[i].contains(QStringLiteral("line %1:").arg(i + 3)), qPrintable(lines[i]));
        QVERIFY(lines[1].contains(QStringLiteral("'Z'")));
        QCOMPARE(count(QStringLiteral("preferences")), 10);
        QCOMPARE(count(QStringLiteral("raters")), 2);
    }

    void oneSentenceErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        const QString db = path(QStringLiteral("eval.sqlite"));
        QTest::newRow("unwritable out")
            << QStringList{"export", "--db", db, "--report", "summary", "--out", "/nonexistent-folder/summary.csv"}
            << QStringLiteral("/nonexistent-folder/summary.csv");
        QTest::newRow("out is a folder") << QStringList{"export", "--db", db, "--report", "runs", "--out", m_dir.path()}
                                         << QStringLiteral("cannot write --out");
        QTest::newRow("unknown report") << QStringList{"export", "--db", db, "--report", "bogus"}
                                        << QStringLiteral("'bogus'");
        QTest::newRow("missing store") << QStringList{"export", "--db", path("none.sqlite"), "--report", "runs"}
                                       << QStringLiteral("none.sqlite");
        QTest::newRow("unknown rubric") << QStringList{"import-ratings",    "--db",     db,    "--csv",
                                                       path("ratings.csv"), "--rubric", "nope"}
                                        << QStringLiteral("'nope'");
        QTest::newRow("missing column") << QStringList{"import-preferences", "--db", db, "--csv", path("ratings.csv")}
                                        << QStringLiteral("comparison_id");
    }
    void oneSentenceErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        const auto result = swb(args);
        QCOMPARE(result.status, 2);
        QVERIFY(result.out.isEmpty());
        QCOMPARE(result.err.count('\n'), 1);
        QVERIFY2(result.err.startsWith("swb: ") && QString::fromUtf8(result.err).contains(needle),
                 result.err.constData());
        QVERIFY(!QFile::exists(path(QStringLiteral("none.sqlite"))));
    }

    // A strategy given twice with one shared seed would make the same runs twice: refused before anything
    // is generated (it used to generate, then fail on a UNIQUE constraint, leaving a run outside any
    // comparison). With independent seeds it is an A/A comparison and runs.
    void batchRefusesAStrategyTwice() {
        QFile prompts(path(QStringLiteral("twice.txt")));
        QVERIFY(prompts.open(QIODevice::WriteOnly));
        prompts.write("And God said\n");
        prompts.close();
        const QString db = path(QStringLiteral("twice.sqlite"));
        const auto refused = swb({"batch", "--prompts", prompts.fileName(), "--strategy", "greedy", "--strategy", "chat",
                                  "--strategy", "greedy", "--max-tokens", "4", "--db", db});
        QCOMPARE(refused.status, 2);
        QCOMPARE(refused.err.count('\n'), 1);
        QVERIFY2(refused.err.contains("strategies 1 and 3 (greedy) are the same"), refused.err.constData());
        const auto none = swb({"export", "--db", db, "--report", "runs"});
        QCOMPARE(none.status, 0);
        QCOMPARE(none.out.count('\n'), 1); // the header only
        const auto aa = swb({"batch", "--prompts", prompts.fileName(), "--strategy", "chat", "--strategy", "chat",
                             "--seed-policy", "independent", "--max-tokens", "4", "--db", db});
        QVERIFY2(aa.status == 0, aa.err.constData());
        const auto two = swb({"export", "--db", db, "--report", "runs"});
        QCOMPARE(two.out.count('\n'), 3);
    }

    // Issue 35: after one battle (1 to 0) the verdict said the leader "does not win more than it loses". It
    // leads, not clearly: the exact sign test needs 6 decisive battles all won (2 * 0.5^6 < 0.05), 5 more.
    void oneBattleLeadsNotClearly() {
        QFile prompts(path(QStringLiteral("one-battle.txt")));
        QVERIFY(prompts.open(QIODevice::WriteOnly));
        prompts.write("And God said\n");
        prompts.close();
        const QString db = path(QStringLiteral("one-battle.sqlite"));
        QFile::remove(db);
        const auto batch = swb({"batch", "--prompts", prompts.fileName(), "--strategy", "greedy", "--strategy", "chat",
                                "--max-tokens", "4", "--db", db});
        QVERIFY2(batch.status == 0, batch.err.constData());
        const auto comparisons = swb::Database::open(db);
        QVERIFY(comparisons.ok());
        const auto all = swb::ComparisonRepository(*comparisons.value()).listComparisons();
        QVERIFY(all.ok() && all->size() == 1);
        QString chatLabel;
        const auto runs = swb::RunRepository(*comparisons.value()).listRuns().value();
        for (const auto& entry : all->front().entries)
            for (const swb::RunSummary& run : runs)
                if (run.id == entry.runId && run.strategyName == QLatin1String("chat"))
                    chatLabel = entry.blindLabel;
        QVERIFY(!chatLabel.isEmpty());
        QFile csv(path(QStringLiteral("one-battle.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("comparison_id,rater,winner\n" + QByteArray::number(all->front().id) + ",ann," + chatLabel.toUtf8() +
                  "\n");
        csv.close();
        const auto imported = swb({"import-preferences", "--db", db, "--csv", csv.fileName()});
        QVERIFY2(imported.status == 0, imported.err.constData());
        const auto exported = swb({"export", "--db", db, "--report", "summary"});
        QVERIFY2(exported.status == 0, exported.err.constData());
        const auto table = swb::parseCsv(QString::fromUtf8(exported.out));
        QVERIFY(table.ok());
        const QStringList* chat = rowWhere(table.value(), QStringLiteral("strategy"), QStringLiteral("chat"));
        QVERIFY(chat);
        const QString verdict = chat->value(column(table.value(), QStringLiteral("preference_verdict")));
        QVERIFY2(verdict.startsWith(QStringLiteral("no clear winner: chat leads but not clearly against greedy (1 to 0")),
                 qPrintable(verdict));
        QVERIFY2(verdict.contains(QStringLiteral("about 5 more decisive battles")), qPrintable(verdict));
    }

    // The repository the GUI rates through, on the same store (last: it changes it).
    void ratingRepositoryQueries() {
        auto db = swb::Database::open(m_db);
        QVERIFY(db.ok());
        swb::RatingRepository repository(*db.value());
        const qint64 ann = repository.raterId(QStringLiteral("ann")).value();
        QCOMPARE(repository.raterId(QStringLiteral("  ann ")).value(), ann);
        QVERIFY(!repository.raterId(QStringLiteral(" ")).ok());

        const swb::Rubric rubric = repository.defaultRubric().value();
        QCOMPARE(rubric.name, QStringLiteral("default"));
        QCOMPARE(rubric.dimensions.size(), std::size_t(3));
        QCOMPARE(rubric.dimension(QStringLiteral("usefulness"))->max, 4.0);
        QVERIFY(!repository.saveRubric(QStringLiteral("bad"), {{QStringLiteral("x"), 3, 1}}).ok());
        QVERIFY(
            !repository.saveRubric(QStringLiteral("bad"), {{QStringLiteral("x"), 0, 1}, {QStringLiteral("x"), 0, 2}})
                 .ok());
        const swb::Rubric tone =
            repository.saveRubric(QStringLiteral("tone"), {{QStringLiteral("tone"), 1, 5}}).value();
        QCOMPARE(repository.findRubric(QStringLiteral("tone")).value()->dimensions, tone.dimensions);
        QVERIFY(!repository.findRubric(QStringLiteral("bad")).value().has_value());
        QCOMPARE(repository.listRubrics()->size(), std::size_t(2));

        // Ratings: validated against the rubric, upserted by (run, rater, dimension).
        const qint64 run = m_runs.begin()->first;
        swb::RatingRecord rating;
        rating.runId = run;
        rating.raterId = ann;
        rating.dimension = QStringLiteral("tone");
        rating.score = 6;
        QVERIFY(!repository.saveRating(rating, tone).ok());
        rating.score = 2;
        QVERIFY(!repository.saveRating(rating, rubric).ok()); // tone is not in the default rubric
        QVERIFY(repository.saveRating(rating, tone).ok());
        const qint64 id = rating.id;
        rating.score = 4;
        rating.note = QStringLiteral("changed my mind");
        QVERIFY(repository.saveRating(rating, tone).ok());
        QCOMPARE(rating.id, id);
        int tones = 0;
        const std::vector<swb::RatingRecord> ofRun = repository.ratingsOfRun(run).value();
        for (const swb::RatingRecord& r : ofRun)
            if (r.dimension == QLatin1String("tone")) {
                ++tones;
                QCOMPARE(r.score, 4.0);
                QCOMPARE(r.note, QStringLiteral("changed my mind"));
                QCOMPARE(r.raterName, QStringLiteral("ann"));
            }
        QCOMPARE(tones, 1);
        QVERIFY(repository.deleteRating(run, ann, QStringLiteral("tone")).ok());
        QCOMPARE(repository.listRatings()->size(), m_ratings.size());

        // Preferences and the rating queue of a new rater.
        const qint64 zed = repository.raterId(QStringLiteral("zed")).value();
        const qint64 first = m_comparisons.begin()->first;
        const qint64 second = std::next(m_comparisons.begin())->first;
        QCOMPARE(repository.nextUnratedComparison(zed).value(), std::optional<qint64>(first));
        QCOMPARE(repository.progress(zed)->rated, 0);
        QCOMPARE(repository.progress(zed)->total, 5);
        swb::PreferenceRecord vote;
        vote.comparisonId = first;
        vote.raterId = zed;
        vote.winner = swb::PreferenceWinner::Slot;
        vote.winnerSlot = 7;
        QVERIFY(!repository.savePreference(vote).ok()); // no slot 7
        vote.winnerSlot.reset();
        QVERIFY(!repository.savePreference(vote).ok()); // a slot winner needs its slot
        vote.winnerSlot = m_comparisons.begin()->second.front().slot;
        QVERIFY(repository.savePreference(vote).ok());
        vote.winner = swb::PreferenceWinner::BothBad;
        vote.winnerSlot.reset();
        QVERIFY(repository.savePreference(vote).ok());
        const auto stored = repository.preference(first, zed).value();
        QVERIFY(stored.has_value());
        QCOMPARE(stored->winner, swb::PreferenceWinner::BothBad);
        QVERIFY(!stored->winnerSlot.has_value());
        QCOMPARE(repository.nextUnratedComparison(zed).value(), std::optional<qint64>(second));
        QCOMPARE(repository.nextUnratedComparison(zed, second).value(),
                 std::optional<qint64>(std::next(m_comparisons.begin(), 2)->first));
        QCOMPARE(repository.progress(zed)->rated, 1);
        QVERIFY(!repository.nextUnratedComparison(ann).value().has_value()); // ann rated all five
        QCOMPARE(repository.progress(ann)->rated, 5);
        QVERIFY(repository.deletePreference(first, zed).ok());
        QCOMPARE(repository.listPreferences()->size(), std::size_t(10));
    }

    // A ratings file larger than the import's 1 MiB reads: every row arrives whole, quoted notes with commas,
    // doubled quotes and newlines across the chunk boundaries included; and a bad row near the end still
    // leaves nothing imported.
    void largeRatingsFileImportsAcrossChunks() {
        const int before = count(QStringLiteral("ratings"));
        const int rows = 30000;
        QByteArray csv = "run_id,rater,dimension,score,note\n";
        for (int i = 0; i < rows; ++i)
            csv += QStringLiteral("1,bulk%1,relevance,%2,\"note %1, \"\"quoted\"\"\nsecond line\"\n").arg(i).arg(i % 4).toUtf8();
        QVERIFY(csv.size() > (1 << 20) + (1 << 19));
        QByteArray bad = csv;
        bad += "1,bulk-last,relevance,9,\n"; // out of range
        writeFile(path(QStringLiteral("large-bad.csv")), bad);
        auto result = swb({QStringLiteral("import-ratings"), QStringLiteral("--db"), m_db, QStringLiteral("--csv"),
                           path(QStringLiteral("large-bad.csv"))});
        QCOMPARE(result.status, 2);
        QVERIFY2(result.err.contains(QByteArray("line ") + QByteArray::number(2 * rows + 2) + ":"), result.err.constData());
        QCOMPARE(count(QStringLiteral("ratings")), before);
        writeFile(path(QStringLiteral("large.csv")), csv);
        result = swb({QStringLiteral("import-ratings"), QStringLiteral("--db"), m_db, QStringLiteral("--csv"),
                      path(QStringLiteral("large.csv"))});
        QVERIFY2(result.status == 0, result.err.constData());
        QCOMPARE(QJsonDocument::fromJson(result.out).object().value(QStringLiteral("ratings_imported")).toInt(), rows);
        QCOMPARE(count(QStringLiteral("ratings")), before + rows);
        QString note;
        query(QStringLiteral("SELECT note FROM ratings JOIN raters ON raters.id = ratings.rater_id WHERE raters.name = 'bulk25000'"),
              [&](QSqlQuery& q) { note = q.value(0).toString(); });
        QCOMPARE(note, QStringLiteral("note 25000, \"quoted\"\nsecond line"));
    }
};

QTEST_GUILESS_MAIN(TestReportsCli)
#include "tst_reports_cli.moc"
