// Bad model input gives one clear sentence naming the file or tensor at fault, exit status 2 from
// `swb info`, and never a crash: truncated files, wrong magic, missing or mis-shaped tensors,
// unsupported architectures and dtypes, configs that disagree with the weights. Also the happy paths
// of `swb info` and `swb bench decode`.

#include <functional>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include "CheckpointWriters.h"
#include "TestSupport.h"
#include "cli/CommandLine.h"
#include "model/Model.h"

using namespace swb;
using namespace swb::test;

namespace {

struct Captured {
    int status;
    QString out;
    QString err;
};

Captured runSwb(QStringList args) {
    args.prepend(QStringLiteral("swb"));
    QString out;
    QString err;
    QTextStream outStream(&out);
    QTextStream errStream(&err);
    const int status = swb::cli::runSwb(args, outStream, errStream);
    return {status, out, err};
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Rewrites the config.json of a Hugging Face folder through `change`.
void editConfig(const QString& folder, const std::function<void(QJsonObject&)>& change) {
    const QString path = folder + QStringLiteral("/config.json");
    QJsonObject config = QJsonDocument::fromJson(readAll(path)).object();
    change(config);
    writeJson(path, config);
}

} // namespace

class TestModelErrors : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    LlamaWeights m_weights = randomLlama(LlamaShape{}, 99);

    // Builds the broken input named by `kind` and returns its path.
    QString make(const QString& kind) {
        const QString path = m_dir.filePath(kind);
        const LlamaWeights& w = m_weights;
        const auto hf = [&] {
            writeHfLlama(path, w);
            return path;
        };
        if (kind == QLatin1String("missing-path"))
            return path + QStringLiteral("/nothing-here.bin");
        if (kind == QLatin1String("empty-file")) {
            writeBytes(path, {});
        } else if (kind == QLatin1String("llama2c-truncated")) {
            writeBytes(path, llama2cBytes(w, 1).chopped(100));
        } else if (kind == QLatin1String("llama2c-trailing-bytes")) {
            writeBytes(path, llama2cBytes(w, 0) + QByteArray(8, '\0'));
        } else if (kind == QLatin1String("llama2c-header-disagrees")) {
            QByteArray bytes = llama2cBytes(w, 0);
            const std::int32_t hidden = 64; // the weights were written for 48
            std::memcpy(bytes.data() + 4, &hidden, 4);
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("llama2c-version-7")) {
            QByteArray bytes = llama2cBytes(w, 1);
            const std::int32_t version = 7;
            std::memcpy(bytes.data() + 4, &version, 4);
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("llama2c-garbage")) {
            writeBytes(path, QByteArray("This is a plain text file, not a checkpoint at all.\n").repeated(4));
        } else if (kind == QLatin1String("gguf-wrong-magic.gguf")) {
            QByteArray bytes = ggufLlama(w).bytes();
            bytes[3] = 'X';
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("gguf-truncated.gguf")) {
            writeBytes(path, ggufLlama(w).bytes().chopped(64));
        } else if (kind == QLatin1String("gguf-unsupported-arch.gguf")) {
            GgufWriter g;
            g.addString("general.architecture", "mamba");
            g.write(path);
        } else if (kind == QLatin1String("gguf-missing-tensor.gguf")) {
            ggufLlama(w).write(path);
            QByteArray bytes = readAll(path);
            // Rename the tensor so it is not found: "ffn_up" -> "ffn_qp" (same length, same layout).
            const qsizetype at = bytes.indexOf("blk.1.ffn_up.weight");
            bytes[at + 10] = 'q';
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("gguf-misshaped-tensor.gguf")) {
            LlamaShape shape = w.shape;
            shape.hidden = 40;
            LlamaWeights other = randomLlama(shape, 1);
            GgufWriter g = ggufLlama(other);
            g.write(path);
            // Claim the original feed-forward length in the metadata: 40 in the weights, 48 in the config.
            QByteArray bytes = readAll(path);
            const QByteArray key = "llama.feed_forward_length";
            const qsizetype at = bytes.indexOf(key) + key.size() + 4; // value follows its uint32 type tag
            const std::uint32_t claimed = 48;
            std::memcpy(bytes.data() + at, &claimed, 4);
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("gguf-unsupported-type.gguf")) {
            GgufWriter g = ggufLlama(w);
            g.write(path);
            QByteArray bytes = readAll(path);
            // Mark the final norm (32 floats) as Q5_K (type 13), whose blocks hold 256 elements.
            const QByteArray name = "output_norm.weight";
            const qsizetype at = bytes.indexOf(name) + name.size() + 4 + 8; // n_dims, one dim
            const std::uint32_t q5k = 13;
            std::memcpy(bytes.data() + at, &q5k, 4);
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("gguf-truncated-in-quantized-tensor.gguf")) {
            LlamaWeights held;
            // The last tensor (output.weight) is Q8_0: cut the file inside it.
            writeBytes(path, ggufLlama(w, "llama", &held).bytes().chopped(300));
        } else if (kind == QLatin1String("gguf-block-does-not-divide-row.gguf")) {
            ggufLlama(w).write(path);
            QByteArray bytes = readAll(path);
            // ffn_down's rows hold 48 floats; call them Q8_0, whose blocks hold 32.
            const QByteArray name = "blk.0.ffn_down.weight";
            const qsizetype at = bytes.indexOf(name) + name.size() + 4 + 16; // n_dims, two dims
            const std::uint32_t q80 = 8;
            std::memcpy(bytes.data() + at, &q80, 4);
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("gguf-unknown-type.gguf")) {
            ggufLlama(w).write(path);
            QByteArray bytes = readAll(path);
            const QByteArray name = "blk.1.attn_q.weight";
            const qsizetype at = bytes.indexOf(name) + name.size() + 4 + 16;
            const std::uint32_t unknown = 77;
            std::memcpy(bytes.data() + at, &unknown, 4);
            writeBytes(path, bytes);
        } else if (kind == QLatin1String("hf-no-config")) {
            hf();
            QFile::remove(path + QStringLiteral("/config.json"));
        } else if (kind == QLatin1String("hf-bad-json")) {
            hf();
            writeBytes(path + QStringLiteral("/config.json"), "{\"model_type\": ");
        } else if (kind == QLatin1String("hf-unsupported-arch")) {
            hf();
            editConfig(path, [](QJsonObject& c) { c[QStringLiteral("model_type")] = QStringLiteral("bert"); });
        } else if (kind == QLatin1String("hf-missing-key")) {
            hf();
            editConfig(path, [](QJsonObject& c) { c.remove(QStringLiteral("hidden_size")); });
        } else if (kind == QLatin1String("hf-bad-gqa")) {
            hf();
            editConfig(path, [](QJsonObject& c) { c[QStringLiteral("num_key_value_heads")] = 3; });
        } else if (kind == QLatin1String("hf-unsupported-rope")) {
            hf();
            editConfig(path, [](QJsonObject& c) {
                c[QStringLiteral("rope_scaling")] =
                    QJsonObject{{QStringLiteral("rope_type"), QStringLiteral("yarn")}, {QStringLiteral("factor"), 4.0}};
            });
        } else if (kind == QLatin1String("hf-config-disagrees")) {
            hf();
            editConfig(path, [](QJsonObject& c) { c[QStringLiteral("intermediate_size")] = 64; });
        } else if (kind == QLatin1String("hf-no-weights")) {
            hf();
            QFile::remove(path + QStringLiteral("/model.safetensors"));
        } else if (kind == QLatin1String("hf-pytorch-bin")) {
            hf();
            QFile::rename(path + QStringLiteral("/model.safetensors"), path + QStringLiteral("/pytorch_model.bin"));
        } else if (kind == QLatin1String("hf-missing-shard")) {
            writeHfLlama(path, w, QStringLiteral("llama"), QStringLiteral("F32"), 2);
            QFile::remove(path + QStringLiteral("/model-00002-of-00002.safetensors"));
        } else if (kind == QLatin1String("hf-missing-tensor")) {
            hf();
            QByteArray bytes = readAll(path + QStringLiteral("/model.safetensors"));
            const qsizetype at = bytes.indexOf("model.layers.1.mlp.up_proj.weight");
            bytes[at + 19] = 'X'; // "up_proj" -> "Xp_proj": same length, so every offset stays valid
            writeBytes(path + QStringLiteral("/model.safetensors"), bytes);
        } else if (kind == QLatin1String("hf-unsupported-dtype")) {
            hf();
            QByteArray bytes = readAll(path + QStringLiteral("/model.safetensors"));
            // The first tensor's "F32" becomes "I32": same size per element, a dtype we cannot compute in.
            const qsizetype at = bytes.indexOf("\"dtype\":\"F32\"");
            bytes[at + 9] = 'I';
            writeBytes(path + QStringLiteral("/model.safetensors"), bytes);
        } else if (kind == QLatin1String("safetensors-truncated")) {
            hf();
            const QString file = path + QStringLiteral("/model.safetensors");
            writeBytes(file, readAll(file).chopped(16));
        } else if (kind == QLatin1String("safetensors-bad-header")) {
            hf();
            const QString file = path + QStringLiteral("/model.safetensors");
            QByteArray bytes = readAll(file);
            bytes[7] = '\x7F'; // header length now ~2^63
            writeBytes(file, bytes);
        }
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void badInputIsOneSentence_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("needle");
        const auto row = [](const char* kind, const char* needle) {
            QTest::newRow(kind) << QString::fromLatin1(kind) << QString::fromLatin1(needle);
        };
        row("missing-path", "does not exist");
        row("empty-file", "truncated");
        row("llama2c-truncated", "truncated");
        row("llama2c-trailing-bytes", "does not match its header");
        row("llama2c-header-disagrees", "hidden 64");
        row("llama2c-version-7", "version 7");
        row("llama2c-garbage", "not a llama2.c checkpoint");
        row("gguf-wrong-magic.gguf", "not a GGUF file");
        row("gguf-truncated.gguf", "truncated");
        row("gguf-unsupported-arch.gguf", "architecture 'mamba' is not supported");
        row("gguf-missing-tensor.gguf", "tensor 'blk.1.ffn_up.weight' is missing");
        row("gguf-misshaped-tensor.gguf", "has shape [40, 32] but its metadata implies [48, 32]");
        row("gguf-unsupported-type.gguf", "output_norm.weight");
        row("gguf-truncated-in-quantized-tensor.gguf", "truncated");
        row("gguf-block-does-not-divide-row.gguf", "blk.0.ffn_down.weight");
        row("gguf-unknown-type.gguf", "blk.1.attn_q.weight");
        row("hf-no-config", "no config.json");
        row("hf-bad-json", "not valid JSON");
        row("hf-unsupported-arch", "model_type 'bert' is not supported");
        row("hf-missing-key", "has no 'hidden_size'");
        row("hf-bad-gqa", "cannot be grouped");
        row("hf-unsupported-rope", "rope_scaling type 'yarn' is not supported");
        row("hf-config-disagrees", "has shape [48, 32] but config.json implies [64, 32]");
        row("hf-no-weights", "has no model.safetensors");
        row("hf-pytorch-bin", "pytorch_model.bin");
        row("hf-missing-shard", "model-00002-of-00002.safetensors does not exist");
        row("hf-missing-tensor", "tensor 'model.layers.1.mlp.up_proj.weight' is missing from model.safetensors");
        row("hf-unsupported-dtype", "dtype I32, which is not supported");
        row("safetensors-truncated", "truncated");
        row("safetensors-bad-header", "not a safetensors file");
    }
    void badInputIsOneSentence() {
        QFETCH(QString, kind);
        QFETCH(QString, needle);
        const QString path = make(kind);
        auto loaded = Model::load(path);
        QVERIFY(!loaded);
        const Error& error = loaded.error();
        QCOMPARE(error.kind, ErrorKind::BadInput);
        QVERIFY2(error.message.contains(needle), qPrintable(error.message));
        QVERIFY2(!error.message.contains(QLatin1Char('\n')), qPrintable(error.message));

        const Captured c = runSwb({QStringLiteral("info"), QStringLiteral("--model"), path});
        QCOMPARE(c.status, 2);
        QVERIFY(c.out.isEmpty());
        QVERIFY2(c.err.startsWith(QStringLiteral("swb: ")) && c.err.count(QLatin1Char('\n')) == 1, qPrintable(c.err));
        QVERIFY2(c.err.contains(needle), qPrintable(c.err));
    }

    void badOptionsExit2_data() {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("needle");
        QTest::newRow("dtype") << QStringList{QStringLiteral("--dtype"), QStringLiteral("f8")}
                               << QStringLiteral("'f8'");
        QTest::newRow("device") << QStringList{QStringLiteral("--device"), QStringLiteral("tpu")}
                                << QStringLiteral("'tpu'");
        QTest::newRow("threads") << QStringList{QStringLiteral("--threads"), QStringLiteral("0")}
                                 << QStringLiteral("--threads");
        QTest::newRow("missing tokenizer")
            << QStringList{QStringLiteral("--tokenizer"), m_dir.filePath(QStringLiteral("no-tok.bin"))}
            << QStringLiteral("no-tok.bin");
    }
    void badOptionsExit2() {
        QFETCH(QStringList, extra);
        QFETCH(QString, needle);
        const QString model = m_dir.filePath(QStringLiteral("good.bin"));
        QVERIFY(writeBytes(model, llama2cBytes(m_weights, 1)));
        const Captured c = runSwb(QStringList{QStringLiteral("info"), QStringLiteral("--model"), model} + extra);
        QCOMPARE(c.status, 2);
        QVERIFY2(c.err.contains(needle) && c.err.count(QLatin1Char('\n')) == 1, qPrintable(c.err));
    }

    void infoPrintsOneJsonObject() {
        const QString model = m_dir.filePath(QStringLiteral("info-hf"));
        QVERIFY(writeHfLlama(model, m_weights));
        const Captured c = runSwb({QStringLiteral("info"), QStringLiteral("--model"), model});
        QCOMPARE(c.status, 0);
        const QJsonObject json = QJsonDocument::fromJson(c.out.toUtf8()).object();
        QCOMPARE(json.value(QLatin1String("format")).toString(), QStringLiteral("hf-safetensors"));
        QCOMPARE(json.value(QLatin1String("architecture")).toString(), QStringLiteral("llama"));
        QCOMPARE(json.value(QLatin1String("layers")).toInt(), 2);
        QCOMPARE(json.value(QLatin1String("heads")).toInt(), 4);
        QCOMPARE(json.value(QLatin1String("kv_heads")).toInt(), 2);
        QCOMPARE(json.value(QLatin1String("vocab_size")).toInt(), 64);
        QCOMPARE(json.value(QLatin1String("context_length")).toInt(), 64);
        QCOMPARE(json.value(QLatin1String("file_dtype")).toString(), QStringLiteral("f32"));
        QCOMPARE(json.value(QLatin1String("file_bytes")).toDouble(),
                 static_cast<double>(QFileInfo(model + QStringLiteral("/model.safetensors")).size()));
        // embed + lm_head 2*64*32, final norm 32, per layer as in tst_model.
        QCOMPARE(json.value(QLatin1String("parameters")).toDouble(), 4096.0 + 32 + 2 * (64 + 3072 + 3 * 1536));
        QCOMPARE(json.value(QLatin1String("eos_token_ids")).toArray(), QJsonArray{2});
        QVERIFY(json.contains(QLatin1String("content_hash")));
    }

    // --fast-math is labelled where it takes effect (quantized weights on the CPU kernels) and nowhere else.
    void infoSaysWhenFastMathIsOn() {
        const QString quantized = m_dir.filePath(QStringLiteral("fast-q4k.gguf"));
        const Captured written =
            runSwb({QStringLiteral("bench"), QStringLiteral("decode"), QStringLiteral("--write-random-model"), quantized,
                    QStringLiteral("--random-shape"), QStringLiteral("256,1,4,512,256,64"), QStringLiteral("--weight-type"),
                    QStringLiteral("q4_k")});
        QVERIFY2(written.status == 0, qPrintable(written.err));
        const QString floats = m_dir.filePath(QStringLiteral("fast-f32.bin"));
        QVERIFY(writeBytes(floats, llama2cBytes(m_weights, 1)));
        const auto fastMath = [this](const QString& model, bool flag) {
            QStringList args{QStringLiteral("info"), QStringLiteral("--model"), model};
            if (flag)
                args << QStringLiteral("--fast-math");
            const Captured c = runSwb(args);
            if (c.status != 0)
                return QStringLiteral("exit %1: %2").arg(c.status).arg(c.err);
            return QJsonDocument::fromJson(c.out.toUtf8()).object().value(QLatin1String("fast_math")).toBool()
                       ? QStringLiteral("on")
                       : QStringLiteral("off");
        };
        // llama2.c's int8 groups are expanded to float32 at load: no fast kernel reads them.
        const QString groups = m_dir.filePath(QStringLiteral("fast-int8.bin"));
        LlamaWeights expanded = m_weights;
        QVERIFY(writeBytes(groups, llama2cQ8Bytes(expanded, 16)));
        QCOMPARE(fastMath(quantized, false), QStringLiteral("off"));
        QCOMPARE(fastMath(quantized, true), QStringLiteral("on"));
        QCOMPARE(fastMath(floats, true), QStringLiteral("off"));
        QCOMPARE(fastMath(groups, true), QStringLiteral("off"));
        ModelOptions options;
        options.fastMath = true;
        auto loaded = Model::load(groups, options);
        QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().message));
        QVERIFY(!loaded.value()->info().fastMath);
        loaded = Model::load(quantized, options);
        QVERIFY(loaded);
        QVERIFY(loaded.value()->info().fastMath);
    }

    // The bench on a tiny random model written by swb itself: every figure present and sane.
    void benchDecodeReportsFigures() {
        const QString model = m_dir.filePath(QStringLiteral("bench.bin"));
        const Captured written =
            runSwb({QStringLiteral("bench"), QStringLiteral("decode"), QStringLiteral("--write-random-model"), model,
                    QStringLiteral("--random-shape"), QStringLiteral("64,2,4,96,128,64")});
        QVERIFY2(written.status == 0, qPrintable(written.err));
        // 2 layers of (4*64*64 + 3*96*64 + 2*64) + 128*64 embedding + 64 final norm, float32, 256-byte header.
        QCOMPARE(QFileInfo(model).size(), 256 + 4 * (2 * (16384 + 18432 + 128) + 8192 + 64));
        const Captured c = runSwb({QStringLiteral("bench"), QStringLiteral("decode"), QStringLiteral("--model"), model,
                                   QStringLiteral("--tokens"), QStringLiteral("8"), QStringLiteral("--prompt-tokens"),
                                   QStringLiteral("4"), QStringLiteral("--threads"), QStringLiteral("1"),
                                   QStringLiteral("--probe-megabytes"), QStringLiteral("16")});
        QVERIFY2(c.status == 0, qPrintable(c.err));
        const QJsonObject json = QJsonDocument::fromJson(c.out.toUtf8()).object();
        for (const char* key : {"prefill_tok_s", "decode_tok_s", "ms_per_token", "model_bytes", "effective_gb_s",
                                "machine_read_gb_s", "bandwidth_fraction", "peak_rss_bytes"})
            QVERIFY2(json.value(QLatin1String(key)).toDouble() > 0, key);
        QCOMPARE(json.value(QLatin1String("decode_tokens")).toInt(), 8);
        QCOMPARE(json.value(QLatin1String("threads")).toInt(), 1);

        const Captured tooLong = runSwb({QStringLiteral("bench"), QStringLiteral("decode"), QStringLiteral("--model"),
                                         model, QStringLiteral("--tokens"), QStringLiteral("100")});
        QCOMPARE(tooLong.status, 2);
        QVERIFY2(tooLong.err.contains(QLatin1String("context length of 64")), qPrintable(tooLong.err));
    }
};

QTEST_GUILESS_MAIN(TestModelErrors)
#include "tst_model_errors.moc"
