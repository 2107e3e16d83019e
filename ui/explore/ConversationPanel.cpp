#include "explore/ConversationPanel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QTextEdit>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "tokenizer/Tokenizer.h"

namespace swb {

namespace {

constexpr int kRoleRole = Qt::UserRole;
constexpr int kContentRole = Qt::UserRole + 1;

QString turnLabel(const QString& role, const QString& content)
{
    const QString who = role == QLatin1String("user")        ? ConversationPanel::tr("You")
                      : role == QLatin1String("assistant")   ? ConversationPanel::tr("Assistant")
                                                             : role;
    QString shown = content;
    shown.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
    return QStringLiteral("%1: %2").arg(who, shown);
}

} // namespace

ConversationPanel::ConversationPanel(QWidget* parent)
    : QWidget(parent)
{
    m_system = new QLineEdit(this);
    m_system->setObjectName(QStringLiteral("chatSystem"));
    m_system->setPlaceholderText(tr("System prompt (optional)"));
    m_system->setClearButtonEnabled(true);

    m_turns = new QListWidget(this);
    m_turns->setObjectName(QStringLiteral("chatTurns"));
    m_turns->setWordWrap(true);
    m_turns->setToolTip(tr("The conversation so far; select an assistant turn and press Continue from here to "
                           "drop what came after it"));
    // Small minimums: at 1024x700 the whole of Explore in chat mode must fit the screen (it was 29 px taller).
    m_turns->setMinimumHeight(16);

    m_message = new QPlainTextEdit(this);
    m_message->setObjectName(QStringLiteral("chatMessage"));
    m_message->setPlaceholderText(tr("Your message, then Generate (Ctrl+Return)"));
    m_message->setMaximumHeight(52);
    m_message->setMinimumHeight(30);

    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("chatTemplateNote"));
    m_note->setWordWrap(true);
    m_templateButton = new QToolButton(this);
    m_templateButton->setObjectName(QStringLiteral("chatTemplateButton"));
    m_templateButton->setText(tr("Template"));
    m_templateButton->setToolTip(tr("Choose the chat template: a file, text of your own, or the model's"));
    m_templateButton->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_templateButton);
    menu->addAction(tr("Load from &File…"), this, &ConversationPanel::templateFileRequested);
    menu->addAction(tr("&Edit Template Text…"), this, &ConversationPanel::templateTextRequested);
    menu->addAction(tr("Use the &Model's Own"), this, &ConversationPanel::modelTemplateRequested);
    m_templateButton->setMenu(menu);
    m_showRendered = new QToolButton(this);
    m_showRendered->setObjectName(QStringLiteral("showRenderedPrompt"));
    m_showRendered->setText(tr("Rendered prompt"));
    m_showRendered->setCheckable(true);
    m_showRendered->setToolTip(tr("Show the prompt the chat template makes of this conversation, special tokens "
                                  "highlighted"));
    m_continue = new QToolButton(this);
    m_continue->setObjectName(QStringLiteral("continueFromHere"));
    m_continue->setText(tr("Continue from here"));
    m_continue->setEnabled(false);
    connect(m_continue, &QToolButton::clicked, this, &ConversationPanel::continueFromSelected);
    connect(m_turns, &QListWidget::currentRowChanged, this, [this](int row) {
        m_continue->setEnabled(row >= 0 && row + 1 < m_turns->count());
    });

    m_rendered = new QTextEdit(this);
    m_rendered->setObjectName(QStringLiteral("renderedPrompt"));
    m_rendered->setReadOnly(true);
    m_rendered->setVisible(false);
    m_rendered->setMinimumHeight(60);
    // The rendered prompt takes the place of the turns while it is shown.
    connect(m_showRendered, &QToolButton::toggled, this, [this](bool on) {
        m_rendered->setVisible(on);
        m_turns->setVisible(!on);
        updateRendered();
    });

    auto* header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->addWidget(m_system, 1);
    header->addWidget(m_templateButton);
    header->addWidget(m_showRendered);
    header->addWidget(m_continue);
    // The note alone on its line: beside a button it wrapped to two at 1024 px.
    auto* footer = new QHBoxLayout;
    footer->setContentsMargins(0, 0, 0, 0);
    footer->addWidget(m_note, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(3);
    layout->addLayout(header);
    layout->addWidget(m_turns, 1);
    layout->addWidget(m_rendered, 1);
    layout->addWidget(m_message);
    layout->addLayout(footer);

    auto* debounce = new QTimer(this);
    debounce->setSingleShot(true);
    debounce->setInterval(150);
    connect(debounce, &QTimer::timeout, this, &ConversationPanel::updateRendered);
    connect(m_system, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(m_message, &QPlainTextEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    setChatTemplate(std::nullopt, tr("No model loaded"));
}

void ConversationPanel::setChatTemplate(std::optional<ChatTemplate> chatTemplate, const QString& note)
{
    m_template = std::move(chatTemplate);
    if (m_template) {
        m_note->setText(tr("Chat template: %1").arg(m_template->origin()));
        m_note->setStyleSheet(QString());
    } else {
        m_note->setText(tr("%1; the messages go in as raw text.").arg(note));
        m_note->setStyleSheet(QStringLiteral("color: #a15c00;"));
    }
    updateRendered();
}

void ConversationPanel::setTokenizer(std::shared_ptr<const Tokenizer> tokenizer)
{
    m_tokenizer = std::move(tokenizer);
    updateRendered();
}

QString ConversationPanel::messagesJson(bool withTypedMessage) const
{
    QJsonArray messages;
    if (!m_system->text().trimmed().isEmpty())
        messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                    {QStringLiteral("content"), m_system->text()}});
    for (int i = 0; i < m_turns->count(); ++i)
        messages.append(QJsonObject{{QStringLiteral("role"), m_turns->item(i)->data(kRoleRole).toString()},
                                    {QStringLiteral("content"), m_turns->item(i)->data(kContentRole).toString()}});
    if (withTypedMessage && !m_message->toPlainText().isEmpty())
        messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("content"), m_message->toPlainText()}});
    return QString::fromUtf8(QJsonDocument(messages).toJson(QJsonDocument::Compact));
}

Result<ConversationPanel::Prepared> ConversationPanel::prepare() const
{
    Prepared prepared;
    prepared.conversationJson = messagesJson(true).toStdString();
    const bool typed = !m_message->toPlainText().isEmpty();
    const bool endsWithUser = m_turns->count() > 0
        && m_turns->item(m_turns->count() - 1)->data(kRoleRole).toString() == QLatin1String("user");
    if (!typed && !endsWithUser)
        return Error::badInput(tr("Type a message for the assistant to answer."));
    if (m_template) {
        Result<std::string> prompt = m_template->render(prepared.conversationJson, true);
        if (!prompt)
            return prompt.error();
        prepared.prompt = std::move(prompt).value();
    } else {
        // Raw: the messages' texts one after another.
        QStringList parts;
        const QJsonArray messages = QJsonDocument::fromJson(QByteArray::fromStdString(prepared.conversationJson)).array();
        for (const QJsonValue& m : messages)
            parts << m.toObject().value(QLatin1String("content")).toString();
        prepared.prompt = parts.join(QLatin1Char('\n')).toStdString();
    }
    return prepared;
}

void ConversationPanel::addTurn(const QString& role, const QString& content)
{
    auto* item = new QListWidgetItem(turnLabel(role, content), m_turns);
    item->setData(kRoleRole, role);
    item->setData(kContentRole, content);
    if (role == QLatin1String("user"))
        item->setForeground(QColor(0x1f, 0x4e, 0x9e));
    m_turns->scrollToBottom();
}

void ConversationPanel::commitMessage()
{
    if (!m_message->toPlainText().isEmpty())
        addTurn(QStringLiteral("user"), m_message->toPlainText());
    m_message->clear();
    updateRendered();
}

void ConversationPanel::setReply(const QString& text)
{
    const int last = m_turns->count() - 1;
    if (last >= 0 && m_turns->item(last)->data(kRoleRole).toString() == QLatin1String("assistant")) {
        m_turns->item(last)->setData(kContentRole, text);
        m_turns->item(last)->setText(turnLabel(QStringLiteral("assistant"), text));
    } else {
        addTurn(QStringLiteral("assistant"), text);
    }
    updateRendered();
}

void ConversationPanel::setConversation(const QString& messagesJson, const QString& reply)
{
    m_turns->clear();
    m_system->clear();
    for (const QJsonValue& v : QJsonDocument::fromJson(messagesJson.toUtf8()).array()) {
        const QJsonObject m = v.toObject();
        const QString role = m.value(QLatin1String("role")).toString();
        const QString content = m.value(QLatin1String("content")).toString();
        if (role == QLatin1String("system") && m_turns->count() == 0 && m_system->text().isEmpty())
            m_system->setText(content);
        else
            addTurn(role, content);
    }
    setReply(reply);
}

void ConversationPanel::clear()
{
    m_turns->clear();
    m_message->clear();
    updateRendered();
}

void ConversationPanel::continueFromSelected()
{
    const int row = m_turns->currentRow();
    while (row >= 0 && m_turns->count() > row + 1)
        delete m_turns->takeItem(m_turns->count() - 1);
    m_message->setFocus();
    updateRendered();
}

void ConversationPanel::updateRendered()
{
    if (!m_rendered->isVisible())
        return;
    Result<Prepared> prepared = prepare();
    if (!prepared) {
        // An empty message still shows what the conversation so far renders to.
        if (m_template) {
            Result<std::string> soFar = m_template->render(messagesJson(false).toStdString(), true);
            if (!soFar) {
                m_rendered->setPlainText(soFar.error().message);
                return;
            }
            prepared = Prepared{messagesJson(false).toStdString(), soFar.value()};
        } else {
            m_rendered->setPlainText(prepared.error().message);
            return;
        }
    }
    const std::string& prompt = prepared->prompt;
    if (!m_tokenizer) {
        m_rendered->setPlainText(QString::fromStdString(prompt));
        return;
    }
    // The prompt as the tokenizer reads it: special tokens highlighted.
    const std::vector<TokenId> ids = m_tokenizer->encode(prompt, !m_template, m_template.has_value());
    StreamingDecoder decoder(*m_tokenizer);
    QString html = QStringLiteral("<pre style=\"white-space: pre-wrap; margin: 0\">");
    int specials = 0;
    for (TokenId id : ids) {
        if (m_tokenizer->isSpecial(id)) {
            ++specials;
            html += QStringLiteral("<span style=\"background:#ffe3a3; color:#6b3e00\">%1</span>")
                        .arg(QString::fromStdString(m_tokenizer->tokenText(id)).toHtmlEscaped());
        } else {
            html += QString::fromStdString(decoder.push(id)).toHtmlEscaped();
        }
    }
    html += QString::fromStdString(decoder.flush()).toHtmlEscaped() + QStringLiteral("</pre>");
    html += QStringLiteral("<p style=\"color:gray\">%1</p>")
                .arg(tr("%n token(s), %1 special", nullptr, int(ids.size())).arg(specials));
    m_rendered->setHtml(html);
}

} // namespace swb
