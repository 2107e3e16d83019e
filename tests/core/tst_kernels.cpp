// The weight kernels (core/model/kernels) against the tests' own reading of ggml's formats (QuantBlocks.h):
// hand-made blocks with known values; random rows decoded bit for bit as the reference decodes them; dot
// products against a float64 sum over the reference values; the AVX-512, AVX2 and portable paths and the
// batched form giving the same bits; and whole models in every type, whose probabilities stay within 1e-4
// of a float64 forward pass over the weights the file holds, for 48 greedy steps. The labelled fast path:
// activations rounded by hand, its products against the rounded activations, and whole models.

#include <algorithm>
#include <cmath>

#include <QTemporaryDir>
#include <QTest>

#include "CheckpointWriters.h"
#include "GgufWriter.h"
#include "QuantBlocks.h"
#include "TestSupport.h"
#include "model/Model.h"
#include "model/cuda/QuantDecode.h"
#include "model/kernels/WeightType.h"

using namespace swb;
using namespace swb::test;

namespace {

kernels::WeightType kernelType(const QuantType& t) {
    return *kernels::fromGgml(t.ggml);
}

std::vector<kernels::KernelPath> availablePaths() {
    std::vector<kernels::KernelPath> paths;
    for (kernels::KernelPath p :
         {kernels::KernelPath::Avx512, kernels::KernelPath::Avx2, kernels::KernelPath::Portable})
        if (kernels::setKernelPath(p) == p)
            paths.push_back(p);
    kernels::setKernelPath(kernels::KernelPath::Avx512);
    return paths;
}

// A Llama-shaped model whose every matrix is random blocks of one type; `reference` receives the values the
// file holds (decoded by QuantBlocks.h) for the float64 forward pass.
GgufWriter typedLlama(const QuantType& t, const LlamaShape& s, std::uint64_t seed, LlamaWeights& reference) {
    TestRandom rng(seed);
    reference = randomLlama(s, seed); // norms (and the shape); matrices replaced below
    GgufWriter g;
    g.addString("general.architecture", "llama");
    g.addUint32("llama.context_length", static_cast<std::uint32_t>(s.context));
    g.addUint32("llama.embedding_length", static_cast<std::uint32_t>(s.dim));
    g.addUint32("llama.block_count", static_cast<std::uint32_t>(s.layers));
    g.addUint32("llama.feed_forward_length", static_cast<std::uint32_t>(s.hidden));
    g.addUint32("llama.attention.head_count", static_cast<std::uint32_t>(s.heads));
    g.addUint32("llama.attention.head_count_kv", static_cast<std::uint32_t>(s.kvHeads));
    g.addFloat32("llama.attention.layer_norm_rms_epsilon", static_cast<float>(s.normEps));
    g.addFloat32("llama.rope.freq_base", static_cast<float>(s.ropeTheta));
    const auto matrix = [&](const std::string& name, Floats& values, int rows, int cols, float scale) {
        const QByteArray bytes = randomBlocks(t, static_cast<std::size_t>(rows) * cols, scale, rng);
        values = referenceValues(t, reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                                 static_cast<std::size_t>(rows) * cols);
        g.addTensorRaw(name, t.ggml, {cols, rows}, bytes);
    };
    const float in = 1.0f / std::sqrt(static_cast<float>(s.dim));
    // Small enough embeddings and classifier that the next-token distributions are spread (several nats),
    // so that a difference in probabilities would show.
    matrix("token_embd.weight", reference.embed, s.vocab, s.dim, s.tied ? 0.12f : 0.25f);
    for (int l = 0; l < s.layers; ++l) {
        LlamaLayer& L = reference.layers[static_cast<std::size_t>(l)];
        const std::string p = "blk." + std::to_string(l) + ".";
        g.addTensorF32(p + "attn_norm.weight", {s.dim}, L.attnNorm);
        matrix(p + "attn_q.weight", L.wq, s.dim, s.dim, 1.5f * in);
        matrix(p + "attn_k.weight", L.wk, s.kvDim(), s.dim, 1.5f * in);
        matrix(p + "attn_v.weight", L.wv, s.kvDim(), s.dim, in);
        matrix(p + "attn_output.weight", L.wo, s.dim, s.dim, in);
        g.addTensorF32(p + "ffn_norm.weight", {s.dim}, L.ffnNorm);
        matrix(p + "ffn_gate.weight", L.w1, s.hidden, s.dim, in);
        matrix(p + "ffn_down.weight", L.w2, s.dim, s.hidden, 1.0f / std::sqrt(static_cast<float>(s.hidden)));
        matrix(p + "ffn_up.weight", L.w3, s.hidden, s.dim, in);
    }
    g.addTensorF32("output_norm.weight", {s.dim}, reference.norm);
    if (!s.tied)
        matrix("output.weight", reference.output, s.vocab, s.dim, 3.0f * in);
    return g;
}

// The test models' shape: rows that every block type divides.
LlamaShape typedShape(bool tied) {
    LlamaShape shape;
    shape.dim = 256;
    shape.hidden = 512;
    shape.heads = 4;
    shape.kvHeads = 2;
    shape.layers = 2;
    shape.vocab = 96;
    shape.context = 64;
    shape.tied = tied;
    return shape;
}

// Logits of `steps` decode steps after the first `prompt` tokens (one token at a time, as generation
// does), following `tokens` where it goes on past the prompt, else greedy (appending the choices).
std::vector<std::vector<float>> decodeSteps(Model& model, std::vector<int>& tokens, std::size_t prompt, int steps) {
    auto state = model.newState();
    Result<std::vector<float>> logits = model.forward(
        *state, std::vector<TokenId>(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(prompt)));
    std::vector<std::vector<float>> out;
    for (int step = 0; step < steps && logits; ++step) {
        out.push_back(logits.value());
        const std::size_t at = prompt + static_cast<std::size_t>(step);
        if (tokens.size() <= at)
            tokens.push_back(static_cast<int>(std::max_element(logits->begin(), logits->end()) - logits->begin()));
        logits = model.forward(*state, std::vector<TokenId>{tokens[at]});
    }
    return out;
}

std::vector<double> softmax(const double* logits, int n) {
    const double top = *std::max_element(logits, logits + n);
    std::vector<double> p(static_cast<std::size_t>(n));
    double total = 0;
    for (int i = 0; i < n; ++i)
        total += p[static_cast<std::size_t>(i)] = std::exp(logits[i] - top);
    for (double& v : p)
        v /= total;
    return p;
}

// typedLlama written as model.gguf in `dir` (seed 11); empty when it cannot be written.
QString writeTypedModel(const QTemporaryDir& dir, const QuantType& t, const LlamaShape& shape, LlamaWeights& reference) {
    const QString path = dir.filePath(QStringLiteral("model.gguf"));
    return typedLlama(t, shape, 11, reference).write(path) ? path : QString();
}

// The largest |Δp| between our logits for each decode step and the float64 reference's logits at the same
// positions (after the prompt); `entropy`, when given, gets the reference's mean entropy over the steps.
double largestDifference(const std::vector<double>& exact, const std::vector<std::vector<float>>& ours,
                         std::size_t prompt, int vocab, double* entropy = nullptr) {
    double worst = 0, nats = 0;
    for (std::size_t step = 0; step < ours.size(); ++step) {
        const std::size_t position = prompt - 1 + step; // logits after the prompt
        const std::vector<double> p = softmax(exact.data() + position * static_cast<std::size_t>(vocab), vocab);
        for (const double v : p)
            nats -= v > 0 ? v * std::log(v) / static_cast<double>(ours.size()) : 0.0;
        const std::vector<double> mine(ours[step].begin(), ours[step].end());
        const std::vector<double> q = softmax(mine.data(), vocab);
        for (std::size_t i = 0; i < p.size(); ++i)
            worst = std::max(worst, std::fabs(p[i] - q[i]));
    }
    if (entropy)
        *entropy = nats;
    return worst;
}

} // namespace

class TestKernels : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { kernels::setKernelPath(kernels::KernelPath::Avx512); }

    // Hand-made blocks whose values are worked out in the comments from ggml's formulas.
    void cudaKernelArithmeticMatchesTheCpuKernels_data() {
        QTest::addColumn<QString>("type");
        QTest::newRow("q8_0") << QStringLiteral("q8_0");
        QTest::newRow("q4_k") << QStringLiteral("q4_k");
    }

    // What the CUDA kernels compute (model/cuda/QuantDecode.h, compiled here for the host): every weight the
    // CPU kernels' bits, and each row's product, summed as a warp sums it, within 1e-5 of the CPU kernels'
    // exact product relative to the sum of |w·x| (the scale the rounding of either order is bounded by).
    void cudaKernelArithmeticMatchesTheCpuKernels() {
        QFETCH(QString, type);
        const QuantType& t = quantType(type.toStdString());
        const kernels::WeightTraits& cpu = kernels::traits(kernelType(t));
        TestRandom rng(23);
        constexpr std::int64_t columns = 1024, rows = 48;
        const QByteArray bytes = randomBlocks(t, static_cast<std::size_t>(rows * columns), 0.05f, rng);
        const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.constData());
        const std::size_t rowBytes = kernels::rowBytes(kernelType(t), columns);
        const std::vector<float> x = rng.vector(columns, 1.0f);
        std::vector<float> sums(columns / 16), decoded(columns);
        kernels::groupSums16(x.data(), columns, sums.data());
        const auto weight = [&](const std::uint8_t* row, std::int64_t i) {
            return type == QLatin1String("q8_0") ? cuda::Q8_0Blocks::weight(row, i) : cuda::Q4_KBlocks::weight(row, i);
        };
        for (std::int64_t r = 0; r < rows; ++r) {
            const std::uint8_t* row = data + static_cast<std::size_t>(r) * rowBytes;
            cpu.toFloat(row, decoded.data(), columns);
            double magnitude = 0;
            for (std::int64_t i = 0; i < columns; ++i) {
                const float w = weight(row, i);
                QVERIFY2(std::memcmp(&w, &decoded[i], 4) == 0, qPrintable(QStringLiteral("row %1, weight %2: %3 "
                                                                                         "against %4")
                                                                              .arg(r)
                                                                              .arg(i)
                                                                              .arg(w)
                                                                              .arg(decoded[i])));
                magnitude += std::fabs(static_cast<double>(w) * x[i]);
            }
            const float gpu = type == QLatin1String("q8_0")
                                  ? cuda::warpRowDot<cuda::Q8_0Blocks>(row, x.data(), columns)
                                  : cuda::warpRowDot<cuda::Q4_KBlocks>(row, x.data(), columns);
            const float exact = cpu.dot(row, x.data(), sums.data(), columns);
            QVERIFY2(std::fabs(gpu - exact) <= 1e-5 * magnitude,
                     qPrintable(QStringLiteral("row %1: %2 against %3").arg(r).arg(gpu).arg(exact)));
        }
        // Half-precision scales at the edges: subnormal, negative, the largest finite.
        for (const std::uint16_t half : {0x0001, 0x03FF, 0x8400, 0x7BFF, 0x3C00}) {
            const std::uint8_t bytes2[2] = {static_cast<std::uint8_t>(half & 0xFF),
                                            static_cast<std::uint8_t>(half >> 8)};
            _Float16 h;
            std::memcpy(&h, bytes2, 2);
            QCOMPARE(cuda::halfToFloat(bytes2), static_cast<float>(h));
        }
    }

    void handMadeBlocks() {
        float y[256];
        // Q8_0: d = 0.5 (half 0x3800), quants -16, 0, 15 → -8, 0, 7.5.
        std::uint8_t q8[34] = {0x00, 0x38};
        q8[2] = static_cast<std::uint8_t>(-16);
        q8[2 + 31] = 15;
        kernels::traits(kernels::WeightType::Q8_0).toFloat(q8, y, 32);
        QCOMPARE(y[0], -8.0f);
        QCOMPARE(y[1], 0.0f);
        QCOMPARE(y[31], 7.5f);
        // Q4_1: d = 2, m = -1; byte 0 = 0xA3 → element 0 = 3·2 − 1 = 5, element 16 = 10·2 − 1 = 19.
        std::uint8_t q41[20] = {0x00, 0x40, 0x00, 0xBC, 0xA3};
        kernels::traits(kernels::WeightType::Q4_1).toFloat(q41, y, 32);
        QCOMPARE(y[0], 5.0f);
        QCOMPARE(y[16], 19.0f);
        QCOMPARE(y[1], -1.0f);
        // Q5_0: d = 1; qh bit 0 and bit 16 set; byte 0 = 0x21 → element 0 = (1|16) − 16 = 1, element 16 =
        // (2|16) − 16 = 2; element 1 = 0 − 16 = −16.
        std::uint8_t q50[22] = {0x00, 0x3C, 0x01, 0x00, 0x01, 0x00, 0x21};
        kernels::traits(kernels::WeightType::Q5_0).toFloat(q50, y, 32);
        QCOMPARE(y[0], 1.0f);
        QCOMPARE(y[16], 2.0f);
        QCOMPARE(y[1], -16.0f);
        // Q5_1: d = 1, m = 0.5; qh bit 1; byte 1 = 0x07 → element 1 = (7|16)·1 + 0.5 = 23.5.
        std::uint8_t q51[24] = {0x00, 0x3C, 0x00, 0x38, 0x02, 0x00, 0x00, 0x00, 0x00, 0x07};
        kernels::traits(kernels::WeightType::Q5_1).toFloat(q51, y, 32);
        QCOMPARE(y[1], 23.5f);
        QCOMPARE(y[0], 0.5f);
        // Q2_K: scales[0] = 0x32 (scale 2, min 3), d = 1, dmin = 0.5; qs[0] = 0b11100100 → elements 0, 32, 64,
        // 96 take its 2-bit fields 0, 1, 2, 3: 2·0 − 1.5, …; element 32 uses scales[2] = 0, element 64
        // scales[4] = 0x11 (1, 1), element 96 scales[6] = 0.
        std::uint8_t q2k[84] = {0x32, 0, 0, 0, 0x11};
        q2k[16] = 0xE4;
        q2k[80] = 0x00;
        q2k[81] = 0x3C;
        q2k[82] = 0x00;
        q2k[83] = 0x38;
        kernels::traits(kernels::WeightType::Q2_K).toFloat(q2k, y, 256);
        QCOMPARE(y[0], -1.5f);
        QCOMPARE(y[32], 0.0f);
        QCOMPARE(y[64], 1.0f * 2 - 0.5f);
        QCOMPARE(y[1], -1.5f);
        // Q3_K: d = 1; scale 0 from low nibble 3 of byte 96 and high bits 2 of byte 104: (3 | 32) − 32 = 3;
        // element 0: qs 0b01, hmask bit set → 1; element 1: qs 0, hmask clear → 0 − 4 = −4 times scale 3.
        std::uint8_t q3k[110] = {0x01};
        q3k[32] = 0x01;
        q3k[96] = 0x03;
        q3k[104] = 0x02;
        q3k[108] = 0x00;
        q3k[109] = 0x3C;
        kernels::traits(kernels::WeightType::Q3_K).toFloat(q3k, y, 256);
        QCOMPARE(y[0], 3.0f);
        QCOMPARE(y[1], -12.0f);
        // Q5_K: d = 1, dmin = 1, scale 0 = 2, min 0 = 1; qh[0] bit 0 and bit 1; qs[0] = 0x53 → element 0 =
        // 2·(3 + 16) − 1 = 37, element 32 (scale 1 = 0, min 1 = 0) = 0.
        std::uint8_t q5k[176] = {0x00, 0x3C, 0x00, 0x3C, 0x02, 0x00, 0x00, 0x00, 0x01};
        q5k[16] = 0x03;
        q5k[48] = 0x53;
        kernels::traits(kernels::WeightType::Q5_K).toFloat(q5k, y, 256);
        QCOMPARE(y[0], 37.0f);
        QCOMPARE(y[32], 0.0f);
        QCOMPARE(y[1], -1.0f);
        // BF16 and F16 rows.
        const std::uint8_t bf[4] = {0x80, 0x3F, 0xA0, 0xC0}; // 1, -5
        kernels::traits(kernels::WeightType::BF16).toFloat(bf, y, 2);
        QCOMPARE(y[0], 1.0f);
        QCOMPARE(y[1], -5.0f);
        const std::uint8_t f16[4] = {0x00, 0x3C, 0x01, 0x00}; // 1, smallest subnormal 2^-24
        kernels::traits(kernels::WeightType::F16).toFloat(f16, y, 2);
        QCOMPARE(y[0], 1.0f);
        QCOMPARE(y[1], std::ldexp(1.0f, -24));
    }

    void rowsMatchTheReference_data() {
        QTest::addColumn<QString>("type");
        for (const QuantType& t : quantTypes())
            QTest::newRow(t.name) << QString::fromLatin1(t.name);
    }
    // Random rows: decoded values bit for bit as the reference decodes them; dot products within float32
    // rounding of a float64 sum; every path and the batched form with the same bits.
    void rowsMatchTheReference() {
        QFETCH(QString, type);
        const QuantType& t = quantType(type.toStdString());
        TestRandom rng(7);
        const int columns = 1024 + (t.blockElements == 1 ? 13 : 0); // float rows also get a ragged tail
        const int rows = 6;
        const QByteArray bytes = randomBlocks(t, static_cast<std::size_t>(rows) * columns, 0.05f, rng);
        const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.constData());
        const kernels::WeightType kt = kernelType(t);
        const kernels::WeightTraits& traits = kernels::traits(kt);
        const std::size_t rowBytes = kernels::rowBytes(kt, columns);
        QCOMPARE(rowBytes * rows, static_cast<std::size_t>(bytes.size()));
        const Floats reference = referenceValues(t, data, static_cast<std::size_t>(rows) * columns);

        // Activations of mixed magnitude and sign, three rows for the batched form.
        Floats x(static_cast<std::size_t>(3 * columns));
        for (float& v : x)
            v = rng.uniform(2.0f) * (rng.next() % 5 == 0 ? 30.0f : 1.0f);
        std::vector<float> sums(static_cast<std::size_t>(3 * (columns / 16)));
        for (int r = 0; r < 3; ++r)
            kernels::groupSums16(x.data() + r * columns, columns, sums.data() + r * (columns / 16));

        std::vector<std::vector<float>> dotsByPath;
        for (kernels::KernelPath path : availablePaths()) {
            kernels::setKernelPath(path);
            std::vector<float> decoded(static_cast<std::size_t>(columns));
            std::vector<float> dots;
            for (int r = 0; r < rows; ++r) {
                const std::uint8_t* row = data + r * rowBytes;
                traits.toFloat(row, decoded.data(), columns);
                for (int i = 0; i < columns; ++i)
                    QCOMPARE(decoded[static_cast<std::size_t>(i)],
                             reference[static_cast<std::size_t>(r) * columns + static_cast<std::size_t>(i)]);
                float batch[3];
                traits.dotBatch(row, x.data(), sums.data(), columns, 3, columns, batch);
                for (int k = 0; k < 3; ++k) {
                    const float single =
                        traits.dot(row, x.data() + k * columns, sums.data() + k * (columns / 16), columns);
                    QCOMPARE(std::bit_cast<std::uint32_t>(batch[k]), std::bit_cast<std::uint32_t>(single));
                    double exact = 0, magnitude = 0;
                    for (int i = 0; i < columns; ++i) {
                        const double w = reference[static_cast<std::size_t>(r) * columns + static_cast<std::size_t>(i)];
                        exact += w * x[static_cast<std::size_t>(k * columns + i)];
                        magnitude += std::fabs(w * x[static_cast<std::size_t>(k * columns + i)]);
                    }
                    // float32 accumulation: a few ulps of the sum of magnitudes.
                    QVERIFY2(std::fabs(single - exact) <= 4e-6 * magnitude + 1e-30,
                             qPrintable(QStringLiteral("%1 path %2: dot %3, exact %4 (magnitude %5)")
                                            .arg(type, QLatin1String(kernels::kernelPathName(path)))
                                            .arg(single)
                                            .arg(exact)
                                            .arg(magnitude)));
                    dots.push_back(single);
                }
            }
            dotsByPath.push_back(dots);
        }
        for (std::size_t p = 1; p < dotsByPath.size(); ++p)
            for (std::size_t i = 0; i < dotsByPath[0].size(); ++i)
                QCOMPARE(std::bit_cast<std::uint32_t>(dotsByPath[p][i]),
                         std::bit_cast<std::uint32_t>(dotsByPath[0][i]));
        if (dotsByPath.size() < 3)
            qInfo("only %zu of the 3 kernel paths run on this CPU", dotsByPath.size());
    }

    // The fast path's rounding of activations, worked by hand: one block of 32 whose largest |x| is 2.54,
    // so d = 2.54 / 127 = 0.02 and q = round(x / 0.02); a block with a NaN or an infinity keeps it in its
    // scale; a block of tiny values (whose 1 / d would overflow) is rounded like any other.
    void fastPathRoundsActivationsAsLlamaCpp() {
        std::vector<float> x(128, 0.0f);
        x[0] = 2.54f;    // 127
        x[1] = -1.2f;    // -60
        x[2] = 0.013f;   // 0.65 -> 1
        x[3] = 0.031f;   // 1.55 -> 2
        x[4] = -0.047f;  // -2.35 -> -2
        x[5] = 0.0079f;  // 0.395 -> 0
        x[20] = -2.54f;  // -127
        x[40] = std::nanf("");
        x[41] = 5.0f;
        x[70] = -INFINITY; // a block with an infinity
        for (int i = 96; i < 128; ++i)
            x[static_cast<std::size_t>(i)] = i % 2 ? 1e-39f : -2.54e-39f; // tiny: 1 / d overflows float
        std::vector<std::int8_t> q(128);
        std::vector<float> d(4);
        std::vector<std::int16_t> sums(8);
        kernels::quantizeActivations(x.data(), 128, 32, q.data(), d.data(), sums.data());
        QVERIFY(std::fabs(d[0] - 0.02f) < 1e-7f);
        const std::vector<std::int8_t> expected = {127, -60, 1, 2, -2, 0};
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(q[i], expected[i]);
        QCOMPARE(q[20], std::int8_t(-127));
        QCOMPARE(sums[0], std::int16_t(127 - 60 + 1 + 2 - 2));
        QCOMPARE(sums[1], std::int16_t(-127));
        QVERIFY(std::isnan(d[1]));
        QCOMPARE(sums[2], std::int16_t(0));
        QVERIFY(std::isnan(d[2]));
        QCOMPARE(q[70], std::int8_t(0));
        // Tiny values keep their ratios: -2.54e-39 is the largest, 1e-39 is 1e-39 / 2e-41 = 50.
        QCOMPARE(q[96], std::int8_t(-127));
        QCOMPARE(q[97], std::int8_t(50));
    }

    void fastPathIsTheRoundedActivationsProduct_data() {
        QTest::addColumn<QString>("type");
        for (const QuantType& t : quantTypes())
            if (t.blockElements > 1)
                QTest::newRow(t.name) << QString::fromLatin1(t.name);
    }
    // The fast kernel is the product of the stored weights (the reference's values) with the activations
    // as rounded (q · d): within float32 rounding of that product in float64, the same bits on every path,
    // and (the point of the label) measurably away from the exact product.
    void fastPathIsTheRoundedActivationsProduct() {
        QFETCH(QString, type);
        const QuantType& t = quantType(type.toStdString());
        TestRandom rng(19);
        const int columns = 1024;
        const int rows = 6;
        const QByteArray bytes = randomBlocks(t, static_cast<std::size_t>(rows) * columns, 0.05f, rng);
        const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.constData());
        const kernels::WeightTraits& traits = kernels::traits(kernelType(t));
        QVERIFY(traits.dotFast);
        const std::size_t rowBytes = kernels::rowBytes(kernelType(t), columns);
        const Floats reference = referenceValues(t, data, static_cast<std::size_t>(rows) * columns);
        Floats x(static_cast<std::size_t>(columns));
        for (float& v : x)
            v = rng.uniform(2.0f) * (rng.next() % 5 == 0 ? 30.0f : 1.0f);
        const int block = t.blockElements;
        std::vector<std::int8_t> xq(static_cast<std::size_t>(columns));
        std::vector<float> xd(static_cast<std::size_t>(columns / block));
        std::vector<std::int16_t> sums(static_cast<std::size_t>(columns / 16));
        kernels::quantizeActivations(x.data(), columns, block, xq.data(), xd.data(), sums.data());
        std::vector<float> exactSums(static_cast<std::size_t>(columns / 16));
        kernels::groupSums16(x.data(), columns, exactSums.data());

        std::vector<std::vector<float>> byPath;
        double largestShift = 0;
        for (kernels::KernelPath path : availablePaths()) {
            kernels::setKernelPath(path);
            std::vector<float> dots;
            for (int r = 0; r < rows; ++r) {
                const std::uint8_t* row = data + r * rowBytes;
                const float fast = traits.dotFast(row, xq.data(), xd.data(), sums.data(), columns);
                double rounded = 0, magnitude = 0, exact = 0;
                for (int i = 0; i < columns; ++i) {
                    const double w = reference[static_cast<std::size_t>(r) * columns + static_cast<std::size_t>(i)];
                    const double v = static_cast<double>(xq[static_cast<std::size_t>(i)]) *
                                     xd[static_cast<std::size_t>(i / block)];
                    rounded += w * v;
                    magnitude += std::fabs(w * v);
                    exact += w * x[static_cast<std::size_t>(i)];
                }
                QVERIFY2(std::fabs(fast - rounded) <= 4e-6 * magnitude + 1e-30,
                         qPrintable(QStringLiteral("%1 path %2: fast %3, rounded product %4 (magnitude %5)")
                                        .arg(type, QLatin1String(kernels::kernelPathName(path)))
                                        .arg(fast)
                                        .arg(rounded)
                                        .arg(magnitude)));
                largestShift = std::max(largestShift, std::fabs(rounded - exact) / magnitude);
                dots.push_back(fast);
            }
            byPath.push_back(dots);
        }
        for (std::size_t p = 1; p < byPath.size(); ++p)
            for (std::size_t i = 0; i < byPath[0].size(); ++i)
                QCOMPARE(std::bit_cast<std::uint32_t>(byPath[p][i]), std::bit_cast<std::uint32_t>(byPath[0][i]));
        QVERIFY2(largestShift > 1e-5, "the rounding of the activations should show against the exact product");
    }

    void fastBatchIsEachRowAlone_data() { fastPathIsTheRoundedActivationsProduct_data(); }
    // The batched fast kernel (several activation rows against one unpacked weight row) gives each row the
    // bits dotFast gives it alone, for every count a batch of four leaves over, on every path (the AVX-512
    // path sums 64 quants an instruction, the AVX2 path 32: the same integers).
    void fastBatchIsEachRowAlone() {
        QFETCH(QString, type);
        const QuantType& t = quantType(type.toStdString());
        TestRandom rng(23);
        const int columns = 512;
        const int weightRows = 3;
        const int activationRows = 11;
        const QByteArray bytes = randomBlocks(t, static_cast<std::size_t>(weightRows) * columns, 0.05f, rng);
        const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.constData());
        const kernels::WeightTraits& traits = kernels::traits(kernelType(t));
        QVERIFY(traits.dotFastBatch);
        const std::size_t rowBytes = kernels::rowBytes(kernelType(t), columns);
        const int block = t.blockElements;
        std::vector<std::int8_t> xq(static_cast<std::size_t>(activationRows * columns));
        std::vector<float> xd(static_cast<std::size_t>(activationRows * (columns / block)));
        std::vector<std::int16_t> sums(static_cast<std::size_t>(activationRows * (columns / 16)));
        for (int a = 0; a < activationRows; ++a) {
            Floats x(static_cast<std::size_t>(columns));
            for (float& v : x)
                v = rng.uniform(2.0f) * (rng.next() % 7 == 0 ? 20.0f : 1.0f);
            kernels::quantizeActivations(x.data(), columns, block, xq.data() + a * columns,
                                         xd.data() + a * (columns / block), sums.data() + a * (columns / 16));
        }
        for (kernels::KernelPath path : availablePaths()) {
            kernels::setKernelPath(path);
            for (int w = 0; w < weightRows; ++w) {
                const std::uint8_t* row = data + w * rowBytes;
                for (int count = 1; count <= activationRows; ++count) {
                    float batch[16];
                    traits.dotFastBatch(row, xq.data(), xd.data(), sums.data(), count, columns, batch);
                    for (int a = 0; a < count; ++a) {
                        const float alone = traits.dotFast(row, xq.data() + a * columns, xd.data() + a * (columns / block),
                                                           sums.data() + a * (columns / 16), columns);
                        QCOMPARE(std::bit_cast<std::uint32_t>(batch[a]), std::bit_cast<std::uint32_t>(alone));
                    }
                }
            }
        }
        kernels::setKernelPath(kernels::KernelPath::Avx512);
    }

    void fastMathIsLabelledAndBounded_data() { modelsMatchAFloat64Forward_data(); }
    // ModelOptions::fastMath: off by default; on, a quantized model says so and its probabilities move away
    // from the float64 forward pass by more than the exact path's 1e-4 but stay within 0.05; float models
    // have no fast kernel and are unchanged.
    void fastMathIsLabelledAndBounded() {
        QFETCH(QString, type);
        QFETCH(bool, tied);
        const QuantType& t = quantType(type.toStdString());
        const LlamaShape shape = typedShape(tied);
        LlamaWeights reference;
        QTemporaryDir dir;
        const QString path = writeTypedModel(dir, t, shape, reference);
        QVERIFY(!path.isEmpty());
        QVERIFY(!ModelOptions{}.fastMath);
        ModelOptions options;
        options.fastMath = true;
        auto fast = Model::load(path, options);
        QVERIFY2(fast, qPrintable(fast ? QString() : fast.error().message));
        auto exactModel = Model::load(path);
        QVERIFY(exactModel);
        QVERIFY(!exactModel.value()->info().fastMath);
        const bool quantized = t.blockElements > 1;
        QCOMPARE(fast.value()->info().fastMath, quantized);

        std::vector<int> tokens = {1, 17, 42, 5, 9, 33, 60, 2, 71, 80, 11, 3};
        const std::size_t prompt = tokens.size();
        const std::vector<std::vector<float>> ours = decodeSteps(*fast.value(), tokens, prompt, 24);
        QCOMPARE(ours.size(), std::size_t(24));
        if (!quantized) {
            std::vector<int> same = {1, 17, 42, 5, 9, 33, 60, 2, 71, 80, 11, 3};
            QCOMPARE(decodeSteps(*exactModel.value(), same, prompt, 24), ours);
            return;
        }
        const double worst = largestDifference(referenceLlama(reference, tokens), ours, prompt, shape.vocab);
        qInfo("%s with fast math: max |dp| %.3g over 24 steps", qPrintable(type), worst);
        QVERIFY2(worst > 1e-4 && worst <= 0.05, qPrintable(QString::number(worst)));
    }

    void modelsMatchAFloat64Forward_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("tied");
        for (const QuantType& t : quantTypes())
            QTest::newRow(t.name) << QString::fromLatin1(t.name) << (t.ggml % 2 == 0);
    }
    // A whole model in each type through Model::forward (decode one token at a time, as generation does)
    // against referenceLlama in float64 over the same decoded weights: max |Δp| ≤ 1e-4 over 48 greedy steps.
    void modelsMatchAFloat64Forward() {
        QFETCH(QString, type);
        QFETCH(bool, tied);
        const QuantType& t = quantType(type.toStdString());
        const LlamaShape shape = typedShape(tied);
        LlamaWeights reference;
        QTemporaryDir dir;
        const QString path = writeTypedModel(dir, t, shape, reference);
        QVERIFY(!path.isEmpty());
        auto loaded = Model::load(path);
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().message));
        Model& model = *loaded.value();
        QCOMPARE(model.info().fileDtype, type);

        // A prompt of 12 (more than the kernels take at once: prefill goes through the float32 tiles).
        std::vector<int> tokens = {1, 17, 42, 5, 9, 33, 60, 2, 71, 80, 11, 3};
        const std::size_t prompt = tokens.size();
        const std::vector<std::vector<float>> ours = decodeSteps(model, tokens, prompt, 48);
        QCOMPARE(ours.size(), std::size_t(48));
        double entropy = 0;
        const double worst =
            largestDifference(referenceLlama(reference, tokens), ours, prompt, shape.vocab, &entropy);
        qInfo("%s: max |dp| %.3g over 48 steps, mean entropy %.2f nats", qPrintable(type), worst, entropy);
        QVERIFY2(entropy > 1.0, "the test model's distributions are too peaked to show a difference");
        QVERIFY2(worst <= 1e-4, qPrintable(QString::number(worst)));
    }

    void crossDeviceConformance_data() { modelsMatchAFloat64Forward_data(); }
    // The same models on CUDA (weights expanded at load to the compute dtype on the GPU) against the CPU
    // kernels: f32 within 1e-4 in probability over 48 greedy steps; bf16 and f16 report their distance.
    // Skips without a CUDA build of libtorch and a GPU (packaging/cuda-check.sh runs it on one).
    void crossDeviceConformance() {
        QFETCH(QString, type);
        QFETCH(bool, tied);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("model.gguf"));
        LlamaWeights reference;
        QVERIFY(typedLlama(quantType(type.toStdString()), typedShape(tied), 11, reference).write(path));
        ModelOptions cuda;
        cuda.device = QStringLiteral("cuda");
        auto onGpu = Model::load(path, cuda);
        QVERIFY2(onGpu, qPrintable(onGpu ? QString() : onGpu.error().message));
        if (onGpu.value()->info().device != QLatin1String("cuda"))
            QSKIP(
                "no CUDA: this libtorch has no CUDA support or sees no GPU (packaging/cuda-check.sh runs this on one)");
        auto onCpu = Model::load(path);
        QVERIFY(onCpu);
        std::vector<int> tokens = {1, 17, 42, 5, 9, 33, 60, 2, 71, 80, 11, 3};
        const std::size_t prompt = tokens.size();
        const auto cpu = decodeSteps(*onCpu.value(), tokens, prompt, 48);
        const auto distance = [&](Model& model) {
            std::vector<int> same = tokens;
            const auto gpu = decodeSteps(model, same, prompt, 48);
            double worst = gpu.size() == cpu.size() ? 0.0 : 1.0;
            for (std::size_t step = 0; step < cpu.size() && step < gpu.size(); ++step) {
                const std::vector<double> a(cpu[step].begin(), cpu[step].end());
                const std::vector<double> b(gpu[step].begin(), gpu[step].end());
                const auto p = softmax(a.data(), static_cast<int>(a.size()));
                const auto q = softmax(b.data(), static_cast<int>(b.size()));
                for (std::size_t i = 0; i < p.size(); ++i)
                    worst = std::max(worst, std::fabs(p[i] - q[i]));
            }
            return worst;
        };
        const double f32 = distance(*onGpu.value());
        qInfo("{\"type\": \"%s\", \"device\": \"cuda\", \"dtype\": \"f32\", \"max_dp\": %.3g}", qPrintable(type), f32);
        QVERIFY2(f32 <= 1e-4, qPrintable(QString::number(f32)));
        for (const char* dtype : {"bf16", "f16"}) {
            cuda.dtype = QLatin1String(dtype);
            auto low = Model::load(path, cuda);
            QVERIFY(low);
            qInfo("{\"type\": \"%s\", \"device\": \"cuda\", \"dtype\": \"%s\", \"max_dp\": %.3g}", qPrintable(type),
                  dtype, distance(*low.value()));
        }
    }
};

QTEST_GUILESS_MAIN(TestKernels)
#include "tst_kernels.moc"
