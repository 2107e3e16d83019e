#pragma once

// Vocabularies small enough to work out tokenizations by hand, written as files the loaders read: a
// byte-level GGUF (tiny-bpe.gguf), a SentencePiece GGUF (tiny-spm.gguf) and a llama2.c tokenizer with the
// header of a checkpoint that uses it (tiny-tok.bin, tiny-model.bin). They let tokenizer tests run without
// ../shared/reference. The ids each holds are listed in writeTinyVocabularies().

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include "GgufWriter.h"

namespace swb::test {

inline const std::string kMetaspace = "\xe2\x96\x81"; // U+2581

inline void appendUtf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

inline bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// A llama2.c tokenizer file: int32 max_token_length, then (float32 score, int32 length, bytes) per token.
inline QByteArray tokBin(const std::vector<std::pair<std::string, float>>& tokens) {
    QByteArray out;
    auto put = [&](const void* p, int n) { out.append(static_cast<const char*>(p), n); };
    std::int32_t maxLength = 1;
    for (const auto& t : tokens)
        maxLength = std::max<std::int32_t>(maxLength, static_cast<std::int32_t>(t.first.size()));
    put(&maxLength, 4);
    for (const auto& [text, score] : tokens) {
        const auto length = static_cast<std::int32_t>(text.size());
        put(&score, 4);
        put(&length, 4);
        out.append(text.data(), length);
    }
    return out;
}

// The header of a legacy llama2.c checkpoint (7 int32); the tokenizer loader reads vocab_size from it.
inline QByteArray llama2cHeader(std::int32_t vocabSize) {
    const std::int32_t header[7] = {64, 172, 5, 8, 4, vocabSize, 512};
    return QByteArray(reinterpret_cast<const char*>(header), sizeof(header));
}

// <unk>, BOS, EOS and the 256 byte tokens run.c assumes, then extra pieces.
inline std::vector<std::pair<std::string, float>> llama2cBaseVocab() {
    std::vector<std::pair<std::string, float>> tokens = {{"<unk>", 0}, {"\n<s>\n", 0}, {"\n</s>\n", 0}};
    char buffer[8];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(buffer, sizeof(buffer), "<0x%02X>", b);
        tokens.emplace_back(buffer, 0.0f);
    }
    return tokens;
}

inline bool writeTinyVocabularies(const QString& dirPath) {
    const QDir dir(dirPath);
    // Byte-level: the 256 alphabet characters in byte order (so 't' is 116, 'Ġ' (space) is 32), then
    // Ġt=256, he=257, Ġthe=258, is=259, and <|endoftext|>=260.
    std::vector<std::string> tokens;
    int nextCodePoint = 256; // GPT-2's bytes_to_unicode: unprintable bytes map to U+0100 onwards
    for (int b = 0; b < 256; ++b) {
        const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        const int cp = printable ? b : nextCodePoint++;
        std::string ch;
        appendUtf8(ch, static_cast<std::uint32_t>(cp));
        tokens.push_back(ch);
    }
    const std::string g = "\xc4\xa0"; // 'Ġ'
    for (const std::string& t : {g + "t", std::string("he"), g + "the", std::string("is")})
        tokens.push_back(t);
    tokens.push_back("<|endoftext|>");
    std::vector<std::int32_t> types(tokens.size(), 1);
    types.back() = 3;
    GgufWriter bpe;
    bpe.addString("general.architecture", "gpt2");
    bpe.addString("tokenizer.ggml.model", "gpt2");
    bpe.addString("tokenizer.ggml.pre", "gpt-2");
    bpe.addStringArray("tokenizer.ggml.tokens", tokens);
    bpe.addInt32Array("tokenizer.ggml.token_type", types);
    bpe.addStringArray("tokenizer.ggml.merges", {g + " t", "h e", g + "t he", "i s"});
    bpe.addUint32("tokenizer.ggml.bos_token_id", 260);
    bpe.addUint32("tokenizer.ggml.eos_token_id", 260);

    // SentencePiece: <unk> <s> </s>, bytes 3..258, then ▁=259 (-1), ▁a=260 (-2), b=261 (-3), ▁ab=262
    // (-4), a=263 (-5).
    std::vector<std::string> spm = {"<unk>", "<s>", "</s>"};
    std::vector<float> scores = {0, 0, 0};
    std::vector<std::int32_t> spmTypes = {2, 3, 3};
    char buffer[8];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(buffer, sizeof(buffer), "<0x%02X>", b);
        spm.emplace_back(buffer);
        scores.push_back(0);
        spmTypes.push_back(6);
    }
    const std::pair<std::string, float> pieces[] = {
        {kMetaspace, -1}, {kMetaspace + "a", -2}, {"b", -3}, {kMetaspace + "ab", -4}, {"a", -5}};
    for (const auto& [text, score] : pieces) {
        spm.push_back(text);
        scores.push_back(score);
        spmTypes.push_back(1);
    }
    GgufWriter sp;
    sp.addString("general.architecture", "llama");
    sp.addString("tokenizer.ggml.model", "llama");
    sp.addStringArray("tokenizer.ggml.tokens", spm);
    sp.addFloat32Array("tokenizer.ggml.scores", scores);
    sp.addInt32Array("tokenizer.ggml.token_type", spmTypes);
    sp.addUint32("tokenizer.ggml.bos_token_id", 1);
    sp.addUint32("tokenizer.ggml.eos_token_id", 2);
    sp.addBool("tokenizer.ggml.add_bos_token", true);

    // llama2.c: base vocabulary, then " "=259 (0), "a"=260 (-1), " a"=261 (-2), "b"=262 (-3),
    // " ab"=263 (-4).
    std::vector<std::pair<std::string, float>> l2c = llama2cBaseVocab();
    for (const auto& p :
         std::vector<std::pair<std::string, float>>{{" ", 0}, {"a", -1}, {" a", -2}, {"b", -3}, {" ab", -4}})
        l2c.push_back(p);
    return bpe.write(dir.filePath("tiny-bpe.gguf")) && sp.write(dir.filePath("tiny-spm.gguf")) &&
           writeFile(dir.filePath("tiny-tok.bin"), tokBin(l2c)) &&
           writeFile(dir.filePath("tiny-model.bin"), llama2cHeader(static_cast<std::int32_t>(l2c.size())));
}

} // namespace swb::test
