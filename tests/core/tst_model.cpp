// The decoder against independent expectations: a double-precision reference forward pass written in
// the test (CheckpointWriters.h), agreement of one set of weights across llama2.c, GGUF and Hugging Face
// files (the latter with transformers' Q/K permutation), and llama2.c's run.c output for the real
// stories260K model.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include "CheckpointWriters.h"
#include "TestSupport.h"
#include "model/Model.h"

using namespace swb;
using namespace swb::test;

namespace {

// SWB_TEST_DEVICE=cuda runs every model check that names no device of its own on the GPU, against the same
// float64 references (packaging/cuda-check.sh).
std::unique_ptr<Model> loadModel(const QString& path, ModelOptions options = {}) {
    if (options.device == QLatin1String("cpu") && qEnvironmentVariableIsSet("SWB_TEST_DEVICE"))
        options.device = qEnvironmentVariable("SWB_TEST_DEVICE");
    auto model = Model::load(path, options);
    if (!model) {
        qWarning("%s", qPrintable(model.error().message));
        return nullptr;
    }
    return std::move(model.value());
}

std::vector<float> allLogits(Model& model, const std::vector<TokenId>& tokens) {
    auto state = model.newState();
    auto logits = model.forward(*state, tokens, true);
    return logits ? logits.value() : std::vector<float>();
}

template <typename A, typename B> double maxAbsDiff(const A& a, const B& b) {
    if (a.size() != b.size())
        return INFINITY;
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        worst = std::max(worst, std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
    return worst;
}

template <typename T> int argmax(const T* row, int n) {
    return static_cast<int>(std::max_element(row, row + n) - row);
}

// Greedy decoding through prefill + one decode step per token.
std::vector<TokenId> greedy(Model& model, const std::vector<TokenId>& prompt, int steps) {
    auto state = model.newState();
    const int vocab = model.info().vocabSize;
    auto logits = model.forward(*state, prompt);
    std::vector<TokenId> out;
    for (int i = 0; i < steps && logits; ++i) {
        const TokenId next = argmax(logits->data(), vocab);
        out.push_back(next);
        logits = model.forward(*state, std::vector<TokenId>{next});
    }
    return out;
}

// Greedy decoding with the reference, recomputing the whole sequence each step.
template <typename W, typename F>
std::vector<TokenId> referenceGreedy(const W& weights, F reference, std::vector<int> tokens, int vocab, int steps) {
    std::vector<TokenId> out;
    for (int i = 0; i < steps; ++i) {
        const std::vector<double> logits = reference(weights, tokens);
        const TokenId next = argmax(logits.data() + logits.size() - static_cast<std::size_t>(vocab), vocab);
        out.push_back(next);
        tokens.push_back(next);
    }
    return out;
}

const std::vector<TokenId> kPrompt = {1, 7, 3, 30, 12};

} // namespace

class TestModel : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The cross-format check: llama2.c (legacy, untied), GGUF F32 and a Hugging Face folder
    // (permuted Q/K) of the same weights give the same logits and the same 32 greedy tokens, and all
    // match the reference.
    void llamaFormatsAgree() {
        LlamaWeights w = randomLlama(LlamaShape{}, 42);
        QVERIFY(writeBytes(path("cross.bin"), llama2cBytes(w, 0)));
        QVERIFY(ggufLlama(w).write(path("cross.gguf")));
        QVERIFY(writeHfLlama(path("cross-hf"), w));
        std::vector<int> promptInts(kPrompt.begin(), kPrompt.end());
        const std::vector<double> reference = referenceLlama(w, promptInts);
        const std::vector<TokenId> referenceTokens = referenceGreedy(w, referenceLlama, promptInts, w.shape.vocab, 32);

        std::vector<std::vector<float>> logits;
        std::vector<std::vector<TokenId>> tokens;
        for (const QString& file : {path("cross.bin"), path("cross.gguf"), path("cross-hf")}) {
            auto model = loadModel(file);
            QVERIFY2(model, qPrintable(file));
            logits.push_back(allLogits(*model, kPrompt));
            QVERIFY2(maxAbsDiff(logits.back(), reference) <= 1e-4, qPrintable(file));
            tokens.push_back(greedy(*model, kPrompt, 32));
            QCOMPARE(tokens.back().size(), std::size_t(32));
        }
        QCOMPARE(model(path("cross.bin"))->info().format, QStringLiteral("llama2c"));
        QVERIFY(maxAbsDiff(logits[0], logits[1]) <= 1e-4);
        QVERIFY(maxAbsDiff(logits[0], logits[2]) <= 1e-4);
        QCOMPARE(tokens[0], tokens[1]);
        QCOMPARE(tokens[0], tokens[2]);
        QCOMPARE(tokens[0], referenceTokens);
    }

    // Each row: a variant of the Llama family or of its files, checked against the reference.
    void llamaVariantsMatchReference_data() {
        QTest::addColumn<QString>("variant");
        for (const char* v :
             {"llama2c-v1-tied", "llama2c-v2-q8", "hf-sharded", "hf-bf16-file", "hf-mistral-gqa1", "hf-qwen2-bias-tied",
              "gguf-qwen2-bias-tied", "gguf-tied", "hf-llama3-scaling", "gguf-llama3-rope-freqs", "hf-theta-500000",
              "hf-rope-parameters-llama3-500000", "hf-rope-parameters-500000", "hf-rope-parameters-llama3-null-scaling",
              "gguf-q8_0-mixed", "gguf-v2", "gguf-alignment-64"})
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void llamaVariantsMatchReference() {
        QFETCH(QString, variant);
        LlamaShape shape;
        if (variant.contains(QLatin1String("tied")))
            shape.tied = true;
        if (variant.contains(QLatin1String("bias")))
            shape.qkvBias = true;
        if (variant.contains(QLatin1String("gqa1")))
            shape.kvHeads = 1;
        if (variant.contains(QLatin1String("llama3")))
            shape.llama3Scaling = true;
        if (variant.contains(QLatin1String("500000")))
            shape.ropeTheta = 500000.0;
        if (variant.contains(QLatin1String("rope-parameters")))
            shape.ropeParameters = true;
        LlamaWeights w = randomLlama(shape, 7);
        const QString file = path(variant);
        if (variant == QLatin1String("llama2c-v1-tied")) {
            QVERIFY(writeBytes(file, llama2cBytes(w, 1)));
        } else if (variant == QLatin1String("llama2c-v2-q8")) {
            QVERIFY(writeBytes(file, llama2cQ8Bytes(w, 16))); // w now holds the dequantized values
        } else if (variant == QLatin1String("hf-sharded")) {
            QVERIFY(writeHfLlama(file, w, QStringLiteral("llama"), QStringLiteral("F32"), 2));
        } else if (variant == QLatin1String("hf-bf16-file")) {
            QVERIFY(writeHfLlama(file, w, QStringLiteral("llama"), QStringLiteral("BF16")));
            // The reference sees what the file holds: every weight rounded to bfloat16.
            const auto round = [](Floats& v) {
                for (float& x : v)
                    x = fromBfloat16(toBfloat16(x));
            };
            round(w.embed);
            round(w.output);
            round(w.norm);
            for (LlamaLayer& L : w.layers)
                for (Floats* v : {&L.attnNorm, &L.wq, &L.wk, &L.wv, &L.wo, &L.ffnNorm, &L.w1, &L.w2, &L.w3})
                    round(*v);
        } else if (variant.startsWith(QLatin1String("hf-qwen2"))) {
            QVERIFY(writeHfLlama(file, w, QStringLiteral("qwen2")));
        } else if (variant.startsWith(QLatin1String("hf-mistral"))) {
            QVERIFY(writeHfLlama(file, w, QStringLiteral("mistral")));
        } else if (variant.endsWith(QLatin1String("null-scaling"))) {
            // "rope_scaling": null beside rope_parameters (as some configs carry both): the scaling is
            // rope_parameters'.
            QVERIFY(writeHfLlama(file, w));
            QFile config(QDir(file).filePath(QStringLiteral("config.json")));
            QVERIFY(config.open(QIODevice::ReadOnly));
            QJsonObject json = QJsonDocument::fromJson(config.readAll()).object();
            config.close();
            json.insert(QStringLiteral("rope_scaling"), QJsonValue(QJsonValue::Null));
            QVERIFY(config.open(QIODevice::WriteOnly | QIODevice::Truncate));
            config.write(QJsonDocument(json).toJson());
            config.close();
        } else if (variant.startsWith(QLatin1String("hf-"))) {
            QVERIFY(writeHfLlama(file, w));
        } else if (variant == QLatin1String("gguf-q8_0-mixed")) {
            QVERIFY(ggufLlama(w, "llama", &w).write(file)); // w now holds the dequantized values
        } else if (variant == QLatin1String("gguf-v2") || variant == QLatin1String("gguf-alignment-64")) {
            GgufWriter g = ggufLlama(w);
            if (variant == QLatin1String("gguf-v2"))
                g.setVersion(2);
            else
                g.setAlignment(64);
            QVERIFY(g.write(file));
        } else if (variant == QLatin1String("gguf-qwen2-bias-tied")) {
            QVERIFY(ggufLlama(w, "qwen2").write(file));
        } else {
            QVERIFY(ggufLlama(w).write(file));
        }
        auto model = loadModel(file);
        QVERIFY(model);
        const std::vector<double> reference = referenceLlama(w, std::vector<int>(kPrompt.begin(), kPrompt.end()));
        const double diff = maxAbsDiff(allLogits(*model, kPrompt), reference);
        QVERIFY2(diff <= 1e-4, qPrintable(QStringLiteral("max abs diff %1").arg(diff)));
    }

    void gpt2MatchesReference_data() {
        QTest::addColumn<QString>("variant");
        QTest::newRow("hf") << QStringLiteral("hf");
        QTest::newRow("hf transformer. prefix") << QStringLiteral("hf-prefixed");
        QTest::newRow("gguf") << QStringLiteral("gguf");
    }
    void gpt2MatchesReference() {
        QFETCH(QString, variant);
        const Gpt2Weights w = randomGpt2(Gpt2Shape{}, 11);
        const QString file = path(QStringLiteral("gpt2-") + variant);
        if (variant == QLatin1String("gguf"))
            QVERIFY(ggufGpt2(w).write(file));
        else
            QVERIFY(writeHfGpt2(file, w, variant == QLatin1String("hf-prefixed") ? "transformer." : ""));
        auto model = loadModel(file);
        QVERIFY(model);
        QCOMPARE(model->info().architecture, QStringLiteral("gpt2"));
        const std::vector<int> prompt = {3, 14, 15, 9, 2, 6};
        const std::vector<double> reference = referenceGpt2(w, prompt);
        const double diff =
            maxAbsDiff(allLogits(*model, std::vector<TokenId>(prompt.begin(), prompt.end())), reference);
        QVERIFY2(diff <= 1e-4, qPrintable(QStringLiteral("max abs diff %1").arg(diff)));
        QCOMPARE(greedy(*model, std::vector<TokenId>(prompt.begin(), prompt.end()), 20),
                 referenceGreedy(w, referenceGpt2, prompt, w.shape.vocab, 20));
    }

    // The KV cache: logits of one-token decode steps equal those of a single prefill.
    void decodeStepsMatchPrefill() {
        const LlamaWeights w = randomLlama(LlamaShape{}, 5);
        QVERIFY(writeBytes(path("steps.bin"), llama2cBytes(w, 1)));
        auto model = loadModel(path("steps.bin"));
        QVERIFY(model);
        const std::vector<float> prefill = allLogits(*model, kPrompt);
        auto state = model->newState();
        std::vector<float> stepwise;
        for (const TokenId t : kPrompt) {
            auto logits = model->forward(*state, std::vector<TokenId>{t});
            QVERIFY(logits);
            stepwise.insert(stepwise.end(), logits->begin(), logits->end());
        }
        QCOMPARE(Model::length(*state), static_cast<int>(kPrompt.size()));
        QVERIFY(maxAbsDiff(prefill, stepwise) <= 1e-5);
        // Without allPositions only the last row comes back.
        auto last = model->forward(*model->newState(), kPrompt);
        QVERIFY(last);
        QCOMPARE(last->size(), std::size_t(w.shape.vocab));
        QVERIFY(maxAbsDiff(*last, std::vector<float>(prefill.end() - w.shape.vocab, prefill.end())) <= 1e-5);
    }

    // A batch of sequences at different positions (or at one), each with its own cache, equals running them
    // apart: attending one sequence after another (the CPU's way) or all at once over the caches stacked
    // and masked (a GPU's way; SWB_FEWER_KERNELS turns it on here).
    void batchMatchesSeparateSequences_data() {
        QTest::addColumn<bool>("stacked");
        QTest::addColumn<bool>("sameLength");
        QTest::newRow("one by one") << false << false;
        QTest::newRow("stacked, different lengths") << true << false;
        QTest::newRow("stacked, one length") << true << true;
    }
    void batchMatchesSeparateSequences() {
        QFETCH(bool, stacked);
        QFETCH(bool, sameLength);
        const LlamaWeights w = randomLlama(LlamaShape{}, 9);
        QVERIFY(writeHfLlama(path("batch-hf"), w));
        if (stacked)
            qputenv("SWB_FEWER_KERNELS", "1");
        auto model = loadModel(path("batch-hf"));
        qunsetenv("SWB_FEWER_KERNELS");
        QVERIFY(model);
        const std::vector<std::vector<TokenId>> prompts =
            sameLength ? std::vector<std::vector<TokenId>>{{1, 2, 3}, {4, 5, 6}, {11, 12, 13}}
                       : std::vector<std::vector<TokenId>>{{1, 2, 3}, {4, 5, 6, 7, 8, 9, 10}, {11}};
        const std::vector<TokenId> next = {20, 21, 22};
        std::vector<std::unique_ptr<Model::State>> states;
        std::vector<float> expected;
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            states.push_back(model->newState());
            QVERIFY(model->forward(*states.back(), prompts[i]));
            auto separate = model->newState();
            std::vector<TokenId> sequence = prompts[i];
            sequence.push_back(next[i]);
            auto logits = model->forward(*separate, sequence);
            QVERIFY(logits);
            expected.insert(expected.end(), logits->begin(), logits->end());
        }
        std::vector<Model::State*> pointers;
        for (auto& s : states)
            pointers.push_back(s.get());
        auto batched = model->forwardBatch(pointers, next);
        QVERIFY(batched);
        QVERIFY2(maxAbsDiff(*batched, expected) <= 1e-5, qPrintable(QString::number(maxAbsDiff(*batched, expected))));
        QCOMPARE(Model::length(*states[1]), sameLength ? 4 : 8);
        // The next step reads the caches the batched step wrote: still the same as apart.
        auto again = model->forwardBatch(pointers, next);
        QVERIFY(again);
        for (std::size_t i = 0; i < prompts.size(); ++i) {
            std::vector<TokenId> sequence = prompts[i];
            sequence.push_back(next[i]);
            sequence.push_back(next[i]);
            auto logits = model->forward(*model->newState(), sequence);
            QVERIFY(logits);
            const std::vector<float> row(again->begin() + static_cast<std::ptrdiff_t>(i * logits->size()),
                                         again->begin() + static_cast<std::ptrdiff_t>((i + 1) * logits->size()));
            QVERIFY(maxAbsDiff(row, *logits) <= 1e-5);
        }
        // Up to kRowsPerGemv rows go through matrix-vector products, more through one matrix product.
        auto two = model->forwardBatch(std::span<Model::State* const>(pointers.data(), 2), std::vector<TokenId>{5, 6});
        QVERIFY(two);
    }

    // A GPU's fewer kernels (q, k, v and gate, up as one matrix each; RoPE on q and k at once) on the libtorch
    // path, here in bf16 on the CPU: the same logits as the separate products, with and without q/k/v biases.
    void fewerKernelsKeepTheLogits_data() {
        QTest::addColumn<QString>("modelType");
        QTest::newRow("llama") << QStringLiteral("llama");
        QTest::newRow("qwen2 (biases)") << QStringLiteral("qwen2");
    }
    void fewerKernelsKeepTheLogits() {
        QFETCH(QString, modelType);
        LlamaShape shape;
        shape.qkvBias = modelType == QLatin1String("qwen2");
        const LlamaWeights w = randomLlama(shape, 12);
        const QString file = path("fewer-" + modelType);
        QVERIFY(writeHfLlama(file, w, modelType));
        ModelOptions bf16;
        bf16.dtype = QStringLiteral("bf16");
        auto separate = loadModel(file, bf16);
        qputenv("SWB_FEWER_KERNELS", "1");
        auto fewer = loadModel(file, bf16);
        qunsetenv("SWB_FEWER_KERNELS");
        QVERIFY(separate && fewer);
        const std::vector<float> a = allLogits(*separate, kPrompt);
        const std::vector<float> b = allLogits(*fewer, kPrompt);
        QCOMPARE(a.size(), b.size());
        // The same bf16 products in other kernels: agreement to bf16's rounding, far below what a misplaced
        // slice would change (logits of order 1).
        QVERIFY2(maxAbsDiff(a, b) <= 0.02, qPrintable(QString::number(maxAbsDiff(a, b))));
        const std::vector<double> reference = referenceLlama(w, std::vector<int>(kPrompt.begin(), kPrompt.end()));
        QVERIFY2(maxAbsDiff(b, reference) <= 0.15, qPrintable(QString::number(maxAbsDiff(b, reference))));
    }

    // Continuous batching: in one pass, some sequences read a whole prompt (joining) while others read one
    // token (decoding); each gets its own last-position logits, as if run apart.
    void mixedPassMatchesSeparateSequences() {
        const LlamaWeights w = randomLlama(LlamaShape{}, 10);
        QVERIFY(writeHfLlama(path("mixed-hf"), w));
        auto model = loadModel(path("mixed-hf"));
        QVERIFY(model);
        auto decoding = model->newState();
        QVERIFY(model->forward(*decoding, std::vector<TokenId>{1, 2, 3}));
        auto joiningA = model->newState();
        auto joiningB = model->newState();
        const std::vector<std::vector<TokenId>> reads = {{30}, {4, 5, 6, 7, 8}, {9, 10}};
        std::vector<Model::State*> states = {decoding.get(), joiningA.get(), joiningB.get()};
        auto mixed = model->forwardMany(states, reads);
        QVERIFY(mixed);
        QCOMPARE(mixed->size(), std::size_t(3 * w.shape.vocab));
        std::vector<float> expected;
        for (const std::vector<TokenId>& sequence : {std::vector<TokenId>{1, 2, 3, 30}, reads[1], reads[2]}) {
            auto logits = model->forward(*model->newState(), sequence);
            QVERIFY(logits);
            expected.insert(expected.end(), logits->begin(), logits->end());
        }
        QVERIFY(maxAbsDiff(*mixed, expected) <= 1e-5);
        QCOMPARE(Model::length(*joiningA), 5);
        QCOMPARE(Model::length(*decoding), 4);
    }

    // rewind() and cloneState(): replaying from a shorter cache gives the same logits.
    void rewindAndCloneReplayExactly() {
        const LlamaWeights w = randomLlama(LlamaShape{}, 13);
        QVERIFY(writeBytes(path("rewind.bin"), llama2cBytes(w, 1)));
        auto model = loadModel(path("rewind.bin"));
        QVERIFY(model);
        auto state = model->newState();
        QVERIFY(model->forward(*state, kPrompt));
        auto copy = model->cloneState(*state);
        auto first = model->forward(*state, std::vector<TokenId>{40, 41});
        QVERIFY(first);
        Model::rewind(*state, static_cast<int>(kPrompt.size()));
        QCOMPARE(Model::length(*state), static_cast<int>(kPrompt.size()));
        auto again = model->forward(*state, std::vector<TokenId>{40, 41});
        auto fromCopy = model->forward(*copy, std::vector<TokenId>{40, 41});
        QVERIFY(again && fromCopy);
        QVERIFY(maxAbsDiff(*first, *again) <= 1e-6);
        QVERIFY(maxAbsDiff(*first, *fromCopy) <= 1e-6);
    }

    // Growing the cache past its first allocation (128 positions) keeps what is cached.
    void cacheGrowsWithoutLosingPositions() {
        LlamaShape shape;
        shape.context = 300;
        const LlamaWeights w = randomLlama(shape, 17);
        QVERIFY(writeBytes(path("long.bin"), llama2cBytes(w, 1)));
        auto model = loadModel(path("long.bin"));
        QVERIFY(model);
        std::vector<TokenId> tokens;
        for (int i = 0; i < 200; ++i)
            tokens.push_back((i * 7 + 3) % shape.vocab);
        auto state = model->newState();
        auto head = model->forward(*state, std::span<const TokenId>(tokens.data(), 120));
        QVERIFY(head);
        auto tail = model->forward(*state, std::span<const TokenId>(tokens.data() + 120, 80));
        QVERIFY(tail);
        auto whole = model->forward(*model->newState(), tokens);
        QVERIFY(whole);
        QVERIFY(maxAbsDiff(*tail, *whole) <= 1e-4);
    }

    void contextLimitIsAClearError() {
        const LlamaWeights w = randomLlama(LlamaShape{}, 3);
        QVERIFY(writeBytes(path("limit.bin"), llama2cBytes(w, 1)));
        auto model = loadModel(path("limit.bin"));
        QVERIFY(model);
        auto state = model->newState();
        QVERIFY(model->forward(*state, std::vector<TokenId>(60, 5)));
        auto over = model->forward(*state, std::vector<TokenId>(5, 5));
        QVERIFY(!over);
        QCOMPARE(over.error().kind, ErrorKind::BadInput);
        QVERIFY2(over.error().message.contains(QLatin1String("context length of 64")),
                 qPrintable(over.error().message));
        QCOMPARE(Model::length(*state), 60); // unchanged by the failed call
        QVERIFY(model->forward(*state, std::vector<TokenId>(4, 5)));
        QVERIFY(!model->forward(*state, std::vector<TokenId>{5}));
        auto badToken = model->forward(*model->newState(), std::vector<TokenId>{w.shape.vocab});
        QVERIFY(!badToken);
        QVERIFY(badToken.error().message.contains(QLatin1String("vocabulary")));
    }

    void computeDtypesAndDevices() {
        const LlamaWeights w = randomLlama(LlamaShape{}, 21);
        QVERIFY(writeHfLlama(path("dtype-hf"), w));
        auto f32 = loadModel(path("dtype-hf"));
        ModelOptions bf16Options;
        bf16Options.dtype = QStringLiteral("bf16");
        auto bf16 = loadModel(path("dtype-hf"), bf16Options);
        QVERIFY(f32 && bf16);
        QCOMPARE(bf16->info().computeDtype, QStringLiteral("bf16"));
        const std::vector<float> a = allLogits(*f32, kPrompt);
        const std::vector<float> b = allLogits(*bf16, kPrompt);
        QCOMPARE(a.size(), b.size());
        // bfloat16 keeps 8 bits of mantissa: logits of order 1 agree to a few hundredths.
        QVERIFY2(maxAbsDiff(a, b) < 0.15, qPrintable(QString::number(maxAbsDiff(a, b))));

        ModelOptions f16Options;
        f16Options.dtype = QStringLiteral("f16");
        auto f16 = loadModel(path("dtype-hf"), f16Options);
        QVERIFY(f16);
        if (f16->info().device == QLatin1String("cpu")) {
            QCOMPARE(f16->info().computeDtype, QStringLiteral("f32"));
            QVERIFY(!f16->warnings().isEmpty());
        }
        ModelOptions cuda;
        cuda.device = QStringLiteral("cuda");
        auto onCuda = loadModel(path("dtype-hf"), cuda);
        QVERIFY(onCuda);
        if (onCuda->info().device == QLatin1String("cpu"))
            QVERIFY(onCuda->warnings().join(' ').contains(QLatin1String("CUDA")));
        // Logits come back as float32 on the CPU whatever the device.
        QVERIFY(maxAbsDiff(allLogits(*onCuda, kPrompt), a) <= 1e-4);

        ModelOptions bad;
        bad.dtype = QStringLiteral("f8");
        auto failed = Model::load(path("dtype-hf"), bad);
        QVERIFY(!failed);
        QCOMPARE(failed.error().kind, ErrorKind::BadInput);
    }

    void infoDescribesTheModel() {
        LlamaShape shape;
        shape.tied = true;
        const LlamaWeights w = randomLlama(shape, 23);
        QVERIFY(writeBytes(path("info.bin"), llama2cBytes(w, 1)));
        auto model = loadModel(path("info.bin"));
        QVERIFY(model);
        const ModelInfo& info = model->info();
        QCOMPARE(info.format, QStringLiteral("llama2c"));
        QCOMPARE(info.architecture, QStringLiteral("llama"));
        QCOMPARE(info.layers, 2);
        QCOMPARE(info.heads, 4);
        QCOMPARE(info.kvHeads, 2);
        QCOMPARE(info.dim, 32);
        QCOMPARE(info.hiddenDim, 48);
        QCOMPARE(info.vocabSize, 64);
        QCOMPARE(info.contextLength, 64);
        // embed 64*32; per layer 2*32 norms + 32*32 q + 2*(16*32) k,v + 32*32 o + 3*48*32; final norm 32.
        const std::int64_t perLayer = 64 + 1024 + 1024 + 1024 + 3 * 1536;
        QCOMPARE(info.parameters, std::int64_t(2048 + 2 * perLayer + 32));
        QCOMPARE(info.fileBytes, QFileInfo(path("info.bin")).size());
        QCOMPARE(info.fileDtype, QStringLiteral("f32"));
        QCOMPARE(info.computeDtype, QStringLiteral("f32"));
        QCOMPARE(info.device, QStringLiteral("cpu"));
        QCOMPARE(info.bosTokenId, 1);
        // Tied: the classifier reads the whole embedding table, plus one embedding row for the input.
        QCOMPARE(info.weightBytesPerToken, (2 * perLayer + 32 + 2048 + 32) * 4);
        QCOMPARE(info.contentHash.size(), 64);
        auto inspected = Model::inspect(path("info.bin"));
        QVERIFY(inspected);
        QCOMPARE(inspected->contentHash, info.contentHash);
        QCOMPARE(inspected->parameters, info.parameters);
        // Another weight, another identity.
        LlamaWeights changed = w;
        changed.norm[0] += 1.0f;
        QVERIFY(writeBytes(path("info2.bin"), llama2cBytes(changed, 1)));
        auto other = Model::inspect(path("info2.bin"));
        QVERIFY(other);
        QVERIFY(other->contentHash != info.contentHash);
    }

    // The real stories260K checkpoint (legacy llama2.c file, GQA 8/4 heads) decoded greedily from BOS
    // gives the text llama2.c's run.c prints.
    void stories260KGreedyMatchesRunC() {
        SWB_REQUIRE_REFERENCE();
        const QString dir = referenceDir() + QStringLiteral("/stories260K/");
        auto model = loadModel(dir + QStringLiteral("stories260K.bin"));
        QVERIFY(model);
        QCOMPARE(model->info().vocabSize, 512);
        QCOMPARE(model->info().kvHeads, 4);

        // tok512.bin: int32 max_token_length, then per token: float32 score, int32 length, bytes.
        QFile tokFile(dir + QStringLiteral("tok512.bin"));
        QVERIFY(tokFile.open(QIODevice::ReadOnly));
        const QByteArray tok = tokFile.readAll();
        std::vector<QByteArray> vocab;
        qsizetype at = 4;
        while (at + 8 <= tok.size()) {
            std::int32_t length;
            std::memcpy(&length, tok.constData() + at + 4, 4);
            vocab.push_back(tok.mid(at + 8, length));
            at += 8 + length;
        }
        QCOMPARE(vocab.size(), std::size_t(512));

        QFile golden(dir + QStringLiteral("golden/greedy_bos_n200.txt"));
        QVERIFY(golden.open(QIODevice::ReadOnly));
        const QByteArray expected = golden.readAll();

        // run.c: start at BOS, greedy, stop when BOS comes back; the piece after BOS drops its leading
        // space and <0xNN> pieces stand for that byte.
        auto state = model->newState();
        TokenId token = 1;
        QByteArray text;
        for (int step = 0; step < 30; ++step) {
            auto logits = model->forward(*state, std::vector<TokenId>{token});
            QVERIFY(logits);
            const TokenId next = argmax(logits->data(), 512);
            if (next == 1)
                break;
            QByteArray piece = vocab[static_cast<std::size_t>(next)];
            if (token == 1 && piece.startsWith(' '))
                piece.remove(0, 1);
            if (piece.size() == 6 && piece.startsWith("<0x") && piece.endsWith('>'))
                piece = QByteArray(1, static_cast<char>(piece.mid(3, 2).toInt(nullptr, 16)));
            text += piece;
            token = next;
        }
        QVERIFY2(text.size() > 60, text.constData());
        QVERIFY2(expected.startsWith(text), text.constData());
    }

private:
    std::unique_ptr<Model> model(const QString& file) { return loadModel(file); }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"
