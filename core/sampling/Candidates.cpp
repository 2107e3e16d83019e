#include "sampling/Candidates.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>

namespace swb {

namespace kernels {

namespace {

// exp(x) for x <= 0; 0 below -87 (where float exp underflows anyway). Cody-Waite range reduction
// and the Cephes expf polynomial; written so that GCC vectorises the loops that call it.
[[gnu::always_inline]] inline float expNonPositive(float x) {
    const float clamped = x < -87.0f ? -87.0f : x;
    // n = round(x / ln 2) with the 1.5 * 2^23 trick, which also leaves n in the low mantissa bits.
    const float shifted = clamped * 1.44269504088896341f + 12582912.0f;
    const auto bits = std::bit_cast<std::int32_t>(shifted);
    const float n = shifted - 12582912.0f;
    float r = clamped - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    const float z = r * r;
    float p = 1.9875691500E-4f;
    p = p * r + 1.3981999507E-3f;
    p = p * r + 8.3334519073E-3f;
    p = p * r + 4.1665795894E-2f;
    p = p * r + 1.6666665459E-1f;
    p = p * r + 5.0000001201E-1f;
    p = p * z + r + 1.0f;
    const std::int32_t exponent = (bits - 0x4B400000 + 127) << 23;
    const float value = p * std::bit_cast<float>(exponent);
    return x < -87.0f ? 0.0f : value;
}

constexpr std::size_t kLanes = 8;

} // namespace

[[gnu::target_clones("avx2", "default")]] float maxOf(const float* x, std::size_t n) {
    float lanes[kLanes];
    std::fill(lanes, lanes + kLanes, -INFINITY);
    std::size_t i = 0;
    for (; i + kLanes <= n; i += kLanes)
        for (std::size_t j = 0; j < kLanes; ++j)
            lanes[j] = lanes[j] < x[i + j] ? x[i + j] : lanes[j];
    float best = -INFINITY;
    for (float lane : lanes)
        best = best < lane ? lane : best;
    for (; i < n; ++i)
        best = best < x[i] ? x[i] : best;
    return best;
}

// out[i] = exp(x[i] - shift), with sum = sum of out and weighted = sum of out[i] * max(x[i] - shift, -87)
// (finite even for -inf logits), in one pass. Sums run in float lanes over blocks of 2048 items, each
// block added to a double total: vectorises fully (the lane structure is explicit, so every CPU adds
// in the same order) and keeps the relative error near 1e-7 for any vocabulary size.
[[gnu::target_clones("avx2", "default")]] static void expShiftSums(const float* x, float* out, std::size_t n,
                                                                   float shift, double* sum, double* weighted) {
    constexpr std::size_t kBlock = 2048;
    double total = 0.0;
    double totalWeighted = 0.0;
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t end = std::min(n, start + kBlock);
        const std::size_t full = start + (end - start) / kLanes * kLanes;
        float s[kLanes] = {};
        float w[kLanes] = {};
        std::size_t i = start;
        for (; i < full; i += kLanes) {
            for (std::size_t j = 0; j < kLanes; ++j) {
                const float d = x[i + j] - shift;
                const float e = expNonPositive(d);
                out[i + j] = e;
                s[j] += e;
                w[j] += e * (d < -87.0f ? -87.0f : d);
            }
        }
        float blockSum = 0.0f;
        float blockWeighted = 0.0f;
        for (std::size_t j = 0; j < kLanes; ++j) {
            blockSum += s[j];
            blockWeighted += w[j];
        }
        for (; i < end; ++i) {
            const float d = x[i] - shift;
            const float e = expNonPositive(d);
            out[i] = e;
            blockSum += e;
            blockWeighted += e * (d < -87.0f ? -87.0f : d);
        }
        total += blockSum;
        totalWeighted += blockWeighted;
    }
    *sum = total;
    *weighted = totalWeighted;
}

void expShift(const float* x, float* out, std::size_t n, float shift, double* sum, double* weightedSum) {
    expShiftSums(x, out, n, shift, sum, weightedSum);
}

[[gnu::target_clones("avx2", "default")]] void bucketIndices(const float* x, std::size_t n, float top, float scale,
                                                             std::uint16_t last, std::uint16_t* out) {
    const float limit = static_cast<float>(last);
    for (std::size_t i = 0; i < n; ++i) {
        float offset = (top - x[i]) * scale;
        offset = offset < limit ? offset : limit;
        offset = offset > 0.0f ? offset : 0.0f;
        out[i] = static_cast<std::uint16_t>(static_cast<std::int32_t>(offset));
    }
}

std::size_t drawIndex(const Candidates& candidates, double u) {
    const std::size_t n = candidates.size();
    const std::span<const TokenId> ids = candidates.ids();
    const std::span<const float> probs = candidates.probs();
    // Visit order: ascending id. Small or already ordered sets are walked directly, large permuted
    // ones through a dense by-id array; both add the same probabilities in the same order.
    std::vector<std::size_t> order;
    if (!std::is_sorted(ids.begin(), ids.end())) {
        order.resize(n);
        std::iota(order.begin(), order.end(), 0);
        if (n <= 4096) {
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
        } else {
            std::vector<std::int32_t> slot(static_cast<std::size_t>(candidates.vocabSize()), -1);
            for (std::size_t i = 0; i < n; ++i)
                slot[static_cast<std::size_t>(ids[i])] = static_cast<std::int32_t>(i);
            order.clear();
            for (std::int32_t index : slot)
                if (index >= 0)
                    order.push_back(static_cast<std::size_t>(index));
        }
    }
    const auto at = [&](std::size_t k) { return order.empty() ? k : order[k]; };
    double total = 0.0;
    for (std::size_t k = 0; k < n; ++k)
        total += probs[at(k)];
    const double target = u * total;
    double cumulative = 0.0;
    std::size_t last = at(0);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t index = at(k);
        if (probs[index] <= 0.0f)
            continue;
        cumulative += probs[index];
        last = index;
        if (cumulative > target)
            return index;
    }
    return last; // rounding left the target just above the total
}

} // namespace kernels

Candidates::Candidates(std::span<const float> logits) {
    assign(logits);
}

void Candidates::assign(std::span<const float> logits) {
    m_totalProb = -1.0;
    m_ids.resize(logits.size());
    std::iota(m_ids.begin(), m_ids.end(), 0);
    m_logits.assign(logits.begin(), logits.end());
    m_probs.resize(logits.size()); // stale until softmax(); resizing to the same size costs nothing
    m_vocabSize = static_cast<int>(logits.size());
    m_sortedCount = 0;
    m_probsValid = false;
    m_entropy = 0.0;
    m_logPartition = 0.0;
    selected = -1;
    draw = NAN;
}

void Candidates::logitsChanged(bool orderKept) {
    m_totalProb = -1.0;
    m_probsValid = false;
    if (!orderKept)
        m_sortedCount = 0;
}

void Candidates::softmax() {
    if (m_probsValid)
        return;
    const std::size_t n = size();
    m_probs.resize(n);
    if (n == 0) {
        m_entropy = 0.0;
        m_probsValid = true;
        return;
    }
    const float max = m_sortedCount > 0 ? m_logits[0] : kernels::maxOf(m_logits.data(), n);
    double sum = 0.0;
    double weighted = 0.0;
    kernels::expShift(m_logits.data(), m_probs.data(), n, max, &sum, &weighted);
    const float inverse = static_cast<float>(1.0 / sum);
    // The sum of the normalised probabilities, in the order totalProb() adds them, comes free here.
    double total = 0.0;
    for (float& p : m_probs) {
        p *= inverse;
        total += p;
    }
    m_totalProb = total;
    // H = -sum p log p with log p = (x - max) - log Z: no logarithm per token.
    m_entropy = std::max(0.0, std::log(sum) - weighted / sum);
    m_logPartition = static_cast<double>(max) + std::log(sum);
    m_probsValid = true;
}

double Candidates::entropy() {
    softmax();
    return m_entropy;
}

double Candidates::totalProb() const {
    if (m_probsValid && m_totalProb >= 0.0)
        return m_totalProb;
    double total = 0.0;
    for (float p : m_probs)
        total += p;
    return total;
}

void Candidates::reorder(const std::vector<std::size_t>& order, std::size_t sortedPrefix) {
    m_totalProb = -1.0;
    const bool withProbs = m_probs.size() == m_ids.size();
    ScratchVector<TokenId> ids(order.size());
    ScratchVector<float> logits(order.size());
    ScratchVector<float> probs(withProbs ? order.size() : 0);
    for (std::size_t i = 0; i < order.size(); ++i) {
        ids[i] = m_ids[order[i]];
        logits[i] = m_logits[order[i]];
        if (withProbs)
            probs[i] = m_probs[order[i]];
    }
    m_ids = std::move(ids);
    m_logits = std::move(logits);
    m_probs = std::move(probs);
    m_sortedCount = sortedPrefix;
}

void Candidates::swapItems(std::size_t a, std::size_t b) {
    m_totalProb = -1.0;
    std::swap(m_ids[a], m_ids[b]);
    std::swap(m_logits[a], m_logits[b]);
    if (m_probs.size() == m_ids.size())
        std::swap(m_probs[a], m_probs[b]);
}

void Candidates::sortTop(std::size_t k) {
    const std::size_t n = size();
    k = std::min(k, n);
    if (k == 0 || m_sortedCount >= k)
        return;
    const auto before = [this](std::size_t a, std::size_t b) {
        return m_logits[a] > m_logits[b] || (m_logits[a] == m_logits[b] && m_ids[a] < m_ids[b]);
    };

    std::vector<std::size_t> selected;
    if (k * 8 >= n || n <= 4096) {
        selected.resize(n);
        std::iota(selected.begin(), selected.end(), 0);
        std::sort(selected.begin(), selected.end(), before);
        reorder(selected, n);
        return;
    }

    // Scan with a rising threshold: keep indices whose logit is >= the k-th largest seen so far,
    // re-selecting when the buffer fills. Most items are rejected by one comparison.
    const std::size_t capacity = 4 * k + 64;
    selected.reserve(capacity);
    float threshold = -INFINITY;
    const float* logits = m_logits.data();
    const auto larger = [logits](std::size_t a, std::size_t b) { return logits[a] > logits[b]; };
    for (std::size_t i = 0; i < n; ++i) {
        if (logits[i] < threshold)
            continue;
        selected.push_back(i);
        if (selected.size() >= capacity) {
            std::nth_element(selected.begin(), selected.begin() + static_cast<std::ptrdiff_t>(k - 1), selected.end(),
                             larger);
            threshold = logits[selected[k - 1]];
            std::erase_if(selected, [logits, threshold](std::size_t index) { return logits[index] < threshold; });
        }
    }
    std::sort(selected.begin(), selected.end(), before);
    // Close the prefix under ties: keep everything tied with the k-th item.
    const float kth = m_logits[selected[k - 1]];
    std::size_t prefix = k;
    while (prefix < selected.size() && m_logits[selected[prefix]] == kth)
        ++prefix;
    selected.resize(prefix);

    // Move the selected items into [0, prefix) by swaps (O(prefix), no pass over the rest), then
    // put that range in order.
    std::vector<std::size_t> byIndex = selected;
    std::sort(byIndex.begin(), byIndex.end());
    std::vector<std::size_t> incoming;
    for (std::size_t index : byIndex)
        if (index >= prefix)
            incoming.push_back(index);
    std::size_t next = 0;
    for (std::size_t position = 0; position < prefix && next < incoming.size(); ++position)
        if (!std::binary_search(byIndex.begin(), byIndex.end(), position))
            swapItems(position, incoming[next++]);
    std::vector<std::size_t> order(prefix);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), before);
    const bool withProbs = m_probs.size() == m_ids.size();
    std::vector<TokenId> ids(prefix);
    std::vector<float> values(prefix);
    std::vector<float> probs(withProbs ? prefix : 0);
    for (std::size_t i = 0; i < prefix; ++i) {
        ids[i] = m_ids[order[i]];
        values[i] = m_logits[order[i]];
        if (withProbs)
            probs[i] = m_probs[order[i]];
    }
    std::copy(ids.begin(), ids.end(), m_ids.begin());
    std::copy(values.begin(), values.end(), m_logits.begin());
    if (withProbs)
        std::copy(probs.begin(), probs.end(), m_probs.begin());
    m_sortedCount = prefix;
}

void Candidates::keepFirst(std::size_t n) {
    m_totalProb = -1.0;
    if (n >= size())
        return;
    m_ids.resize(n);
    m_logits.resize(n);
    if (m_probs.size() > n)
        m_probs.resize(n);
    m_sortedCount = std::min(m_sortedCount, n);
    m_probsValid = false;
}

bool Candidates::keepWhere(const std::vector<char>& keep) {
    m_totalProb = -1.0;
    if (std::find(keep.begin(), keep.end(), 1) == keep.end())
        return false;
    const bool withProbs = m_probs.size() == m_ids.size();
    std::size_t out = 0;
    std::size_t sorted = 0;
    for (std::size_t i = 0; i < size(); ++i) {
        if (!keep[i])
            continue;
        if (i < m_sortedCount)
            ++sorted;
        m_ids[out] = m_ids[i];
        m_logits[out] = m_logits[i];
        if (withProbs)
            m_probs[out] = m_probs[i];
        ++out;
    }
    m_ids.resize(out);
    m_logits.resize(out);
    m_probs.resize(withProbs ? out : 0);
    // Removal keeps the relative order; items after the old prefix were strictly smaller than its
    // last item, hence than every surviving prefix item, so the shorter prefix stays closed under ties.
    m_sortedCount = sorted;
    m_probsValid = false;
    return true;
}

double Candidates::massOfFirst(std::size_t n) const {
    double mass = 0.0;
    for (std::size_t i = 0; i < std::min(n, m_probs.size()); ++i)
        mass += m_probs[i];
    return mass;
}

} // namespace swb
