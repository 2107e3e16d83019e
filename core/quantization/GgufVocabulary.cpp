#include "quantization/GgufVocabulary.h"

#include <algorithm>
#include <memory>

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

#include "chat/ChatTemplate.h"
#include "formats/GgufWriter.h"
#include "model/ModelConfig.h"
#include "tokenizer/BpeTokenizer.h"
#include "tokenizer/GgufVocabLoader.h"
#include "tokenizer/TokenizerJsonLoader.h"

namespace swb::quantization {

namespace {

using Kind = BpeTokenizer::TokenKind;

// A text the written vocabulary must split as tokenizer.json does: contractions in both cases, digit runs of
// every length, runs of spaces, tabs and line breaks (\r\n too), punctuation runs, Latin with diacritics,
// Greek, Cyrillic, Hebrew, Arabic, Devanagari, CJK, Hangul, emoji with a modifier, code. Every character is
// in NFC, so a tokenizer.json normalizer that llama.cpp does not apply (Qwen2's NFC) changes nothing here,
// as the converter also assumes.
constexpr const char* kCheckText =
    "Hello world! It's a test: they'll say \"I'm here\", WE'VE DONE IT'S end.\n"
    "Numbers 1 12 123 1234 12345 3.14159 1,000,000 and 2024-12-07, 7B vs 70B.\n"
    "  Two spaces,   three,\ttab,\t\tand\r\nwindows line\n\n\nthree newlines   \n"
    "\xc3\x9cn\xc3\xaf"
    "c\xc3\xb6"
    "d\xc3\xa9 caf\xc3\xa9 na\xc3\xafve \xe2\x80\x94 "
    "\xce\x95\xce\xbb\xce\xbb\xce\xb7\xce\xbd\xce\xb9\xce\xba\xce\xac "
    "\xd0\xa0\xd1\x83\xd1\x81\xd1\x81\xd0\xba\xd0\xb8\xd0\xb9 \xd7\xa2\xd7\x91\xd7\xa8\xd7\x99\xd7\xaa "
    "\xd8\xa7\xd9\x84\xd8\xb9\xd8\xb1\xd8\xa8\xd9\x8a\xd8\xa9 \xe0\xa4\xb9\xe0\xa4\xbf\xe0\xa4\xa8\xe0\xa5\x8d"
    "\xe0\xa4\xa6\xe0\xa5\x80\n"
    "\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97\xe7\xac\xa6 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae"
    "\xe3\x83\x86\xe3\x82\xad\xe3\x82\xb9\xe3\x83\x88 \xed\x95\x9c\xea\xb5\xad\xec\x96\xb4\n"
    "Emoji \xf0\x9f\x98\x80\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd and symbols $+<=>^~|` @#% &*()[]{} ... !!! ???\n"
    "code: for (int i = 0; i < n; ++i) { x += y[i]; } // done\n"
    "    indented line\n end";

// llama.cpp's tokenizer.ggml.pre names, one for each distinct way of splitting (PreTokenizer::forGgufType):
// the first that reproduces tokenizer.json is written.
constexpr const char* kPreNames[] = {"gpt-2",  "llama-bpe",    "qwen2",          "starcoder",
                                     "falcon", "deepseek-llm", "deepseek-coder", "default"};

// Our GGUF tokenizer (llama.cpp's rules) for the vocabulary, read back from a file of the metadata alone.
Result<std::unique_ptr<Tokenizer>> readBack(const GgufVocabulary& vocabulary) {
    QTemporaryDir dir;
    if (!dir.isValid())
        return Error::badInput(QStringLiteral("cannot make a temporary folder: %1").arg(dir.errorString()));
    GgufWriter writer(dir.filePath(QStringLiteral("vocabulary.gguf")));
    vocabulary.write(writer);
    if (Status s = writer.begin(); !s)
        return s.error();
    if (Status s = writer.finish(); !s)
        return s.error();
    return GgufVocabLoader::load(writer.path());
}

// Where two tokenizations first differ, as "token N ('a' against 'b')"; empty when they are equal.
QString firstDifference(const Tokenizer& expected, const std::vector<TokenId>& want, const Tokenizer& actual,
                        const std::vector<TokenId>& got) {
    if (want == got)
        return {};
    const auto [w, g] = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
    const auto text = [](const Tokenizer& t, const std::vector<TokenId>& ids, auto at) {
        return at == ids.end() ? QStringLiteral("the end")
                               : QStringLiteral("'%1'").arg(QString::fromStdString(t.tokenText(*at)));
    };
    return QStringLiteral("token %1 (%2 against %3)")
        .arg(w - want.begin() + 1)
        .arg(text(expected, want, w), text(actual, got, g));
}

// The first difference between tokenizer.json and the vocabulary as llama.cpp would read it; empty when
// they split the check text the same, with and without the special tokens added.
Result<QString> differenceFrom(const Tokenizer& hf, const GgufVocabulary& vocabulary) {
    Result<std::unique_ptr<Tokenizer>> gguf = readBack(vocabulary);
    if (!gguf)
        return gguf.error();
    for (const bool addSpecial : {false, true}) {
        const QString difference = firstDifference(hf, hf.encode(kCheckText, addSpecial, false), **gguf,
                                                   (*gguf)->encode(kCheckText, addSpecial, false));
        if (!difference.isEmpty())
            return difference;
    }
    return QString();
}

// SentencePiece ranks merges by the score of the token they make: a rule's rank becomes its token's score
// (the best rule for a token counts); tokens no rule makes rank below every rule.
std::vector<float> scoresFromRanks(const BpeTokenizer& tokenizer, std::size_t tokens) {
    std::vector<float> scores(tokens, 0.0f);
    std::vector<bool> made(tokens, false);
    const std::vector<std::pair<TokenId, TokenId>> rules = tokenizer.mergeRules();
    const auto& vocab = tokenizer.config().tokens;
    for (std::size_t rank = 0; rank < rules.size(); ++rank) {
        const TokenId result = tokenizer.find(vocab[static_cast<std::size_t>(rules[rank].first)].text +
                                              vocab[static_cast<std::size_t>(rules[rank].second)].text);
        if (result >= 0 && !made[static_cast<std::size_t>(result)]) {
            made[static_cast<std::size_t>(result)] = true;
            scores[static_cast<std::size_t>(result)] = -static_cast<float>(rank);
        }
    }
    const float last = -static_cast<float>(rules.size());
    for (std::size_t id = 0; id < vocab.size(); ++id)
        if (!made[id] && vocab[id].text.size() > 1 && vocab[id].kind == Kind::Normal)
            scores[id] = last;
    return scores;
}

} // namespace

void GgufVocabulary::write(GgufWriter& writer) const {
    writer.setString("tokenizer.ggml.model", model);
    if (model == "gpt2")
        writer.setString("tokenizer.ggml.pre", pre);
    writer.setStringArray("tokenizer.ggml.tokens", tokens);
    if (!scores.empty())
        writer.setFloat32Array("tokenizer.ggml.scores", scores);
    writer.setInt32Array("tokenizer.ggml.token_type", types);
    if (model == "gpt2")
        writer.setStringArray("tokenizer.ggml.merges", merges);
    else
        writer.setBool("tokenizer.ggml.add_space_prefix", addSpacePrefix);
    const std::pair<const char*, std::int64_t> ids[] = {{"tokenizer.ggml.bos_token_id", bos},
                                                        {"tokenizer.ggml.eos_token_id", eos},
                                                        {"tokenizer.ggml.unknown_token_id", unk},
                                                        {"tokenizer.ggml.padding_token_id", pad}};
    for (const auto& [key, id] : ids)
        if (id >= 0)
            writer.setUInt32(key, static_cast<std::uint32_t>(id));
    writer.setBool("tokenizer.ggml.add_bos_token", addBos);
    writer.setBool("tokenizer.ggml.add_eos_token", addEos);
    if (!chatTemplate.empty())
        writer.setString("tokenizer.chat_template", chatTemplate);
}

Result<GgufVocabulary> ggufVocabulary(const QString& folder, const ModelConfig& config, QStringList& notes) {
    const QString path = QDir(folder).filePath(QStringLiteral("tokenizer.json"));
    if (!QFileInfo::exists(path))
        return Error::badInput(
            QStringLiteral("%1 has no tokenizer.json; a GGUF carries its vocabulary, so swb quantize "
                           "needs one")
                .arg(folder));
    Result<std::unique_ptr<Tokenizer>> loaded = TokenizerJsonLoader::load(path);
    if (!loaded)
        return loaded.error();
    const auto* hf = dynamic_cast<const BpeTokenizer*>(loaded->get());
    if (!hf)
        return Error::badInput(
            QStringLiteral("%1 is not a BPE tokenizer, the only kind GGUF vocabularies hold").arg(path));
    const BpeTokenizer::Config& c = hf->config();
    const std::size_t own = c.tokens.size();
    if (static_cast<std::int64_t>(own) > config.vocabSize)
        return Error::badInput(QStringLiteral("%1 has %2 tokens, more than the model's %3 embedding rows")
                                   .arg(path)
                                   .arg(own)
                                   .arg(config.vocabSize));

    GgufVocabulary v;
    for (std::size_t id = 0; id < static_cast<std::size_t>(config.vocabSize); ++id) {
        const bool hole = id >= own || c.tokens[id].text.empty();
        v.tokens.push_back(hole ? "[PAD" + std::to_string(id) + "]" : c.tokens[id].text);
        v.types.push_back(static_cast<std::int32_t>(hole ? Kind::Unused : c.tokens[id].kind));
    }
    if (own < static_cast<std::size_t>(config.vocabSize))
        notes << QStringLiteral("the vocabulary of %1 tokens is padded to the model's %2 rows with [PADn] tokens")
                     .arg(own)
                     .arg(config.vocabSize);
    const SpecialTokens& special = c.special;
    v.bos = config.bosTokenId >= 0 ? config.bosTokenId : special.bos;
    v.eos = !config.eosTokenIds.empty() ? config.eosTokenIds.front() : special.eos;
    v.unk = special.unk;
    v.pad = special.pad;
    v.addBos = special.addBos;
    v.addEos = special.addEos;
    // The files read: tokenizer.json, the tokenizer_config.json beside it, the chat template's file.
    v.files << path;
    const QString tokenizerConfig = QDir(folder).filePath(QStringLiteral("tokenizer_config.json"));
    if (QFileInfo::exists(tokenizerConfig))
        v.files << tokenizerConfig;
    if (Result<std::optional<ChatTemplate>> chat = ChatTemplate::forModel(folder); !chat) {
        notes << QStringLiteral("the chat template is not carried over: %1").arg(chat.error().message);
    } else if (chat->has_value()) {
        v.chatTemplate = (*chat)->source();
        const QString origin = QDir(folder).filePath((*chat)->origin());
        if (QFileInfo::exists(origin) && !v.files.contains(origin))
            v.files << origin;
    }

    // The forms to try, in order; the first whose reading splits as tokenizer.json does is written.
    std::vector<GgufVocabulary> forms;
    if (c.byteLevel) {
        v.model = "gpt2";
        for (const auto& [left, right] : hf->mergeRules())
            v.merges.push_back(c.tokens[static_cast<std::size_t>(left)].text + " " +
                               c.tokens[static_cast<std::size_t>(right)].text);
        for (const char* name : kPreNames) {
            v.pre = name;
            forms.push_back(v);
        }
    } else if (c.metaspace && c.byteFallback) {
        v.model = "llama";
        v.scores = scoresFromRanks(*hf, v.tokens.size());
        for (const bool prefix :
             {c.spacePrefix != BpeTokenizer::SpacePrefix::None, c.spacePrefix == BpeTokenizer::SpacePrefix::None}) {
            v.addSpacePrefix = prefix;
            forms.push_back(v);
        }
    } else {
        return Error::badInput(QStringLiteral("%1 is neither byte-level BPE nor SentencePiece-style BPE with byte "
                                              "fallback, the two kinds GGUF vocabularies hold")
                                   .arg(path));
    }
    QString firstDifferenceSeen;
    for (GgufVocabulary& form : forms) {
        Result<QString> difference = differenceFrom(*hf, form);
        if (!difference)
            return difference.error();
        if (difference->isEmpty()) {
            notes << (form.model == "gpt2"
                          ? QStringLiteral("vocabulary: byte-level BPE, pre-tokenizer %1")
                                .arg(QString::fromStdString(form.pre))
                          : QStringLiteral("vocabulary: SentencePiece BPE, scores from the merge ranks"));
            return std::move(form);
        }
        if (firstDifferenceSeen.isEmpty())
            firstDifferenceSeen = *difference;
    }
    return Error::badInput(QStringLiteral("%1 splits text in a way no GGUF vocabulary reproduces (llama.cpp would "
                                          "read it differently: %2)")
                               .arg(path, firstDifferenceSeen));
}

} // namespace swb::quantization
