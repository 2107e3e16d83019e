#include "tokenizer/TokenizerJsonLoader.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <unordered_map>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "JsonError.h"
#include "tokenizer/BpeTokenizer.h"
#include "tokenizer/JsonCursor.h"
#include "tokenizer/TokenIndex.h"

namespace swb {

namespace {

using Kind = BpeTokenizer::TokenKind;
const QString kMetaspace = QString::fromUtf8("\xe2\x96\x81");

Result<QJsonObject> readJsonObject(const QString& path) {
    QFile file(path);
    if (!file.exists())
        return Error::badInput(QStringLiteral("%1 does not exist").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot open %1: %2").arg(path, file.errorString()));
    QByteArray data = file.readAll();
    // Qt's parser drops a U+FEFF that begins a string (it decodes strings like QString::fromUtf8, which
    // skips a BOM), and Llama's vocabulary has U+FEFF as a token of its own: write it as an escape,
    // which survives. A BOM before the document is not part of the JSON.
    if (data.startsWith("\xEF\xBB\xBF"))
        data.remove(0, 3);
    data.replace("\xEF\xBB\xBF", "\\ufeff");
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError)
        return Error::badInput(
            QStringLiteral("%1 is not valid JSON (%2)").arg(path, jsonErrorWhere(data, error)));
    if (!doc.isObject())
        return Error::badInput(QStringLiteral("%1 does not hold a JSON object").arg(path));
    return doc.object();
}

// The two large parts of a tokenizer.json, read straight into compact form (no JSON document is built for
// them: a 262k vocabulary with half a million merges would take a second and hundreds of MB that way).
struct LargeParts {
    bool hasVocab = false;
    std::vector<std::pair<std::string, TokenId>> vocab;
    bool hasMerges = false;
    std::vector<std::pair<std::string, std::string>> merges;         // when they come before the vocab
    std::vector<std::array<TokenId, 3>> resolvedMerges;              // (left, right, result), the usual case
};

QString quotedToken(const std::string& text) {
    return QStringLiteral("'%1'").arg(QString::fromStdString(text));
}

// One small JSON value's text as a QJsonValue (with the BOM quirk of readJsonObject handled).
std::optional<QJsonValue> smallValue(std::string_view raw) {
    QByteArray data = QByteArray("{\"v\":") + QByteArray(raw.data(), static_cast<qsizetype>(raw.size())) + '}';
    data.replace("\xEF\xBB\xBF", "\\ufeff");
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
    if (error.error != QJsonParseError::NoError)
        return std::nullopt;
    return doc.object().value(QLatin1String("v"));
}

// tokenizer.json: everything but model.vocab and model.merges as a QJsonObject (they go to *large).
Result<QJsonObject> readTokenizerJson(const QString& path, LargeParts* large) {
    QFile file(path);
    if (!file.exists())
        return Error::badInput(QStringLiteral("%1 does not exist").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot open %1: %2").arg(path, file.errorString()));
    const qint64 size = file.size();
    const uchar* mapped = size > 0 ? file.map(0, size) : nullptr;
    QByteArray copy;
    if (!mapped && size > 0) {
        copy = file.readAll();
        mapped = reinterpret_cast<const uchar*>(copy.constData());
    }
    std::string_view text(reinterpret_cast<const char*>(mapped), static_cast<std::size_t>(std::max<qint64>(size, 0)));
    if (text.substr(0, 3) == "\xEF\xBB\xBF") // a BOM before the document is not part of the JSON
        text.remove_prefix(3);
    // JSON text is UTF-8 (RFC 8259), and tokens are compared as UTF-8 bytes: a stray byte would make a
    // token no text can reach. Checked over the whole file at once (a few ms for 10 MB).
    if (const QByteArrayView bytes(text.data(), static_cast<qsizetype>(text.size())); !bytes.isValidUtf8()) {
        qsizetype line = 1;
        for (const QByteArray& piece : QByteArray(bytes.data(), bytes.size()).split('\n')) {
            if (!piece.isValidUtf8())
                break;
            ++line;
        }
        return Error::badInput(QStringLiteral("%1 is not valid UTF-8 text (line %2)").arg(path).arg(line));
    }
    const auto invalid = [&](const std::string& why) {
        return Error::badInput(QStringLiteral("%1 is not valid JSON (%2)").arg(path, QString::fromStdString(why)));
    };
    JsonCursor cursor(text);
    if (cursor.peekType() != '{')
        return Error::badInput(QStringLiteral("%1 does not hold a JSON object").arg(path));
    QJsonObject root;
    QJsonObject model;
    std::string key;
    std::string_view raw;
    cursor.beginObject();
    while (cursor.nextKey(&key)) {
        if (key != "model" || cursor.peekType() != '{') {
            if (!cursor.rawValue(&raw))
                break;
            const std::optional<QJsonValue> value = smallValue(raw);
            if (!value)
                return invalid("the value of \"" + key + "\" does not parse");
            root.insert(QString::fromStdString(key), *value);
            continue;
        }
        cursor.beginObject();
        std::string modelKey;
        while (cursor.nextKey(&modelKey)) {
            if (modelKey == "vocab" && cursor.peekType() == '{') {
                large->hasVocab = true;
                cursor.beginObject();
                std::string token;
                while (cursor.nextKey(&token)) {
                    long long id = -1;
                    if (cursor.peekType() != 'n' || !cursor.readInteger(&id) || id < 0 || id > 100'000'000)
                        return Error::badInput(QStringLiteral("%1: vocab entry '%2' has no valid id")
                                                   .arg(path, QString::fromStdString(token)));
                    large->vocab.emplace_back(std::move(token), static_cast<TokenId>(id));
                    token = std::string();
                }
            } else if (modelKey == "merges" && cursor.peekType() == '[') {
                large->hasMerges = true;
                // With the vocabulary read, each rule becomes three ids at once; no text is kept per rule.
                TokenIndex index;
                if (large->hasVocab) {
                    index.reserve(large->vocab.size());
                    for (const auto& [text, id] : large->vocab)
                        index.insert(text, id);
                }
                std::string joined;
                const auto keep = [&](std::string a, std::string b, std::size_t rank) -> std::optional<Error> {
                    if (!large->hasVocab) {
                        large->merges.emplace_back(std::move(a), std::move(b));
                        return std::nullopt;
                    }
                    joined = a + b;
                    const TokenId l = index.find(a), r = index.find(b), m = index.find(joined);
                    if (l < 0 || r < 0 || m < 0)
                        return Error::badInput(QStringLiteral("%1: merge rule %2 (%3) names %4, which is not in the vocabulary")
                                                   .arg(path)
                                                   .arg(rank)
                                                   .arg(quotedToken(a + " " + b),
                                                        quotedToken(l < 0 ? a : r < 0 ? b : joined)));
                    large->resolvedMerges.push_back({l, r, m});
                    return std::nullopt;
                };
                cursor.beginArray();
                std::string rule;
                while (cursor.nextElement()) {
                    const std::size_t rank = large->merges.size() + large->resolvedMerges.size() + 1;
                    const char type = cursor.peekType();
                    if (type == '"') {
                        cursor.readString(&rule);
                        const std::size_t space = rule.find(' ');
                        if (space == std::string::npos || rule.find(' ', space + 1) != std::string::npos)
                            return Error::badInput(
                                QStringLiteral("%1: merge rule %2 ('%3') is not two tokens separated by a space")
                                    .arg(path)
                                    .arg(rank)
                                    .arg(QString::fromStdString(rule)));
                        if (auto error = keep(rule.substr(0, space), rule.substr(space + 1), rank))
                            return *error;
                    } else if (type == '[') {
                        std::string a, b;
                        cursor.beginArray();
                        const bool two = cursor.nextElement() && cursor.peekType() == '"' && cursor.readString(&a) &&
                                         cursor.nextElement() && cursor.peekType() == '"' && cursor.readString(&b) &&
                                         !cursor.nextElement();
                        if (!two)
                            return Error::badInput(
                                QStringLiteral("%1: merge rule %2 is neither \"a b\" nor [\"a\", \"b\"]").arg(path).arg(rank));
                        if (auto error = keep(std::move(a), std::move(b), rank))
                            return *error;
                    } else {
                        return Error::badInput(
                            QStringLiteral("%1: merge rule %2 is neither \"a b\" nor [\"a\", \"b\"]").arg(path).arg(rank));
                    }
                    if (!cursor.ok())
                        break;
                }
            } else {
                if (!cursor.rawValue(&raw))
                    break;
                const std::optional<QJsonValue> value = smallValue(raw);
                if (!value)
                    return invalid("the value of \"model." + modelKey + "\" does not parse");
                model.insert(QString::fromStdString(modelKey), *value);
            }
        }
        root.insert(QStringLiteral("model"), model);
    }
    if (cursor.ok() && !cursor.atEnd())
        return invalid("text after the object at byte " + std::to_string(cursor.position()));
    if (!cursor.ok())
        return invalid(cursor.error());
    return root;
}

std::string utf8(const QString& s) {
    const QByteArray bytes = s.toUtf8();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

bool isByteTokenSpelling(std::string_view text) {
    const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    return text.size() == 6 && text.substr(0, 3) == "<0x" && text[5] == '>' && hex(text[3]) && hex(text[4]);
}

// Everything a tokenizer.json says, folded into the engine's config.
class Reader {
public:
    Reader(QString path, BpeTokenizer::Config& config)
        : m_path(std::move(path))
        , m_config(config) {}

    Status fail(const QString& what) const { return Error::badInput(QStringLiteral("%1: %2").arg(m_path, what)); }

    Status normalizer(const QJsonValue& value) {
        if (value.isNull() || value.isUndefined())
            return {};
        const QJsonObject o = value.toObject();
        const QString type = o.value(QLatin1String("type")).toString();
        using N = BpeTokenizer::Normalization;
        if (type == QLatin1String("Sequence")) {
            for (const QJsonValue& inner : o.value(QLatin1String("normalizers")).toArray())
                if (Status s = normalizer(inner); !s)
                    return s;
            return {};
        }
        if (type == QLatin1String("NFC") || type == QLatin1String("NFKC") || type == QLatin1String("NFD") ||
            type == QLatin1String("NFKD")) {
            m_config.normalization = type == QLatin1String("NFC")    ? N::Nfc
                                     : type == QLatin1String("NFKC") ? N::Nfkc
                                     : type == QLatin1String("NFD")  ? N::Nfd
                                                                     : N::Nfkd;
            return {};
        }
        if (type == QLatin1String("Prepend")) {
            if (o.value(QLatin1String("prepend")).toString() != kMetaspace)
                return fail(QStringLiteral("the Prepend normalizer only works with \"\u2581\" here"));
            m_config.spacePrefix = BpeTokenizer::SpacePrefix::Always;
            m_config.metaspace = true;
            return {};
        }
        if (type == QLatin1String("Replace")) {
            const QJsonObject pattern = o.value(QLatin1String("pattern")).toObject();
            if (pattern.value(QLatin1String("String")).toString() != QLatin1String(" ") ||
                o.value(QLatin1String("content")).toString() != kMetaspace)
                return fail(QStringLiteral("only the Replace normalizer of ' ' by \"\u2581\" is supported"));
            m_config.escapeSpaces = true;
            m_config.metaspace = true;
            return {};
        }
        return fail(QStringLiteral("unsupported normalizer '%1'").arg(type));
    }

    Status preTokenizer(const QJsonValue& value) {
        if (value.isNull() || value.isUndefined())
            return {};
        const QJsonObject o = value.toObject();
        const QString type = o.value(QLatin1String("type")).toString();
        using B = PreTokenizer::Behavior;
        if (type == QLatin1String("Sequence")) {
            for (const QJsonValue& inner : o.value(QLatin1String("pretokenizers")).toArray())
                if (Status s = preTokenizer(inner); !s)
                    return s;
            return {};
        }
        if (type == QLatin1String("ByteLevel")) {
            m_config.byteLevel = true;
            if (o.value(QLatin1String("add_prefix_space")).toBool(false))
                m_config.byteLevelPrefixSpace = true;
            if (o.value(QLatin1String("use_regex")).toBool(true))
                return add(PreTokenizer::gpt2Pattern(), false, B::Isolated, false);
            return {};
        }
        if (type == QLatin1String("Split")) {
            const QJsonObject pattern = o.value(QLatin1String("pattern")).toObject();
            const bool literal = pattern.contains(QLatin1String("String"));
            const QString text = pattern.value(literal ? QLatin1String("String") : QLatin1String("Regex")).toString();
            if (!literal && !pattern.contains(QLatin1String("Regex")))
                return fail(QStringLiteral("a Split pre-tokenizer has no pattern"));
            const QString behavior = o.value(QLatin1String("behavior")).toString();
            std::optional<B> b;
            if (behavior == QLatin1String("Isolated"))
                b = B::Isolated;
            else if (behavior == QLatin1String("Removed"))
                b = B::Removed;
            else if (behavior == QLatin1String("MergedWithPrevious"))
                b = B::MergedWithPrevious;
            else if (behavior == QLatin1String("MergedWithNext"))
                b = B::MergedWithNext;
            else if (behavior == QLatin1String("Contiguous"))
                b = B::Contiguous;
            if (!b)
                return fail(QStringLiteral("unknown Split behavior '%1'").arg(behavior));
            return add(utf8(text), literal, *b, o.value(QLatin1String("invert")).toBool(false));
        }
        if (type == QLatin1String("Digits")) {
            return m_config.preTokenizer.addDigits(o.value(QLatin1String("individual_digits")).toBool(false));
        }
        if (type == QLatin1String("Metaspace")) {
            if (o.value(QLatin1String("replacement")).toString(kMetaspace) != kMetaspace)
                return fail(QStringLiteral("a Metaspace pre-tokenizer must use \"\u2581\" as its replacement"));
            m_config.escapeSpaces = true;
            m_config.metaspace = true;
            QString scheme = o.value(QLatin1String("prepend_scheme")).toString();
            if (scheme.isEmpty()) // older files: add_prefix_space
                scheme = o.value(QLatin1String("add_prefix_space")).toBool(true) ? QStringLiteral("always")
                                                                                 : QStringLiteral("never");
            using P = BpeTokenizer::SpacePrefix;
            if (scheme == QLatin1String("always"))
                m_config.spacePrefix = P::IfMissing;
            else if (scheme == QLatin1String("first"))
                m_config.spacePrefix = P::FirstIfMissing;
            else if (scheme == QLatin1String("never"))
                m_config.spacePrefix = P::None;
            else
                return fail(QStringLiteral("unknown Metaspace prepend_scheme '%1'").arg(scheme));
            if (o.value(QLatin1String("split")).toBool(true))
                return add(utf8(kMetaspace), true, B::MergedWithNext, false);
            return {};
        }
        return fail(QStringLiteral("unsupported pre-tokenizer '%1'").arg(type));
    }

    void decoder(const QJsonValue& value) {
        const QJsonObject o = value.toObject();
        const QString type = o.value(QLatin1String("type")).toString();
        if (type == QLatin1String("Sequence"))
            for (const QJsonValue& inner : o.value(QLatin1String("decoders")).toArray())
                decoder(inner);
        else if (type == QLatin1String("ByteLevel"))
            m_config.byteLevel = true;
        else if (type == QLatin1String("Metaspace") || type == QLatin1String("Replace"))
            m_config.metaspace = m_config.metaspace || !m_config.byteLevel;
    }

    // The special tokens that encode(addSpecial) puts around a single sequence.
    void postProcessor(const QJsonValue& value, const TokenIndex& ids) {
        const QJsonObject o = value.toObject();
        const QString type = o.value(QLatin1String("type")).toString();
        auto idOf = [&](const QString& text) {
            return ids.find(utf8(text));
        };
        if (type == QLatin1String("Sequence")) {
            for (const QJsonValue& inner : o.value(QLatin1String("processors")).toArray())
                postProcessor(inner, ids);
        } else if (type == QLatin1String("TemplateProcessing")) {
            const QJsonArray single = o.value(QLatin1String("single")).toArray();
            auto specialAt = [&](const QJsonValue& item) -> TokenId {
                const QJsonObject s = item.toObject().value(QLatin1String("SpecialToken")).toObject();
                if (s.isEmpty())
                    return -1;
                const QString name = s.value(QLatin1String("id")).toString();
                const QJsonObject mapped = o.value(QLatin1String("special_tokens")).toObject().value(name).toObject();
                const QJsonArray mappedIds = mapped.value(QLatin1String("ids")).toArray();
                return mappedIds.size() == 1 ? mappedIds.first().toInt(-1) : idOf(name);
            };
            if (!single.isEmpty()) {
                if (const TokenId first = specialAt(single.first()); first >= 0) {
                    m_config.special.bos = first;
                    m_config.special.addBos = true;
                }
                if (single.size() > 1)
                    if (const TokenId last = specialAt(single.last()); last >= 0) {
                        m_config.special.eos = last;
                        m_config.special.addEos = true;
                    }
            }
        } else if (type == QLatin1String("RobertaProcessing") || type == QLatin1String("BertProcessing")) {
            const QJsonArray cls = o.value(QLatin1String("cls")).toArray();
            const QJsonArray sep = o.value(QLatin1String("sep")).toArray();
            if (cls.size() == 2) {
                m_config.special.bos = cls.at(1).toInt(-1);
                m_config.special.addBos = m_config.special.bos >= 0;
            }
            if (sep.size() == 2) {
                m_config.special.eos = sep.at(1).toInt(-1);
                m_config.special.addEos = m_config.special.eos >= 0;
            }
        }
    }

private:
    Status add(const std::string& pattern, bool literal, PreTokenizer::Behavior behavior, bool invert) {
        Status s =
            m_config.preTokenizer.addSplit(pattern, literal, behavior, invert, PreTokenizer::Dialect::HuggingFace);
        return s ? s : fail(s.error().message);
    }

    QString m_path;
    BpeTokenizer::Config& m_config;
};

// A token name in tokenizer_config.json: a string or an AddedToken object {"content": ...}.
std::optional<QString> configTokenName(const QJsonValue& value) {
    if (value.isString())
        return value.toString();
    if (value.isObject() && value.toObject().value(QLatin1String("content")).isString())
        return value.toObject().value(QLatin1String("content")).toString();
    return std::nullopt;
}

// The id of the token spelled text, negative when the vocabulary has none.
TokenId tokenIdOf(const TokenIndex& ids, const QString& text) {
    return ids.find(utf8(text));
}

// tokenizer.json's model, when it is one this loader reads: BPE, without a subword prefix or word suffix.
Result<QJsonObject> bpeModel(const QJsonObject& root, const QString& path) {
    const QJsonObject model = root.value(QLatin1String("model")).toObject();
    if (model.isEmpty())
        return Error::badInput(QStringLiteral("%1 has no tokenizer model (\"model\" is missing)").arg(path));
    const QString modelType = model.value(QLatin1String("type")).toString(QStringLiteral("BPE"));
    if (modelType != QLatin1String("BPE"))
        return Error::badInput(
            QStringLiteral("%1 has model type '%2', which is not supported (only BPE is)").arg(path, modelType));
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"})
        if (!model.value(QLatin1String(key)).toString().isEmpty())
            return Error::badInput(
                QStringLiteral("%1: the BPE option %2 is not supported").arg(path, QLatin1String(key)));
    return model;
}

// One of tokenizer.json's added_tokens.
struct AddedToken {
    std::string text;
    TokenId id;
    bool special;
    bool lstrip;
    bool rstrip;
};

Result<std::vector<AddedToken>> addedTokens(const QJsonObject& root, const QString& path) {
    std::vector<AddedToken> added;
    for (const QJsonValue& v : root.value(QLatin1String("added_tokens")).toArray()) {
        const QJsonObject a = v.toObject();
        const int id = a.value(QLatin1String("id")).toInt(-1);
        const QString content = a.value(QLatin1String("content")).toString();
        if (id < 0 || content.isEmpty())
            return Error::badInput(QStringLiteral("%1: an added token has no id or content").arg(path));
        added.push_back({utf8(content), id, a.value(QLatin1String("special")).toBool(false),
                         a.value(QLatin1String("lstrip")).toBool(false),
                         a.value(QLatin1String("rstrip")).toBool(false)});
    }
    return added;
}

// Vocabulary: the model's vocab plus added tokens (Llama 3's specials exist only there), into config.tokens; the
// index of their texts.
Result<TokenIndex> readVocabulary(const QString& path, const QJsonObject& root, LargeParts& large, bool byteFallback,
                                  BpeTokenizer::Config& config) {
    if (!large.hasVocab)
        return Error::badInput(QStringLiteral("%1: the model has no vocab object").arg(path));
    std::vector<std::pair<std::string, TokenId>>& entries = large.vocab;
    TokenId maxId = -1;
    for (const auto& entry : entries)
        maxId = std::max(maxId, entry.second);
    Result<std::vector<AddedToken>> addedList = addedTokens(root, path);
    if (!addedList)
        return addedList.error();
    const std::vector<AddedToken>& added = addedList.value();
    for (const AddedToken& a : added)
        maxId = std::max(maxId, static_cast<TokenId>(a.id));
    if (maxId < 0)
        return Error::badInput(QStringLiteral("%1 has an empty vocabulary").arg(path));
    config.tokens.resize(static_cast<std::size_t>(maxId) + 1);
    for (BpeTokenizer::Token& t : config.tokens)
        t.kind = Kind::Unused; // ids no entry names stay holes
    // Views into config.tokens, which is not resized again.
    TokenIndex ids;
    ids.reserve(entries.size() + added.size());
    for (auto& [text, id] : entries) {
        BpeTokenizer::Token& t = config.tokens[static_cast<std::size_t>(id)];
        if (!t.text.empty())
            return Error::badInput(QStringLiteral("%1: vocab ids %2 appear twice").arg(path).arg(id));
        t.kind = byteFallback && isByteTokenSpelling(text) ? Kind::Byte : Kind::Normal;
        t.text = std::move(text);
        ids.insert(t.text, id);
    }
    for (const AddedToken& a : added) {
        BpeTokenizer::Token& t = config.tokens[static_cast<std::size_t>(a.id)];
        if (!t.text.empty() && t.text != a.text)
            return Error::badInput(QStringLiteral("%1: added token '%2' reuses id %3 of '%4'")
                                       .arg(path, QString::fromStdString(a.text))
                                       .arg(a.id)
                                       .arg(QString::fromStdString(t.text)));
        if (const TokenId known = ids.find(a.text); known >= 0 && known != a.id)
            return Error::badInput(QStringLiteral("%1: added token '%2' has id %3 but the vocab gives it %4")
                                       .arg(path, QString::fromStdString(a.text))
                                       .arg(a.id)
                                       .arg(known));
        t.text = a.text;
        t.kind = a.special ? Kind::Control : Kind::UserDefined;
        t.lstrip = a.lstrip;
        t.rstrip = a.rstrip;
        ids.insert(t.text, a.id);
    }
    return ids;
}

// Which special tokens tokenizer_config.json names.
struct NamedSpecials {
    bool bos = false;
    bool eos = false;
};

// tokenizer_config.json's special tokens and add_bos/add_eos switches over what tokenizer.json implies.
Status applyTokenizerConfig(const QString& configFile, const QString& path, const TokenIndex& ids,
                            SpecialTokens& special, NamedSpecials& named) {
    bool& namedBos = named.bos;
    bool& namedEos = named.eos;
    Result<QJsonObject> cfg = readJsonObject(configFile);
    if (!cfg)
        return cfg.error();
    const QJsonObject& c = cfg.value();
    const std::pair<const char*, TokenId*> names[] = {{"bos_token", &special.bos},
                                                      {"eos_token", &special.eos},
                                                      {"unk_token", &special.unk},
                                                      {"pad_token", &special.pad}};
    for (const auto& [key, id] : names) {
        const std::optional<QString> name = configTokenName(c.value(QLatin1String(key)));
        if (!name)
            continue;
        *id = tokenIdOf(ids, *name);
        if (*id < 0)
            return Error::badInput(QStringLiteral("%1 names %2 '%3', which is not in the vocabulary of %4")
                                       .arg(configFile, QLatin1String(key), *name, path));
        namedBos = namedBos || id == &special.bos;
        namedEos = namedEos || id == &special.eos;
    }
    if (c.value(QLatin1String("add_bos_token")).isBool())
        special.addBos = c.value(QLatin1String("add_bos_token")).toBool();
    if (c.value(QLatin1String("add_eos_token")).isBool())
        special.addEos = c.value(QLatin1String("add_eos_token")).toBool();
    return {};
}

} // namespace

Result<std::unique_ptr<Tokenizer>> TokenizerJsonLoader::load(const QString& tokenizerJsonPath,
                                                             const QString& configPath) {
    const QString& path = tokenizerJsonPath;
    LargeParts large;
    Result<QJsonObject> parsed = readTokenizerJson(path, &large);
    if (!parsed)
        return parsed.error();
    const QJsonObject& root = parsed.value();
    Result<QJsonObject> bpe = bpeModel(root, path);
    if (!bpe)
        return bpe.error();
    const QJsonObject& model = bpe.value();

    BpeTokenizer::Config config;
    config.source = path;
    const bool byteFallback = model.value(QLatin1String("byte_fallback")).toBool(false);
    config.byteFallback = byteFallback;
    config.fuseUnknown = model.value(QLatin1String("fuse_unk")).toBool(false);
    config.ignoreMerges = model.value(QLatin1String("ignore_merges")).toBool(false);
    // dropout only matters when training; released tokenizers encode deterministically.

    Result<TokenIndex> vocabulary = readVocabulary(path, root, large, byteFallback, config);
    if (!vocabulary)
        return vocabulary.error();
    const TokenIndex& ids = vocabulary.value();

    // Merges: "a b" strings (older files) or ["a", "b"] pairs, read with the vocabulary; none is allowed
    // (tokenizers takes it: every piece stays as its symbols).
    config.merges = std::move(large.merges);
    config.resolvedMerges = std::move(large.resolvedMerges);
    config.withoutMerges = config.merges.empty() && config.resolvedMerges.empty();

    Reader reader(path, config);
    if (Status s = reader.normalizer(root.value(QLatin1String("normalizer"))); !s)
        return s.error();
    if (Status s = reader.preTokenizer(root.value(QLatin1String("pre_tokenizer"))); !s)
        return s.error();
    reader.decoder(root.value(QLatin1String("decoder")));
    reader.postProcessor(root.value(QLatin1String("post_processor")), ids);

    SpecialTokens& special = config.special;
    auto idOf = [&](const QString& text) { return tokenIdOf(ids, text); };
    if (const QString unk = model.value(QLatin1String("unk_token")).toString(); !unk.isEmpty()) {
        special.unk = idOf(unk);
        if (special.unk < 0)
            return Error::badInput(QStringLiteral("%1: unk_token '%2' is not in the vocabulary").arg(path, unk));
    }

    // tokenizer_config.json: transformers' own switches win over what tokenizer.json implies.
    const QString configFile =
        !configPath.isEmpty() ? configPath : QFileInfo(path).dir().filePath(QStringLiteral("tokenizer_config.json"));
    NamedSpecials named;
    if (!configPath.isEmpty() || QFileInfo::exists(configFile))
        if (Status s = applyTokenizerConfig(configFile, path, ids, special, named); !s)
            return s.error();
    // Without names, the spellings these families use (GPT-2's <|endoftext|> is both BOS and EOS).
    if (special.bos < 0 && !named.bos)
        for (const char* name : {"<s>", "<|begin_of_text|>", "<|startoftext|>", "<|endoftext|>"})
            if ((special.bos = idOf(QLatin1String(name))) >= 0)
                break;
    if (special.eos < 0 && !named.eos)
        for (const char* name : {"</s>", "<|end_of_text|>", "<|endoftext|>", "<|im_end|>"})
            if ((special.eos = idOf(QLatin1String(name))) >= 0)
                break;
    if (special.unk >= 0 && config.tokens[static_cast<std::size_t>(special.unk)].kind == Kind::Normal)
        config.tokens[static_cast<std::size_t>(special.unk)].kind = Kind::Unknown;

    config.kind = config.byteLevel   ? QStringLiteral("tokenizer.json:bpe (byte-level)")
                  : config.metaspace ? QStringLiteral("tokenizer.json:bpe (sentencepiece)")
                                     : QStringLiteral("tokenizer.json:bpe");
    Result<std::unique_ptr<BpeTokenizer>> tokenizer = BpeTokenizer::create(std::move(config));
    if (!tokenizer)
        return tokenizer.error();
    return std::unique_ptr<Tokenizer>(std::move(tokenizer).value());
}

} // namespace swb
