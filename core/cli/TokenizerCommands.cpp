// swb tokenize / swb detokenize: the model's own tokenization, for scripts and conformance tests.

#include <QFile>
#include <QIODevice>
#include <QStringList>

#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb::cli {

namespace {

void declareModelOptions(QCommandLineParser& parser) {
    parser.addOption({QStringLiteral("model"),
                      QStringLiteral("Hugging Face folder, .gguf file, or llama2.c .bin (with --tokenizer)."),
                      QStringLiteral("PATH")});
    parser.addOption({QStringLiteral("tokenizer"),
                      QStringLiteral("Tokenizer to use instead of the model's: tokenizer.json, .gguf or tok.bin."),
                      QStringLiteral("PATH")});
}

std::unique_ptr<Tokenizer> loadFromOptions(const Invocation& inv) {
    const QString model = modelPathArgument(inv); // the bundled demo model when --model is absent
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(model, inv.args.value(QStringLiteral("tokenizer")));
    if (!tokenizer)
        throw Failure{tokenizer.error().kind == ErrorKind::BadInput ? 2 : 1, tokenizer.error().message};
    return std::move(tokenizer).value();
}

// Bytes as they are: decoded text may hold any byte sequence, which a QString round trip would mangle.
void writeBytes(QTextStream& out, const std::string& bytes) {
    out.flush();
    if (QIODevice* device = out.device()) {
        device->write(bytes.data(), static_cast<qint64>(bytes.size()));
        if (auto* file = qobject_cast<QFile*>(device))
            file->flush();
    } else {
        out << QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
    }
}

int runTokenize(const Invocation& inv) {
    const bool hasText = inv.args.isSet(QStringLiteral("text"));
    const bool hasFile = inv.args.isSet(QStringLiteral("file"));
    if (hasText == hasFile)
        failBadInput(QStringLiteral("give exactly one of --text and --file"));
    std::string text;
    if (hasText) {
        text = inv.args.value(QStringLiteral("text")).toStdString();
    } else {
        const QString path = inv.args.value(QStringLiteral("file"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            failBadInput(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        const QByteArray bytes = file.readAll(); // exactly the file's bytes, final newline included
        text.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    }
    const std::unique_ptr<Tokenizer> tokenizer = loadFromOptions(inv);
    const std::vector<TokenId> ids = tokenizer->encode(text, inv.args.isSet(QStringLiteral("add-special")),
                                                       inv.args.isSet(QStringLiteral("parse-special")));
    QString line;
    line.reserve(static_cast<qsizetype>(ids.size()) * 6);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            line += QLatin1Char(' ');
        line += QString::number(ids[i]);
    }
    inv.out << line << '\n';
    return 0;
}

int runDetokenize(const Invocation& inv) {
    const std::unique_ptr<Tokenizer> tokenizer = loadFromOptions(inv);
    std::vector<TokenId> ids;
    for (const QString& arg : inv.args.positionalArguments()) {
        // Scripts pass the output of `swb tokenize` as one argument as well as one id per argument.
        for (const QString& word : arg.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int id = word.toInt(&ok);
            if (!ok || id < 0 || id >= tokenizer->vocabSize())
                failBadInput(QStringLiteral("'%1' is not a token id of this vocabulary (0 to %2)")
                                 .arg(word)
                                 .arg(tokenizer->vocabSize() - 1));
            ids.push_back(id);
        }
    }
    writeBytes(inv.out, tokenizer->decode(ids));
    return 0;
}

} // namespace

std::vector<Subcommand> tokenizerSubcommands() {
    return {
        {QStringLiteral("tokenize"),
         QStringLiteral("swb tokenize --model PATH [--tokenizer PATH] (--text T | --file F) [--add-special] "
                        "[--parse-special]"),
         QStringLiteral("Print the token ids of a text, space separated on one line. No special tokens are added "
                        "unless --add-special; text spelling a special token is ordinary text unless "
                        "--parse-special. --file is read as raw bytes."),
         [](QCommandLineParser& parser) {
             declareModelOptions(parser);
             parser.addOption({QStringLiteral("text"), QStringLiteral("The text (UTF-8)."), QStringLiteral("T")});
             parser.addOption({QStringLiteral("file"), QStringLiteral("Read the text from this file, byte for byte."),
                               QStringLiteral("F")});
             parser.addOption({QStringLiteral("add-special"), QStringLiteral("Add BOS/EOS as the vocabulary asks.")});
             parser.addOption({QStringLiteral("parse-special"),
                               QStringLiteral("Let text such as <s> stand for its special token.")});
         },
         runTokenize},
        {QStringLiteral("detokenize"), QStringLiteral("swb detokenize --model PATH [--tokenizer PATH] ID..."),
         QStringLiteral("Print the text of token ids exactly as decoded (raw bytes, no newline added); special "
                        "tokens decode to nothing."),
         [](QCommandLineParser& parser) {
             declareModelOptions(parser);
             parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("Token ids."), QStringLiteral("ID..."));
         },
         runDetokenize},
    };
}

} // namespace swb::cli
