// The Reports view on a real evaluation: `swb batch` on the bundled demo model (2 strategies, 5 prompts),
// ratings and preferences imported from CSV files this test writes, then the view's tables, charts and
// exports checked against figures the test works out itself from its own data. Then the empty state,
// exports to places that cannot be written, and a refresh that picks up a new rating.

#include <cmath>
#include <map>
#include <numbers>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include "CheckpointWriters.h"
#include "EmptyStatePage.h"
#include "HttpSupport.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "evaluation/PromptFile.h"
#include "reports/ExperimentsPanel.h"
#include "reports/IntervalBarChart.h"
#include "reports/ReportChart.h"
#include "reports/ReportTableModel.h"
#include "reports/ReportsView.h"
#include "reports/WinRateHeatmap.h"
#include "storage/Database.h"
#include "storage/ExperimentRepository.h"
#include "storage/RatingRepository.h"
#include "storage/RunRepository.h"

using namespace swb;

namespace {

struct Rating {
    qint64 runId;
    QString rater;
    QString dimension;
    double score;
};

struct Preference {
    qint64 comparisonId;
    QString rater;
    QString winner; // as written in the file
};

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

QByteArray readBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

double meanOf(const std::vector<double>& values) {
    double sum = 0;
    for (double v : values)
        sum += v;
    return values.empty() ? NAN : sum / static_cast<double>(values.size());
}

bool near(double actual, double expected, double tolerance = 1e-9) {
    return std::abs(actual - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

QStringList header(ReportKind kind) {
    switch (kind) {
    case ReportKind::Runs:
        return {"run_id",        "model",       "strategy_id", "strategy", "strategy_json", "seed",
                "prompt",        "text",        "tokens",      "finish",   "ttft_ms",       "tokens_per_second",
                "parent_run_id", "branch_step", "created_at",  "threads",  "fast_math",     "compute_dtype",
                "device",        "kernel_path"};
    case ReportKind::Steps:
        return {"run_id",  "step",     "token_id",    "token_text",    "raw_p",
                "final_p", "raw_rank", "raw_entropy", "final_entropy", "final_count"};
    case ReportKind::Ratings:
        return {"run_id", "strategy_id", "strategy", "rater", "dimension", "score", "note"};
    case ReportKind::Preferences:
        return {"comparison_id", "prompt", "rater", "winner", "winner_strategy", "note", "strategy_A", "strategy_B"};
    case ReportKind::Summary: {
        QStringList h{"strategy_id", "strategy", "runs"};
        for (const char* d : {"relevance", "fluency", "usefulness"})
            h << QString(d) + "_mean" << QString(d) + "_ci_low" << QString(d) + "_ci_high" << QString(d) + "_n";
        h << "bt_score"
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
        for (const char* d : {"relevance", "fluency", "usefulness"})
            h << QString(d) + "_best" << QString(d) + "_verdict";
        return h << "raters_used"
                 << "ratings_used"
                 << "preferences_used"
                 << "raters_set_aside";
    }
    case ReportKind::Pairwise:
        return {"strategy_a", "strategy_b", "wins_a", "wins_b", "ties", "bothbad", "win_rate_a", "sign_test_p", "holm_p"};
    case ReportKind::Agreement:
        return {"dimension", "alpha_ordinal", "alpha_interval", "units", "pairable_values", "raters",
                "alpha_ordinal_ci_low", "alpha_ordinal_ci_high"};
    case ReportKind::Raters:
        return {"rater", "ratings", "preferences", "gold_answered", "gold_correct", "gold_accuracy",
                "alpha_without_relevance", "alpha_without_fluency", "alpha_without_usefulness", "alpha_change",
                "median_seconds_per_item", "straight_lining", "set_aside", "suggested"};
    case ReportKind::Experiments:
        return {"experiment",
                "state",
                "metric",
                "arm",
                "control",
                "strategy",
                "strategy_hash",
                "weight",
                "requests",
                "units",
                "feedback",
                "mean",
                "mean_ci_low",
                "mean_ci_high",
                "mean_latency_ms",
                "mean_completion_tokens",
                "difference",
                "confidence_sequence_low",
                "confidence_sequence_high",
                "p_value",
                "more_feedbacks_for_80_power",
                "verdict",
                "winner",
                "decision"};
    }
    return {};
}

} // namespace

Q_DECLARE_METATYPE(swb::ReportKind)
Q_DECLARE_METATYPE(swb::ReportsView::Chart)

class TestReports : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_dbPath;
    std::map<qint64, QString> m_strategyOfRun;
    std::map<qint64, int> m_tokensOfRun;
    std::map<qint64, std::map<QString, QString>> m_strategyOfLabel; // comparison -> label -> strategy
    std::vector<Rating> m_ratings;
    std::vector<Preference> m_preferences;
    qint64 m_gold = 0;
    QString m_goldLabel;
    std::unique_ptr<Database> m_database;
    std::unique_ptr<ReportsView> m_view;

    QString path(const QString& name) const { return m_dir.filePath(name); }
    static test::ProcessResult swb(const QStringList& args) { return test::runSwbProcess(args, 300000); }

    void query(const QString& sql, const std::function<void(QSqlQuery&)>& visit) {
        const QString name = QStringLiteral("tst-reports-view-reader");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(m_dbPath);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY2(q.exec(sql), qPrintable(sql));
            while (q.next())
                visit(q);
        }
        QSqlDatabase::removeDatabase(name);
    }

    static bool refreshed(ReportsView& view) {
        QSignalSpy updated(&view, &ReportsView::reportUpdated);
        view.refresh();
        return updated.wait(60000) && !view.isComputing();
    }

    std::vector<double> scores(const QString& strategy, const QString& dimension) const {
        std::vector<double> out;
        for (const Rating& r : m_ratings)
            if (r.dimension == dimension && m_strategyOfRun.at(r.runId) == strategy)
                out.push_back(r.score);
        return out;
    }

    // Each strategy's battles, wins and credit (a tie or bothbad half a win), from the test's own verdicts.
    struct Tally {
        int battles = 0;
        int wins = 0;
        int draws = 0;
        double credit = 0;
    };
    std::map<QString, Tally> tallies() const {
        std::map<QString, Tally> tally;
        for (const Preference& p : m_preferences) {
            const auto& labels = m_strategyOfLabel.at(p.comparisonId);
            for (const auto& [label, strategy] : labels) {
                Tally& t = tally[strategy];
                ++t.battles;
                if (p.winner == QLatin1String("tie") || p.winner == QLatin1String("bothbad")) {
                    ++t.draws;
                    t.credit += 0.5;
                } else if (label.compare(p.winner, Qt::CaseInsensitive) == 0) {
                    ++t.wins;
                    t.credit += 1;
                }
            }
        }
        return tally;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_dbPath = path(QStringLiteral("eval.sqlite"));
        writeFile(path(QStringLiteral("prompts.txt")), "And God said\nIn the beginning\nThe LORD is my shepherd\n"
                                                       "Blessed are the meek\nAnd it came to pass\n");
        const auto batch = swb({"batch", "--prompts", path("prompts.txt"), "--strategy", "greedy", "--strategy", "chat",
                                "--max-tokens", "12", "--db", m_dbPath, "--blind"});
        QVERIFY2(batch.status == 0, batch.err.constData());

        query("SELECT r.id, s.name FROM runs r JOIN strategies s ON s.id = r.strategy_id",
              [&](QSqlQuery& q) { m_strategyOfRun[q.value(0).toLongLong()] = q.value(1).toString(); });
        query("SELECT run_id, count(*) FROM steps GROUP BY run_id",
              [&](QSqlQuery& q) { m_tokensOfRun[q.value(0).toLongLong()] = q.value(1).toInt(); });
        query("SELECT comparison_id, blind_label, run_id FROM comparison_runs", [&](QSqlQuery& q) {
            m_strategyOfLabel[q.value(0).toLongLong()][q.value(1).toString()] =
                m_strategyOfRun.at(q.value(2).toLongLong());
        });
        QCOMPARE(m_strategyOfRun.size(), std::size_t(10));
        QCOMPARE(m_strategyOfLabel.size(), std::size_t(5));

        // The first comparison is gold: greedy's output is the right answer.
        m_gold = m_strategyOfLabel.begin()->first;
        for (const auto& [label, strategy] : m_strategyOfLabel.begin()->second)
            if (strategy == QLatin1String("greedy"))
                m_goldLabel = label;
        query(QStringLiteral("UPDATE comparisons SET is_gold = 1, gold_winner = '%1' WHERE id = %2")
                  .arg(m_goldLabel)
                  .arg(m_gold),
              [](QSqlQuery&) {});

        // Ann and bob score relevance (0-3) and fluency (0-2); only ann scores usefulness (0-4).
        for (const auto& [id, strategy] : m_strategyOfRun) {
            for (const QString& rater : {QStringLiteral("ann"), QStringLiteral("bob")}) {
                const int b = rater == QLatin1String("bob") ? 1 : 0;
                m_ratings.push_back({id, rater, "relevance", double((id * 7 + 2 * b) % 4)});
                m_ratings.push_back({id, rater, "fluency", double((id + b) % 3)});
            }
            m_ratings.push_back({id, "ann", "usefulness", double(id % 5)});
        }
        QByteArray ratings = "run_id,rater,dimension,score\n";
        for (const Rating& r : m_ratings)
            ratings += QStringLiteral("%1,%2,%3,%4\n").arg(r.runId).arg(r.rater, r.dimension).arg(r.score).toUtf8();
        writeFile(path("ratings.csv"), ratings);
        const auto imported = swb({"import-ratings", "--db", m_dbPath, "--csv", path("ratings.csv")});
        QVERIFY2(imported.status == 0, imported.err.constData());

        const QStringList ann = {"A", "B", "tie", "bothbad", "b"};
        const QStringList bob = {"B", "A", "A", "tie", "bothbad"};
        int i = 0;
        for (const auto& [id, labels] : m_strategyOfLabel) {
            m_preferences.push_back({id, "ann", ann[i]});
            m_preferences.push_back({id, "bob", bob[i]});
            ++i;
        }
        QByteArray preferences = "comparison_id,rater,winner\n";
        for (const Preference& p : m_preferences)
            preferences += QStringLiteral("%1,%2,%3\n").arg(p.comparisonId).arg(p.rater, p.winner).toUtf8();
        writeFile(path("preferences.csv"), preferences);
        const auto votes = swb({"import-preferences", "--db", m_dbPath, "--csv", path("preferences.csv")});
        QVERIFY2(votes.status == 0, votes.err.constData());

        Result<std::unique_ptr<Database>> opened = Database::open(m_dbPath);
        QVERIFY2(opened, qPrintable(opened ? QString() : opened.error().message));
        m_database = std::move(opened).value();
        m_view = std::make_unique<ReportsView>(m_database.get(), nullptr);
        m_view->resize(1280, 760);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
        QCOMPARE(m_view->objectName(), QStringLiteral("reports"));
        // The computation runs off the GUI thread: refresh() returns at once.
        QSignalSpy updated(m_view.get(), &ReportsView::reportUpdated);
        QElapsedTimer timer;
        timer.start();
        m_view->refresh();
        QVERIFY2(timer.elapsed() < 50, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(m_view->isComputing());
        QVERIFY(updated.wait(60000));
        QVERIFY(m_view->showsReport());
        qInfo("summary computed in %lld ms", m_view->lastComputeMs());
    }

    void modelsAreWellBehaved() {
        for (ReportTableModel* model : {m_view->strategyModel(), m_view->agreementModel(), m_view->raterModel()}) {
            QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
            QVERIFY(model->rowCount() > 0);
            QVERIFY(!model->headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        }
        // The table view shows every row and sorts by its figures.
        QCOMPARE(m_view->strategyTable()->model()->rowCount(), 2);
    }

    void strategyTableMatchesImportedData() {
        const ReportTableModel* model = m_view->strategyModel();
        QCOMPARE(model->rowCount(), 2);
        const std::map<QString, Tally> tally = tallies();
        for (const QString& strategy : {QStringLiteral("greedy"), QStringLiteral("chat")}) {
            int runs = 0;
            for (const auto& [id, s] : m_strategyOfRun)
                runs += s == strategy;
            QCOMPARE(model->text(strategy, "Runs"), QString::number(runs));
            for (const QString& d :
                 {QStringLiteral("relevance"), QStringLiteral("fluency"), QStringLiteral("usefulness")}) {
                const std::vector<double> values = scores(strategy, d);
                const QString cell = model->text(strategy, d);
                // "2.10 [1.80, 2.40] n=20"
                QVERIFY2(cell.startsWith(QString::number(meanOf(values), 'f', 2) + " ["), qPrintable(cell));
                QVERIFY2(cell.endsWith(QStringLiteral("n=%1").arg(values.size())), qPrintable(cell));
                const QString inside = cell.section('[', 1).section(']', 0, 0);
                const double low = inside.section(',', 0, 0).toDouble();
                const double high = inside.section(',', 1).trimmed().toDouble();
                QVERIFY(low <= meanOf(values) + 0.005 && meanOf(values) - 0.005 <= high);
            }
            const Tally& t = tally.at(strategy);
            QVERIFY(
                model->cell(strategy, "Win rate")->toolTip.endsWith(QStringLiteral(" of %1 battles").arg(t.battles)));
            QCOMPARE(model->text(strategy, "Win rate"), QString::number(t.credit / t.battles, 'f', 2));
            double length = 0;
            for (const auto& [id, s] : m_strategyOfRun)
                if (s == strategy)
                    length += m_tokensOfRun[id];
            QCOMPARE(model->text(strategy, "Length"), QString::number(length / runs, 'f', 1));
        }
        // Sort keys are the figures themselves: the mean of relevance, unrounded.
        const QTableView* table = m_view->strategyTable();
        for (int row = 0; row < 2; ++row) {
            const QString strategy = table->model()->index(row, 0).data().toString();
            const int column = static_cast<int>(m_view->report().dimensions.indexOf("relevance")) + 2;
            QVERIFY(near(table->model()->index(row, column).data(Qt::UserRole).toDouble(),
                         meanOf(scores(strategy, "relevance"))));
        }
    }

    void dimensionChartFollowsTheCombo() {
        QComboBox* combo = m_view->dimensionCombo();
        QCOMPARE(combo->count(), 3);
        for (const QString& d :
             {QStringLiteral("fluency"), QStringLiteral("usefulness"), QStringLiteral("relevance")}) {
            combo->setCurrentText(d);
            const std::vector<IntervalBar>& bars = m_view->dimensionChart()->bars();
            QCOMPARE(bars.size(), std::size_t(2));
            for (const IntervalBar& bar : bars) {
                QVERIFY2(near(bar.value, meanOf(scores(bar.label, d))), qPrintable(bar.label + " " + d));
                QVERIFY(bar.interval.low <= bar.value && bar.value <= bar.interval.high);
            }
            QVERIFY(m_view->dimensionChart()->placeholder().isEmpty());
        }
    }

    void bradleyTerryChartMatchesClosedForm() {
        const std::vector<IntervalBar>& bars = m_view->bradleyTerryChart()->bars();
        QCOMPARE(bars.size(), std::size_t(2));
        std::map<QString, double> bt;
        for (const IntervalBar& bar : bars) {
            bt[bar.label] = bar.value;
            QVERIFY(bar.interval.low <= bar.value && bar.value <= bar.interval.high);
            QVERIFY(std::isfinite(bar.marker)); // online Elo
        }
        // Two strategies and one virtual tie (README): P(greedy beats chat) = (credit + 0.5) / (battles + 1).
        const Tally greedy = tallies().at("greedy");
        const double p = (greedy.credit + 0.5) / (greedy.battles + 1);
        QVERIFY(near(1 / (1 + std::pow(10, (bt["chat"] - bt["greedy"]) / 400)), p));
        QVERIFY(near((bt["chat"] + bt["greedy"]) / 2, 1000.0));
    }

    // The agreement chart: a bar per dimension at the report's ordinal alpha inside its bootstrap interval;
    // the verdict line says what the export's summary says.
    void agreementChartAndVerdict() {
        const std::vector<IntervalBar>& bars = m_view->agreementChart()->bars();
        QCOMPARE(bars.size(), m_view->report().agreement.size());
        for (std::size_t i = 0; i < bars.size(); ++i) {
            const AgreementRow& row = m_view->report().agreement[i];
            QCOMPARE(bars[i].label, row.dimension);
            if (std::isnan(row.alphaOrdinal)) {
                QVERIFY(std::isnan(bars[i].value));
                continue;
            }
            QCOMPARE(bars[i].value, row.alphaOrdinal);
            QVERIFY(bars[i].interval.low <= bars[i].value && bars[i].value <= bars[i].interval.high);
        }
        const auto* verdict = m_view->findChild<QLabel*>(QStringLiteral("preferenceVerdict"));
        QVERIFY(verdict);
        // In English each line is the export's sentence (the Bradley-Terry dash aside): preferences, then every
        // rated dimension.
        std::vector<PreferenceVerdict> verdicts{m_view->report().preferenceVerdict};
        verdicts.insert(verdicts.end(), m_view->report().dimensionVerdicts.begin(), m_view->report().dimensionVerdicts.end());
        QCOMPARE(m_view->report().dimensionVerdicts.size(), std::size_t(m_view->report().dimensions.size()));
        for (const PreferenceVerdict& v : verdicts) {
            QString expected = v.evidence;
            if (!v.dimension.isEmpty())
                expected.remove(0, v.dimension.size() + 2); // the line's label says the dimension
            expected.replace(QStringLiteral("Bradley-Terry"), QStringLiteral("Bradley–Terry")).replace(QStringLiteral("<="), QStringLiteral("≤"));
            QVERIFY2(verdict->text().contains(expected.toHtmlEscaped()), qPrintable(verdict->text() + " vs " + expected));
        }
        QVERIFY(!m_view->report().preferenceVerdict.evidence.isEmpty());
    }

    void heatmapCellsCountTheVerdicts() {
        const WinRateMatrix& matrix = m_view->winRateChart()->matrix();
        QCOMPARE(matrix.size(), 2);
        QVERIFY(m_view->winRateChart()->placeholder().isEmpty());
        const int g = static_cast<int>(matrix.strategies.indexOf("greedy"));
        const int c = static_cast<int>(matrix.strategies.indexOf("chat"));
        QVERIFY(g >= 0 && c >= 0);
        int greedyWins = 0, chatWins = 0, ties = 0, bothBad = 0;
        for (const Preference& p : m_preferences) {
            if (p.winner == QLatin1String("tie"))
                ++ties;
            else if (p.winner == QLatin1String("bothbad"))
                ++bothBad;
            else if (m_strategyOfLabel.at(p.comparisonId).at(p.winner.toUpper()) == QLatin1String("greedy"))
                ++greedyWins;
            else
                ++chatWins;
        }
        const WinRateCell& gc = matrix.cell(g, c);
        const WinRateCell& cg = matrix.cell(c, g);
        QCOMPARE(gc.wins, greedyWins);
        QCOMPARE(gc.losses, chatWins);
        QCOMPARE(cg.wins, chatWins);
        QCOMPARE(gc.ties, ties);
        QCOMPARE(gc.bothBad, bothBad);
        QVERIFY(near(gc.winRate, (greedyWins + 0.5 * (ties + bothBad)) / 10.0));
        QVERIFY(near(cg.winRate, (chatWins + 0.5 * (ties + bothBad)) / 10.0));
        QVERIFY(std::isnan(matrix.cell(g, g).winRate));
        QCOMPARE(m_view->winRateChart()->cellText(g, c), QStringLiteral("%1\n%2–%3–%4")
                                                             .arg(QString::number(gc.winRate, 'f', 2))
                                                             .arg(greedyWins)
                                                             .arg(chatWins)
                                                             .arg(ties + bothBad));
        QVERIFY(m_view->winRateChart()->cellText(g, g).isEmpty());
    }

    void agreementAndRaters() {
        const ReportTableModel* agreement = m_view->agreementModel();
        QCOMPARE(agreement->rowCount(), 3);
        // Two raters, no missing values: interval alpha = 1 - (n - 1) sum_u (a_u - b_u)^2 / (n SS).
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
            QCOMPARE(agreement->text(d, "α interval"), QString::number(1 - (n - 1) * disagreement / (n * ss), 'f', 3));
            QCOMPARE(agreement->text(d, "Units"), QStringLiteral("10"));
        }
        QCOMPARE(agreement->text("usefulness", "α ordinal"), QStringLiteral("\u2014"));

        const ReportTableModel* raters = m_view->raterModel();
        QCOMPARE(raters->rowCount(), 2);
        for (const QString& rater : {QStringLiteral("ann"), QStringLiteral("bob")}) {
            int ratings = 0, preferences = 0;
            bool correct = false;
            for (const Rating& r : m_ratings)
                ratings += r.rater == rater;
            for (const Preference& p : m_preferences) {
                preferences += p.rater == rater;
                if (p.rater == rater && p.comparisonId == m_gold)
                    correct = p.winner.compare(m_goldLabel, Qt::CaseInsensitive) == 0;
            }
            QCOMPARE(raters->text(rater, "Ratings"), QString::number(ratings));
            QCOMPARE(raters->text(rater, "Preferences"), QString::number(preferences));
            QCOMPARE(raters->text(rater, "Gold"), QStringLiteral("1"));
            QCOMPARE(raters->text(rater, "Gold accuracy"), correct ? QStringLiteral("1.00") : QStringLiteral("0.00"));
        }
    }

    void exportCsvWritesEveryReport_data() {
        QTest::addColumn<ReportKind>("kind");
        QTest::addColumn<int>("rows");
        int steps = 0;
        for (const auto& [id, n] : m_tokensOfRun)
            steps += n;
        QTest::newRow("runs") << ReportKind::Runs << 10;
        QTest::newRow("steps") << ReportKind::Steps << steps;
        QTest::newRow("ratings") << ReportKind::Ratings << int(m_ratings.size());
        QTest::newRow("preferences") << ReportKind::Preferences << 10;
        QTest::newRow("summary") << ReportKind::Summary << 2;
        QTest::newRow("pairwise") << ReportKind::Pairwise << 1;
        QTest::newRow("agreement") << ReportKind::Agreement << 3;
        QTest::newRow("raters") << ReportKind::Raters << 2;
        QTest::newRow("experiments") << ReportKind::Experiments << 0; // the fixture's store has none
    }

    void exportCsvWritesEveryReport() {
        QFETCH(ReportKind, kind);
        QFETCH(int, rows);
        const QString out = path(Reports::kindNames().at(static_cast<int>(kind)) + ".csv");
        QSignalSpy status(m_view.get(), &ReportsView::statusMessage);
        QVERIFY(m_view->exportCsv(kind, out));
        QCOMPARE(status.count(), 1);
        QVERIFY(m_view->message().contains(QDir::toNativeSeparators(out)));
        const QByteArray bytes = readBytes(out);
        QVERIFY(bytes.endsWith("\r\n"));
        const auto parsed = parseCsv(QString::fromUtf8(bytes));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->first(), header(kind));
        QCOMPARE(parsed->size(), rows + 1);
        for (const QStringList& row : parsed.value())
            QCOMPARE(row.size(), parsed->first().size());
        if (kind == ReportKind::Steps) {
            // Token texts come from the demo model's tokenizer.
            int withText = 0;
            for (qsizetype r = 1; r < parsed->size(); ++r)
                withText += !parsed->at(r).at(3).isEmpty();
            QVERIFY(withText > 0);
        }
        if (kind == ReportKind::Summary) {
            // The file holds the figures the table shows.
            for (qsizetype r = 1; r < parsed->size(); ++r) {
                const QString strategy = parsed->at(r).at(1);
                const double mean = parsed->at(r).at(3).toDouble();
                QVERIFY(near(mean, meanOf(scores(strategy, "relevance"))));
                QVERIFY(m_view->strategyModel()->text(strategy, "relevance").startsWith(QString::number(mean, 'f', 2)));
            }
        }
    }

    void exportButtonsWriteThroughTheDialogSeam() {
        const QString out = path("pairwise-from-button.csv");
        m_view->setNextSavePath(out);
        QSignalSpy finished(m_view.get(), &ReportsView::csvExportFinished);
        QPushButton* button = m_view->csvButton(ReportKind::Pairwise);
        QVERIFY(button && button->isVisible() && button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.front().at(0).toString(), out);
        QVERIFY(finished.front().at(1).toBool());
        const auto parsed = parseCsv(QString::fromUtf8(readBytes(out)));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->first(), header(ReportKind::Pairwise));
        QVERIFY(button->isEnabled());
    }

    // Issue 39: the save dialog's answer may not be the open store nor a file SQLite keeps beside it; the
    // view says so and writes nothing.
    void exportNeverReplacesTheOpenStore() {
        const QString store = m_database->path();
        for (const QString& target : {store, store + "-wal", store + "-shm", store + "-journal"}) {
            const bool existed = QFile::exists(target);
            const QByteArray before = existed ? readBytes(target) : QByteArray();
            m_view->setNextSavePath(target);
            QSignalSpy finished(m_view.get(), &ReportsView::csvExportFinished);
            QTest::mouseClick(m_view->csvButton(ReportKind::Runs), Qt::LeftButton);
            QVERIFY2(m_view->message().contains(QDir::toNativeSeparators(target)) &&
                         m_view->message().endsWith("choose another file."),
                     qPrintable(m_view->message()));
            QTest::qWait(50);
            QCOMPARE(finished.count(), 0);
            QCOMPARE(QFile::exists(target), existed);
            if (existed && !target.endsWith("-shm") && !target.endsWith("-wal"))
                QCOMPARE(readBytes(target), before);
        }
    }

    void unwritablePathsFailCleanly() {
        const QString missing = path("no-such-folder/summary.csv");
        QSignalSpy status(m_view.get(), &ReportsView::statusMessage);
        QVERIFY(!m_view->exportCsv(ReportKind::Summary, missing));
        QCOMPARE(status.count(), 1);
        const QString sentence = status.front().front().toString();
        QVERIFY2(sentence.startsWith("Cannot write the summary report to ") && sentence.endsWith('.'),
                 qPrintable(sentence));
        QVERIFY(sentence.contains(QDir::toNativeSeparators(missing)));
        QCOMPARE(m_view->message(), sentence);
        QVERIFY(!QFile::exists(missing));
        // A folder is not a file either, and the button path reports the same way.
        QVERIFY(!m_view->exportCsv(ReportKind::Runs, m_dir.path()));
        m_view->setNextSavePath(missing);
        QSignalSpy finished(m_view.get(), &ReportsView::csvExportFinished);
        QTest::mouseClick(m_view->csvButton(ReportKind::Raters), Qt::LeftButton);
        QVERIFY(finished.wait(30000));
        QVERIFY(!finished.front().at(1).toBool());
        QVERIFY(m_view->message().startsWith("Cannot write the raters report"));
        // Charts too.
        QVERIFY(!m_view->exportChart(ReportsView::Chart::WinRates, path("no-such-folder/heatmap.png")));
        QVERIFY(m_view->message().startsWith("Cannot write the chart"));
    }

    void exportChartWritesImages_data() {
        QTest::addColumn<ReportsView::Chart>("chart");
        QTest::newRow("means") << ReportsView::Chart::DimensionMeans;
        QTest::newRow("bradley-terry") << ReportsView::Chart::BradleyTerry;
        QTest::newRow("win rates") << ReportsView::Chart::WinRates;
        QTest::newRow("agreement") << ReportsView::Chart::Agreement;
    }

    void exportChartWritesImages() {
        QFETCH(ReportsView::Chart, chart);
        const QString png = path(QStringLiteral("chart-%1.png").arg(static_cast<int>(chart)));
        QVERIFY(m_view->exportChart(chart, png));
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 400 && image.height() >= 300);
        // Not a blank canvas: bars, cells or text in more than one colour.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 4);
        const QString pdf = path(QStringLiteral("chart-%1.pdf").arg(static_cast<int>(chart)));
        QVERIFY(m_view->exportChart(chart, pdf));
        QVERIFY(readBytes(pdf).startsWith("%PDF"));
    }

    // Setting a rater aside from the Reports tab: the figures are computed without them, the table says so,
    // and counting them again brings back every figure.
    void settingARaterAsideFromTheTab() {
        const QString before = m_view->strategyModel()->text(m_strategyOfRun.begin()->second, "relevance");
        int bobRelevance = 0;
        for (const Rating& r : m_ratings)
            bobRelevance += r.rater == QLatin1String("bob") && r.dimension == QLatin1String("relevance") &&
                            r.runId == m_strategyOfRun.begin()->first;
        QSignalSpy updated(m_view.get(), &ReportsView::reportUpdated);
        QVERIFY(m_view->setRaterAside("bob", "reads nothing"));
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 1 && !m_view->isComputing(), 60000);
        QCOMPARE(m_view->report().ratersSetAside, 1);
        QCOMPARE(m_view->raterModel()->text("bob", "Status"), QStringLiteral("set aside"));
        QVERIFY(m_view->findChild<QLabel*>("reportOverview")->text().contains("(1 set aside)"));
        int ratingsWithoutBob = 0;
        for (const Rating& r : m_ratings)
            ratingsWithoutBob += r.rater != QLatin1String("bob");
        QCOMPARE(m_view->report().ratingsUsed, ratingsWithoutBob);
        QVERIFY(bobRelevance == 0 || m_view->strategyModel()->text(m_strategyOfRun.begin()->second, "relevance") != before);
        QVERIFY(m_view->setRaterAside("bob", QString()));
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 2 && !m_view->isComputing(), 60000);
        QCOMPARE(m_view->report().ratersSetAside, 0);
        QCOMPARE(m_view->strategyModel()->text(m_strategyOfRun.begin()->second, "relevance"), before);
        QVERIFY(!m_view->setRaterAside("nobody", "x"));
        QVERIFY(m_view->message().contains("no rater named 'nobody'"));
        // The suggestion thresholds are the user's: above every gold accuracy below 1, those raters are suggested.
        QSignalSpy thresholds(m_view.get(), &ReportsView::suggestionThresholdsChanged);
        m_view->setSuggestionThresholds(1.0, 10.0);
        QCOMPARE(thresholds.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!m_view->isComputing() && m_view->options().goldAccuracyThreshold == 1.0, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!m_view->isComputing(), 60000);
        int suggested = 0;
        for (const RaterRow& r : m_view->report().raters) {
            const bool below = std::isfinite(r.goldAccuracy) && r.goldAccuracy < 1.0;
            suggested += below ? 1 : 0;
            QCOMPARE(m_view->raterModel()->text(r.rater, "Status"), below ? QStringLiteral("suggested") : QString());
        }
        QVERIFY(suggested > 0); // the fixture has a rater who missed the gold answer
        m_view->setSuggestionThresholds(0.6, 0.05);
        QTRY_VERIFY_WITH_TIMEOUT(!m_view->isComputing(), 60000);
    }

    void refreshPicksUpNewRatings() {
        RatingRepository repository(*m_database);
        Result<Rubric> rubric = repository.defaultRubric();
        QVERIFY(rubric);
        Result<qint64> rater = repository.raterId("cy");
        QVERIFY(rater);
        const qint64 run = m_strategyOfRun.begin()->first;
        RatingRecord rating;
        rating.runId = run;
        rating.raterId = rater.value();
        rating.dimension = "relevance";
        rating.score = 3;
        QVERIFY(repository.saveRating(rating, rubric.value()));
        m_ratings.push_back({run, "cy", "relevance", 3});
        QVERIFY(refreshed(*m_view));
        const QString strategy = m_strategyOfRun.begin()->second;
        const std::vector<double> values = scores(strategy, "relevance");
        QVERIFY(
            m_view->strategyModel()->text(strategy, "relevance").endsWith(QStringLiteral("n=%1").arg(values.size())));
        QCOMPARE(m_view->raterModel()->rowCount(), 3);
        // A refresh asked for while one runs is not lost.
        QSignalSpy updated(m_view.get(), &ReportsView::reportUpdated);
        m_view->refresh();
        m_view->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(updated.count(), 2, 60000);
        QTRY_VERIFY(!m_view->isComputing());
    }

    void reportsPerModel() {
        // One model: no model box. A second model's runs (greedy on a tiny random llama2.c model): the box lists
        // both, and choosing one counts only its runs, ratings and comparisons.
        QVERIFY(!m_view->modelCombo()->isVisible());
        std::vector<std::pair<std::string, float>> vocab = swb::test::llama2cBaseVocab();
        swb::test::LlamaShape shape;
        shape.vocab = static_cast<int>(vocab.size());
        shape.context = 64;
        QVERIFY(swb::test::writeBytes(path("tiny.bin"), swb::test::llama2cBytes(swb::test::randomLlama(shape, 3), 0)));
        QVERIFY(swb::test::writeFile(path("tok.bin"), swb::test::tokBin(vocab)));
        const auto batch = swb({"batch", "--model", path("tiny.bin"), "--tokenizer", path("tok.bin"), "--prompts",
                                path("prompts.txt"), "--strategy", "greedy", "--max-tokens", "5", "--db", m_dbPath});
        QVERIFY2(batch.status == 0, batch.err.constData());
        QVERIFY(refreshed(*m_view));
        QComboBox* box = m_view->modelCombo();
        QVERIFY(box->isVisible());
        QCOMPARE(box->count(), 3); // every model, then the two by name
        const auto runsOf = [&](const QString& strategy) {
            for (const StrategySummary& s : m_view->report().strategies)
                if (s.strategy == strategy)
                    return s.runs;
            return -1;
        };
        QCOMPARE(runsOf("greedy"), 10);
        int tiny = -1;
        for (int i = 0; i < box->count(); ++i)
            if (box->itemText(i).startsWith(QStringLiteral("tiny.bin (5 run")))
                tiny = i;
        QVERIFY(tiny > 0);
        box->setCurrentIndex(tiny);
        QSignalSpy updated(m_view.get(), &ReportsView::reportUpdated);
        emit box->activated(tiny);
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 1 && !m_view->isComputing(), 60000);
        QCOMPARE(m_view->report().strategies.size(), std::size_t(1)); // only greedy ran on it
        QCOMPARE(runsOf("greedy"), 5);
        QCOMPARE(m_view->report().ratingsUsed, 0);
        QCOMPARE(m_view->report().preferencesUsed, 0);
        QVERIFY(!m_view->modelFilter().isEmpty());
        m_view->setModelFilter({});
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 2 && !m_view->isComputing(), 60000);
        QCOMPARE(runsOf("greedy"), 10);
        QCOMPARE(box->currentIndex(), 0);
    }

    // Issue 35: with 16 strategies the report's tables asked for 1,148 px, so the window grew past a 900 px
    // screen and the Export buttons went off it. The report scrolls instead; the tab stays small.
    void manyStrategiesFitASmallScreen() {
        const QString store = path("sixteen.sqlite");
        QStringList args{"batch", "--prompts", path("prompts.txt"), "--max-tokens", "2", "--db", store};
        for (int i = 1; i <= 16; ++i)
            args << "--strategy"
                 << QStringLiteral(R"({"name": "t%1", "samplers": [{"type": "temperature", "value": %2}, {"type": "dist"}]})")
                        .arg(i)
                        .arg(0.1 * i);
        const auto batch = swb(args);
        QVERIFY2(batch.status == 0, batch.err.constData());
        Result<std::unique_ptr<Database>> opened = Database::open(store);
        QVERIFY(opened);
        QByteArray ratings = "run_id,rater,dimension,score\n";
        const auto runs = RunRepository(*opened.value()).listRuns();
        QVERIFY(runs && runs->size() == 80);
        for (const RunSummary& run : runs.value())
            ratings += QByteArray::number(run.id) + ",ann,relevance," + QByteArray::number(run.id % 4) + "\n";
        writeFile(path("sixteen-ratings.csv"), ratings);
        const auto imported = swb({"import-ratings", "--db", store, "--csv", path("sixteen-ratings.csv")});
        QVERIFY2(imported.status == 0, imported.err.constData());
        ReportsView view(opened.value().get(), nullptr);
        view.resize(1024, 560); // a 1024x700 screen less the title, menu, tab and status bars
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(refreshed(view));
        QVERIFY(view.showsReport());
        QCOMPARE(view.report().strategies.size(), std::size_t(16));
        QCoreApplication::processEvents();
        QVERIFY2(view.minimumSizeHint().height() <= 560, qPrintable(QString::number(view.minimumSizeHint().height())));
        QCOMPARE(view.size(), QSize(1024, 560));
        for (const QPushButton* button : view.findChildren<QPushButton*>())
            if (button->objectName().startsWith(QStringLiteral("exportCsv_")))
                QVERIFY2(view.rect().contains(QRect(button->mapTo(&view, QPoint(0, 0)), button->size())),
                         qPrintable(button->objectName()));
        // Issue 35: with many strategies the charts' printed values, "no data" notes and names piled up. Only
        // what has room is shown: no two texts overlap, and labelled ticks are a text line apart.
        QTest::qWait(100);
        for (ReportChart* chart : view.findChildren<ReportChart*>()) {
            QCustomPlot* plot = chart->plot();
            plot->replot(QCustomPlot::rpImmediateRefresh);
            plot->replot(QCustomPlot::rpImmediateRefresh); // a second layout once labels are thinned
            std::vector<QRectF> texts;
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)); text && text->visible())
                    texts.emplace_back(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
            for (std::size_t a = 0; a < texts.size(); ++a)
                for (std::size_t b = a + 1; b < texts.size(); ++b)
                    QVERIFY2(!texts[a].intersects(texts[b]), qPrintable(chart->title()));
            QCPAxis* x = plot->xAxis;
            const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(x->ticker());
            if (!ticker || x->tickLabelRotation() == 0)
                continue;
            double previous = NAN;
            for (auto it = ticker->ticks().begin(); it != ticker->ticks().end(); ++it) {
                if (it.value().isEmpty())
                    continue;
                const double at = x->coordToPixel(it.key());
                if (std::isfinite(previous))
                    QVERIFY2((at - previous) * std::sin(std::numbers::pi / 3) >= QFontMetrics(x->tickLabelFont()).height(),
                             qPrintable(QStringLiteral("%1: labels %2 px apart").arg(chart->title()).arg(at - previous)));
                previous = at;
            }
        }
    }

    void anIdleChartStaysIdle_data() {
        QTest::addColumn<int>("bars");
        QTest::newRow("no bars") << 0;
        QTest::newRow("three bars") << 3;
    }

    // A chart left alone draws nothing more: fitting its labels after a layout used to ask for another replot
    // when it had no bars, which laid out again and so on, a whole core spent while the window sat idle.
    void anIdleChartStaysIdle() {
        QFETCH(int, bars);
        IntervalBarChart chart(QStringLiteral("idle"));
        chart.resize(500, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        std::vector<IntervalBar> values;
        for (int i = 0; i < bars; ++i) {
            IntervalBar bar;
            bar.label = QStringLiteral("strategy %1").arg(i);
            bar.value = 0.5 + 0.1 * i;
            values.push_back(bar);
        }
        chart.setBars(values, IntervalBarChart::Axis{});
        QTest::qWait(300); // the replots the new content asks for
        QSignalSpy replots(chart.plot(), &QCustomPlot::afterReplot);
        QTest::qWait(500);
        QCOMPARE(replots.count(), 0);
    }

    void emptyStoreExplainsHowToGetData() {
        const QString emptyPath = path("empty.sqlite");
        const auto batch = swb({"batch", "--prompts", path("prompts.txt"), "--strategy", "greedy", "--strategy", "chat",
                                "--max-tokens", "4", "--db", emptyPath});
        QVERIFY2(batch.status == 0, batch.err.constData());
        Result<std::unique_ptr<Database>> opened = Database::open(emptyPath);
        QVERIFY(opened);
        ReportsView view(opened.value().get(), nullptr);
        view.resize(900, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(refreshed(view));
        QVERIFY(!view.showsReport());
        auto* page = view.findChild<EmptyStatePage*>(QStringLiteral("reportsEmpty"));
        QVERIFY(page && page->isVisible());
        QString text;
        for (const QLabel* label : page->findChildren<QLabel*>())
            text += label->text() + '\n';
        QVERIFY2(text.contains("Compare") && text.contains("swb import-ratings") &&
                     text.contains("runs recorded so far: 10"),
                 qPrintable(text));
        QVERIFY(view.refreshButton()->isEnabled());
        // Runs can be exported all the same.
        QVERIFY(view.exportCsv(ReportKind::Runs, path("empty-runs.csv")));
    }

    // A store with an experiment of swb serve (thumbs up from users 'a*' on B, down on A; the others mixed):
    // the panel shows its arms, the decision and the feedback over time, and an arm opens its newest run.
    void experimentsPanelShowsAServedExperiment() {
        const QString store = path("experiment.sqlite");
        QList<QPair<QString, QString>> served; // completion id, arm
        {
            swb::test::ServeProcess serve(
                {"--db", store, "--experiment", "panel", "--arm", "A=greedy", "--arm", "B=creative"});
            QVERIFY(serve.port() > 0);
            for (int u = 0; u < 60; ++u) {
                const QByteArray body =
                    QStringLiteral(R"({"prompt": "And", "max_tokens": 2, "user": "u%1"})").arg(u).toUtf8();
                const auto reply =
                    swb::test::exchange(serve.port(), swb::test::request("POST", "/v1/completions", body));
                const QJsonObject answer = QJsonDocument::fromJson(reply.body).object();
                const QString arm = answer.value("experiment").toObject().value("arm").toString();
                served.append({answer.value("id").toString(), arm});
                const QByteArray feedback = QStringLiteral(R"({"id": "%1", "thumbs": "%2"})")
                                                .arg(answer.value("id").toString(), arm == "B" ? "up" : "down")
                                                .toUtf8();
                QCOMPARE(swb::test::exchange(serve.port(), swb::test::request("POST", "/v1/feedback", feedback)).status,
                         200);
            }
        }
        Result<std::unique_ptr<Database>> opened = Database::open(store);
        QVERIFY(opened);
        ReportsView view(opened.value().get(), nullptr);
        view.resize(1000, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(refreshed(view));
        QVERIFY(view.showsReport());
        ExperimentsPanel* panel = view.experimentsPanel();
        QVERIFY(panel->isVisibleTo(&view));
        QCOMPARE(panel->experimentCombo()->count(), 1);
        QCOMPARE(panel->armModel()->rowCount(), 2);
        int countB = 0;
        for (const auto& [id, arm] : served)
            countB += arm == "B";
        QCOMPARE(panel->armModel()->text("B", "Feedback"), QString::number(countB));
        QCOMPARE(panel->armModel()->text("A (control)", "Feedback"), QString::number(60 - countB));
        QVERIFY(panel->armModel()->text("B", "Thumbs up").startsWith("1.000"));
        QVERIFY2(panel->decisionLabel()->text().contains("B is better"), qPrintable(panel->decisionLabel()->text()));
        QCOMPARE(panel->chart()->plot()->graphCount(), 2);
        // A point per feedback from B's first one on.
        qsizetype firstB = 0;
        while (served[firstB].second != "B")
            ++firstB;
        QCOMPARE(panel->chart()->plot()->graph(1)->data()->size(), int(60 - firstB));
        // The newest run of B opens.
        QSignalSpy open(&view, &ReportsView::openRun);
        const QModelIndex b = panel->armTable()->model()->index(1, 0);
        const QPoint at = panel->armTable()->visualRect(b).center();
        QTest::mousePress(panel->armTable()->viewport(), Qt::LeftButton, {}, at); // the press a double-click follows
        QTest::mouseRelease(panel->armTable()->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(panel->armTable()->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(open.count(), 1);
        const qint64 run = open.first().first().toLongLong();
        QCOMPARE(run, panel->newestRun(1));
        QVERIFY(run > 0);
        // It is the run of the last completion B served.
        QString lastB;
        for (const auto& [id, arm] : served)
            if (arm == "B")
                lastB = id;
        QCOMPARE(run, ExperimentRepository(*opened.value()).servedRun(lastB, 0).value()->runId);
    }

    void noStoreIsNoCrash() {
        ReportsView view(nullptr, nullptr);
        QSignalSpy updated(&view, &ReportsView::reportUpdated);
        view.refresh();
        QCOMPARE(updated.count(), 1);
        QVERIFY(!view.showsReport());
        QVERIFY(!view.exportCsv(ReportKind::Summary, path("x.csv")));
        QVERIFY(!view.message().isEmpty());
    }

    void cleanupTestCase() {
        m_view.reset();
        m_database.reset();
    }
};

QTEST_MAIN(TestReports)
#include "tst_reports.moc"
