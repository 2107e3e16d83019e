// GgufFile: metadata of every type, tensor tables with alignment, sizes of ggml block types, and one clear
// error naming the file for every kind of broken file. Files come from tests/GgufWriter.h or the reference
// vocabularies.

#include <optional>

#include <QTemporaryDir>
#include <QTest>

#include "GgufWriter.h"
#include "TestSupport.h"
#include "formats/GgufFile.h"

using swb::GgufFile;
using swb::test::GgufWriter;

class TestGguf : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeFile(const QString& name, const QByteArray& bytes) {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

    static GgufWriter sampleWriter() {
        GgufWriter w;
        w.addString("general.architecture", "llama");
        w.addUint32("llama.block_count", 2);
        w.addInt32("test.negative", -7);
        w.addUint64("test.big", 1ull << 40);
        w.addFloat32("test.eps", 1e-5f);
        w.addBool("test.flag", true);
        w.addStringArray("test.words", {"a", "", "\xe2\x96\x81the"});
        w.addInt32Array("test.ints", {3, -1, 42});
        w.addFloat32Array("test.floats", {0.5f, -2.0f});
        w.addTensorF32("a", {3, 2}, {1, 2, 3, 4, 5, 6});
        w.addTensorF32("b", {5}, {7, 8, 9, 10, 11});
        return w;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void readsEveryMetadataType() {
        const QString path = writeFile(QStringLiteral("sample.gguf"), sampleWriter().bytes());
        swb::Result<GgufFile> opened = GgufFile::open(path);
        QVERIFY2(opened.ok(), qPrintable(opened.ok() ? QString() : opened.error().message));
        const GgufFile& f = opened.value();
        QCOMPARE(f.version(), 3u);
        QCOMPARE(f.keys(), QStringList({"general.architecture", "llama.block_count", "test.negative", "test.big",
                                        "test.eps", "test.flag", "test.words", "test.ints", "test.floats"}));
        QCOMPARE(f.string("general.architecture"), std::optional<std::string>("llama"));
        QCOMPARE(f.integer("llama.block_count"), std::optional<std::int64_t>(2));
        QCOMPARE(f.integer("test.negative"), std::optional<std::int64_t>(-7));
        QCOMPARE(f.integer("test.big"), std::optional<std::int64_t>(1ll << 40));
        QCOMPARE(f.integer("test.flag"), std::optional<std::int64_t>(1)); // bool reads as an integer too
        QCOMPARE(f.boolean("test.flag"), std::optional<bool>(true));
        QVERIFY(!f.boolean("llama.block_count")); // but an integer is not a bool
        QCOMPARE(float(*f.real("test.eps")), 1e-5f);
        QVERIFY(!f.real("general.architecture"));
        QVERIFY(!f.integer("general.architecture"));
        QVERIFY(!f.integer("missing.key"));
        QVERIFY(f.has("test.words") && !f.has("test.word"));
        QCOMPARE(*f.stringArray("test.words"), (std::vector<std::string>{"a", "", "\xe2\x96\x81the"}));
        QCOMPARE(*f.intArray("test.ints"), (std::vector<std::int64_t>{3, -1, 42}));
        QCOMPARE(*f.floatArray("test.floats"), (std::vector<float>{0.5f, -2.0f}));
        QCOMPARE(*f.floatArray("test.ints"), (std::vector<float>{3.f, -1.f, 42.f}));
        QVERIFY(!f.stringArray("test.ints"));
        QVERIFY(!f.intArray("test.words"));
        QCOMPARE(*f.arraySize("test.words"), std::uint64_t(3));
        QCOMPARE(*f.arrayType("test.ints"), GgufFile::ValueType::Int32);
    }

    void tensorsAreAlignedAndOutliveTheOriginal_data() {
        QTest::addColumn<int>("alignment");
        QTest::addColumn<int>("version");
        QTest::newRow("default 32, v3") << 0 << 3;
        QTest::newRow("64, v3") << 64 << 3;
        QTest::newRow("8, v2") << 8 << 2;
    }
    void tensorsAreAlignedAndOutliveTheOriginal() {
        QFETCH(int, alignment);
        QFETCH(int, version);
        GgufWriter w = sampleWriter();
        w.setVersion(std::uint32_t(version));
        if (alignment)
            w.setAlignment(std::uint32_t(alignment));
        const QString path = writeFile(QStringLiteral("aligned.gguf"), w.bytes());
        std::optional<GgufFile> copy;
        {
            swb::Result<GgufFile> opened = GgufFile::open(path);
            QVERIFY(opened.ok());
            copy = opened.value(); // the original goes out of scope; the copy keeps the mapping
        }
        QFile::remove(path); // an open mapping survives the unlink on Linux; the data must stay readable
        const std::uint64_t expectedAlignment = alignment ? std::uint64_t(alignment) : 32;
        QCOMPARE(copy->alignment(), expectedAlignment);
        QCOMPARE(copy->version(), std::uint32_t(version));
        QCOMPARE(copy->dataOffset() % expectedAlignment, std::uint64_t(0));
        QCOMPARE(copy->tensors().size(), std::size_t(2));
        const GgufFile::Tensor* a = copy->tensor("a");
        const GgufFile::Tensor* b = copy->tensor("b");
        QVERIFY(a && b && !copy->tensor("c"));
        QCOMPARE(a->dims, (std::vector<std::int64_t>{3, 2}));
        QCOMPARE(a->type, 0u);
        QCOMPARE(a->bytes, std::uint64_t(24));
        QCOMPARE(a->elements(), std::int64_t(6));
        QCOMPARE(a->offset, std::uint64_t(0));
        QCOMPARE(b->offset % expectedAlignment, std::uint64_t(0));
        QVERIFY(b->offset >= 24);
        const auto* av = reinterpret_cast<const float*>(a->data);
        const auto* bv = reinterpret_cast<const float*>(b->data);
        QCOMPARE(av[0], 1.f);
        QCOMPARE(av[5], 6.f);
        QCOMPARE(bv[0], 7.f);
        QCOMPARE(bv[4], 11.f);
        QCOMPARE(reinterpret_cast<std::uintptr_t>(a->data) % 4, std::uintptr_t(0));
    }

    void tensorBytesFollowGgmlBlocks_data() {
        QTest::addColumn<int>("type");
        QTest::addColumn<QList<qint64>>("dims");
        QTest::addColumn<qint64>("bytes");
        // Hand-computed from ggml's block layouts: bytes = dims[0] / block * blockBytes * rest.
        QTest::newRow("f32") << 0 << QList<qint64>{3, 4} << qint64(48);
        QTest::newRow("f16") << 1 << QList<qint64>{7} << qint64(14);
        QTest::newRow("q4_0") << 2 << QList<qint64>{64, 3} << qint64(2 * 18 * 3);
        QTest::newRow("q8_0") << 8 << QList<qint64>{32, 2} << qint64(68);
        QTest::newRow("q4_k") << 12 << QList<qint64>{256, 2} << qint64(288);
        QTest::newRow("q6_k") << 14 << QList<qint64>{512} << qint64(420);
        QTest::newRow("bf16") << 30 << QList<qint64>{5, 3} << qint64(30);
        QTest::newRow("scalar") << 0 << QList<qint64>{} << qint64(4);
    }
    void tensorBytesFollowGgmlBlocks() {
        QFETCH(int, type);
        QFETCH(QList<qint64>, dims);
        QFETCH(qint64, bytes);
        const std::vector<std::int64_t> d(dims.begin(), dims.end());
        swb::Result<std::uint64_t> r = GgufFile::tensorBytes(std::uint32_t(type), d);
        QVERIFY(r.ok());
        QCOMPARE(qint64(r.value()), bytes);
    }

    void unknownTensorTypeFailsOnlyWhenSized() {
        GgufWriter w;
        w.addString("general.architecture", "x");
        w.addTensorRaw("odd", 99, {4}, QByteArray(16, '\1'));
        w.addTensorF32("ok", {2}, {1, 2});
        const QString path = writeFile(QStringLiteral("oddtype.gguf"), w.bytes());
        swb::Result<GgufFile> f = GgufFile::open(path);
        QVERIFY(f.ok());
        const GgufFile::Tensor* odd = f->tensor("odd");
        QVERIFY(odd && odd->data == nullptr && odd->bytes == 0);
        swb::Result<std::uint64_t> bytes = GgufFile::tensorBytes(odd->type, odd->dims);
        QVERIFY(!bytes.ok());
        QCOMPARE(bytes.error().message, QStringLiteral("unsupported tensor type 99"));
        QVERIFY(f->tensor("ok")->data);
        QVERIFY(!GgufFile::tensorBytes(2, {33}).ok()); // row not a multiple of Q4_0's 32
    }

    void brokenFilesGiveOneSentenceNamingTheFile_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("needle");
        const QByteArray good = sampleWriter().bytes();
        QByteArray magic = good;
        magic[0] = 'X';
        QByteArray v1 = good;
        v1[4] = 1;
        QByteArray v4 = good;
        v4[4] = 4;
        QByteArray badKeyLength = good;
        badKeyLength[24 + 7] = char(0x7f); // first key's uint64 length: absurdly large
        GgufWriter misaligned;
        misaligned.addTensorF32("t", {2}, {1, 2});
        QByteArray mis = misaligned.bytes();
        // Header 24 bytes, then the record: name (8 + 1), n_dims (4), dim (8), type (4), offset (8).
        mis[24 + 9 + 4 + 8 + 4] = 4;
        GgufWriter dup;
        dup.addUint32("k", 1);
        dup.addUint32("k", 2);
        GgufWriter alignment;
        alignment.setAlignment(3);
        GgufWriter beyond;
        beyond.addTensorRaw("big", 0, {1000}, QByteArray(16, '\0')); // declares 4000 bytes, holds 32
        QTest::newRow("empty") << QByteArray() << QStringLiteral("truncated");
        QTest::newRow("wrong magic") << magic << QStringLiteral("not a GGUF file");
        QTest::newRow("version 1") << v1 << QStringLiteral("unsupported GGUF version 1");
        QTest::newRow("version 4") << v4 << QStringLiteral("unsupported GGUF version 4");
        QTest::newRow("bad string length") << badKeyLength << QStringLiteral("bad string length");
        QTest::newRow("truncated header") << good.left(10) << QStringLiteral("truncated");
        QTest::newRow("truncated metadata") << good.left(60) << QStringLiteral("truncated");
        QTest::newRow("truncated tensor data") << good.left(good.size() - 16) << QStringLiteral("truncated");
        QTest::newRow("duplicate key") << dup.bytes() << QStringLiteral("appears twice");
        QTest::newRow("bad alignment") << alignment.bytes() << QStringLiteral("power of two");
        QTest::newRow("misaligned tensor") << mis << QStringLiteral("not aligned");
        QTest::newRow("tensor beyond end") << beyond.bytes() << QStringLiteral("truncated");
        // Found by fuzz_gguf: a tensor of a type this reader cannot size, whose dimensions multiply past 2^63,
        // made Tensor::elements() overflow (undefined behaviour) in whoever counted it (swb info).
        GgufWriter huge;
        huge.addTensorRaw("huge", 99, {std::int64_t(1) << 32, std::int64_t(1) << 32}, QByteArray(16, '\0'));
        // A tensor named like a placeholder stays its name in the message (arg() once, not chained).
        GgufWriter placeholder;
        placeholder.addTensorRaw("%3%4", 0, {1000}, QByteArray(16, '\0'));
        QTest::newRow("placeholder name") << placeholder.bytes() << QStringLiteral("tensor '%3%4' needs bytes 0 to 4000");
        QTest::newRow("element count past 2^63") << huge.bytes() << QStringLiteral("more elements than can be counted");
    }
    void brokenFilesGiveOneSentenceNamingTheFile() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, needle);
        const QString path = writeFile(QStringLiteral("broken.gguf"), bytes);
        swb::Result<GgufFile> f = GgufFile::open(path);
        QVERIFY(!f.ok());
        QVERIFY2(f.error().message.contains(needle), qPrintable(f.error().message));
        QVERIFY2(f.error().message.contains(QStringLiteral("broken.gguf")), qPrintable(f.error().message));
        QVERIFY(!f.error().message.contains('\n'));
        QCOMPARE(f.error().kind, swb::ErrorKind::BadInput);
    }

    void everyTruncationIsAnErrorNotACrash() {
        const QByteArray good = sampleWriter().bytes();
        for (qsizetype n = 0; n < good.size(); ++n) {
            const QString path = writeFile(QStringLiteral("prefix.gguf"), good.left(n));
            swb::Result<GgufFile> f = GgufFile::open(path);
            // Cutting only padding after the last tensor's data can still leave a valid file; anything
            // shorter than the last tensor's end must fail.
            if (n < good.size() - 12)
                QVERIFY2(!f.ok(), qPrintable(QStringLiteral("prefix of %1 bytes opened").arg(n)));
        }
    }

    void missingFileIsBadInput() {
        swb::Result<GgufFile> f = GgufFile::open(m_dir.filePath(QStringLiteral("nope.gguf")));
        QVERIFY(!f.ok());
        QVERIFY(f.error().message.contains(QStringLiteral("nope.gguf")));
    }

    void readsReferenceVocabulary() {
        SWB_REQUIRE_REFERENCE();
        swb::Result<GgufFile> f =
            GgufFile::open(swb::test::referenceDir() + QStringLiteral("/vocab/ggml-vocab-gpt-2.gguf"));
        QVERIFY(f.ok());
        QCOMPARE(f->version(), 3u);
        QCOMPARE(f->keys().size(), 16);
        QCOMPARE(f->string("tokenizer.ggml.model"), std::optional<std::string>("gpt2"));
        QCOMPARE(f->integer("tokenizer.ggml.bos_token_id"), std::optional<std::int64_t>(50256));
        const auto tokens = f->stringArray("tokenizer.ggml.tokens");
        QVERIFY(tokens);
        QCOMPARE(tokens->size(), std::size_t(50257));
        QCOMPARE(tokens->front(), std::string("!"));
        QCOMPARE(tokens->back(), std::string("<|endoftext|>"));
        QCOMPARE(f->arraySize("tokenizer.ggml.merges"), std::optional<std::uint64_t>(50000));
        QVERIFY(f->tensors().empty());
    }
};

QTEST_GUILESS_MAIN(TestGguf)
#include "tst_gguf.moc"
