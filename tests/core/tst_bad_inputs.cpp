// The bad-input catalogue: one row per hostile or broken input, across models, tokenizers, strategies,
// prompts, run stores, CSV imports, export targets and the server's requests. Every row: exit status 2 (or
// HTTP 400 with an OpenAI error object), one to three lines on standard error naming the fault, no crash,
// no Qt warning, and every file the command was given byte-identical afterwards (no file added either).

#include <cstring>
#include <limits>

#include <unistd.h>

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include "CheckpointWriters.h"
#include "GgufWriter.h"
#include "HttpSupport.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"

namespace {

using Snapshot = QMap<QString, QByteArray>;

// Every file under a folder (hidden ones included), by relative path, with its SHA-256.
Snapshot snapshot(const QString& root) {
    Snapshot files;
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        const QByteArray hash = file.open(QIODevice::ReadOnly)
                                    ? QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256)
                                    : QByteArray("unreadable");
        files.insert(QDir(root).relativeFilePath(path), hash);
    }
    return files;
}

QByteArray le32(std::uint32_t v) {
    return QByteArray(reinterpret_cast<const char*>(&v), 4);
}
QByteArray le64(std::uint64_t v) {
    return QByteArray(reinterpret_cast<const char*>(&v), 8);
}
QByteArray ggufString(const QByteArray& s) {
    return le64(static_cast<std::uint64_t>(s.size())) + s;
}

// What a Qt warning, an assertion or a crash leaves on standard error; none may appear.
bool looksLikeQtNoiseOrCrash(const QByteArray& err) {
    for (const char* noise : {"QSql", "QObject", "QFile", "QIODevice", "QJson", "Warning", "warning:", "terminate called",
                              "Aborted", "Segmentation", "Assertion", "c10::", "libc++", "what():", "Unable to fetch"})
        if (err.contains(noise))
            return true;
    return false;
}

} // namespace

class TestBadInputs : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<swb::test::ServeProcess> m_serve;

    QString path(const QString& name) const { return m_dir.filePath(name); }
    bool write(const QString& name, const QByteArray& bytes) const {
        QDir().mkpath(QFileInfo(path(name)).absolutePath());
        return swb::test::writeBytes(path(name), bytes);
    }

    // A folder holding a valid tiny Hugging Face Llama, then `edit` applied to one of its files.
    bool hfVariant(const QString& folder, const QString& file, const std::function<QByteArray(QByteArray)>& edit) const {
        swb::test::LlamaShape shape;
        shape.vocab = static_cast<int>(swb::test::llama2cBaseVocab().size());
        if (!swb::test::writeHfLlama(path(folder), swb::test::randomLlama(shape, 3)))
            return false;
        QFile in(path(folder + QLatin1Char('/') + file));
        if (!in.open(QIODevice::ReadOnly))
            return false;
        const QByteArray edited = edit(in.readAll());
        in.close();
        return write(folder + QLatin1Char('/') + file, edited);
    }

    // An SQLite file (new, or a copy of one of our stores) with these statements run on it.
    bool sqliteFile(const QString& name, const QStringList& statements) const {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("maker"));
        db.setDatabaseName(path(name));
        bool ok = db.open();
        for (const QString& statement : statements) {
            QSqlQuery query(db);
            ok = ok && query.exec(statement);
        }
        db.close();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(QStringLiteral("maker"));
        return ok;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        // Models.
        QVERIFY(write("empty.bin", {}));
        QVERIFY(write("garbage.bin", QByteArray("not a model at all, just words. ").repeated(20)));
        swb::test::LlamaShape shape;
        shape.vocab = static_cast<int>(swb::test::llama2cBaseVocab().size());
        const swb::test::LlamaWeights weights = swb::test::randomLlama(shape, 1);
        QVERIFY(write("llama2c-truncated.bin", swb::test::llama2cBytes(weights, 0).left(300)));
        QByteArray badHeader = swb::test::llama2cBytes(weights, 0);
        std::int32_t hugeDim = 1 << 30;
        std::memcpy(badHeader.data(), &hugeDim, 4);
        QVERIFY(write("llama2c-absurd-dim.bin", badHeader));
        // Found by fuzz_llama2c: a vocabulary of -2^31 (a negative size means an unshared classifier) was
        // negated, which overflows.
        QByteArray lowestVocab = swb::test::llama2cBytes(weights, 0);
        const std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
        std::memcpy(lowestVocab.data() + 20, &lowest, 4);
        QVERIFY(write("llama2c-lowest-vocab.bin", lowestVocab));
        const QByteArray gguf = swb::test::ggufLlama(weights).bytes();
        QVERIFY(write("gguf-wrong-magic.gguf", QByteArray("GGUX") + gguf.mid(4)));
        QVERIFY(write("gguf-truncated.gguf", gguf.left(gguf.size() / 2)));
        QVERIFY(write("gguf-version-99.gguf", QByteArray("GGUF") + le32(99) + gguf.mid(8)));
        QVERIFY(write("gguf-tensor-count.gguf", QByteArray("GGUF") + le32(3) + le64(1ull << 40) + le64(0)));
        QVERIFY(write("gguf-kv-count.gguf", QByteArray("GGUF") + le32(3) + le64(0) + le64(1ull << 50)));
        QVERIFY(write("gguf-key-length.gguf", QByteArray("GGUF") + le32(3) + le64(0) + le64(1) + le64(1ull << 60) + "abc"));
        QVERIFY(write("gguf-array-length.gguf", QByteArray("GGUF") + le32(3) + le64(0) + le64(1) + ggufString("a") +
                                                    le32(9) + le32(0) + le64(1ull << 62) + "xyz"));
        QVERIFY(write("gguf-value-type.gguf", QByteArray("GGUF") + le32(3) + le64(0) + le64(1) + ggufString("a") +
                                                  le32(77) + "xyz"));
        swb::test::GgufWriter huge = swb::test::ggufLlama(weights);
        huge.addTensorRaw("extra.weight", 0, {1ll << 31, 1ll << 31}, QByteArray(16, '\0'));
        QVERIFY(huge.write(path("gguf-tensor-past-end.gguf")));
        // Formats as strictly as llama.cpp and the safetensors reference check them (issue 39).
        swb::test::GgufWriter overlapping = swb::test::ggufLlama(weights);
        overlapping.addTensorRaw("extra.weight", 0, {4}, QByteArray(16, '\0'));
        overlapping.setTensorOffset("extra.weight", 0);
        QVERIFY(overlapping.write(path("gguf-overlap.gguf")));
        swb::test::GgufWriter rotary = swb::test::ggufLlama(weights);
        rotary.addUint32("llama.rope.dimension_count", 1000);
        QVERIFY(rotary.write(path("gguf-rope-dims.gguf")));
        swb::test::GgufWriter eos = swb::test::ggufLlama(weights);
        eos.addUint32("tokenizer.ggml.eos_token_id", 4000000000u);
        QVERIFY(eos.write(path("gguf-eos-outside.gguf")));
        QVERIFY(hfVariant("hf-config-not-json", "config.json", [](QByteArray) { return QByteArray("{\"model_type\": "); }));
        QVERIFY(hfVariant("hf-config-array", "config.json", [](QByteArray) { return QByteArray("[1, 2, 3]"); }));
        QVERIFY(hfVariant("hf-config-deep", "config.json", [](QByteArray) {
            return QByteArray(100000, '[') + QByteArray(100000, ']');
        }));
        QVERIFY(hfVariant("hf-vocab-negative", "config.json", [](QByteArray bytes) {
            QJsonObject config = QJsonDocument::fromJson(bytes).object();
            config.insert(QStringLiteral("vocab_size"), -5);
            return QJsonDocument(config).toJson();
        }));
        QVERIFY(hfVariant("hf-hidden-nan", "config.json", [](QByteArray bytes) {
            return bytes.replace("\"rms_norm_eps\":", "\"rms_norm_eps\": \"NaN\", \"ignored\":");
        }));
        QVERIFY(hfVariant("hf-context-huge", "config.json", [](QByteArray bytes) {
            QJsonObject config = QJsonDocument::fromJson(bytes).object();
            config.insert(QStringLiteral("max_position_embeddings"), 1e9);
            return QJsonDocument(config).toJson();
        }));
        QVERIFY(hfVariant("hf-vocab-huge", "config.json", [](QByteArray bytes) {
            QJsonObject config = QJsonDocument::fromJson(bytes).object();
            config.insert(QStringLiteral("vocab_size"), 4e9);
            return QJsonDocument(config).toJson();
        }));
        QVERIFY(hfVariant("hf-st-header-length", "model.safetensors", [](QByteArray bytes) {
            return bytes.replace(0, 8, le64(1ull << 62));
        }));
        QVERIFY(hfVariant("hf-st-header-not-json", "model.safetensors", [](QByteArray) {
            return le64(5) + QByteArray("hello");
        }));
        QVERIFY(hfVariant("hf-st-offsets", "model.safetensors", [](QByteArray bytes) {
            return bytes.left(bytes.size() - 64);
        }));
        // A safetensors file with its header rewritten: the first tensor's offsets moved by `shift` bytes
        // (a gap before it, or an overlap with the next), or a fraction of a byte, or 64 bytes added after
        // the last tensor.
        const auto editSafetensors = [](QByteArray bytes, const std::function<void(QJsonObject&)>& edit, QByteArray tail) {
            quint64 headerBytes = 0;
            std::memcpy(&headerBytes, bytes.constData(), 8);
            QJsonObject header = QJsonDocument::fromJson(bytes.mid(8, qsizetype(headerBytes))).object();
            edit(header);
            QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
            json.append(QByteArray((8 - json.size() % 8) % 8, ' '));
            return le64(quint64(json.size())) + json + bytes.mid(8 + qsizetype(headerBytes)) + tail;
        };
        const auto firstTensor = [](QJsonObject& header) {
            for (auto it = header.begin(); it != header.end(); ++it)
                if (it.key() != QLatin1String("__metadata__") &&
                    it.value().toObject().value(QLatin1String("data_offsets")).toArray().at(0).toDouble() == 0)
                    return it.key();
            return QString();
        };
        QVERIFY(hfVariant("hf-st-overlap", "model.safetensors", [&](QByteArray bytes) {
            return editSafetensors(bytes, [&](QJsonObject& header) {
                // A second entry over the first tensor's bytes.
                const QString first = firstTensor(header);
                header.insert(QStringLiteral("shadow.weight"), header.value(first));
            }, {});
        }));
        QVERIFY(hfVariant("hf-st-half-byte", "model.safetensors", [&](QByteArray bytes) {
            return editSafetensors(bytes, [&](QJsonObject& header) {
                QJsonObject entry = header.value(firstTensor(header)).toObject();
                const QJsonArray offsets = entry.value(QLatin1String("data_offsets")).toArray();
                entry.insert(QStringLiteral("data_offsets"), QJsonArray{0.5, offsets.at(1).toDouble() + 0.5});
                header.insert(firstTensor(header), entry);
            }, {});
        }));
        QVERIFY(hfVariant("hf-st-trailing", "model.safetensors", [&](QByteArray bytes) {
            return editSafetensors(bytes, [](QJsonObject&) {}, QByteArray(64, '\0'));
        }));
        // Tokenizers.
        QVERIFY(write("tok-malformed/tokenizer.json", "{\"model\": ["));
        QVERIFY(write("tok-wrong-type/tokenizer.json", "{\"model\": 5}"));
        QVERIFY(write("tok-deep/tokenizer.json", QByteArray(50000, '[') + QByteArray(50000, ']')));
        QVERIFY(write("tok-bad-utf8/tokenizer.json", "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\xff\xfe\":0},\"merges\":[]}}"));
        QVERIFY(write("tiny.bin", swb::test::llama2cBytes(weights, 0)));
        QVERIFY(swb::test::writeFile(path("tok.bin"), swb::test::tokBin(swb::test::llama2cBaseVocab())));
        QFile tok(path("tok.bin"));
        QVERIFY(tok.open(QIODevice::ReadOnly));
        QVERIFY(write("tok-short.bin", tok.readAll().chopped(3)));
        // Strategies, prompts, conversations, templates, logits.
        QVERIFY(write("strategy-array.json", "[{\"type\": \"top_k\", \"k\": 5}]"));
        QVERIFY(write("long-prompt.txt", QByteArray("the cat sat on the mat and ").repeated(4000)));
        QVERIFY(write("messages-not-json.json", "[{\"role\": \"user\", \"content\": "));
        QVERIFY(write("messages-numbers.json", "[1, 2, 3]"));
        QVERIFY(write("messages.json", "[{\"role\": \"user\", \"content\": \"hi\"}]"));
        QVERIFY(write("messages-role.json", "[{\"role\": 7, \"content\": \"hi\"}]"));
        QVERIFY(write("template-syntax.jinja", "{% for m in messages %}{{ m.content }"));
        QVERIFY(write("template-loop.jinja", "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}"));
        // Templates that crashed or hung the engine (issue 39).
        QVERIFY(write("template-int-min-div.jinja", "{{ (-9223372036854775807 - 1) // -1 }}"));
        QVERIFY(write("template-int-overflow.jinja", "{{ 9223372036854775807 + 1 }}"));
        QVERIFY(write("template-cycle-tojson.jinja", "{% set a = [] %}{% set _ = a.append(a) %}{{ a|tojson }}"));
        QVERIFY(write("template-cycle-print.jinja", "{% set a = [] %}{% set _ = a.append(a) %}\n{{ a }}"));
        QVERIFY(write("template-cycle-equals.jinja", "{% set a = [] %}{% set _ = a.append(a) %}{{ a == a }}"));
        QVERIFY(write("template-deep.jinja",
            "{% set ns = namespace(v=[]) %}{% for i in range(300) %}{% set ns.v = [ns.v] %}{% endfor %}\n{{ ns.v }}"));
        QVERIFY(write("template-nested-loops.jinja",
                      "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"));
        QVERIFY(write("template-repeat.jinja", "{{ \"ab\" * 4611686018427387904 }}"));
        QVERIFY(write("template-repeat-list.jinja", "{{ ([1] * 4611686018427387904)|length }}"));
        QVERIFY(write("template-doubling.jinja", "{% set ns = namespace(s=\"a\") %}{% for i in range(100) %}"
                                                 "{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}"));
        QVERIFY(write("template-center.jinja", "{{ \"a\"|center(9999999999) }}"));
        QVERIFY(write("template-indent.jinja", "{{ \"a\"|indent(9999999999) }}"));
        QVERIFY(write("template-not-utf8.jinja", "{{ messages[0].content }}\n\xff\xfe"));
        QVERIFY(write("template-binary.jinja", QByteArray("{{ x }}\0\x01\x02", 10)));
        QVERIFY(write("template-tojson-indent.jinja", "{{ {\"a\": 1}|tojson(indent=9999999999) }}"));
        QVERIFY(write("logits-string.json", "{\"logits\": \"many\"}"));
        QVERIFY(write("logits-empty.json", "{\"logits\": []}"));
        QVERIFY(write("logits-inf.json", "{\"logits\": [1, 1e999, 2]}"));
        QVERIFY(write("prompts-empty.txt", {}));
        QVERIFY(write("prompts-bad.jsonl", "{\"prompt\": \"a\"}\n{\"prompt\": \n"));
        QVERIFY(write("prompts.txt", "Once upon a time\n"));
        QVERIFY(write("prompts-five.txt", "a\nb\nc\nd\ne\n"));
        // Run stores: a good one with two runs and a comparison, then broken ones.
        const auto made = swb::test::runSwbProcess({"batch", "--prompts", path("prompts.txt"), "--strategy", "greedy",
                                                    "--strategy", "creative", "--max-tokens", "4", "--db", path("store.sqlite")});
        QVERIFY2(made.status == 0, made.err.constData());
        QVERIFY(write("store-text.sqlite", "id,name\n1,two\n"));
        QFile store(path("store.sqlite"));
        QVERIFY(store.open(QIODevice::ReadOnly));
        const QByteArray storeBytes = store.readAll();
        QByteArray corrupt = storeBytes;
        for (qsizetype i = 100; i < corrupt.size(); i += 7)
            corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5A);
        QVERIFY(write("store-corrupt.sqlite", corrupt));
        QVERIFY(write("store-newer.sqlite", storeBytes));
        QVERIFY(sqliteFile("store-newer.sqlite", {"PRAGMA user_version = 99"}));
        QVERIFY(sqliteFile("store-foreign.sqlite", {"CREATE TABLE invoices (id INTEGER, total REAL)",
                                                    "INSERT INTO invoices VALUES (1, 9.5)"}));
        QVERIFY(write("store-empty.sqlite", {}));
        QDir().mkpath(path("store-folder.sqlite"));
        // CSV imports.
        QVERIFY(write("ratings-header.csv", "run,who,what,value\n1,ann,relevance,2\n"));
        QVERIFY(write("ratings-range.csv", "run_id,rater,dimension,score\n1,ann,relevance,7\n"));
        QVERIFY(write("ratings-nan.csv", "run_id,rater,dimension,score\n1,ann,relevance,NaN\n"));
        QVERIFY(write("ratings-run.csv", "run_id,rater,dimension,score\n999,ann,relevance,2\n"));
        QVERIFY(write("ratings-dimension.csv", "run_id,rater,dimension,score\n1,ann,beauty,2\n"));
        QVERIFY(write("ratings-quote.csv", "run_id,rater,dimension,score,note\n1,ann,relevance,2,\"never closed\n"));
        QVERIFY(write("ratings-utf8.csv", "run_id,rater,dimension,score\n1,a\xff\xfen,relevance,2\n"));
        QVERIFY(write("ratings-empty.csv", {}));
        QVERIFY(write("ratings-cut-utf8.csv", "run_id,rater,dimension,score,note\n1,ann,relevance,2,caf\xc3"));
        QVERIFY(write("ratings-ok.csv", "run_id,rater,dimension,score\n1,ann,relevance,2\n"));
        QVERIFY(write("preferences-winner.csv", "comparison_id,rater,winner\n1,ann,Z\n"));
        QVERIFY(write("preferences-comparison.csv", "comparison_id,rater,winner\n77,ann,A\n"));
        QVERIFY(write("preferences-id.csv", "comparison_id,rater,winner\n1.5,ann,A\n"));
        // Inputs that an output must never replace (issue 39): one of each kind, and links to one.
        QVERIFY(write("strategy-ok.json", "{\"samplers\": [{\"type\": \"top_k\", \"k\": 5}]}"));
        QVERIFY(write("template-ok.jinja", "{% for m in messages %}{{ m.content }}{% endfor %}"));
        QVERIFY(QFile::link(path("prompts.txt"), path("prompts-symlink.txt")));
        QVERIFY(::link(QFile::encodeName(path("prompts.txt")).constData(),
                       QFile::encodeName(path("prompts-hardlink.txt")).constData()) == 0);
        QVERIFY(hfVariant("hf-ok", "config.json", [](QByteArray bytes) { return bytes; }));
        QVERIFY(swb::test::ggufLlama(weights).write(path("ok.gguf")));
        // The served model's chat template, a stranger's: three messages make it fail, one way each.
        QVERIFY(write("template-server.jinja",
            "{% for m in messages %}{% if m.content == 'divide' %}{{ (-9223372036854775807 - 1) // -1 }}"
            "{% elif m.content == 'loop' %}{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
            "{% elif m.content == 'append' %}{% set a = [] %}{% set _ = a.append(a) %}"
            "{% else %}{{ m.role }}: {{ m.content }}\n{% endif %}{% endfor %}"));
        m_serve = std::make_unique<swb::test::ServeProcess>(QStringList{"--chat-template", path("template-server.jinja")});
        QVERIFY2(m_serve->port() != 0, m_serve->stderrText().constData());
    }

    void commandLine_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<QString>("stdoutTo");
        const auto row = [this](const char* name, QStringList args, const char* needle, const char* stdoutTo = "") {
            for (QString& arg : args)
                if (arg.startsWith(QLatin1Char('@')))
                    arg = path(arg.mid(1));
            QTest::newRow(name) << args << QString::fromUtf8(needle) << QString::fromUtf8(stdoutTo);
        };
        // Models.
        row("model missing", {"info", "--model", "@no-such-model.gguf"}, "does not exist");
        row("model empty", {"info", "--model", "@empty.bin"}, "truncated");
        row("model garbage", {"info", "--model", "@garbage.bin"}, "not a llama2.c checkpoint");
        row("llama2c truncated", {"info", "--model", "@llama2c-truncated.bin"}, "truncated");
        row("llama2c absurd dimension", {"info", "--model", "@llama2c-absurd-dim.bin"}, "");
        row("llama2c vocabulary -2^31", {"info", "--model", "@llama2c-lowest-vocab.bin"}, "vocab -2147483648");
        row("gguf wrong magic", {"info", "--model", "@gguf-wrong-magic.gguf"}, "not a GGUF file");
        row("gguf truncated", {"info", "--model", "@gguf-truncated.gguf"}, "truncated");
        row("gguf version 99", {"info", "--model", "@gguf-version-99.gguf"}, "99");
        row("gguf absurd tensor count", {"info", "--model", "@gguf-tensor-count.gguf"}, "");
        row("gguf absurd metadata count", {"info", "--model", "@gguf-kv-count.gguf"}, "");
        row("gguf key length past end", {"info", "--model", "@gguf-key-length.gguf"}, "");
        row("gguf array length past end", {"info", "--model", "@gguf-array-length.gguf"}, "");
        row("gguf unknown value type", {"info", "--model", "@gguf-value-type.gguf"}, "");
        row("gguf tensor past the end", {"info", "--model", "@gguf-tensor-past-end.gguf"}, "extra.weight");
        row("hf config not JSON", {"info", "--model", "@hf-config-not-json"}, "config.json");
        row("hf config an array", {"info", "--model", "@hf-config-array"}, "config.json holds JSON of another shape");
        row("hf config nested deep", {"info", "--model", "@hf-config-deep"}, "config.json");
        row("hf vocab_size negative", {"info", "--model", "@hf-vocab-negative"}, "vocab_size");
        row("hf eps a string", {"info", "--model", "@hf-hidden-nan"}, "rms_norm_eps");
        row("hf context length absurd", {"generate", "--model", "@hf-context-huge", "--tokenizer", "@tok.bin", "--prompt-ids", "1 2", "--max-tokens", "2"}, "context 1000000000 is outside 1 to 16777216");
        row("hf vocab_size absurd", {"info", "--model", "@hf-vocab-huge"}, "'vocab_size' must be an integer from 1 to 1000000000, not 4000000000");
        row("safetensors header length", {"info", "--model", "@hf-st-header-length"}, "model.safetensors");
        row("safetensors header not JSON", {"info", "--model", "@hf-st-header-not-json"}, "model.safetensors");
        row("gguf tensors overlap", {"info", "--model", "@gguf-overlap.gguf"}, "overlap");
        row("gguf rope dimensions past the head", {"info", "--model", "@gguf-rope-dims.gguf"}, "rope.dimension_count 1000 is larger than the head size");
        row("gguf eos outside the vocabulary", {"info", "--model", "@gguf-eos-outside.gguf"}, "tokenizer.ggml.eos_token_id 4000000000 is outside the vocabulary");
        row("safetensors tensors overlap", {"info", "--model", "@hf-st-overlap"}, "without gaps or overlaps");
        row("safetensors offsets inside a byte", {"info", "--model", "@hf-st-half-byte"}, "invalid data_offsets");
        row("safetensors data past the last tensor", {"info", "--model", "@hf-st-trailing"}, "the tensors cover");
        row("safetensors data cut short", {"info", "--model", "@hf-st-offsets"}, "truncated");
        row("generate, model missing", {"generate", "--model", "@nothing.bin", "--prompt", "x"}, "does not exist");
        // Tokenizers.
        row("tokenizer.json malformed", {"tokenize", "--model", "@tok-malformed", "--text", "x"}, "not valid JSON");
        row("tokenizer.json wrong type", {"tokenize", "--model", "@tok-wrong-type", "--text", "x"}, "tokenizer.json");
        row("tokenizer.json nested deep", {"tokenize", "--model", "@tok-deep", "--text", "x"}, "tokenizer.json");
        row("tokenizer.json invalid UTF-8", {"tokenize", "--model", "@tok-bad-utf8", "--text", "x"}, "tokenizer.json is not valid UTF-8 text (line 1)");
        row("tok.bin truncated", {"tokenize", "--model", "@tiny.bin", "--tokenizer", "@tok-short.bin", "--text", "x"}, "truncated");
        row("tok.bin missing", {"tokenize", "--model", "@tiny.bin", "--tokenizer", "@no-tok.bin", "--text", "x"}, "no-tok.bin");
        row("detokenize id past vocabulary", {"detokenize", "999999"}, "999999");
        row("detokenize not a number", {"detokenize", "12x"}, "12x");
        // Strategies.
        row("strategy unknown preset", {"generate", "--prompt", "x", "--strategy", "no-such-preset"}, "no-such-preset");
        row("strategy JSON syntax", {"generate", "--prompt", "x", "--strategy", "{\"samplers\": [\n{\"type\": }"}, "at line 2, column");
        row("strategy JSON array", {"generate", "--prompt", "x", "--strategy", "@strategy-array.json"}, "array");
        row("strategy unknown sampler", {"generate", "--prompt", "x", "--strategy", "{\"samplers\": [{\"type\": \"magic\"}]}"}, "magic");
        row("strategy temperature Inf", {"generate", "--prompt", "x", "--strategy", "{\"samplers\": [{\"type\": \"temperature\", \"value\": 1e999}]}"}, "illegal number at line 1");
        row("strategy top_p 1.5", {"generate", "--prompt", "x", "--strategy", "{\"samplers\": [{\"type\": \"top_p\", \"p\": 1.5}]}"}, "top_p");
        row("strategy top_k negative", {"generate", "--prompt", "x", "--strategy", "{\"samplers\": [{\"type\": \"top_k\", \"k\": -3}]}"}, "top_k");
        row("strategy wrong type", {"generate", "--prompt", "x", "--strategy", "{\"samplers\": [{\"type\": \"min_p\", \"p\": \"big\"}]}"}, "min_p");
        row("strategy seed negative", {"generate", "--prompt", "x", "--strategy", "{\"seed\": -4, \"samplers\": []}"}, "seed");
        row("sample logits not numbers", {"sample", "--logits", "@logits-string.json", "--strategy", "greedy"}, "logits");
        row("sample logits empty", {"sample", "--logits", "@logits-empty.json", "--strategy", "greedy"}, "logits");
        row("sample logits Inf", {"sample", "--logits", "@logits-inf.json", "--strategy", "greedy"}, "illegal number at line 1");
        // Prompts, conversations, options.
        row("max-tokens negative", {"generate", "--prompt", "x", "--max-tokens", "-1"}, "--max-tokens");
        row("max-tokens not a number", {"generate", "--prompt", "x", "--max-tokens", "many"}, "--max-tokens");
        row("threads zero", {"generate", "--prompt", "x", "--threads", "0"}, "--threads");
        row("threads negative", {"generate", "--prompt", "x", "--threads", "-2"}, "--threads");
        row("seed not a number", {"generate", "--prompt", "x", "--seed", "abc"}, "--seed");
        row("prompt file missing", {"generate", "--prompt-file", "@no-prompt.txt"}, "no-prompt.txt");
        row("prompt longer than the context", {"generate", "--prompt-file", "@long-prompt.txt"}, "context");
        row("prompt ids past vocabulary", {"generate", "--prompt-ids", "1 99999999"}, "99999999");
        row("prompt ids not numbers", {"generate", "--prompt-ids", "1 two"}, "two");
        row("unknown option", {"generate", "--prompt", "x", "--tempreature", "2"}, "tempreature");
        row("messages not JSON", {"generate", "--messages", "@messages-not-json.json"}, "messages-not-json.json");
        row("messages not objects", {"render-template", "--messages", "@messages-numbers.json"}, "messages-numbers.json");
        row("messages role a number", {"render-template", "--messages", "@messages-role.json"}, "role");
        row("template syntax", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-syntax.jinja"}, "");
        row("template endless recursion", {"generate", "--prompt", "x", "--chat", "--chat-template", "@template-loop.jinja"}, "");
        row("template INT64_MIN // -1", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-int-min-div.jinja"}, "integer overflow: -9223372036854775808 // -1 does not fit in 64 bits");
        row("template integer overflow", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-int-overflow.jinja"}, "integer overflow");
        row("template list in itself, tojson", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-cycle-tojson.jinja"}, "list.append changes the list");
        row("template list in itself, printed", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-cycle-print.jinja"}, "line 1: list.append changes the list");
        row("template nested 300 levels", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-deep.jinja"}, "line 2: a value nests deeper than 256 levels");
        row("template list in itself, compared", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-cycle-equals.jinja"}, "list.append changes the list");
        row("template nested loops", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-nested-loops.jinja"}, "more than 20,000 loop iterations");
        row("template string repeated 2^62 times", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-repeat.jinja"}, "beyond 16 MB");
        row("template list repeated 2^62 times", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-repeat-list.jinja"}, "beyond a million items");
        row("template string doubled in a loop", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-doubling.jinja"}, "beyond 16 MB");
        row("template center, huge width", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-center.jinja"}, "center's width");
        row("template indent, huge width", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-indent.jinja"}, "indent's width");
        row("template tojson, huge indent", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-tojson-indent.jinja"}, "tojson's indent");
        row("template not UTF-8", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-not-utf8.jinja"}, "line 2: the template is not text: byte 26 is not valid UTF-8");
        row("template binary", {"render-template", "--messages", "@messages.json", "--chat-template", "@template-binary.jinja"}, "the template is not text: byte 7 is a NUL byte");
        row("prompt file that never ends", {"generate", "--prompt-file", "/dev/zero", "--max-tokens", "2"}, "/dev/zero holds more than 64 MB");
        row("messages file that never ends", {"generate", "--messages", "/dev/urandom", "--max-tokens", "2"}, "/dev/urandom holds more than 64 MB");
        row("chat template that never ends", {"render-template", "--messages", "@messages.json", "--chat-template", "/dev/zero"}, "/dev/zero holds more than 64 MB");
        row("batch prompts that never end", {"batch", "--prompts", "/dev/zero", "--strategy", "greedy", "--strategy", "chat", "--db", "@new9.sqlite"}, "/dev/zero holds more than 64 MB");
        row("sweep spec that never ends", {"sweep", "--spec", "/dev/zero", "--db", "@new10.sqlite"}, "/dev/zero holds more than 64 MB");
        row("batch refuses its second strategy before saving the first's runs", {"batch", "--prompts", "@prompts.txt", "--strategy", "greedy", "--strategy", "{\"decoder\": {\"type\": \"beam\", \"beams\": 2}, \"samplers\": [{\"type\": \"mirostat_v2\", \"tau\": 4}]}", "--max-tokens", "2", "--db", "@store.sqlite"}, "strategy 2");
        row("beam search with a selector of its own", {"generate", "--prompt", "x", "--max-tokens", "2", "--strategy", "{\"decoder\": {\"type\": \"beam\", \"beams\": 2}, \"samplers\": [{\"type\": \"adaptive_p\"}]}"}, "cannot use the selector 'adaptive_p'");
        row("guidance scale that overflows float", {"generate", "--prompt", "And God", "--max-tokens", "3", "--strategy", "{\"decoder\": {\"type\": \"cfg\", \"guidance_scale\": 1e38, \"negative_prompt\": \"x\"}, \"samplers\": []}"}, "decoder 'cfg' overflowed at step 1");
        row("batch prompts missing", {"batch", "--prompts", "@no-prompts.txt", "--strategy", "greedy", "--strategy", "chat", "--db", "@new1.sqlite"}, "no-prompts.txt");
        row("batch prompts empty", {"batch", "--prompts", "@prompts-empty.txt", "--strategy", "greedy", "--strategy", "chat", "--db", "@new2.sqlite"}, "prompts-empty.txt");
        row("batch prompts bad JSON line", {"batch", "--prompts", "@prompts-bad.jsonl", "--strategy", "greedy", "--strategy", "chat", "--db", "@new3.sqlite"}, "line 2");
        row("batch samples zero", {"batch", "--prompts", "@prompts.txt", "--strategy", "greedy", "--strategy", "chat", "--samples", "0", "--db", "@new4.sqlite"}, "--samples");
        row("sweep axis unknown sampler", {"sweep", "--x", "warmth.value=1", "--prompts", "@prompts.txt", "--db", "@new5.sqlite"}, "warmth");
        row("sweep axis value out of range", {"sweep", "--x", "top_p.p=0.5,1.5", "--prompts", "@prompts.txt", "--db", "@new6.sqlite"}, "1.5");
        row("sweep grid too large to count in an int", {"sweep", "--x", "top_k.k=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--y", "top_p.p=0.05,0.1,0.15,0.2,0.25,0.3,0.35,0.4,0.45,0.5,0.55,0.6,0.65,0.7,0.75,0.8", "--samples", "1000", "--prompts", "@prompts-five.txt", "--db", "@new11.sqlite"}, "the sweep would make 1280000 runs (256 cells × 5 prompts × 1000 samples)");
        row("sweep spec not JSON", {"sweep", "--spec", "@messages-not-json.json", "--db", "@new7.sqlite"}, "line");
        row("convert-strategy unknown format", {"convert-strategy", "--to", "ollama", "--strategy", "greedy"}, "ollama");
        row("convert-strategy flags without value", {"convert-strategy", "--from", "llamacpp-flags", "--strategy", "--temp"}, "--temp");
        row("convert-strategy settings not JSON", {"convert-strategy", "--from", "sillytavern", "--file", "@messages-not-json.json"}, "line");
        row("export model unknown", {"export", "--db", "@store.sqlite", "--report", "summary", "--model", "/no/such/model"}, "/no/such/model");
        // Run stores.
        row("store a text file", {"export", "--db", "@store-text.sqlite", "--report", "runs"}, "store-text.sqlite");
        row("store corrupt", {"export", "--db", "@store-corrupt.sqlite", "--report", "runs"}, "store-corrupt.sqlite");
        row("store newer schema", {"export", "--db", "@store-newer.sqlite", "--report", "runs"}, "99");
        row("store newer schema, writing", {"generate", "--prompt", "x", "--max-tokens", "2", "--db", "@store-newer.sqlite"}, "99");
        row("store of another program", {"export", "--db", "@store-foreign.sqlite", "--report", "runs"}, "store-foreign.sqlite");
        row("store of another program, writing", {"generate", "--prompt", "x", "--max-tokens", "2", "--db", "@store-foreign.sqlite"}, "store-foreign.sqlite");
        row("store missing", {"export", "--db", "@no-store.sqlite", "--report", "runs"}, "no-store.sqlite");
        row("store empty file", {"export", "--db", "@store-empty.sqlite", "--report", "runs"}, "store-empty.sqlite");
        row("store a folder", {"generate", "--prompt", "x", "--max-tokens", "2", "--db", "@store-folder.sqlite"}, "store-folder.sqlite");
        // CSV imports.
        row("ratings missing", {"import-ratings", "--db", "@store.sqlite", "--csv", "@no-ratings.csv"}, "no-ratings.csv");
        row("ratings wrong header", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-header.csv"}, "run_id");
        row("ratings score out of range", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-range.csv"}, "7");
        row("ratings score NaN", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-nan.csv"}, "NaN");
        row("ratings unknown run", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-run.csv"}, "999");
        row("ratings unknown dimension", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-dimension.csv"}, "beauty");
        row("ratings unterminated quote", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-quote.csv"}, "quote");
        row("ratings invalid UTF-8", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-utf8.csv"}, "ratings-utf8.csv line 2 is not valid UTF-8");
        row("ratings end in half a character", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-cut-utf8.csv"}, "ratings-cut-utf8.csv line 2 is not valid UTF-8");
        row("ratings empty file", {"import-ratings", "--db", "@store.sqlite", "--csv", "@ratings-empty.csv"}, "ratings-empty.csv");
        row("preferences unknown winner", {"import-preferences", "--db", "@store.sqlite", "--csv", "@preferences-winner.csv"}, "Z");
        row("preferences unknown comparison", {"import-preferences", "--db", "@store.sqlite", "--csv", "@preferences-comparison.csv"}, "77");
        row("preferences fractional id", {"import-preferences", "--db", "@store.sqlite", "--csv", "@preferences-id.csv"}, "1.5");
        // Export targets and reports.
        row("export to /dev/full", {"export", "--db", "@store.sqlite", "--report", "runs", "--out", "/dev/full"}, "cannot write the report to /dev/full");
        row("export stdout full", {"export", "--db", "@store.sqlite", "--report", "runs"}, "standard output", "/dev/full");
        row("export onto the store", {"export", "--db", "@store.sqlite", "--report", "runs", "--out", "@store.sqlite"}, "store.sqlite");
        row("export to a folder", {"export", "--db", "@store.sqlite", "--report", "runs", "--out", "@store-folder.sqlite"}, "store-folder.sqlite");
        row("export where nothing can be created", {"export", "--db", "@store.sqlite", "--report", "runs", "--out", "/proc/swb-report.csv"}, "/proc/swb-report.csv");
        row("export unknown report", {"export", "--db", "@store.sqlite", "--report", "everything"}, "everything");
        row("export bootstrap negative", {"export", "--db", "@store.sqlite", "--report", "summary", "--bootstrap", "-1"}, "--bootstrap");
        row("trace onto the store", {"generate", "--prompt", "x", "--max-tokens", "2", "--db", "@store.sqlite", "--trace", "@store.sqlite"}, "store.sqlite");
        // Outputs onto inputs: refused before anything is read or written (issue 39).
        row("trace onto the store's write-ahead log", {"generate", "--prompt", "x", "--max-tokens", "2", "--db", "@store.sqlite", "--trace", "@store.sqlite-wal"}, "is the write-ahead log of the run store");
        row("export onto the store's shared memory", {"export", "--db", "@store.sqlite", "--report", "runs", "--out", "@store.sqlite-shm"}, "is the shared-memory file of the run store");
        row("export onto the store's journal", {"export", "--db", "@store.sqlite", "--report", "runs", "--out", "@store.sqlite-journal"}, "is the journal of the run store");
        row("sweep out onto the store's write-ahead log", {"sweep", "--x", "top_k.k=1,2", "--prompts", "@prompts.txt", "--max-tokens", "2", "--db", "@store.sqlite", "--out", "@store.sqlite-wal"}, "write-ahead log");
        row("store named by its write-ahead log", {"generate", "--prompt", "x", "--max-tokens", "2", "--db", "@store.sqlite-wal"}, "is the write-ahead log of another run store");
        row("store named by its journal", {"export", "--db", "@store.sqlite-journal", "--report", "runs"}, "store.sqlite-journal");
        row("store a device", {"generate", "--prompt", "x", "--max-tokens", "2", "--db", "/dev/null"}, "the run store /dev/null is not a regular file");
        row("trace onto the prompt file", {"generate", "--prompt-file", "@prompts.txt", "--max-tokens", "2", "--trace", "@prompts.txt"}, "would overwrite this command's input --prompt-file");
        row("trace onto a hard link to the prompt file", {"generate", "--prompt-file", "@prompts.txt", "--max-tokens", "2", "--trace", "@prompts-hardlink.txt"}, "--prompt-file");
        row("trace onto a symbolic link to the prompt file", {"generate", "--prompt-file", "@prompts.txt", "--max-tokens", "2", "--trace", "@prompts-symlink.txt"}, "--prompt-file");
        row("trace onto the messages file", {"generate", "--messages", "@messages.json", "--max-tokens", "2", "--trace", "@messages.json"}, "--messages");
        row("trace onto the chat template", {"generate", "--prompt", "x", "--chat", "--chat-template", "@template-ok.jinja", "--max-tokens", "2", "--trace", "@template-ok.jinja"}, "--chat-template");
        row("trace onto the strategy file", {"generate", "--prompt", "x", "--strategy", "@strategy-ok.json", "--max-tokens", "2", "--trace", "@strategy-ok.json"}, "--strategy");
        row("trace onto the model file", {"generate", "--model", "@tiny.bin", "--tokenizer", "@tok.bin", "--prompt-ids", "1 2", "--max-tokens", "2", "--trace", "@tiny.bin"}, "--model");
        row("trace onto the tokenizer file", {"generate", "--model", "@tiny.bin", "--tokenizer", "@tok.bin", "--prompt-ids", "1 2", "--max-tokens", "2", "--trace", "@tok.bin"}, "--tokenizer");
        row("trace onto model.safetensors", {"generate", "--model", "@hf-ok", "--tokenizer", "@tok.bin", "--prompt-ids", "1 2", "--max-tokens", "2", "--trace", "@hf-ok/model.safetensors"}, "--model");
        row("trace onto the GGUF file", {"generate", "--model", "@ok.gguf", "--prompt-ids", "1 2", "--max-tokens", "2", "--trace", "@ok.gguf"}, "--model");
        row("sweep out onto the prompts file", {"sweep", "--x", "top_k.k=1,2", "--prompts", "@prompts.txt", "--max-tokens", "2", "--db", "@new8.sqlite", "--out", "@prompts.txt"}, "--prompts");
        row("campaign without raters", {"campaign", "create", "--db", "@store.sqlite", "--name", "c", "--raters", ""}, "the campaign has 0");
        row("campaign wants gold, store has none", {"campaign", "create", "--db", "@store.sqlite", "--name", "c", "--raters", "a,b,c"}, "gold");
        row("campaign ratings per output zero", {"campaign", "create", "--db", "@store.sqlite", "--name", "c", "--raters", "a,b", "--ratings-per-output", "0"}, "--ratings-per-output");
        row("campaign gold share 2", {"campaign", "create", "--db", "@store.sqlite", "--name", "c", "--raters", "a,b,c", "--gold-share", "2"}, "gold share");
    }
    void commandLine() {
        QFETCH(QStringList, args);
        QFETCH(QString, needle);
        QFETCH(QString, stdoutTo);
        const Snapshot before = snapshot(m_dir.path());
        QProcess process;
        if (!stdoutTo.isEmpty())
            process.setStandardOutputFile(stdoutTo);
        process.start(QStringLiteral(SWB_CLI_PATH), args);
        QVERIFY(process.waitForFinished(120000));
        const QByteArray err = process.readAllStandardError();
        QVERIFY2(process.exitStatus() == QProcess::NormalExit, err.constData());
        QVERIFY2(process.exitCode() == 2, qPrintable(QStringLiteral("exit %1: %2").arg(process.exitCode()).arg(QString::fromUtf8(err))));
        QVERIFY2(err.startsWith("swb: ") && err.endsWith('\n') && err.count('\n') <= 3, err.constData());
        QVERIFY2(err.contains(needle.toUtf8()), err.constData());
        QVERIFY2(!looksLikeQtNoiseOrCrash(err), err.constData());
        QCOMPARE(snapshot(m_dir.path()), before);
        qInfo("%s", err.trimmed().constData());
    }

    // Issue 39: under a file-size limit (ulimit -f) a write fails with a sentence naming the file and the
    // cause (it was SIGXFSZ, or "Unknown error"), and nothing is left half-written.
    void fileSizeLimit() {
        const QString trace = path(QStringLiteral("limited-trace.jsonl"));
        QProcess process;
        process.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("ulimit -f 2; exec \"$0\" \"$@\""),
                                             QStringLiteral(SWB_CLI_PATH), QStringLiteral("generate"),
                                             QStringLiteral("--prompt"), QStringLiteral("x"), QStringLiteral("--max-tokens"),
                                             QStringLiteral("100"), QStringLiteral("--trace"), trace});
        QVERIFY(process.waitForFinished(60000));
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 2, err.constData());
        QVERIFY2(err.contains("cannot write --trace") && err.contains("File too large"), err.constData());
        QVERIFY(!QFile::exists(trace));
    }

    // A store another program is writing to: refused within the busy timeout, the store untouched.
    void lockedStore() {
        const QString store = path(QStringLiteral("store-locked.sqlite"));
        QVERIFY(QFile::copy(path(QStringLiteral("store.sqlite")), store));
        // Taken while nothing holds the store: reading a file this process has locked through SQLite would
        // drop its POSIX locks when the file is closed.
        const Snapshot before = snapshot(m_dir.path());
        {
            QSqlDatabase holder = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("holder"));
            holder.setDatabaseName(store);
            QVERIFY(holder.open());
            QSqlQuery lock(holder);
            QVERIFY(lock.exec(QStringLiteral("BEGIN IMMEDIATE")));
            for (const QStringList& args :
                 {QStringList{"import-ratings", "--db", store, "--csv", path("ratings-ok.csv")},
                  QStringList{"generate", "--prompt", "x", "--max-tokens", "2", "--db", store}}) {
                const auto run = swb::test::runSwbProcess(args);
                QVERIFY2(run.status == 2, run.out.constData());
                qInfo("%s", run.err.trimmed().constData());
                QVERIFY2(run.err.contains(store.toUtf8()) && run.err.count('\n') == 1, run.err.constData());
                QVERIFY2(!looksLikeQtNoiseOrCrash(run.err), run.err.constData());
            }
            QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
            holder.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("holder"));
        QCOMPARE(snapshot(m_dir.path()), before);
    }

    void serverRequests_data() {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("needle");
        const auto row = [](const char* name, const char* method, const char* target, QByteArray body, const char* needle) {
            QTest::newRow(name) << QByteArray(method) << QByteArray(target) << body << QString::fromUtf8(needle);
        };
        row("body invalid UTF-8", "POST", "/v1/completions", "{\"prompt\": \"a\xff\xfe\"}", "invalid UTF8 string at line 1");
        row("body nested deep", "POST", "/v1/completions", QByteArray(5000, '[') + QByteArray(5000, ']'), "");
        row("temperature NaN", "POST", "/v1/completions", R"({"prompt": "a", "temperature": "NaN"})", "temperature");
        row("temperature Inf", "POST", "/v1/completions", R"({"prompt": "a", "temperature": 1e999})", "illegal number");
        row("top_k negative", "POST", "/v1/completions", R"({"prompt": "a", "top_k": -5})", "top_k");
        row("min_p 2", "POST", "/v1/completions", R"({"prompt": "a", "min_p": 2})", "min_p");
        row("presence_penalty 5", "POST", "/v1/completions", R"({"prompt": "a", "presence_penalty": 5})", "presence_penalty");
        row("max_tokens past the limit", "POST", "/v1/completions", R"({"prompt": "a", "max_tokens": 100000000})", "max_tokens");
        row("n past the limit", "POST", "/v1/completions", R"({"prompt": "a", "n": 100000})", "n");
        row("chat without messages", "POST", "/v1/chat/completions", R"({"max_tokens": 3})", "messages");
        row("chat role unknown", "POST", "/v1/chat/completions", R"({"messages": [{"role": "wizard", "content": "hi"}]})", "role");
        row("stop a number", "POST", "/v1/completions", R"({"prompt": "a", "stop": 5})", "stop");
        // Issue 39's cases as a client meets them: the served template fails, the request is too long.
        row("chat template INT64_MIN // -1", "POST", "/v1/chat/completions",
            R"({"messages": [{"role": "user", "content": "divide"}]})", "integer overflow: -9223372036854775808 // -1");
        row("chat template endless loop", "POST", "/v1/chat/completions",
            R"({"messages": [{"role": "user", "content": "loop"}]})", "more than 20,000 loop iterations");
        row("chat template list.append", "POST", "/v1/chat/completions",
            R"({"messages": [{"role": "user", "content": "append"}]})", "list.append changes the list");
        row("chat tools not a list", "POST", "/v1/chat/completions",
            R"({"messages": [{"role": "user", "content": "hi"}], "tools": "x"})", "tools");
        row("prompt longer than the context", "POST", "/v1/completions",
            "{\"prompt\": \"" + QByteArray(2'000'000, 'a') + "\"}", "the prompt of 2000000 bytes is at least");
        row("strategy PUT not JSON", "PUT", "/v1/strategy", "{\"samplers\": [", "");
        row("strategy PUT top_p 3", "PUT", "/v1/strategy", R"({"samplers": [{"type": "top_p", "p": 3}]})", "top_p");
    }
    void serverRequests() {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, body);
        QFETCH(QString, needle);
        const swb::test::HttpReply reply = swb::test::exchange(m_serve->port(), swb::test::request(method, target, body));
        QVERIFY2(reply.status == 400, reply.head.constData());
        const QJsonObject error = QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("error")).toObject();
        const QString message = error.value(QStringLiteral("message")).toString();
        QVERIFY2(!message.isEmpty() && message.contains(needle), reply.body.constData());
        QVERIFY2(!message.contains(QLatin1Char('\n')), reply.body.constData());
        qInfo("%s", qPrintable(message));
        // The server goes on serving.
        QCOMPARE(swb::test::exchange(m_serve->port(), swb::test::request("GET", "/health")).status, 200);
        QVERIFY(!looksLikeQtNoiseOrCrash(m_serve->stderrText()));
    }
};

QTEST_GUILESS_MAIN(TestBadInputs)
#include "tst_bad_inputs.moc"
