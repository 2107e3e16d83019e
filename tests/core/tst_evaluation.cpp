// Evaluation statistics against published and hand-computed values, and the CSV writer (quoting,
// formula neutralisation, round trip through parseCsv).

#include <cmath>
#include <map>
#include <random>
#include <set>

#include <QBuffer>
#include <QTest>

#include "evaluation/Campaign.h"
#include "evaluation/CsvWriter.h"
#include "evaluation/PromptFile.h"
#include "evaluation/Statistics.h"
#include "sampling/StepTrace.h"

using namespace swb;
using namespace swb::stats;

Q_DECLARE_METATYPE(swb::stats::AlphaMetric)

namespace {

constexpr double M = kNaN; // a missing value

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers x 12 units.
std::vector<std::vector<double>> krippendorffExample() {
    const std::vector<std::vector<double>> byObserver = {
        {1, 2, 3, 3, 2, 1, 4, 1, 2, M, M, M},
        {1, 2, 3, 3, 2, 2, 4, 1, 2, 5, M, 3},
        {M, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, M},
        {1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, M},
    };
    std::vector<std::vector<double>> units(12, std::vector<double>(4));
    for (std::size_t u = 0; u < 12; ++u)
        for (std::size_t c = 0; c < 4; ++c)
            units[u][c] = byObserver[c][u];
    return units;
}

std::vector<Battle> repeat(int times, Battle battle) {
    return std::vector<Battle>(static_cast<std::size_t>(times), battle);
}

std::vector<Battle> concat(std::initializer_list<std::vector<Battle>> parts) {
    std::vector<Battle> all;
    for (const auto& part : parts)
        all.insert(all.end(), part.begin(), part.end());
    return all;
}

// Checks the Bradley-Terry likelihood equations W_i = sum_j n_ij p_i / (p_i + p_j) (ties half a win,
// plus `prior` virtual ties per pair) with p_i = 10^((s_i - 1000) / 400), and that scores average 1000.
void verifyLikelihoodEquations(int players, const std::vector<Battle>& battles, const std::vector<double>& scores,
                               double prior) {
    std::vector<std::vector<double>> games(players, std::vector<double>(players, prior));
    std::vector<double> wins(players, prior * (players - 1) / 2.0);
    for (const Battle& b : battles) {
        games[b.a][b.b] += 1;
        games[b.b][b.a] += 1;
        wins[b.a] += b.outcome == BattleOutcome::AWins ? 1.0 : b.outcome == BattleOutcome::Tie ? 0.5 : 0.0;
        wins[b.b] += b.outcome == BattleOutcome::BWins ? 1.0 : b.outcome == BattleOutcome::Tie ? 0.5 : 0.0;
    }
    double sum = 0;
    for (int i = 0; i < players; ++i) {
        const double pi = std::pow(10.0, (scores[i] - 1000.0) / 400.0);
        double expected = 0;
        for (int j = 0; j < players; ++j)
            if (j != i)
                expected += games[i][j] * pi / (pi + std::pow(10.0, (scores[j] - 1000.0) / 400.0));
        QVERIFY2(
            std::abs(expected - wins[i]) < 1e-8,
            qPrintable(QStringLiteral("player %1: expected wins %2, actual %3").arg(i).arg(expected).arg(wins[i])));
        sum += scores[i];
    }
    QVERIFY(std::abs(sum / players - 1000.0) < 1e-8);
}

StepTrace step(int token, float rawP, double rawEntropy) {
    StepTrace trace;
    trace.chosen = token;
    trace.rawP = rawP;
    trace.rawEntropy = rawEntropy;
    return trace;
}

} // namespace

class TestEvaluation : public QObject {
    Q_OBJECT

private slots:
    void krippendorffPublishedExample_data() {
        QTest::addColumn<AlphaMetric>("metric");
        QTest::addColumn<double>("published");
        QTest::newRow("nominal") << AlphaMetric::Nominal << 0.743;
        QTest::newRow("ordinal") << AlphaMetric::Ordinal << 0.815;
        QTest::newRow("interval") << AlphaMetric::Interval << 0.849;
        QTest::newRow("ratio") << AlphaMetric::Ratio << 0.797;
    }
    void krippendorffPublishedExample() {
        QFETCH(AlphaMetric, metric);
        QFETCH(double, published);
        const AlphaResult result = krippendorffAlpha(krippendorffExample(), metric);
        QCOMPARE(std::round(result.alpha * 1000.0) / 1000.0, published);
        // Unit 12 holds a single value: 11 pairable units, n = 40 pairable values (the paper's n..).
        QCOMPARE(result.units, 11);
        QCOMPARE(result.pairable, 40.0);
    }

    // Two coders, units (3,2) and (2,1); by hand: n_1 = 1, n_2 = 2, n_3 = 1, n = 4, o_12 = o_21 = o_23 = o_32 = 1.
    void krippendorffHandComputed_data() {
        QTest::addColumn<AlphaMetric>("metric");
        QTest::addColumn<double>("expected");
        // nominal: 1 - 3 * 4 / (16 - 6)
        QTest::newRow("nominal") << AlphaMetric::Nominal << -0.2;
        // ordinal: d_12 = d_23 = (3/2)^2, d_13 = (4 - 1)^2; 1 - 3 * 9 / 36
        QTest::newRow("ordinal") << AlphaMetric::Ordinal << 0.25;
        // interval: 1 - 3 * 4 / 16
        QTest::newRow("interval") << AlphaMetric::Interval << 0.25;
        // ratio: observed 2/9 + 2/25, expected 4/9 + 4/25 + 1/2; 1 - 408/497
        QTest::newRow("ratio") << AlphaMetric::Ratio << 89.0 / 497.0;
    }
    void krippendorffHandComputed() {
        QFETCH(AlphaMetric, metric);
        QFETCH(double, expected);
        const AlphaResult result = krippendorffAlpha({{3, 2}, {2, 1}}, metric);
        QVERIFY2(std::abs(result.alpha - expected) < 1e-12, qPrintable(QString::number(result.alpha, 'g', 17)));
    }

    // Alpha of the published example with each observer set aside, against an independent computation of the
    // coincidence-matrix formula (Python, which also gives the published 0.743 and 0.849 with everyone).
    void krippendorffLeaveOneOut() {
        const double nominal[] = {0.7146739130434783, 0.7040816326530612, 0.8679245283018868, 0.6752577319587629};
        const double interval[] = {0.8933143669985775, 0.7903614457831325, 0.8358458961474037, 0.8621041879468846};
        for (std::size_t c = 0; c < 4; ++c) {
            QVERIFY(std::abs(krippendorffAlphaWithout(krippendorffExample(), c, AlphaMetric::Nominal).alpha - nominal[c]) < 1e-12);
            QVERIFY(std::abs(krippendorffAlphaWithout(krippendorffExample(), c, AlphaMetric::Interval).alpha - interval[c]) < 1e-12);
        }
    }

    // Units (3,2) and (2,1) resampled: either unit twice gives nominal alpha 1 - 3 * 4 / 8 = -0.5 (half the
    // resamples), one of each -0.2 (the hand-computed case above): the interval is [-0.5, -0.2]. Perfect
    // agreement in every unit gives 1 in every resample that varies.
    void krippendorffBootstrapByHand() {
        const Interval twoUnits = krippendorffAlphaInterval({{3, 2}, {2, 1}}, AlphaMetric::Nominal, 1000, 11);
        QVERIFY2(std::abs(twoUnits.low + 0.5) < 1e-12 && std::abs(twoUnits.high + 0.2) < 1e-12,
                 qPrintable(QStringLiteral("%1 %2").arg(twoUnits.low).arg(twoUnits.high)));
        const Interval perfect =
            krippendorffAlphaInterval({{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}}, AlphaMetric::Ordinal, 500, 3);
        QCOMPARE(perfect.low, 1.0);
        QCOMPARE(perfect.high, 1.0);
        QVERIFY(std::isnan(krippendorffAlphaInterval({{1, 1}}, AlphaMetric::Ordinal, 100, 3).low)); // never varies
    }

    void krippendorffPerfectAgreementIsOne() {
        for (AlphaMetric metric :
             {AlphaMetric::Nominal, AlphaMetric::Ordinal, AlphaMetric::Interval, AlphaMetric::Ratio})
            QCOMPARE(krippendorffAlpha({{1, 1, M}, {2, M, 2}, {3, 3, 3}, {M, 4, M}}, metric).alpha, 1.0);
    }

    void krippendorffUndefinedIsNaN() {
        // No unit holds two values: nothing is pairable.
        const AlphaResult lonely = krippendorffAlpha({{1, M}, {M, 2}, {3, M}}, AlphaMetric::Interval);
        QVERIFY(std::isnan(lonely.alpha));
        QCOMPARE(lonely.units, 0);
        QCOMPARE(lonely.pairable, 0.0);
        QVERIFY(std::isnan(krippendorffAlpha({}, AlphaMetric::Nominal).alpha));
        // Every value the same: no variation, expected disagreement 0.
        QVERIFY(std::isnan(krippendorffAlpha({{2, 2}, {2, 2}}, AlphaMetric::Ordinal).alpha));
    }

    void bradleyTerryTwoPlayers() {
        // A beats B 3 times of 4: P(A beats B) = 0.75, score difference 400 log10 3, mean 1000.
        const auto battles = concat({repeat(3, {0, 1, BattleOutcome::AWins}), repeat(1, {1, 0, BattleOutcome::AWins})});
        const BradleyTerryFit fit = bradleyTerry(2, battles);
        QVERIFY(fit.converged);
        QVERIFY(std::abs(fit.scores[0] - (1000 + 200 * std::log10(3.0))) < 1e-9);
        QVERIFY(std::abs(fit.scores[1] - (1000 - 200 * std::log10(3.0))) < 1e-9);
        QVERIFY(std::abs(1 / (1 + std::pow(10, (fit.scores[1] - fit.scores[0]) / 400)) - 0.75) < 1e-12);
        // Two ties add half a win to each side: 4 wins to 2.
        const auto withTies = concat({battles, repeat(2, {0, 1, BattleOutcome::Tie})});
        const BradleyTerryFit tied = bradleyTerry(2, withTies);
        QVERIFY(std::abs(tied.scores[0] - tied.scores[1] - 400 * std::log10(4.0 / 2.0)) < 1e-9);
    }

    void bradleyTerryThreePlayersSatisfiesLikelihoodEquations() {
        const auto battles = concat({repeat(2, {0, 1, BattleOutcome::AWins}), repeat(1, {1, 0, BattleOutcome::AWins}),
                                     repeat(2, {1, 2, BattleOutcome::AWins}), repeat(1, {2, 1, BattleOutcome::AWins}),
                                     repeat(1, {0, 2, BattleOutcome::AWins}), repeat(1, {0, 2, BattleOutcome::BWins}),
                                     repeat(1, {2, 0, BattleOutcome::Tie})});
        const BradleyTerryFit fit = bradleyTerry(3, battles);
        QVERIFY(fit.converged);
        verifyLikelihoodEquations(3, battles, fit.scores, 0.0);
        QVERIFY(fit.scores[0] > fit.scores[1] && fit.scores[1] > fit.scores[2]);

        BradleyTerryOptions prior;
        prior.priorTies = 1.0;
        const BradleyTerryFit regularised = bradleyTerry(3, battles, prior);
        verifyLikelihoodEquations(3, battles, regularised.scores, 1.0);
    }

    void bradleyTerryWithoutEstimate() {
        // A always beats B: no maximum-likelihood estimate; C never played.
        const auto battles = repeat(3, {0, 1, BattleOutcome::AWins});
        const BradleyTerryFit plain = bradleyTerry(3, battles);
        QVERIFY(!plain.converged);
        for (double score : plain.scores)
            QVERIFY(std::isnan(score));
        // One virtual tie: 3.5 wins to 0.5, a difference of 400 log10 7; C still has no score.
        BradleyTerryOptions prior;
        prior.priorTies = 1.0;
        const BradleyTerryFit fit = bradleyTerry(3, battles, prior);
        QVERIFY(fit.converged);
        QVERIFY(std::abs(fit.scores[0] - fit.scores[1] - 400 * std::log10(7.0)) < 1e-9);
        QVERIFY(std::isnan(fit.scores[2]));
    }

    void bradleyTerryIntervalsAreSeededPercentiles() {
        // All ties: every resample gives equal strengths, so the interval is exactly [1000, 1000].
        const auto ties = repeat(5, {0, 1, BattleOutcome::Tie});
        const auto flat = bradleyTerryIntervals(2, ties, {}, 200, 7);
        QCOMPARE(flat[0].low, 1000.0);
        QCOMPARE(flat[1].high, 1000.0);

        const auto battles = concat({repeat(6, {0, 1, BattleOutcome::AWins}), repeat(3, {0, 1, BattleOutcome::BWins}),
                                     repeat(2, {0, 1, BattleOutcome::Tie})});
        BradleyTerryOptions prior;
        prior.priorTies = 1.0;
        const auto a = bradleyTerryIntervals(2, battles, prior, 500, 42);
        const auto b = bradleyTerryIntervals(2, battles, prior, 500, 42);
        const auto c = bradleyTerryIntervals(2, battles, prior, 500, 43);
        QCOMPARE(a[0].low, b[0].low);
        QCOMPARE(a[0].high, b[0].high);
        QVERIFY(a[0].low != c[0].low || a[0].high != c[0].high);
        const BradleyTerryFit fit = bradleyTerry(2, battles, prior);
        QVERIFY(a[0].low < fit.scores[0] && fit.scores[0] < a[0].high);
        QVERIFY(a[1].low < fit.scores[1] && fit.scores[1] < a[1].high);
        // With two players the scores mirror each other around 1000.
        QVERIFY(std::abs((a[0].low - 1000) + (a[1].high - 1000)) < 1e-9);
    }

    void onlineEloFollowsFastChat() {
        // Reference values from FastChat's compute_online_elo formula evaluated in Python.
        const std::vector<Battle> battles = {
            {0, 1, BattleOutcome::AWins}, {0, 1, BattleOutcome::Tie}, {1, 0, BattleOutcome::AWins}};
        std::vector<double> one = onlineElo(2, {battles[0]});
        QCOMPARE(one[0], 1002.0); // expected 0.5, K = 4
        QCOMPARE(one[1], 998.0);
        std::vector<double> two = onlineElo(2, {battles[0], battles[1]});
        QVERIFY(std::abs(two[0] - 1001.9769751663554) < 1e-9);
        QVERIFY(std::abs(two[1] - 998.0230248336446) < 1e-9);
        std::vector<double> three = onlineElo(2, battles);
        QVERIFY(std::abs(three[0] - 999.9542153811743) < 1e-9);
        QVERIFY(std::abs(three[1] - 1000.0457846188257) < 1e-9);
        QCOMPARE(onlineElo(3, battles)[2], 1000.0);
    }

    void winRates() {
        const std::vector<Battle> battles = {{0, 1, BattleOutcome::AWins},
                                             {0, 1, BattleOutcome::Tie},
                                             {1, 0, BattleOutcome::AWins},
                                             {1, 0, BattleOutcome::BWins},
                                             {2, 0, BattleOutcome::BWins}};
        const auto matrix = winRateMatrix(3, battles);
        QCOMPARE(matrix[0][1], (2 + 0.5) / 4); // two wins and a tie in four
        QCOMPARE(matrix[1][0], (1 + 0.5) / 4);
        QCOMPARE(matrix[0][2], 1.0);
        QCOMPARE(matrix[2][0], 0.0);
        QVERIFY(std::isnan(matrix[1][2]));
    }

    // Exact binomial tails computed by hand: 9 wins of 10 -> 2 (1 + 10) / 2^10; 20 of 25 ->
    // 2 sum_{k<=5} C(25, k) / 2^25 = 0.004077315330505371 (Python's math.comb).
    void signTestByHand() {
        QCOMPARE(signTestPValue(9, 1), 2.0 * 11.0 / 1024.0);
        QCOMPARE(signTestPValue(1, 9), 2.0 * 11.0 / 1024.0);
        QVERIFY(std::abs(signTestPValue(20, 5) - 0.004077315330505371) < 1e-15);
        QCOMPARE(signTestPValue(5, 5), 1.0);
        QCOMPARE(signTestPValue(0, 0), 1.0);
        QCOMPARE(signTestPValue(3, 0), 0.25);
    }

    // Holm (1979) by hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 -> 0.02, 0.03, 0.06, 0.04, made
    // monotone -> 0.02, 0.03, 0.06, 0.06; a NaN is no test.
    void holmByHand() {
        const std::vector<double> adjusted = holmAdjust({0.01, 0.04, 0.03, 0.005});
        const std::vector<double> expected = {0.03, 0.06, 0.06, 0.02};
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY2(std::abs(adjusted[i] - expected[i]) < 1e-15, qPrintable(QString::number(adjusted[i])));
        const std::vector<double> withNaN = holmAdjust({kNaN, 0.02, 0.5, 0.9});
        QVERIFY(std::isnan(withNaN[0]));
        QVERIFY(std::abs(withNaN[1] - 0.06) < 1e-15);
        QVERIFY(std::abs(withNaN[2] - 1.0) < 1e-15); // 0.5 x 2, capped
        QVERIFY(std::abs(withNaN[3] - 1.0) < 1e-15);
    }

    // Welch's test of 1..5 against 2, 4, ..., 10: t = 1.8974, df = 5.8824, p = 0.1075 (R's t.test; the tail of
    // Student's density integrated numerically gives 0.107531).
    void welchTTestPublishedExample() {
        QVERIFY(std::abs(welchTTestPValue({1, 2, 3, 4, 5}, {2, 4, 6, 8, 10}) - 0.1075312) < 1e-6);
        QCOMPARE(welchTTestPValue({1, 2, 3}, {2}), 1.0);
        QCOMPARE(welchTTestPValue({2, 2, 2}, {2, 2}), 1.0);
    }

    // The mixture SPRT by hand (Python, the formula in Statistics.h, minPerArm 2, tau = 0.2 s): after the 8th
    // observation d = 2.5, s^2 = 24 / 7 (all eight around their mean 3), 1 / Lambda = 0.907964 (the smallest so far),
    // the confidence sequence [-9.350768, 14.350768]. With d = 0.1 and s^2 = 0.25 a test reaching 80% power needs 761
    // observations per arm (the smallest n with 0.1 / sqrt(0.5 / n) >= boundary + z_0.8): 1522 in all.
    void mixtureSprtByHand() {
        MixtureSprt test(0.05, 0.2, 2);
        const std::pair<int, double> observations[] = {{0, 1.0}, {1, 2.0}, {0, 3.0}, {1, 5.0},
                                                       {0, 2.0}, {1, 4.0}, {0, 1.0}, {1, 6.0}};
        for (const auto& [arm, value] : observations)
            test.add(arm, value);
        QCOMPARE(test.count(0), 4);
        QVERIFY(std::abs(test.difference() - 2.5) < 1e-12);
        QVERIFY(std::abs(test.pooledVariance() - 24.0 / 7.0) < 1e-12);
        QVERIFY(std::abs(test.pValue() - 0.9079641862) < 1e-9);
        QVERIFY(std::abs(test.confidence().low + 9.3507681806) < 1e-9);
        QVERIFY(std::abs(test.confidence().high - 14.3507681806) < 1e-9);

        MixtureSprt planned;
        const int n = 20;
        const double a = std::sqrt(0.25 * (2.0 * n - 1.0) / (2.0 * n) - 0.05 * 0.05); // s^2 exactly 0.25
        for (int i = 0; i < n; ++i) {
            planned.add(0, 0.5 + (i % 2 ? a : -a));
            planned.add(1, 0.6 + (i % 2 ? a : -a));
        }
        QVERIFY(std::abs(planned.pooledVariance() - 0.25) < 1e-12);
        QCOMPARE(planned.observationsForPower(0.8), 1522LL);
        QCOMPARE(MixtureSprt().observationsForPower(), -1LL);
    }

    // 2,000 A/A experiments (thumbs up at 50% in both arms, 200 feedbacks each, read after every 10): the
    // mixture SPRT declares a winner in at most 5%; Welch's t-test read the same way does far more often (the
    // peeking it is not made for), which shows the simulation can tell. Then 50% against 60%.
    void mixtureSprtStaysValidWhenReadOften() {
        std::mt19937_64 random(7);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        const auto experiment = [&](double pA, double pB, int horizon, int* sprtAt, bool* peekingT) {
            MixtureSprt test;
            std::vector<double> values[2];
            *sprtAt = 0;
            *peekingT = false;
            for (int k = 1; k <= horizon; ++k) {
                const int arm = uniform(random) < 0.5 ? 0 : 1;
                const double value = uniform(random) < (arm == 0 ? pA : pB) ? 1.0 : 0.0;
                test.add(arm, value);
                values[arm].push_back(value);
                if (k % 10 != 0)
                    continue;
                if (!*sprtAt && test.pValue() <= 0.05)
                    *sprtAt = k;
                if (welchTTestPValue(values[0], values[1]) <= 0.05)
                    *peekingT = true;
            }
        };
        int sprtWinners = 0;
        int peekingWinners = 0;
        const int runs = 2000;
        for (int i = 0; i < runs; ++i) {
            int at = 0;
            bool peeking = false;
            experiment(0.5, 0.5, 200, &at, &peeking);
            sprtWinners += at > 0;
            peekingWinners += peeking;
        }
        QVERIFY2(sprtWinners <= runs / 20, qPrintable(QString::number(sprtWinners)));
        QVERIFY2(peekingWinners > runs / 10, qPrintable(QString::number(peekingWinners)));
        int decided = 0;
        for (int i = 0; i < 200; ++i) {
            int at = 0;
            bool peeking = false;
            experiment(0.5, 0.6, 1600, &at, &peeking);
            decided += at > 0;
        }
        QVERIFY2(decided >= 160, qPrintable(QString::number(decided))); // power >= 80% within 1,600 feedbacks
    }

    // n = ((z_{0.975} / 2 + z_{0.8} sqrt(0.21)) / 0.2)^2 = 46.626 -> 47; at level 0.05 / 3 and share 0.6:
    // 258.98 -> 259 (Python's statistics.NormalDist for the quantiles).
    void signTestSampleSizeByHand() {
        QCOMPARE(signTestSampleSize(0.7), 47);
        QCOMPARE(signTestSampleSize(0.3), 47);
        QCOMPARE(signTestSampleSize(0.6, 0.05 / 3.0), 259);
        QCOMPARE(signTestSampleSize(0.5), -1);
        QCOMPARE(signTestSampleSize(1.0), -1);
        // All won: 2 * 0.5^5 = 0.0625 is not below 0.05, 2 * 0.5^6 = 0.03125 is; at 0.05 / 3, 2 * 0.5^7 = 0.0156.
        QCOMPARE(signTestAllWonSize(0.05), 6);
        QCOMPARE(signTestAllWonSize(0.05 / 3.0), 7);
        QCOMPARE(signTestAllWonSize(0.0), -1);
    }

    // A data set where length alone explains the wins: A is the longer output in 40 battles and the shorter
    // in 10, and the longer output wins 80% either way (32-8, then 2-8). Plain Bradley-Terry credits A with
    // 34 of 50: 400 log10(34/16) = 130.9 Elo points over B. Controlled for length (z = +1 and -1):
    // theta_A - theta_B + gamma = ln 4 and theta_A - theta_B - gamma = -ln 4, so gamma = ln 4 and no strategy
    // effect (up to the 1e-6 penalty).
    void lengthControlledBradleyTerryRecoversTheLengthEffect() {
        std::vector<LengthBattle> battles;
        const auto add = [&](int times, BattleOutcome outcome, double lengthA, double lengthB) {
            for (int i = 0; i < times; ++i)
                battles.push_back({{0, 1, outcome}, lengthA, lengthB});
        };
        add(32, BattleOutcome::AWins, 120, 40);
        add(8, BattleOutcome::BWins, 120, 40);
        add(2, BattleOutcome::AWins, 40, 120);
        add(8, BattleOutcome::BWins, 40, 120);
        std::vector<Battle> plain;
        for (const LengthBattle& b : battles)
            plain.push_back(b.battle);
        const BradleyTerryFit bt = bradleyTerry(2, plain);
        QVERIFY(std::abs((bt.scores[0] - bt.scores[1]) - 400.0 * std::log10(34.0 / 16.0)) < 1e-6);
        const LengthControlledFit controlled = lengthControlledBradleyTerry(2, battles);
        QVERIFY(controlled.converged);
        QVERIFY2(std::abs(controlled.lengthCoefficient - std::log(4.0)) < 1e-4,
                 qPrintable(QString::number(controlled.lengthCoefficient, 'g', 10)));
        QVERIFY2(std::abs(controlled.scores[0] - controlled.scores[1]) < 0.01,
                 qPrintable(QStringLiteral("%1 %2").arg(controlled.scores[0]).arg(controlled.scores[1])));
        QVERIFY(std::abs((controlled.scores[0] + controlled.scores[1]) / 2 - 1000.0) < 1e-9);
        // The other way round: B wins more often although every output has the same length; length explains
        // nothing and the fit is the plain one (theta difference ln(3/7) on the Elo scale).
        std::vector<LengthBattle> even;
        for (int i = 0; i < 10; ++i)
            even.push_back({{0, 1, i < 3 ? BattleOutcome::AWins : BattleOutcome::BWins}, 50, 50});
        const LengthControlledFit same = lengthControlledBradleyTerry(3, even);
        QVERIFY(same.converged);
        QVERIFY(std::isnan(same.lengthCoefficient));
        QVERIFY(std::abs((same.scores[0] - same.scores[1]) - 400.0 * std::log10(3.0 / 7.0)) < 0.01);
        QVERIFY(std::isnan(same.scores[2])); // never played
        // A strategy that wins every battle: no finite maximum-likelihood estimate, but the 1e-6 penalty keeps
        // one, and the fit settles on it (ranked above the others).
        std::vector<LengthBattle> sweep;
        for (int i = 0; i < 5; ++i)
            sweep.push_back({{0, 1, BattleOutcome::AWins}, double(40 + i), double(50 - i)});
        for (int i = 0; i < 4; ++i)
            sweep.push_back({{2, 0, BattleOutcome::BWins}, double(30 + 3 * i), 45.0});
        for (int i = 0; i < 5; ++i)
            sweep.push_back({{1, 2, i < 3 ? BattleOutcome::AWins : BattleOutcome::BWins}, 60.0, double(20 + 9 * i)});
        const LengthControlledFit swept = lengthControlledBradleyTerry(3, sweep);
        QVERIFY(swept.converged);
        for (double score : swept.scores)
            QVERIFY(std::isfinite(score));
        QVERIFY(swept.scores[0] > swept.scores[1] && swept.scores[0] > swept.scores[2]);
    }

    // The plan: 30 outputs, 5 raters, 3 ratings per output, 10% gold.
    void campaignAssignmentMeetsThePlan_data() {
        QTest::addColumn<int>("comparisons");
        QTest::addColumn<int>("raters");
        QTest::addColumn<int>("perItem");
        QTest::newRow("30 x 5 x 3") << 30 << 5 << 3;
        QTest::newRow("31 x 5 x 3 (uneven)") << 31 << 5 << 3;
        QTest::newRow("7 x 3 x 3 (everyone rates all)") << 7 << 3 << 3;
        QTest::newRow("40 x 6 x 2") << 40 << 6 << 2;
    }
    void campaignAssignmentMeetsThePlan() {
        QFETCH(int, comparisons);
        QFETCH(int, raters);
        QFETCH(int, perItem);
        std::vector<CampaignComparison> items, gold;
        for (int i = 0; i < comparisons; ++i)
            items.push_back({100 + i, 2 + i % 2});
        for (int i = 0; i < 4; ++i)
            gold.push_back({900 + i, 2});
        QStringList names;
        for (int r = 0; r < raters; ++r)
            names << QStringLiteral("rater%1").arg(r);
        CampaignPlan plan;
        plan.ratingsPerItem = perItem;
        plan.seed = 5;
        const Result<std::vector<RaterQueue>> queues = assignCampaign(items, gold, names, plan);
        QVERIFY2(queues, qPrintable(queues ? QString() : queues.error().message));
        std::map<qint64, std::set<QString>> ratersOf;
        int lightest = 1 << 30, heaviest = 0;
        for (const RaterQueue& queue : queues.value()) {
            int load = 0, golds = 0;
            std::set<qint64> seen;
            for (const CampaignItem& item : queue.items) {
                QVERIFY2(seen.insert(item.comparisonId).second, "a rater gets a comparison twice");
                // Every output shown once, in the rater's own order.
                std::vector<int> order = item.shownOrder;
                std::sort(order.begin(), order.end());
                QCOMPARE(int(order.size()), item.gold ? 2 : 2 + int(item.comparisonId - 100) % 2);
                for (std::size_t i = 0; i < order.size(); ++i)
                    QCOMPARE(order[i], int(i));
                if (item.gold) {
                    ++golds;
                    continue;
                }
                ++load;
                ratersOf[item.comparisonId].insert(queue.rater);
            }
            lightest = std::min(lightest, load);
            heaviest = std::max(heaviest, load);
            const double total = load + golds;
            QVERIFY2(std::abs(golds - 0.10 * total) <= 1.0, qPrintable(QStringLiteral("%1 gold of %2").arg(golds).arg(total)));
        }
        QVERIFY(heaviest - lightest <= 1);
        QCOMPARE(int(ratersOf.size()), comparisons);
        for (const auto& [id, who] : ratersOf)
            QCOMPARE(int(who.size()), perItem); // distinct raters
        // The same plan and seed give the same queues; another seed another order.
        const auto again = assignCampaign(items, gold, names, plan);
        QCOMPARE(again->front().items.front().comparisonId, queues->front().items.front().comparisonId);
        plan.seed = 6;
        const auto other = assignCampaign(items, gold, names, plan);
        bool differs = false;
        const std::vector<RaterQueue>& first = queues.value();
        const std::vector<RaterQueue>& second = other.value();
        for (std::size_t r = 0; r < second.size(); ++r)
            for (std::size_t i = 0; i < second[r].items.size() && i < first[r].items.size(); ++i)
                differs = differs || second[r].items[i].comparisonId != first[r].items[i].comparisonId;
        QVERIFY(differs);
    }

    void campaignAssignmentRefusesWhatCannotBeMet() {
        const std::vector<CampaignComparison> items = {{1, 2}, {2, 2}};
        QVERIFY(!assignCampaign(items, {{9, 2}}, {"a", "b"}, {})); // 3 per item, 2 raters
        QVERIFY(!assignCampaign({}, {{9, 2}}, {"a", "b", "c"}, {}));
        QVERIFY(!assignCampaign(items, {}, {"a", "b", "c"}, {})); // 10% gold, none given
        QVERIFY(!assignCampaign(items, {{1, 2}}, {"a", "b", "c"}, {})); // gold and rated at once
        CampaignPlan noGold;
        noGold.goldShare = 0.0;
        QVERIFY(assignCampaign(items, {}, {"a", "b", "c"}, noGold));
        noGold.goldShare = 1.0;
        QVERIFY(!assignCampaign(items, {{9, 2}}, {"a", "b", "c"}, noGold));
    }

    void meansAndPercentiles() {
        QVERIFY(std::isnan(mean({})));
        QCOMPARE(mean({1, 2, 3, 6}), 3.0);
        // numpy.percentile([1, 2, 3, 4], q): 25 -> 1.75, 50 -> 2.5, 97.5 -> 3.925.
        QCOMPARE(percentile({4, 1, 3, 2}, 25), 1.75);
        QCOMPARE(percentile({4, 1, 3, 2}, 50), 2.5);
        QVERIFY(std::abs(percentile({4, 1, 3, 2}, 97.5) - 3.925) < 1e-12);
        QCOMPARE(percentile({5}, 2.5), 5.0);

        const Interval constant = bootstrapMeanInterval({2, 2, 2}, 100, 1);
        QCOMPARE(constant.low, 2.0);
        QCOMPARE(constant.high, 2.0);
        const std::vector<double> values = {0, 1, 1, 2, 3, 3, 3, 0, 1, 2};
        const Interval a = bootstrapMeanInterval(values, 1000, 9);
        const Interval b = bootstrapMeanInterval(values, 1000, 9);
        QCOMPARE(a.low, b.low);
        QCOMPARE(a.high, b.high);
        QVERIFY(a.low < mean(values) && mean(values) < a.high);
        QVERIFY(a.low >= 0 && a.high <= 3);
        // The standard error is sqrt(var / n) ~ 0.35 here; a 95% interval spans roughly +-2 of them.
        QVERIFY(a.high - a.low > 0.8 && a.high - a.low < 1.8);
        QVERIFY(std::isnan(bootstrapMeanInterval({}, 10, 1).low));
    }

    void textMetricsByHand() {
        const std::vector<int> tokens = {1, 2, 3, 1, 2, 3, 1, 2};
        QCOMPARE(distinctN(tokens, 1), 3.0 / 8);
        QCOMPARE(distinctN(tokens, 2), 3.0 / 7); // 12 23 31 12 23 31 12
        QCOMPARE(distinctN(tokens, 3), 3.0 / 6);
        QCOMPARE(repetitionRate(tokens, 4), 2.0 / 5); // 1231 2312 3123 [1231] [2312]
        QVERIFY(std::isnan(repetitionRate({1, 2, 3}, 4)));
        QCOMPARE(repetitionRate({1, 2, 3, 4, 5}, 4), 0.0);
        // Over several texts n-grams never span two texts: bigrams 12 and 21, not 22.
        QCOMPARE(distinctN(std::vector<std::vector<int>>{{1, 2}, {2, 1}}, 1), 2.0 / 4);
        QCOMPARE(distinctN(std::vector<std::vector<int>>{{1, 2}, {2, 1}}, 2), 1.0);
        QVERIFY(std::isnan(distinctN(std::vector<int>{}, 1)));

        // exp(-(ln 0.5 + ln 0.25) / 2) = 2^1.5
        QVERIFY(std::abs(perplexity({0.5, 0.25}) - std::pow(2.0, 1.5)) < 1e-12);
        QCOMPARE(perplexity({1.0, 1.0}), 1.0);
        QVERIFY(std::isinf(perplexity({0.5, 0.0})));
        QVERIFY(std::isnan(perplexity({})));

        const TextMetrics metrics = textMetrics({step(7, 0.5f, 1.0), step(8, 0.25f, 2.0), step(7, 1.0f, 0.5)});
        QCOMPARE(metrics.tokens, 3);
        QCOMPARE(metrics.distinct1, 2.0 / 3);
        QCOMPARE(metrics.distinct2, 1.0);
        QVERIFY(std::isnan(metrics.rep4));
        QCOMPARE(metrics.meanRawEntropy, 3.5 / 3);
        QVERIFY(std::abs(metrics.perplexity - std::pow(8.0, 1.0 / 3)) < 1e-9); // exp(ln 8 / 3)
    }

    void csvCells_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("encoded");
        QTest::newRow("plain") << QStringLiteral("hello") << QStringLiteral("hello");
        QTest::newRow("empty") << QString() << QString();
        QTest::newRow("comma") << QStringLiteral("a,b") << QStringLiteral("\"a,b\"");
        QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QStringLiteral("\"say \"\"hi\"\"\"");
        QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("\"a\nb\"");
        QTest::newRow("crlf") << QStringLiteral("a\r\nb") << QStringLiteral("\"a\r\nb\"");
        QTest::newRow("formula") << QStringLiteral("=1+1") << QStringLiteral("'=1+1");
        QTest::newRow("hyperlink") << QStringLiteral("=HYPERLINK(\"http://x\",\"y\")")
                                   << QStringLiteral("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
        QTest::newRow("plus") << QStringLiteral("+cmd") << QStringLiteral("'+cmd");
        QTest::newRow("minus") << QStringLiteral("-2+3") << QStringLiteral("'-2+3");
        QTest::newRow("at") << QStringLiteral("@SUM(A1)") << QStringLiteral("'@SUM(A1)");
        QTest::newRow("tab") << QStringLiteral("\tx") << QStringLiteral("'\tx");
        QTest::newRow("cr") << QStringLiteral("\rx") << QStringLiteral("\"'\rx\"");
        QTest::newRow("dash alone") << QStringLiteral("-") << QStringLiteral("'-");
        QTest::newRow("minus inf") << QStringLiteral("-inf") << QStringLiteral("'-inf");
        QTest::newRow("negative number") << QStringLiteral("-0.5") << QStringLiteral("-0.5");
        QTest::newRow("signed number") << QStringLiteral("+3") << QStringLiteral("+3");
        QTest::newRow("exponent") << QStringLiteral("-1e-05") << QStringLiteral("-1e-05");
        QTest::newRow("equals later") << QStringLiteral("a=b") << QStringLiteral("a=b");
        QTest::newRow("unicode") << QStringLiteral("ünï — 中文") << QStringLiteral("ünï — 中文");
    }
    void csvCells() {
        QFETCH(QString, value);
        QFETCH(QString, encoded);
        QCOMPARE(CsvWriter::encodeCell(value), encoded);
    }

    void csvNumbers() {
        QCOMPARE(CsvWriter::number(0.1), QStringLiteral("0.1"));
        QCOMPARE(CsvWriter::number(1000.0), QStringLiteral("1000"));
        QCOMPARE(CsvWriter::number(-0.25), QStringLiteral("-0.25"));
        QCOMPARE(CsvWriter::number(kNaN), QString());
        QCOMPARE(CsvWriter::number(std::numeric_limits<double>::infinity()), QStringLiteral("inf"));
        QCOMPARE(CsvWriter::number(0.2f), QStringLiteral("0.2"));
        QCOMPARE(CsvWriter::number(1.0 / 3).toDouble(), 1.0 / 3); // shortest text that reads back exactly
    }

    void csvRoundTripThroughParser() {
        const QStringList header = {QStringLiteral("id"), QStringLiteral("text"), QStringLiteral("score")};
        const QList<QStringList> rows = {
            {QStringLiteral("1"), QStringLiteral("plain"), QStringLiteral("0.5")},
            {QStringLiteral("2"), QStringLiteral("comma, \"quotes\"\r\nand a new line"), QStringLiteral("-0.5")},
            {QStringLiteral("3"), QStringLiteral("=cmd|' /C calc'!A0"), QString()},
            {QStringLiteral("4"), QStringLiteral("中文 ünï"), QStringLiteral("@x")},
        };
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        CsvWriter writer(buffer);
        writer.writeRow(header);
        for (const QStringList& row : rows)
            writer.writeRow(row);
        QVERIFY(writer.ok());
        const QByteArray bytes = buffer.data();
        QVERIFY(bytes.startsWith("id,text,score\r\n"));
        QVERIFY(bytes.endsWith("\"'@x\"\r\n") || bytes.endsWith("'@x\r\n"));
        QVERIFY(!bytes.startsWith("\xEF\xBB\xBF"));

        const Result<QList<QStringList>> parsed = parseCsv(QString::fromUtf8(bytes));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->size(), rows.size() + 1);
        QCOMPARE(parsed->at(0), header);
        for (qsizetype r = 0; r < rows.size(); ++r) {
            QStringList expected;
            for (const QString& cell : rows[r])
                expected << CsvWriter::neutralise(cell);
            QCOMPARE(parsed->at(r + 1), expected);
        }
        QCOMPARE(parsed->at(2)[1], rows[1][1]);                       // untouched text survives exactly
        QCOMPARE(parsed->at(3)[1], QStringLiteral("'") + rows[2][1]); // a formula comes back as text
        QCOMPARE(parsed->at(2)[2], QStringLiteral("-0.5"));           // numbers are not altered
    }

    // The parser takes text in pieces (a file read in chunks): records, cells and their lines are the same
    // whatever the pieces, a CRLF or a doubled quote split between two of them included.
    void csvParserInPieces() {
        const QString text = QStringLiteral("a,b,c\r\n\"x, \"\"quoted\"\"\",\"two\nlines\",z\r\n"
                                            "lone\rcr,,\"\"\n\n\"end\"\"\",last");
        const QList<QStringList> expected = {{"a", "b", "c"},
                                             {"x, \"quoted\"", "two\nlines", "z"},
                                             {"lone\rcr", "", ""},
                                             {""},
                                             {"end\"", "last"}};
        const std::vector<int> lines = {1, 2, 4, 5, 6};
        for (int piece : {int(text.size()), 1, 2, 3, 7}) {
            CsvParser parser;
            std::vector<CsvRecord> records;
            for (qsizetype i = 0; i < text.size(); i += piece)
                parser.feed(QStringView(text).mid(i, std::min<qsizetype>(piece, text.size() - i)), records);
            QVERIFY(parser.finish(records));
            QCOMPARE(records.size(), std::size_t(expected.size()));
            for (std::size_t r = 0; r < records.size(); ++r) {
                QCOMPARE(records[r].cells, expected[qsizetype(r)]);
                QCOMPARE(records[r].line, lines[r]);
            }
        }
        CsvParser open;
        std::vector<CsvRecord> records;
        open.feed(u"a,\"b\nc", records);
        const Status unclosed = open.finish(records);
        QVERIFY(!unclosed);
        QVERIFY(unclosed.error().message.contains(QLatin1String("line 1")));
    }

    void csvWriteFailureIsReported() {
        QBuffer readOnly;
        readOnly.open(QIODevice::ReadOnly);
        CsvWriter writer(readOnly);
        QTest::ignoreMessage(QtWarningMsg, "QIODevice::write (QBuffer): ReadOnly device");
        writer.writeRow({QStringLiteral("a")});
        QVERIFY(!writer.ok());
    }
};

QTEST_GUILESS_MAIN(TestEvaluation)
#include "tst_evaluation.moc"
