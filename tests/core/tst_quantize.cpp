// swb quantize and swb divergence (core/quantization): the type each tensor gets against llama.cpp's quantizer
// (tests/data/quantize/recipes.json, from llama-quantize --dry-run), the quantized blocks and whole files against
// llama.cpp's own (blocks.json: sha256 of every tensor and file llama-quantize wrote from the same input), the file
// around them,
// refused inputs that must leave every file as it was, and the divergence figures against a float64
// computation written here.

#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <numeric>
#include <set>

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "CheckpointWriters.h"
#include "TestSupport.h"
#include "VocabCases.h"
#include "cli/RandomModelWriter.h"
#include "formats/GgufDequantize.h"
#include "formats/GgufFile.h"
#include "formats/GgufWriter.h"
#include "model/Model.h"
#include "model/ModelConfig.h"
#include "quantization/Divergence.h"
#include "quantization/GgufVocabulary.h"
#include "quantization/Quantizer.h"
#include "sampling/Strategy.h"
#include "tokenizer/GgufVocabLoader.h"
#include "tokenizer/TokenizerLoader.h"

using namespace swb;
using namespace swb::quantization;

namespace {

QJsonObject fixture(const QString& name) {
    QFile file(QStringLiteral(SWB_TEST_DATA_DIR "/quantize/") + name);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QByteArray sha256(const void* data, std::uint64_t bytes) {
    return QCryptographicHash::hash(QByteArrayView(static_cast<const char*>(data), static_cast<qsizetype>(bytes)),
                                    QCryptographicHash::Sha256)
        .toHex();
}

QByteArray fileSha256(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

// The input of blocks.json, as its README says it was made: `swb bench decode --write-random-model PATH
// --weight-type f16 --random-shape 256,2,4,288,64,64 --kv-heads 2 --seed 7`.
QString writeBlocksInput(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("input-f16.gguf"));
    cli::RandomShape shape;
    shape.dim = 256;
    shape.layers = 2;
    shape.heads = 4;
    shape.kvHeads = 2;
    shape.hidden = 288;
    shape.vocab = 64;
    shape.context = 64;
    const QString error = cli::writeRandomGguf(path, shape, QStringLiteral("f16"), 7);
    return error.isEmpty() ? path : QString();
}

Recipe recipe(const QString& name) {
    Result<Recipe> r = recipeNamed(name);
    return r ? *r : Recipe{};
}

QStringList fileNames(const QString& dir) {
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot);
}

// The blocks.json input and its q2_k recipe, written into dir and both loaded; false when a step fails.
bool loadOriginalAndQ2K(const QTemporaryDir& dir, std::unique_ptr<Model>& original, std::unique_ptr<Model>& quantized) {
    QuantizeOptions options;
    options.input = writeBlocksInput(dir);
    options.output = dir.filePath(QStringLiteral("q2_k.gguf"));
    options.recipe = recipe(QStringLiteral("q2_k"));
    if (options.input.isEmpty() || !quantizeModel(options))
        return false;
    Result<std::unique_ptr<Model>> a = Model::load(options.input);
    Result<std::unique_ptr<Model>> b = Model::load(options.output);
    if (!a || !b)
        return false;
    original = std::move(a).value();
    quantized = std::move(b).value();
    return true;
}

// The 320-token byte-level tokenizer.json of the transformers reference models, for the random models below.
bool copyTestTokenizer(const QString& folder) {
    return QFile::copy(QStringLiteral(SWB_TEST_DATA_DIR "/transformers-reference/llama/tokenizer.json"),
                       QDir(folder).filePath(QStringLiteral("tokenizer.json")));
}

// Every value of the model rounded to bfloat16, as a BF16 checkpoint of it holds them.
test::LlamaWeights roundedToBf16(test::LlamaWeights w) {
    const auto round = [](test::Floats& v) {
        for (float& x : v)
            x = test::fromBfloat16(test::toBfloat16(x));
    };
    for (test::Floats* v : {&w.embed, &w.output, &w.norm})
        round(*v);
    for (test::LlamaLayer& l : w.layers)
        for (test::Floats* v :
             {&l.attnNorm, &l.wq, &l.wk, &l.wv, &l.wo, &l.bq, &l.bk, &l.bv, &l.ffnNorm, &l.w1, &l.w2, &l.w3})
            round(*v);
    return w;
}

} // namespace

class TestQuantize : public QObject {
    Q_OBJECT

private slots:
    void recipesChooseLlamaCppsTypes_data();
    void recipesChooseLlamaCppsTypes();
    void blocksEqualLlamaQuantizes_data();
    void blocksEqualLlamaQuantizes();
    void metadataAndVocabularyCarryOver();
    void huggingFaceFolderBecomesTheConvertersGguf_data();
    void huggingFaceFolderBecomesTheConvertersGguf();
    void vocabularyFromTokenizerJsonSplitsAsLlamaCpp_data();
    void vocabularyFromTokenizerJsonSplitsAsLlamaCpp();
    void demoModelConvertsWithoutChangingAProbability();
    void quantizingAFolderIsQuantizingItsF32Conversion_data();
    void quantizingAFolderIsQuantizingItsF32Conversion();
    void fallbackIsSaid();
    void overridesPickTheirTensors();
    void refusedInputsLeaveEveryFile_data();
    void refusedInputsLeaveEveryFile();
    void fullDiskRemovesThePartialOutput();
    void cancelWritesNothing();
    void divergenceEqualsFloat64();
    void divergenceOfIdenticalModelsIsZero();
    void divergenceRecordsEachChainsCut();
    void divergenceCommandLine();
    void topNDivergenceIsALowerBound();
};

void TestQuantize::recipesChooseLlamaCppsTypes_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<QString>("recipe");
    const QJsonObject all = fixture(QStringLiteral("recipes.json"));
    QVERIFY2(!all.isEmpty(), "tests/data/quantize/recipes.json is missing");
    for (const QString& shape : all.keys())
        for (const QString& name : all[shape][QStringLiteral("recipes")].toObject().keys())
            QTest::addRow("%s %s", qPrintable(shape), qPrintable(name)) << shape << name;
}

void TestQuantize::recipesChooseLlamaCppsTypes() {
    QFETCH(QString, shape);
    QFETCH(QString, recipe);
    const QJsonObject entry = fixture(QStringLiteral("recipes.json"))[shape].toObject();
    const QJsonObject s = entry[QStringLiteral("shape")].toObject();
    ModelShape model;
    model.architecture = s[QStringLiteral("architecture")].toString().toStdString();
    model.layers = s[QStringLiteral("layers")].toInt();
    model.heads = s[QStringLiteral("heads")].toInt();
    model.kvHeads = s[QStringLiteral("kv_heads")].toInt();
    std::vector<TensorInfo> tensors;
    for (const QJsonValue& t : entry[QStringLiteral("tensors")].toArray()) {
        TensorInfo info{t[0].toString().toStdString(), {}, kernels::WeightType::F32};
        for (const QJsonValue& d : t[1].toArray())
            info.dims.push_back(d.toInteger());
        tensors.push_back(info);
    }
    // llama-quantize lists them in the order it visits them, which our order must be too.
    std::vector<TensorInfo> sorted = tensors;
    std::reverse(sorted.begin(), sorted.end());
    sortAsLlamaCpp(sorted);
    for (std::size_t i = 0; i < tensors.size(); ++i)
        QCOMPARE(sorted[i].name, tensors[i].name);

    Result<Recipe> r = recipeNamed(recipe);
    QVERIFY(r);
    const std::vector<TensorChoice> choices = chooseTypes(tensors, model, *r, false, {});
    const QStringList expected = entry[QStringLiteral("recipes")][recipe].toString().split(QLatin1Char(' '));
    QCOMPARE(static_cast<qsizetype>(choices.size()), expected.size());
    for (std::size_t i = 0; i < choices.size(); ++i)
        QVERIFY2(QLatin1String(kernels::traits(choices[i].type).name) == expected[static_cast<qsizetype>(i)],
                 qPrintable(QStringLiteral("%1: %2, llama.cpp %3")
                                .arg(QString::fromStdString(tensors[i].name),
                                     QLatin1String(kernels::traits(choices[i].type).name),
                                     expected[static_cast<qsizetype>(i)])));
}

void TestQuantize::blocksEqualLlamaQuantizes_data() {
    QTest::addColumn<QString>("recipe");
    QTest::addColumn<bool>("pure");
    const QJsonObject all = fixture(QStringLiteral("blocks.json"));
    QVERIFY2(!all.isEmpty(), "tests/data/quantize/blocks.json is missing");
    for (const QString& key : all[QStringLiteral("outputs")].toObject().keys()) {
        const bool pure = key.endsWith(QLatin1String("-pure"));
        QTest::addRow("%s", qPrintable(key)) << (pure ? key.chopped(5) : key) << pure;
    }
}

void TestQuantize::blocksEqualLlamaQuantizes() {
    QFETCH(QString, recipe);
    QFETCH(bool, pure);
    const QJsonObject all = fixture(QStringLiteral("blocks.json"));
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    QVERIFY(!input.isEmpty());
    QCOMPARE(fileSha256(input), all[QStringLiteral("input_sha256")].toString().toLatin1());

    QuantizeOptions options;
    options.input = input;
    options.output = dir.filePath(QStringLiteral("out.gguf"));
    options.recipe = ::recipe(recipe);
    options.pure = pure;
    Result<QuantizeReport> report = quantizeModel(options);
    QVERIFY2(report, report ? "" : qPrintable(report.error().message));

    Result<GgufFile> out = GgufFile::open(options.output);
    QVERIFY(out);
    const QJsonObject expected =
        all[QStringLiteral("outputs")][recipe + (pure ? QStringLiteral("-pure") : QString())].toObject();
    QCOMPARE(static_cast<qsizetype>(out->tensors().size()), expected.size());
    for (const GgufFile::Tensor& t : out->tensors()) {
        const QJsonArray want = expected[QString::fromStdString(t.name)].toArray();
        QVERIFY2(!want.isEmpty(), t.name.c_str());
        QCOMPARE(static_cast<int>(t.type), want[0].toInt());
        QVERIFY2(sha256(t.data, t.bytes) == want[1].toString().toLatin1(),
                 qPrintable(QStringLiteral("%1 (%2): its blocks differ from llama-quantize's")
                                .arg(QString::fromStdString(t.name), ggmlTypeName(t.type))));
    }
    // And the file as a whole, metadata, order and padding included, is byte for byte llama-quantize's.
    const QString key = recipe + (pure ? QStringLiteral("-pure") : QString());
    QCOMPARE(fileSha256(options.output), all[QStringLiteral("files")][key].toString().toLatin1());
}

void TestQuantize::metadataAndVocabularyCarryOver() {
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    QVERIFY(!input.isEmpty());
    QuantizeOptions options;
    options.input = input;
    options.output = dir.filePath(QStringLiteral("q4_k_m.gguf"));
    options.recipe = recipe(QStringLiteral("Q4_K_M"));
    Result<QuantizeReport> report = quantizeModel(options);
    QVERIFY(report);
    Result<GgufFile> in = GgufFile::open(input);
    Result<GgufFile> out = GgufFile::open(options.output);
    QVERIFY(in && out);
    // Every key of the input, in its order, then the two llama.cpp sets last: the quantization version and the
    // file type (moved from its place).
    QStringList keys = in->keys();
    keys.removeAll(QStringLiteral("general.file_type"));
    keys << QStringLiteral("general.quantization_version") << QStringLiteral("general.file_type");
    QCOMPARE(out->keys(), keys);
    QCOMPARE(out->integer("general.file_type"), std::optional<std::int64_t>(15)); // LLAMA_FTYPE_MOSTLY_Q4_K_M
    QCOMPARE(out->integer("general.quantization_version"), std::optional<std::int64_t>(2));
    QCOMPARE(out->stringArray("tokenizer.ggml.tokens"), in->stringArray("tokenizer.ggml.tokens"));
    QCOMPARE(out->floatArray("tokenizer.ggml.scores"), in->floatArray("tokenizer.ggml.scores"));
    QCOMPARE(out->integer("llama.block_count"), in->integer("llama.block_count"));
    // The sizes the report gives are the file's: data bytes summed, the whole file on disk.
    std::uint64_t data = 0;
    for (const GgufFile::Tensor& t : out->tensors())
        data += t.bytes;
    QCOMPARE(report->outputDataBytes, data);
    QCOMPARE(report->outputFileBytes, out->fileSize());
    // The model loads and its norms (f32, never quantized) are the input's, byte for byte.
    const GgufFile::Tensor* normIn = in->tensor("output_norm.weight");
    const GgufFile::Tensor* normOut = out->tensor("output_norm.weight");
    QVERIFY(normIn && normOut);
    QCOMPARE(sha256(normOut->data, normOut->bytes), sha256(normIn->data, normIn->bytes));
    Result<std::unique_ptr<Model>> model = Model::load(options.output);
    QVERIFY2(model, model ? "" : qPrintable(model.error().message));
}

void TestQuantize::huggingFaceFolderBecomesTheConvertersGguf_data() {
    QTest::addColumn<QString>("variant");
    for (const char* v : {"llama", "llama bf16 with biases", "llama3 rope scaling", "qwen2 tied with biases",
                          "llama in two shards", "gpt2"})
        QTest::newRow(v) << QString::fromLatin1(v);
}

// A Hugging Face folder quantized to f32 is the GGUF llama.cpp's converter writes of it (tests/CheckpointWriters.h
// writes both from the same weights, the converter's rules worked out there): the same tensors, bytes for bytes,
// and the same hyperparameters.
void TestQuantize::huggingFaceFolderBecomesTheConvertersGguf() {
    QFETCH(QString, variant);
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("hf"));
    const QString expectedPath = dir.filePath(QStringLiteral("expected.gguf"));
    if (variant == QLatin1String("gpt2")) {
        test::Gpt2Shape shape;
        shape.vocab = 320;
        const test::Gpt2Weights w = test::randomGpt2(shape, 11);
        QVERIFY(test::writeHfGpt2(folder, w, "transformer."));
        QVERIFY(test::ggufGpt2(w).write(expectedPath));
    } else {
        test::LlamaShape shape;
        shape.vocab = 320;
        shape.qkvBias = variant.contains(QLatin1String("biases"));
        shape.tied = variant.contains(QLatin1String("tied"));
        shape.llama3Scaling = variant.contains(QLatin1String("llama3"));
        const bool qwen2 = variant.startsWith(QLatin1String("qwen2"));
        const bool bf16 = variant.contains(QLatin1String("bf16"));
        const test::LlamaWeights w = test::randomLlama(shape, 5);
        QVERIFY(test::writeHfLlama(folder, w, qwen2 ? QStringLiteral("qwen2") : QStringLiteral("llama"),
                                   bf16 ? QStringLiteral("BF16") : QStringLiteral("F32"),
                                   variant.contains(QLatin1String("shards")) ? 2 : 1));
        QVERIFY(test::ggufLlama(bf16 ? roundedToBf16(w) : w, qwen2 ? "qwen2" : "llama").write(expectedPath));
        if (shape.qkvBias && !qwen2) { // transformers reads a Llama's biases only with attention_bias
            QFile config(QDir(folder).filePath(QStringLiteral("config.json")));
            QVERIFY(config.open(QIODevice::ReadWrite));
            QJsonObject json = QJsonDocument::fromJson(config.readAll()).object();
            json[QStringLiteral("attention_bias")] = true;
            config.resize(0);
            config.write(QJsonDocument(json).toJson());
        }
    }
    QVERIFY(copyTestTokenizer(folder));

    QuantizeOptions options;
    options.input = folder;
    options.output = dir.filePath(QStringLiteral("out.gguf"));
    options.recipe = recipe(QStringLiteral("f32"));
    Result<QuantizeReport> report = quantizeModel(options);
    QVERIFY2(report, qPrintable(report ? QString() : report.error().message));
    Result<GgufFile> out = GgufFile::open(options.output);
    Result<GgufFile> expected = GgufFile::open(expectedPath);
    QVERIFY(out && expected);

    std::set<std::string> names, expectedNames;
    for (const GgufFile::Tensor& t : out->tensors())
        names.insert(t.name);
    for (const GgufFile::Tensor& t : expected->tensors())
        expectedNames.insert(t.name);
    QCOMPARE(names, expectedNames);
    for (const GgufFile::Tensor& e : expected->tensors()) {
        const GgufFile::Tensor* t = out->tensor(e.name);
        QCOMPARE(t->dims, e.dims);
        QCOMPARE(t->type, e.type);
        QCOMPARE(t->bytes, e.bytes);
        if (e.name == "rope_freqs.weight") {
            // The converter works the frequencies out in float32 (torch), the test's writer in double.
            const auto* a = reinterpret_cast<const float*>(t->data);
            const auto* b = reinterpret_cast<const float*>(e.data);
            for (std::int64_t i = 0; i < e.elements(); ++i)
                QVERIFY2(std::fabs(a[i] - b[i]) <= 1e-6f * std::fabs(b[i]), qPrintable(QString::number(i)));
        } else {
            QVERIFY2(std::memcmp(t->data, e.data, e.bytes) == 0, e.name.c_str());
        }
    }
    for (const QString& key : expected->keys())
        if (key != QLatin1String("general.name"))
            QVERIFY2(out->encodedValue(key.toStdString()) == expected->encodedValue(key.toStdString()),
                     qPrintable(key));
    // The vocabulary came along: the file tokenizes as the folder does.
    Result<std::unique_ptr<Tokenizer>> ours = GgufVocabLoader::load(*out);
    Result<std::unique_ptr<Tokenizer>> theirs = loadTokenizer(folder);
    QVERIFY(ours && theirs);
    const std::string text = "It's 12345 \t words, caf\xc3\xa9!\n\n end";
    QCOMPARE((*ours)->encode(text, true, false), (*theirs)->encode(text, true, false));
}

void TestQuantize::vocabularyFromTokenizerJsonSplitsAsLlamaCpp_data() {
    QTest::addColumn<QString>("vocab");
    for (const QString& v : test::referenceVocabNames())
        QTest::newRow(qPrintable(v)) << v;
}

// llama.cpp's reference vocabularies written as tokenizer.json (as transformers' converters write them), turned
// back into GGUF metadata: llama.cpp's own expected ids for its 46 test texts, and for byte-level BPE the very
// tokens, types, merges and pre-tokenizer name of the reference file.
void TestQuantize::vocabularyFromTokenizerJsonSplitsAsLlamaCpp() {
    QFETCH(QString, vocab);
    if (test::referenceDir().isEmpty())
        QSKIP("../shared/reference is absent: the reference vocabularies are not here");
    QTemporaryDir dir;
    QVERIFY(test::writeReferenceTokenizerJson(vocab, dir.path()));
    Result<GgufFile> reference = GgufFile::open(test::referenceVocabPath(vocab));
    QVERIFY(reference);
    ModelConfig config;
    config.vocabSize = static_cast<int>(reference->stringArray("tokenizer.ggml.tokens")->size());
    QStringList notes;
    Result<GgufVocabulary> v = ggufVocabulary(dir.path(), config, notes);
    QVERIFY2(v, qPrintable(v ? QString() : v.error().message));
    const QString written = dir.filePath(QStringLiteral("vocabulary.gguf"));
    {
        GgufWriter writer(written);
        v->write(writer);
        QVERIFY(writer.begin() && writer.finish());
    }
    Result<std::unique_ptr<Tokenizer>> tokenizer = GgufVocabLoader::load(written);
    QVERIFY(tokenizer);
    QString error;
    const std::vector<test::VocabCase> cases = test::readVocabCases(vocab, &error);
    QVERIFY2(cases.size() == 46, qPrintable(error));
    for (const test::VocabCase& c : cases) {
        const std::vector<TokenId> ids = (*tokenizer)->encode(c.text.toStdString(), false, false);
        QVERIFY2(std::vector<int>(ids.begin(), ids.end()) == c.ids, c.text.constData());
    }
    Result<GgufFile> file = GgufFile::open(written);
    QVERIFY(file);
    QCOMPARE(file->string("tokenizer.ggml.model"), reference->string("tokenizer.ggml.model"));
    QCOMPARE(file->stringArray("tokenizer.ggml.tokens"), reference->stringArray("tokenizer.ggml.tokens"));
    if (v->model == "gpt2") {
        QCOMPARE(file->string("tokenizer.ggml.pre"), reference->string("tokenizer.ggml.pre"));
        QCOMPARE(file->stringArray("tokenizer.ggml.merges"), reference->stringArray("tokenizer.ggml.merges"));
        QCOMPARE(file->intArray("tokenizer.ggml.token_type"), reference->intArray("tokenizer.ggml.token_type"));
    }
}

void TestQuantize::quantizingAFolderIsQuantizingItsF32Conversion_data() {
    QTest::addColumn<QString>("recipe");
    for (const char* r : {"q8_0", "q4_k_m", "f16"})
        QTest::newRow(r) << QString::fromLatin1(r);
}

// Each tensor of a folder stands for its f32 conversion: quantizing the folder writes the very file that
// converting it to f32 and quantizing that GGUF writes (as llama.cpp's two steps, convert then quantize).
void TestQuantize::quantizingAFolderIsQuantizingItsF32Conversion() {
    QFETCH(QString, recipe);
    QTemporaryDir dir;
    const QString folder = QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
    QuantizeOptions options;
    options.input = folder;
    options.output = dir.filePath(QStringLiteral("f32.gguf"));
    options.recipe = ::recipe(QStringLiteral("f32"));
    QVERIFY(quantizeModel(options));
    options.input = options.output;
    options.output = dir.filePath(QStringLiteral("two-steps.gguf"));
    options.recipe = ::recipe(recipe);
    QVERIFY(quantizeModel(options));
    options.input = folder;
    options.output = dir.filePath(QStringLiteral("one-step.gguf"));
    Result<QuantizeReport> report = quantizeModel(options);
    QVERIFY2(report, qPrintable(report ? QString() : report.error().message));
    QCOMPARE(fileSha256(dir.filePath(QStringLiteral("one-step.gguf"))),
             fileSha256(dir.filePath(QStringLiteral("two-steps.gguf"))));
}

// The bundled demo model (a bf16 Hugging Face folder) to an f32 GGUF: every next-token distribution the same
// as the folder's, to float32 rounding, and the same tokens; llama.cpp's own reading of the file is checked
// outside the suite (README).
void TestQuantize::demoModelConvertsWithoutChangingAProbability() {
    QTemporaryDir dir;
    QuantizeOptions options;
    options.input = QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
    options.output = dir.filePath(QStringLiteral("kjv-f32.gguf"));
    options.recipe = recipe(QStringLiteral("f32"));
    Result<QuantizeReport> report = quantizeModel(options);
    QVERIFY2(report, qPrintable(report ? QString() : report.error().message));
    QVERIFY(report->notes.contains(QStringLiteral("vocabulary: byte-level BPE, pre-tokenizer gpt-2")));
    Result<std::unique_ptr<Model>> a = Model::load(options.input);
    Result<std::unique_ptr<Model>> b = Model::load(options.output);
    QVERIFY(a && b);
    const std::string text = "And God said, Let there be light: and there was light.\n"
                             "And God saw the light, that it was good.";
    Result<std::unique_ptr<Tokenizer>> ta = loadTokenizer(options.input);
    Result<std::unique_ptr<Tokenizer>> tb = loadTokenizer(options.output);
    QVERIFY(ta && tb);
    const std::vector<TokenId> ids = (*ta)->encode(text, true, false);
    QCOMPARE((*tb)->encode(text, true, false), ids);
    Result<DivergenceResult> r = measureDivergence(**a, **b, ids);
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    const DivergenceSummary& d = r->summary;
    QVERIFY(d.tokens > 20);
    QCOMPARE(d.sameTop1, 1.0);
    QVERIFY2(d.maxKl < 1e-9, qPrintable(QString::number(d.maxKl)));
}

void TestQuantize::fallbackIsSaid() {
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    QuantizeOptions options;
    options.input = input;
    options.output = dir.filePath(QStringLiteral("q4_k.gguf"));
    options.recipe = recipe(QStringLiteral("q4_k_s"));
    options.pure = true;
    Result<QuantizeReport> report = quantizeModel(options);
    QVERIFY(report);
    // ffn_down's rows are 288 long: not whole Q4_K blocks (256), so Q5_0 as llama.cpp falls back; said once per
    // tensor.
    QCOMPARE(report->notes.size(), 2);
    QVERIFY(report->notes[0].startsWith(QLatin1String("blk.0.ffn_down.weight: its rows of 288 are not whole blocks of "
                                                      "q4_k (256 elements); q5_0 instead")));
    Result<GgufFile> out = GgufFile::open(options.output);
    QCOMPARE(out->tensor("blk.1.ffn_down.weight")->type, 6u); // Q5_0
}

void TestQuantize::overridesPickTheirTensors() {
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    QuantizeOptions options;
    options.input = input;
    options.output = dir.filePath(QStringLiteral("mixed.gguf"));
    options.recipe = recipe(QStringLiteral("q4_0"));
    Result<Override> attention = parseOverride(QStringLiteral("attn_(q|k)=q8_0"));
    Result<Override> first = parseOverride(QStringLiteral("^blk\\.0\\.ffn_up=F16"));
    QVERIFY(attention && first);
    options.overrides = {*attention, *first};
    Result<QuantizeReport> report = quantizeModel(options);
    QVERIFY(report);
    Result<GgufFile> out = GgufFile::open(options.output);
    QCOMPARE(out->tensor("blk.1.attn_q.weight")->type, 8u);    // Q8_0
    QCOMPARE(out->tensor("blk.0.attn_k.weight")->type, 8u);    // Q8_0
    QCOMPARE(out->tensor("blk.0.attn_v.weight")->type, 2u);    // Q4_0, the recipe's
    QCOMPARE(out->tensor("blk.0.ffn_up.weight")->type, 1u);    // F16
    QCOMPARE(out->tensor("blk.1.ffn_up.weight")->type, 2u);    // Q4_0
    QCOMPARE(out->tensor("output.weight")->type, 14u);         // Q6_K, as llama.cpp's q4_0 recipe gives it
    QCOMPARE(out->tensor("blk.0.attn_norm.weight")->type, 0u); // F32: norms are never quantized

    for (const char* bad : {"attn_q", "attn_q=q9_9", "(=q8_0", "=q8_0"}) {
        Result<Override> o = parseOverride(QString::fromLatin1(bad));
        QVERIFY2(!o, bad);
        QVERIFY(o.error().message.startsWith(QStringLiteral("--keep '%1'").arg(QLatin1String(bad))));
    }
}

void TestQuantize::refusedInputsLeaveEveryFile_data() {
    QTest::addColumn<QStringList>("arguments"); // IN OUT stand for the input model and an existing output file
    QTest::addColumn<QString>("message");
    QTest::newRow("output is the input") << QStringList{"quantize", "IN", "IN", "--type", "q8_0"}
                                         << "is the input model; name another file";
    QTest::newRow("unknown recipe") << QStringList{"quantize", "IN", "OUT", "--type", "q4_k_xl"}
                                    << "there is no quantization recipe 'q4_k_xl' (the recipes: f32, f16";
    QTest::newRow("q2_k_s needs an imatrix")
        << QStringList{"quantize", "IN", "OUT", "--type", "Q2_K_S"} << "recipe q2_k_s needs an importance matrix";
    QTest::newRow("requantizing") << QStringList{"quantize", "QUANTIZED", "OUT", "--type", "q8_0"}
                                  << "is already quantized (q4_k); swb quantize starts from float weights";
    QTest::newRow("not a gguf") << QStringList{"quantize", "OUT", "OTHER", "--type", "q8_0"} << "is not a GGUF file";
    QTest::newRow("one path") << QStringList{"quantize", "IN", "--type", "q8_0"}
                              << "swb quantize takes the input model and the output file";
    QTest::newRow("onto a store's write-ahead log")
        << QStringList{"quantize", "IN", "WAL", "--type", "q8_0"} << "belongs to the run store";
    QTest::newRow("onto the input through a hard link")
        << QStringList{"quantize", "IN", "LINK", "--type", "q8_0"} << "is the input model; name another file";
    QTest::newRow("onto a Hugging Face folder's weights")
        << QStringList{"quantize", "HF", "HF/model.safetensors", "--type", "q8_0"}
        << "is one of the input model's files; name another file";
    QTest::newRow("onto a Hugging Face folder's tokenizer")
        << QStringList{"quantize", "HF", "HF/tokenizer.json", "--type", "q8_0"}
        << "is one of the input model's files; name another file";
    QTest::newRow("a Hugging Face folder without tokenizer.json")
        << QStringList{"quantize", "HFNOTOK", "OUT", "--type", "q8_0"}
        << "has no tokenizer.json; a GGUF carries its vocabulary, so swb quantize needs one";
}

void TestQuantize::refusedInputsLeaveEveryFile() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    const QString quantized = dir.filePath(QStringLiteral("q4_k.gguf"));
    cli::RandomShape shape;
    shape.dim = 256;
    shape.layers = 1;
    shape.heads = 4;
    shape.hidden = 256;
    shape.vocab = 64;
    QVERIFY(cli::writeRandomGguf(quantized, shape, QStringLiteral("q4_k"), 1).isEmpty());
    const QString output = dir.filePath(QStringLiteral("existing.gguf"));
    {
        QFile f(output);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("the user's own file\n");
    }
    // A run store and its write-ahead log, which hold committed runs.
    const QString store = dir.filePath(QStringLiteral("runs.sqlite"));
    for (const QString& file : {store, store + QStringLiteral("-wal")}) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("committed runs\n");
    }
    const QString link = dir.filePath(QStringLiteral("link.gguf"));
    QVERIFY(QFile::link(input, link) || ::link(input.toLocal8Bit().constData(), link.toLocal8Bit().constData()) == 0);
    // Two Hugging Face folders, one without its tokenizer.
    const QString hf = dir.filePath(QStringLiteral("hf")),
                  hfWithoutTokenizer = dir.filePath(QStringLiteral("hf-notok"));
    test::LlamaShape shape320;
    shape320.vocab = 320; // the test tokenizer's
    const test::LlamaWeights weights = test::randomLlama(shape320, 3);
    QVERIFY(test::writeHfLlama(hf, weights) && test::writeHfLlama(hfWithoutTokenizer, weights));
    QVERIFY(copyTestTokenizer(hf));
    const QString hfWeights = QDir(hf).filePath(QStringLiteral("model.safetensors"));
    const QByteArray hfHash = fileSha256(hfWeights);
    const QByteArray tokenizerHash = fileSha256(QDir(hf).filePath(QStringLiteral("tokenizer.json")));
    QStringList args;
    for (QString a : arguments)
        args << (a.startsWith(QLatin1String("HF/")) ? a.replace(0, 2, hf)
                 : a == QLatin1String("HF")         ? hf
                 : a == QLatin1String("HFNOTOK")    ? hfWithoutTokenizer
                 : a == QLatin1String("IN")         ? input
                 : a == QLatin1String("OUT")        ? output
                 : a == QLatin1String("QUANTIZED")  ? quantized
                 : a == QLatin1String("WAL")        ? store + QStringLiteral("-wal")
                 : a == QLatin1String("LINK")       ? link
                 : a == QLatin1String("OTHER")      ? dir.filePath(QStringLiteral("other.gguf"))
                                                    : a);
    const QStringList before = fileNames(dir.path());
    const QByteArray inputHash = fileSha256(input);
    const QByteArray quantizedHash = fileSha256(quantized);
    const test::ProcessResult r = test::runSwbProcess(args);
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    QCOMPARE(r.err.count('\n') - r.err.count('\r'), 1); // one sentence (progress lines aside)
    QCOMPARE(fileNames(dir.path()), before);
    QCOMPARE(fileNames(hf), (QStringList{"config.json", "model.safetensors", "tokenizer.json"}));
    QCOMPARE(fileSha256(hfWeights), hfHash);
    QCOMPARE(fileSha256(QDir(hf).filePath(QStringLiteral("tokenizer.json"))), tokenizerHash);
    QCOMPARE(fileSha256(input), inputHash);
    QCOMPARE(fileSha256(quantized), quantizedHash);
    for (const QString& file : {store, store + QStringLiteral("-wal")}) {
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("committed runs\n"));
    }
    QFile f(output);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("the user's own file\n"));
}

void TestQuantize::fullDiskRemovesThePartialOutput() {
    // A file-size limit stands for a disk that fills: writes past it fail (EFBIG) as they would with ENOSPC.
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    const QString output = dir.filePath(QStringLiteral("out.gguf"));
    const QByteArray inputHash = fileSha256(input);
    const QStringList before = fileNames(dir.path());
    rlimit old{};
    getrlimit(RLIMIT_FSIZE, &old);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limited = old;
    limited.rlim_cur = 300 * 1024; // the input is 2 MB: it fits, the f32 output does not
    setrlimit(RLIMIT_FSIZE, &limited);
    QuantizeOptions options;
    options.input = input;
    options.output = output;
    options.recipe = recipe(QStringLiteral("f32"));
    Result<QuantizeReport> report = quantizeModel(options);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
    QVERIFY(!report);
    QVERIFY2(report.error().message.startsWith(QStringLiteral("cannot write %1: ").arg(output)),
             qPrintable(report.error().message));
    QCOMPARE(fileNames(dir.path()), before); // no partial output, no temporary left
    QCOMPARE(fileSha256(input), inputHash);
}

void TestQuantize::cancelWritesNothing() {
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    const QStringList before = fileNames(dir.path());
    QuantizeOptions options;
    options.input = input;
    options.output = dir.filePath(QStringLiteral("out.gguf"));
    options.recipe = recipe(QStringLiteral("q4_k_m"));
    int calls = 0;
    Result<QuantizeReport> report = quantizeModel(options, [&](const QuantizeProgress& p) {
        ++calls;
        return p.tensor < 5;
    });
    QVERIFY(!report);
    QCOMPARE(report.error().message, QStringLiteral("quantization cancelled; %1 was not written").arg(options.output));
    QVERIFY(calls >= 5);
    QCOMPARE(fileNames(dir.path()), before);
}

void TestQuantize::divergenceEqualsFloat64() {
    QTemporaryDir dir;
    std::unique_ptr<Model> a, b;
    QVERIFY(loadOriginalAndQ2K(dir, a, b));
    const std::vector<TokenId> ids = {1, 17, 42, 5, 63, 20, 20, 8, 31, 2, 50, 11};
    Result<DivergenceResult> result = measureDivergence(*a, *b, ids);
    QVERIFY(result);
    QCOMPARE(result->perToken.size(), ids.size() - 1);

    // The same figures from the logits, in long double, written out from the definitions.
    const int vocab = a->info().vocabSize;
    const std::vector<float> logitsA = a->forward(*a->newState(), ids, true).value();
    const std::vector<float> logitsB = b->forward(*b->newState(), ids, true).value();
    int same = 0;
    long double nllA = 0, nllB = 0;
    for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
        const float* la = logitsA.data() + i * vocab;
        const float* lb = logitsB.data() + i * vocab;
        long double za = 0, zb = 0;
        for (int v = 0; v < vocab; ++v) {
            za += std::exp(static_cast<long double>(la[v]));
            zb += std::exp(static_cast<long double>(lb[v]));
        }
        long double kl = 0;
        int topA = 0, topB = 0;
        for (int v = 0; v < vocab; ++v) {
            const long double pa = std::exp(static_cast<long double>(la[v])) / za;
            const long double pb = std::exp(static_cast<long double>(lb[v])) / zb;
            kl += pa * std::log(pa / pb);
            topA = la[v] > la[topA] ? v : topA;
            topB = lb[v] > lb[topB] ? v : topB;
        }
        const TokenDivergence& d = result->perToken[i];
        QVERIFY2(
            std::abs(d.kl - static_cast<double>(kl)) <= 1e-12 + 1e-9 * static_cast<double>(kl),
            qPrintable(QStringLiteral("position %1: %2 against %3").arg(i).arg(d.kl).arg(static_cast<double>(kl))));
        QCOMPARE(d.topA, topA);
        QCOMPARE(d.topB, topB);
        const long double lpA = std::log(std::exp(static_cast<long double>(la[ids[i + 1]])) / za);
        const long double lpB = std::log(std::exp(static_cast<long double>(lb[ids[i + 1]])) / zb);
        QVERIFY(std::abs(d.logpA - static_cast<double>(lpA)) < 1e-9);
        QVERIFY(std::abs(d.logpB - static_cast<double>(lpB)) < 1e-9);
        same += topA == topB ? 1 : 0;
        nllA -= lpA;
        nllB -= lpB;
    }
    const double n = static_cast<double>(ids.size() - 1);
    const DivergenceSummary& s = result->summary;
    QCOMPARE(s.sameTop1, same / n);
    QVERIFY(std::abs(s.pplA - std::exp(static_cast<double>(nllA) / n)) < 1e-9 * s.pplA);
    QVERIFY(std::abs(s.pplB - std::exp(static_cast<double>(nllB) / n)) < 1e-9 * s.pplB);
    QVERIFY(std::abs(s.deltaPplRelative - (s.pplB / s.pplA - 1)) < 1e-9);
    QVERIFY(s.deltaPplLow <= s.deltaPplRelative && s.deltaPplRelative <= s.deltaPplHigh);
    QVERIFY(s.meanKl > 0); // Q2_K moves a random model's distributions
}

void TestQuantize::divergenceOfIdenticalModelsIsZero() {
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    Result<std::unique_ptr<Model>> a = Model::load(input);
    Result<std::unique_ptr<Model>> b = Model::load(input);
    QVERIFY(a && b);
    Result<DivergenceResult> result = measureDivergence(**a, **b, {1, 9, 8, 7, 6, 5, 4});
    QVERIFY(result);
    const DivergenceSummary& s = result->summary;
    for (double v : {s.meanKl, s.medianKl, s.p90Kl, s.p99Kl, s.maxKl, s.deltaPplRelative, s.deltaPplLow, s.deltaPplHigh,
                     s.meanDeltaLogp, s.sdDeltaLogp, s.p1DeltaLogp, s.p99DeltaLogp})
        QCOMPARE(v, 0.0);
    QCOMPARE(s.sameTop1, 1.0);
    QCOMPARE(s.pplA, s.pplB);
}

void TestQuantize::divergenceRecordsEachChainsCut() {
    QTemporaryDir dir;
    std::unique_ptr<Model> a, b;
    QVERIFY(loadOriginalAndQ2K(dir, a, b));
    Result<Strategy> strategy = Strategy::parse(QStringLiteral(R"({"samplers": [{"type": "top_k", "k": 3}]})"));
    QVERIFY(strategy);
    const std::vector<TokenId> ids = {1, 17, 42, 5, 63, 20};
    Result<DivergenceResult> result = measureDivergence(*a, *b, ids, {}, DivergenceOptions{4, &*strategy, nullptr});
    QVERIFY(result);
    QCOMPARE(result->top.size(), ids.size() - 1);
    // Top-k 3 keeps each model's three most probable tokens: worked out here from the logits.
    const int vocab = a->info().vocabSize;
    const std::vector<float> logitsA = a->forward(*a->newState(), ids, true).value();
    const std::vector<float> logitsB = b->forward(*b->newState(), ids, true).value();
    const auto top3 = [vocab](const float* row) {
        std::vector<TokenId> order(static_cast<std::size_t>(vocab));
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [row](TokenId x, TokenId y) { return row[x] > row[y]; });
        return std::set<TokenId>(order.begin(), order.begin() + 3);
    };
    for (std::size_t i = 0; i < result->top.size(); ++i) {
        const PositionTop& top = result->top[i];
        const std::set<TokenId> keptA = top3(logitsA.data() + i * vocab);
        const std::set<TokenId> keptB = top3(logitsB.data() + i * vocab);
        QCOMPARE(top.keptCountA, 3);
        QCOMPARE(top.keptCountB, 3);
        int both = 0;
        for (TokenId t : keptA)
            both += static_cast<int>(keptB.count(t));
        QCOMPARE(top.keptBoth, both);
        for (std::size_t j = 0; j < top.tokens.size(); ++j) {
            QCOMPARE(top.keptA[j], keptA.count(top.tokens[j]) == 1);
            QCOMPARE(top.keptB[j], keptB.count(top.tokens[j]) == 1);
        }
        // A's four most probable come first, the first three of them kept.
        QVERIFY(top.keptA[0] && top.keptA[1] && top.keptA[2] && !top.keptA[3]);
    }
}

void TestQuantize::divergenceCommandLine() {
    QTemporaryDir dir;
    const QString input = writeBlocksInput(dir);
    const QString text = dir.filePath(QStringLiteral("text.txt"));
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("the random model reads any bytes as its own tokens");
    }
    const QString csv = dir.filePath(QStringLiteral("tokens.csv"));
    test::ProcessResult r =
        test::runSwbProcess({"divergence", "--model", input, "--model", input, "--text", text, "--json", "--csv", csv});
    QVERIFY2(r.status == 0, r.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(r.out).object();
    QVERIFY(json[QStringLiteral("tokens")].toInt() > 1);
    QCOMPARE(json[QStringLiteral("mean_kl")].toDouble(), 0.0);
    QCOMPARE(json[QStringLiteral("same_top1")].toDouble(), 1.0);
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QCOMPARE(lines[0], QByteArray("position,token,piece,kl,top_a,top_b,logp_a,logp_b\r"));
    QCOMPARE(lines.size() - 2, json[QStringLiteral("tokens")].toInt()); // a row per token, the last line empty

    r = test::runSwbProcess({"divergence", "--model", input, "--text", text});
    QCOMPARE(r.status, 2);
    QCOMPARE(r.err, QByteArray("swb: swb divergence compares two models: give --model A --model B\n"));
    r = test::runSwbProcess({"divergence", "--model", input, "--model", input});
    QCOMPARE(r.status, 2);
    QCOMPARE(r.err, QByteArray("swb: give the text to read: --text FILE, or a stored run with --db FILE --run ID\n"));

    // A stored run, read again teacher forced: its 4 prompt tokens and 6 generated ones, 9 of them scored.
    const QString db = dir.filePath(QStringLiteral("runs.sqlite"));
    r = test::runSwbProcess({"generate", "--model", input, "--prompt-ids", "1,20,30,40", "--strategy", "greedy",
                             "--max-tokens", "6", "--db", db});
    QVERIFY2(r.status == 0, r.err.constData());
    r = test::runSwbProcess({"divergence", "--model", input, "--model", input, "--db", db, "--run", "1", "--json"});
    QVERIFY2(r.status == 0, r.err.constData());
    QCOMPARE(QJsonDocument::fromJson(r.out).object()[QStringLiteral("tokens")].toInt(), 9);
    r = test::runSwbProcess({"divergence", "--model", input, "--model", input, "--db", db, "--run", "7"});
    QCOMPARE(r.status, 2);

    // --csv is an output: never onto the text read, a model, the store or its write-ahead log.
    const QByteArray textBefore = fileSha256(text);
    r = test::runSwbProcess({"divergence", "--model", input, "--model", input, "--text", text, "--csv", text});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("would overwrite this command's input --text"), r.err.constData());
    QCOMPARE(fileSha256(text), textBefore);
    r = test::runSwbProcess({"divergence", "--model", input, "--model", input, "--text", text, "--csv", input});
    QCOMPARE(r.status, 2);
    r = test::runSwbProcess(
        {"divergence", "--model", input, "--model", input, "--db", db, "--run", "1", "--csv", db + "-wal"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("the write-ahead log of the run store"), r.err.constData());
    // Nor onto the write-ahead log of a store this command does not name (it holds that store's runs).
    QFile wal(db + "-wal");
    QVERIFY(wal.open(QIODevice::WriteOnly));
    wal.write("committed runs\n");
    wal.close();
    r = test::runSwbProcess({"divergence", "--model", input, "--model", input, "--text", text, "--csv", db + "-wal"});
    QCOMPARE(r.status, 2);
    QVERIFY2(r.err.contains("is the write-ahead log of the run store " + db.toUtf8()), r.err.constData());
    QVERIFY(wal.open(QIODevice::ReadOnly));
    QCOMPARE(wal.readAll(), QByteArray("committed runs\n"));
}

// B known by its top N: KL over those N tokens and the rest as one outcome, worked out here in long double from
// both whole rows; never above the whole KL, and equal to it when N is the vocabulary.
void TestQuantize::topNDivergenceIsALowerBound() {
    constexpr int vocab = 50;
    test::TestRandom random(17);
    const std::vector<float> a = random.vector(vocab, 3.0f), b = random.vector(vocab, 3.0f);
    const auto logSoftmax = [](const std::vector<float>& x) {
        long double norm = 0;
        for (float v : x)
            norm += std::exp(static_cast<long double>(v));
        std::vector<long double> out;
        for (float v : x)
            out.push_back(static_cast<long double>(v) - std::log(norm));
        return out;
    };
    const std::vector<long double> la = logSoftmax(a), lb = logSoftmax(b);
    std::vector<int> order(vocab);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int x, int y) { return lb[x] > lb[y]; });
    const TokenId next = order[7];
    for (const int n : {1, 5, 20, vocab}) {
        TopNRow row;
        for (int i = 0; i < n; ++i)
            row.top.emplace_back(order[i], static_cast<double>(lb[order[i]]));
        row.logpToken = static_cast<double>(lb[next]);
        long double expected = 0, restA = 0, restB = 0;
        for (int v = 0; v < vocab; ++v) {
            const bool listed = std::find(order.begin(), order.begin() + n, v) != order.begin() + n;
            if (listed) {
                expected += std::exp(la[v]) * (la[v] - lb[v]);
            } else {
                restA += std::exp(la[v]);
                restB += std::exp(lb[v]);
            }
        }
        if (restA > 0)
            expected += restA * (std::log(restA) - std::log(restB));
        const TokenDivergence d = compareWithTopN(a.data(), vocab, row, next);
        const TokenDivergence whole = compareRows(a.data(), b.data(), vocab, next);
        QVERIFY2(std::fabs(d.kl - static_cast<double>(expected)) < 1e-9, qPrintable(QString::number(n)));
        QVERIFY(d.kl <= whole.kl + 1e-12);
        if (n == vocab)
            QVERIFY(std::fabs(d.kl - whole.kl) < 1e-9);
        QCOMPARE(d.topA, whole.topA);
        QCOMPARE(d.topB, whole.topB);
        QVERIFY(std::fabs(d.logpA - whole.logpA) < 1e-9 && std::fabs(d.logpB - whole.logpB) < 1e-6);
    }
}

QTEST_GUILESS_MAIN(TestQuantize)
#include "tst_quantize.moc"
