#pragma once

#include <memory>
#include <optional>
#include <string>

#include <QWidget>

#include "Result.h"
#include "chat/ChatTemplate.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QTextEdit;
class QToolButton;

namespace swb {

class Tokenizer;

// Explore's conversation mode: a system prompt, the turns so far (user and assistant), the next user
// message, and the prompt the model's chat template renders from them (viewable, its special tokens
// highlighted as the tokenizer reads them). Without a chat template the messages are used as raw text,
// and the panel says so.
class ConversationPanel final : public QWidget {
    Q_OBJECT

public:
    explicit ConversationPanel(QWidget* parent = nullptr);

    // The loaded model's template (nullopt: none; note says why), and its tokenizer for the prompt view.
    void setChatTemplate(std::optional<ChatTemplate> chatTemplate, const QString& note);
    void setTokenizer(std::shared_ptr<const Tokenizer> tokenizer);
    bool hasTemplate() const { return m_template.has_value(); }
    const std::optional<ChatTemplate>& chatTemplate() const { return m_template; }

    // What the next generation sends: the conversation as JSON (system, turns, the typed message) and the
    // prompt rendered from it (with the assistant's header), or why it cannot be rendered.
    struct Prepared {
        std::string conversationJson;
        std::string prompt;
    };
    Result<Prepared> prepare() const;
    // The typed message became a turn (a generation started with it).
    void commitMessage();
    // The assistant's reply to the last user turn: replaces a reply already there, else is appended.
    void setReply(const QString& text);
    // Shows a stored conversation (a run's messages) and the reply it got.
    void setConversation(const QString& messagesJson, const QString& reply);
    void clear();

    QLineEdit* systemEdit() const { return m_system; }
    QPlainTextEdit* messageEdit() const { return m_message; }
    QListWidget* turns() const { return m_turns; }
    QTextEdit* renderedView() const { return m_rendered; }
    QLabel* templateNote() const { return m_note; }

signals:
    void templateFileRequested();
    void templateTextRequested();
    void modelTemplateRequested();

private:
    QString messagesJson(bool withTypedMessage) const;
    void addTurn(const QString& role, const QString& content);
    void continueFromSelected();
    void updateRendered();

    std::optional<ChatTemplate> m_template;
    std::shared_ptr<const Tokenizer> m_tokenizer;
    QLineEdit* m_system = nullptr;
    QListWidget* m_turns = nullptr;
    QPlainTextEdit* m_message = nullptr;
    QLabel* m_note = nullptr;
    QToolButton* m_templateButton = nullptr;
    QToolButton* m_showRendered = nullptr;
    QToolButton* m_continue = nullptr;
    QTextEdit* m_rendered = nullptr;
};

} // namespace swb
