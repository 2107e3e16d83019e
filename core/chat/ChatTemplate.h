#pragma once

#include <ctime>
#include <memory>
#include <optional>
#include <string>

#include <QString>

#include "Result.h"

namespace swb {

namespace jinja {
class Template;
}

// A model's chat template: how a conversation (system prompt, user and assistant turns, tool calls)
// becomes the one prompt text the model was trained on. Rendered by our Jinja engine with the variables
// transformers' apply_chat_template passes: messages, tools, add_generation_prompt, bos_token, eos_token.
class ChatTemplate {
public:
    // The template that ships with a model: a Hugging Face folder's chat_template.jinja, or the
    // chat_template of tokenizer_config.json (a string, or a list of named templates: "default"), or
    // chat_template.json; a GGUF file's tokenizer.chat_template. bos_token and eos_token come from the same
    // files. nullopt when the model has none (its prompt is then used raw); an error naming the file and
    // the template line when there is one that does not parse.
    static Result<std::optional<ChatTemplate>> forModel(const QString& modelPath);
    // A template the user gives: a file (a .jinja text, or a tokenizer_config.json / chat_template.json).
    // bos and eos strings default to those of modelPath's files when given.
    static Result<ChatTemplate> fromFile(const QString& path, const QString& modelPath = {});
    static Result<ChatTemplate> fromText(const std::string& source, const QString& origin);

    // conversationJson: a JSON array of messages ({"role", "content", ...}), or an object with "messages"
    // and optionally "tools". Keys keep their order (tojson of tools prints them as written).
    Result<std::string> render(const std::string& conversationJson, bool addGenerationPrompt) const;

    // Where the template came from ("tokenizer_config.json", "GGUF tokenizer.chat_template", a path).
    const QString& origin() const { return m_origin; }
    const std::string& source() const { return m_source; }
    const std::string& bosToken() const { return m_bos; }
    const std::string& eosToken() const { return m_eos; }
    void setSpecialTokens(std::string bos, std::string eos);
    // strftime_now's clock; unset: the current local time.
    void setNow(std::optional<std::time_t> now) { m_now = now; }

private:
    ChatTemplate() = default;
    std::shared_ptr<const jinja::Template> m_template;
    std::string m_source;
    QString m_origin;
    std::string m_bos;
    std::string m_eos;
    std::optional<std::time_t> m_now;
};

// Checks a conversation's JSON (the messages array, or {"messages", "tools"}) and names the first problem:
// not JSON, no messages, a message without a role.
Status validateConversation(const std::string& conversationJson);

// Whether a prompt entry is a conversation rather than text: a JSON object with a "messages" array (a
// line of a .jsonl prompt file, or of Compare's prompt list).
bool isConversationJson(const QString& entry);

} // namespace swb
