#include "evaluation/Statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "Rng.h"
#include "sampling/StepTrace.h"

namespace swb::stats {

namespace {

double squaredDistance(AlphaMetric metric, const std::vector<double>& values, const std::vector<double>& counts,
                       std::size_t c, std::size_t k) {
    if (c == k)
        return 0.0;
    const double vc = values[c];
    const double vk = values[k];
    switch (metric) {
    case AlphaMetric::Nominal:
        return 1.0;
    case AlphaMetric::Interval:
        return (vc - vk) * (vc - vk);
    case AlphaMetric::Ratio: {
        const double sum = vc + vk;
        return sum == 0.0 ? 0.0 : ((vc - vk) / sum) * ((vc - vk) / sum);
    }
    case AlphaMetric::Ordinal: {
        const std::size_t lo = std::min(c, k);
        const std::size_t hi = std::max(c, k);
        double between = 0.0;
        for (std::size_t g = lo; g <= hi; ++g)
            between += counts[g];
        const double d = between - (counts[c] + counts[k]) / 2.0;
        return d * d;
    }
    }
    return 0.0;
}

// Index into [0, size) from one PCG64 draw; the modulo bias is below 2^-40 for any realistic size.
std::size_t drawIndex(Pcg64& rng, std::size_t size) {
    return static_cast<std::size_t>(rng.next() % size);
}

double creditOfA(BattleOutcome outcome) {
    return outcome == BattleOutcome::AWins ? 1.0 : outcome == BattleOutcome::Tie ? 0.5 : 0.0;
}

// wins[i][j]: i's win credit against j (a tie is half a win each way); games[i][j]: battles between them.
struct Tally {
    std::vector<std::vector<double>> wins;
    std::vector<std::vector<double>> games;
    std::vector<bool> active; // has played at least once
};

Tally tally(std::size_t players, const std::vector<Battle>& battles) {
    Tally t{std::vector<std::vector<double>>(players, std::vector<double>(players, 0.0)),
            std::vector<std::vector<double>>(players, std::vector<double>(players, 0.0)),
            std::vector<bool>(players, false)};
    for (const Battle& battle : battles) {
        const auto a = static_cast<std::size_t>(battle.a);
        const auto b = static_cast<std::size_t>(battle.b);
        if (battle.a < 0 || battle.b < 0 || a >= players || b >= players || a == b)
            continue;
        const double creditA = creditOfA(battle.outcome);
        t.wins[a][b] += creditA;
        t.wins[b][a] += 1.0 - creditA;
        t.games[a][b] += 1.0;
        t.games[b][a] += 1.0;
        t.active[a] = t.active[b] = true;
    }
    return t;
}

// Whether every active player can reach every other through "has won something against" edges (ties
// count both ways): Hunter's (2004) condition for the maximum-likelihood estimate to exist.
bool stronglyConnected(const std::vector<std::vector<double>>& wins, const std::vector<bool>& active) {
    const std::size_t n = wins.size();
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            reach[i][j] = i == j || wins[i][j] > 0.0;
    for (std::size_t m = 0; m < n; ++m)
        for (std::size_t i = 0; i < n; ++i)
            if (reach[i][m])
                for (std::size_t j = 0; j < n; ++j)
                    if (reach[m][j])
                        reach[i][j] = true;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (active[i] && active[j] && !reach[i][j])
                return false;
    return true;
}

} // namespace

namespace {

// A reliability matrix as coincidence contributions: the distinct values of the pairable units, ascending,
// and for each pairable unit the entries (c, k, weight) it adds to the coincidence matrix: n_uc n_uk / (m_u - 1)
// for c != k and n_uc (n_uc - 1) / (m_u - 1) for c = k, n_uc its values equal to value c (the same as adding
// 1 / (m_u - 1) per ordered pair of its values, in time linear in its values).
struct Coincidences {
    struct Entry {
        std::uint32_t c = 0;
        std::uint32_t k = 0;
        double weight = 0.0;
    };
    std::vector<double> values;
    std::vector<std::vector<Entry>> units; // pairable units only
};

Coincidences coincidencesOf(const std::vector<std::vector<double>>& unitsByCoders) {
    Coincidences out;
    for (const std::vector<double>& unit : unitsByCoders) {
        const auto present = std::count_if(unit.begin(), unit.end(), [](double v) { return !std::isnan(v); });
        if (present < 2)
            continue;
        for (double v : unit)
            if (!std::isnan(v))
                out.values.push_back(v);
    }
    std::sort(out.values.begin(), out.values.end());
    out.values.erase(std::unique(out.values.begin(), out.values.end()), out.values.end());
    std::vector<std::pair<std::uint32_t, double>> counts; // (value index, count) of one unit
    for (const std::vector<double>& unit : unitsByCoders) {
        counts.clear();
        double m = 0.0;
        for (double v : unit) {
            if (std::isnan(v))
                continue;
            const auto c = static_cast<std::uint32_t>(std::lower_bound(out.values.begin(), out.values.end(), v) -
                                                      out.values.begin());
            const auto found = std::find_if(counts.begin(), counts.end(), [c](const auto& e) { return e.first == c; });
            if (found != counts.end())
                found->second += 1.0;
            else
                counts.emplace_back(c, 1.0);
            m += 1.0;
        }
        if (m < 2.0)
            continue;
        std::vector<Coincidences::Entry> entries;
        for (const auto& [c, nc] : counts)
            for (const auto& [k, nk] : counts) {
                const double pairs = c == k ? nc * (nc - 1.0) : nc * nk;
                if (pairs > 0.0)
                    entries.push_back({c, k, pairs / (m - 1.0)});
            }
        out.units.push_back(std::move(entries));
    }
    return out;
}

// Alpha from the summed contributions of the given units (indices into coincidences.units, repeats allowed).
template <typename Units>
AlphaResult alphaOf(const Coincidences& coincidences, const Units& units, AlphaMetric metric,
                    std::vector<double>& matrix) {
    AlphaResult result;
    const std::size_t size = coincidences.values.size();
    if (size == 0)
        return result;
    matrix.assign(size * size, 0.0);
    for (std::size_t u : units) {
        ++result.units;
        for (const Coincidences::Entry& e : coincidences.units[u])
            matrix[e.c * size + e.k] += e.weight;
    }
    std::vector<double> counts(size, 0.0);
    for (std::size_t c = 0; c < size; ++c)
        for (std::size_t k = 0; k < size; ++k)
            counts[c] += matrix[c * size + k];
    const double n = std::accumulate(counts.begin(), counts.end(), 0.0);
    result.pairable = n;
    double observed = 0.0;
    double expected = 0.0;
    for (std::size_t c = 0; c < size; ++c)
        for (std::size_t k = 0; k < size; ++k) {
            if (counts[c] == 0.0 || counts[k] == 0.0)
                continue; // a value no drawn unit holds (a bootstrap resample): no term
            const double d = squaredDistance(metric, coincidences.values, counts, c, k);
            observed += matrix[c * size + k] * d;
            expected += counts[c] * counts[k] * d;
        }
    if (n <= 1.0 || expected <= 0.0)
        return result;
    result.alpha = 1.0 - (n - 1.0) * observed / expected;
    return result;
}

} // namespace

AlphaResult krippendorffAlpha(const std::vector<std::vector<double>>& unitsByCoders, AlphaMetric metric) {
    const Coincidences coincidences = coincidencesOf(unitsByCoders);
    std::vector<std::size_t> all(coincidences.units.size());
    std::iota(all.begin(), all.end(), std::size_t(0));
    std::vector<double> matrix;
    return alphaOf(coincidences, all, metric, matrix);
}

BradleyTerryFit bradleyTerry(int players, const std::vector<Battle>& battles, const BradleyTerryOptions& options) {
    const auto n = static_cast<std::size_t>(std::max(players, 0));
    BradleyTerryFit fit;
    fit.scores.assign(n, kNaN);
    Tally t = tally(n, battles);
    std::vector<std::vector<double>>& wins = t.wins;
    std::vector<std::vector<double>>& games = t.games;
    const std::vector<bool>& active = t.active;
    if (options.priorTies > 0.0)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (i != j && active[i] && active[j]) {
                    wins[i][j] += options.priorTies / 2.0;
                    games[i][j] += options.priorTies;
                }
    const auto activeCount = std::count(active.begin(), active.end(), true);
    if (activeCount == 0 || !stronglyConnected(wins, active))
        return fit;

    std::vector<double> totalWins(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        totalWins[i] = std::accumulate(wins[i].begin(), wins[i].end(), 0.0);
    std::vector<double> strength(n, 1.0);
    std::vector<double> next(n, 1.0);
    for (fit.iterations = 1; fit.iterations <= options.maxIterations; ++fit.iterations) {
        for (std::size_t i = 0; i < n; ++i) {
            if (!active[i])
                continue;
            double denominator = 0.0;
            for (std::size_t j = 0; j < n; ++j)
                if (j != i && games[i][j] > 0.0)
                    denominator += games[i][j] / (strength[i] + strength[j]);
            next[i] = totalWins[i] / denominator;
        }
        // Normalise to a geometric mean of 1 (mean log-strength 0), so scores average elo.initial.
        double meanLog = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            if (active[i])
                meanLog += std::log(next[i]);
        meanLog /= static_cast<double>(activeCount);
        double change = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            if (!active[i])
                continue;
            next[i] = std::exp(std::log(next[i]) - meanLog);
            change = std::max(change, std::abs(std::log(next[i]) - std::log(strength[i])));
        }
        std::swap(strength, next);
        if (change < options.tolerance) {
            fit.converged = true;
            break;
        }
    }
    if (!fit.converged)
        return fit;
    for (std::size_t i = 0; i < n; ++i)
        if (active[i])
            fit.scores[i] =
                options.elo.initial + options.elo.scale * std::log(strength[i]) / std::log(options.elo.base);
    return fit;
}

std::vector<Interval> bradleyTerryIntervals(int players, const std::vector<Battle>& battles,
                                            const BradleyTerryOptions& options, int rounds, std::uint64_t seed) {
    const auto n = static_cast<std::size_t>(std::max(players, 0));
    std::vector<Interval> intervals(n);
    if (battles.empty() || rounds <= 0)
        return intervals;
    Pcg64 rng(seed);
    std::vector<std::vector<double>> samples(n);
    std::vector<Battle> resample(battles.size());
    for (int round = 0; round < rounds; ++round) {
        for (Battle& battle : resample)
            battle = battles[drawIndex(rng, battles.size())];
        const BradleyTerryFit fit = bradleyTerry(players, resample, options);
        for (std::size_t i = 0; i < n; ++i)
            if (std::isfinite(fit.scores[i]))
                samples[i].push_back(fit.scores[i]);
    }
    for (std::size_t i = 0; i < n; ++i)
        intervals[i] = {percentile(samples[i], 2.5), percentile(samples[i], 97.5)};
    return intervals;
}

std::vector<double> onlineElo(int players, const std::vector<Battle>& battles, double k, const EloScale& elo) {
    std::vector<double> rating(static_cast<std::size_t>(std::max(players, 0)), elo.initial);
    for (const Battle& battle : battles) {
        if (battle.a < 0 || battle.b < 0 || battle.a >= players || battle.b >= players || battle.a == battle.b)
            continue;
        double& ra = rating[static_cast<std::size_t>(battle.a)];
        double& rb = rating[static_cast<std::size_t>(battle.b)];
        const double ea = 1.0 / (1.0 + std::pow(elo.base, (rb - ra) / elo.scale));
        const double eb = 1.0 / (1.0 + std::pow(elo.base, (ra - rb) / elo.scale));
        const double sa = creditOfA(battle.outcome);
        ra += k * (sa - ea);
        rb += k * (1.0 - sa - eb);
    }
    return rating;
}

std::vector<std::vector<double>> winRateMatrix(int players, const std::vector<Battle>& battles) {
    const auto n = static_cast<std::size_t>(std::max(players, 0));
    Tally t = tally(n, battles);
    std::vector<std::vector<double>>& wins = t.wins;
    const std::vector<std::vector<double>>& games = t.games;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            wins[i][j] = games[i][j] > 0.0 ? wins[i][j] / games[i][j] : kNaN;
    return wins;
}

AlphaResult krippendorffAlphaWithout(const std::vector<std::vector<double>>& unitsByCoders, std::size_t coder,
                                     AlphaMetric metric) {
    std::vector<std::vector<double>> rest = unitsByCoders;
    for (std::vector<double>& unit : rest)
        if (coder < unit.size())
            unit.erase(unit.begin() + static_cast<std::ptrdiff_t>(coder));
    return krippendorffAlpha(rest, metric);
}

Interval krippendorffAlphaInterval(const std::vector<std::vector<double>>& unitsByCoders, AlphaMetric metric,
                                   int rounds, std::uint64_t seed) {
    if (unitsByCoders.empty() || rounds <= 0)
        return {};
    // Units that hold fewer than two values add nothing to alpha, wherever a resample draws them: each unit
    // is drawn from all of them, and only the pairable ones are summed.
    const Coincidences coincidences = coincidencesOf(unitsByCoders);
    std::vector<std::ptrdiff_t> pairableIndex(unitsByCoders.size(), -1);
    std::ptrdiff_t next = 0;
    for (std::size_t u = 0; u < unitsByCoders.size(); ++u)
        if (std::count_if(unitsByCoders[u].begin(), unitsByCoders[u].end(), [](double v) { return !std::isnan(v); }) >= 2)
            pairableIndex[u] = next++;
    Pcg64 rng(seed);
    std::vector<double> alphas;
    std::vector<std::size_t> drawn;
    std::vector<double> matrix;
    for (int r = 0; r < rounds; ++r) {
        drawn.clear();
        for (std::size_t i = 0; i < unitsByCoders.size(); ++i)
            if (const std::ptrdiff_t p = pairableIndex[drawIndex(rng, unitsByCoders.size())]; p >= 0)
                drawn.push_back(static_cast<std::size_t>(p));
        const double alpha = alphaOf(coincidences, drawn, metric, matrix).alpha;
        if (std::isfinite(alpha))
            alphas.push_back(alpha);
    }
    if (alphas.empty())
        return {};
    return {percentile(alphas, 2.5), percentile(alphas, 97.5)};
}

LengthControlledFit lengthControlledBradleyTerry(int players, const std::vector<LengthBattle>& battles,
                                                 const EloScale& elo) {
    LengthControlledFit fit;
    fit.scores.assign(static_cast<std::size_t>(std::max(players, 0)), kNaN);
    std::vector<bool> played(fit.scores.size(), false);
    std::vector<double> z;
    double squares = 0.0;
    for (const LengthBattle& b : battles) {
        const double total = b.lengthA + b.lengthB;
        z.push_back(total > 0.0 ? (b.lengthA - b.lengthB) / total : 0.0);
        squares += z.back() * z.back();
        played[static_cast<std::size_t>(b.battle.a)] = played[static_cast<std::size_t>(b.battle.b)] = true;
    }
    if (battles.empty())
        return fit;
    const double rms = std::sqrt(squares / static_cast<double>(battles.size()));
    for (double& v : z)
        v = rms > 0.0 ? v / rms : 0.0;
    // Parameters: theta for every player, then gamma. The penalty makes the system definite; the scores are
    // centred on the players who played afterwards.
    const auto p = static_cast<std::size_t>(players) + 1;
    std::vector<double> beta(p, 0.0);
    const double ridge = 1e-6;
    for (int iteration = 0; iteration < 200; ++iteration) {
        std::vector<double> gradient(p, 0.0);
        std::vector<double> hessian(p * p, 0.0); // of the negative log-likelihood
        for (std::size_t i = 0; i < p; ++i) {
            gradient[i] = -ridge * beta[i];
            hessian[i * p + i] = ridge;
        }
        for (std::size_t k = 0; k < battles.size(); ++k) {
            const Battle& b = battles[k].battle;
            const auto a = static_cast<std::size_t>(b.a), o = static_cast<std::size_t>(b.b);
            const double eta = beta[a] - beta[o] + beta[p - 1] * z[k];
            const double prob = 1.0 / (1.0 + std::exp(-eta));
            const double lose = 1.0 / (1.0 + std::exp(eta)); // 1 - prob without cancellation
            const double y = b.outcome == BattleOutcome::AWins ? 1.0 : b.outcome == BattleOutcome::BWins ? 0.0 : 0.5;
            const double w = prob * lose;
            const std::pair<std::size_t, double> x[] = {{a, 1.0}, {o, -1.0}, {p - 1, z[k]}};
            for (const auto& [i, xi] : x) {
                gradient[i] += (y >= 0.5 ? (y - 1.0) + lose : y - prob) * xi;
                for (const auto& [j, xj] : x)
                    hessian[i * p + j] += w * xi * xj;
            }
        }
        // Solve hessian * step = gradient (Gaussian elimination, partial pivoting).
        std::vector<double> m = hessian, step = gradient;
        for (std::size_t c = 0; c < p; ++c) {
            std::size_t pivot = c;
            for (std::size_t r = c + 1; r < p; ++r)
                if (std::abs(m[r * p + c]) > std::abs(m[pivot * p + c]))
                    pivot = r;
            if (m[pivot * p + c] == 0.0)
                return fit;
            if (pivot != c) {
                for (std::size_t j = 0; j < p; ++j)
                    std::swap(m[c * p + j], m[pivot * p + j]);
                std::swap(step[c], step[pivot]);
            }
            for (std::size_t r = c + 1; r < p; ++r) {
                const double f = m[r * p + c] / m[c * p + c];
                for (std::size_t j = c; j < p; ++j)
                    m[r * p + j] -= f * m[c * p + j];
                step[r] -= f * step[c];
            }
        }
        for (std::size_t c = p; c-- > 0;) {
            for (std::size_t j = c + 1; j < p; ++j)
                step[c] -= m[c * p + j] * step[j];
            step[c] /= m[c * p + c];
        }
        double largest = 0.0;
        for (std::size_t i = 0; i < p; ++i) {
            beta[i] += step[i];
            largest = std::max(largest, std::abs(step[i]) / std::max(1.0, std::abs(beta[i])));
        }
        if (!std::isfinite(largest))
            return fit;
        if (largest < 1e-9) {
            fit.converged = true;
            break;
        }
    }
    if (!fit.converged)
        return fit;
    double sum = 0.0;
    int scored = 0;
    for (std::size_t i = 0; i + 1 < p; ++i)
        if (played[i]) {
            sum += beta[i];
            ++scored;
        }
    for (std::size_t i = 0; i + 1 < p; ++i)
        if (played[i])
            fit.scores[i] = elo.initial + elo.scale / std::log(elo.base) * (beta[i] - sum / scored);
    fit.lengthCoefficient = rms > 0.0 ? beta[p - 1] : kNaN;
    return fit;
}

double signTestPValue(int wins, int losses) {
    const int n = wins + losses;
    if (n <= 0)
        return 1.0;
    const int k = std::min(wins, losses);
    // P(X <= k) summed in log space: C(n, i) / 2^n.
    double tail = 0.0;
    for (int i = 0; i <= k; ++i)
        tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
    return std::min(1.0, 2.0 * tail);
}

std::vector<double> holmAdjust(const std::vector<double>& pValues) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < pValues.size(); ++i)
        if (!std::isnan(pValues[i]))
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pValues[a] < pValues[b]; });
    std::vector<double> adjusted(pValues.size(), kNaN);
    const auto m = static_cast<double>(order.size());
    double running = 0.0;
    for (std::size_t j = 0; j < order.size(); ++j) {
        running = std::max(running, std::min(1.0, (m - static_cast<double>(j)) * pValues[order[j]]));
        adjusted[order[j]] = running;
    }
    return adjusted;
}

namespace {

// The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9).
double normalQuantile(double p) {
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01,  -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    const double low = 0.02425;
    if (p < low) {
        const double q = std::sqrt(-2 * std::log(p));
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
               ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low)
        return -normalQuantile(1 - p);
    const double q = p - 0.5;
    const double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

} // namespace

int signTestSampleSize(double share, double alpha, double power) {
    if (!(share > 0.0 && share < 1.0) || share == 0.5 || !(alpha > 0.0 && alpha < 1.0) || !(power > 0.0 && power < 1.0))
        return -1;
    const double n = std::pow((normalQuantile(1.0 - alpha / 2.0) * 0.5 + normalQuantile(power) * std::sqrt(share * (1.0 - share))) /
                                  (share - 0.5),
                              2.0);
    return static_cast<int>(std::ceil(n - 1e-9));
}

int signTestAllWonSize(double alpha) {
    if (!(alpha > 0.0 && alpha < 1.0))
        return -1;
    int n = 1;
    while (2.0 * std::pow(0.5, n) >= alpha)
        ++n;
    return n;
}

double mean(const std::vector<double>& values) {
    if (values.empty())
        return kNaN;
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double percentile(std::vector<double> values, double p) {
    if (values.empty())
        return kNaN;
    std::sort(values.begin(), values.end());
    const double h = (static_cast<double>(values.size()) - 1.0) * std::clamp(p, 0.0, 100.0) / 100.0;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (h - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

Interval bootstrapMeanInterval(const std::vector<double>& values, int rounds, std::uint64_t seed) {
    if (values.empty() || rounds <= 0)
        return {};
    Pcg64 rng(seed);
    std::vector<double> means(static_cast<std::size_t>(rounds));
    for (double& m : means) {
        double sum = 0.0;
        for (std::size_t i = 0; i < values.size(); ++i)
            sum += values[drawIndex(rng, values.size())];
        m = sum / static_cast<double>(values.size());
    }
    return {percentile(means, 2.5), percentile(means, 97.5)};
}

double distinctN(const std::vector<std::vector<int>>& texts, int n) {
    if (n < 1)
        return kNaN;
    std::set<std::vector<int>> unique;
    std::size_t total = 0;
    for (const std::vector<int>& tokens : texts) {
        const auto size = static_cast<std::size_t>(n);
        for (std::size_t i = 0; i + size <= tokens.size(); ++i) {
            unique.emplace(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                           tokens.begin() + static_cast<std::ptrdiff_t>(i + size));
            ++total;
        }
    }
    return total == 0 ? kNaN : static_cast<double>(unique.size()) / static_cast<double>(total);
}

double distinctN(const std::vector<int>& tokens, int n) {
    return distinctN(std::vector<std::vector<int>>{tokens}, n);
}

double repetitionRate(const std::vector<int>& tokens, int n) {
    const double distinct = distinctN(tokens, n);
    return std::isnan(distinct) ? kNaN : 1.0 - distinct;
}

double perplexity(const std::vector<double>& chosenRawP) {
    if (chosenRawP.empty())
        return kNaN;
    double sum = 0.0;
    for (double p : chosenRawP)
        sum += std::log(p);
    return std::exp(-sum / static_cast<double>(chosenRawP.size()));
}

std::vector<RepetitionLoop> findRepetitionLoops(const std::vector<int>& tokens, int minRepeats, int minTokens,
                                                int maxPeriod) {
    const int n = static_cast<int>(tokens.size());
    std::vector<RepetitionLoop> found;
    // Shortest cycles first, so a span is claimed by its shortest period before its multiples are seen.
    for (int period = 1; period <= std::min(maxPeriod, n / 2); ++period) {
        int i = period;
        while (i < n) {
            if (tokens[static_cast<std::size_t>(i)] != tokens[static_cast<std::size_t>(i - period)]) {
                ++i;
                continue;
            }
            int j = i;
            while (j < n && tokens[static_cast<std::size_t>(j)] == tokens[static_cast<std::size_t>(j - period)])
                ++j;
            // Tokens [i - period, j) have this period.
            RepetitionLoop loop{i - period, j, period, (j - i + period) / period};
            i = j;
            if (loop.repeats < minRepeats || loop.end - loop.start < minTokens)
                continue;
            const bool claimed = std::any_of(found.begin(), found.end(), [&](const RepetitionLoop& shorter) {
                const int overlap = std::min(shorter.end, loop.end) - std::max(shorter.start, loop.start);
                return 2 * overlap >= loop.end - loop.start;
            });
            if (!claimed)
                found.push_back(loop);
        }
    }
    std::sort(found.begin(), found.end(), [](const RepetitionLoop& a, const RepetitionLoop& b) {
        return a.start != b.start ? a.start < b.start : a.period < b.period;
    });
    return found;
}

TextMetrics textMetrics(const std::vector<StepTrace>& steps) {
    TextMetrics metrics;
    metrics.tokens = static_cast<int>(steps.size());
    std::vector<int> tokens;
    std::vector<double> probabilities;
    std::vector<double> entropies;
    for (const StepTrace& step : steps) {
        tokens.push_back(step.chosen);
        probabilities.push_back(step.rawP);
        entropies.push_back(step.rawEntropy);
    }
    metrics.distinct1 = distinctN(tokens, 1);
    metrics.distinct2 = distinctN(tokens, 2);
    metrics.distinct3 = distinctN(tokens, 3);
    metrics.rep4 = repetitionRate(tokens, 4);
    metrics.meanRawEntropy = mean(entropies);
    metrics.perplexity = perplexity(probabilities);
    metrics.loops = static_cast<int>(findRepetitionLoops(tokens).size());
    return metrics;
}

namespace {

// The regularised incomplete beta function I_x(a, b) by its continued fraction (modified Lentz), on the side
// where it converges fast (x < (a + 1) / (a + b + 2), else through I_x(a, b) = 1 - I_{1-x}(b, a)).
double incompleteBeta(double x, double a, double b) {
    if (x <= 0.0)
        return 0.0;
    if (x >= 1.0)
        return 1.0;
    if (x > (a + 1.0) / (a + b + 2.0))
        return 1.0 - incompleteBeta(1.0 - x, b, a);
    const double front =
        std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x)) / a;
    constexpr double tiny = 1e-300;
    double f = 1.0;
    double c = 1.0;
    double d = 1.0 - (a + b) * x / (a + 1.0);
    d = 1.0 / (std::abs(d) < tiny ? tiny : d);
    f = d;
    for (int m = 1; m <= 300; ++m) {
        for (int half = 0; half < 2; ++half) {
            // d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)); d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
            const double numerator = half == 0 ? m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m))
                                               : -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
            d = 1.0 + numerator * d;
            d = 1.0 / (std::abs(d) < tiny ? tiny : d);
            c = 1.0 + numerator / c;
            if (std::abs(c) < tiny)
                c = tiny;
            const double delta = c * d;
            f *= delta;
            if (half == 1 && std::abs(delta - 1.0) < 1e-15)
                return front * f;
        }
    }
    return front * f;
}

// The boundary of MixtureSprt as a z value: |d| / sqrt(V) at which Lambda = 1 / alpha, for r = tau^2 / V.
double sprtBoundaryZ(double r, double alpha) {
    return std::sqrt(2.0 * (1.0 + r) / r * (std::log(1.0 / alpha) + 0.5 * std::log1p(r)));
}

} // namespace

void MixtureSprt::add(int arm, double value) {
    const int i = arm == 0 ? 0 : 1;
    ++m_n[i];
    m_mean[i] += (value - m_mean[i]) / m_n[i];
    const int all = m_n[0] + m_n[1];
    const double delta = value - m_allMean;
    m_allMean += delta / all;
    m_allSquares += delta * (value - m_allMean);
    if (std::min(m_n[0], m_n[1]) < std::max(m_minPerArm, 2))
        return;
    const double variance = pooledVariance();
    if (!(variance > 0.0))
        return;
    const double v = variance * (1.0 / m_n[0] + 1.0 / m_n[1]);
    const double tau2 = m_tauScale * m_tauScale * variance;
    const double d = difference();
    const double logLambda = 0.5 * std::log(v / (v + tau2)) + d * d * tau2 / (2.0 * v * (v + tau2));
    m_pValue = std::min(m_pValue, std::exp(-logLambda));
}

double MixtureSprt::mean(int arm) const {
    return m_n[arm] > 0 ? m_mean[arm] : kNaN;
}

double MixtureSprt::pooledVariance() const {
    const int all = m_n[0] + m_n[1];
    return m_n[0] > 0 && m_n[1] > 0 && all > 1 ? m_allSquares / (all - 1) : kNaN;
}

double MixtureSprt::difference() const {
    return mean(1) - mean(0);
}

Interval MixtureSprt::confidence() const {
    const double variance = pooledVariance();
    if (std::min(m_n[0], m_n[1]) < std::max(m_minPerArm, 2) || !(variance > 0.0))
        return {};
    const double v = variance * (1.0 / m_n[0] + 1.0 / m_n[1]);
    const double tau2 = m_tauScale * m_tauScale * variance;
    const double half = std::sqrt(v * (v + tau2) / tau2 * (2.0 * std::log(1.0 / m_alpha) + std::log1p(tau2 / v)));
    return {difference() - half, difference() + half};
}

long long MixtureSprt::observationsForPower(double power) const {
    const double variance = pooledVariance();
    const double d = std::abs(difference());
    if (!(variance > 0.0) || !(d > 0.0))
        return -1;
    const double zPower = normalQuantile(power);
    constexpr long long cap = 100'000'000;
    // Per arm: z(n) = d / sqrt(2 s^2 / n) grows like sqrt(n) and the boundary barely moves: bisect.
    const auto enough = [&](long long perArm) {
        const double v = 2.0 * variance / double(perArm);
        const double r = m_tauScale * m_tauScale * variance / v;
        return d / std::sqrt(v) >= sprtBoundaryZ(r, m_alpha) + zPower;
    };
    long long low = 1;
    long long high = cap / 2;
    if (!enough(high))
        return cap;
    while (low < high) {
        const long long middle = (low + high) / 2;
        if (enough(middle))
            high = middle;
        else
            low = middle + 1;
    }
    return 2 * low;
}

double welchTTestPValue(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() < 2 || b.size() < 2)
        return 1.0;
    const auto moments = [](const std::vector<double>& values) {
        const double m = mean(values);
        double squares = 0.0;
        for (double x : values)
            squares += (x - m) * (x - m);
        return std::pair{m, squares / double(values.size() - 1)};
    };
    const auto [meanA, varA] = moments(a);
    const auto [meanB, varB] = moments(b);
    const double sa = varA / double(a.size());
    const double sb = varB / double(b.size());
    if (!(sa + sb > 0.0))
        return 1.0;
    const double t = (meanB - meanA) / std::sqrt(sa + sb);
    const double dof = (sa + sb) * (sa + sb) / (sa * sa / double(a.size() - 1) + sb * sb / double(b.size() - 1));
    return incompleteBeta(dof / (dof + t * t), dof / 2.0, 0.5);
}

} // namespace swb::stats
