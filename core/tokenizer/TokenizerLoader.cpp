#include "tokenizer/TokenizerLoader.h"

#include <cstdlib>
#include <cstring>
#include <optional>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "tokenizer/GgufVocabLoader.h"
#include "tokenizer/Llama2cTokenizer.h"
#include "tokenizer/TokenizerJsonLoader.h"

namespace swb {

namespace {

QByteArray head(const QString& path, qint64 bytes) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(bytes) : QByteArray();
}

bool isGguf(const QString& path) {
    return head(path, 4) == QByteArrayLiteral("GGUF");
}

// vocab_size from a llama2.c checkpoint header: legacy files start with 7 int32 (vocab_size 6th,
// negative when the classifier is not shared); version 1 and 2 files with magic "ak42" and a version.
std::optional<int> llama2cVocabSize(const QString& path) {
    const QByteArray h = head(path, 36);
    if (h.size() < 28)
        return std::nullopt;
    std::uint32_t magic = 0;
    std::memcpy(&magic, h.constData(), 4);
    const int offset = magic == 0x616b3432 ? 8 + 5 * 4 : 5 * 4;
    if (h.size() < offset + 4)
        return std::nullopt;
    std::int32_t vocab = 0;
    std::memcpy(&vocab, h.constData() + offset, 4);
    vocab = std::abs(vocab);
    if (vocab <= 0)
        return std::nullopt;
    return vocab;
}

Result<std::unique_ptr<Tokenizer>> fromFolder(const QString& folder) {
    const QString json = QDir(folder).filePath(QStringLiteral("tokenizer.json"));
    if (!QFileInfo::exists(json))
        return Error::badInput(QStringLiteral("%1 has no tokenizer.json").arg(folder));
    return TokenizerJsonLoader::load(json);
}

// A tokenizer file of any supported kind; expectedVocab applies to a llama2.c tok.bin.
Result<std::unique_ptr<Tokenizer>> fromTokenizerPath(const QString& path, int expectedVocab) {
    const QFileInfo info(path);
    if (!info.exists())
        return Error::badInput(QStringLiteral("%1 does not exist").arg(path));
    if (info.isDir())
        return fromFolder(path);
    if (isGguf(path))
        return GgufVocabLoader::load(path);
    if (info.suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0)
        return TokenizerJsonLoader::load(path);
    Result<std::unique_ptr<Llama2cTokenizer>> tok = Llama2cTokenizer::load(path, expectedVocab);
    if (!tok)
        return tok.error();
    return std::unique_ptr<Tokenizer>(std::move(tok).value());
}

} // namespace

bool needsSeparateTokenizer(const QString& modelPath) {
    const QFileInfo model(modelPath);
    const QString suffix = model.suffix().toLower();
    return !modelPath.isEmpty() && model.isFile() && !isGguf(modelPath) && suffix != QLatin1String("json") &&
           suffix != QLatin1String("safetensors");
}

namespace {

// The tokenizer beside a llama2.c checkpoint and its path (see llama2cTokenizerBeside).
std::pair<QString, std::unique_ptr<Llama2cTokenizer>> findBeside(const QString& checkpoint) {
    const QFileInfo info(checkpoint);
    const std::optional<int> vocab = llama2cVocabSize(checkpoint);
    if (!vocab || !info.isFile())
        return {};
    const QDir dir = info.dir();
    QStringList candidates{QStringLiteral("tokenizer.bin")};
    candidates += dir.entryList({QStringLiteral("tok*.bin")}, QDir::Files, QDir::Name);
    for (const QString& name : candidates) {
        const QString path = dir.filePath(name);
        if (path == info.filePath() || !QFileInfo(path).isFile())
            continue;
        if (Result<std::unique_ptr<Llama2cTokenizer>> tok = Llama2cTokenizer::load(path, *vocab))
            return {path, std::move(tok).value()};
    }
    return {};
}

} // namespace

QString llama2cTokenizerBeside(const QString& checkpoint) {
    return findBeside(checkpoint).first;
}

Result<std::unique_ptr<Tokenizer>> loadTokenizer(const QString& modelPath, const QString& tokenizerPath) {
    const QFileInfo model(modelPath);
    if (!modelPath.isEmpty() && !model.exists())
        return Error::badInput(QStringLiteral("%1 does not exist").arg(modelPath));
    const bool llama2c = needsSeparateTokenizer(modelPath);
    if (!tokenizerPath.isEmpty()) {
        int expected = -1;
        if (llama2c) {
            const std::optional<int> vocab = llama2cVocabSize(modelPath);
            if (!vocab)
                return Error::badInput(
                    QStringLiteral("%1 is too short or corrupt for a llama2.c checkpoint header").arg(modelPath));
            expected = *vocab;
        }
        return fromTokenizerPath(tokenizerPath, expected);
    }
    if (modelPath.isEmpty())
        return Error::badInput(QStringLiteral("no model or tokenizer given"));
    if (model.isDir())
        return fromFolder(modelPath);
    if (isGguf(modelPath))
        return GgufVocabLoader::load(modelPath);
    if (model.suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0)
        return TokenizerJsonLoader::load(modelPath);
    if (model.suffix().compare(QLatin1String("bin"), Qt::CaseInsensitive) == 0) {
        if (auto beside = findBeside(modelPath); beside.second)
            return std::unique_ptr<Tokenizer>(std::move(beside.second));
        return Error::badInput(QStringLiteral("%1 is a llama2.c checkpoint, which needs its tokenizer file as well: "
                                              "give it (--tokenizer tok.bin) or put tokenizer.bin beside it")
                                   .arg(modelPath));
    }
    return Error::badInput(
        QStringLiteral("%1 is not a Hugging Face model folder, a GGUF file or a llama2.c checkpoint").arg(modelPath));
}

} // namespace swb
