#include <algorithm>
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
    // holds the boundary; only that bucket is sorted. Three passes over the vocabulary in all
    // (buckets, histogram, flags) plus the compaction.
    void cutByHistogram(Candidates& candidates, double removable) {
        constexpr std::size_t kBuckets = 1024;
        constexpr float kSpan = 40.0f; // logits more than 40 below the max share the last bucket
        const std::size_t n = candidates.size();
        const std::span<const float> logits = candidates.logits();
        const std::span<const float> probs = candidates.probs();
        const float scale = (kBuckets - 1) / kSpan;
        thread_local std::vector<std::uint16_t> bucketOf; // scratch, reused between steps
        bucketOf.resize(n);
        kernels::bucketIndices(logits.data(), n, candidates.maxLogit(), scale, kBuckets - 1, bucketOf.data());

        // Four interleaved histograms, so that neighbouring items in one bucket do not wait on each
        // other's store; combined in a fixed order.
        std::vector<double> partial(4 * kBuckets, 0.0);
        double* const h[4] = {partial.data(), partial.data() + kBuckets, partial.data() + 2 * kBuckets,
                              partial.data() + 3 * kBuckets};
        const std::uint16_t* const bucket = bucketOf.data();
        const float* const p = probs.data();
        std::size_t i = 0;
        for (; i + 4 <= n; i += 4) {
            h[0][bucket[i]] += p[i];
            h[1][bucket[i + 1]] += p[i + 1];
            h[2][bucket[i + 2]] += p[i + 2];
            h[3][bucket[i + 3]] += p[i + 3];
        }
        for (; i < n; ++i)
            h[0][bucket[i]] += p[i];
        std::vector<double> mass(kBuckets);
        for (std::size_t b = 0; b < kBuckets; ++b)
            mass[b] = ((partial[b] + partial[kBuckets + b]) + partial[2 * kBuckets + b]) + partial[3 * kBuckets + b];
        // tailAfter[b]: mass of the buckets below b. The boundary bucket is the first whose tail is <= removable.
        std::vector<double> tailAfter(kBuckets, 0.0);
        for (std::size_t b = kBuckets - 1; b-- > 0;)
            tailAfter[b] = tailAfter[b + 1] + mass[b + 1];
        std::size_t boundary = 0;
        while (boundary < kBuckets - 1 && tailAfter[boundary] > removable)
            ++boundary;

        // One pass: flags for the buckets above the boundary, and the boundary bucket's items.
        thread_local std::vector<std::uint8_t> keep;
        thread_local std::vector<std::uint32_t> edge;
        keep.resize(n);
        edge.resize(n); // grows once; the kernel overwrites what it uses
        std::size_t edges = 0;
        std::size_t kept = kernels::flagBuckets(bucketOf.data(), n, static_cast<std::uint16_t>(boundary), keep.data(),
                                                edge.data(), &edges);
        m_keptMass = 0.0;
        for (std::size_t b = 0; b < boundary; ++b)
            m_keptMass += mass[b];
        const auto edgeEnd = edge.begin() + static_cast<std::ptrdiff_t>(edges);
        std::sort(edge.begin(), edgeEnd, [&](std::size_t a, std::size_t b) {
            return logits[a] > logits[b] || (logits[a] == logits[b] && candidates.id(a) < candidates.id(b));
        });
        // Within the boundary bucket, walk down: a token survives while the mass at or below it exceeds
        // the removable mass.
        double atOrBelow = tailAfter[boundary] + mass[boundary];
        for (auto it = edge.begin(); it != edgeEnd; ++it) {
            const std::uint32_t index = *it;
            if (atOrBelow <= removable && kept >= m_minKeep)
                break;
            keep[index] = 1;
            ++kept;
            m_keptMass += probs[index];
            atOrBelow -= probs[index];
        }
        if (kept < m_minKeep) {
            candidates.sortTop(m_minKeep);
            m_keptMass = candidates.massOfFirst(m_minKeep);
            m_lowestKept = candidates.prob(m_minKeep - 1);
            candidates.keepFirst(m_minKeep);
            return;
        }
        candidates.keepWhere(keep);
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
