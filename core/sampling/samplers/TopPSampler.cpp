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
    // holds the boundary; only that bucket is sorted. Two passes over the vocabulary in all.
    void cutByHistogram(Candidates& candidates, double removable) {
        constexpr int kBuckets = 1024;
        constexpr float kSpan = 40.0f; // logits more than 40 below the max share the last bucket
        const std::size_t n = candidates.size();
        const std::span<const float> logits = candidates.logits();
        const std::span<const float> probs = candidates.probs();
        const float max = kernels::maxOf(logits.data(), n);
        const float scale = (kBuckets - 1) / kSpan;
        thread_local std::vector<std::uint16_t> bucketOf; // scratch, reused between steps
        bucketOf.resize(n);
        kernels::bucketIndices(logits.data(), n, max, scale, kBuckets - 1, bucketOf.data());
        std::vector<double> mass(kBuckets, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            mass[bucketOf[i]] += probs[i];
        // tailAfter(b): mass of buckets below b. The boundary bucket is the first whose tail is <= removable.
        std::vector<double> tailAfter(kBuckets, 0.0);
        for (int b = kBuckets - 2; b >= 0; --b)
            tailAfter[static_cast<std::size_t>(b)] =
                tailAfter[static_cast<std::size_t>(b) + 1] + mass[static_cast<std::size_t>(b) + 1];
        int boundary = 0;
        while (boundary < kBuckets - 1 && tailAfter[static_cast<std::size_t>(boundary)] > removable)
            ++boundary;

        // One pass: flags for the buckets above the boundary, and the boundary bucket's items.
        std::vector<std::size_t> edge;
        std::vector<char> keep(n);
        std::size_t kept = 0;
        m_keptMass = 0.0;
        float lowest = INFINITY;
        for (std::size_t i = 0; i < n; ++i) {
            const int bucket = bucketOf[i];
            const bool above = bucket < boundary;
            keep[i] = above;
            if (above) {
                ++kept;
                m_keptMass += probs[i];
                lowest = std::min(lowest, probs[i]);
            } else if (bucket == boundary) {
                edge.push_back(i);
            }
        }
        std::sort(edge.begin(), edge.end(), [&](std::size_t a, std::size_t b) {
            return logits[a] > logits[b] || (logits[a] == logits[b] && candidates.id(a) < candidates.id(b));
        });
        // Within the boundary bucket, walk down: a token survives while the mass at or below it exceeds
        // the removable mass.
        double atOrBelow = tailAfter[static_cast<std::size_t>(boundary)] + mass[static_cast<std::size_t>(boundary)];
        for (std::size_t index : edge) {
            if (atOrBelow <= removable && kept >= m_minKeep)
                break;
            keep[index] = 1;
            ++kept;
            m_keptMass += probs[index];
            lowest = std::min(lowest, probs[index]);
            atOrBelow -= probs[index];
        }
        if (kept < m_minKeep) {
            candidates.sortTop(m_minKeep);
            m_keptMass = candidates.massOfFirst(m_minKeep);
            m_lowestKept = candidates.prob(m_minKeep - 1);
            candidates.keepFirst(m_minKeep);
            return;
        }
        m_lowestKept = lowest;
        candidates.keepWhere(keep);
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
