#pragma once

// llama.cpp's tokenizer test vectors in ../shared/reference/vocab (see its README): NAME.gguf.inp holds
// the inputs, each followed by "\n__ggml_vocab_test__\n"; NAME.gguf.out one line of expected ids per
// input (no BOS/EOS, special-token text not parsed).

#include <vector>

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>

#include "TestSupport.h"

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

} // namespace swb::test
