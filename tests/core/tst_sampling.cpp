// Samplers on tiny fixed distributions with hand-computed expectations (1e-6), stateful samplers
// over a history, the RNG against PCG's published vectors, and a chi-square fit of dist.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>

#include <QJsonDocument>
#include <QTest>

#include "TestSupport.h"
#include "sampling/Kernels.h"
#include "sampling/SamplerChain.h"
#include "sampling/Strategy.h"

using namespace swb;
using swb::test::RestoreOnExit;

using Distribution = std::map<int, double>; // token id -> final probability

Q_DECLARE_METATYPE(Distribution)

namespace {

std::vector<float> logitsOf(std::initializer_list<double> probabilities) {
    std::vector<float> logits;
    for (double p : probabilities)
        logits.push_back(static_cast<float>(std::log(p)));
    return logits;
}

// The final distribution one sampler (followed by greedy, which cuts nothing) leaves.
Distribution finalAfter(const QString& samplerJson, const std::vector<float>& logits,
                        const std::vector<TokenId>& history = {}) {
    const QString json = QStringLiteral(R"({"samplers":[%1,{"type":"greedy"}]})").arg(samplerJson);
    Result<Strategy> strategy = Strategy::parse(json);
    if (!strategy)
        qFatal("bad strategy %s: %s", qPrintable(json), qPrintable(strategy.error().message));
    Result<SamplerChain> chain = SamplerChain::build(strategy.value());
    Candidates final;
    Result<StepTrace> trace = chain->sample(logits, history, TraceLevel::Full, &final);
    if (!trace)
        qFatal("sampling failed: %s", qPrintable(trace.error().message));
    Distribution out;
    for (std::size_t i = 0; i < final.size(); ++i)
        out[final.id(i)] = final.prob(i);
    return out;
}

Distribution softmaxOf(std::map<int, double> logits) {
    double sum = 0.0;
    for (const auto& [id, logit] : logits)
        sum += std::exp(logit);
    Distribution out;
    for (const auto& [id, logit] : logits)
        out[id] = std::exp(logit) / sum;
    return out;
}

} // namespace

class TestSampling : public QObject {
    Q_OBJECT

private slots:
    // Issue 35: the stage table left list parameters out (banned_tokens showed nothing) and the chain list
    // showed a list's length ("ids=[1]" for the ids [0]).
    void samplerSummary_data() {
        QTest::addColumn<QString>("spec");
        QTest::addColumn<QString>("summary");
        QTest::newRow("number") << R"({"type": "top_p", "p": 0.9})" << "p=0.9";
        QTest::newRow("min_keep 1 left out") << R"({"type": "top_p", "p": 0.95, "min_keep": 1})" << "p=0.95";
        QTest::newRow("min_keep 3 kept") << R"({"type": "top_p", "p": 0.95, "min_keep": 3})" << "min_keep=3, p=0.95";
        QTest::newRow("ids") << R"({"type": "banned_tokens", "ids": [0, 13]})" << "ids=[0, 13]";
        QTest::newRow("long list cut") << R"({"type": "banned_tokens", "ids": [1, 2, 3, 4, 5, 6]})"
                                       << "ids=[1, 2, 3, 4, … 6 in all]";
        QTest::newRow("words") << R"({"type": "banned_words", "words": ["Lo"]})" << R"(words=["Lo"])";
        QTest::newRow("object") << R"({"type": "logit_bias", "bias": {"50": -5}})" << "bias={50: -5}";
        QTest::newRow("none") << R"({"type": "greedy"})" << "";
    }

    void samplerSummary() {
        QFETCH(QString, spec);
        QFETCH(QString, summary);
        const QJsonObject object = QJsonDocument::fromJson(spec.toUtf8()).object();
        SamplerSpec sampler{object.value(QLatin1String("type")).toString(), object};
        sampler.params.remove(QStringLiteral("type"));
        QCOMPARE(sampler.summary(), summary);
    }

    void samplers_data() {
        QTest::addColumn<QString>("sampler");
        QTest::addColumn<std::vector<float>>("logits");
        QTest::addColumn<std::vector<TokenId>>("history");
        QTest::addColumn<Distribution>("expected");

        const std::vector<float> p4 = logitsOf({0.4, 0.3, 0.2, 0.1});
        const std::vector<float> flat4 = {0.0f, 0.0f, 0.0f, 0.0f};
        const std::vector<TokenId> none;

        QTest::newRow("temperature 2") << R"({"type":"temperature","value":2})" << p4 << none
                                       << Distribution{{0, 0.632456 / 1.943621},
                                                       {1, 0.547723 / 1.943621},
                                                       {2, 0.447214 / 1.943621},
                                                       {3, 0.316228 / 1.943621}};
        QTest::newRow("temperature 0 keeps the top")
            << R"({"type":"temperature","value":0})" << p4 << none << Distribution{{0, 1.0}};
        QTest::newRow("top_k 2") << R"({"type":"top_k","k":2})" << p4 << none
                                 << Distribution{{0, 4.0 / 7}, {1, 3.0 / 7}};
        QTest::newRow("top_k ties at k survive")
            << R"({"type":"top_k","k":2})" << std::vector<float>{2, 1, 1, 0} << none
            << Distribution{{0, M_E / (M_E + 2)}, {1, 1 / (M_E + 2)}, {2, 1 / (M_E + 2)}};
        QTest::newRow("top_k min_keep") << R"({"type":"top_k","k":1,"min_keep":3})" << p4 << none
                                        << Distribution{{0, 4.0 / 9}, {1, 3.0 / 9}, {2, 2.0 / 9}};
        QTest::newRow("top_p 0.75") << R"({"type":"top_p","p":0.75})" << p4 << none
                                    << Distribution{{0, 0.4 / 0.9}, {1, 0.3 / 0.9}, {2, 0.2 / 0.9}};
        // Four equal logits give exactly 0.25 each: ascending cumulative 0.25, 0.5, 0.75, 1.
        QTest::newRow("top_p exact boundary 0.5")
            << R"({"type":"top_p","p":0.5})" << flat4 << none << Distribution{{0, 0.5}, {1, 0.5}};
        QTest::newRow("top_p just past the boundary")
            << R"({"type":"top_p","p":0.6})" << flat4 << none << Distribution{{0, 1.0 / 3}, {1, 1.0 / 3}, {2, 1.0 / 3}};
        QTest::newRow("top_p tiny keeps one") << R"({"type":"top_p","p":0.01})" << p4 << none << Distribution{{0, 1.0}};
        QTest::newRow("top_p min_keep") << R"({"type":"top_p","p":0.01,"min_keep":2})" << p4 << none
                                        << Distribution{{0, 4.0 / 7}, {1, 3.0 / 7}};
        QTest::newRow("min_p 0.6") << R"({"type":"min_p","p":0.6})" << p4 << none
                                   << Distribution{{0, 4.0 / 7}, {1, 3.0 / 7}};
        QTest::newRow("min_p min_keep") << R"({"type":"min_p","p":0.9,"min_keep":3})" << p4 << none
                                        << Distribution{{0, 4.0 / 9}, {1, 3.0 / 9}, {2, 2.0 / 9}};
        // |surprisal - H| with H = 1.279854: 0.3636, 0.0759, 0.3296, 1.0227 -> order 1, 2, 0, 3;
        // cumulative 0.3, 0.5, 0.9, 1.
        QTest::newRow("typical 0.45") << R"({"type":"typical","p":0.45})" << p4 << none
                                      << Distribution{{1, 0.6}, {2, 0.4}};
        QTest::newRow("typical 0.25") << R"({"type":"typical","p":0.25})" << p4 << none << Distribution{{1, 1.0}};
        QTest::newRow("typical min_keep") << R"({"type":"typical","p":0.25,"min_keep":3})" << p4 << none
                                          << Distribution{{0, 4.0 / 9}, {1, 3.0 / 9}, {2, 2.0 / 9}};
        QTest::newRow("epsilon 0.15") << R"({"type":"epsilon","epsilon":0.15})" << p4 << none
                                      << Distribution{{0, 0.4 / 0.9}, {1, 0.3 / 0.9}, {2, 0.2 / 0.9}};
        QTest::newRow("epsilon cuts all: min_keep 1")
            << R"({"type":"epsilon","epsilon":0.5})" << p4 << none << Distribution{{0, 1.0}};
        QTest::newRow("epsilon cuts all: min_keep 2") << R"({"type":"epsilon","epsilon":0.5,"min_keep":2})" << p4
                                                      << none << Distribution{{0, 4.0 / 7}, {1, 3.0 / 7}};
        // eta = min(0.6, sqrt(0.6) exp(-1.279854)) = 0.215399
        QTest::newRow("eta 0.6") << R"({"type":"eta","epsilon":0.6})" << p4 << none
                                 << Distribution{{0, 4.0 / 7}, {1, 3.0 / 7}};
        // mean -0.8, sigma sqrt(22.16) = 4.7074: threshold -1.7074 drops only the -10.
        QTest::newRow("top_n_sigma 1") << R"({"type":"top_n_sigma","n":1})" << std::vector<float>{3, 2, 1, 0, -10}
                                       << none << softmaxOf({{0, 3}, {1, 2}, {2, 1}, {3, 0}});
        // Samplers of other engines, on hand-worked rows (text-generation-webui's sampler_hijack.py,
        // transformers' TopHLogitsWarper). [2, 1, 0, -1]: p = .643914, .236883, .087144, .032059.
        const std::vector<float> four = {2, 1, 0, -1};
        // top_a: threshold 0.5 * .643914^2 = .207313.
        QTest::newRow("top_a 0.5") << R"({"type":"top_a","a":0.5})" << four << none << softmaxOf({{0, 2}, {1, 1}});
        QTest::newRow("top_a min_keep") << R"({"type":"top_a","a":0.5,"min_keep":3})" << four << none
                                        << softmaxOf({{0, 2}, {1, 1}, {2, 0}});
        // tfs on [3, 2, .5, 0, -2]: p = .663795, .244196, .054488, .033048, .004473; |second differences|
        // .22989, .16827, .007137; cumulative shares .567214, .982392, 1.
        const std::vector<float> five = {3, 2, 0.5f, 0, -2};
        QTest::newRow("tfs 0.95") << R"({"type":"tfs","z":0.95})" << five << none << softmaxOf({{0, 3}, {1, 2}});
        QTest::newRow("tfs 0.5") << R"({"type":"tfs","z":0.5})" << five << none << Distribution{{0, 1.0}};
        QTest::newRow("tfs min_keep") << R"({"type":"tfs","z":0.5,"min_keep":3})" << five << none
                                      << softmaxOf({{0, 3}, {1, 2}, {2, 0.5}});
        // Equal probabilities: every second difference 0, shares 0/0 (NaN, never above z): all but the last.
        QTest::newRow("tfs flat drops the last") << R"({"type":"tfs","z":0.9})" << flat4 << none
                                                 << Distribution{{0, 1.0 / 3}, {1, 1.0 / 3}, {2, 1.0 / 3}};
        QTest::newRow("tfs 1 is off") << R"({"type":"tfs","z":1})" << p4 << none
                                      << Distribution{{0, 0.4}, {1, 0.3}, {2, 0.2}, {3, 0.1}};
        // smoothing: d = 0, -1, -2, -3; curve 1: 2 - 0.5 d^2; curve 2: 2 - 0.25 d^2 + 0.25 d^3.
        QTest::newRow("smoothing 0.5") << R"({"type":"smoothing","factor":0.5})" << four << none
                                       << softmaxOf({{0, 2}, {1, 1.5}, {2, 0}, {3, -2.5}});
        QTest::newRow("smoothing curve 2") << R"({"type":"smoothing","factor":0.5,"curve":2})" << four << none
                                           << softmaxOf({{0, 2}, {1, 1.5}, {2, -1}, {3, -7}});
        QTest::newRow("smoothing 0 is off") << R"({"type":"smoothing","factor":0})" << p4 << none
                                            << Distribution{{0, 0.4}, {1, 0.3}, {2, 0.2}, {3, 0.1}};
        // top_h: entropy .947537; running -p ln p .283444, .624601, .837249, .947537.
        QTest::newRow("top_h 0.5") << R"({"type":"top_h","h":0.5})" << four << none << Distribution{{0, 1.0}};
        QTest::newRow("top_h 0.9") << R"({"type":"top_h","h":0.9})" << four << none
                                   << softmaxOf({{0, 2}, {1, 1}, {2, 0}});
        QTest::newRow("xtc removes top choices but the last")
            << R"({"type":"xtc","threshold":0.25,"probability":1})" << p4 << none
            << Distribution{{1, 0.5}, {2, 1.0 / 3}, {3, 1.0 / 6}};
        QTest::newRow("xtc inactive above 0.5") << R"({"type":"xtc","threshold":0.6,"probability":1})" << p4 << none
                                                << Distribution{{0, 0.4}, {1, 0.3}, {2, 0.2}, {3, 0.1}};
        {
            // dynatemp: T = 0.5 + 1.0 * (H / ln 4)^1
            const double h = -(0.4 * std::log(0.4) + 0.3 * std::log(0.3) + 0.2 * std::log(0.2) + 0.1 * std::log(0.1));
            const double t = 0.5 + 1.0 * (h / std::log(4.0));
            QTest::newRow("dynatemp") << R"({"type":"dynatemp","value":1,"range":0.5})" << p4 << none
                                      << softmaxOf({{0, std::log(0.4) / t},
                                                    {1, std::log(0.3) / t},
                                                    {2, std::log(0.2) / t},
                                                    {3, std::log(0.1) / t}});
        }
        const std::vector<float> signedLogits = {1.0f, -1.0f, 0.5f, 0.0f};
        QTest::newRow("repetition_penalty over history")
            << R"({"type":"repetition_penalty","penalty":2})" << signedLogits << std::vector<TokenId>{0, 1, 1}
            << softmaxOf({{0, 0.5}, {1, -2.0}, {2, 0.5}, {3, 0.0}});
        QTest::newRow("penalties frequency and presence")
            << R"({"type":"penalties","frequency":0.5,"presence":0.25})" << signedLogits
            << std::vector<TokenId>{0, 0, 1} << softmaxOf({{0, 1.0 - 1.25}, {1, -1.0 - 0.75}, {2, 0.5}, {3, 0.0}});
        QTest::newRow("penalties last_n")
            << R"({"type":"penalties","frequency":0.5,"last_n":1})" << signedLogits << std::vector<TokenId>{0, 0, 1}
            << softmaxOf({{0, 1.0}, {1, -1.5}, {2, 0.5}, {3, 0.0}});
        QTest::newRow("no_repeat_ngram 2")
            << R"({"type":"no_repeat_ngram","n":2})" << p4 << std::vector<TokenId>{1, 2, 1}
            << Distribution{{0, 0.4 / 0.8}, {1, 0.3 / 0.8}, {3, 0.1 / 0.8}};
        QTest::newRow("no_repeat_ngram never empties")
            << R"({"type":"no_repeat_ngram","n":1})" << p4 << std::vector<TokenId>{0, 1, 2, 3}
            << Distribution{{0, 0.4}, {1, 0.3}, {2, 0.2}, {3, 0.1}};
        // history 5 6 7 5 6: the earlier 6 was followed by 7 after a 2-token match -> 7 loses 1 * 2^0.
        QTest::newRow("dry") << R"({"type":"dry","multiplier":1,"base":2,"allowed_length":2,"breakers":[]})"
                             << std::vector<float>(8, 0.0f) << std::vector<TokenId>{5, 6, 7, 5, 6}
                             << softmaxOf({{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, -1}});
        QTest::newRow("dry breaker stops the match")
            << R"({"type":"dry","multiplier":1,"base":2,"allowed_length":2,"breakers":[5]})"
            << std::vector<float>(8, 0.0f) << std::vector<TokenId>{5, 6, 7, 5, 6}
            << softmaxOf({{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0}, {7, 0}});
        QTest::newRow("logit_bias") << R"({"type":"logit_bias","bias":{"2":1.5,"3":-1}})" << signedLogits << none
                                    << softmaxOf({{0, 1.0}, {1, -1.0}, {2, 2.0}, {3, -1.0}});
        QTest::newRow("banned_tokens") << R"({"type":"banned_tokens","ids":[0,2]})" << p4 << none
                                       << Distribution{{1, 0.75}, {3, 0.25}};
    }

    void samplers() {
        QFETCH(QString, sampler);
        QFETCH(std::vector<float>, logits);
        QFETCH(std::vector<TokenId>, history);
        QFETCH(Distribution, expected);
        const Distribution actual = finalAfter(sampler, logits, history);
        QCOMPARE(actual.size(), expected.size());
        for (const auto& [id, p] : expected) {
            QVERIFY2(actual.contains(id), qPrintable(QStringLiteral("token %1 was cut").arg(id)));
            QVERIFY2(std::abs(actual.at(id) - p) < 1e-6,
                     qPrintable(QStringLiteral("token %1: %2 vs %3").arg(id).arg(actual.at(id)).arg(p)));
        }
    }

    // llama.cpp's adaptive-p on [2, 1, 0, -1] (target 0.3, decay 0.9): the running average starts at the
    // target, so t' = 0.3 and the logits become 5 - 10 d^2 / (1 + d), d = |p - 0.3| / 0.3:
    // -1.122814, 4.634298, 2.055212, 0.786385. Accepting the drawn token moves the average by its p.
    void adaptivePReshapesAroundItsTarget() {
        Result<SamplerChain> chain =
            SamplerChain::build(Strategy::parse(R"({"samplers":[{"type":"adaptive_p","target":0.3,"decay":0.9}]})").value());
        QVERIFY(chain);
        const std::vector<float> row = {2, 1, 0, -1};
        const std::vector<double> p = {0.643914, 0.236883, 0.087144, 0.032059};
        const auto expected = [&](double adapted) {
            std::map<int, double> logits;
            for (int i = 0; i < 4; ++i) {
                const double d = std::abs(p[std::size_t(i)] - adapted) / 0.3;
                logits[i] = 5.0 - 10.0 * d * d / (1.0 + d);
            }
            return softmaxOf(logits);
        };
        double weighted = 0.3 / (1 - 0.9), total = 1 / (1 - 0.9);
        for (int step = 0; step < 3; ++step) {
            Candidates final;
            const Result<StepTrace> trace = chain->sample(row, {}, TraceLevel::Full, &final);
            QVERIFY(trace.ok());
            const double adapted = std::clamp(2 * 0.3 - weighted / total, 0.0, 1.0);
            QVERIFY(std::abs(trace->stages.back().threshold - adapted) < 1e-5);
            const Distribution want = expected(adapted);
            QCOMPARE(final.size(), std::size_t(4));
            for (std::size_t i = 0; i < final.size(); ++i)
                QVERIFY2(std::abs(final.prob(i) - want.at(final.id(i))) < 1e-5, qPrintable(QString::number(step)));
            if (step == 0)
                QVERIFY(std::abs(want.at(1) - 0.908820) < 1e-5); // the worked value
            chain->accept(trace->chosen);
            weighted = p[std::size_t(trace->chosen)] + 0.9 * weighted;
            total = 1 + 0.9 * total;
        }
        // Accepting a token it did not draw leaves the average alone.
        Candidates final;
        const Result<StepTrace> before = chain->sample(row, {}, TraceLevel::Full, &final);
        chain->accept(before->chosen == 0 ? 1 : 0);
        const Result<StepTrace> after = chain->sample(row, {}, TraceLevel::Full, &final);
        QCOMPARE(after->stages.back().threshold, before->stages.back().threshold);
    }

    void mirostatKPastTheVocabularyKeepsAll() {
        // Found by fuzzing: tau 60 -> mu 120, so k = ((e 2^120) / (1 - V^-e))^(1/s) is near 1e36, which does
        // not fit a size_t (undefined behaviour when cast). Any k at or past the candidate count keeps them all.
        Result<SamplerChain> chain = SamplerChain::build(
            Strategy::parse(R"({"samplers":[{"type":"mirostat","tau":60,"eta":0.1,"m":100}]})").value());
        QVERIFY(chain.ok());
        Candidates final;
        const Result<StepTrace> trace = chain->sample(logitsOf({0.4, 0.3, 0.2, 0.1}), {}, TraceLevel::Full, &final);
        QVERIFY(trace.ok());
        QCOMPARE(final.size(), std::size_t(4));
        QCOMPARE(trace->stages.back().threshold, 4.0);
    }

    void mirostatV2CutsBySurprise() {
        // tau 1 -> mu 2: keeps tokens with -log2 p <= 2, i.e. p >= 0.25.
        Result<SamplerChain> chain =
            SamplerChain::build(Strategy::parse(R"({"samplers":[{"type":"mirostat_v2","tau":1,"eta":0.1}]})").value());
        Candidates final;
        const Result<StepTrace> trace = chain->sample(logitsOf({0.4, 0.3, 0.2, 0.1}), {}, TraceLevel::Full, &final);
        QVERIFY(trace.ok());
        QCOMPARE(final.size(), std::size_t(2));
        QVERIFY(trace->chosen == 0 || trace->chosen == 1);
        QCOMPARE(trace->stages.back().threshold, 2.0);
    }

    void traceRecordsRawAndFinal() {
        Result<SamplerChain> chain =
            SamplerChain::build(Strategy::parse(R"({"samplers":[{"type":"top_k","k":2},{"type":"greedy"}]})").value());
        const Result<StepTrace> trace = chain->sample(logitsOf({0.1, 0.4, 0.3, 0.2}), {}, TraceLevel::Full);
        QVERIFY(trace.ok());
        QCOMPARE(trace->chosen, 1);
        QVERIFY(std::abs(trace->rawP - 0.4f) < 1e-6);
        QVERIFY(std::abs(trace->finalP - 4.0f / 7) < 1e-6);
        QCOMPARE(trace->rawRank, 1);
        const double h = -(0.4 * std::log(0.4) + 0.3 * std::log(0.3) + 0.2 * std::log(0.2) + 0.1 * std::log(0.1));
        QVERIFY(std::abs(trace->rawEntropy - h) < 1e-6);
        const double hFinal = -(4.0 / 7 * std::log(4.0 / 7) + 3.0 / 7 * std::log(3.0 / 7));
        QVERIFY(std::abs(trace->finalEntropy - hFinal) < 1e-6);
        QCOMPARE(trace->stages.size(), std::size_t(2));
        QCOMPARE(trace->stages[0].sampler, QStringLiteral("top_k"));
        QCOMPARE(trace->stages[0].kept, 2);
        QVERIFY(std::abs(trace->stages[0].keptMass - 0.7) < 1e-6);
        QVERIFY(std::abs(trace->stages[0].threshold - std::log(0.3)) < 1e-6);
        QCOMPARE(trace->top.size(), std::size_t(4));
        QCOMPARE(trace->top[0].id, 1);
        QCOMPARE(trace->top[3].id, 0);
        QVERIFY(std::abs(trace->top[1].finalP - 3.0f / 7) < 1e-6);
        QCOMPARE(trace->top[2].finalP, 0.0f);
        QVERIFY(std::isnan(trace->draw));
    }

    void nanLogitsAreAnError() {
        Result<SamplerChain> chain = SamplerChain::build(Strategy::parse(QStringLiteral("greedy")).value());
        const std::vector<float> logits = {0.0f, NAN, 1.0f};
        QVERIFY(!chain->sample(logits, {}, TraceLevel::Scalars).ok());
    }

    void largeVocabularyMatchesFullSort_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<double>("p");
        QTest::addColumn<int>("minKeep");
        for (const char* shape : {"uniform product", "gaussian with spikes", "power law", "one dominant", "flat", "mostly -inf"})
            for (double p : {0.5, 0.9, 0.95, 0.999, 0.999999999999999})
                for (int minKeep : {1, 3000})
                    QTest::addRow("%s p=%.15g min_keep=%d", shape, p, minKeep) << QString::fromLatin1(shape) << p << minKeep;
    }

    // top_p on large rows against a reference that sorts everything in double and walks the ascending
    // cumulative sum as transformers does: the same surviving ids.
    void largeVocabularyMatchesFullSort() {
        QFETCH(QString, shape);
        QFETCH(double, p);
        QFETCH(int, minKeep);
        Pcg64 rng(3);
        const auto gaussian = [&rng] {
            const double u1 = 1.0 - rng.uniform();
            const double u2 = rng.uniform();
            return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
        };
        std::vector<float> logits(shape == "uniform product" ? 50000 : 151936);
        for (std::size_t i = 0; i < logits.size(); ++i) {
            if (shape == "uniform product")
                logits[i] = static_cast<float>(8.0 * rng.uniform() * rng.uniform());
            else if (shape == "gaussian with spikes")
                logits[i] = static_cast<float>(2.5 * gaussian());
            else if (shape == "power law") // a language model's shape: log-probability falling with log-rank
                logits[i] = static_cast<float>(-1.3 * std::log(1.0 + static_cast<double>((i * 7919) % logits.size())) +
                                               0.3 * gaussian());
            else if (shape == "flat")
                logits[i] = 1.5f;
            else if (shape == "mostly -inf")
                logits[i] = i % 1500 == 0 ? static_cast<float>(gaussian()) : -INFINITY;
            else
                logits[i] = static_cast<float>(gaussian());
        }
        if (shape == "gaussian with spikes")
            for (int i = 0; i < 12; ++i)
                logits[rng.next() % logits.size()] = static_cast<float>(9.0 + 6.0 * rng.uniform());
        if (shape == "one dominant")
            logits[77] = 30.0f;
        for (std::size_t i = 5; i < logits.size(); i += 9973)
            logits[i] = -INFINITY;

        Candidates final;
        const QString json = QStringLiteral(R"({"samplers":[{"type":"top_p","p":%1,"min_keep":%2},{"type":"greedy"}]})")
                                 .arg(p, 0, 'g', 17)
                                 .arg(minKeep);
        Result<SamplerChain> chain = SamplerChain::build(Strategy::parse(json).value());
        QVERIFY(chain.ok());
        QVERIFY(chain->sample(logits, {}, TraceLevel::Full, &final).ok());

        const double max = *std::max_element(logits.begin(), logits.end());
        double sum = 0.0;
        for (float logit : logits)
            sum += std::exp(logit - max);
        std::vector<TokenId> order(logits.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](TokenId a, TokenId b) {
            return logits[a] < logits[b] || (logits[a] == logits[b] && a > b); // ascending, ties: higher id first
        });
        double cumulative = 0.0;
        double before = 0.0; // the cumulative sum up to the last removed token
        std::size_t removed = 0;
        while (removed < order.size() - std::max(minKeep, 1)) {
            cumulative += std::exp(logits[order[removed]] - max) / sum;
            if (cumulative > 1.0 - p)
                break;
            before = cumulative;
            ++removed;
        }
        // Where a cumulative sum at the boundary equals 1 - p to within rounding (a flat row at p = 0.5:
        // exactly half the mass), float and double arithmetic may decide the boundary token either way.
        const double margin = 1e-6 * (1.0 - p);
        const bool roundingDecides = removed > 0 && removed < order.size() - std::max(minKeep, 1) &&
                                     (std::abs(before - (1.0 - p)) <= margin || std::abs(cumulative - (1.0 - p)) <= margin);
        const std::size_t keptCount = final.size();
        const std::size_t expectKept = order.size() - removed;
        if (roundingDecides)
            QVERIFY(keptCount + 1 >= expectKept && keptCount <= expectKept + 1);
        else
            QCOMPARE(keptCount, expectKept);
        // The survivors are the most likely keptCount tokens (ties: lower ids first).
        std::vector<TokenId> expect(order.end() - static_cast<std::ptrdiff_t>(std::min(keptCount, order.size())), order.end());
        std::sort(expect.begin(), expect.end());
        std::vector<TokenId> got(final.ids().begin(), final.ids().end());
        std::sort(got.begin(), got.end());
        QVERIFY(got == expect);
    }

    // Each vector kernel against a plain loop, over lengths around the lane (8), pair (16), short-sum
    // (64) and block (2048) boundaries.
    void kernelsMatchPlainLoops() {
        Pcg64 rng(17);
        for (std::size_t n : {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 2047, 2048, 2049, 5000, 70001}) {
            std::vector<float> x(n);
            for (float& v : x)
                v = static_cast<float>(20.0 * rng.uniform() - 15.0);
            const QByteArray where = "n = " + QByteArray::number(static_cast<qulonglong>(n));
            if (n > 0)
                QCOMPARE(kernels::minOf(x.data(), n), *std::min_element(x.begin(), x.end()));

            std::vector<float> e(n);
            double sum = 0.0;
            double weighted = 0.0;
            kernels::expShift(x.data(), e.data(), n, 5.0f, &sum, &weighted);
            double expectSum = 0.0;
            double expectWeighted = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                const double d = x[i] - 5.0f; // the kernel's own (float) difference
                QVERIFY2(std::abs(e[i] - std::exp(d)) <= 2e-7 * std::exp(d), where);
                expectSum += std::exp(d);
                expectWeighted += std::exp(d) * d;
            }
            QVERIFY2(std::abs(sum - expectSum) <= 1e-6 * expectSum, where);
            QVERIFY2(std::abs(weighted - expectWeighted) <= 1e-6 * std::abs(expectWeighted) + 1e-12, where);
            const bool wide = kernels::avx512InUse();
            kernels::useAvx512(!wide); // the other path, where the CPU has both
            std::vector<float> other(n);
            double otherSum = 0.0;
            double otherWeighted = 0.0;
            kernels::expShift(x.data(), other.data(), n, 5.0f, &otherSum, &otherWeighted);
            kernels::useAvx512(wide);
            QVERIFY2(other == e && otherSum == sum && otherWeighted == weighted, where); // the same bits
            double plain = 0.0;
            for (float v : e)
                plain += v;
            QVERIFY2(std::abs(kernels::sum(e.data(), n) - plain) <= 1e-6 * plain, where);
            std::vector<float> scaled = e;
            const double scaledSum = kernels::scaleAndSum(scaled.data(), n, 0.5f);
            for (std::size_t i = 0; i < n; ++i)
                QVERIFY2(scaled[i] == e[i] * 0.5f, where);
            QVERIFY2(scaledSum == kernels::sum(scaled.data(), n), where);
            std::vector<float> weighed = e;
            double weighedTotal = 0.0;
            const double weighedSum = kernels::scaleAndWeigh(weighed.data(), x.data(), n, 0.5f, 2.0f, &weighedTotal);
            double expectWeighed = 0.0;
            double absWeighted = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                QVERIFY2(weighed[i] == e[i] * 0.5f, where);
                expectWeighed += static_cast<double>(weighed[i]) * std::max(x[i] - 2.0f, -87.0f);
                absWeighted += std::abs(static_cast<double>(weighed[i]) * (x[i] - 2.0f));
            }
            QVERIFY2(weighedSum == scaledSum, where);
            QVERIFY2(std::abs(weighedTotal - expectWeighed) <= 1e-6 * absWeighted + 1e-30, where);

            const float threshold = 4.0f;
            for (std::size_t from : {std::size_t{0}, n / 3}) {
                std::size_t expect = from;
                while (expect < n && x[expect] < threshold)
                    ++expect;
                QVERIFY2(kernels::findNotBelow(x.data(), from, n, threshold) == std::max(expect, std::min(from, n)),
                         where);
            }
            QVERIFY2(kernels::countGreater(x.data(), n, threshold) ==
                         static_cast<std::size_t>(std::count_if(x.begin(), x.end(), [](float v) { return v > 4.0f; })),
                     where);

            std::vector<float> maxima((n + kernels::kGroup - 1) / kernels::kGroup);
            QVERIFY2(!kernels::groupMaxima(x.data(), n, maxima.data()), where);
            for (std::size_t g = 0; g < maxima.size(); ++g) {
                const auto begin = x.begin() + static_cast<std::ptrdiff_t>(g * kernels::kGroup);
                const auto end = x.begin() + static_cast<std::ptrdiff_t>(std::min(n, (g + 1) * kernels::kGroup));
                QVERIFY2(maxima[g] == *std::max_element(begin, end), where);
            }
            if (n > 0) {
                for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
                    std::vector<float> withNaN = x;
                    withNaN[at] = NAN;
                    QVERIFY2(kernels::groupMaxima(withNaN.data(), n, maxima.data()), where);
                }
            }

            // x in [-15, 5): with top 5 and scale 10 the buckets run 0..199, clamped at 99; keep up to 50.
            std::vector<float> withSpecials = x;
            if (n > 2) {
                withSpecials[1] = -INFINITY;
                withSpecials[n / 2] = NAN;
            }
            std::vector<std::uint32_t> buckets(n);
            std::vector<std::uint32_t> listed(n);
            double restMass = -1.0;
            const std::size_t count = kernels::bucketSelect(withSpecials.data(), e.data(), n, 5.0f, 10.0f, 99, 50,
                                                            buckets.data(), listed.data(), &restMass);
            std::vector<std::uint32_t> expectBuckets;
            std::vector<std::uint32_t> expectListed;
            double expectRest = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                const float v = withSpecials[i];
                const auto bucket = std::isnan(v) ? std::uint32_t{99}
                                                  : static_cast<std::uint32_t>(std::min(99.0f, std::max(0.0f, (5.0f - v) * 10.0f)));
                if (bucket <= 50) {
                    expectBuckets.push_back(bucket);
                    expectListed.push_back(static_cast<std::uint32_t>(i));
                } else {
                    expectRest += e[i];
                }
            }
            QVERIFY2(count == expectListed.size(), where);
            QVERIFY2(std::abs(restMass - expectRest) <= 1e-6 * expectRest, where);
            {
                const bool gathers = kernels::avx2GathersInUse();
                kernels::useAvx2Gathers(!gathers); // the other path, where the CPU has both
                std::vector<std::uint32_t> otherBuckets(n);
                std::vector<std::uint32_t> otherListed(n);
                double otherRest = -1.0;
                const std::size_t otherCount = kernels::bucketSelect(withSpecials.data(), e.data(), n, 5.0f, 10.0f, 99, 50,
                                                                     otherBuckets.data(), otherListed.data(), &otherRest);
                kernels::useAvx2Gathers(gathers);
                QVERIFY2(otherCount == count && otherRest == restMass, where); // the same bits
            }
            QVERIFY2(std::equal(expectBuckets.begin(), expectBuckets.end(), buckets.begin()), where);
            QVERIFY2(std::equal(expectListed.begin(), expectListed.end(), listed.begin()), where);
            std::vector<std::uint32_t> below(count);
            std::vector<std::uint32_t> at(count);
            std::size_t belowCount = 0;
            std::size_t atCount = 0;
            kernels::splitAtBoundary(buckets.data(), listed.data(), count, 30, below.data(), &belowCount, at.data(), &atCount);
            std::vector<std::uint32_t> expectBelow;
            std::vector<std::uint32_t> expectAt;
            for (std::size_t k = 0; k < count; ++k) {
                if (buckets[k] < 30)
                    expectBelow.push_back(listed[k]);
                else if (buckets[k] == 30)
                    expectAt.push_back(listed[k]);
            }
            QVERIFY2(belowCount == expectBelow.size() && std::equal(expectBelow.begin(), expectBelow.end(), below.begin()),
                     where);
            QVERIFY2(atCount == expectAt.size() && std::equal(expectAt.begin(), expectAt.end(), at.begin()), where);

            std::vector<std::uint8_t> keep(n);
            for (bool withB : {true, false}) {
                std::vector<std::int32_t> ids(n);
                std::iota(ids.begin(), ids.end(), 0);
                std::vector<float> a = x;
                std::vector<float> b = e;
                std::vector<std::int32_t> expectIds;
                std::vector<float> expectA;
                std::vector<float> expectB;
                for (std::size_t i = 0; i < n; ++i) {
                    keep[i] = rng.uniform() < 0.3 ? 1 : 0;
                    if (keep[i]) {
                        expectIds.push_back(ids[i]);
                        expectA.push_back(a[i]);
                        expectB.push_back(b[i]);
                    }
                }
                // In place for the first pass, from separate inputs for the second.
                std::vector<std::int32_t> idsIn = ids;
                std::vector<float> aIn = a;
                const std::size_t count =
                    withB ? kernels::compact(keep.data(), n, ids.data(), ids.data(), a.data(), a.data(), b.data())
                          : kernels::compact(keep.data(), n, idsIn.data(), ids.data(), aIn.data(), a.data(), nullptr);
                QVERIFY2(count == expectIds.size(), where);
                ids.resize(count);
                a.resize(count);
                b.resize(count);
                QVERIFY2(ids == expectIds && a == expectA, where);
                if (withB)
                    QVERIFY2(b == expectB, where);
            }
        }
    }

    // A failed QVERIFY returns from the function: the switch is put back when the guard leaves scope.
    void kernelsMatchPlainLoopsWithoutAvx512() {
        const RestoreOnExit restore([wide = kernels::avx512InUse()] { kernels::useAvx512(wide); });
        kernels::useAvx512(false);
        kernelsMatchPlainLoops();
    }

    void kernelsMatchPlainLoopsWithoutAvx2Gathers() {
        const RestoreOnExit restore([gathers = kernels::avx2GathersInUse()] { kernels::useAvx2Gathers(gathers); });
        kernels::useAvx2Gathers(false);
        kernelsMatchPlainLoops();
    }

    // The decoder registry: each decoder's listed fields are exactly those its validation takes (a field it
    // does not list is refused by name, one it lists never as unknown) with the defaults it documents, each runs
    // in the family its documentation gives, and the unknown-type sentence names every decoder.
    void decoderRegistryListsWhatItValidates() {
        const std::map<QString, DecoderFamily> families = {{"sample", DecoderFamily::Sample},
                                                           {"beam", DecoderFamily::Beam},
                                                           {"group_beam", DecoderFamily::Beam},
                                                           {"contrastive_search", DecoderFamily::Search},
                                                           {"contrastive_decoding", DecoderFamily::Scored},
                                                           {"cfg", DecoderFamily::Scored}};
        QCOMPARE(decoderDescriptors().size(), families.size());
        for (const DecoderDescriptor& d : decoderDescriptors()) {
            QVERIFY2(families.count(d.type) && families.at(d.type) == d.family, qPrintable(d.type));
            const Result<DecoderSpec> extra = validateDecoder(QJsonObject{{"type", d.type}, {"no_such_field", 1}});
            QVERIFY2(!extra, qPrintable(d.type));
            QVERIFY2(extra.error().message.contains(d.type == "sample" ? "takes no fields"
                                                                       : "unknown field 'no_such_field'"),
                     qPrintable(extra.error().message));
            for (const DecoderField& field : d.fields) {
                const Result<DecoderSpec> one =
                    validateDecoder(QJsonObject{{"type", d.type}, {field.name, QJsonValue()}});
                QVERIFY2(one || !one.error().message.contains("unknown field"), qPrintable(d.type + ": " + field.name));
            }
            // The documented defaults are what validation completes an absent field with (a required field, null,
            // given; one without a default stays absent).
            QJsonObject json{{"type", d.type}};
            for (const DecoderField& field : d.fields)
                if (field.defaultValue.isNull())
                    json.insert(field.name, "amateur.bin");
            const Result<DecoderSpec> completed = validateDecoder(json);
            QVERIFY2(completed, qPrintable(d.type));
            for (const DecoderField& field : d.fields) {
                if (field.defaultValue.isUndefined())
                    QVERIFY2(!completed->params.contains(field.name), qPrintable(d.type + ": " + field.name));
                else if (!field.defaultValue.isNull())
                    QVERIFY2(completed->params.value(field.name) == field.defaultValue,
                             qPrintable(d.type + ": " + field.name));
                QVERIFY2(!field.range.isEmpty() && !field.doc.isEmpty(), qPrintable(d.type + ": " + field.name));
            }
            QVERIFY2(!d.engines.isEmpty(), qPrintable(d.type));
            // Decoders that rescore candidates say what their steps' traces hold; the others carry none.
            const bool traced = d.family == DecoderFamily::Search || d.family == DecoderFamily::Scored;
            QCOMPARE(d.traceColumns.size(), traced ? 5 : 0);
            QCOMPARE(d.traceNote.isEmpty(), !traced);
        }
        const Result<DecoderSpec> unknown = validateDecoder(QJsonObject{{"type", "nucleus_beam"}});
        QVERIFY(!unknown);
        for (const auto& [type, family] : families)
            QVERIFY2(unknown.error().message.contains(type), qPrintable(unknown.error().message));
        QCOMPARE(decoderFamily(DecoderSpec{}), DecoderFamily::Sample);
    }

    // The dense draw picks the item whose cumulative weight (in index order) brackets u * total.
    void denseDrawBracketsTheTarget() {
        Pcg64 rng(23);
        std::vector<float> weights(10000);
        for (float& w : weights)
            w = rng.uniform() < 0.2 ? static_cast<float>(rng.uniform()) : 0.0f;
        double total = 0.0;
        for (float w : weights)
            total += w;
        for (double u : {0.0, 1e-9, 0.25, 0.5, 0.9, 0.999999, 0.9999999999}) {
            const std::size_t index = kernels::drawFromDense(weights.data(), weights.size(), u);
            QVERIFY(weights[index] > 0.0f);
            double before = 0.0;
            for (std::size_t i = 0; i < index; ++i)
                before += weights[i];
            QVERIFY2(before <= u * total + 1e-6 * total && before + weights[index] >= u * total - 1e-6 * total,
                     qPrintable(QString::number(u)));
        }
    }

    // Large survivor sets take the dense draw: it fits the distribution, and neither the trace level
    // (the full trace permutes the candidates) nor the survivors' order changes the drawn tokens.
    void largeDrawFitsAndIgnoresTraceLevel() {
        std::vector<float> logits(600);
        for (std::size_t i = 0; i < logits.size(); ++i)
            logits[i] = static_cast<float>(std::log((i % 10 + 1) / 55.0));
        const Strategy strategy = Strategy::parse(R"({"seed":99,"samplers":[{"type":"dist"}]})").value();
        const auto drawAll = [&](TraceLevel level) {
            SamplerChain chain = SamplerChain::build(strategy).value();
            std::vector<TokenId> draws;
            for (int i = 0; i < 20000; ++i)
                draws.push_back(chain.sample(logits, {}, level)->chosen);
            return draws;
        };
        const std::vector<TokenId> draws = drawAll(TraceLevel::None);
        std::vector<int> counts(10, 0);
        for (TokenId id : draws)
            ++counts[static_cast<std::size_t>(id % 10)];
        double chiSquare = 0.0;
        for (std::size_t k = 0; k < 10; ++k) {
            const double expected = 20000.0 * (k + 1) / 55.0;
            chiSquare += (counts[k] - expected) * (counts[k] - expected) / expected;
        }
        QVERIFY2(chiSquare < 27.877, qPrintable(QString::number(chiSquare))); // 9 dof, p = 0.001
        QCOMPARE(drawAll(TraceLevel::Full), draws);

        // top_p on 50k logits: the same tokens with and without the trace.
        Pcg64 rng(5);
        std::vector<float> large(50000);
        for (float& logit : large)
            logit = static_cast<float>(6.0 * rng.uniform());
        const Strategy topP = Strategy::parse(R"({"seed":7,"samplers":[{"type":"top_p","p":0.9},{"type":"dist"}]})").value();
        SamplerChain plain = SamplerChain::build(topP).value();
        SamplerChain traced = SamplerChain::build(topP).value();
        for (int step = 0; step < 50; ++step)
            QCOMPARE(traced.sample(large, {}, TraceLevel::Full)->chosen, plain.sample(large, {}, TraceLevel::None)->chosen);
    }

    // The trace computes probabilities the chain may not need; later stages must still get the same
    // bits (a cut renormalises the probabilities it kept only if a sampler computed them itself).
    void traceLevelLeavesStagesBitIdentical() {
        Pcg64 rng(17);
        std::vector<float> logits(40000);
        for (float& logit : logits)
            logit = static_cast<float>(8.0 * rng.uniform() - 4.0);
        const std::vector<TokenId> history{3, 5, 5, 9, 120, 3};
        QStringList strategies = strategyPresetNames();
        strategies << R"({"samplers":[{"type":"top_p","p":0.9},{"type":"min_p","p":0.05},{"type":"dist"}]})"
                   << R"({"samplers":[{"type":"top_k","k":500},{"type":"typical","p":0.8},{"type":"epsilon","epsilon":0.0003},{"type":"dist"}]})"
                   << R"({"samplers":[{"type":"banned_tokens","ids":[1,2]},{"type":"top_n_sigma","n":1.5},{"type":"top_p","p":0.7},{"type":"dist"}]})";
        for (const QString& name : strategies) {
            const Strategy strategy = name.startsWith(QLatin1Char('{')) ? Strategy::parse(name).value()
                                                                         : strategyPreset(name).value();
            std::vector<std::vector<float>> stageProbs[2];
            std::vector<TokenId> chosen[2];
            for (int traced = 0; traced < 2; ++traced) {
                SamplerChain chain = SamplerChain::build(strategy, nullptr, 3).value();
                chain.setStageObserver([&](std::size_t, const Candidates& survivors) {
                    if (survivors.probsValid())
                        stageProbs[traced].emplace_back(survivors.probs().begin(), survivors.probs().end());
                    else
                        stageProbs[traced].emplace_back();
                });
                for (int step = 0; step < 3; ++step)
                    chosen[traced].push_back(
                        chain.sample(logits, history, traced ? TraceLevel::Full : TraceLevel::None)->chosen);
            }
            QCOMPARE(chosen[1], chosen[0]);
            QCOMPARE(stageProbs[1].size(), stageProbs[0].size());
            for (std::size_t i = 0; i < stageProbs[0].size(); ++i) {
                // Valid probabilities seen untraced are seen traced, with the same bits.
                if (stageProbs[0][i].empty())
                    continue;
                QVERIFY2(stageProbs[1][i].size() == stageProbs[0][i].size() &&
                             std::memcmp(stageProbs[1][i].data(), stageProbs[0][i].data(),
                                         stageProbs[0][i].size() * sizeof(float)) == 0,
                         qPrintable(QStringLiteral("%1, stage record %2").arg(name).arg(i)));
            }
        }
    }

    void validation_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("needle");
        QTest::newRow("unknown type") << R"({"samplers":[{"type":"top_q"}]})"
                                      << "unknown sampler type 'top_q'";
        QTest::newRow("unknown field") << R"({"samplers":[{"type":"top_k","kk":3}]})"
                                       << "unknown field 'kk'";
        QTest::newRow("out of range") << R"({"samplers":[{"type":"top_p","p":1.5}]})"
                                      << "field 'p' must be in (0, 1]";
        QTest::newRow("not a number") << R"({"samplers":[{"type":"min_p","p":"x"}]})"
                                      << "field 'p' must be a number";
        QTest::newRow("NaN is not JSON") << R"({"samplers":[{"type":"min_p","p":NaN}]})"
                                         << "malformed";
        QTest::newRow("integer") << R"({"samplers":[{"type":"top_k","k":2.5}]})"
                                 << "must be an integer";
        QTest::newRow("selector not last") << R"({"samplers":[{"type":"greedy"},{"type":"top_k"}]})"
                                           << "must come last";
        QTest::newRow("an array, not an object") << R"([{"type":"top_k"}])"
                                                 << "strategy JSON is malformed: it is a JSON array; a strategy is an "
                                                    "object {\"samplers\": [...]}";
        QTest::newRow("names position") << R"({"samplers":[{"type":"top_k"},{"type":"temperature","value":-1}]})"
                                        << "sampler 2 (temperature)";
    }

    void validation() {
        QFETCH(QString, json);
        QFETCH(QString, needle);
        const Result<Strategy> strategy = Strategy::parse(json);
        QVERIFY(!strategy.ok());
        QVERIFY2(strategy.error().message.contains(needle), qPrintable(strategy.error().message));
    }

    void presetsParseAndOrder() {
        for (const QString& name : strategyPresetNames())
            QVERIFY2(strategyPreset(name).has_value(), qPrintable(name));
        const Strategy chat = Strategy::parse(QStringLiteral("chat@llamacpp")).value();
        QStringList types;
        for (const SamplerSpec& spec : chat.samplers)
            types << spec.type;
        QCOMPARE(types, (QStringList{"repetition_penalty", "top_p", "temperature", "dist"}));
        const Strategy llama = Strategy::parse(QStringLiteral("llamacpp-default@hf")).value();
        types.clear();
        for (const SamplerSpec& spec : llama.samplers)
            types << spec.type;
        QCOMPARE(types, (QStringList{"temperature", "top_k", "top_p", "min_p", "dist"}));
        // Defaults are filled in, so spellings of one strategy share a hash.
        QCOMPARE(Strategy::parse(R"({"samplers":[{"type":"top_k"}]})")->hash(),
                 Strategy::parse(R"({"samplers":[{"type":"top_k","k":50,"min_keep":1},{"type":"dist"}]})")->hash());
    }

    void pcg64MatchesPublishedVector() {
        // pcg-c test-high/expected/check-pcg64.out: pcg64 seeded with (42, 54).
        Pcg64 rng;
        rng.seedPcg(42, 54);
        const std::uint64_t expected[] = {0x86b1da1d72062b68ULL, 0x1304aa46c9853d39ULL, 0xa3670e9e0dd50358ULL,
                                          0xf9090e529a7dae00ULL, 0xc85b9fd837996f2cULL, 0x606121f8e3919196ULL};
        for (std::uint64_t value : expected)
            QCOMPARE(rng.next(), value);
        Pcg64 a(7);
        Pcg64 b(7);
        Pcg64 c(8);
        QCOMPARE(a.next(), b.next());
        QVERIFY(a.next() != c.next());
        for (int i = 0; i < 1000; ++i) {
            const double u = a.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
        }
    }

    void distFitsChiSquare() {
        const std::vector<double> p = {0.25, 0.2, 0.15, 0.1, 0.08, 0.07, 0.06, 0.05, 0.03, 0.01};
        std::vector<float> logits;
        for (double q : p)
            logits.push_back(static_cast<float>(std::log(q)));
        const Strategy strategy = Strategy::parse(R"({"seed":1234,"samplers":[{"type":"dist"}]})").value();
        const auto drawAll = [&] {
            SamplerChain chain = SamplerChain::build(strategy).value();
            std::vector<TokenId> draws;
            for (int i = 0; i < 20000; ++i)
                draws.push_back(chain.sample(logits, {}, TraceLevel::None)->chosen);
            return draws;
        };
        const std::vector<TokenId> draws = drawAll();
        std::vector<int> counts(p.size(), 0);
        for (TokenId id : draws)
            ++counts[static_cast<std::size_t>(id)];
        double chiSquare = 0.0;
        for (std::size_t i = 0; i < p.size(); ++i) {
            const double expected = 20000 * p[i];
            chiSquare += (counts[i] - expected) * (counts[i] - expected) / expected;
        }
        // 9 degrees of freedom: P(X > 27.877) = 0.001.
        QVERIFY2(chiSquare < 27.877, qPrintable(QString::number(chiSquare)));
        QCOMPARE(drawAll(), draws);
    }
};

QTEST_GUILESS_MAIN(TestSampling)
#include "tst_sampling.moc"
