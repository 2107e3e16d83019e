#pragma once

// llama.cpp's tokenizer test vectors in ../shared/reference/vocab (see its README): NAME.gguf.inp holds
// the inputs, each followed by "\n__ggml_vocab_test__\n"; NAME.gguf.out one line of expected ids per
// input (no BOS/EOS, special-token text not parsed).

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <QDir>

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "formats/GgufFile.h"

namespace swb::test {

struct VocabCase {
    QByteArray text;
    std::vector<int> ids;
};

inline QStringList referenceVocabNames() {
    return {QStringLiteral("gpt-2"), QStringLiteral("llama-spm"), QStringLiteral("phi-3")};
}

inline QString referenceVocabPath(const QString& name) {
    return referenceDir() + QStringLiteral("/vocab/ggml-vocab-%1.gguf").arg(name);
}

// The cases of one vocabulary; empty (with *error set) when the files are missing or disagree.
inline std::vector<VocabCase> readVocabCases(const QString& name, QString* error = nullptr) {
    const QString gguf = referenceVocabPath(name);
    QFile inp(gguf + QStringLiteral(".inp"));
    QFile out(gguf + QStringLiteral(".out"));
    if (!inp.open(QIODevice::ReadOnly) || !out.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read %1.inp/.out").arg(gguf);
        return {};
    }
    const QByteArray separator("\n__ggml_vocab_test__\n");
    QList<QByteArray> texts;
    const QByteArray all = inp.readAll();
    // Every input, the last included, is followed by the separator: split and drop the empty tail.
    qsizetype pos = 0;
    for (qsizetype hit; (hit = all.indexOf(separator, pos)) >= 0; pos = hit + separator.size())
        texts << all.mid(pos, hit - pos);
    if (pos != all.size()) {
        if (error)
            *error = QStringLiteral("%1.inp does not end with the separator").arg(gguf);
        return {};
    }
    QList<QByteArray> lines = out.readAll().split('\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast(); // the file ends with a newline
    if (lines.size() != texts.size()) {
        if (error)
            *error =
                QStringLiteral("%1: %2 inputs but %3 expected lines").arg(gguf).arg(texts.size()).arg(lines.size());
        return {};
    }
    std::vector<VocabCase> cases;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        VocabCase c;
        c.text = texts[i];
        for (const QByteArray& word : lines[i].split(' '))
            if (!word.isEmpty())
                c.ids.push_back(word.toInt());
        cases.push_back(std::move(c));
    }
    return cases;
}

inline QByteArray jsonString(const std::string& s) {
    QByteArray out("\"");
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            out += QByteArray("\\u00") + QByteArray::number(u, 16).rightJustified(2, '0');
        } else {
            out += c;
        }
    }
    return out + '"';
}

// The reference GGUF vocabulary rewritten as a Hugging Face tokenizer.json in `folder`: byte-level BPE
// with GPT-2's pre-tokenizer, or SentencePiece-style BPE whose merges are derived from the scores the
// way transformers' LlamaConverter does (all splits of each piece into two pieces, by score).
inline bool writeReferenceTokenizerJson(const QString& vocab, const QString& folder) {
    Result<GgufFile> gguf = GgufFile::open(referenceVocabPath(vocab));
    if (!gguf)
        return false;
    const std::vector<std::string> tokens = *gguf->stringArray("tokenizer.ggml.tokens");
    const std::vector<std::int64_t> types = *gguf->intArray("tokenizer.ggml.token_type");
    const bool byteLevel = *gguf->string("tokenizer.ggml.model") == "gpt2";
    QByteArray vocabJson = "{";
    QByteArray added = "[";
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        vocabJson += (i ? "," : "") + jsonString(tokens[i]) + ":" + QByteArray::number(qulonglong(i));
        const std::int64_t type = types[i];
        if (type == 2 || type == 3 || type == 4) // unknown, control, user-defined
            added += QByteArray(added.size() > 1 ? "," : "") + "{\"id\":" + QByteArray::number(qulonglong(i)) +
                     ",\"content\":" + jsonString(tokens[i]) + ",\"single_word\":false,\"lstrip\":false," +
                     "\"rstrip\":false,\"normalized\":false,\"special\":" + (type == 4 ? "false" : "true") + "}";
    }
    vocabJson += "}";
    added += "]";
    QByteArray merges = "[";
    if (byteLevel) {
        const std::vector<std::string> rules = *gguf->stringArray("tokenizer.ggml.merges");
        for (std::size_t i = 0; i < rules.size(); ++i)
            merges += (i ? "," : "") + jsonString(rules[i]);
    } else {
        const std::vector<float> scores = *gguf->floatArray("tokenizer.ggml.scores");
        std::unordered_map<std::string, std::size_t> ids;
        for (std::size_t i = 0; i < tokens.size(); ++i)
            ids.emplace(tokens[i], i);
        struct Rule {
            std::size_t left, right;
            float score;
        };
        std::vector<Rule> rules;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            if (types[i] != 1)
                continue;
            const std::string& t = tokens[i];
            std::vector<Rule> local;
            for (std::size_t cut = 1; cut < t.size(); ++cut) {
                if ((static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80)
                    continue; // split between characters only
                const auto l = ids.find(t.substr(0, cut));
                const auto r = ids.find(t.substr(cut));
                if (l != ids.end() && r != ids.end())
                    local.push_back({l->second, r->second, scores[i]});
            }
            std::sort(local.begin(), local.end(), [](const Rule& a, const Rule& b) {
                return std::tie(a.left, a.right) < std::tie(b.left, b.right);
            });
            rules.insert(rules.end(), local.begin(), local.end());
        }
        std::stable_sort(rules.begin(), rules.end(), [](const Rule& a, const Rule& b) { return a.score > b.score; });
        for (std::size_t i = 0; i < rules.size(); ++i)
            merges += QByteArray(i ? "," : "") + "[" + jsonString(tokens[rules[i].left]) + "," +
                      jsonString(tokens[rules[i].right]) + "]";
    }
    merges += "]";

    QByteArray json = "{\"version\":\"1.0\",\"truncation\":null,\"padding\":null,\"added_tokens\":" + added + ",";
    QByteArray config;
    if (byteLevel) {
        json += "\"normalizer\":null,"
                "\"pre_tokenizer\":{\"type\":\"ByteLevel\",\"add_prefix_space\":false,\"trim_offsets\":true,"
                "\"use_regex\":true},"
                "\"post_processor\":{\"type\":\"ByteLevel\",\"add_prefix_space\":true,\"trim_offsets\":false,"
                "\"use_regex\":true},"
                "\"decoder\":{\"type\":\"ByteLevel\",\"add_prefix_space\":true,\"trim_offsets\":true,"
                "\"use_regex\":true},"
                "\"model\":{\"type\":\"BPE\",\"dropout\":null,\"unk_token\":null,\"continuing_subword_prefix\":\"\","
                "\"end_of_word_suffix\":\"\",\"fuse_unk\":false,\"byte_fallback\":false,\"vocab\":" +
                vocabJson + ",\"merges\":" + merges + "}}";
    } else {
        const QByteArray space = jsonString(kMetaspace);
        const QByteArray eos =
            jsonString(tokens[static_cast<std::size_t>(*gguf->integer("tokenizer.ggml.eos_token_id"))]);
        json += "\"normalizer\":{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"Prepend\",\"prepend\":" + space +
                "},{\"type\":\"Replace\",\"pattern\":{\"String\":\" \"},\"content\":" + space +
                "}]},"
                "\"pre_tokenizer\":null,"
                "\"post_processor\":{\"type\":\"TemplateProcessing\",\"single\":[{\"SpecialToken\":{\"id\":\"<s>\","
                "\"type_id\":0}},{\"Sequence\":{\"id\":\"A\",\"type_id\":0}}],\"pair\":[],\"special_tokens\":"
                "{\"<s>\":{\"id\":\"<s>\",\"ids\":[1],\"tokens\":[\"<s>\"]}}},"
                "\"decoder\":{\"type\":\"Sequence\",\"decoders\":[{\"type\":\"Replace\",\"pattern\":{\"String\":" +
                space +
                "},\"content\":\" \"},{\"type\":\"ByteFallback\"},{\"type\":\"Fuse\"},{\"type\":\"Strip\","
                "\"content\":\" \",\"start\":1,\"stop\":0}]},"
                "\"model\":{\"type\":\"BPE\",\"dropout\":null,\"unk_token\":\"<unk>\",\"continuing_subword_prefix\":"
                "null,"
                "\"end_of_word_suffix\":null,\"fuse_unk\":true,\"byte_fallback\":true,\"ignore_merges\":false,"
                "\"vocab\":" +
                vocabJson + ",\"merges\":" + merges + "}}";
        config = "{\"add_bos_token\":true,\"add_eos_token\":false,\"bos_token\":\"<s>\",\"eos_token\":" + eos +
                 ",\"unk_token\":{\"content\":\"<unk>\",\"lstrip\":false},\"pad_token\":null}";
    }
    const QDir dir(folder);
    if (!dir.mkpath(QStringLiteral(".")) || !writeFile(dir.filePath(QStringLiteral("tokenizer.json")), json))
        return false;
    return config.isEmpty() || writeFile(dir.filePath(QStringLiteral("tokenizer_config.json")), config);
}

} // namespace swb::test
