#include "sampling/Candidates.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>

namespace swb {

namespace kernels {

std::size_t drawIndex(const Candidates& candidates, double u) {
    const std::size_t n = candidates.size();
    const std::span<const TokenId> ids = candidates.ids();
    const std::span<const float> probs = candidates.probs();
    // Visit order: ascending id, whatever order the samplers left the items in (cuts keep the order,
    // so large sets usually are in id order already). Up to kDenseDrawFrom items the probabilities are
    // added one by one in double, beyond that by drawFromDense() over the id-ordered sequence.
    std::vector<std::size_t> order;
    if (!candidates.idOrdered() && !std::is_sorted(ids.begin(), ids.end())) {
        order.resize(n);
        if (n <= 4096) {
            std::iota(order.begin(), order.end(), 0);
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
        } else {
            thread_local std::vector<std::int32_t> slot; // all -1 between uses
            slot.resize(static_cast<std::size_t>(candidates.vocabSize()), -1);
            for (std::size_t i = 0; i < n; ++i)
                slot[static_cast<std::size_t>(ids[i])] = static_cast<std::int32_t>(i);
            std::size_t next = 0;
            for (std::int32_t& index : slot) {
                if (index >= 0) {
                    order[next++] = static_cast<std::size_t>(index);
                    index = -1;
                }
            }
        }
    }
    const auto at = [&](std::size_t k) { return order.empty() ? k : order[k]; };
    if (n > kDenseDrawFrom) {
        if (order.empty())
            return drawFromDense(probs.data(), n, u);
        std::vector<float> ordered(n);
        for (std::size_t k = 0; k < n; ++k)
            ordered[k] = probs[order[k]];
        return order[drawFromDense(ordered.data(), n, u)];
    }
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
    own();
}

Candidates::Candidates(const Candidates& other) {
    *this = other;
}

Candidates& Candidates::operator=(const Candidates& other) {
    if (this == &other)
        return *this;
    m_ids.assign(other.m_idsAt, other.m_idsAt + other.m_size);
    m_logits.assign(other.m_logitsAt, other.m_logitsAt + other.m_size);
    m_probs = other.m_probs;
    m_size = other.m_size;
    m_borrowed = false;
    pointAtOwned();
    m_sortedCount = other.m_sortedCount;
    m_probsValid = other.m_probsValid;
    m_probsProportional = other.m_probsProportional;
    m_probsObserved = other.m_probsObserved;
    m_shift = other.m_shift;
    m_maxValid = other.m_maxValid;
    m_groupMaxValid = false;
    m_idOrdered = other.m_idOrdered;
    m_max = other.m_max;
    m_totalProb = other.m_totalProb;
    m_entropy = other.m_entropy;
    m_logPartition = other.m_logPartition;
    m_vocabSize = other.m_vocabSize;
    selected = other.selected;
    draw = other.draw;
    return *this;
}

void Candidates::assign(std::span<const float> logits) {
    const std::size_t n = logits.size();
    if (m_identity.size() < n) {
        const std::size_t from = m_identity.size();
        m_identity.resize(n);
        std::iota(m_identity.begin() + static_cast<std::ptrdiff_t>(from), m_identity.end(), static_cast<TokenId>(from));
    }
    m_idsAt = m_identity.data();
    m_logitsAt = logits.data();
    m_size = n;
    m_borrowed = true;
    m_totalProb = -1.0;
    m_groupMaxValid = false;
    m_maxValid = false;
    m_probs.resize(n); // stale until softmax(); resizing to the same size costs nothing
    m_vocabSize = static_cast<int>(n);
    m_sortedCount = 0;
    m_idOrdered = true;
    m_probsValid = false;
    m_probsProportional = false;
    m_probsObserved = false;
    m_entropy = 0.0;
    m_logPartition = 0.0;
    selected = -1;
    draw = NAN;
}

void Candidates::own() {
    if (!m_borrowed)
        return;
    m_ids.assign(m_idsAt, m_idsAt + m_size);
    m_logits.assign(m_logitsAt, m_logitsAt + m_size);
    m_borrowed = false;
    pointAtOwned();
}

void Candidates::pointAtOwned() {
    m_idsAt = m_ids.data();
    m_logitsAt = m_logits.data();
}

std::span<float> Candidates::mutableLogits() {
    own();
    return {m_logits.data(), m_size};
}

void Candidates::probsCut(bool kept) {
    m_probsProportional = kept && ((m_probsValid && !m_probsObserved) || m_probsProportional);
    m_probsValid = false;
    m_probsObserved = false;
}

void Candidates::logitsChanged(bool orderKept) {
    itemsMoved();
    m_totalProb = -1.0;
    m_probsValid = false;
    m_probsProportional = false;
    m_probsObserved = false;
    m_maxValid = false;
    if (!orderKept)
        m_sortedCount = 0;
}

float Candidates::maxLogit() {
    if (m_sortedCount > 0)
        return m_logitsAt[0];
    if (!m_maxValid) {
        const float* maxima = groupMaxima();
        const std::size_t groups = (m_size + kernels::kGroup - 1) / kernels::kGroup;
        float max = -INFINITY;
        for (std::size_t g = 0; g < groups; ++g)
            max = max < maxima[g] ? maxima[g] : max;
        m_max = m_groupMaxNaN ? NAN : max;
        m_maxValid = true;
    }
    return m_max;
}

const float* Candidates::groupMaxima() const {
    if (!m_groupMaxValid) {
        m_groupMax.resize((m_size + kernels::kGroup - 1) / kernels::kGroup);
        m_groupMaxNaN = kernels::groupMaxima(m_logitsAt, m_size, m_groupMax.data());
        m_groupMaxValid = true;
    }
    return m_groupMax.data();
}

double Candidates::observeSoftmax() {
    if (!m_probsValid) {
        softmax();
        m_probsObserved = true;
    }
    return m_entropy;
}

void Candidates::softmax() {
    m_probsObserved = false;
    if (m_probsValid)
        return;
    const std::size_t n = size();
    m_probs.resize(n);
    if (n == 0) {
        m_entropy = 0.0;
        m_probsValid = true;
        return;
    }
    if (m_probsProportional) {
        // probs[i] = exp(logit[i] - logPartition) from before the cut: dividing by the surviving mass
        // gives the softmax over the survivors; the entropy follows from one weighted sum. Only when
        // that mass is large enough for float probabilities to keep their precision.
        m_probsProportional = false;
        const double mass = totalProb();
        if (mass >= 1e-4) {
            double weighted = 0.0;
            m_totalProb = kernels::scaleAndWeigh(m_probs.data(), m_logitsAt, n, static_cast<float>(1.0 / mass),
                                                 m_shift, &weighted);
            m_logPartition += std::log(mass);
            m_entropy = std::max(0.0, (m_logPartition - static_cast<double>(m_shift)) - weighted);
            m_probsValid = true;
            return;
        }
    }
    const float max = maxLogit();
    double sum = 0.0;
    double weighted = 0.0;
    m_shift = max;
    kernels::expShift(m_logitsAt, m_probs.data(), n, max, &sum, &weighted);
    // The sum of the normalised probabilities, as totalProb() adds them, comes free here.
    m_totalProb = kernels::scaleAndSum(m_probs.data(), n, static_cast<float>(1.0 / sum));
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
    return kernels::sum(m_probs.data(), m_probs.size());
}

void Candidates::reorder(const std::vector<std::size_t>& order, std::size_t sortedPrefix) {
    itemsMoved();
    m_totalProb = -1.0;
    const bool withProbs = m_probs.size() == m_size;
    ScratchVector<TokenId> ids(order.size());
    ScratchVector<float> logits(order.size());
    ScratchVector<float> probs(withProbs ? order.size() : 0);
    for (std::size_t i = 0; i < order.size(); ++i) {
        ids[i] = m_idsAt[order[i]];
        logits[i] = m_logitsAt[order[i]];
        if (withProbs)
            probs[i] = m_probs[order[i]];
    }
    m_ids = std::move(ids);
    m_logits = std::move(logits);
    m_probs = std::move(probs);
    m_size = order.size();
    m_borrowed = false;
    pointAtOwned();
    m_sortedCount = sortedPrefix;
    m_idOrdered = false;
}

void Candidates::swapItems(std::size_t a, std::size_t b) {
    itemsMoved();
    m_totalProb = -1.0;
    m_idOrdered = false;
    own();
    std::swap(m_ids[a], m_ids[b]);
    std::swap(m_logits[a], m_logits[b]);
    if (m_probs.size() == m_size)
        std::swap(m_probs[a], m_probs[b]);
}

std::vector<std::size_t> Candidates::largest(std::size_t k) const {
    const std::size_t n = size();
    k = std::min(k, n);
    if (k == 0)
        return {};
    const float* logits = m_logitsAt;
    std::vector<std::size_t> selected;
    const std::size_t groups = (n + kernels::kGroup - 1) / kernels::kGroup;
    if (groups >= 4 * k) {
        // The k-th largest of the groups' maxima is a threshold that at least k items reach, and only
        // the groups whose maximum reaches it hold such items: one pass, then a few groups scanned.
        const float* const maxima = groupMaxima();
        thread_local std::vector<float> order;
        order.assign(maxima, maxima + groups);
        std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k - 1), order.end(),
                         std::greater<float>());
        const float threshold = order[k - 1];
        for (std::size_t g = 0; g < groups; ++g) {
            if (maxima[g] < threshold)
                continue;
            const std::size_t end = std::min(n, (g + 1) * kernels::kGroup);
            for (std::size_t i = kernels::findNotBelow(logits, g * kernels::kGroup, end, threshold); i < end;
                 i = kernels::findNotBelow(logits, i + 1, end, threshold))
                selected.push_back(i);
        }
    } else {
        // Scan with a rising threshold: keep indices whose logit is >= the k-th largest seen so far,
        // re-selecting when the buffer fills. Most items are rejected by one vector comparison. Ties
        // with the threshold survive a re-selection, so when they keep the buffer more than half
        // full it doubles (else a row of equal logits would re-select at every item).
        std::size_t capacity = 4 * k + 64;
        selected.reserve(capacity);
        float threshold = -INFINITY;
        const auto larger = [logits](std::size_t a, std::size_t b) { return logits[a] > logits[b]; };
        for (std::size_t i = kernels::findNotBelow(logits, 0, n, threshold); i < n;
             i = kernels::findNotBelow(logits, i + 1, n, threshold)) {
            selected.push_back(i);
            if (selected.size() >= capacity) {
                std::nth_element(selected.begin(), selected.begin() + static_cast<std::ptrdiff_t>(k - 1),
                                 selected.end(), larger);
                threshold = logits[selected[k - 1]];
                std::erase_if(selected, [logits, threshold](std::size_t index) { return logits[index] < threshold; });
                if (selected.size() > capacity / 2)
                    capacity *= 2;
            }
        }
    }
    std::sort(selected.begin(), selected.end(), [this](std::size_t a, std::size_t b) {
        return m_logitsAt[a] > m_logitsAt[b] || (m_logitsAt[a] == m_logitsAt[b] && m_idsAt[a] < m_idsAt[b]);
    });
    // Close under ties: keep everything tied with the k-th item.
    const float kth = m_logitsAt[selected[k - 1]];
    std::size_t prefix = k;
    while (prefix < selected.size() && m_logitsAt[selected[prefix]] == kth)
        ++prefix;
    selected.resize(prefix);
    return selected;
}

void Candidates::keepLargest(std::size_t k) {
    k = std::min(k, size());
    if (k == 0)
        return;
    if (m_sortedCount >= k) {
        const float kth = m_logitsAt[k - 1];
        std::size_t kept = k;
        while (kept < m_sortedCount && m_logitsAt[kept] == kth)
            ++kept;
        keepFirst(kept);
        return;
    }
    const std::vector<std::size_t> selected = largest(k);
    if (selected.size() == size()) {
        sortTop(k);
        return;
    }
    const bool withProbs = m_probs.size() == m_size;
    reorder(selected, selected.size());
    probsCut(withProbs);
    m_maxValid = false;
}

void Candidates::sortTop(std::size_t k) {
    const std::size_t n = size();
    k = std::min(k, n);
    if (k == 0 || m_sortedCount >= k)
        return;
    const auto before = [this](std::size_t a, std::size_t b) {
        return m_logitsAt[a] > m_logitsAt[b] || (m_logitsAt[a] == m_logitsAt[b] && m_idsAt[a] < m_idsAt[b]);
    };

    std::vector<std::size_t> selected;
    if (k * 8 >= n || n <= 4096) {
        selected.resize(n);
        std::iota(selected.begin(), selected.end(), 0);
        std::sort(selected.begin(), selected.end(), before);
        reorder(selected, n);
        return;
    }

    selected = largest(k);
    const std::size_t prefix = selected.size();
    own();

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
    const bool withProbs = m_probs.size() == m_size;
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
    itemsMoved();
    m_totalProb = -1.0;
    if (n >= size())
        return;
    if (!m_borrowed) { // a borrowed prefix stays valid as it is
        m_ids.resize(n);
        m_logits.resize(n);
        pointAtOwned();
    }
    const bool withProbs = m_probs.size() == m_size;
    m_size = n;
    if (m_probs.size() > n)
        m_probs.resize(n);
    m_sortedCount = std::min(m_sortedCount, n);
    probsCut(withProbs);
    m_maxValid = false;
}

bool Candidates::beginCut() {
    itemsMoved();
    m_totalProb = -1.0;
    if (m_borrowed) { // the survivors are written straight into our own arrays
        m_ids.resize(m_size);
        m_logits.resize(m_size);
    }
    return m_probs.size() == m_size;
}

void Candidates::finishCut(std::size_t kept, std::size_t sortedKept, bool withProbs) {
    m_ids.resize(kept);
    m_logits.resize(kept);
    m_size = kept;
    m_borrowed = false;
    pointAtOwned();
    m_probs.resize(withProbs ? kept : 0);
    // Removal keeps the relative order; items after the old prefix were strictly smaller than its
    // last item, hence than every surviving prefix item, so the shorter prefix stays closed under ties.
    m_sortedCount = sortedKept;
    probsCut(withProbs);
    m_maxValid = false;
}

bool Candidates::keepWhere(const std::vector<std::uint8_t>& keep) {
    if (std::find(keep.begin(), keep.end(), 1) == keep.end())
        return false;
    std::size_t sorted = 0;
    for (std::size_t i = 0; i < m_sortedCount; ++i)
        sorted += keep[i];
    const bool withProbs = beginCut();
    const std::size_t kept = kernels::compact(keep.data(), m_size, m_idsAt, m_ids.data(), m_logitsAt, m_logits.data(),
                                              withProbs ? m_probs.data() : nullptr);
    finishCut(kept, sorted, withProbs);
    return true;
}

void Candidates::keepIndices(const std::uint32_t* indices, std::size_t count) {
    std::size_t sorted = 0;
    while (sorted < count && indices[sorted] < m_sortedCount)
        ++sorted;
    const bool withProbs = beginCut();
    // Ascending indices: item k comes from index >= k, so gathering in place is safe. Borrowed ids are
    // the indices themselves.
    const bool identity = m_idsAt == m_identity.data();
    for (std::size_t k = 0; k < count; ++k) {
        const std::uint32_t from = indices[k];
        m_ids[k] = identity ? static_cast<TokenId>(from) : m_idsAt[from];
        m_logits[k] = m_logitsAt[from];
        if (withProbs)
            m_probs[k] = m_probs[from];
    }
    finishCut(count, sorted, withProbs);
}

double Candidates::massOfFirst(std::size_t n) const {
    return kernels::sum(m_probs.data(), std::min(n, m_probs.size()));
}

} // namespace swb
