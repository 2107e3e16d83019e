#include "sampling/samplers/SamplerDescriptors.h"
#include "sampling/samplers/SamplerSupport.h"

namespace swb {

namespace {

// llama.cpp Mirostat 1.0 (Basu et al. 2021): estimates the Zipf exponent s from the top m
// probabilities, keeps the top k = ((e * 2^mu) / (1 - V^-e))^(1/s) tokens (e = s - 1, V the
// vocabulary size), draws, then moves mu by -eta * (surprise - tau). mu starts at 2 tau.
// threshold: k.
class MirostatSelector final : public ClonableSampler<MirostatSelector> {
public:
    explicit MirostatSelector(const QJsonObject& params)
        : m_tau(support::number(params, "tau"))
        , m_eta(support::number(params, "eta"))
        , m_m(support::count(params, "m"))
        , m_mu(2.0 * m_tau) {}
    QString name() const override { return QStringLiteral("mirostat"); }
    bool isSelector() const override { return true; }
    void reset() override { m_mu = 2.0 * m_tau; }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        candidates.softmax();
        candidates.sortTop(m_m);
        double sumTiBi = 0.0;
        double sumTiSq = 0.0;
        const std::size_t terms = std::min(m_m > 0 ? m_m - 1 : 0, candidates.size() - 1);
        for (std::size_t i = 0; i < terms; ++i) {
            const double ti = std::log(static_cast<double>(i + 2) / static_cast<double>(i + 1));
            const double bi = std::log(static_cast<double>(candidates.prob(i)) / candidates.prob(i + 1));
            sumTiBi += ti * bi;
            sumTiSq += ti * ti;
        }
        const double s = sumTiSq > 0.0 ? sumTiBi / sumTiSq : 1.0;
        const double e = s - 1.0;
        const double k = std::pow((e * std::pow(2.0, m_mu)) / (1.0 - std::pow(candidates.vocabSize(), -e)), 1.0 / s);
        // k past the candidate count (or not a number) keeps every candidate, below 1 keeps one; compared as a double first,
        // since a k of 1e36 does not fit a size_t.
        const std::size_t keep = !(k < static_cast<double>(candidates.size())) ? candidates.size()
                                 : k < 1.0                                      ? 1
                                                                                : static_cast<std::size_t>(k);
        stage.threshold = static_cast<double>(keep);
        if (keep < candidates.size()) {
            candidates.sortTop(keep);
            stage.keptMass = candidates.massOfFirst(keep);
            candidates.keepFirst(keep);
        }
        candidates.softmax();
        candidates.draw = context.rng.uniform();
        candidates.selected = static_cast<std::ptrdiff_t>(kernels::drawIndex(candidates, candidates.draw));
        const double surprise = -std::log2(candidates.prob(static_cast<std::size_t>(candidates.selected)));
        m_mu -= m_eta * (surprise - m_tau);
    }

private:
    double m_tau;
    double m_eta;
    std::size_t m_m;
    double m_mu;
};

// llama.cpp Mirostat 2.0: keeps the tokens whose surprise -log2 p is at most mu (at least one),
// renormalises, draws, then moves mu by -eta * (surprise - tau). mu starts at 2 tau. threshold: mu.
class MirostatV2Selector final : public ClonableSampler<MirostatV2Selector> {
public:
    explicit MirostatV2Selector(const QJsonObject& params)
        : m_tau(support::number(params, "tau"))
        , m_eta(support::number(params, "eta"))
        , m_mu(2.0 * m_tau) {}
    QString name() const override { return QStringLiteral("mirostat_v2"); }
    bool isSelector() const override { return true; }
    void reset() override { m_mu = 2.0 * m_tau; }

    void apply(Candidates& candidates, StageTrace& stage, SamplingContext& context) override {
        candidates.softmax();
        stage.threshold = m_mu;
        std::vector<std::uint8_t> keep(candidates.size());
        double mass = 0.0;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            keep[i] = !(-std::log2(candidates.prob(i)) > m_mu);
            if (keep[i])
                mass += candidates.prob(i);
        }
        if (candidates.keepWhere(keep)) {
            stage.keptMass = mass;
        } else {
            candidates.sortTop(1);
            stage.keptMass = candidates.prob(0);
            candidates.keepFirst(1);
        }
        candidates.softmax();
        candidates.draw = context.rng.uniform();
        candidates.selected = static_cast<std::ptrdiff_t>(kernels::drawIndex(candidates, candidates.draw));
        const double surprise = -std::log2(candidates.prob(static_cast<std::size_t>(candidates.selected)));
        m_mu -= m_eta * (surprise - m_tau);
    }

private:
    double m_tau;
    double m_eta;
    double m_mu;
};

} // namespace

SamplerDescriptor mirostatDescriptor() {
    return {QStringLiteral("mirostat"),
            QStringLiteral("llama.cpp"),
            QStringLiteral("Mirostat 1.0: adapts a top-k cut step by step to hold the surprise near tau."),
            {support::real("tau", 0, 100, 5.0, QStringLiteral("Target surprise (bits)."), true),
             support::real("eta", 0, 10, 0.1, QStringLiteral("Learning rate of mu."), true),
             support::integer("m", 1, 1e6, 100, QStringLiteral("Tokens used to estimate the Zipf exponent."))},
            true,
            support::makeFrom<MirostatSelector>()};
}

SamplerDescriptor mirostatV2Descriptor() {
    return {QStringLiteral("mirostat_v2"),
            QStringLiteral("llama.cpp"),
            QStringLiteral("Mirostat 2.0: keeps tokens whose surprise is below an adaptive mu."),
            {support::real("tau", 0, 100, 5.0, QStringLiteral("Target surprise (bits)."), true),
             support::real("eta", 0, 10, 0.1, QStringLiteral("Learning rate of mu."), true)},
            true,
            support::makeFrom<MirostatV2Selector>()};
}

} // namespace swb
