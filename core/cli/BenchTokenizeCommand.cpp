// swb bench tokenize: encoding speed of a 50k-entry byte-level BPE on a few MB of English-like text, on
// one core. The vocabulary is, in order of preference: --tokenizer-json or --model if given; the GPT-2
// vocabulary of the reference data (../shared/reference/vocab/ggml-vocab-gpt-2.gguf, found beside the
// working directory or the build tree, or under $SWB_REFERENCE_DIR); else one built here, deterministically,
// from the benchmark text itself (GPT-2 pre-tokenizer, the most frequent pieces as chains of merges).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>

#include <malloc.h>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "cli/Subcommand.h"
#include "tokenizer/BpeTokenizer.h"
#include "tokenizer/ByteLevelAlphabet.h"
#include "tokenizer/TokenizerJsonLoader.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb::cli {

namespace {

constexpr int kSynthesizedVocab = 50257; // GPT-2's size: 256 bytes, 50000 merges, one special token

// xorshift64*: a fixed, library-independent stream so every run benchmarks the same text.
class TextRng {
public:
    explicit TextRng(std::uint64_t seed)
        : m_state(seed) {}
    std::uint64_t next() {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return m_state * 0x2545F4914F6CDD1DULL;
    }
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

private:
    std::uint64_t m_state;
};

// English-like prose: common words with a Zipf-like skew, capitals, punctuation, contractions, numbers,
// quotes and paragraphs, plus a few percent of made-up words so merges (not just the cache) are exercised.
std::string englishLikeText(std::size_t bytes) {
    static const char* const words[] = {
        "the",         "of",           "and",         "to",    "a",        "in",      "is",      "it",      "you",
        "that",        "he",           "was",         "for",   "on",       "are",     "with",    "as",      "I",
        "his",         "they",         "be",          "at",    "one",      "have",    "this",    "from",    "or",
        "had",         "by",           "not",         "word",  "but",      "what",    "some",    "we",      "can",
        "out",         "other",        "were",        "all",   "there",    "when",    "up",      "use",     "your",
        "how",         "said",         "an",          "each",  "she",      "which",   "do",      "their",   "time",
        "if",          "will",         "way",         "about", "many",     "then",    "them",    "write",   "would",
        "like",        "so",           "these",       "her",   "long",     "make",    "thing",   "see",     "him",
        "two",         "has",          "look",        "more",  "day",      "could",   "go",      "come",    "did",
        "number",      "sound",        "no",          "most",  "people",   "my",      "over",    "know",    "water",
        "than",        "call",         "first",       "who",   "may",      "down",    "side",    "been",    "now",
        "find",        "any",          "new",         "work",  "part",     "take",    "get",     "place",   "made",
        "live",        "where",        "after",       "back",  "little",   "only",    "round",   "man",     "year",
        "came",        "show",         "every",       "good",  "me",       "give",    "our",     "under",   "name",
        "very",        "through",      "just",        "form",  "sentence", "great",   "think",   "say",     "help",
        "low",         "line",         "differ",      "turn",  "cause",    "much",    "mean",    "before",  "move",
        "right",       "boy",          "old",         "too",   "same",     "tell",    "does",    "set",     "three",
        "want",        "air",          "well",        "also",  "play",     "small",   "end",     "put",     "home",
        "read",        "hand",         "port",        "large", "spell",    "add",     "even",    "land",    "here",
        "must",        "big",          "high",        "such",  "follow",   "act",     "why",     "ask",     "men",
        "change",      "went",         "light",       "kind",  "off",      "need",    "house",   "picture", "try",
        "us",          "again",        "animal",      "point", "mother",   "world",   "near",    "build",   "self",
        "earth",       "father",       "head",        "stand", "own",      "page",    "should",  "country", "found",
        "answer",      "school",       "grow",        "study", "still",    "learn",   "plant",   "cover",   "food",
        "sun",         "four",         "between",     "state", "keep",     "eye",     "never",   "last",    "let",
        "thought",     "city",         "tree",        "cross", "farm",     "hard",    "start",   "might",   "story",
        "saw",         "far",          "sea",         "draw",  "left",     "late",    "run",     "don't",   "while",
        "press",       "close",        "night",       "real",  "life",     "few",     "north",   "it's",    "sampling",
        "temperature", "distribution", "probability", "token", "model",    "nucleus", "entropy", "however", "therefore",
        "government",  "information",  "development"};
    constexpr std::size_t wordCount = sizeof(words) / sizeof(words[0]);
    TextRng rng(0x5157ull);
    std::string text;
    text.reserve(bytes + 64);
    std::size_t sentence = 0;
    while (text.size() < bytes) {
        const std::size_t length = 5 + rng.below(16);
        const bool quoted = rng.below(12) == 0;
        if (quoted)
            text += '"';
        for (std::size_t w = 0; w < length; ++w) {
            std::string word;
            const std::size_t kind = rng.below(100);
            if (kind < 3) { // a made-up word
                const std::size_t n = 3 + rng.below(8);
                for (std::size_t c = 0; c < n; ++c)
                    word += static_cast<char>('a' + rng.below(26));
            } else if (kind < 5) {
                word = std::to_string(rng.below(2100));
            } else {
                // Squaring a uniform draw favours the front of the list, roughly like word frequencies.
                const double u = static_cast<double>(rng.below(1 << 20)) / double(1 << 20);
                word = words[static_cast<std::size_t>(u * u * wordCount)];
            }
            if (w == 0 && word[0] >= 'a' && word[0] <= 'z')
                word[0] = static_cast<char>(word[0] - 'a' + 'A');
            if (w > 0)
                text += ' ';
            text += word;
            if (w + 1 < length && rng.below(10) == 0)
                text += ',';
        }
        static const char endings[] = {'.', '.', '.', '.', '!', '?'};
        text += endings[rng.below(sizeof(endings))];
        if (quoted)
            text += '"';
        text += ++sentence % 6 == 0 ? "\n\n" : " ";
    }
    text.resize(bytes);
    return text;
}

// A byte-level BPE of exactly kSynthesizedVocab tokens learnt from the text: its most frequent pieces,
// each spelled by a chain of merges (prefix + next character), until the vocabulary is full.
Result<std::unique_ptr<Tokenizer>> synthesizedTokenizer(const std::string& text) {
    BpeTokenizer::Config config;
    config.kind = QStringLiteral("synthesized byte-level BPE");
    config.source = QStringLiteral("the synthesized benchmark vocabulary");
    config.byteLevel = true;
    Result<PreTokenizer> pre = PreTokenizer::forGgufType("gpt-2");
    if (!pre)
        return pre.error();
    config.preTokenizer = pre.value();

    const ByteLevelAlphabet& alphabet = ByteLevelAlphabet::instance();
    std::unordered_map<std::string, std::size_t> counts;
    std::vector<PreTokenizer::Span> spans;
    config.preTokenizer.split(text, spans);
    for (const PreTokenizer::Span& s : spans)
        ++counts[text.substr(s.begin, s.end - s.begin)];
    std::vector<std::pair<std::string, std::size_t>> pieces(counts.begin(), counts.end());
    std::sort(pieces.begin(), pieces.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });

    std::unordered_map<std::string, int> known;
    for (int b = 0; b < 256; ++b) {
        std::string ch;
        alphabet.encode(std::string(1, static_cast<char>(b)), ch);
        known.emplace(ch, b);
        config.tokens.push_back({ch, BpeTokenizer::TokenKind::Normal, 0.0f, false, false});
    }
    const std::size_t limit = kSynthesizedVocab - 1;
    for (const auto& [piece, count] : pieces) {
        if (config.tokens.size() >= limit)
            break;
        std::string mapped;
        alphabet.encode(piece, mapped);
        std::string prefix;
        for (std::size_t pos = 0; pos < mapped.size() && config.tokens.size() < limit;) {
            const std::size_t len = (static_cast<unsigned char>(mapped[pos]) >= 0xC0) ? 2 : 1;
            const std::string ch = mapped.substr(pos, len);
            pos += len;
            if (prefix.empty()) {
                prefix = ch;
                continue;
            }
            const std::string joined = prefix + ch;
            if (!known.count(joined)) {
                known.emplace(joined, static_cast<int>(config.tokens.size()));
                config.tokens.push_back({joined, BpeTokenizer::TokenKind::Normal, 0.0f, false, false});
                config.merges.emplace_back(prefix, ch);
            }
            prefix = joined;
        }
    }
    // Not enough distinct text for the full size (tiny --megabytes): pad with two-byte merges of bytes.
    for (int a = 0; a < 256 && config.tokens.size() < limit; ++a)
        for (int b = 0; b < 256 && config.tokens.size() < limit; ++b) {
            const std::string joined = config.tokens[a].text + config.tokens[b].text;
            if (known.emplace(joined, static_cast<int>(config.tokens.size())).second) {
                config.tokens.push_back({joined, BpeTokenizer::TokenKind::Normal, 0.0f, false, false});
                config.merges.emplace_back(config.tokens[a].text, config.tokens[b].text);
            }
        }
    config.tokens.push_back({"<|endoftext|>", BpeTokenizer::TokenKind::Control, 0.0f, false, false});
    Result<std::unique_ptr<BpeTokenizer>> t = BpeTokenizer::create(std::move(config));
    if (!t)
        return t.error();
    return std::unique_ptr<Tokenizer>(std::move(t).value());
}

QString referenceGpt2Vocab() {
    const QString relative = QStringLiteral("vocab/ggml-vocab-gpt-2.gguf");
    QStringList roots;
    const QByteArray env = qgetenv("SWB_REFERENCE_DIR");
    if (!env.isEmpty())
        roots << QString::fromLocal8Bit(env);
    roots << QDir::current().filePath(QStringLiteral("../shared/reference"));
    const QString appDir = QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString();
    if (!appDir.isEmpty()) // build/app/swb inside the checkout, the checkout beside shared/
        for (const char* up : {"/../../../shared/reference", "/../../shared/reference", "/../shared/reference"})
            roots << appDir + QLatin1String(up);
    for (const QString& root : roots) {
        const QString path = QDir(root).filePath(relative);
        if (QFileInfo::exists(path))
            return QDir::cleanPath(path);
    }
    return {};
}

// A tokenizer.json the size of today's largest vocabularies (Gemma 3: 262,144 tokens, about half a million
// merges, 33 MB), deterministic: SentencePiece-style BPE with byte fallback whose tokens are all the
// substrings of made-up words (so every split of a token is a valid merge, as in real files with more
// merges than tokens). Returns the file's size in bytes, 0 when it cannot be written.
qint64 writeSyntheticTokenizerJson(const QString& path, int vocabSize, int mergeCount) {
    TextRng rng(0x5EED);
    std::vector<std::string> alphabet;
    const std::string metaspace = "\xe2\x96\x81";
    alphabet.push_back(metaspace);
    for (char c = 'a'; c <= 'z'; ++c)
        alphabet.emplace_back(1, c);
    for (char c = 'A'; c <= 'Z'; ++c)
        alphabet.emplace_back(1, c);
    for (char c = '0'; c <= '9'; ++c)
        alphabet.emplace_back(1, c);
    for (std::uint32_t cp = 0x4E00; cp < 0x4E00 + 2000; ++cp) // CJK: three bytes each
        alphabet.push_back(std::string{char(0xE0 | (cp >> 12)), char(0x80 | ((cp >> 6) & 0x3F)), char(0x80 | (cp & 0x3F))});
    std::vector<std::string> tokens = {"<pad>", "<eos>", "<bos>", "<unk>"};
    char spelling[8];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(spelling, sizeof spelling, "<0x%02X>", b);
        tokens.emplace_back(spelling);
    }
    std::unordered_map<std::string, int> ids;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        ids.emplace(tokens[i], int(i));
    std::vector<std::vector<std::string>> spelled; // code points of each token (empty for specials and bytes)
    spelled.resize(tokens.size());
    const auto add = [&](std::vector<std::string> cps) {
        std::string text;
        for (const std::string& cp : cps)
            text += cp;
        if (ids.emplace(text, int(tokens.size())).second) {
            tokens.push_back(text);
            spelled.push_back(std::move(cps));
        }
    };
    for (const std::string& cp : alphabet)
        add({cp});
    while (static_cast<int>(tokens.size()) < vocabSize) {
        std::vector<std::string> word;
        if (rng.below(2) == 0)
            word.push_back(metaspace);
        const std::size_t length = 2 + rng.below(23);
        const bool cjk = rng.below(2) == 0;
        for (std::size_t i = 0; i < length; ++i)
            word.push_back(cjk ? alphabet[63 + rng.below(2000)] : alphabet[1 + rng.below(26)]);
        for (std::size_t span = 2; span <= word.size() && static_cast<int>(tokens.size()) < vocabSize; ++span)
            for (std::size_t from = 0; from + span <= word.size() && static_cast<int>(tokens.size()) < vocabSize; ++from)
                add(std::vector<std::string>(word.begin() + std::ptrdiff_t(from), word.begin() + std::ptrdiff_t(from + span)));
    }
    std::vector<std::pair<int, int>> merges;
    for (std::size_t id = 0; id < tokens.size() && static_cast<int>(merges.size()) < mergeCount; ++id) {
        const auto& cps = spelled[id];
        std::string left;
        for (std::size_t split = 1; split < cps.size() && static_cast<int>(merges.size()) < mergeCount; ++split) {
            left += cps[split - 1];
            const auto l = ids.find(left);
            const auto r = ids.find(tokens[id].substr(left.size()));
            if (l != ids.end() && r != ids.end())
                merges.emplace_back(l->second, r->second);
        }
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return 0;
    std::string out = R"({"version": "1.0", "truncation": null, "padding": null, "added_tokens": [)";
    for (int i = 0; i < 4; ++i)
        out += std::string(i ? ", " : "") + R"({"id": )" + std::to_string(i) + R"(, "content": ")" + tokens[std::size_t(i)] +
               R"(", "single_word": false, "lstrip": false, "rstrip": false, "normalized": false, "special": true})";
    out += R"(], "normalizer": null, )"
           R"("pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "first", "split": true}, )"
           R"("post_processor": null, "decoder": {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": )"
           R"({"String": "\u2581"}, "content": " "}, {"type": "ByteFallback"}, {"type": "Fuse"}]}, )"
           R"("model": {"type": "BPE", "dropout": null, "unk_token": "<unk>", "continuing_subword_prefix": null, )"
           R"("end_of_word_suffix": null, "fuse_unk": true, "byte_fallback": true, "ignore_merges": false, "vocab": {)";
    for (std::size_t i = 0; i < tokens.size(); ++i)
        out += std::string(i ? ",\n    \"" : "\n    \"") + tokens[i] + "\": " + std::to_string(i);
    out += "\n  },\n  \"merges\": [";
    for (std::size_t i = 0; i < merges.size(); ++i)
        out += std::string(i ? ",\n    [\"" : "\n    [\"") + tokens[std::size_t(merges[i].first)] + "\", \"" +
               tokens[std::size_t(merges[i].second)] + "\"]";
    out += "\n  ]}}\n";
    if (file.write(out.data(), qint64(out.size())) != qint64(out.size()))
        return 0;
    return qint64(out.size());
}

int runBenchTokenize(const Invocation& inv) {
    const double megabytes = inv.real(QStringLiteral("megabytes"), 4.0);
    if (!(megabytes > 0 && megabytes <= 256))
        failBadInput(QStringLiteral("--megabytes must be above 0 and at most 256"));
    const std::string text = englishLikeText(static_cast<std::size_t>(megabytes * 1e6));

    QString source;
    Result<std::unique_ptr<Tokenizer>> tokenizer = Error::internal(QStringLiteral("no tokenizer"));
    QTemporaryDir synthetic;
    QString syntheticNote;
    if (inv.args.isSet(QStringLiteral("synthetic-vocab"))) {
        const int vocab = int(inv.integer(QStringLiteral("synthetic-vocab"), 262144, 1000, 4'000'000));
        const int merges = int(inv.integer(QStringLiteral("synthetic-merges"), vocab * 2, 1, 16'000'000));
        const QString path = synthetic.filePath(QStringLiteral("tokenizer.json"));
        const qint64 bytes = synthetic.isValid() ? writeSyntheticTokenizerJson(path, vocab, merges) : 0;
        if (bytes == 0)
            failInternal(QStringLiteral("cannot write a synthetic tokenizer.json to %1").arg(synthetic.path()));
        syntheticNote = QStringLiteral("synthetic tokenizer.json, %1 MB").arg(bytes / 1e6, 0, 'f', 1);
        malloc_trim(0); // give the writer's memory back, so the load's own figures are not hidden in it
        source = path;
    }
    // Peak memory counts from here: reset the kernel's high-water mark (Linux 4.0+; without it the peak
    // of writing a synthetic file would show instead).
    if (QFile clear(QStringLiteral("/proc/self/clear_refs")); clear.open(QIODevice::WriteOnly))
        clear.write("5");
    const ProcessMemory before = processMemory();
    const qint64 rssBefore = before.resident, peakBefore = before.peak;
    QElapsedTimer loadTimer;
    loadTimer.start();
    if (!syntheticNote.isEmpty()) {
        tokenizer = TokenizerJsonLoader::load(source);
    } else if (inv.args.isSet(QStringLiteral("tokenizer-json"))) {
        source = inv.args.value(QStringLiteral("tokenizer-json"));
        tokenizer = TokenizerJsonLoader::load(source);
    } else if (inv.args.isSet(QStringLiteral("model"))) {
        source = inv.args.value(QStringLiteral("model"));
        tokenizer = loadTokenizer(source);
    } else if (const QString reference = referenceGpt2Vocab(); !reference.isEmpty()) {
        source = reference;
        tokenizer = loadTokenizer(reference);
    } else {
        source = QStringLiteral("synthesized");
        tokenizer = synthesizedTokenizer(text);
    }
    if (!tokenizer)
        throw Failure{tokenizer.error().kind == ErrorKind::BadInput ? 2 : 1, tokenizer.error().message};
    const double loadSeconds = loadTimer.nsecsElapsed() * 1e-9;
    const ProcessMemory after = processMemory();
    const qint64 rssAfter = after.resident, peakAfter = after.peak;
    // The baseline of the same run: reading the file's bytes once (what any loader must at least do).
    double readSeconds = 0;
    if (QFileInfo(source).isFile()) {
        QElapsedTimer readTimer;
        readTimer.start();
        QFile file(source);
        if (file.open(QIODevice::ReadOnly)) {
            const QByteArray bytes = file.readAll();
            readSeconds = readTimer.nsecsElapsed() * 1e-9;
        }
    }

    // One warm-up pass over a slice would fill the piece cache with the text's own words and flatter the
    // figure; the timed pass starts cold, as a fresh tokenizer does.
    QElapsedTimer timer;
    timer.start();
    const std::vector<TokenId> ids = tokenizer.value()->encode(text, false, false);
    const double seconds = std::max(timer.nsecsElapsed() * 1e-9, 1e-9);
    const double mb = static_cast<double>(text.size()) / 1e6;

    QJsonObject result;
    result.insert(QStringLiteral("mode"), QStringLiteral("tokenize"));
    result.insert(QStringLiteral("tokenizer"), tokenizer.value()->kind());
    result.insert(QStringLiteral("source"), syntheticNote.isEmpty() ? source : syntheticNote);
    result.insert(QStringLiteral("vocab"), tokenizer.value()->vocabSize());
    result.insert(QStringLiteral("megabytes"), mb);
    result.insert(QStringLiteral("seconds"), std::round(seconds * 1e4) / 1e4);
    result.insert(QStringLiteral("mb_per_s"), std::round(mb / seconds * 100) / 100);
    result.insert(QStringLiteral("tokens"), static_cast<qint64>(ids.size()));
    result.insert(QStringLiteral("threads"), 1);
    // Loading the tokenizer: time, the memory it keeps, and the most the process held while loading.
    result.insert(QStringLiteral("load_seconds"), std::round(loadSeconds * 1e4) / 1e4);
    result.insert(QStringLiteral("load_resident_mb"), std::round((rssAfter - rssBefore) / 1e5) / 10);
    result.insert(QStringLiteral("load_peak_mb"), std::round((std::max(peakAfter, peakBefore) - rssBefore) / 1e5) / 10);
    if (readSeconds > 0) {
        result.insert(QStringLiteral("file_read_seconds"), std::round(readSeconds * 1e4) / 1e4);
        result.insert(QStringLiteral("load_vs_file_read"), std::round(loadSeconds / readSeconds * 10) / 10);
    }
    inv.out << QJsonDocument(result).toJson(QJsonDocument::Compact) << '\n';
    return 0;
}

} // namespace

std::vector<BenchMode> tokenizerBenchModes() {
    return {
        {QStringLiteral("tokenize"),
         QStringLiteral("MB/s encoding English-like text with a 50k byte-level BPE on one core, and the "
                        "tokenizer's load time and memory [--tokenizer-json PATH | --model PATH | "
                        "--synthetic-vocab N [--synthetic-merges M]] [--megabytes N]"),
         [](QCommandLineParser& parser) {
             parser.addOption({QStringLiteral("tokenizer-json"),
                               QStringLiteral("A tokenizer.json to measure instead of GPT-2's vocabulary."),
                               QStringLiteral("PATH")});
             parser.addOption({QStringLiteral("model"),
                               QStringLiteral("Any model or tokenizer path swb tokenize accepts."),
                               QStringLiteral("PATH")});
             parser.addOption({QStringLiteral("synthetic-vocab"),
                               QStringLiteral("Write and measure a tokenizer.json of N tokens (262144: Gemma 3's size)."),
                               QStringLiteral("N")});
             parser.addOption({QStringLiteral("synthetic-merges"),
                               QStringLiteral("Merges of the synthetic tokenizer.json (default 2 x N)."),
                               QStringLiteral("M")});
             parser.addOption({QStringLiteral("megabytes"),
                               QStringLiteral("Size of the text in MB (10^6 bytes); default 4."), QStringLiteral("N")});
         },
         runBenchTokenize},
    };
}

} // namespace swb::cli
