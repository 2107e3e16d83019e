// Analyses of runs: parameter sweeps (evaluation/Sweep.h, workflows/SweepRunner.h, `swb sweep`), repetition
// loops and their remedies (stats::findRepetitionLoops, evaluation/LoopRemedies.h) and the token probe
// (generation/TokenProbe.h): hand-worked cases, runs checked against generating each cell alone, the probe
// against the run's stored trace.

#include <atomic>
#include <cmath>

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "TestSupport.h"
#include "evaluation/LoopRemedies.h"
#include "evaluation/Statistics.h"
#include "evaluation/Sweep.h"
#include "generation/Generator.h"
#include "generation/TokenProbe.h"
#include "model/Model.h"
#include "sampling/StepTrace.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "tokenizer/TokenizerLoader.h"
#include "workflows/RunRecording.h"
#include "workflows/RunReplay.h"
#include "workflows/SweepRunner.h"

using namespace swb;
using swb::test::demoModel;
using Loop = stats::RepetitionLoop;

namespace {

StepTrace step(int token, double rawP, double rawEntropy) {
    StepTrace trace;
    trace.chosen = token;
    trace.rawP = static_cast<float>(rawP);
    trace.rawEntropy = rawEntropy;
    return trace;
}

std::vector<int> repeated(std::vector<int> unit, int times) {
    std::vector<int> out;
    for (int i = 0; i < times; ++i)
        out.insert(out.end(), unit.begin(), unit.end());
    return out;
}

SweepSpec smallSpec(std::uint64_t seed) {
    SweepSpec spec;
    spec.base = test::strategyFromJson(R"({"samplers":[{"type":"top_k","k":40},{"type":"temperature","value":0.8}]})");
    spec.x = SweepAxis::parse(QStringLiteral("temperature.value=0.5,1.5")).value();
    spec.y = SweepAxis::parse(QStringLiteral("min_p.p=0,0.2")).value();
    spec.prompts = {QStringLiteral("In the beginning"), QStringLiteral("And the LORD said")};
    spec.samples = 2;
    spec.seed = seed;
    spec.maxTokens = 8;
    return spec;
}

} // namespace

class TestAnalysis : public QObject {
    Q_OBJECT

private slots:
    void loops_data() {
        QTest::addColumn<std::vector<int>>("tokens");
        QTest::addColumn<std::vector<Loop>>("expected");
        QTest::newRow("period 2, four copies") << repeated({1, 2}, 4) << std::vector<Loop>{{0, 8, 2, 4}};
        QTest::newRow("one token nine times") << repeated({7}, 9) << std::vector<Loop>{{0, 9, 1, 9}};
        QTest::newRow("period 3 then other") << std::vector<int>{1, 2, 3, 1, 2, 3, 1, 2, 3, 9}
                                             << std::vector<Loop>{{0, 9, 3, 3}};
        QTest::newRow("after a prefix, last copy cut") << std::vector<int>{5, 6, 7, 8, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1}
                                                       << std::vector<Loop>{{4, 14, 3, 3}};
        QTest::newRow("too short") << repeated({1, 2}, 2) << std::vector<Loop>{};
        QTest::newRow("two copies and a bit") << std::vector<int>{1, 2, 3, 1, 2, 3, 1, 2} << std::vector<Loop>{};
        QTest::newRow("three copies of 2 tokens < 8") << repeated({1, 2}, 3) << std::vector<Loop>{};
        QTest::newRow("two loops back to back") << [] {
            std::vector<int> t = repeated({1}, 8);
            const std::vector<int> tail = repeated({2, 3}, 4);
            t.insert(t.end(), tail.begin(), tail.end());
            return t;
        }() << std::vector<Loop>{{0, 8, 1, 8}, {8, 16, 2, 4}};
        QTest::newRow("no repeat") << std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10} << std::vector<Loop>{};
        QTest::newRow("empty") << std::vector<int>{} << std::vector<Loop>{};
    }
    void loops() {
        QFETCH(std::vector<int>, tokens);
        QFETCH(std::vector<Loop>, expected);
        const std::vector<Loop> found = stats::findRepetitionLoops(tokens);
        QCOMPARE(found.size(), expected.size());
        for (std::size_t i = 0; i < found.size(); ++i) {
            QCOMPARE(found[i].start, expected[i].start);
            QCOMPARE(found[i].end, expected[i].end);
            QCOMPARE(found[i].period, expected[i].period);
            QCOMPARE(found[i].repeats, expected[i].repeats);
        }
    }

    void loopRemediesByHand() {
        // A loop of a 4-token cycle from step 10 to 30; the run sampled with top-k 40 and temperature 0.8.
        const Strategy sampled =
            test::strategyFromJson(R"({"samplers":[{"type":"top_k","k":40},{"type":"temperature","value":0.8}]})");
        const stats::RepetitionLoop loop{10, 30, 4, 5};
        std::vector<LoopRemedy> remedies = loopRemedies(sampled, loop);
        QCOMPARE(remedies.size(), std::size_t(4));
        const auto types = [](const Strategy& s) {
            QStringList list;
            for (const SamplerSpec& sampler : s.samplers)
                list << sampler.type;
            return list;
        };
        QCOMPARE(remedies[0].kind, LoopRemedy::Kind::RepetitionPenalty);
        QCOMPARE(remedies[0].value, 1.3);
        QCOMPARE(remedies[0].step, 14); // the first repeated token: start + period
        QCOMPARE(types(remedies[0].strategy), (QStringList{"top_k", "temperature", "repetition_penalty", "dist"}));
        QCOMPARE(remedies[0].strategy.samplers[2].params.value("penalty").toDouble(), 1.3);
        QCOMPARE(remedies[1].kind, LoopRemedy::Kind::Dry);
        QCOMPARE(remedies[1].step, 16); // DRY lets a repeat of allowed_length (2) tokens pass
        QCOMPARE(remedies[1].strategy.samplers[2].params.value("multiplier").toDouble(), 0.8);
        QCOMPARE(remedies[2].kind, LoopRemedy::Kind::NoRepeatNgram);
        QCOMPARE(remedies[2].step, 16); // the first repeated 3-gram ends at start + period + 2
        QCOMPARE(remedies[2].strategy.samplers[2].params.value("n").toInt(), 3);
        QCOMPARE(remedies[3].kind, LoopRemedy::Kind::Temperature);
        QVERIFY(std::abs(remedies[3].strategy.samplers[1].params.value("value").toDouble() - 1.1) < 1e-12);
        QCOMPARE(types(remedies[3].strategy), (QStringList{"top_k", "temperature", "dist"}));

        // A penalty already there is raised; a strategy with no-repeat n-grams is not offered them again.
        const Strategy penalised = test::strategyFromJson(
            R"({"samplers":[{"type":"repetition_penalty","penalty":1.25},{"type":"no_repeat_ngram","n":4}]})");
        remedies = loopRemedies(penalised, loop);
        QCOMPARE(remedies.size(), std::size_t(3));
        QCOMPARE(remedies[0].value, 1.45);
        QCOMPARE(types(remedies[0].strategy), (QStringList{"repetition_penalty", "no_repeat_ngram", "dist"}));
        QCOMPARE(remedies[2].kind, LoopRemedy::Kind::Temperature);
        QCOMPARE(remedies[2].value, 1.3); // no temperature sampler: 1 + 0.3, added before the selector

        // Greedy: sampling at temperature 0.8 instead.
        remedies = loopRemedies(test::strategyFromJson(R"({"samplers":[{"type":"greedy"}]})"), {0, 120, 8, 15});
        QCOMPARE(remedies.back().kind, LoopRemedy::Kind::SampleInsteadOfGreedy);
        QCOMPARE(types(remedies.back().strategy), (QStringList{"temperature", "dist"}));
        QCOMPARE(remedies.back().step, 8);
        QCOMPARE(types(remedies[0].strategy), (QStringList{"repetition_penalty", "greedy"}));
    }

    void cellMetricsByHand() {
        // Run A: tokens 1 2 1, raw p 1/2 1/4 1/2, entropies 1 2 3. Run B: token 3, p 1/8, entropy 0.5.
        // Run C: token 4 eight times (a loop), p 1, entropy 0.
        const std::vector<StepTrace> a{step(1, 0.5, 1.0), step(2, 0.25, 2.0), step(1, 0.5, 3.0)};
        const std::vector<StepTrace> b{step(3, 0.125, 0.5)};
        SweepCellMetrics two = sweepCellMetrics({a, b});
        QCOMPARE(two.runs, 2);
        QCOMPARE(two.meanLength, 2.0);
        QCOMPARE(two.meanRawEntropy, 1.25);                        // mean of the runs' means 2 and 0.5
        QVERIFY(std::abs(two.perplexity - std::pow(2.0, 7.0 / 4)) < 1e-12); // -ln p sums to 7 ln 2 over 4 tokens
        QCOMPARE(two.distinct1, 0.75);                             // {1, 2, 3} of 4 unigrams
        QCOMPARE(two.distinct2, 1.0);                              // (1,2) (2,1); B has none
        QVERIFY(std::isnan(two.rep4));                             // no run has a 4-gram
        QCOMPARE(two.loopShare, 0.0);
        std::vector<StepTrace> c(8, step(4, 1.0, 0.0));
        SweepCellMetrics three = sweepCellMetrics({a, b, c});
        QVERIFY(std::abs(three.loopShare - 1.0 / 3) < 1e-15);
        QCOMPARE(three.rep4, 1.0 - 1.0 / 5); // C's five 4-grams are one
        QVERIFY(std::isnan(sweepCellMetrics({}).meanLength));
    }

    void axes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error"); // empty: parses
        QTest::newRow("ok") << "temperature.value=0.5, 0.7,1" << "";
        QTest::newRow("integer") << "top_k.k=10,40" << "";
        QTest::newRow("no equals") << "temperature.value" << "SAMPLER.PARAM=V1,V2";
        QTest::newRow("no dot") << "temperature=0.5" << "SAMPLER.PARAM=V1,V2";
        QTest::newRow("unknown sampler") << "warmth.value=1" << "no sampler \"warmth\"";
        QTest::newRow("unknown param") << "min_p.q=0.1" << "min_p has no numeric parameter \"q\" (it has: p";
        QTest::newRow("out of range") << "top_p.p=0.5,1.5" << "1.5 is outside";
        QTest::newRow("not a number") << "top_p.p=0.5,x" << "\"x\" is not a finite number";
        QTest::newRow("fraction for integer") << "top_k.k=2.5" << "2.5 must be a whole number";
        QTest::newRow("twice") << "top_p.p=0.5,0.5" << "0.5 is given twice";
        QTest::newRow("too many") << "top_k.k=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17" << "17 values; at most 16";
        QTest::newRow("empty") << "top_k.k=" << "has no values";
    }
    void axes() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        Result<SweepAxis> axis = SweepAxis::parse(text);
        if (error.isEmpty()) {
            QVERIFY2(axis.ok(), qPrintable(axis ? QString() : axis.error().message));
            QCOMPARE(SweepAxis::parse(axis->toString()).value(), axis.value());
        } else {
            QVERIFY(!axis.ok());
            QVERIFY2(axis.error().message.contains(error), qPrintable(axis.error().message));
        }
    }

    void cellStrategies() {
        const SweepSpec spec = smallSpec(0);
        QVERIFY(spec.validate().ok());
        // Cell (1, 1): temperature set where it stands, min_p added before the selector.
        Result<Strategy> cell = sweepCellStrategy(spec, 1, 1);
        QVERIFY(cell.ok());
        QStringList types;
        for (const SamplerSpec& sampler : cell->samplers)
            types << sampler.type;
        QCOMPARE(types, (QStringList{"top_k", "temperature", "min_p", "dist"}));
        QCOMPARE(cell->samplers[1].params.value("value").toDouble(), 1.5);
        QCOMPARE(cell->samplers[2].params.value("p").toDouble(), 0.2);
        QCOMPARE(cell->samplers[0].params.value("k").toInt(), 40);
        QCOMPARE(cell->name, QStringLiteral("temperature.value=1.5, min_p.p=0.2"));
        // The same parameter on both axes, a beam base, or no prompt: one sentence each.
        SweepSpec same = spec;
        same.y = spec.x;
        QVERIFY(same.validate().error().message.contains("same parameter"));
        SweepSpec noPrompts = spec;
        noPrompts.prompts.clear();
        QVERIFY(noPrompts.validate().error().message.contains("at least one prompt"));
        // JSON round trip, as the GUI saves a sweep and `swb sweep --spec` reads it.
        Result<SweepSpec> back = SweepSpec::fromJson(spec.toJson());
        QVERIFY(back.ok());
        QCOMPARE(back->toJson(), spec.toJson());
        QJsonObject bad = spec.toJson();
        bad.insert("sample", 3);
        QVERIFY(SweepSpec::fromJson(bad).error().message.contains("no field \"sample\""));
    }

    void runsMatchEachCellAlone() {
        Result<std::unique_ptr<Model>> model = Model::load(demoModel());
        QVERIFY(model.ok());
        Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
        QVERIFY(tokenizer.ok());
        QTemporaryDir dir;
        Result<std::unique_ptr<Database>> database = Database::open(dir.filePath("runs.db"));
        QVERIFY(database.ok());
        const SweepSpec spec = smallSpec(11);
        std::vector<SweepProgress> seen;
        Result<SweepOutcome> outcome =
            runSweep(*model.value(), *tokenizer.value(), *database.value(), spec, [&](const SweepProgress& p) { seen.push_back(p); });
        QVERIFY2(outcome.ok(), qPrintable(outcome ? QString() : outcome.error().message));
        QCOMPARE(outcome->total, 16); // 4 cells x 2 prompts x 2 samples
        QCOMPARE(outcome->generated, 16);
        QCOMPARE(outcome->cells.size(), std::size_t(4));
        QCOMPARE(seen.back().done, 16);

        // Each cell's run is what generating that cell's strategy alone with the sample's seed gives.
        Generator generator(*model.value(), *tokenizer.value());
        RunRepository runs(*database.value());
        for (const SweepCellRuns& cell : outcome->cells) {
            QCOMPARE(cell.runIds.size(), std::size_t(4));
            for (int p = 0; p < 2; ++p)
                for (int s = 0; s < 2; ++s) {
                    GenerationRequest request;
                    request.prompt = spec.prompts.at(p).toStdString();
                    request.strategy = cell.strategy;
                    request.strategy.seed = spec.seed + static_cast<std::uint64_t>(s);
                    request.maxTokens = spec.maxTokens;
                    Result<GenerationResult> alone = generator.generate(request);
                    QVERIFY(alone.ok());
                    Result<RunRecord> stored = runs.loadRun(cell.runIds[static_cast<std::size_t>(p * 2 + s)]);
                    QVERIFY(stored.ok());
                    QCOMPARE(stored->promptText, spec.prompts.at(p));
                    QCOMPARE(stored->steps.size(), alone->steps.size());
                    for (std::size_t i = 0; i < alone->steps.size(); ++i)
                        QCOMPARE(stored->steps[i].chosen, alone->steps[i].token);
                }
        }
        // The metrics of a cell are those of its stored runs.
        Result<std::vector<SweepCellResult>> results = sweepResults(*database.value(), outcome.value());
        QVERIFY(results.ok());
        QCOMPARE(results->size(), std::size_t(4));
        std::vector<std::vector<StepTrace>> firstCell;
        for (qint64 id : outcome->cells[0].runIds)
            firstCell.push_back(runs.loadRun(id)->steps);
        QCOMPARE((*results)[0].metrics.perplexity, sweepCellMetrics(firstCell).perplexity);
        QCOMPARE((*results)[0].metrics.meanLength, sweepCellMetrics(firstCell).meanLength);

        // Again: nothing generated, the same runs found.
        Result<SweepOutcome> again = runSweep(*model.value(), *tokenizer.value(), *database.value(), spec);
        QVERIFY(again.ok());
        QCOMPARE(again->generated, 0);
        QCOMPARE(again->skipped, 16);
        for (std::size_t c = 0; c < 4; ++c)
            QCOMPARE(again->cells[c].runIds, outcome->cells[c].runIds);

        // The CSV: a header and one row per cell, x and y as given.
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QVERIFY(writeSweepCsv(buffer, spec, results.value()));
        const QList<QByteArray> lines = buffer.data().split('\n');
        QCOMPARE(lines.at(0).trimmed(),
                 QByteArray("temperature.value,min_p.p,runs,mean_raw_entropy,perplexity,distinct_1,distinct_2,rep_4,"
                            "mean_length,loop_share"));
        QVERIFY(lines.at(1).startsWith("0.5,0,4,"));
        QVERIFY(lines.at(4).startsWith("1.5,0.2,4,"));
    }

    void cancelledSweepResumes() {
        Result<std::unique_ptr<Model>> model = Model::load(demoModel());
        Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
        QTemporaryDir dir;
        Result<std::unique_ptr<Database>> database = Database::open(dir.filePath("runs.db"));
        const SweepSpec spec = smallSpec(5);
        // Cancel inside the second batch (prompt 1, sample 2): the first batch's four runs are kept, the
        // second's, cut short, are not.
        std::atomic<bool> cancel{false};
        Result<SweepOutcome> first = runSweep(*model.value(), *tokenizer.value(), *database.value(), spec,
                                              [&](const SweepProgress& p) {
                                                  if (p.done == 4 && p.batchTokens > 2)
                                                      cancel = true;
                                              },
                                              &cancel);
        QVERIFY(first.ok());
        QVERIFY(first->cancelled);
        QCOMPARE(first->generated, 4);
        RunRepository runs(*database.value());
        QCOMPARE(runs.listRuns()->size(), std::size_t(4));
        Result<SweepOutcome> resumed = runSweep(*model.value(), *tokenizer.value(), *database.value(), spec);
        QVERIFY(resumed.ok());
        QVERIFY(!resumed->cancelled);
        QCOMPARE(resumed->skipped, 4);
        QCOMPARE(resumed->generated, 12);
        QCOMPARE(runs.listRuns()->size(), std::size_t(16));
    }

    void probeFollowsATokenThroughTheChain() {
        Result<std::unique_ptr<Model>> model = Model::load(demoModel());
        Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
        QVERIFY(model.ok() && tokenizer.ok());
        Generator generator(*model.value(), *tokenizer.value());
        GenerationRequest request;
        request.prompt = "And God said";
        request.strategy = test::strategyFromJson(
            R"({"seed": 3, "samplers": [{"type": "top_k", "k": 5}, {"type": "top_p", "p": 0.9}, {"type": "dist"}]})");
        request.maxTokens = 24;
        Result<GenerationResult> run = generator.generate(request);
        QVERIFY(run.ok());
        std::vector<TokenId> tokens;
        for (const GeneratedStep& step : run->steps)
            tokens.push_back(step.token);
        const int steps = static_cast<int>(tokens.size());
        Result<RunLogits> logits = RunLogits::compute(*model.value(), run->promptIds, tokens, steps);
        QVERIFY(logits.ok());

        // Probe the token drawn at step 0, and the fourth and the seventh raw candidates of step 0.
        const StepTrace& first = run->steps[0].trace;
        for (const TokenId token : {run->steps[0].token, first.top[3].id, first.top[6].id}) {
            Result<TokenProbe> probe =
                probeToken(logits.value(), run->promptIds, tokens, request.strategy, 0, token, tokenizer.value().get());
            QVERIFY2(probe.ok(), qPrintable(probe ? QString() : probe.error().message));
            QCOMPARE(probe->stages, (QStringList{"top_k", "top_p", "dist"}));
            QCOMPARE(probe->steps.size(), std::size_t(steps));
            for (int i = 0; i < steps; ++i) {
                const StepTrace& trace = run->steps[std::size_t(i)].trace;
                const TokenProbeStep& seen = probe->steps[std::size_t(i)];
                QCOMPARE(seen.drawn, tokens[std::size_t(i)] == token);
                // Independently from the stored trace: top-5 by raw p, then the nucleus of 0.9 among them.
                double kept5 = 0;
                for (int c = 0; c < 5; ++c)
                    kept5 += trace.top[std::size_t(c)].rawP;
                int expectedCut = 0; // not in the top 5: top_k cut it
                double expectedFinal = 0;
                double cumulative = 0;
                std::vector<double> nucleus;
                for (int c = 0; c < 5; ++c) {
                    const double p = trace.top[std::size_t(c)].rawP / kept5;
                    nucleus.push_back(p);
                    const bool inside = cumulative < 0.9; // kept while the mass before it is below p
                    cumulative += p;
                    if (trace.top[std::size_t(c)].id == token)
                        expectedCut = inside ? -1 : 1;
                    if (!inside)
                        nucleus.pop_back();
                }
                double nucleusMass = 0;
                for (double p : nucleus)
                    nucleusMass += p;
                for (int c = 0; c < int(nucleus.size()); ++c)
                    if (trace.top[std::size_t(c)].id == token)
                        expectedFinal = nucleus[std::size_t(c)] / nucleusMass;
                QCOMPARE(seen.cutBy, expectedCut);
                QVERIFY2(std::abs(seen.finalP - expectedFinal) < 1e-5,
                         qPrintable(QStringLiteral("step %1: %2 vs %3").arg(i).arg(seen.finalP).arg(expectedFinal)));
                if (seen.drawn)
                    QVERIFY(std::abs(seen.finalP - trace.finalP) < 1e-5);
                // Raw p and rank as the trace recorded them, where the token is among its top candidates.
                for (std::size_t c = 0; c < trace.top.size(); ++c)
                    if (trace.top[c].id == token) {
                        QVERIFY(std::abs(seen.rawP - trace.top[c].rawP) < 1e-5);
                        QCOMPARE(seen.rawRank, int(c) + 1);
                    }
            }
        }
        QVERIFY(!probeToken(logits.value(), run->promptIds, tokens, request.strategy, 0, 99999, nullptr).ok());
    }

    // Issue 35: on a greedy run every other token read "survived, not drawn", even at rank 695. Greedy takes
    // the top token: the drawn one has final p 1, any other is cut by the greedy stage.
    void probeOnAGreedyRun() {
        Result<std::unique_ptr<Model>> model = Model::load(demoModel());
        Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
        QVERIFY(model.ok() && tokenizer.ok());
        Generator generator(*model.value(), *tokenizer.value());
        GenerationRequest request;
        request.prompt = "And God said";
        request.strategy = test::strategyFromJson(R"({"samplers": [{"type": "temperature", "value": 0.7}, {"type": "greedy"}]})");
        request.maxTokens = 8;
        Result<GenerationResult> run = generator.generate(request);
        QVERIFY(run.ok());
        std::vector<TokenId> tokens;
        for (const GeneratedStep& step : run->steps)
            tokens.push_back(step.token);
        Result<RunLogits> logits = RunLogits::compute(*model.value(), run->promptIds, tokens, static_cast<int>(tokens.size()));
        QVERIFY(logits.ok());
        const StepTrace& first = run->steps[0].trace;
        for (const TokenId token : {tokens[0], first.top[1].id, first.top[9].id}) {
            Result<TokenProbe> probe = probeToken(logits.value(), run->promptIds, tokens, request.strategy, 0, token, nullptr);
            QVERIFY(probe.ok());
            QCOMPARE(probe->stages, (QStringList{"temperature", "greedy"}));
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                const TokenProbeStep& seen = probe->steps[i];
                const bool top = tokens[i] == token; // greedy drew the top token, so only it survives
                QCOMPARE(seen.drawn, top);
                QCOMPARE(seen.cutBy, top ? -1 : 1);
                QCOMPARE(seen.finalP, top ? 1.0f : 0.0f);
            }
        }
    }

    void divergence_data() {
        QTest::addColumn<std::vector<int>>("a");
        QTest::addColumn<std::vector<int>>("b");
        QTest::addColumn<int>("expected");
        QTest::newRow("same") << std::vector<int>{1, 2, 3} << std::vector<int>{1, 2, 3} << -1;
        QTest::newRow("both empty") << std::vector<int>{} << std::vector<int>{} << -1;
        QTest::newRow("at 0") << std::vector<int>{1, 2} << std::vector<int>{2, 2} << 0;
        QTest::newRow("at 2") << std::vector<int>{1, 2, 3, 4} << std::vector<int>{1, 2, 9, 4} << 2;
        QTest::newRow("prefix") << std::vector<int>{1, 2} << std::vector<int>{1, 2, 3} << 2;
        QTest::newRow("longer first") << std::vector<int>{1, 2, 3} << std::vector<int>{1} << 1;
    }
    void divergence() {
        QFETCH(std::vector<int>, a);
        QFETCH(std::vector<int>, b);
        QFETCH(int, expected);
        QCOMPARE(firstDivergence(a, b), expected);
    }

    void replayUnderAnotherStrategyBecomesAComparison() {
        Result<std::unique_ptr<Model>> model = Model::load(demoModel());
        Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
        QTemporaryDir dir;
        Result<std::unique_ptr<Database>> database = Database::open(dir.filePath("runs.db"));
        QVERIFY(model.ok() && tokenizer.ok() && database.ok());
        Generator generator(*model.value(), *tokenizer.value());
        RunRepository runs(*database.value());
        const auto make = [&](const char* strategy, const std::vector<TokenId>& promptIds) -> std::pair<qint64, std::vector<TokenId>> {
            GenerationRequest request;
            request.prompt = "And God said";
            if (!promptIds.empty()) {
                request.promptIds = promptIds;
                request.usePromptIds = true;
            }
            request.strategy = test::strategyFromJson(strategy);
            request.strategy.seed = 21;
            request.maxTokens = 32;
            Result<GenerationResult> result = generator.generate(request);
            if (!result)
                return {0, {}};
            Result<RunRecord> saved = saveGeneration(runs, model.value()->info(), request, result.value());
            std::vector<TokenId> tokens;
            for (const GeneratedStep& step : result->steps)
                tokens.push_back(step.token);
            return {saved ? saved->id : 0, tokens};
        };
        const auto [original, tokens] = make(R"({"samplers":[{"type":"top_k","k":40},{"type":"temperature","value":1.0}]})", {});
        QVERIFY(original > 0);
        const std::vector<TokenId> promptIds = runs.loadRun(original, false)->promptIds;
        // The same strategy and seed replays the same run; a cooler one parts from it at some step, after an
        // identical prefix.
        QCOMPARE(firstDivergence(tokens, make(R"({"samplers":[{"type":"top_k","k":40},{"type":"temperature","value":1.0}]})", promptIds).second), -1);
        const auto [replay, replayTokens] = make(R"({"samplers":[{"type":"top_k","k":40},{"type":"temperature","value":0.3}]})", promptIds);
        const int at = firstDivergence(tokens, replayTokens);
        QVERIFY(at >= 0);
        for (int i = 0; i < at; ++i)
            QCOMPARE(tokens[std::size_t(i)], replayTokens[std::size_t(i)]);
        if (at < int(std::min(tokens.size(), replayTokens.size())))
            QVERIFY(tokens[std::size_t(at)] != replayTokens[std::size_t(at)]);

        Result<qint64> comparison = saveReplayComparison(*database.value(), original, replay);
        QVERIFY2(comparison.ok(), qPrintable(comparison ? QString() : comparison.error().message));
        ComparisonRepository comparisons(*database.value());
        Result<ComparisonRecord> stored = comparisons.loadComparison(comparison.value());
        QVERIFY(stored.ok());
        QVERIFY(stored->blind);
        QCOMPARE(stored->entries.size(), std::size_t(2));
        QCOMPARE(stored->entries[0].runId, original);
        QCOMPARE(stored->entries[1].runId, replay);
        QStringList labels{stored->entries[0].blindLabel, stored->entries[1].blindLabel};
        labels.sort();
        QCOMPARE(labels, (QStringList{"A", "B"}));
        QCOMPARE(stored->promptText, QStringLiteral("And God said"));
        // Runs of other prompts are not a replay pair.
        const auto [other, unused] = make(R"({"samplers":[{"type":"greedy"}]})", {1, 2, 3});
        Q_UNUSED(unused);
        QVERIFY(!saveReplayComparison(*database.value(), original, other).ok());
        QVERIFY(!saveReplayComparison(*database.value(), original, original).ok());
    }

    void commandLine() {
        QTemporaryDir dir;
        QFile prompts(dir.filePath("prompts.txt"));
        QVERIFY(prompts.open(QIODevice::WriteOnly));
        prompts.write("In the beginning\nAnd God said\n");
        prompts.close();
        const QStringList args{"sweep", "--x", "temperature.value=0.7,1.2", "--prompts", prompts.fileName(),
                               "--samples", "2", "--max-tokens", "6", "--db", dir.filePath("runs.db"), "--out",
                               dir.filePath("sweep.csv")};
        const test::ProcessResult run = test::runSwbProcess(args);
        QVERIFY2(run.status == 0, run.err.constData());
        QVERIFY2(run.err.contains("8 runs: 8 generated, 0 found"), run.err.constData());
        QFile csv(dir.filePath("sweep.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines.at(0).startsWith("temperature.value,y,runs,"));
        QVERIFY(lines.at(1).startsWith("0.7,,4,"));
        const test::ProcessResult again = test::runSwbProcess(args);
        QCOMPARE(again.status, 0);
        QVERIFY2(again.err.contains("8 runs: 0 generated, 8 found"), again.err.constData());

        // Bad input: exit 2 and one sentence.
        const test::ProcessResult bad = test::runSwbProcess(
            {"sweep", "--x", "top_p.p=2", "--prompts", prompts.fileName(), "--db", dir.filePath("runs.db")});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.startsWith("swb: sweep axis top_p.p: 2 is outside (0, 1]"), bad.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestAnalysis)
#include "tst_analysis.moc"
