#pragma once

#include <QDialog>

#include "sampling/Strategy.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace swb {

// The strategy in other tools' settings (llama.cpp JSON or flags, a text-generation-webui or SillyTavern
// preset, a transformers generation_config), both ways: Export shows the editor's strategy in the chosen format
// to copy or save, Import reads one (typed, pasted or from a file) and, once it makes a strategy, hands it to
// the editor. Both say what does not translate.
class StrategyFormatsDialog final : public QDialog {
    Q_OBJECT

public:
    explicit StrategyFormatsDialog(QWidget* parent = nullptr);

    void setStrategy(const Strategy& strategy);
    QComboBox* formatBox() const { return m_format; }
    QPlainTextEdit* exported() const { return m_exported; }
    QPlainTextEdit* importText() const { return m_import; }
    QLabel* notes() const { return m_notes; }
    QTabWidget* tabs() const { return m_tabs; }
    // Reads the Import tab's text; the strategy it makes is emitted on success.
    bool importNow();

signals:
    void strategyImported(const swb::Strategy& strategy, const QString& format);

private:
    void refresh();

    Strategy m_strategy;
    QTabWidget* m_tabs = nullptr;
    QComboBox* m_format = nullptr;
    QPlainTextEdit* m_exported = nullptr;
    QPlainTextEdit* m_import = nullptr;
    QPushButton* m_use = nullptr;
    QLabel* m_notes = nullptr;
};

} // namespace swb
