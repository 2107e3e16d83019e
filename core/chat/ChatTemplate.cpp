#include "chat/ChatTemplate.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "InputFile.h"
#include "chat/JinjaTemplate.h"
#include "chat/JinjaValue.h"
#include "formats/GgufFile.h"

namespace swb {

namespace {

using jinja::Value;

constexpr qint64 kMaxTemplateFile = 64 << 20;

Result<std::string> readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    Result<QByteArray> bytes = readWhole(file, path, kMaxTemplateFile);
    if (!bytes)
        return bytes.error();
    return bytes.value().toStdString();
}

Result<Value> readJson(const QString& path)
{
    Result<std::string> text = readFile(path);
    if (!text)
        return text.error();
    Value v;
    std::string error;
    if (!Value::fromJson(text.value(), &v, &error))
        return Error::badInput(QStringLiteral("%1 is not valid JSON: %2").arg(path, QString::fromStdString(error)));
    return v;
}

// bos_token / eos_token of a tokenizer_config.json: a string or an AddedToken object {"content": ...}.
std::string tokenName(const Value& config, const char* key)
{
    const Value* v = config.isMap() ? config.asMap().find(key) : nullptr;
    if (!v)
        return {};
    if (v->isString())
        return v->asString();
    if (v->isMap())
        if (const Value* content = v->asMap().find("content"); content && content->isString())
            return content->asString();
    return {};
}

// A chat_template value: a string, or a list of {"name", "template"} of which "default" is taken.
std::optional<std::string> templateText(const Value& value)
{
    if (value.isString())
        return value.asString();
    if (value.isList()) {
        std::optional<std::string> first;
        for (const Value& named : value.asList()) {
            if (!named.isMap())
                continue;
            const Value* name = named.asMap().find("name");
            const Value* text = named.asMap().find("template");
            if (!text || !text->isString())
                continue;
            if (name && name->isString() && name->asString() == "default")
                return text->asString();
            if (!first)
                first = text->asString();
        }
        return first;
    }
    return std::nullopt;
}

struct Found {
    std::string source;
    QString origin;
    std::string bos;
    std::string eos;
};

// What a model's files say: the template (if any) and its special token strings.
Result<std::optional<Found>> lookUp(const QString& modelPath)
{
    const QFileInfo info(modelPath);
    Found found;
    if (info.isDir()) {
        const QDir dir(modelPath);
        const QString configPath = dir.filePath(QStringLiteral("tokenizer_config.json"));
        std::optional<std::string> text;
        if (QFileInfo::exists(configPath)) {
            Result<Value> config = readJson(configPath);
            if (!config)
                return config.error();
            found.bos = tokenName(config.value(), "bos_token");
            found.eos = tokenName(config.value(), "eos_token");
            if (const Value* t = config->isMap() ? config->asMap().find("chat_template") : nullptr) {
                text = templateText(*t);
                found.origin = QStringLiteral("tokenizer_config.json");
            }
        }
        // transformers since 4.43 saves the template beside the config; that file wins.
        const QString jinjaPath = dir.filePath(QStringLiteral("chat_template.jinja"));
        const QString jsonPath = dir.filePath(QStringLiteral("chat_template.json"));
        if (QFileInfo::exists(jinjaPath)) {
            Result<std::string> t = readFile(jinjaPath);
            if (!t)
                return t.error();
            text = std::move(t).value();
            found.origin = QStringLiteral("chat_template.jinja");
        } else if (!text && QFileInfo::exists(jsonPath)) {
            Result<Value> json = readJson(jsonPath);
            if (!json)
                return json.error();
            if (const Value* t = json->isMap() ? json->asMap().find("chat_template") : nullptr)
                text = templateText(*t);
            found.origin = QStringLiteral("chat_template.json");
        }
        if (!text)
            return std::optional<Found>();
        found.source = std::move(*text);
        return std::optional<Found>(std::move(found));
    }
    if (info.suffix().compare(QLatin1String("gguf"), Qt::CaseInsensitive) == 0) {
        Result<GgufFile> file = GgufFile::open(modelPath);
        if (!file)
            return file.error();
        const std::optional<std::string> text = file->string("tokenizer.chat_template");
        if (!text)
            return std::optional<Found>();
        found.source = *text;
        found.origin = QStringLiteral("GGUF tokenizer.chat_template");
        if (const auto tokens = file->stringArray("tokenizer.ggml.tokens")) {
            const auto name = [&](const char* key) -> std::string {
                const std::optional<std::int64_t> id = file->integer(key);
                return id && *id >= 0 && std::size_t(*id) < tokens->size() ? (*tokens)[std::size_t(*id)] : std::string();
            };
            found.bos = name("tokenizer.ggml.bos_token_id");
            found.eos = name("tokenizer.ggml.eos_token_id");
        }
        return std::optional<Found>(std::move(found));
    }
    return std::optional<Found>(); // llama2.c checkpoints have no chat template
}

} // namespace

Result<ChatTemplate> ChatTemplate::fromText(const std::string& source, const QString& origin)
{
    Result<jinja::Template> parsed = jinja::Template::parse(source);
    if (!parsed)
        return Error::badInput(QStringLiteral("the chat template of %1 does not parse: %2").arg(origin, parsed.error().message));
    ChatTemplate t;
    t.m_template = std::make_shared<const jinja::Template>(std::move(parsed).value());
    t.m_source = source;
    t.m_origin = origin;
    return t;
}

Result<std::optional<ChatTemplate>> ChatTemplate::forModel(const QString& modelPath)
{
    Result<std::optional<Found>> found = lookUp(modelPath);
    if (!found)
        return found.error();
    if (!found.value())
        return std::optional<ChatTemplate>();
    Found& f = *found.value();
    Result<ChatTemplate> t = fromText(f.source, f.origin);
    if (!t)
        return t.error();
    t->setSpecialTokens(f.bos, f.eos);
    return std::optional<ChatTemplate>(std::move(t).value());
}

Result<ChatTemplate> ChatTemplate::fromFile(const QString& path, const QString& modelPath)
{
    std::string source;
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        Result<Value> json = readJson(path);
        if (!json)
            return json.error();
        const Value* t = json->isMap() ? json->asMap().find("chat_template") : nullptr;
        std::optional<std::string> text = t ? templateText(*t) : std::nullopt;
        if (!text)
            return Error::badInput(QStringLiteral("%1 has no chat_template").arg(path));
        source = std::move(*text);
    } else {
        Result<std::string> text = readFile(path);
        if (!text)
            return text.error();
        source = std::move(text).value();
    }
    Result<ChatTemplate> t = fromText(source, path);
    if (!t)
        return t.error();
    if (!modelPath.isEmpty()) {
        if (Result<std::optional<Found>> found = lookUp(modelPath); found && found.value())
            t->setSpecialTokens(found.value()->bos, found.value()->eos);
    }
    return t;
}

void ChatTemplate::setSpecialTokens(std::string bos, std::string eos)
{
    m_bos = std::move(bos);
    m_eos = std::move(eos);
}

namespace {

Result<Value> parseConversation(const std::string& conversationJson)
{
    Value parsed;
    std::string error;
    if (!Value::fromJson(conversationJson, &parsed, &error))
        return Error::badInput(QStringLiteral("the conversation is not valid JSON: %1").arg(QString::fromStdString(error)));
    Value conversation = Value::map();
    if (parsed.isList()) {
        conversation.asMap().set("messages", parsed);
    } else if (parsed.isMap()) {
        conversation = parsed;
    } else {
        return Error::badInput(QStringLiteral("a conversation is a JSON array of messages or an object with \"messages\""));
    }
    const Value* messages = conversation.asMap().find("messages");
    if (!messages || !messages->isList())
        return Error::badInput(QStringLiteral("the conversation has no \"messages\" array"));
    for (std::size_t i = 0; i < messages->asList().size(); ++i) {
        const Value& m = messages->asList()[i];
        const Value* role = m.isMap() ? m.asMap().find("role") : nullptr;
        if (!role || !role->isString())
            return Error::badInput(QStringLiteral("message %1 of the conversation has no \"role\"").arg(i + 1));
    }
    if (const Value* tools = conversation.asMap().find("tools"); tools && !tools->isList() && !tools->isNone())
        return Error::badInput(QStringLiteral("the conversation's \"tools\" is not an array"));
    return conversation;
}

} // namespace

Status validateConversation(const std::string& conversationJson)
{
    Result<Value> c = parseConversation(conversationJson);
    if (!c)
        return c.error();
    return {};
}

bool isConversationJson(const QString& entry)
{
    const QString trimmed = entry.trimmed();
    if (!trimmed.startsWith(QLatin1Char('{')) || !trimmed.contains(QLatin1String("\"messages\"")))
        return false;
    Result<Value> c = parseConversation(trimmed.toStdString());
    return c.ok();
}

Result<std::string> ChatTemplate::render(const std::string& conversationJson, bool addGenerationPrompt) const
{
    Result<Value> conversation = parseConversation(conversationJson);
    if (!conversation)
        return conversation.error();
    Value context = Value::map();
    auto& c = context.asMap();
    c.set("messages", *conversation->asMap().find("messages"));
    // No tools, no documents: None, as transformers passes them (templates test `tools is not none`), not
    // undefined.
    const Value* tools = conversation->asMap().find("tools");
    c.set("tools", tools && tools->isList() ? *tools : Value::none());
    c.set("documents", Value::none());
    for (const auto& [key, value] : conversation->asMap().entries)
        if (key != "messages" && key != "tools")
            c.set(key, value); // template switches such as enable_thinking
    c.set("add_generation_prompt", Value(addGenerationPrompt));
    if (!m_bos.empty())
        c.set("bos_token", Value(m_bos));
    if (!m_eos.empty())
        c.set("eos_token", Value(m_eos));
    if (m_now) {
        const std::time_t now = *m_now;
        c.set("strftime_now", Value::callable("strftime_now", [now](jinja::CallArgs& args) {
            std::tm t{};
            gmtime_r(&now, &t);
            char buf[512];
            const std::size_t n = std::strftime(buf, sizeof buf, args.get(0, "format").str().c_str(), &t);
            return Value(std::string(buf, n));
        }));
    }
    Result<std::string> out = m_template->render(context);
    if (!out)
        return Error::badInput(QStringLiteral("the chat template of %1 failed at %2").arg(m_origin, out.error().message));
    return out;
}

} // namespace swb
