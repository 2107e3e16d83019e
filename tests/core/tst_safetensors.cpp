// SafeTensorsFile on hand-written files: tensors, dtypes, shapes and byte ranges as the format
// (huggingface/safetensors) defines them, and a clear error for each kind of corruption.

#include <cstring>

#include <QTemporaryDir>
#include <QTest>

#include "formats/SafeTensorsFile.h"

using namespace swb;

namespace {

QByteArray file(const QByteArray& header, const QByteArray& data) {
    QByteArray out(8, '\0');
    const quint64 n = static_cast<quint64>(header.size());
    for (int i = 0; i < 8; ++i)
        out[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
    return out + header + data;
}

QByteArray floats(std::initializer_list<float> values) {
    QByteArray out;
    for (float v : values)
        out.append(reinterpret_cast<const char*>(&v), 4);
    return out;
}

} // namespace

class TestSafeTensors : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString write(const QString& name, const QByteArray& bytes) {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(bytes);
        return path;
    }

private slots:
    void readsTensorsInPlace() {
        // Offsets are relative to the byte after the header; BF16 0x3F80 is 1.0, 0xC000 is -2.0.
        const QByteArray header = R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
                                  R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[16,20]},)"
                                  R"("e":{"dtype":"F16","shape":[0,4],"data_offsets":[20,20]},)"
                                  R"("__metadata__":{"format":"pt"}})";
        QByteArray data = floats({1.5f, -2.0f, 3.25f, 0.0f});
        data.append("\x80\x3F\x00\xC0", 4);
        const QString path = write(QStringLiteral("ok.safetensors"), file(header, data));
        auto opened = SafeTensorsFile::open(path);
        QVERIFY2(opened, opened ? "" : qPrintable(opened.error().message));
        const SafeTensorsFile& st = opened.value();
        QCOMPARE(st.tensors().size(), std::size_t(3));
        QCOMPARE(st.metadata().at(QStringLiteral("format")), QStringLiteral("pt"));
        const SafeTensorsFile::Tensor* w = st.tensor("w");
        QVERIFY(w);
        QCOMPARE(w->dtype, QStringLiteral("F32"));
        QCOMPARE(w->shape, (std::vector<std::int64_t>{2, 2}));
        QCOMPARE(w->bytes, std::size_t(16));
        float values[4];
        std::memcpy(values, w->data, 16);
        QCOMPARE(values[0], 1.5f);
        QCOMPARE(values[2], 3.25f);
        const SafeTensorsFile::Tensor* b = st.tensor("b");
        QVERIFY(b);
        QCOMPARE(b->bytes, std::size_t(4));
        QCOMPARE(static_cast<unsigned char>(b->data[1]), static_cast<unsigned char>(0x3F));
        QCOMPARE(st.tensor("e")->bytes, std::size_t(0));
        QVERIFY(!st.tensor("missing"));
        QCOMPARE(st.fileSize(), static_cast<std::size_t>(8 + header.size() + data.size()));
    }

    void corruptFilesAreClearErrors_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("needle");
        const QByteArray data = floats({1, 2, 3, 4});
        QTest::newRow("shorter than the length field") << QByteArray("abc") << QStringLiteral("truncated");
        QTest::newRow("header past the end")
            << file("{}", {}).left(8) + QByteArray(1, '{') << QStringLiteral("truncated");
        QByteArray huge(8, '\xFF');
        QTest::newRow("implausible header length") << huge + QByteArray("{}") << QStringLiteral("implausible");
        QTest::newRow("header not JSON") << file("not json", data) << QStringLiteral("not a JSON object");
        QTest::newRow("unknown dtype") << file(R"({"w":{"dtype":"Q4","shape":[4],"data_offsets":[0,16]}})", data)
                                       << QStringLiteral("unknown dtype 'Q4'");
        QTest::newRow("offsets disagree with shape")
            << file(R"({"w":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}})", data) << QStringLiteral("need 12");
        QTest::newRow("tensor past the data")
            << file(R"({"w":{"dtype":"F32","shape":[8],"data_offsets":[0,32]}})", data) << QStringLiteral("truncated");
        QTest::newRow("negative dimension") << file(R"({"w":{"dtype":"F32","shape":[-4],"data_offsets":[0,16]}})", data)
                                            << QStringLiteral("invalid dimension");
        QTest::newRow("reversed offsets") << file(R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[16,0]}})", data)
                                          << QStringLiteral("invalid data_offsets");
        QTest::newRow("no offsets") << file(R"({"w":{"dtype":"F32","shape":[4]}})", data)
                                    << QStringLiteral("data_offsets");
        QTest::newRow("overflowing shape")
            << file(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,16]}})", data)
            << QStringLiteral("impossibly large");
    }
    void corruptFilesAreClearErrors() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, needle);
        const QString path = write(QStringLiteral("bad.safetensors"), bytes);
        auto opened = SafeTensorsFile::open(path);
        QVERIFY(!opened);
        QCOMPARE(opened.error().kind, ErrorKind::BadInput);
        QVERIFY2(opened.error().message.contains(needle), qPrintable(opened.error().message));
        QVERIFY2(opened.error().message.contains(QLatin1String("bad.safetensors")), qPrintable(opened.error().message));
    }

    void elementSizes() {
        QCOMPARE(SafeTensorsFile::elementSize(QStringLiteral("F32")), 4);
        QCOMPARE(SafeTensorsFile::elementSize(QStringLiteral("BF16")), 2);
        QCOMPARE(SafeTensorsFile::elementSize(QStringLiteral("F16")), 2);
        QCOMPARE(SafeTensorsFile::elementSize(QStringLiteral("I64")), 8);
        QCOMPARE(SafeTensorsFile::elementSize(QStringLiteral("nope")), 0);
    }
};

QTEST_GUILESS_MAIN(TestSafeTensors)
#include "tst_safetensors.moc"
