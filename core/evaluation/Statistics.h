#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace swb {
struct StepTrace;
}

// The statistics behind evaluation reports: inter-rater agreement, paired-comparison scores,
// bootstrap confidence intervals and automatic text metrics. Plain C++ on plain values; NaN marks
// "missing" on the way in and "undefined" on the way out.
namespace swb::stats {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---------------------------------------------------------------------------------------------------------------
// Krippendorff's alpha

enum class AlphaMetric { Nominal, Ordinal, Interval, Ratio };

struct AlphaResult {
    double alpha = kNaN; // NaN when undefined: no pairable values, or no variation at all (D_e = 0)
    double pairable = 0; // n: values in units that hold at least two values
    int units = 0;       // units that hold at least two values
};

// Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability") from a
// units x coders matrix, NaN = missing, through the coincidence matrix: a unit with m_u >= 2 values
// adds 1/(m_u - 1) per ordered pair of its values; alpha = 1 - (n - 1) * sum o_ck d_ck / sum n_c n_k d_ck.
// Ordinal distances use the marginal counts n_g of the values between c and k; ratio ((c-k)/(c+k))^2.
AlphaResult krippendorffAlpha(const std::vector<std::vector<double>>& unitsByCoders, AlphaMetric metric);

// Alpha with one coder (a column) set aside: what agreement would be without that rater.
AlphaResult krippendorffAlphaWithout(const std::vector<std::vector<double>>& unitsByCoders, std::size_t coder,
                                     AlphaMetric metric);

// Percentile-bootstrap interval.
struct Interval {
    double low = kNaN;
    double high = kNaN;
};
// 95% percentile-bootstrap interval of alpha: `rounds` resamples of the units (rows) with replacement (PCG64
// seeded with seed), the 2.5th and 97.5th percentiles of the alphas they define (a resample without pairable
// values or without variation is left out). NaN when none defines alpha.
Interval krippendorffAlphaInterval(const std::vector<std::vector<double>>& unitsByCoders, AlphaMetric metric,
                                   int rounds, std::uint64_t seed);

// ---------------------------------------------------------------------------------------------------------------
// Paired comparisons

enum class BattleOutcome { AWins, BWins, Tie };

// One comparison of player a with player b (indices into the player list).
struct Battle {
    int a = 0;
    int b = 0;
    BattleOutcome outcome = BattleOutcome::Tie;
};

// The Elo-like scale of FastChat's leaderboard: score = initial + scale * log_base(strength).
struct EloScale {
    double scale = 400.0;
    double base = 10.0;
    double initial = 1000.0;
};

struct BradleyTerryOptions {
    EloScale elo;
    // Virtual ties added between every pair of players (a tie is half a win each way). 0 gives the plain
    // maximum-likelihood fit; > 0 keeps every score finite when someone never wins or never loses.
    double priorTies = 0.0;
    int maxIterations = 100000;
    double tolerance = 1e-12; // on the largest change of a log-strength in one iteration
};

struct BradleyTerryFit {
    // One per player, on the Elo scale, mean of the scored players = elo.initial (as FastChat's logistic
    // fit started from zero: the mean log-strength stays 0). NaN for a player without battles, and for
    // everyone when the maximum-likelihood estimate does not exist (some group of players never wins
    // anything against the rest; see Hunter 2004, assumption 1) or the iteration did not converge.
    std::vector<double> scores;
    bool converged = false;
    int iterations = 0;
};

// Bradley-Terry strengths by Hunter's (2004) MM algorithm: p_i <- W_i / sum_j n_ij / (p_i + p_j), where a
// tie counts as half a win for each side (FastChat's convention: a tie is one win each at half weight).
BradleyTerryFit bradleyTerry(int players, const std::vector<Battle>& battles, const BradleyTerryOptions& options = {});


// Bootstrap 95% intervals of bradleyTerry() scores: `rounds` resamples of the battles with replacement
// (PCG64 seeded with seed, index = next() mod size), the 2.5th and 97.5th percentiles of each player's
// finite scores (linear interpolation between order statistics, numpy's default). NaN when no resample
// gave a finite score.
std::vector<Interval> bradleyTerryIntervals(int players, const std::vector<Battle>& battles,
                                            const BradleyTerryOptions& options, int rounds, std::uint64_t seed);

// A battle with the lengths (tokens) of the two outputs.
struct LengthBattle {
    Battle battle;
    double lengthA = 0.0;
    double lengthB = 0.0;
};

struct LengthControlledFit {
    std::vector<double> scores;     // Elo scale as bradleyTerry(), the length effect held out; NaN without battles
    double lengthCoefficient = kNaN; // log-odds of winning per unit of the scaled length difference
    bool converged = false;
};

// Length-controlled Bradley-Terry, FastChat's "style control" with output length as the only style feature:
// logit P(a beats b) = theta_a - theta_b + gamma * z, z = ((len_a - len_b) / (len_a + len_b)) / rms over the
// battles (0 where both are empty). A tie counts half a win each way. Maximum likelihood by Newton's method
// with an L2 penalty of 1e-6 on every coefficient (sklearn's C = 1e6, as FastChat). Unlike FastChat, z is
// scaled but not mean-centred: here a battle's first side is not random (a slot win puts the winner first),
// and centring would move length's zero point into the strategies' scores. Scores NaN (and converged false)
// when the iteration does not settle.
LengthControlledFit lengthControlledBradleyTerry(int players, const std::vector<LengthBattle>& battles,
                                                 const EloScale& elo = {});

// FastChat's compute_online_elo: battles in order, every rating starts at elo.initial, expected score
// e_a = 1 / (1 + base^((r_b - r_a) / scale)), r_a += k (s_a - e_a), r_b += k (1 - s_a - e_b); a tie is 0.5.
std::vector<double> onlineElo(int players, const std::vector<Battle>& battles, double k = 4.0,
                              const EloScale& elo = {});

// wins[i][j]: (battles i won against j + half the ties) / battles between i and j; NaN without battles.
std::vector<std::vector<double>> winRateMatrix(int players, const std::vector<Battle>& battles);

// ---------------------------------------------------------------------------------------------------------------
// Tests between two strategies

// Exact two-sided sign test of wins against losses (ties left out): min(1, 2 P(X <= min(wins, losses))) for
// X ~ Binomial(wins + losses, 1/2). 1 when there is no decisive battle.
double signTestPValue(int wins, int losses);

// Holm's (1979) step-down adjustment for m tests: the i-th smallest p (from 1) becomes max over j <= i of
// min(1, (m - j + 1) p_(j)); returned in the input order. NaN entries stay NaN and do not count in m.
std::vector<double> holmAdjust(const std::vector<double>& pValues);

// Decisive battles a sign test needs to reject "even" at two-sided level alpha with the given power when one
// side truly wins a share of them (normal approximation of the one-sample proportion test:
// n = ((z_{1-alpha/2} / 2 + z_power sqrt(share (1 - share))) / (share - 1/2))^2, rounded up). -1 when share is
// 1/2 (no effect to detect) or outside (0, 1).
int signTestSampleSize(double share, double alpha = 0.05, double power = 0.8);
// Decisive battles, all won by one side, that the exact two-sided sign test needs to reject "even" at level
// alpha: the smallest n with 2 * 0.5^n < alpha (6 at 0.05). What signTestSampleSize cannot say when every
// battle so far went one way. -1 when alpha is outside (0, 1).
int signTestAllWonSize(double alpha = 0.05);

// ---------------------------------------------------------------------------------------------------------------
// Means and their intervals

double mean(const std::vector<double>& values); // NaN when empty

// The p-th percentile (0..100) of values by linear interpolation between order statistics (numpy's
// default); NaN when empty. values need not be sorted.
double percentile(std::vector<double> values, double p);

// Percentile-bootstrap 95% interval of the mean: `rounds` resamples with replacement (PCG64 seeded with
// seed), the 2.5th and 97.5th percentiles of their means. NaN when values is empty.
Interval bootstrapMeanInterval(const std::vector<double>& values, int rounds, std::uint64_t seed);

// ---------------------------------------------------------------------------------------------------------------
// A sequential test of two means that stays valid however often it is read

// The mixture sequential probability ratio test (mSPRT) of Johari, Pekelis and Walsh ("Always valid inference:
// continuous monitoring of A/B tests", 2017, the test behind Optimizely's stats engine) for the difference of
// two means, theta = mean(treatment) - mean(control), with a normal mixture N(0, tau^2) over theta. The
// observations come one at a time, in the order they were made. After each, with n_c and n_t of them and s^2
// the variance of all of them around their common mean (the variance under "no difference"; unlike the
// within-arm variance it is not 0 when each arm is unanimous and the arms disagree, and it only
// overestimates by theta^2 n_c n_t / n^2 otherwise), both arms at least minPerArm, s^2 > 0: V = s^2 (1/n_c + 1/n_t),
// tau = tauScale * s (the mixture on the standardised effect), and
//   Lambda = sqrt(V / (V + tau^2)) exp(d^2 tau^2 / (2 V (V + tau^2))),  d the observed difference;
// the always-valid p-value is the smallest 1 / Lambda so far (capped at 1), and the confidence sequence is
// d +- sqrt(V (V + tau^2) / tau^2 (2 ln(1/alpha) + ln(1 + tau^2 / V))). Rejecting when p <= alpha keeps the
// chance of ever rejecting a true "no difference" at alpha or below, read after every observation or once.
// (s^2 is a plug-in estimate: the guarantee is asymptotic; minPerArm keeps the first, noisy estimates out.)
class MixtureSprt {
public:
    explicit MixtureSprt(double alpha = 0.05, double tauScale = 0.2, int minPerArm = 10)
        : m_alpha(alpha)
        , m_tauScale(tauScale)
        , m_minPerArm(minPerArm) {}

    // arm 0 is the control, 1 the treatment.
    void add(int arm, double value);

    int count(int arm) const { return m_n[arm]; }
    double mean(int arm) const;    // NaN without observations
    double pooledVariance() const; // s^2 above; NaN with fewer than 2 observations or an arm without any
    double difference() const;     // mean(1) - mean(0)
    double pValue() const { return m_pValue; }
    double alpha() const { return m_alpha; }
    // The confidence sequence at level 1 - alpha at this point; NaN while the test has not started.
    Interval confidence() const;
    // Observations in all (both arms, equal shares) at which a test that goes on would reject with the given
    // power if the true difference were the observed one and the variance the pooled one: the smallest n with
    // |d| / (s sqrt(2 / (n/2))) >= boundary z at n + z_power. -1 when there is no observed difference (or no
    // variance); capped at 100,000,000.
    long long observationsForPower(double power = 0.8) const;

private:
    double m_alpha;
    double m_tauScale;
    int m_minPerArm;
    int m_n[2] = {0, 0};
    double m_mean[2] = {0.0, 0.0};
    double m_allMean = 0.0;
    double m_allSquares = 0.0; // sum of squared deviations from the common mean (Welford)
    double m_pValue = 1.0;
};

// Welch's two-sided t-test p-value for mean(b) - mean(a) = 0 (the Welch-Satterthwaite degrees of freedom,
// Student's t distribution); 1 when either group has fewer than 2 values or both have no variance.
double welchTTestPValue(const std::vector<double>& a, const std::vector<double>& b);

// ---------------------------------------------------------------------------------------------------------------
// Automatic text metrics, over token ids

// Distinct-n (Li et al. 2016): unique n-grams / total n-grams, counted over every text (n-grams never span
// two texts). NaN when there is no n-gram.
double distinctN(const std::vector<std::vector<int>>& texts, int n);
double distinctN(const std::vector<int>& tokens, int n);

// rep-n of one text: the fraction of its n-grams that repeat an n-gram seen earlier in the same text
// (= 1 - distinct-n of the text). NaN when the text has no n-gram.
double repetitionRate(const std::vector<int>& tokens, int n = 4);

// Perplexity of a text under the model that produced it: exp(-mean ln p) of the chosen tokens' raw
// probabilities (softmax of the unmodified logits). NaN when empty; infinite when a probability is 0.
double perplexity(const std::vector<double>& chosenRawP);

// A repetition loop: tokens [start, end) repeat one cycle of `period` tokens back to back (token i equals
// token i - period throughout), `repeats` whole copies of it or more (the last copy may be cut short).
struct RepetitionLoop {
    int start = 0;
    int end = 0;
    int period = 0;
    int repeats = 0; // whole copies: (end - start) / period
    bool operator==(const RepetitionLoop&) const = default;
};
// The loops of a text: spans where a cycle of 1..maxPeriod tokens repeats at least minRepeats times back to
// back and the span covers at least minTokens tokens (so "a a a" is not a loop, eight "a" are; "a b a b"
// is not, "a b" four times is). Each span is reported once, with its shortest cycle ("a b a b a b a b" has
// period 2, not 4); spans of a longer cycle that lie mostly (half or more) inside a shorter cycle's span are
// the same loop. Ordered by start.
std::vector<RepetitionLoop> findRepetitionLoops(const std::vector<int>& tokens, int minRepeats = 3, int minTokens = 8,
                                                int maxPeriod = 64);

// Per-run metrics from a recorded run's steps.
struct TextMetrics {
    int tokens = 0;
    double distinct1 = kNaN;
    double distinct2 = kNaN;
    double distinct3 = kNaN;
    double rep4 = kNaN;
    double meanRawEntropy = kNaN; // nats, over steps
    double perplexity = kNaN;     // from StepTrace::rawP
    int loops = 0;                // findRepetitionLoops with its defaults
};
TextMetrics textMetrics(const std::vector<StepTrace>& steps);

} // namespace swb::stats
