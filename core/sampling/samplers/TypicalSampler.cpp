#include <algorithm>
#include <numeric>

#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Hugging Face TypicalLogitsWarper (locally typical sampling, Meister et al. 2022): orders tokens by
// |surprisal - entropy| ascending and keeps the shortest such run whose mass reaches p, plus every
// token tied with its last one; the first min_keep in that order always survive. Only the part of
// the order that is needed is sorted. threshold: the largest kept |surprisal - entropy|.
class TypicalSampler final : public ClonableSampler<TypicalSampler> {
public:
    explicit TypicalSampler(const QJsonObject& params)
        : m_p(support::number(params, "p"))
        , m_minKeep(support::count(params, "min_keep")) {}
    QString name() const override { return QStringLiteral("typical"); }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext&) override {
        if (m_p >= 1.0)
            return;
        candidates.softmax();
        const std::size_t n = candidates.size();
        const double entropy = candidates.entropy();
        const double logZ = candidates.logPartition();
        std::vector<float> shifted(n);
        for (std::size_t i = 0; i < n; ++i)
            shifted[i] = static_cast<float>(std::abs((logZ - candidates.logit(i)) - entropy));

        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), 0);
        const auto before = [&](std::size_t a, std::size_t b) {
            return shifted[a] < shifted[b] || (shifted[a] == shifted[b] && candidates.id(a) < candidates.id(b));
        };
        const double total = candidates.totalProb();
        std::size_t window = std::min<std::size_t>(64, n);
        std::size_t last = n - 1;
        for (;;) {
            std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(window), order.end(), before);
            double cumulative = 0.0;
            std::size_t i = 0;
            for (; i < window; ++i) {
                cumulative += candidates.prob(order[i]) / total;
                if (cumulative >= m_p)
                    break;
            }
            if (i < window || window == n) {
                last = std::min(i, n - 1);
                break;
            }
            window = std::min(window * 8, n);
        }
        const float bound = shifted[order[last]];
        std::vector<std::uint8_t> keep(n, 0);
        std::size_t kept = 0;
        double mass = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            keep[i] = shifted[i] <= bound;
        // The first min_keep in typicality order survive even past the bound.
        if (m_minKeep > last + 1) {
            const std::size_t head = std::min(m_minKeep, n);
            std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(head), order.end(), before);
            for (std::size_t i = 0; i < head; ++i)
                keep[order[i]] = 1;
        }
        for (std::size_t i = 0; i < n; ++i)
            if (keep[i]) {
                ++kept;
                mass += candidates.prob(i);
            }
        stage.threshold = bound;
        stage.keptMass = mass / total;
        candidates.keepWhere(keep);
    }

private:
    double m_p;
    std::size_t m_minKeep;
};

} // namespace

SamplerDescriptor typicalDescriptor() {
    return {
        QStringLiteral("typical"),
        QStringLiteral("Hugging Face transformers"),
        QStringLiteral("Locally typical sampling: keeps tokens whose surprisal is closest to the entropy, "
                       "up to mass p."),
        {support::real("p", 0, 1, 0.9, QStringLiteral("Mass of typical tokens to keep."), true), support::minKeep()},
        false,
        support::makeFrom<TypicalSampler>()};
}

} // namespace swb
