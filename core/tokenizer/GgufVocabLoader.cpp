#include "tokenizer/GgufVocabLoader.h"

#include <algorithm>
#include <cctype>

#include "formats/GgufFile.h"
#include "tokenizer/BpeTokenizer.h"

namespace swb {

namespace {

using Kind = BpeTokenizer::TokenKind;

Kind kindOf(std::int64_t type) {
    switch (type) {
    case 1:
        return Kind::Normal;
    case 2:
        return Kind::Unknown;
    case 3:
        return Kind::Control;
    case 4:
        return Kind::UserDefined;
    case 6:
        return Kind::Byte;
    default:
        return Kind::Unused; // 5 unused, 0 undefined: decoded as nothing, like llama.cpp
    }
}

bool looksLikeByteToken(const std::string& text) {
    return text.size() == 6 && text.compare(0, 3, "<0x") == 0 && text[5] == '>' &&
           std::isxdigit(static_cast<unsigned char>(text[3])) && std::isxdigit(static_cast<unsigned char>(text[4]));
}

// llama.cpp's pre-tokenizer names that also switch on ignore_merges and add_bos by default.
bool isLlama3Family(const std::string& pre) {
    static const char* const names[] = {"llama-bpe", "llama3", "llama-v3", "falcon3"};
    return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return pre == n; });
}

} // namespace

Result<std::unique_ptr<Tokenizer>> GgufVocabLoader::load(const QString& path) {
    Result<GgufFile> file = GgufFile::open(path);
    if (!file)
        return file.error();
    return load(file.value());
}

Result<std::unique_ptr<Tokenizer>> GgufVocabLoader::load(const GgufFile& file) {
    const QString& path = file.path();
    const std::optional<std::string> model = file.string("tokenizer.ggml.model");
    if (!model)
        return Error::badInput(QStringLiteral("%1 has no tokenizer (tokenizer.ggml.model is missing)").arg(path));
    if (*model != "llama" && *model != "gpt2")
        return Error::badInput(QStringLiteral("%1 has tokenizer model '%2', which is not supported (only 'gpt2' "
                                              "and 'llama' BPE vocabularies are)")
                                   .arg(path, QString::fromStdString(*model)));
    std::optional<std::vector<std::string>> texts = file.stringArray("tokenizer.ggml.tokens");
    if (!texts || texts->empty())
        return Error::badInput(QStringLiteral("%1 has no token list (tokenizer.ggml.tokens)").arg(path));
    const std::size_t n = texts->size();
    const std::optional<std::vector<float>> scores = file.floatArray("tokenizer.ggml.scores");
    if (file.has("tokenizer.ggml.scores") && (!scores || scores->size() < n))
        return Error::badInput(
            QStringLiteral("%1: tokenizer.ggml.scores is not an array of %2 numbers").arg(path).arg(n));
    const std::optional<std::vector<std::int64_t>> types = file.intArray("tokenizer.ggml.token_type");
    if (file.has("tokenizer.ggml.token_type") && (!types || types->size() < n))
        return Error::badInput(
            QStringLiteral("%1: tokenizer.ggml.token_type is not an array of %2 integers").arg(path).arg(n));

    BpeTokenizer::Config config;
    config.source = path;
    config.tokens.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        BpeTokenizer::Token& t = config.tokens[i];
        t.text = std::move((*texts)[i]);
        t.score = scores ? (*scores)[i] : 0.0f;
        t.kind = types ? kindOf((*types)[i]) : Kind::Normal;
    }

    SpecialTokens& special = config.special;
    std::string pre;
    if (*model == "llama") {
        config.kind = QStringLiteral("gguf:llama");
        config.metaspace = true;
        config.escapeSpaces = true;
        config.byteFallback = true;
        const bool prefix = file.boolean("tokenizer.ggml.add_space_prefix").value_or(true);
        config.spacePrefix = prefix ? BpeTokenizer::SpacePrefix::Always : BpeTokenizer::SpacePrefix::None;
        if (!types) // without token types llama.cpp still finds <0xNN> by text; decode them as bytes too
            for (BpeTokenizer::Token& t : config.tokens)
                if (looksLikeByteToken(t.text))
                    t.kind = Kind::Byte;
        special.bos = 1;
        special.eos = 2;
        special.unk = 0;
        special.addBos = true;
    } else {
        std::optional<std::vector<std::string>> merges = file.stringArray("tokenizer.ggml.merges");
        if (!merges)
            return Error::badInput(
                QStringLiteral("%1 has a gpt2 tokenizer without merges (tokenizer.ggml.merges)").arg(path));
        config.merges.reserve(merges->size());
        for (std::size_t i = 0; i < merges->size(); ++i) {
            const std::string& rule = (*merges)[i];
            // Like llama.cpp: the separator is the first space after the first byte.
            const std::size_t space = rule.find(' ', 1);
            if (space == std::string::npos)
                return Error::badInput(QStringLiteral("%1: merge rule %2 ('%3') is not two tokens separated by a space")
                                           .arg(path)
                                           .arg(i + 1)
                                           .arg(QString::fromStdString(rule)));
            config.merges.emplace_back(rule.substr(0, space), rule.substr(space + 1));
        }
        // No rules: llama.cpp's BPE merges nothing (it never falls back to merging by score).
        config.withoutMerges = merges->empty();
        pre = file.string("tokenizer.ggml.pre").value_or("default");
        Result<PreTokenizer> splitter = PreTokenizer::forGgufType(pre);
        if (!splitter)
            return Error::badInput(QStringLiteral("%1: %2 (tokenizer.ggml.pre)").arg(path, splitter.error().message));
        config.preTokenizer = std::move(splitter).value();
        config.kind = QStringLiteral("gguf:gpt2/%1").arg(QString::fromStdString(pre));
        config.byteLevel = true;
        config.ignoreMerges = isLlama3Family(pre);
        special.addBos = isLlama3Family(pre);
    }

    // Special ids; like llama.cpp an id outside the vocabulary is ignored (the default, if any, stays).
    const auto inRange = [&](std::int64_t id) { return id >= 0 && id < static_cast<std::int64_t>(n); };
    for (TokenId* id : {&special.bos, &special.eos, &special.unk, &special.pad})
        if (!inRange(*id))
            *id = -1;
    const std::pair<const char*, TokenId*> ids[] = {{"tokenizer.ggml.bos_token_id", &special.bos},
                                                    {"tokenizer.ggml.eos_token_id", &special.eos},
                                                    {"tokenizer.ggml.unknown_token_id", &special.unk},
                                                    {"tokenizer.ggml.padding_token_id", &special.pad}};
    for (const auto& [key, id] : ids)
        if (const std::optional<std::int64_t> value = file.integer(key); value && inRange(*value))
            *id = static_cast<TokenId>(*value);
    if (const std::optional<bool> addBos = file.boolean("tokenizer.ggml.add_bos_token"))
        special.addBos = *addBos;
    if (const std::optional<bool> addEos = file.boolean("tokenizer.ggml.add_eos_token"))
        special.addEos = *addEos;
    // End of turn: the ids the file names, else (as llama.cpp does) the control tokens the chat families spell.
    for (const char* key : {"tokenizer.ggml.eot_token_id", "tokenizer.ggml.eom_token_id"})
        if (const std::optional<std::int64_t> value = file.integer(key); value && inRange(*value))
            special.endOfTurn.push_back(static_cast<TokenId>(*value));
    if (special.endOfTurn.empty())
        for (std::size_t i = 0; i < n; ++i) {
            const BpeTokenizer::Token& t = config.tokens[i];
            if (t.kind != Kind::Control && t.kind != Kind::UserDefined)
                continue;
            for (const char* turnEnd : {"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>",
                                        "<EOT>", "<|end_of_turn|>", "<｜end▁of▁sentence｜>", "<|return|>", "<|eom_id|>"})
                if (t.text == turnEnd && TokenId(i) != special.eos)
                    special.endOfTurn.push_back(TokenId(i));
        }

    // llama.cpp's per-model attributes that GGUF does not store: Phi-3's special tokens swallow the
    // whitespace after them, except <unk>, <s> and <|endoftext|>.
    std::string name = file.string("general.name").value_or("");
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (name.find("phi-3") != std::string::npos || name.find("phi3") != std::string::npos) {
        for (BpeTokenizer::Token& t : config.tokens) {
            if (t.kind == Kind::Control || t.kind == Kind::UserDefined || t.kind == Kind::Unknown || t.text == "</s>")
                t.rstrip = true;
            if (t.text == "<unk>" || t.text == "<s>" || t.text == "<|endoftext|>")
                t.rstrip = false;
        }
    }

    Result<std::unique_ptr<BpeTokenizer>> tokenizer = BpeTokenizer::create(std::move(config));
    if (!tokenizer)
        return tokenizer.error();
    return std::unique_ptr<Tokenizer>(std::move(tokenizer).value());
}

} // namespace swb
