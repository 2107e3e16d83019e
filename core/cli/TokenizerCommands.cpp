// swb tokenize / swb detokenize: the model's own tokenization, for scripts and conformance tests.

#include <QFile>
#include <QIODevice>
#include <QStringList>

#include "cli/ModelArguments.h"
#include "cli/Subcommand.h"
#include "chat/JinjaValue.h"
#include "tokenizer/JsonCursor.h"
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


// The lines of a JSONL file ("-": standard input), numbered from 1, blank ones left out.
std::vector<std::pair<int, std::string>> jsonlLines(const QString& path) {
    QFile file;
    openInput(file, path);
    std::vector<std::pair<int, std::string>> lines;
    int number = 0;
    for (const QByteArray& line : readInput(file, path).split('\n')) {
        ++number;
        const QByteArray trimmed = line.trimmed();
        if (!trimmed.isEmpty())
            lines.emplace_back(number, trimmed.toStdString());
    }
    return lines;
}

QString idLine(const std::vector<TokenId>& ids) {
    QString line;
    line.reserve(static_cast<qsizetype>(ids.size()) * 6);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            line += QLatin1Char(' ');
        line += QString::number(ids[i]);
    }
    return line;
}

// swb tokenize --jsonl: each line a JSON string or {"text": ...}; one line of ids per text.
int runTokenizeMany(const Invocation& inv, const QString& path) {
    const std::vector<std::pair<int, std::string>> lines = jsonlLines(path);
    const std::unique_ptr<Tokenizer> tokenizer = loadFromOptions(inv);
    const bool addSpecial = inv.args.isSet(QStringLiteral("add-special"));
    const bool parseSpecial = inv.args.isSet(QStringLiteral("parse-special"));
    std::string text;
    for (const auto& [number, line] : lines) {
        JsonCursor cursor(line);
        bool found = false;
        if (cursor.peekType() == '"') {
            found = cursor.readString(&text) && cursor.atEnd();
        } else if (cursor.peekType() == '{' && cursor.beginObject()) {
            std::string key;
            while (cursor.nextKey(&key)) {
                if (key == "text" && cursor.peekType() == '"')
                    found = cursor.readString(&text);
                else
                    cursor.skipValue();
            }
            found = found && cursor.ok() && cursor.atEnd();
        }
        if (!found)
            failBadInput(QStringLiteral("%1, line %2: expected a JSON string or an object with a \"text\" string")
                             .arg(path == QLatin1String("-") ? QStringLiteral("standard input") : path)
                             .arg(number));
        inv.out << idLine(tokenizer->encode(text, addSpecial, parseSpecial)) << '\n';
    }
    return 0;
}

int runTokenize(const Invocation& inv) {
    const bool hasText = inv.args.isSet(QStringLiteral("text"));
    const bool hasFile = inv.args.isSet(QStringLiteral("file"));
    const bool hasJsonl = inv.args.isSet(QStringLiteral("jsonl"));
    if (int(hasText) + int(hasFile) + int(hasJsonl) != 1)
        failBadInput(QStringLiteral("give exactly one of --text, --file and --jsonl"));
    if (hasJsonl)
        return runTokenizeMany(inv, inv.args.value(QStringLiteral("jsonl")));
    std::string text;
    if (hasText) {
        text = inv.args.value(QStringLiteral("text")).toStdString();
    } else {
        const QString path = inv.args.value(QStringLiteral("file"));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            failBadInput(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        const QByteArray bytes = readInput(file, path); // exactly the file's bytes, final newline included
        text.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
    }
    const std::unique_ptr<Tokenizer> tokenizer = loadFromOptions(inv);
    const std::vector<TokenId> ids = tokenizer->encode(text, inv.args.isSet(QStringLiteral("add-special")),
                                                       inv.args.isSet(QStringLiteral("parse-special")));
    inv.out << idLine(ids) << '\n';
    return 0;
}

TokenId checkedId(const Tokenizer& tokenizer, long long id, const QString& where) {
    if (id < 0 || id >= tokenizer.vocabSize())
        failBadInput(QStringLiteral("%1%2 is not a token id of this vocabulary (0 to %3)")
                         .arg(where)
                         .arg(id)
                         .arg(tokenizer.vocabSize() - 1));
    return static_cast<TokenId>(id);
}

// swb detokenize --jsonl: each line a JSON array of ids or {"ids": [...]}; one JSON string per line out.
int runDetokenizeMany(const Invocation& inv, const QString& path) {
    const std::vector<std::pair<int, std::string>> lines = jsonlLines(path);
    const std::unique_ptr<Tokenizer> tokenizer = loadFromOptions(inv);
    const QString name = path == QLatin1String("-") ? QStringLiteral("standard input") : path;
    for (const auto& [lineNumber, line] : lines) {
        const int number = lineNumber; // clang 14 cannot capture a structured binding
        JsonCursor cursor(line);
        std::vector<TokenId> ids;
        bool found = false;
        const auto readIds = [&] {
            if (cursor.peekType() != '[' || !cursor.beginArray())
                return false;
            while (cursor.nextElement()) {
                long long id = 0;
                if (cursor.peekType() != 'n' || !cursor.readInteger(&id))
                    return false;
                ids.push_back(checkedId(*tokenizer, id, QStringLiteral("%1, line %2: ").arg(name).arg(number)));
            }
            return cursor.ok();
        };
        if (cursor.peekType() == '[') {
            found = readIds() && cursor.atEnd();
        } else if (cursor.peekType() == '{' && cursor.beginObject()) {
            std::string key;
            while (cursor.nextKey(&key)) {
                if (key == "ids")
                    found = readIds();
                else
                    cursor.skipValue();
            }
            found = found && cursor.ok() && cursor.atEnd();
        }
        if (!found)
            failBadInput(QStringLiteral("%1, line %2: expected a JSON array of token ids or an object with \"ids\"")
                             .arg(name)
                             .arg(number));
        writeBytes(inv.out, jinja::Value(tokenizer->decode(ids)).toJson() + "\n");
    }
    return 0;
}

int runDetokenize(const Invocation& inv) {
    if (inv.args.isSet(QStringLiteral("jsonl")))
        return runDetokenizeMany(inv, inv.args.value(QStringLiteral("jsonl")));
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
         QStringLiteral("swb tokenize --model PATH [--tokenizer PATH] (--text T | --file F | --jsonl FILE) "
                        "[--add-special] [--parse-special]"),
         QStringLiteral("Print the token ids of a text, space separated on one line. No special tokens are added "
                        "unless --add-special; text spelling a special token is ordinary text unless "
                        "--parse-special. --file is read as raw bytes."),
         [](QCommandLineParser& parser) {
             declareModelOptions(parser);
             parser.addOption({QStringLiteral("text"), QStringLiteral("The text (UTF-8)."), QStringLiteral("T")});
             parser.addOption({QStringLiteral("file"), QStringLiteral("Read the text from this file, byte for byte."),
                               QStringLiteral("F")});
             parser.addOption({QStringLiteral("jsonl"),
                               QStringLiteral("Many texts: one JSON string or {\"text\": ...} per line (- for stdin); "
                                              "prints one line of ids per text."),
                               QStringLiteral("FILE")});
             parser.addOption({QStringLiteral("add-special"), QStringLiteral("Add BOS/EOS as the vocabulary asks.")});
             parser.addOption({QStringLiteral("parse-special"),
                               QStringLiteral("Let text such as <s> stand for its special token.")});
         },
         runTokenize},
        {QStringLiteral("detokenize"), QStringLiteral("swb detokenize --model PATH [--tokenizer PATH] (ID... | --jsonl FILE)"),
         QStringLiteral("Print the text of token ids exactly as decoded (raw bytes, no newline added); special "
                        "tokens decode to nothing."),
         [](QCommandLineParser& parser) {
             declareModelOptions(parser);
             parser.addPositionalArgument(QStringLiteral("ID"), QStringLiteral("Token ids."), QStringLiteral("ID..."));
             parser.addOption({QStringLiteral("jsonl"),
                               QStringLiteral("Many sequences: a JSON array of ids or {\"ids\": [...]} per line (- for "
                                              "stdin); prints each text as a JSON string on its own line."),
                               QStringLiteral("FILE")});
         },
         runDetokenize},
    };
}

} // namespace swb::cli
