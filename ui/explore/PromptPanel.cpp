#include "explore/PromptPanel.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "InferenceSession.h"
#include "Settings.h"
#include "explore/ConversationPanel.h"

namespace swb {

PromptPanel::PromptPanel(Settings& settings, InferenceSession& session, QWidget* parent)
    : QWidget(parent)
    , m_settings(settings)
    , m_session(session) {
    m_prompt = new QPlainTextEdit(this);
    m_prompt->setObjectName(QStringLiteral("prompt"));
    m_prompt->setPlaceholderText(tr("Type a prompt, then Generate (Ctrl+Return)"));
    m_prompt->setPlainText(m_settings.get(settings::explorePrompt));
    m_prompt->setMaximumHeight(64);
    m_chat = new ConversationPanel(this);
    m_chat->systemEdit()->setText(m_settings.get(settings::exploreSystemPrompt));
    connect(m_chat, &ConversationPanel::templateFileRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Chat Template"), QString(),
                                                          tr("Chat templates (*.jinja *.json);;All files (*)"));
        if (!path.isEmpty())
            m_session.setChatTemplateFile(path);
    });
    connect(m_chat, &ConversationPanel::templateTextRequested, this, &PromptPanel::editTemplateText);
    connect(m_chat, &ConversationPanel::modelTemplateRequested, this, [this] {
        m_session.setChatTemplateText({});
        m_session.setChatTemplateFile({});
    });
    connect(&m_session, &InferenceSession::chatTemplateChanged, this, [this] {
        m_chat->setTokenizer(m_session.model()->tokenizer);
        m_chat->setChatTemplate(m_session.chatTemplate(), m_session.chatTemplateNote());
    });
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("inputMode"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_prompt, tr("&Prompt"));
    m_tabs->addTab(m_chat, tr("C&hat"));
    m_tabs->setTabToolTip(0, tr("A raw prompt, continued as it is"));
    m_tabs->setTabToolTip(1, tr("A conversation, rendered with the model's chat template; the model writes the "
                                "assistant's next turn"));
    m_tabs->setCurrentIndex(m_settings.get(settings::exploreChatMode) ? 1 : 0);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        fitInput();
        emit chatModeChanged(isChatMode());
    });
    m_maxTokens = new QSpinBox(this);
    m_maxTokens->setObjectName(QStringLiteral("maxTokens"));
    m_maxTokens->setRange(1, 100000);
    m_maxTokens->setValue(m_settings.get(settings::exploreMaxTokens));
    m_maxTokens->setPrefix(tr("max "));
    m_maxTokens->setSuffix(tr(" tokens"));
    // More tokens than the model's context holds: the run ends at the context limit, so say so beside it.
    m_contextWarning = new QLabel(this);
    m_contextWarning->setObjectName(QStringLiteral("contextWarning"));
    m_contextWarning->setWordWrap(true);
    m_contextWarning->setStyleSheet(QStringLiteral("color: #b35c00;"));
    m_contextWarning->hide();
    connect(m_maxTokens, qOverload<int>(&QSpinBox::valueChanged), this, &PromptPanel::updateContextWarning);
    m_generate = new QPushButton(tr("&Generate"), this);
    m_generate->setObjectName(QStringLiteral("generate"));
    m_generate->setToolTip(tr("Generate from the prompt with this strategy (Ctrl+Return)"));
    m_generate->setDefault(true);
    m_stop = new QPushButton(tr("&Stop"), this);
    m_stop->setObjectName(QStringLiteral("stop"));
    m_stop->setToolTip(tr("Stop generating (Esc)"));
    connect(m_generate, &QPushButton::clicked, this, &PromptPanel::generateRequested);
    connect(m_stop, &QPushButton::clicked, this, &PromptPanel::stopRequested);
    m_generateAction = new QAction(tr("&Generate"), this);
    m_generateAction->setObjectName(QStringLiteral("actionGenerate"));
    m_generateAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    connect(m_generateAction, &QAction::triggered, this, &PromptPanel::generateRequested);
    m_stopAction = new QAction(tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("actionStop"));
    m_stopAction->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_stopAction, &QAction::triggered, this, &PromptPanel::stopRequested);

    auto* promptRow = new QHBoxLayout;
    promptRow->addWidget(m_tabs, 1);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(m_generate);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_maxTokens);
    promptRow->addLayout(buttons);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(promptRow, 1);
    layout->addWidget(m_contextWarning); // the full width: one line, not a column under the buttons
    fitInput();
}

bool PromptPanel::isChatMode() const {
    return m_tabs->currentWidget() == m_chat;
}

void PromptPanel::setChatMode(bool on) {
    m_tabs->setCurrentWidget(on ? static_cast<QWidget*>(m_chat) : m_prompt);
}

void PromptPanel::fitInput() {
    m_tabs->setMaximumHeight(isChatMode() ? QWIDGETSIZE_MAX
                                          : m_prompt->maximumHeight() + m_tabs->tabBar()->sizeHint().height() + 4);
}

void PromptPanel::updateContextWarning() {
    const int context = m_session.model() ? m_session.model()->info.contextLength : 0;
    const bool past = context > 0 && m_maxTokens->value() >= context;
    m_contextWarning->setText(
        past ? tr("The context holds %1 tokens, the prompt's included: the run ends sooner.").arg(context) : QString());
    m_contextWarning->setVisible(past);
}

void PromptPanel::editTemplateText() {
    if (!m_session.model())
        return;
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Chat Template"));
    auto* edit = new QPlainTextEdit(&dialog);
    edit->setObjectName(QStringLiteral("chatTemplateText"));
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const QString own = m_session.chatTemplateText();
    edit->setPlainText(!own.isEmpty()             ? own
                       : m_session.chatTemplate() ? QString::fromStdString(m_session.chatTemplate()->source())
                                                  : QString());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(new QLabel(
        tr("Jinja template; messages, add_generation_prompt, bos_token and eos_token are defined."), &dialog));
    layout->addWidget(edit, 1);
    layout->addWidget(buttons);
    dialog.resize(720, 480);
    if (dialog.exec() == QDialog::Accepted)
        m_session.setChatTemplateText(edit->toPlainText());
}

void PromptPanel::saveSettings() {
    m_settings.set(settings::explorePrompt, m_prompt->toPlainText());
    m_settings.set(settings::exploreChatMode, isChatMode());
    m_settings.set(settings::exploreSystemPrompt, m_chat->systemEdit()->text());
    m_settings.set(settings::exploreMaxTokens, m_maxTokens->value());
}

} // namespace swb
