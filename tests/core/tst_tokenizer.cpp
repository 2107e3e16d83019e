// Tokenizers through the C++ API: llama.cpp's conformance vectors for the three reference GGUF
// vocabularies, the same vocabularies written as tokenizer.json, llama2.c's tok512.bin against run.c's
// algorithm, round trips (reference cases and random UTF-8, fixed seed), the streaming decoder, the named
// pre-tokenizers, and one clear error per kind of bad input. Small vocabularies built here keep a part of
// the suite running without ../shared/reference; expectations are worked out by hand in the comments.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "GgufWriter.h"
#include "Rng.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "VocabCases.h"
#include "formats/GgufFile.h"
#include "tokenizer/GgufVocabLoader.h"
#include "tokenizer/Llama2cTokenizer.h"
#include "tokenizer/PreTokenizer.h"
#include "tokenizer/Tokenizer.h"
#include "tokenizer/TokenizerLoader.h"

using swb::TokenId;
using swb::Tokenizer;
using swb::test::appendUtf8;
using swb::test::GgufWriter;
using swb::test::jsonString;
using swb::test::llama2cBaseVocab;
using swb::test::llama2cHeader;
using swb::test::tokBin;
using swb::test::VocabCase;
using swb::test::writeFile;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

// SplitMix64: the property tests' fixed, portable random stream.
class TestRng {
public:
    explicit TestRng(std::uint64_t seed)
        : m_random(seed) {}
    std::uint64_t next() { return m_random.next(); }
    std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }

private:
    swb::SplitMix64 m_random;
};

// Valid UTF-8 of mixed scripts, spaces of every kind, digits, emoji and combining marks. U+2581 is left
// out: SentencePiece vocabularies spell spaces with it, so it cannot survive their round trip.
std::string randomUtf8(TestRng& rng) {
    static const std::uint32_t spaces[] = {' ', ' ', ' ', '\t', '\n', '\r', 0x0B, 0x0C, 0x85, 0xA0, 0x2028, 0x3000};
    std::string s;
    const std::uint32_t length = rng.below(41);
    for (std::uint32_t i = 0; i < length; ++i) {
        const std::uint32_t pick = rng.below(100);
        std::uint32_t cp;
        if (pick < 35)
            cp = 0x20 + rng.below(0x5F);
        else if (pick < 47)
            cp = spaces[rng.below(sizeof(spaces) / sizeof(spaces[0]))];
        else if (pick < 55)
            cp = '0' + rng.below(10);
        else if (pick < 63)
            cp = 0xA1 + rng.below(0x24F - 0xA1);
        else if (pick < 70)
            cp = 0x400 + rng.below(0x100);
        else if (pick < 77)
            cp = 0x4E00 + rng.below(0x5200);
        else if (pick < 81)
            cp = 0xAC00 + rng.below(0x2BA4);
        else if (pick < 87)
            cp = 0x1F300 + rng.below(0x800);
        else if (pick < 91)
            cp = 0x300 + rng.below(0x70);
        else if (pick < 93)
            cp = 1 + rng.below(0x1F);
        else {
            do
                cp = 0x20 + rng.below(0x10FFFF - 0x20);
            while ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0x2581);
        }
        appendUtf8(s, cp);
    }
    return s;
}

bool isValidUtf8(const std::string& s) {
    const QByteArray bytes(s.data(), static_cast<qsizetype>(s.size()));
    return QString::fromUtf8(bytes).toUtf8() == bytes;
}

std::string toStd(const QByteArray& b) {
    return std::string(b.constData(), static_cast<std::size_t>(b.size()));
}

std::vector<int> toInts(const std::vector<TokenId>& ids) {
    return std::vector<int>(ids.begin(), ids.end());
}

// run.c's encode() loop as written there: after each merge, rescan the whole sequence for the best pair.
std::vector<TokenId> naiveRunCEncode(const std::vector<std::string>& vocab, const std::vector<float>& scores,
                                     const std::string& text, bool bos) {
    std::unordered_map<std::string, TokenId> lookup;
    for (std::size_t i = 0; i < vocab.size(); ++i)
        lookup.emplace(vocab[i], static_cast<TokenId>(i));
    std::vector<TokenId> tokens;
    if (bos)
        tokens.push_back(1);
    if (!text.empty())
        tokens.push_back(lookup.at(" "));
    for (std::size_t i = 0; i < text.size();) {
        std::size_t j = i + 1;
        while (j < text.size() && (static_cast<unsigned char>(text[j]) & 0xC0) == 0x80 && j - i < 4)
            ++j;
        const std::string ch = text.substr(i, j - i);
        if (const auto it = lookup.find(ch); it != lookup.end())
            tokens.push_back(it->second);
        else
            for (const char c : ch)
                tokens.push_back(static_cast<unsigned char>(c) + 3);
        i = j;
    }
    while (true) {
        float best = -1e10f;
        int bestIndex = -1;
        TokenId bestId = -1;
        for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
            const auto it = lookup.find(vocab[static_cast<std::size_t>(tokens[i])] +
                                        vocab[static_cast<std::size_t>(tokens[i + 1])]);
            if (it != lookup.end() && scores[static_cast<std::size_t>(it->second)] > best) {
                best = scores[static_cast<std::size_t>(it->second)];
                bestIndex = static_cast<int>(i);
                bestId = it->second;
            }
        }
        if (bestIndex < 0)
            break;
        tokens[static_cast<std::size_t>(bestIndex)] = bestId;
        tokens.erase(tokens.begin() + bestIndex + 1);
    }
    return tokens;
}

} // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::map<QString, std::unique_ptr<Tokenizer>> m_tokenizers;
    std::map<QString, std::vector<VocabCase>> m_cases;

    // Tokenizers by name: "gguf:NAME" and "json:NAME" (reference vocabularies), "llama2c" (tok512.bin),
    // and "tiny-bpe", "tiny-spm", "tiny-llama2c" (built here, always available).
    const Tokenizer* tokenizer(const QString& name) {
        if (const auto it = m_tokenizers.find(name); it != m_tokenizers.end())
            return it->second.get();
        swb::Result<std::unique_ptr<Tokenizer>> loaded = swb::Error::internal(QStringLiteral("unknown"));
        const QString ref = swb::test::referenceDir();
        if (name.startsWith(QLatin1String("gguf:")))
            loaded = swb::loadTokenizer(swb::test::referenceVocabPath(name.mid(5)));
        else if (name.startsWith(QLatin1String("json:")))
            loaded = swb::loadTokenizer(m_dir.filePath(QStringLiteral("hf-") + name.mid(5)));
        else if (name == QLatin1String("llama2c"))
            loaded = swb::loadTokenizer(ref + QStringLiteral("/stories260K/stories260K.bin"),
                                        ref + QStringLiteral("/stories260K/tok512.bin"));
        else
            loaded = swb::loadTokenizer(
                m_dir.filePath(name == QLatin1String("tiny-llama2c") ? QStringLiteral("tiny-model.bin")
                                                                     : name + QStringLiteral(".gguf")),
                name == QLatin1String("tiny-llama2c") ? m_dir.filePath("tiny-tok.bin") : QString());
        if (!loaded) {
            qWarning("%s: %s", qPrintable(name), qPrintable(loaded.error().message));
            return nullptr;
        }
        return (m_tokenizers[name] = std::move(loaded).value()).get();
    }

    const std::vector<VocabCase>& cases(const QString& vocab) {
        auto it = m_cases.find(vocab);
        if (it == m_cases.end())
            it = m_cases.emplace(vocab, swb::test::readVocabCases(vocab)).first;
        return it->second;
    }

    static QStringList referenceSources() {
        QStringList sources;
        for (const QString& v : swb::test::referenceVocabNames())
            sources << QStringLiteral("gguf:") + v << QStringLiteral("json:") + v;
        sources << QStringLiteral("llama2c");
        return sources;
    }

    // One row per (source, reference case); a single placeholder row when the reference is absent so the
    // test body can skip with a message.
    static void referenceCaseRows(const QStringList& sources, bool vocabOfSource) {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("vocab");
        QTest::addColumn<int>("index");
        if (swb::test::referenceDir().isEmpty()) {
            QTest::newRow("no reference") << QString() << QString() << -1;
            return;
        }
        for (const QString& source : sources) {
            const QStringList vocabs = vocabOfSource && source.contains(':') ? QStringList{source.section(':', 1)}
                                                                             : swb::test::referenceVocabNames();
            for (const QString& vocab : vocabs) {
                const std::size_t n = swb::test::readVocabCases(vocab).size();
                for (std::size_t i = 0; i < n; ++i)
                    QTest::addRow("%s %s #%d", qPrintable(source), qPrintable(vocab), int(i))
                        << source << vocab << int(i);
            }
        }
    }

    bool writeTokenizerJson(const QString& vocab) {
        return swb::test::writeReferenceTokenizerJson(vocab, m_dir.filePath(QStringLiteral("hf-") + vocab));
    }

    // Two small tokenizer.json files exercising loader features the reference vocabularies do not: NFC,
    // a Split regex before ByteLevel(use_regex=false), ignore_merges, added tokens with rstrip, a
    // TemplateProcessing BOS; and a Metaspace(prepend_scheme "first", split) SentencePiece flavour.
    bool writeFeatureTokenizers() {
        // Byte-level: ids 0..255 are the alphabet in byte order, then "Ã©" (é) 256, "Ġc" 257, "abc" 258
        // (no merge builds it), added "<x>" 259 (not special, rstrip) and "<s>" 260 (special).
        QByteArray vocab = "{";
        int nextCodePoint = 256;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
            std::string ch;
            appendUtf8(ch, static_cast<std::uint32_t>(printable ? b : nextCodePoint++));
            vocab += jsonString(ch) + ":" + QByteArray::number(b) + ",";
        }
        vocab += "\"\xc3\x83\xc2\xa9\":256,\"\xc4\xa0"
                 "c\":257,\"abc\":258,\"<x>\":259,\"<s>\":260}";
        const QByteArray llama3 = jsonString(
            "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|"
            "\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+");
        const QByteArray byteLevel =
            "{\"added_tokens\":[{\"id\":259,\"content\":\"<x>\",\"special\":false,\"lstrip\":false,\"rstrip\":true},"
            "{\"id\":260,\"content\":\"<s>\",\"special\":true}],"
            "\"normalizer\":{\"type\":\"NFC\"},"
            "\"pre_tokenizer\":{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Split\",\"pattern\":{\"Regex\":" +
            llama3 +
            "},\"behavior\":\"Isolated\",\"invert\":false},{\"type\":\"ByteLevel\",\"add_prefix_space\":false,"
            "\"use_regex\":false}]},"
            "\"post_processor\":{\"type\":\"TemplateProcessing\",\"single\":[{\"SpecialToken\":{\"id\":\"<s>\",\"type_"
            "id\":0}},"
            "{\"Sequence\":{\"id\":\"A\",\"type_id\":0}}],\"special_tokens\":{\"<s>\":{\"id\":\"<s>\",\"ids\":[260]}}},"
            "\"decoder\":{\"type\":\"ByteLevel\"},"
            "\"model\":{\"type\":\"BPE\",\"ignore_merges\":true,\"vocab\":" +
            vocab + ",\"merges\":[[\"\xc3\x83\",\"\xc2\xa9\"],[\"\xc4\xa0\",\"c\"]]}}";
        // SentencePiece flavour: <unk> 0, <s> 1, ▁ 2, a 3, b 4, ▁a 5, ▁b 6.
        const QByteArray sp = jsonString(swb::test::kMetaspace);
        const QByteArray metaspace =
            "{\"added_tokens\":[{\"id\":0,\"content\":\"<unk>\",\"special\":true},{\"id\":1,\"content\":\"<s>\","
            "\"special\":true}],\"normalizer\":null,"
            "\"pre_tokenizer\":{\"type\":\"Metaspace\",\"replacement\":" +
            sp +
            ",\"prepend_scheme\":\"first\",\"split\":true},"
            "\"decoder\":{\"type\":\"Metaspace\",\"replacement\":" +
            sp +
            ",\"prepend_scheme\":\"first\",\"split\":true},"
            "\"model\":{\"type\":\"BPE\",\"unk_token\":\"<unk>\",\"vocab\":{\"<unk>\":0,\"<s>\":1," +
            sp + ":2,\"a\":3,\"b\":4," + jsonString(swb::test::kMetaspace + "a") + ":5," +
            jsonString(swb::test::kMetaspace + "b") + ":6},\"merges\":[[" + sp + ",\"a\"],[" + sp + ",\"b\"]]}}";
        // The same with no merges at all (tokenizers takes that: every piece stays as its symbols).
        QByteArray noMerges = byteLevel;
        noMerges.replace("\"merges\":[[\"\xc3\x83\",\"\xc2\xa9\"],[\"\xc4\xa0\",\"c\"]]", "\"merges\":[]");
        noMerges.replace("\"ignore_merges\":true,", "");
        return QDir(m_dir.path()).mkpath("features-bytelevel") && QDir(m_dir.path()).mkpath("features-metaspace") &&
               QDir(m_dir.path()).mkpath("features-nomerges") &&
               writeFile(m_dir.filePath("features-nomerges/tokenizer.json"), noMerges) &&
               writeFile(m_dir.filePath("features-bytelevel/tokenizer.json"), byteLevel) &&
               writeFile(m_dir.filePath("features-metaspace/tokenizer.json"), metaspace);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        QVERIFY(swb::test::writeTinyVocabularies(m_dir.path()));
        QVERIFY(writeFeatureTokenizers());
        if (!swb::test::referenceDir().isEmpty())
            for (const QString& vocab : swb::test::referenceVocabNames())
                QVERIFY2(writeTokenizerJson(vocab), qPrintable(vocab));
    }

    void referenceFilesHold46Cases_data() {
        QTest::addColumn<QString>("vocab");
        for (const QString& v : swb::test::referenceVocabNames())
            QTest::newRow(qPrintable(v)) << v;
    }
    void referenceFilesHold46Cases() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, vocab);
        QString error;
        QCOMPARE(swb::test::readVocabCases(vocab, &error).size(), std::size_t(46));
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    // llama.cpp's expected ids: no BOS/EOS, special-token text not parsed.
    void conformance_data() {
        QStringList sources;
        for (const QString& v : swb::test::referenceVocabNames())
            sources << QStringLiteral("gguf:") + v << QStringLiteral("json:") + v;
        referenceCaseRows(sources, true);
    }
    void conformance() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, source);
        QFETCH(QString, vocab);
        QFETCH(int, index);
        const Tokenizer* t = tokenizer(source);
        QVERIFY(t);
        const VocabCase& c = cases(vocab).at(static_cast<std::size_t>(index));
        QCOMPARE(toInts(t->encode(toStd(c.text), false, false)), c.ids);
    }

    void tokenizerJsonAgreesWithGgufOnVocabulary_data() {
        QTest::addColumn<QString>("vocab");
        for (const QString& v : swb::test::referenceVocabNames())
            QTest::newRow(qPrintable(v)) << v;
    }
    void tokenizerJsonAgreesWithGgufOnVocabulary() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, vocab);
        const Tokenizer* gguf = tokenizer(QStringLiteral("gguf:") + vocab);
        const Tokenizer* json = tokenizer(QStringLiteral("json:") + vocab);
        QVERIFY(gguf && json);
        QCOMPARE(json->vocabSize(), gguf->vocabSize());
        const swb::SpecialTokens& a = gguf->specialTokens();
        const swb::SpecialTokens& b = json->specialTokens();
        QCOMPARE(b.bos, a.bos);
        QCOMPARE(b.eos, a.eos);
        QCOMPARE(b.addBos, a.addBos);
        QCOMPARE(b.addEos, a.addEos);
        if (vocab != QLatin1String("gpt-2"))
            QCOMPARE(b.unk, a.unk);
        const std::string text = "Hello <s> world";
        QCOMPARE(json->encode(text, true, true), gguf->encode(text, true, true));
        for (TokenId id = 0; id < gguf->vocabSize(); ++id)
            if (json->piece(id) != gguf->piece(id))
                QFAIL(qPrintable(QStringLiteral("piece %1 differs: '%2' (tokenizer.json) vs '%3' (GGUF)")
                                     .arg(id)
                                     .arg(QString::fromLatin1(QByteArray::fromStdString(json->piece(id)).toHex()),
                                          QString::fromLatin1(QByteArray::fromStdString(gguf->piece(id)).toHex()))));
    }

    void roundTripReferenceCases_data() { referenceCaseRows(referenceSources(), true); }
    void roundTripReferenceCases() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QString, source);
        QFETCH(QString, vocab);
        QFETCH(int, index);
        const Tokenizer* t = tokenizer(source);
        QVERIFY(t);
        const std::string text = toStd(cases(vocab).at(static_cast<std::size_t>(index)).text);
        QCOMPARE(t->decode(t->encode(text, false, false)), text);
        QCOMPARE(t->decode(t->encode(text, true, false)), text); // BOS decodes to nothing
    }

    void randomUtf8RoundTrip_data() {
        QTest::addColumn<QString>("source");
        for (const char* s : {"tiny-bpe", "tiny-spm", "tiny-llama2c"})
            QTest::newRow(s) << QString::fromLatin1(s);
        for (const QString& s : referenceSources())
            QTest::newRow(qPrintable(s)) << s;
    }
    void randomUtf8RoundTrip() {
        QFETCH(QString, source);
        if (!source.startsWith(QLatin1String("tiny")))
            SWB_REQUIRE_REFERENCE();
        const Tokenizer* t = tokenizer(source);
        QVERIFY(t);
        TestRng rng(20240601);
        for (int i = 0; i < 400; ++i) {
            const std::string s = randomUtf8(rng);
            const std::vector<TokenId> ids = t->encode(s, false, false);
            for (const TokenId id : ids)
                QVERIFY(id >= 0 && id < t->vocabSize());
            const std::string back = t->decode(ids);
            if (back != s)
                QFAIL(qPrintable(QStringLiteral("string %1 does not survive: %2 -> %3")
                                     .arg(i)
                                     .arg(QString::fromUtf8(QByteArray::fromStdString(s).toPercentEncoding()),
                                          QString::fromUtf8(QByteArray::fromStdString(back).toPercentEncoding()))));
        }
    }

    // fewestTokens, the bound a prompt is refused by before it is tokenized, is never above the real count:
    // random text, every token's text repeated (the densest text there is) and special tokens parsed.
    void fewestTokensIsALowerBound_data() { randomUtf8RoundTrip_data(); }
    void fewestTokensIsALowerBound() {
        QFETCH(QString, source);
        if (!source.startsWith(QLatin1String("tiny")))
            SWB_REQUIRE_REFERENCE();
        const Tokenizer* t = tokenizer(source);
        QVERIFY(t);
        const auto check = [&](const std::string& text, bool parseSpecial) {
            const std::size_t real = t->encode(text, false, parseSpecial).size();
            if (t->fewestTokens(text.size()) > real)
                QFAIL(qPrintable(QStringLiteral("%1 bytes: bound %2 > %3 tokens").arg(text.size()).arg(t->fewestTokens(text.size())).arg(real)));
        };
        TestRng rng(20261206);
        for (int i = 0; i < 200; ++i)
            check(randomUtf8(rng), false);
        for (TokenId id = 0; id < t->vocabSize(); ++id) {
            std::string text;
            for (int k = 0; k < 8; ++k)
                text += t->isSpecial(id) ? t->tokenText(id) : t->piece(id);
            check(text, t->isSpecial(id));
        }
        if (source == QLatin1String("tiny-bpe")) // its longest token is "<|endoftext|>", 13 bytes: 52 a token
            QCOMPARE(t->fewestTokens(520), std::size_t(10));
    }

    // A token that ends inside a character is held back until the character completes; pushing every
    // token and flushing gives decode() of the whole sequence.
    void streamingDecoderNeverSplitsACharacter_data() { randomUtf8RoundTrip_data(); }
    void streamingDecoderNeverSplitsACharacter() {
        QFETCH(QString, source);
        if (!source.startsWith(QLatin1String("tiny")))
            SWB_REQUIRE_REFERENCE();
        const Tokenizer* t = tokenizer(source);
        QVERIFY(t);
        TestRng rng(7);
        for (int i = 0; i < 200; ++i) {
            const std::string s = randomUtf8(rng);
            const std::vector<TokenId> ids = t->encode(s, i % 2 == 0, false);
            swb::StreamingDecoder decoder(*t);
            std::string streamed;
            for (const TokenId id : ids) {
                const std::string chunk = decoder.push(id);
                QVERIFY2(isValidUtf8(chunk), "a chunk cuts a character");
                streamed += chunk;
            }
            QVERIFY(decoder.flush().empty()); // valid text leaves nothing pending
            QCOMPARE(streamed, t->decode(ids));
        }
    }

    void streamingDecoderHoldsPartialCharacters() {
        SWB_REQUIRE_REFERENCE();
        // From the reference: GPT-2 spells 🚀 (F0 9F 9A 80) as 8582 (F0 9F), 248 (9A), 222 (80).
        const Tokenizer* gpt2 = tokenizer(QStringLiteral("gguf:gpt-2"));
        QVERIFY(gpt2);
        swb::StreamingDecoder d(*gpt2);
        QCOMPARE(d.push(15496), std::string("Hello"));
        QCOMPARE(d.push(8582), std::string());
        QCOMPARE(d.push(248), std::string());
        QCOMPARE(d.push(222), std::string("\xf0\x9f\x9a\x80"));
        QCOMPARE(d.push(8582), std::string());
        QCOMPARE(d.flush(), std::string("\xf0\x9f")); // what is left at the end comes out as it is
        // Llama: the dummy space of the first piece goes; later pieces keep theirs. ▁Hello=15043, ▁world=3186,
        // and 😁 (F0 9F 98 81) as byte tokens 243 162 155 132.
        const Tokenizer* llama = tokenizer(QStringLiteral("gguf:llama-spm"));
        QVERIFY(llama);
        swb::StreamingDecoder s(*llama);
        QCOMPARE(s.push(1), std::string());
        QCOMPARE(s.push(15043), std::string("Hello"));
        QCOMPARE(s.push(3186), std::string(" world"));
        QCOMPARE(s.push(243), std::string());
        QCOMPARE(s.push(162), std::string());
        QCOMPARE(s.push(155), std::string());
        QCOMPARE(s.push(132), std::string("\xf0\x9f\x98\x81"));
    }

    // Hand-worked on the tiny vocabularies (see writeTinyVocabularies).
    void tinyVocabularies_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("addSpecial");
        QTest::addColumn<std::vector<int>>("expected");
        // " the": Ġ t h e -> (Ġ,t) rank 0 -> Ġt; (h,e) rank 1 -> he; (Ġt,he) rank 2 -> Ġthe.
        QTest::newRow("bpe ' the'") << "tiny-bpe" << QByteArray(" the") << false << std::vector<int>{258};
        // "the": t h e -> (h,e) -> he; no rule joins t and he.
        QTest::newRow("bpe 'the'") << "tiny-bpe" << QByteArray("the") << false << std::vector<int>{116, 257};
        // "this is" -> pieces "this", " is": t h (i s -> is) ; Ġ (i s -> is).
        QTest::newRow("bpe 'this is'") << "tiny-bpe" << QByteArray("this is") << false
                                       << std::vector<int>{116, 104, 259, 32, 259};
        // Without parseSpecial: pieces "<|", "endoftext", "|>", one byte token each (no rule joins them).
        QTest::newRow("bpe special as text")
            << "tiny-bpe" << QByteArray("<|endoftext|>") << false
            << std::vector<int>{60, 124, 101, 110, 100, 111, 102, 116, 101, 120, 116, 124, 62};
        // "ab" -> "▁ab": (▁,a) -> ▁a (-2) beats nothing else; then (▁a,b) -> ▁ab (-4).
        QTest::newRow("spm 'ab'") << "tiny-spm" << QByteArray("ab") << false << std::vector<int>{262};
        QTest::newRow("spm 'ab' with BOS") << "tiny-spm" << QByteArray("ab") << true << std::vector<int>{1, 262};
        // "b a" -> "▁b▁a": only (▁,a) is a token: ▁ b ▁a.
        QTest::newRow("spm 'b a'") << "tiny-spm" << QByteArray("b a") << false << std::vector<int>{259, 261, 260};
        // "c" -> "▁c": no token holds c: ▁ and byte 0x63 (id 0x63 + 3).
        QTest::newRow("spm byte fallback") << "tiny-spm" << QByteArray("c") << false << std::vector<int>{259, 102};
        QTest::newRow("spm empty") << "tiny-spm" << QByteArray() << true << std::vector<int>{1};
        // run.c: BOS, " ", a, b -> (" ",a) " a" (-2) -> (" a",b) " ab" (-4).
        QTest::newRow("llama2c 'ab'") << "tiny-llama2c" << QByteArray("ab") << true << std::vector<int>{1, 263};
        // " ", b, " ", a: (" ",a) -> " a"; (" ",b) is no token.
        QTest::newRow("llama2c 'b a'") << "tiny-llama2c" << QByteArray("b a") << false
                                       << std::vector<int>{259, 262, 261};
        QTest::newRow("llama2c 'é'") << "tiny-llama2c" << QByteArray("\xc3\xa9") << false
                                     << std::vector<int>{259, 0xC3 + 3, 0xA9 + 3};
        QTest::newRow("llama2c empty") << "tiny-llama2c" << QByteArray() << false << std::vector<int>{};
    }
    void tinyVocabularies() {
        QFETCH(QString, source);
        QFETCH(QByteArray, text);
        QFETCH(bool, addSpecial);
        QFETCH(std::vector<int>, expected);
        const Tokenizer* t = tokenizer(source);
        QVERIFY(t);
        QCOMPARE(toInts(t->encode(toStd(text), addSpecial, false)), expected);
        QCOMPARE(t->decode(t->encode(toStd(text), addSpecial, false)), toStd(text));
    }

    void tokenizerJsonFeatures_data() {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<bool>("addSpecial");
        QTest::addColumn<bool>("parseSpecial");
        QTest::addColumn<std::vector<int>>("expected");
        // NFC first: "cafe" + U+0301 becomes "café"; é is C3 A9 = "Ã©" (256).
        QTest::newRow("nfc") << "features-bytelevel" << QByteArray("cafe\xcc\x81") << false << false
                             << std::vector<int>{99, 97, 102, 256};
        QTest::newRow("ignore_merges") << "features-bytelevel" << QByteArray("abc") << false << false
                                       << std::vector<int>{258};
        // The regex keeps " c" together; (Ġ, c) merges.
        QTest::newRow("split regex") << "features-bytelevel" << QByteArray(" c") << false << false
                                     << std::vector<int>{257};
        // "<x>" is not special: always split out; rstrip eats the spaces after it.
        QTest::newRow("added token, rstrip")
            << "features-bytelevel" << QByteArray("a<x>  b") << false << false << std::vector<int>{97, 259, 98};
        // No merges (and no ignore_merges): Ġ and c stay apart (257 with the merges), and so do a, b, c.
        QTest::newRow("no merges") << "features-nomerges" << QByteArray(" c") << false << false
                                   << std::vector<int>{32, 99};
        QTest::newRow("no merges, a word") << "features-nomerges" << QByteArray("abc") << false << false
                                           << std::vector<int>{97, 98, 99};
        QTest::newRow("special not parsed")
            << "features-bytelevel" << QByteArray("<s>") << false << false << std::vector<int>{60, 115, 62};
        QTest::newRow("special parsed") << "features-bytelevel" << QByteArray("x <s>") << false << true
                                        << std::vector<int>{120, 32, 260};
        QTest::newRow("template BOS") << "features-bytelevel" << QByteArray("c") << true << false
                                      << std::vector<int>{260, 99};
        // "a b" -> "▁a▁b" (prefix: first section only), split before each ▁: ▁a ▁b.
        QTest::newRow("metaspace") << "features-metaspace" << QByteArray("a b") << false << false
                                   << std::vector<int>{5, 6};
        // "c" has no token and no byte fallback: ▁, <unk>.
        QTest::newRow("metaspace unk") << "features-metaspace" << QByteArray("a c") << false << false
                                       << std::vector<int>{5, 2, 0};
        // prepend_scheme "first": the section after <s> gets no ▁.
        QTest::newRow("metaspace first") << "features-metaspace" << QByteArray("<s>a") << false << true
                                         << std::vector<int>{1, 3};
    }
    void tokenizerJsonFeatures() {
        QFETCH(QString, folder);
        QFETCH(QByteArray, text);
        QFETCH(bool, addSpecial);
        QFETCH(bool, parseSpecial);
        QFETCH(std::vector<int>, expected);
        swb::Result<std::unique_ptr<Tokenizer>> t = swb::loadTokenizer(m_dir.filePath(folder));
        QVERIFY2(t.ok(), qPrintable(t.ok() ? QString() : t.error().message));
        QCOMPARE(toInts(t.value()->encode(toStd(text), addSpecial, parseSpecial)), expected);
    }

    void tokenizerJsonFeatureDetails() {
        swb::Result<std::unique_ptr<Tokenizer>> bl = swb::loadTokenizer(m_dir.filePath("features-bytelevel"));
        swb::Result<std::unique_ptr<Tokenizer>> ms = swb::loadTokenizer(m_dir.filePath("features-metaspace"));
        QVERIFY(bl.ok() && ms.ok());
        QCOMPARE(bl.value()->kind(), QStringLiteral("tokenizer.json:bpe (byte-level)"));
        QCOMPARE(ms.value()->kind(), QStringLiteral("tokenizer.json:bpe (sentencepiece)"));
        QCOMPARE(bl.value()->specialTokens().bos, 260);
        QVERIFY(bl.value()->specialTokens().addBos);
        QCOMPARE(ms.value()->specialTokens().unk, 0);
        QCOMPARE(ms.value()->decode({5, 6}), std::string("a b"));
        QCOMPARE(bl.value()->decode({99, 97, 102, 256}), std::string("caf\xc3\xa9"));
        QCOMPARE(bl.value()->piece(259), std::string("<x>")); // added, not special: decodes to its text
        QCOMPARE(bl.value()->piece(260), std::string());
    }

    void tinyVocabularyDetails() {
        const Tokenizer* bpe = tokenizer(QStringLiteral("tiny-bpe"));
        const Tokenizer* spm = tokenizer(QStringLiteral("tiny-spm"));
        QVERIFY(bpe && spm);
        QCOMPARE(bpe->kind(), QStringLiteral("gguf:gpt2/gpt-2"));
        QCOMPARE(spm->kind(), QStringLiteral("gguf:llama"));
        QCOMPARE(bpe->encode("<|endoftext|>", false, true), std::vector<TokenId>{260});
        QCOMPARE(bpe->tokenText(258), std::string("\xc4\xa0the"));
        QCOMPARE(bpe->piece(258), std::string(" the"));
        QCOMPARE(bpe->piece(260), std::string()); // control tokens decode to nothing
        QVERIFY(bpe->isSpecial(260) && !bpe->isSpecial(258));
        QCOMPARE(spm->piece(262), std::string(" ab"));
        QCOMPARE(spm->piece(3 + 0x41), std::string("A"));
        QCOMPARE(spm->tokenText(3 + 0x41), std::string("<0x41>"));
        QCOMPARE(spm->decode({1, 262, 260}), std::string("ab a"));
        QCOMPARE(spm->specialTokens().unk, 0);
        QVERIFY(spm->specialTokens().addBos && !spm->specialTokens().addEos);
        QCOMPARE(spm->encode("a<s>b", false, true), (std::vector<TokenId>{260, 1, 259, 261})); // ▁a <s> ▁b
    }

    // Hand-checked with a transcription of run.c's encode() (karpathy/llama2.c): tok512.bin ids.
    void llama2cMatchesRunC_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<std::vector<int>>("expected");
        QTest::newRow("Once upon a time") << QByteArray("Once upon a time") << std::vector<int>{1, 403, 407, 261, 378};
        QTest::newRow("Zoo") << QByteArray("Zoo") << std::vector<int>{1, 410, 469, 347};
        QTest::newRow("empty") << QByteArray() << std::vector<int>{1};
        QTest::newRow("punctuation") << QByteArray("Hello, world!")
                                     << std::vector<int>{1, 346, 306, 414, 432, 263, 304, 341, 443};
        QTest::newRow("byte fallback") << QByteArray("Lily's cat \xc3\xbc \xf0\x9f\x9a\x80")
                                       << std::vector<int>{1,   317, 439, 419, 280, 294, 410,
                                                           198, 191, 410, 243, 162, 157, 131};
        QTest::newRow("double spaces") << QByteArray("  two  spaces")
                                       << std::vector<int>{1, 410, 410, 259, 424, 414, 410, 262, 427, 412, 331, 419};
    }
    void llama2cMatchesRunC() {
        SWB_REQUIRE_REFERENCE();
        QFETCH(QByteArray, text);
        QFETCH(std::vector<int>, expected);
        const Tokenizer* t = tokenizer(QStringLiteral("llama2c"));
        QVERIFY(t);
        QCOMPARE(t->kind(), QStringLiteral("llama2.c"));
        QCOMPARE(toInts(t->encode(toStd(text), true, false)), expected);
    }

    void llama2cMatchesRunCLoopOnRandomText() {
        SWB_REQUIRE_REFERENCE();
        const auto* t = dynamic_cast<const swb::Llama2cTokenizer*>(tokenizer(QStringLiteral("llama2c")));
        QVERIFY(t);
        std::vector<std::string> vocab;
        std::vector<float> scores;
        for (TokenId id = 0; id < t->vocabSize(); ++id) {
            vocab.push_back(t->tokenText(id));
            scores.push_back(t->score(id));
        }
        QCOMPARE(vocab.size(), std::size_t(512));
        QCOMPARE(vocab[1], std::string("\n<s>\n"));
        TestRng rng(99);
        static const char* const words[] = {"Once",   "upon", "a",       "time", "there", "was",
                                            "little", "girl", "named",   "Lily", "she",   "loved",
                                            "to",     "play", "outside", "Tom",  "dog",   "ball"};
        for (int i = 0; i < 300; ++i) {
            std::string s = i % 3 == 0 ? randomUtf8(rng) : std::string();
            for (std::uint32_t w = 0, n = rng.below(12); w < n; ++w)
                s += std::string(w ? (rng.below(8) == 0 ? ", " : " ") : "") + words[rng.below(18)];
            QCOMPARE(t->encode(s, true, false), naiveRunCEncode(vocab, scores, s, true));
        }
    }

    void llama2cDecodeFollowsRunC() {
        SWB_REQUIRE_REFERENCE();
        const Tokenizer* t = tokenizer(QStringLiteral("llama2c"));
        QVERIFY(t);
        // run.c: after BOS a piece loses its leading space; elsewhere it keeps it. Byte tokens are bytes.
        QCOMPARE(t->decode({1, 403, 407, 261, 378}), std::string("Once upon a time"));
        QCOMPARE(t->piece(407), std::string(" upon"));
        QCOMPARE(t->decode({1, 243, 162, 157, 131}), std::string("\xf0\x9f\x9a\x80"));
        QCOMPARE(t->piece(1), std::string()); // BOS prints nothing
        QVERIFY(t->isSpecial(2) && !t->isSpecial(3));
        const swb::SpecialTokens& sp = t->specialTokens();
        QVERIFY(sp.bos == 1 && sp.eos == 2 && sp.addBos && !sp.addEos);
    }

    void specialTokensInReferenceVocabularies() {
        SWB_REQUIRE_REFERENCE();
        const Tokenizer* gpt2 = tokenizer(QStringLiteral("gguf:gpt-2"));
        const Tokenizer* llama = tokenizer(QStringLiteral("gguf:llama-spm"));
        const Tokenizer* phi3 = tokenizer(QStringLiteral("gguf:phi-3"));
        QVERIFY(gpt2 && llama && phi3);
        QCOMPARE(gpt2->encode("<|endoftext|>", false, true), std::vector<TokenId>{50256});
        const std::vector<TokenId> asText = gpt2->encode("<|endoftext|>", false, false);
        QVERIFY(asText.size() > 1 && std::find(asText.begin(), asText.end(), 50256) == asText.end());
        QCOMPARE(gpt2->encode("Hello", true, false), std::vector<TokenId>{15496}); // GPT-2 adds no BOS
        QCOMPARE(llama->encode("Hello", true, false), (std::vector<TokenId>{1, 15043}));
        QCOMPARE(llama->vocabSize(), 32000);
        QCOMPARE(phi3->vocabSize(), 32064);
        QCOMPARE(phi3->specialTokens().eos, 32000);
        QCOMPARE(phi3->specialTokens().pad, 32000);
        // Phi-3's control tokens swallow the whitespace after them (llama.cpp's rule for this model):
        // "<|user|>\nHello" -> <|user|>=32010, then "Hello" with its dummy space, ▁Hello=15043.
        QCOMPARE(phi3->encode("<|user|>\nHello", false, true), (std::vector<TokenId>{32010, 15043}));
        QVERIFY(phi3->isSpecial(32010));
        QCOMPARE(phi3->decode({32010, 15043}), std::string("Hello"));
    }

    // Each named GGUF pre-tokenizer on a text that tells its steps apart (worked out from llama.cpp's regexes).
    void preTokenizerNamedTypes_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("pieces");
        QTest::newRow("gpt-2") << "gpt-2" << QByteArray("Hello world's  x")
                               << QStringList{"Hello", " world", "'s", " ", " x"};
        QTest::newRow("llama-bpe digits by 3")
            << "llama-bpe" << QByteArray("12345 abc") << QStringList{"123", "45", " abc"};
        QTest::newRow("llama-bpe newlines") << "llama-bpe" << QByteArray("a.\n\nb") << QStringList{"a", ".\n\n", "b"};
        QTest::newRow("qwen2 single digits") << "qwen2" << QByteArray("12345") << QStringList{"1", "2", "3", "4", "5"};
        QTest::newRow("starcoder") << "starcoder" << QByteArray("abc123") << QStringList{"abc", "1", "2", "3"};
        QTest::newRow("smollm") << "smollm" << QByteArray("x 42") << QStringList{"x", " ", "4", "2"};
        QTest::newRow("falcon") << "falcon" << QByteArray("a,b 1234") << QStringList{"a", ",", "b", " ", "123", "4"};
        QTest::newRow("default") << "default" << QByteArray("x=12345") << QStringList{"x", "=", "123", "45"};
        QTest::newRow("deepseek-llm") << "deepseek-llm" << QByteArray("Hi \xe4\xbd\xa0\xe5\xa5\xbd\n")
                                      << QStringList{"Hi", " ", "\xe4\xbd\xa0\xe5\xa5\xbd", "\n"};
        QTest::newRow("deepseek-coder") << "deepseek-coder" << QByteArray("a1b") << QStringList{"a", "1", "b"};
        QTest::newRow("mpt") << "mpt" << QByteArray("I'm") << QStringList{"I", "'m"};
        QTest::newRow("phi-2") << "phi-2" << QByteArray("a  b") << QStringList{"a", " ", " b"};
        QTest::newRow("refact") << "refact" << QByteArray("v2") << QStringList{"v", "2"};
        // U+0085 (NEL) is White_Space for llama.cpp, though not for PCRE2's own \s.
        QTest::newRow("gpt-2 NEL") << "gpt-2"
                                   << QByteArray("a\xc2\x85\xc2\x85"
                                                 "b")
                                   << QStringList{"a", "\xc2\x85", "\xc2\x85", "b"};
    }
    void preTokenizerNamedTypes() {
        QFETCH(QString, type);
        QFETCH(QByteArray, text);
        QFETCH(QStringList, pieces);
        swb::Result<swb::PreTokenizer> pre = swb::PreTokenizer::forGgufType(type.toStdString());
        QVERIFY(pre.ok());
        std::vector<swb::PreTokenizer::Span> spans;
        const std::string s = toStd(text);
        pre->split(s, spans);
        QStringList got;
        for (const auto& span : spans)
            got << QString::fromUtf8(s.substr(span.begin, span.end - span.begin));
        QCOMPARE(got, pieces);
    }

    void preTokenizerBehaviours_data() {
        QTest::addColumn<int>("behavior");
        QTest::addColumn<bool>("invert");
        QTest::addColumn<QStringList>("pieces");
        using B = swb::PreTokenizer::Behavior;
        // Pattern "-" on "a-b--c" (Hugging Face's SplitDelimiterBehavior).
        QTest::newRow("isolated") << int(B::Isolated) << false << QStringList{"a", "-", "b", "-", "-", "c"};
        QTest::newRow("removed") << int(B::Removed) << false << QStringList{"a", "b", "c"};
        QTest::newRow("merged with previous")
            << int(B::MergedWithPrevious) << false << QStringList{"a-", "b-", "-", "c"};
        QTest::newRow("merged with next") << int(B::MergedWithNext) << false << QStringList{"a", "-b", "-", "-c"};
        QTest::newRow("contiguous") << int(B::Contiguous) << false << QStringList{"a", "-", "b", "--", "c"};
        QTest::newRow("removed, inverted") << int(B::Removed) << true << QStringList{"-", "-", "-"};
    }
    void preTokenizerBehaviours() {
        QFETCH(int, behavior);
        QFETCH(bool, invert);
        QFETCH(QStringList, pieces);
        swb::PreTokenizer pre;
        QVERIFY(pre.addSplit("-", true, swb::PreTokenizer::Behavior(behavior), invert,
                             swb::PreTokenizer::Dialect::HuggingFace)
                    .ok());
        std::vector<swb::PreTokenizer::Span> spans;
        const std::string s = "a-b--c";
        pre.split(s, spans);
        QStringList got;
        for (const auto& span : spans)
            got << QString::fromStdString(s.substr(span.begin, span.end - span.begin));
        QCOMPARE(got, pieces);
    }

    void unknownPreTokenizerIsAnError() {
        swb::Result<swb::PreTokenizer> pre = swb::PreTokenizer::forGgufType("no-such-pre");
        QVERIFY(!pre.ok());
        QVERIFY(pre.error().message.contains(QStringLiteral("'no-such-pre'")));
    }

    // Every kind of bad input: one sentence naming the file and the problem.
    void badInput_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("tokenizerPath");
        QTest::addColumn<QString>("fileNamed");
        QTest::addColumn<QString>("needle");
        const QString d = m_dir.path();
        auto folder = [&](const QString& name, const QByteArray& json) {
            QDir(d).mkpath(name);
            writeFile(d + "/" + name + "/tokenizer.json", json);
            return d + "/" + name;
        };
        const QByteArray bpeModel =
            "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"ab\":2},\"merges\":[\"a b\"]}";
        const QString malformed = folder("malformed", "{\"model\": {\"type\": \"BPE\",");
        // Cut inside the vocabulary, an id that is no integer, a merge that is neither form, text after the end.
        const QString cutVocab = folder("cut-vocab", "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"ab");
        const QString floatId = folder("float-id", "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1.5},\"merges\":[]}}");
        const QString badMerge = folder("bad-merge", "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"ab\":2},"
                                                     "\"merges\":[[\"a\",\"b\"],[1,2]]}}");
        const QString trailing = folder("trailing", "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"ab\":2},"
                                                    "\"merges\":[\"a b\"]}} extra");
        const QString unigram = folder("unigram", "{\"model\":{\"type\":\"Unigram\",\"vocab\":[[\"a\",0.0]]}}");
        const QString missingMerge =
            folder("missing-merge",
                   "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\"ab\":2},\"merges\":[\"a c\"]}}");
        const QString badPre = folder("bad-pre", "{" + bpeModel + ",\"pre_tokenizer\":{\"type\":\"Whitespace\"}}");
        const QString badRegex =
            folder("bad-regex", "{" + bpeModel +
                                    ",\"pre_tokenizer\":{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(unclosed\"},"
                                    "\"behavior\":\"Isolated\",\"invert\":false}}");
        const QString badConfig = folder("bad-config", "{" + bpeModel + "}");
        writeFile(badConfig + "/tokenizer_config.json", "{\"bos_token\":\"<s>\"}");
        const QString brokenConfig = folder("broken-config", "{" + bpeModel + "}");
        writeFile(brokenConfig + "/tokenizer_config.json", "{");
        QDir(d).mkpath("empty-folder");

        GgufWriter bert;
        bert.addString("tokenizer.ggml.model", "bert");
        bert.addStringArray("tokenizer.ggml.tokens", {"a"});
        bert.write(d + "/bert.gguf");
        GgufWriter noTokenizer;
        noTokenizer.addString("general.architecture", "llama");
        noTokenizer.write(d + "/no-tokenizer.gguf");
        GgufWriter ggufMissing;
        ggufMissing.addString("tokenizer.ggml.model", "gpt2");
        ggufMissing.addString("tokenizer.ggml.pre", "gpt-2");
        ggufMissing.addStringArray("tokenizer.ggml.tokens", {"a", "b", "ab"});
        ggufMissing.addStringArray("tokenizer.ggml.merges", {"a b", "ab z"});
        ggufMissing.write(d + "/missing-merge.gguf");
        GgufWriter unknownPre;
        unknownPre.addString("tokenizer.ggml.model", "gpt2");
        unknownPre.addString("tokenizer.ggml.pre", "bogus-pre");
        unknownPre.addStringArray("tokenizer.ggml.tokens", {"a", "b", "ab"});
        unknownPre.addStringArray("tokenizer.ggml.merges", {"a b"});
        unknownPre.write(d + "/unknown-pre.gguf");
        QFile tiny(d + "/tiny-bpe.gguf");
        tiny.open(QIODevice::ReadOnly);
        const QByteArray whole = tiny.readAll();
        writeFile(d + "/truncated.gguf", whole.left(whole.size() / 2));

        QFile tok(d + "/tiny-tok.bin");
        tok.open(QIODevice::ReadOnly);
        const QByteArray tokBytes = tok.readAll();
        writeFile(d + "/short-tok.bin", tokBytes.left(tokBytes.size() - 3));
        writeFile(d + "/long-tok.bin", tokBytes + QByteArray(5, '\0'));
        writeFile(d + "/big-model.bin", llama2cHeader(600));
        writeFile(d + "/tiny-model-copy.bin", llama2cHeader(264));

        QTest::newRow("malformed JSON") << malformed << ""
                                        << "malformed/tokenizer.json"
                                        << "not valid JSON";
        QTest::newRow("tokenizer.json cut inside the vocabulary") << cutVocab << "" << "cut-vocab/tokenizer.json"
                                                                  << "not valid JSON (a string never ends at byte";
        QTest::newRow("vocab id not an integer") << floatId << "" << "float-id/tokenizer.json"
                                                 << "vocab entry 'b' has no valid id";
        QTest::newRow("merge neither form") << badMerge << "" << "bad-merge/tokenizer.json"
                                            << "merge rule 2 is neither \"a b\" nor [\"a\", \"b\"]";
        QTest::newRow("text after the JSON") << trailing << "" << "trailing/tokenizer.json"
                                             << "not valid JSON (text after the object";
        QTest::newRow("unknown JSON model type") << unigram << ""
                                                 << "unigram/tokenizer.json"
                                                 << "'Unigram'";
        QTest::newRow("JSON merge names missing token") << missingMerge << ""
                                                        << "missing-merge/tokenizer.json"
                                                        << "'c', which is not in the vocabulary";
        QTest::newRow("unsupported pre-tokenizer") << badPre << ""
                                                   << "bad-pre/tokenizer.json"
                                                   << "'Whitespace'";
        QTest::newRow("bad regex") << badRegex << ""
                                   << "bad-regex/tokenizer.json"
                                   << "(unclosed";
        QTest::newRow("config names missing token") << badConfig << ""
                                                    << "tokenizer_config.json"
                                                    << "'<s>'";
        QTest::newRow("malformed config") << brokenConfig << ""
                                          << "tokenizer_config.json"
                                          << "not valid JSON";
        QTest::newRow("folder without tokenizer.json") << d + "/empty-folder"
                                                       << ""
                                                       << "empty-folder"
                                                       << "no tokenizer.json";
        QTest::newRow("unknown GGUF model type") << d + "/bert.gguf"
                                                 << ""
                                                 << "bert.gguf"
                                                 << "'bert'";
        QTest::newRow("GGUF without tokenizer") << d + "/no-tokenizer.gguf"
                                                << ""
                                                << "no-tokenizer.gguf"
                                                << "tokenizer.ggml.model";
        QTest::newRow("GGUF merge names missing token") << d + "/missing-merge.gguf"
                                                        << ""
                                                        << "missing-merge.gguf"
                                                        << "'z', which is not in the vocabulary";
        QTest::newRow("unknown pre-tokenizer") << d + "/unknown-pre.gguf"
                                               << ""
                                               << "unknown-pre.gguf"
                                               << "'bogus-pre'";
        QTest::newRow("truncated GGUF") << d + "/truncated.gguf"
                                        << ""
                                        << "truncated.gguf"
                                        << "truncated";
        QTest::newRow("tok.bin cut short") << d + "/tiny-model.bin" << d + "/short-tok.bin"
                                           << "short-tok.bin"
                                           << "truncated";
        QTest::newRow("tok.bin too long") << d + "/tiny-model.bin" << d + "/long-tok.bin"
                                          << "long-tok.bin"
                                          << "5 bytes after";
        QTest::newRow("tok.bin smaller than the model's vocab")
            << d + "/big-model.bin" << d + "/tiny-tok.bin"
            << "tiny-tok.bin"
            << "holds 264 tokens but the model's vocabulary has 600";
        QTest::newRow("llama2.c checkpoint without tok.bin") << d + "/tiny-model-copy.bin"
                                                             << ""
                                                             << "tiny-model-copy.bin"
                                                             << "tok.bin";
        QTest::newRow("missing model") << d + "/nope.gguf"
                                       << ""
                                       << "nope.gguf"
                                       << "does not exist";
    }
    void badInput() {
        QFETCH(QString, model);
        QFETCH(QString, tokenizerPath);
        QFETCH(QString, fileNamed);
        QFETCH(QString, needle);
        swb::Result<std::unique_ptr<Tokenizer>> t = swb::loadTokenizer(model, tokenizerPath);
        QVERIFY(!t.ok());
        const QString& message = t.error().message;
        QVERIFY2(message.contains(fileNamed), qPrintable(message));
        QVERIFY2(message.contains(needle), qPrintable(message));
        QVERIFY2(!message.contains('\n'), qPrintable(message));
        QCOMPARE(t.error().kind, swb::ErrorKind::BadInput);
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
