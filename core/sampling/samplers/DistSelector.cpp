#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// Draws a token from the softmax of the surviving logits with the chain's seeded generator: one
// uniform u in [0, 1), then the first token (in ascending id order) whose cumulative probability
// exceeds u. The order makes the draw independent of how earlier stages permuted the candidates.
class DistSelector final : public ClonableSampler<DistSelector> {
public:
    explicit DistSelector(const QJsonObject&) {}
    QString name() const override { return QStringLiteral("dist"); }
    bool isSelector() const override { return true; }

    void apply(Candidates& candidates, StageTrace&, SamplingContext& context) override {
        candidates.softmax();
        candidates.draw = context.rng.uniform();
        candidates.selected = static_cast<std::ptrdiff_t>(kernels::drawIndex(candidates, candidates.draw));
    }
};

// Picks the highest logit; ties go to the lowest id (as argmax does).
class GreedySelector final : public ClonableSampler<GreedySelector> {
public:
    explicit GreedySelector(const QJsonObject&) {}
    QString name() const override { return QStringLiteral("greedy"); }
    bool isSelector() const override { return true; }

    void apply(Candidates& candidates, StageTrace&, SamplingContext& context) override {
        if (context.tracing)
            (void)candidates.observeSoftmax(); // for the trace only
        candidates.selected = static_cast<std::ptrdiff_t>(candidates.largest(1).front());
    }
};

} // namespace

SamplerDescriptor distDescriptor() {
    return {QStringLiteral("dist"),
            QStringLiteral("Sampling Workbench"),
            QStringLiteral("Draws the token at random from the final distribution (seeded)."),
            {},
            true,
            support::makeFrom<DistSelector>()};
}

SamplerDescriptor greedyDescriptor() {
    return {QStringLiteral("greedy"),
            QStringLiteral("Sampling Workbench"),
            QStringLiteral("Always picks the most likely surviving token."),
            {},
            true,
            support::makeFrom<GreedySelector>()};
}

} // namespace swb
