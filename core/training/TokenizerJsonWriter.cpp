#include "training/TokenizerJsonWriter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "training/BpeTrainer.h"

namespace swb {

namespace {

QJsonObject byteLevel() {
    return {{QStringLiteral("type"), QStringLiteral("ByteLevel")},
            {QStringLiteral("add_prefix_space"), false},
            {QStringLiteral("trim_offsets"), true},
            {QStringLiteral("use_regex"), true}};
}

} // namespace

Status TokenizerJsonWriter::write(const BpeVocabulary& vocabulary, const QString& file) {
    QJsonArray added;
    for (int id = 0; id < vocabulary.specialCount; ++id)
        added.append(QJsonObject{{QStringLiteral("id"), id},
                                 {QStringLiteral("content"), QString::fromStdString(vocabulary.tokens[id])},
                                 {QStringLiteral("single_word"), false},
                                 {QStringLiteral("lstrip"), false},
                                 {QStringLiteral("rstrip"), false},
                                 {QStringLiteral("normalized"), false},
                                 {QStringLiteral("special"), true}});
    QJsonObject vocab;
    for (std::size_t id = 0; id < vocabulary.tokens.size(); ++id)
        vocab.insert(QString::fromStdString(vocabulary.tokens[id]), static_cast<int>(id));
    QJsonArray merges;
    for (const auto& [left, right] : vocabulary.merges)
        merges.append(QJsonArray{QString::fromStdString(left), QString::fromStdString(right)});

    QJsonValue postProcessor = QJsonValue::Null;
    if (vocabulary.specialCount > 0) {
        const QString start = QString::fromStdString(vocabulary.tokens.front());
        const QJsonObject startToken{{QStringLiteral("SpecialToken"),
                                      QJsonObject{{QStringLiteral("id"), start}, {QStringLiteral("type_id"), 0}}}};
        const auto sequence = [](const char* name, int type) {
            return QJsonObject{{QStringLiteral("Sequence"), QJsonObject{{QStringLiteral("id"), QLatin1String(name)},
                                                                        {QStringLiteral("type_id"), type}}}};
        };
        postProcessor = QJsonObject{
            {QStringLiteral("type"), QStringLiteral("TemplateProcessing")},
            {QStringLiteral("single"), QJsonArray{startToken, sequence("A", 0)}},
            {QStringLiteral("pair"), QJsonArray{startToken, sequence("A", 0), startToken, sequence("B", 1)}},
            {QStringLiteral("special_tokens"),
             QJsonObject{{start, QJsonObject{{QStringLiteral("id"), start},
                                             {QStringLiteral("ids"), QJsonArray{0}},
                                             {QStringLiteral("tokens"), QJsonArray{start}}}}}},
        };
    }
    const QJsonObject model{
        {QStringLiteral("type"), QStringLiteral("BPE")},
        {QStringLiteral("dropout"), QJsonValue::Null},
        {QStringLiteral("unk_token"), QJsonValue::Null},
        {QStringLiteral("continuing_subword_prefix"), QJsonValue::Null},
        {QStringLiteral("end_of_word_suffix"), QJsonValue::Null},
        {QStringLiteral("fuse_unk"), false},
        {QStringLiteral("byte_fallback"), false},
        {QStringLiteral("ignore_merges"), false},
        {QStringLiteral("vocab"), vocab},
        {QStringLiteral("merges"), merges},
    };
    const QJsonObject root{
        {QStringLiteral("version"), QStringLiteral("1.0")},
        {QStringLiteral("truncation"), QJsonValue::Null},
        {QStringLiteral("padding"), QJsonValue::Null},
        {QStringLiteral("added_tokens"), added},
        {QStringLiteral("normalizer"), QJsonValue::Null},
        {QStringLiteral("pre_tokenizer"), byteLevel()},
        {QStringLiteral("post_processor"), postProcessor},
        {QStringLiteral("decoder"), byteLevel()},
        {QStringLiteral("model"), model},
    };
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return Error::badInput(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    if (out.write(QJsonDocument(root).toJson(QJsonDocument::Indented)) < 0 || !out.flush())
        return Error::internal(QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    return {};
}

} // namespace swb
