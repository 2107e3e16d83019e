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
// is removed, not set to -inf) and keep a few facts current so that work is done only when needed:
// - sortedCount: items [0, sortedCount) are the largest logits, descending (ties by ascending id),
//   and every item after them has a strictly smaller logit (the prefix is closed under ties);
// - probsValid: probs[i] = softmax(logits)[i] over the current items;
// - after a cut of valid probabilities, they stay proportional to the softmax (the survivors' shares of
//   the mass before the cut), and softmax() renormalises them without computing exponentials again.
// - the maxima of groups of 64 items, computed once per set of items: maxLogit() and largest() share
//   that one pass.
//
// Until something needs its own copy (an edit of the logits, a reorder, a cut that is not a prefix),
// the ids are a shared 0..n-1 array and the logits are read from the row given to assign(): the first
// pass of a step reads the caller's row directly, and a cut writes only the survivors.
class Candidates {
public:
    Candidates() = default;
    explicit Candidates(std::span<const float> logits); // copies the row
    Candidates(const Candidates& other);                // copies own their data
    Candidates& operator=(const Candidates& other);
    // Starts over from a logits row, reusing the buffers (no allocation per step). Borrows the row: it
    // must stay alive and unchanged until the next assign() or until this object is no longer used.
    void assign(std::span<const float> logits);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    int vocabSize() const { return m_vocabSize; }

    TokenId id(std::size_t i) const { return m_idsAt[i]; }
    float logit(std::size_t i) const { return m_logitsAt[i]; }
    float prob(std::size_t i) const { return m_probs[i]; } // valid while probsValid() (kept across cuts)
    std::span<const TokenId> ids() const { return {m_idsAt, m_size}; }
    std::span<const float> logits() const { return {m_logitsAt, m_size}; }
    std::span<const float> probs() const { return m_probs; }

    // Logits may be edited in place; call logitsChanged() afterwards (orderKept: the edit was
    // monotonic, e.g. a positive temperature, so the sorted prefix stays valid).
    std::span<float> mutableLogits();
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
    // The same for an observer (the trace), returning the entropy. A sampler's softmax() then finds the
    // probabilities valid, but a cut before any sampler used them treats them as never computed, so
    // that later stages get the same bits whether or not the step is traced.
    double observeSoftmax();
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
    // Keeps only the min(k, size) largest logits and any tied with the k-th, sorted (top-k): the rest
    // is dropped without being copied.
    void keepLargest(std::size_t k);

    // Keeps items [0, n); requires n <= sortedCount or n == size(). Probabilities are kept as they
    // are (not renormalised) but marked stale.
    void keepFirst(std::size_t n);
    // Keeps the items whose flag is set, in order; the sorted prefix shrinks accordingly. A cut that
    // would leave nothing is refused (returns false, nothing changes): a chain never runs dry.
    // Flags are 0 or 1.
    bool keepWhere(const std::vector<std::uint8_t>& keep);
    // Keeps the items at the given indices (ascending, at least one): for cuts that keep few of many.
    void keepIndices(const std::uint32_t* indices, std::size_t count);
    // Sum of probs[0, n) in double.
    double massOfFirst(std::size_t n) const;

    // Set by a selector: the index of the chosen item, and the uniform draw it used (NaN if none).
    std::ptrdiff_t selected = -1;
    double draw = NAN;

private:
    void reorder(const std::vector<std::size_t>& order, std::size_t sortedPrefix);
    void swapItems(std::size_t a, std::size_t b);
    // Copies borrowed ids and logits into m_ids and m_logits (no-op when they are owned already).
    void own();
    void pointAtOwned();
    // Marks the probabilities stale after a cut; they stay proportional if they were valid and kept.
    void probsCut(bool kept);
    // The maxima of the items' groups of kernels::kGroup (cached until the items change), and whether
    // a logit is NaN: one pass serves both maxLogit() and largest().
    const float* groupMaxima() const;
    void itemsMoved() { m_groupMaxValid = false; }
    // A cut that writes the survivors to the front of our own arrays: beginCut() makes them ours (and
    // says whether the probabilities come along), finishCut() sets the new size and facts.
    bool beginCut();
    void finishCut(std::size_t kept, std::size_t sortedKept, bool withProbs);

    ScratchVector<TokenId> m_ids;
    ScratchVector<float> m_logits;
    ScratchVector<float> m_probs;
    ScratchVector<TokenId> m_identity; // 0, 1, 2, ...: the ids while borrowed
    const TokenId* m_idsAt = nullptr;  // m_ids or m_identity
    const float* m_logitsAt = nullptr; // m_logits or the row given to assign()
    std::size_t m_size = 0;
    bool m_borrowed = false;
    std::size_t m_sortedCount = 0;
    bool m_probsValid = false;
    bool m_probsProportional = false; // see the class comment; m_logPartition still the one before the cut
    bool m_probsObserved = false;     // valid, computed by observeSoftmax(), not yet used by a sampler
    bool m_maxValid = false;
    mutable ScratchVector<float> m_groupMax;
    mutable bool m_groupMaxValid = false;
    mutable bool m_groupMaxNaN = false;
    bool m_idOrdered = false;
    float m_max = 0.0f;
    double m_totalProb = -1.0; // cached totalProb(); negative when unknown
    double m_entropy = 0.0;
    double m_logPartition = 0.0;
    float m_shift = 0.0f; // the maximum the last exponentials were taken against
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
