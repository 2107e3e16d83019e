#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace swb {

// A non-modal bar above the tabs for errors: it stays until the user closes it (or the next error
// replaces it), unlike the status bar's passing messages (KeePassXC's MessageWidget).
class MessageBar final : public QFrame {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MessageBar)

public:
    explicit MessageBar(QWidget* parent = nullptr);
    void showError(const QString& text);
    QString text() const;

private:
    QLabel* m_text = nullptr;
    QToolButton* m_close = nullptr;
};

} // namespace swb
