#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "sampling/Kernels.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

// std::allocator that leaves elements default-initialised (no zeroing) when a vector grows: the
// candidate arrays are resized to the vocabulary every step and overwritten at once.
template <typename T> struct UninitializedAllocator : std::allocator<T> {
    template <typename U> struct rebind { using other = UninitializedAllocator<U>; };
    UninitializedAllocator() = default;
    template <typename U> UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    template <typename U> void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    template <typename U, typename... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
template <typename T> using ScratchVector = std::vector<T, UninitializedAllocator<T>>;

// The token candidates of one sampling step: parallel arrays of id, logit and probability,
// starting as the whole vocabulary in id order. Samplers cut it down (survivors only; a cut token
// is removed, not set to -inf) and keep two facts current so that work is done only when needed:
// - sortedCount: items [0, sortedCount) are the largest logits, descending (ties by ascending id),
//   and every item after them has a strictly smaller logit (the prefix is closed under ties);
// - probsValid: probs[i] = softmax(logits)[i] over the current items.
class Candidates {
public:
    Candidates() = default;
    explicit Candidates(std::span<const float> logits);
    // Starts over from a logits row, reusing the buffers (no allocation per step).
    void assign(std::span<const float> logits);

    std::size_t size() const { return m_ids.size(); }
    bool empty() const { return m_ids.empty(); }
    int vocabSize() const { return m_vocabSize; }

    TokenId id(std::size_t i) const { return m_ids[i]; }
    float logit(std::size_t i) const { return m_logits[i]; }
    float prob(std::size_t i) const { return m_probs[i]; } // valid while probsValid() (kept across cuts)
    std::span<const TokenId> ids() const { return m_ids; }
    std::span<const float> logits() const { return m_logits; }
    std::span<const float> probs() const { return m_probs; }

    // Logits may be edited in place; call logitsChanged() afterwards (orderKept: the edit was
    // monotonic, e.g. a positive temperature, so the sorted prefix stays valid).
    std::span<float> mutableLogits() { return m_logits; }
    void logitsChanged(bool orderKept);

    std::size_t sortedCount() const { return m_sortedCount; }
    // True while the items are known to be in ascending id order: from assign() until something
    // moves them (cuts keep the order; sorting does not).
    bool idOrdered() const { return m_idOrdered; }
    bool probsValid() const { return m_probsValid; }

    // Largest logit of the current items (NaN if any is NaN); cached between changes.
    float maxLogit();

    // Makes probs the softmax of the current logits (no-op when valid).
    void softmax();
    // log of the softmax's partition function (max logit + log sum exp), valid after softmax().
    double logPartition() const { return m_logPartition; }
    // Shannon entropy (nats) of probs; computes the softmax if needed.
    double entropy();
    double totalProb() const; // sum of probs (1 after softmax, less after a cut without renormalising)

    // Ensures at least min(k, size) items are sorted (see class comment). Partial: never sorts
    // the whole array unless k is close to size.
    void sortTop(std::size_t k);
    void sortAll() { sortTop(size()); }
    // Indices of the min(k, size) largest logits in sorted order, plus any tied with the k-th, without
    // moving anything.
    std::vector<std::size_t> largest(std::size_t k) const;

    // Keeps items [0, n); requires n <= sortedCount or n == size(). Probabilities are kept as they
    // are (not renormalised) but marked stale.
    void keepFirst(std::size_t n);
    // Keeps the items whose flag is set, in order; the sorted prefix shrinks accordingly. A cut that
    // would leave nothing is refused (returns false, nothing changes): a chain never runs dry.
    // Flags are 0 or 1.
    bool keepWhere(const std::vector<std::uint8_t>& keep);
    // Sum of probs[0, n) in double.
    double massOfFirst(std::size_t n) const;

    // Set by a selector: the index of the chosen item, and the uniform draw it used (NaN if none).
    std::ptrdiff_t selected = -1;
    double draw = NAN;

private:
    void reorder(const std::vector<std::size_t>& order, std::size_t sortedPrefix);
    void swapItems(std::size_t a, std::size_t b);

    ScratchVector<TokenId> m_ids;
    ScratchVector<float> m_logits;
    ScratchVector<float> m_probs;
    std::size_t m_sortedCount = 0;
    bool m_probsValid = false;
    bool m_maxValid = false;
    bool m_idOrdered = false;
    float m_max = 0.0f;
    double m_totalProb = -1.0; // cached totalProb(); negative when unknown
    double m_entropy = 0.0;
    double m_logPartition = 0.0;
    int m_vocabSize = 0;
};

namespace kernels {
// Index of the item a uniform draw u in [0, 1) selects from probs, walking the items in ascending
// id order so that the result does not depend on how samplers permuted them. Up to kDenseDrawFrom
// items the probabilities are added one by one in double; larger sets use drawFromDense() over the
// id-ordered probabilities.
inline constexpr std::size_t kDenseDrawFrom = 256;
std::size_t drawIndex(const Candidates& candidates, double u);
} // namespace kernels

} // namespace swb
