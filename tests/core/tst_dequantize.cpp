// GGML block formats, half and bfloat16 decoded to float32 by the kernels' traits table (model/kernels), on
// blocks built by hand from the layouts of ggml-common.h, with values worked out from the format's
// definition; and the type names of formats/GgufDequantize.h.

#include <cmath>
#include <cstdint>
#include <vector>

#include <QTest>

#include "formats/GgufDequantize.h"
#include "model/kernels/WeightType.h"

using namespace swb;

namespace {

// `elements` values of a ggml type as the kernels decode them; false (nothing written) for a type they do
// not read or a count that is not a whole number of blocks.
bool dequantizeGgml(std::uint32_t type, const void* src, std::int64_t elements, float* dst) {
    const std::optional<kernels::WeightType> t = kernels::fromGgml(type);
    if (!t || kernels::rowBytes(*t, elements) == 0)
        return false;
    kernels::traits(*t).toFloat(static_cast<const std::uint8_t*>(src), dst, elements);
    return true;
}

// One F16 or BF16 element as the kernels decode it.
float halfToFloat(std::uint16_t bits) {
    const std::uint8_t bytes[2] = {static_cast<std::uint8_t>(bits & 0xFF), static_cast<std::uint8_t>(bits >> 8)};
    float out;
    kernels::traits(kernels::WeightType::F16).toFloat(bytes, &out, 1);
    return out;
}
float bfloat16ToFloat(std::uint16_t bits) {
    const std::uint8_t bytes[2] = {static_cast<std::uint8_t>(bits & 0xFF), static_cast<std::uint8_t>(bits >> 8)};
    float out;
    kernels::traits(kernels::WeightType::BF16).toFloat(bytes, &out, 1);
    return out;
}

std::size_t ggmlTensorBytes(std::uint32_t type, std::int64_t elements) {
    const std::optional<kernels::WeightType> t = kernels::fromGgml(type);
    return t ? kernels::rowBytes(*t, elements) : 0;
}

void put16(std::vector<std::uint8_t>& b, std::size_t at, std::uint16_t v) {
    b[at] = static_cast<std::uint8_t>(v & 0xFF);
    b[at + 1] = static_cast<std::uint8_t>(v >> 8);
}

constexpr std::uint16_t kHalfOne = 0x3C00, kHalfHalf = 0x3800, kHalfTwo = 0x4000, kHalfQuarter = 0x3400;

} // namespace

class TestDequantize : public QObject {
    Q_OBJECT

private slots:
    void halfAndBfloat16_data() {
        QTest::addColumn<int>("bits");
        QTest::addColumn<float>("half");
        QTest::newRow("one") << 0x3C00 << 1.0f;
        QTest::newRow("minus two") << 0xC000 << -2.0f;
        QTest::newRow("largest") << 0x7BFF << 65504.0f;
        QTest::newRow("smallest subnormal") << 0x0001 << 5.9604645e-8f; // 2^-24
        QTest::newRow("largest subnormal") << 0x03FF << 6.097555e-5f;   // 1023 * 2^-24
        QTest::newRow("one third") << 0x3555 << 0.33325195f;
        QTest::newRow("negative zero") << 0x8000 << -0.0f;
    }
    void halfAndBfloat16() {
        QFETCH(int, bits);
        QFETCH(float, half);
        QCOMPARE(halfToFloat(static_cast<std::uint16_t>(bits)), half);
    }
    void specialValues() {
        QVERIFY(std::isinf(halfToFloat(0x7C00)) && halfToFloat(0x7C00) > 0);
        QVERIFY(std::isinf(halfToFloat(0xFC00)) && halfToFloat(0xFC00) < 0);
        QVERIFY(std::isnan(halfToFloat(0x7E00)));
        QCOMPARE(bfloat16ToFloat(0x3F80), 1.0f);
        QCOMPARE(bfloat16ToFloat(0xC0A0), -5.0f);
        QCOMPARE(bfloat16ToFloat(0x4049), 3.140625f);
    }

    // Q8_0: half d, then 32 int8; x = d * q.
    void q8_0() {
        std::vector<std::uint8_t> block(34);
        put16(block, 0, kHalfHalf);
        for (int j = 0; j < 32; ++j)
            block[2 + j] = static_cast<std::uint8_t>(static_cast<std::int8_t>(j - 16));
        std::vector<float> y(32);
        QVERIFY(dequantizeGgml(GgmlTypeId::Q8_0, block.data(), 32, y.data()));
        QCOMPARE(y[0], -8.0f);
        QCOMPARE(y[16], 0.0f);
        QCOMPARE(y[31], 7.5f);
        QCOMPARE(ggmlTensorBytes(GgmlTypeId::Q8_0, 64), std::size_t(68));
    }

    // Q4_0: half d, then 16 bytes; element j is the low nibble of byte j, element j + 16 its high
    // nibble; x = d * (nibble - 8).
    void q4_0() {
        std::vector<std::uint8_t> block(18);
        put16(block, 0, kHalfTwo);
        for (int j = 0; j < 16; ++j)
            block[2 + j] = static_cast<std::uint8_t>(j | ((15 - j) << 4));
        std::vector<float> y(32);
        QVERIFY(dequantizeGgml(GgmlTypeId::Q4_0, block.data(), 32, y.data()));
        QCOMPARE(y[0], -16.0f);  // (0 - 8) * 2
        QCOMPARE(y[15], 14.0f);  // (15 - 8) * 2
        QCOMPARE(y[16], 14.0f);  // high nibble of byte 0 is 15
        QCOMPARE(y[31], -16.0f); // high nibble of byte 15 is 0
        QCOMPARE(y[5], -6.0f);
        QCOMPARE(y[21], 4.0f); // high nibble of byte 5 is 10
    }

    // Q4_K: half d, half dmin, 12 bytes packing eight 6-bit scales and mins, 128 bytes of nibbles. Each
    // 64 elements use 32 bytes: low nibbles for the first 32 (sub-block 2c), high for the next (2c+1);
    // x = d * scale[sub] * nibble - dmin * min[sub].
    void q4_K() {
        const int scale[8] = {1, 2, 3, 4, 5, 37, 7, 63};
        const int minimum[8] = {0, 1, 2, 3, 4, 5, 50, 17};
        std::vector<std::uint8_t> block(144);
        put16(block, 0, kHalfOne);
        put16(block, 2, kHalfHalf);
        // Sub-blocks 0-3: six bits in bytes 0-3 (scales) and 4-7 (mins); 4-7: the low four bits in bytes
        // 8-11, the top two bits in the top of bytes 0-3 (scales) and 4-7 (mins).
        for (int j = 0; j < 4; ++j) {
            block[4 + j] = static_cast<std::uint8_t>(scale[j] | ((scale[j + 4] >> 4) << 6));
            block[4 + j + 4] = static_cast<std::uint8_t>(minimum[j] | ((minimum[j + 4] >> 4) << 6));
            block[4 + j + 8] = static_cast<std::uint8_t>((scale[j + 4] & 0xF) | ((minimum[j + 4] & 0xF) << 4));
        }
        for (int i = 0; i < 128; ++i)
            block[16 + i] = static_cast<std::uint8_t>((i * 7) & 0xFF);
        std::vector<float> y(256);
        QVERIFY(dequantizeGgml(GgmlTypeId::Q4_K, block.data(), 256, y.data()));
        for (int e = 0; e < 256; ++e) {
            const int sub = e / 32;
            const int byte = ((e / 64) * 32 + e % 32) * 7 & 0xFF;
            const int nibble = sub % 2 == 0 ? byte & 0xF : byte >> 4;
            QCOMPARE(y[e], static_cast<float>(scale[sub] * nibble) - 0.5f * static_cast<float>(minimum[sub]));
        }
        QCOMPARE(y[0], 0.0f);   // byte 0, scale 1, min 0
        QCOMPARE(y[33], -0.5f); // byte 1 = 7, high nibble 0; scale 2, min 1
        // Sub-blocks 5 and 6 use the packed top bits: element 161 is byte 65 = 0xC7, high nibble 12, scale 37,
        // min 5; element 192 is byte 96 = 0xA0, low nibble 0, min 50.
        QCOMPARE(y[161], 441.5f);
        QCOMPARE(y[192], -25.0f);
    }

    // Q6_K: 128 bytes of low nibbles, 64 bytes of high two-bit pairs, 16 int8 scales, half d. Each 128
    // elements: quarter k of 32 takes low/high nibbles of ql[0..31] or ql[32..63] and bits 2k..2k+1 of qh;
    // x = d * scale * (q - 32), scale index 8 * half + l / 16 + 2k.
    void q6_K() {
        std::vector<std::uint8_t> block(210);
        for (int i = 0; i < 128; ++i)
            block[i] = static_cast<std::uint8_t>((i * 13 + 5) & 0xFF);
        for (int i = 0; i < 64; ++i)
            block[128 + i] = static_cast<std::uint8_t>((i * 29 + 3) & 0xFF);
        for (int i = 0; i < 16; ++i)
            block[192 + i] = static_cast<std::uint8_t>(static_cast<std::int8_t>(i - 8));
        put16(block, 208, kHalfQuarter);
        std::vector<float> y(256);
        QVERIFY(dequantizeGgml(GgmlTypeId::Q6_K, block.data(), 256, y.data()));
        for (int e = 0; e < 256; ++e) {
            const int half = e / 128, l = e % 128, quarter = l / 32, L = l % 32;
            const int ql = block[64 * half + L + (quarter % 2 == 1 ? 32 : 0)];
            const int low = quarter < 2 ? ql & 0xF : ql >> 4;
            const int high = (block[128 + 32 * half + L] >> (2 * quarter)) & 3;
            const int q = (low | (high << 4)) - 32;
            const int s = static_cast<std::int8_t>(block[192 + 8 * half + L / 16 + 2 * quarter]);
            QCOMPARE(y[e], 0.25f * static_cast<float>(s) * static_cast<float>(q));
        }
        // Element 0: ql[0] = 5, qh[0] = 3 -> q = 5 | (3 << 4) = 53 - 32 = 21; scale[0] = -8 -> 0.25 * -8 * 21.
        QCOMPARE(y[0], -42.0f);
    }

    void plainFloats() {
        const std::uint16_t halves[2] = {0x3C00, 0xC400}; // 1, -4
        std::vector<float> y(2);
        QVERIFY(dequantizeGgml(GgmlTypeId::F16, halves, 2, y.data()));
        QCOMPARE(y[0], 1.0f);
        QCOMPARE(y[1], -4.0f);
        const std::uint16_t brains[2] = {0x3F80, 0x4000}; // 1, 2
        QVERIFY(dequantizeGgml(GgmlTypeId::BF16, brains, 2, y.data()));
        QCOMPARE(y[1], 2.0f);
        const float f[2] = {0.5f, 7.0f};
        QVERIFY(dequantizeGgml(GgmlTypeId::F32, f, 2, y.data()));
        QCOMPARE(y[1], 7.0f);
    }

    void unsupportedAndPartialBlocks() {
        std::vector<std::uint8_t> block(256);
        std::vector<float> y(256, 9.0f);
        QVERIFY(!dequantizeGgml(GgmlTypeId::Q8_K, block.data(), 256, y.data()));
        QVERIFY(!dequantizeGgml(GgmlTypeId::Q8_0, block.data(), 31, y.data()));
        QCOMPARE(y[0], 9.0f); // nothing written
        QVERIFY(!kernels::fromGgml(GgmlTypeId::Q8_1));
        QVERIFY(kernels::fromGgml(GgmlTypeId::Q4_1));
        QVERIFY(kernels::fromGgml(GgmlTypeId::Q6_K));
        QCOMPARE(ggmlTypeName(GgmlTypeId::Q4_K), QStringLiteral("q4_k"));
        QCOMPARE(ggmlTypeName(99), QStringLiteral("type 99"));
        QCOMPARE(ggmlTensorBytes(GgmlTypeId::Q6_K, 512), std::size_t(420));
        QCOMPARE(ggmlTensorBytes(GgmlTypeId::Q4_K, 100), std::size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestDequantize)
#include "tst_dequantize.moc"
