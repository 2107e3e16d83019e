#include <algorithm>
#include <cmath>
#include <cstdint>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face TopPLogitsWarper: in ascending order of probability, removes every token whose
// cumulative probability is <= 1 - p; the top min_keep always survive. Equivalently, walking down
// from the most likely token, a token survives while the mass at or below it exceeds 1 - p.
// No full sort: a sorted prefix grown 8x at a time for small sets, a mass histogram for large ones.
// threshold: the probability of the least likely survivor.
class TopPSampler final : public ClonableSampler<TopPSampler> {
public:
    explicit TopPSampler(const QJsonObject& params)
        : m_p(support::number(params, "p"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("top_p"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        if (m_p >= 1.0)
            return;
        candidates.softmax();
        const double total = candidates.totalProb();
        const double removable = (1.0 - m_p) * total;
        // A sorted prefix that already holds the nucleus (e.g. after top_k, or the trace's top-N) is walked.
        const bool prefixSuffices =
            candidates.sortedCount() > 0 && total - candidates.massOfFirst(candidates.sortedCount()) <= removable;
        if (candidates.size() <= kSortedWalkLimit || prefixSuffices)
            cutSorted(candidates, removable);
        else
            cutByHistogram(candidates, removable);
        stage.keptMass = m_keptMass / total;
        stage.threshold = m_lowestKept;
    }

private:
    static constexpr std::size_t kSortedWalkLimit = 4096;

    // Walks down a sorted prefix grown 8x at a time: for small sets, or ones already partly sorted.
    void cutSorted(Candidates& candidates, double removable) {
        const double total = candidates.totalProb();
        const std::size_t n = candidates.size();
        std::size_t window = 64;
        double above = 0.0; // mass strictly above the current token in descending order
        std::size_t i = 0;
        for (;;) {
            candidates.sortTop(window);
            const std::size_t sorted = candidates.sortedCount();
            for (; i < sorted; ++i) {
                if (total - above <= removable && i >= m_minKeep)
                    break;
                above += candidates.prob(i);
            }
            if (i < sorted || sorted == n)
                break;
            window *= 8;
        }
        const std::size_t kept = std::max<std::size_t>(i, 1);
        m_keptMass = candidates.massOfFirst(kept);
        m_lowestKept = candidates.prob(kept - 1);
        candidates.keepFirst(kept);
    }

    // For a large unsorted set: a histogram of mass over logit buckets finds the one bucket that
    // holds the boundary; only that bucket is sorted. A token whose probability is at most
    // removable / n is always removed (all such tokens together hold at most the removable mass and
    // come first in ascending order): one pass sets those aside and lists the rest with their
    // buckets, and the histogram and the cut work on that list, for real logits a small part of the
    // vocabulary.
    void cutByHistogram(Candidates& candidates, double removable) {
        constexpr std::size_t kBuckets = 1024;
        constexpr std::uint32_t kFar = kBuckets - 1;
        constexpr double kSpan = 40.0; // at most: logits further below the max share the last bucket
        const std::size_t n = candidates.size();
        const std::span<const float> logits = candidates.logits();
        const std::span<const float> probs = candidates.probs();
        const float top = candidates.maxLogit();
        // p <= removable / n where logit <= logPartition + log(removable / n); the margin covers rounding.
        const double floorLogit = candidates.logPartition() + std::log(removable / static_cast<double>(n)) - 1e-3;
        const double below = static_cast<double>(top) - floorLogit;
        // The far bucket holds only removed tokens when it starts at floorLogit; with a wider span
        // (p very close to 1 on a peaked distribution) it is listed and counted like the others.
        const bool farRemoved = below > 0.0 && below <= kSpan;
        const double span = farRemoved ? std::max(below, 1e-3) : kSpan;
        thread_local ScratchVector<std::uint32_t> listedBucket; // scratch, reused between steps
        thread_local ScratchVector<std::uint32_t> listed;
        listedBucket.resize(n);
        listed.resize(n);
        double farMass = 0.0; // the mass of the tokens not listed
        const std::size_t count =
            kernels::bucketSelect(logits.data(), probs.data(), n, top, static_cast<float>(kFar / span), kFar,
                                  farRemoved ? kFar - 1 : kFar, listedBucket.data(), listed.data(), &farMass);

        // Four interleaved histograms, so that neighbouring items in one bucket do not wait on each
        // other's store; combined in a fixed order.
        std::vector<double> partial(4 * kBuckets, 0.0);
        double* const h[4] = {partial.data(), partial.data() + kBuckets, partial.data() + 2 * kBuckets,
                              partial.data() + 3 * kBuckets};
        const float* const p = probs.data();
        const std::uint32_t* const bucket = listedBucket.data();
        const std::uint32_t* const at = listed.data();
        std::size_t k = 0;
        for (; k + 4 <= count; k += 4) {
            h[0][bucket[k]] += p[at[k]];
            h[1][bucket[k + 1]] += p[at[k + 1]];
            h[2][bucket[k + 2]] += p[at[k + 2]];
            h[3][bucket[k + 3]] += p[at[k + 3]];
        }
        for (; k < count; ++k)
            h[0][bucket[k]] += p[at[k]];
        std::vector<double> mass(kBuckets);
        for (std::size_t b = 0; b < kBuckets; ++b)
            mass[b] = ((partial[b] + partial[kBuckets + b]) + partial[2 * kBuckets + b]) + partial[3 * kBuckets + b];
        mass[kFar] += farMass;
        // Tails are summed from the least likely end, as an ascending cumulative sum would: tailAfter[b] is
        // the mass of the buckets after b, and the boundary bucket the first whose tail is <= removable.
        std::vector<double> tailAfter(kBuckets, 0.0);
        for (std::size_t b = kBuckets - 1; b-- > 0;)
            tailAfter[b] = tailAfter[b + 1] + mass[b + 1];
        std::size_t boundary = 0;
        while (boundary < kFar && tailAfter[boundary] > removable)
            ++boundary;

        // The listed items above the boundary bucket survive; those in it are sorted and walked.
        thread_local ScratchVector<std::uint32_t> kept;
        thread_local ScratchVector<std::uint32_t> edge;
        kept.resize(count);
        edge.resize(count);
        std::size_t keptCount = 0;
        std::size_t edgeCount = 0;
        kernels::splitAtBoundary(bucket, at, count, static_cast<std::uint32_t>(boundary), kept.data(), &keptCount,
                                 edge.data(), &edgeCount);
        const auto edgeBegin = edge.begin();
        const auto edgeEnd = edge.begin() + static_cast<std::ptrdiff_t>(edgeCount);
        std::sort(edgeBegin, edgeEnd, [&](std::uint32_t a, std::uint32_t b) {
            return logits[a] > logits[b] || (logits[a] == logits[b] && candidates.id(a) < candidates.id(b));
        });
        // Within the boundary bucket, walk down: a token survives while the mass at or below it exceeds
        // the removable mass.
        m_keptMass = 0.0;
        for (std::size_t b = 0; b < boundary; ++b)
            m_keptMass += mass[b];
        double atOrBelow = tailAfter[boundary] + mass[boundary];
        std::size_t edgeKept = 0;
        for (; edgeKept < edgeCount; ++edgeKept) {
            if (atOrBelow <= removable && keptCount + edgeKept >= m_minKeep)
                break;
            m_keptMass += probs[edge[edgeKept]];
            atOrBelow -= probs[edge[edgeKept]];
        }
        if (keptCount + edgeKept < std::max<std::size_t>(m_minKeep, 1)) {
            const std::size_t keep = std::min(std::max<std::size_t>(m_minKeep, 1), n);
            candidates.sortTop(keep);
            m_keptMass = candidates.massOfFirst(keep);
            m_lowestKept = candidates.prob(keep - 1);
            candidates.keepFirst(keep);
            return;
        }
        // Survivors in ascending index order: the kept boundary items merged into the rest.
        std::sort(edgeBegin, edgeBegin + static_cast<std::ptrdiff_t>(edgeKept));
        const auto middle = kept.begin() + static_cast<std::ptrdiff_t>(keptCount);
        const auto end = std::copy(edgeBegin, edgeBegin + static_cast<std::ptrdiff_t>(edgeKept), middle);
        std::inplace_merge(kept.begin(), middle, end);
        candidates.keepIndices(kept.data(), keptCount + edgeKept);
        m_lowestKept = kernels::minOf(candidates.probs().data(), candidates.size());
    }

    double m_p;
    std::size_t m_minKeep;
    double m_keptMass = 0.0;
    float m_lowestKept = 0.0f;
};

} // namespace

SamplerDescriptor topPDescriptor() {
    return {
        QStringLiteral("top_p"),
        QStringLiteral("Hugging Face transformers"),
        QStringLiteral("Nucleus sampling: keeps the smallest set of most likely tokens whose mass reaches p."),
        {support::real("p", 0, 1, 0.9, QStringLiteral("Cumulative probability to keep."), true), support::minKeep()},
        false,
        support::makeFrom<TopPSampler>()};
}

} // namespace swb
