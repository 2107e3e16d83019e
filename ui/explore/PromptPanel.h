#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace swb {

class ConversationPanel;
class InferenceSession;
class Settings;

// Explore's input: a raw prompt or a conversation (tabs), Generate and Stop, the number of tokens to generate
// and a warning when that is more than the model's context holds. The conversation's chat template is the
// session's; its menu (a file, the user's own text, the model's own) is answered here.
class PromptPanel final : public QWidget {
    Q_OBJECT

public:
    PromptPanel(Settings& settings, InferenceSession& session, QWidget* parent = nullptr);

    QPlainTextEdit* promptEdit() const { return m_prompt; }
    ConversationPanel* conversation() const { return m_chat; }
    QSpinBox* maxTokens() const { return m_maxTokens; }
    QPushButton* generateButton() const { return m_generate; }
    QPushButton* stopButton() const { return m_stop; }
    // Generate (Ctrl+Return) and Stop (Esc) for the window's menu and shortcuts.
    QAction* generateAction() const { return m_generateAction; }
    QAction* stopAction() const { return m_stopAction; }
    bool isChatMode() const;
    void setChatMode(bool on);
    // Shows or hides the context warning for the loaded model.
    void updateContextWarning();
    void saveSettings();

signals:
    void generateRequested();
    void stopRequested();
    void chatModeChanged(bool chat);

private:
    void editTemplateText();
    // A conversation needs more room than a prompt: the input takes what it needs; a prompt keeps its few lines.
    void fitInput();

    Settings& m_settings;
    InferenceSession& m_session;
    QTabWidget* m_tabs = nullptr;
    QPlainTextEdit* m_prompt = nullptr;
    ConversationPanel* m_chat = nullptr;
    QSpinBox* m_maxTokens = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_contextWarning = nullptr;
    QAction* m_generateAction = nullptr;
    QAction* m_stopAction = nullptr;
};

} // namespace swb
