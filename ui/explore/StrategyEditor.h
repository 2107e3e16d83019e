#pragma once

#include <cstdint>

#include <QJsonValue>
#include <QWidget>

#include "StrategySource.h"
#include "sampling/Strategy.h"

class QAction;
class QComboBox;
class QKeySequence;
class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QTabWidget;
class QTimer;
class QToolButton;
class QUndoStack;

namespace swb {

struct ParamSpec;

class RunRepository;
class StrategyFormatsDialog;

// Edits a strategy: the chain as a list (add from a menu of every sampler, remove, drag to
// reorder), a parameter form per sampler with its range and documented semantics, presets and
// engine orders, a JSON view that round-trips, the seed (with "new seed"), undo/redo of every
// edit, and named strategies saved in the run store.
class StrategyEditor final : public QWidget, public StrategySource {
    Q_OBJECT

public:
    explicit StrategyEditor(QWidget* parent = nullptr);
    ~StrategyEditor() override;

    // The current strategy, always valid (its seed included).
    const Strategy& strategy() const override { return m_strategy; }
    // Replaces the strategy as one undoable edit.
    void setStrategy(Strategy strategy, const QString& what = {});
    // The strategy in other tools' settings, both ways (shows the dialog; it follows the editor's strategy).
    StrategyFormatsDialog* openFormats();
    std::uint64_t seed() const;
    void setSeed(std::uint64_t seed);

    void setRepository(RunRepository* runs);
    QUndoStack* undoStack() const { return m_undo; }
    int selectedStage() const;
    void selectStage(int index);

    // Programmatic edits, each undoable (the same paths the widgets take).
    void setParameter(int stage, const QString& name, const QJsonValue& value);
    void addSampler(const QString& type);
    void removeStage(int stage);
    void moveStage(int from, int to);
    // Parses JSON text into the strategy; returns false (and shows why) when it is not valid.
    bool applyJsonText(const QString& text);
    QString jsonText() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void strategyChanged();
    void message(const QString& text);

private:
    QToolButton* makeEngineOrderButton();
    QAction* makeStackAction(const QString& label, const QKeySequence& key, bool redo);
    QWidget* makeChainPage();
    static bool isPreset(const Strategy& strategy, Strategy preset);
    class Snapshot;
    friend class Snapshot;
    void restore(const Strategy& strategy); // from undo/redo: no new command
    void commit(Strategy next, const QString& what, int mergeId = -1);
    void refresh();
    void showJson();
    void showPreset();
    void rebuildForm();
    QWidget* grammarTextField(int stage, const ParamSpec& param, const QJsonValue& value);
    void placeCursorAtError(QPlainTextEdit* text, const QString& error);
    void updateFormValues();
    void refreshSaved();
    void saveNamed();
    void newSeed();
    QMenu* buildAddMenu();

    Strategy m_strategy;
    QUndoStack* m_undo = nullptr;
    RunRepository* m_runs = nullptr;
    StrategyFormatsDialog* m_formats = nullptr;
    QComboBox* m_presets = nullptr;
    QComboBox* m_saved = nullptr;
    QLineEdit* m_seed = nullptr;
    QLineEdit* m_stop = nullptr;
    QListWidget* m_list = nullptr;
    QWidget* m_form = nullptr;
    QFormLayout* m_formLayout = nullptr;
    QLabel* m_formTitle = nullptr;
    QLabel* m_error = nullptr;
    QPlainTextEdit* m_json = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTimer* m_jsonDebounce = nullptr;
    QString m_formType; // type of the sampler the form was built for
    int m_formStage = -1;
    bool m_refreshing = false;
    bool m_applyingJson = false; // the change being made comes from the JSON text
};

} // namespace swb
