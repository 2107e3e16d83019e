#include "explore/StrategyEditor.h"
#include "explore/SamplerTexts.h"
#include "explore/StrategyFormatsDialog.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QRandomGenerator>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextCursor>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include "JsonError.h"
#include "grammar/Grammar.h"
#include "sampling/SamplerRegistry.h"
#include "storage/RunRepository.h"

namespace swb {

// One edit: the whole strategy before and after (strategies are small).
class StrategyEditor::Snapshot final : public QUndoCommand {
public:
    Snapshot(StrategyEditor* editor, Strategy before, Strategy after, const QString& text, int mergeId)
        : QUndoCommand(text)
        , m_editor(editor)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_mergeId(mergeId) {}
    void undo() override { m_editor->restore(m_before); }
    void redo() override { m_editor->restore(m_after); }
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override {
        m_after = static_cast<const Snapshot*>(other)->m_after;
        return true;
    }

private:
    StrategyEditor* m_editor;
    Strategy m_before;
    Strategy m_after;
    int m_mergeId;
};

namespace {

// Stop strings in one line: separated by |, with \n, \t, \| and \\ for a newline, a tab, a bar and a
// backslash.
QString stopText(const std::vector<std::string>& stops) {
    QStringList parts;
    for (const std::string& stop : stops) {
        QString part;
        for (const QChar c : QString::fromStdString(stop)) {
            if (c == QLatin1Char('\\'))
                part += QStringLiteral("\\\\");
            else if (c == QLatin1Char('|'))
                part += QStringLiteral("\\|");
            else if (c == QLatin1Char('\n'))
                part += QStringLiteral("\\n");
            else if (c == QLatin1Char('\t'))
                part += QStringLiteral("\\t");
            else
                part += c;
        }
        // Spaces at either end belong to the stop string: escaped, so the layout's spaces stay apart.
        const bool lead = part.startsWith(QLatin1Char(' '));
        const bool trail = part.size() > 1 && part.endsWith(QLatin1Char(' '));
        if (trail)
            part.replace(part.size() - 1, 1, QStringLiteral("\\ "));
        if (lead)
            part.replace(0, 1, QStringLiteral("\\ "));
        parts << part;
    }
    return parts.join(QStringLiteral(" | "));
}

std::vector<std::string> parseStopText(const QString& text) {
    // Split at unescaped bars; the spaces around a bar are layout (write "\ " for a space that belongs).
    QStringList raw{QString()};
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('\\') && i + 1 < text.size()) {
            raw.back() += text.mid(i, 2);
            ++i;
        } else if (text[i] == QLatin1Char('|')) {
            raw << QString();
        } else {
            raw.back() += text[i];
        }
    }
    std::vector<std::string> stops;
    for (QString part : raw) {
        while (part.startsWith(QLatin1Char(' ')))
            part.remove(0, 1);
        while (part.endsWith(QLatin1Char(' ')) && !part.endsWith(QStringLiteral("\\ ")))
            part.chop(1);
        QString stop;
        for (qsizetype i = 0; i < part.size(); ++i) {
            if (part[i] == QLatin1Char('\\') && i + 1 < part.size()) {
                const QChar e = part[++i];
                stop += e == QLatin1Char('n') ? QChar('\n') : e == QLatin1Char('t') ? QChar('\t') : e;
            } else {
                stop += part[i];
            }
        }
        if (!stop.isEmpty())
            stops.push_back(stop.toStdString());
    }
    return stops;
}

// The engine's own name, for people (engineOrderName() is the JSON id).
QString engineDisplayName(EngineOrder engine) {
    switch (engine) {
    case EngineOrder::HuggingFace:
        return QStringLiteral("Hugging Face transformers");
    case EngineOrder::LlamaCpp:
        return QStringLiteral("llama.cpp");
    case EngineOrder::Vllm:
        return QStringLiteral("vLLM");
    case EngineOrder::AsListed:
        break;
    }
    return StrategyEditor::tr("the list");
}

Strategy normalised(Strategy strategy) {
    strategy.order = EngineOrder::AsListed; // the list shows the applied order
    return strategy;
}

std::optional<Strategy> rebuilt(const Strategy& base, std::vector<SamplerSpec> samplers, QString* error) {
    QJsonObject json = base.toJson();
    json.remove(QStringLiteral("order"));
    QJsonArray list;
    for (const SamplerSpec& spec : samplers) {
        QJsonObject sampler = spec.params;
        sampler.insert(QStringLiteral("type"), spec.type);
        list.append(sampler);
    }
    json.insert(QStringLiteral("samplers"), list);
    Result<Strategy> strategy = Strategy::fromJson(json);
    if (!strategy) {
        *error = strategy.error().message;
        return std::nullopt;
    }
    return normalised(std::move(strategy).value());
}

} // namespace

StrategyEditor::StrategyEditor(QWidget* parent)
    : QWidget(parent)
    , m_undo(new QUndoStack(this)) {
    setObjectName(QStringLiteral("strategyEditor"));
    m_strategy = normalised(*strategyPreset(QStringLiteral("chat")));
    m_strategy.seed = 42;

    m_presets = new QComboBox(this);
    m_presets->setObjectName(QStringLiteral("strategyPresets"));
    m_presets->addItem(tr("Preset…"));
    for (const QString& name : strategyPresetNames())
        m_presets->addItem(name, name);
    m_presets->setToolTip(tr("Replace the chain with a built-in preset"));
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        const QString name = m_presets->itemData(index).toString();
        if (std::optional<Strategy> preset = strategyPreset(name)) {
            preset->seed = m_strategy.seed;
            commit(normalised(*preset), tr("Preset %1").arg(name));
        }
    });

    QToolButton* order = makeEngineOrderButton();

    m_saved = new QComboBox(this);
    m_saved->setObjectName(QStringLiteral("savedStrategies"));
    m_saved->setToolTip(tr("Load a strategy saved in the run store"));
    // As wide as the panel, not as the longest name in the store (the list itself shows names whole).
    m_saved->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_saved->setMinimumContentsLength(12);
    connect(m_saved, &QComboBox::activated, this, [this](int index) {
        const QVariant id = m_saved->itemData(index);
        m_saved->setCurrentIndex(0);
        if (!id.isValid() || !m_runs)
            return;
        Result<Strategy> loaded = m_runs->loadStrategy(id.toLongLong());
        if (!loaded) {
            emit message(loaded.error().message);
            return;
        }
        Strategy next = normalised(std::move(loaded).value());
        next.seed = m_strategy.seed;
        commit(next, tr("Load %1").arg(next.name));
    });
    auto* save = new QToolButton(this);
    save->setText(tr("Save…"));
    save->setObjectName(QStringLiteral("saveStrategy"));
    save->setToolTip(tr("Save this strategy under a name in the run store"));
    connect(save, &QToolButton::clicked, this, &StrategyEditor::saveNamed);
    auto* tools = new QToolButton(this);
    tools->setText(tr("Other tools…"));
    tools->setObjectName(QStringLiteral("strategyFormats"));
    tools->setToolTip(tr("This strategy as llama.cpp, text-generation-webui, SillyTavern or transformers settings, "
                         "or one of theirs imported"));
    connect(tools, &QToolButton::clicked, this, &StrategyEditor::openFormats);

    m_seed = new QLineEdit(this);
    m_seed->installEventFilter(this); // Ctrl+Z undoes the strategy (see eventFilter)
    m_seed->setObjectName(QStringLiteral("seed"));
    m_seed->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,15}")), m_seed));
    m_seed->setToolTip(tr("The seed of the strategy's random number generator: the same seed draws the same tokens"));
    connect(m_seed, &QLineEdit::editingFinished, this, [this] {
        if (!m_seed->text().isEmpty())
            setSeed(m_seed->text().toULongLong());
    });
    m_stop = new QLineEdit(this);
    m_stop->installEventFilter(this);
    m_stop->setObjectName(QStringLiteral("stopStrings"));
    m_stop->setPlaceholderText(tr("none"));
    m_stop->setToolTip(tr("Stop strings: generation ends before the first one the output contains (matched across "
                          "tokens, not shown). Separate them with |; write \\n for a newline, \\| for a bar."));
    connect(m_stop, &QLineEdit::editingFinished, this, [this] {
        std::vector<std::string> stops = parseStopText(m_stop->text());
        if (stops.size() > 16) {
            m_stop->setText(stopText(m_strategy.stop));
            emit message(tr("A strategy takes at most 16 stop strings."));
            return;
        }
        if (stops == m_strategy.stop)
            return;
        Strategy next = m_strategy;
        next.stop = std::move(stops);
        commit(next, tr("Stop strings"));
    });
    auto* dice = new QToolButton(this);
    dice->setText(tr("New seed"));
    dice->setObjectName(QStringLiteral("newSeed"));
    dice->setToolTip(tr("Pick a random seed"));
    connect(dice, &QToolButton::clicked, this, &StrategyEditor::newSeed);

    auto* undo = new QToolButton(this);
    undo->setDefaultAction(makeStackAction(tr("Undo"), QKeySequence::Undo, false));
    auto* redo = new QToolButton(this);
    redo->setDefaultAction(makeStackAction(tr("Redo"), QKeySequence::Redo, true));

    QWidget* chainPage = makeChainPage();

    m_json = new QPlainTextEdit(this);
    m_json->setObjectName(QStringLiteral("strategyJson"));
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_jsonDebounce = new QTimer(this);
    m_jsonDebounce->setSingleShot(true);
    m_jsonDebounce->setInterval(400);
    connect(m_json, &QPlainTextEdit::textChanged, this, [this] {
        if (!m_refreshing)
            m_jsonDebounce->start();
    });
    connect(m_jsonDebounce, &QTimer::timeout, this, [this] { applyJsonText(m_json->toPlainText()); });

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("strategyTabs"));
    m_tabs->addTab(chainPage, tr("C&hain"));
    m_tabs->addTab(m_json, tr("&JSON"));

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("strategyError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #a31f34"));
    m_error->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(m_presets, 1);
    top->addWidget(order);
    top->addWidget(undo);
    top->addWidget(redo);
    auto* storeRow = new QHBoxLayout;
    storeRow->addWidget(m_saved, 1);
    storeRow->addWidget(save);
    storeRow->addWidget(tools);
    auto* seedRow = new QHBoxLayout;
    seedRow->addWidget(new QLabel(tr("Seed"), this));
    seedRow->addWidget(m_seed, 1);
    seedRow->addWidget(dice);
    auto* stopRow = new QHBoxLayout;
    stopRow->addWidget(new QLabel(tr("Stop"), this));
    stopRow->addWidget(m_stop, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addLayout(storeRow);
    layout->addLayout(seedRow);
    layout->addLayout(stopRow);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_error);
    refreshSaved();
    refresh();
    showPreset(); // the starting strategy is a preset: the box names it (after a restart it said "Preset…")
}

// Reorders the samplers the way an engine applies them.
QToolButton* StrategyEditor::makeEngineOrderButton() {
    auto* order = new QToolButton(this);
    order->setObjectName(QStringLiteral("engineOrder"));
    order->setText(tr("Engine order"));
    order->setPopupMode(QToolButton::InstantPopup);
    order->setToolTip(tr("Reorder the samplers the way an engine applies them (the selector stays last)"));
    auto* orderMenu = new QMenu(order);
    for (EngineOrder engine : {EngineOrder::HuggingFace, EngineOrder::LlamaCpp, EngineOrder::Vllm}) {
        orderMenu->addAction(tr("As %1 applies them").arg(engineDisplayName(engine)), this, [this, engine] {
            QString error;
            if (auto next = rebuilt(m_strategy, reorderForEngine(m_strategy.samplers, engine), &error))
                commit(*next, tr("Order as %1").arg(engineDisplayName(engine)));
        });
    }
    order->setMenu(orderMenu);
    return order;
}

// Undo or Redo of the editor's stack. Fixed labels ("Undo", not "Undo Set strategy of run 12"), so the panel keeps
// its width; the edit they would undo or redo is in the tooltip.
QAction* StrategyEditor::makeStackAction(const QString& label, const QKeySequence& key, bool redo) {
    auto* action = new QAction(label, this);
    action->setObjectName(redo ? QStringLiteral("strategyRedo") : QStringLiteral("strategyUndo"));
    action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    action->setEnabled(false);
    connect(action, &QAction::triggered, m_undo, redo ? &QUndoStack::redo : &QUndoStack::undo);
    connect(m_undo, redo ? &QUndoStack::canRedoChanged : &QUndoStack::canUndoChanged, action, &QAction::setEnabled);
    connect(m_undo, redo ? &QUndoStack::redoTextChanged : &QUndoStack::undoTextChanged, action,
            [action, label](const QString& text) {
                action->setToolTip(text.isEmpty() ? label : QStringLiteral("%1: %2").arg(label, text));
            });
    addAction(action);
    return action;
}

// The chain as a list (drag to reorder) with Add, Remove, Up and Down, and the selected sampler's form.
QWidget* StrategyEditor::makeChainPage() {
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("chainList"));
    m_list->setDragDropMode(QAbstractItemView::InternalMove);
    m_list->setDefaultDropAction(Qt::MoveAction);
    m_list->setMinimumHeight(110);
    connect(m_list->model(), &QAbstractItemModel::rowsMoved, this, [this] {
        if (m_refreshing)
            return;
        std::vector<SamplerSpec> samplers;
        for (int row = 0; row < m_list->count(); ++row)
            samplers.push_back(
                m_strategy.samplers[static_cast<std::size_t>(m_list->item(row)->data(Qt::UserRole).toInt())]);
        QString error;
        if (auto next = rebuilt(m_strategy, samplers, &error))
            commit(*next, tr("Reorder"));
        else
            refresh();
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this] {
        if (!m_refreshing)
            rebuildForm();
    });
    auto* add = new QToolButton(this);
    add->setText(tr("Add"));
    add->setObjectName(QStringLiteral("addSampler"));
    add->setPopupMode(QToolButton::InstantPopup);
    add->setMenu(buildAddMenu());
    auto* remove = new QToolButton(this);
    remove->setText(tr("Remove"));
    remove->setObjectName(QStringLiteral("removeSampler"));
    connect(remove, &QToolButton::clicked, this, [this] { removeStage(selectedStage()); });
    auto* up = new QToolButton(this);
    up->setArrowType(Qt::UpArrow);
    up->setToolTip(tr("Move the sampler earlier"));
    connect(up, &QToolButton::clicked, this, [this] { moveStage(selectedStage(), selectedStage() - 1); });
    auto* down = new QToolButton(this);
    down->setArrowType(Qt::DownArrow);
    down->setToolTip(tr("Move the sampler later"));
    connect(down, &QToolButton::clicked, this, [this] { moveStage(selectedStage(), selectedStage() + 1); });

    m_formTitle = new QLabel(this);
    m_formTitle->setWordWrap(true);
    m_form = new QWidget(this);
    m_formLayout = new QFormLayout(m_form);
    m_formLayout->setContentsMargins(0, 0, 0, 0);

    auto* chainPage = new QWidget(this);
    auto* chainLayout = new QVBoxLayout(chainPage);
    chainLayout->setContentsMargins(4, 4, 4, 4);
    chainLayout->addWidget(m_list, 1);
    auto* listButtons = new QHBoxLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{add, remove, up, down})
        listButtons->addWidget(w);
    listButtons->addStretch();
    chainLayout->addLayout(listButtons);
    chainLayout->addWidget(m_formTitle);
    // A tall form (a grammar's text fields) scrolls rather than squeezing its rows over each other.
    auto* formScroll = new QScrollArea(this);
    formScroll->setObjectName(QStringLiteral("formScroll"));
    formScroll->setWidget(m_form);
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    chainLayout->addWidget(formScroll, 2);
    return chainPage;
}

StrategyEditor::~StrategyEditor() = default;

QMenu* StrategyEditor::buildAddMenu() {
    // One submenu per engine whose semantics the samplers follow, in the order the engines first appear.
    auto* menu = new QMenu(this);
    std::vector<std::pair<QString, QMenu*>> engines;
    for (const SamplerDescriptor& descriptor : samplerDescriptors()) {
        auto it =
            std::find_if(engines.begin(), engines.end(), [&](const auto& e) { return e.first == descriptor.engine; });
        if (it == engines.end()) {
            engines.emplace_back(descriptor.engine, menu->addMenu(descriptor.engine));
            engines.back().second->setToolTipsVisible(true);
            it = std::prev(engines.end());
        }
        QAction* action =
            it->second->addAction(descriptor.type, this, [this, type = descriptor.type] { addSampler(type); });
        action->setObjectName(QStringLiteral("add_%1").arg(descriptor.type));
        action->setToolTip(samplerText(descriptor.summary));
        action->setStatusTip(samplerText(descriptor.summary));
    }
    return menu;
}

std::uint64_t StrategyEditor::seed() const {
    return m_strategy.seed.value_or(0);
}

void StrategyEditor::setSeed(std::uint64_t seed) {
    if (m_strategy.seed == seed)
        return;
    Strategy next = m_strategy;
    next.seed = seed;
    commit(next, tr("Seed %1").arg(seed));
}

void StrategyEditor::newSeed() {
    setSeed(QRandomGenerator::global()->bounded(1u << 31));
}

void StrategyEditor::setRepository(RunRepository* runs) {
    m_runs = runs;
    refreshSaved();
}

void StrategyEditor::refreshSaved() {
    m_saved->clear();
    m_saved->addItem(tr("Saved strategies…"));
    if (!m_runs)
        return;
    Result<std::vector<std::pair<qint64, Strategy>>> named = m_runs->listNamedStrategies();
    if (!named)
        return;
    for (const auto& [id, strategy] : named.value())
        m_saved->addItem(strategy.name, id);
}

void StrategyEditor::saveNamed() {
    if (!m_runs) {
        emit message(tr("The run store is not open, so the strategy cannot be saved."));
        return;
    }
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Save Strategy"), tr("Name:"), QLineEdit::Normal, m_strategy.name, &ok)
            .trimmed();
    if (!ok || name.isEmpty())
        return;
    Result<qint64> saved = m_runs->saveNamedStrategy(m_strategy, name);
    if (!saved) {
        emit message(saved.error().message);
        return;
    }
    Strategy next = m_strategy;
    next.name = name;
    commit(next, tr("Name %1").arg(name));
    refreshSaved();
    emit message(tr("Saved strategy “%1”.").arg(name));
}

int StrategyEditor::selectedStage() const {
    return m_list->currentRow();
}

void StrategyEditor::selectStage(int index) {
    m_list->setCurrentRow(index);
}

void StrategyEditor::setStrategy(Strategy strategy, const QString& what) {
    commit(normalised(std::move(strategy)), what.isEmpty() ? tr("Set strategy") : what);
}

void StrategyEditor::commit(Strategy next, const QString& what, int mergeId) {
    // An edited preset is another strategy: it is never stored, compared or reported under the preset's name.
    if (std::optional<Strategy> preset = strategyPreset(next.name); preset && !isPreset(next, *preset))
        next.name = QStringLiteral("%1 (edited)").arg(next.name);
    if (next == m_strategy)
        return;
    m_undo->push(new Snapshot(this, m_strategy, std::move(next), what, mergeId));
}

// Whether strategy is the preset, whatever its seed and name.
bool StrategyEditor::isPreset(const Strategy& strategy, Strategy preset) {
    preset.seed = strategy.seed;
    Strategy named = normalised(std::move(preset));
    named.name = strategy.name;
    return named == strategy;
}

// The box shows the preset the strategy is (whatever its seed), or "Preset…" for any other.
void StrategyEditor::showPreset() {
    int index = 0;
    for (int i = 1; i < m_presets->count(); ++i)
        if (std::optional<Strategy> preset = strategyPreset(m_presets->itemData(i).toString());
            preset && isPreset(m_strategy, *preset))
            index = i;
    m_presets->setCurrentIndex(index);
}

void StrategyEditor::restore(const Strategy& strategy) {
    const bool structural = strategy.samplers.size() != m_strategy.samplers.size() ||
                            !std::equal(strategy.samplers.begin(), strategy.samplers.end(), m_strategy.samplers.begin(),
                                        [](const SamplerSpec& a, const SamplerSpec& b) { return a.type == b.type; });
    m_strategy = strategy;
    m_error->hide();
    if (structural)
        refresh();
    else {
        // Same chain shape: update texts and values in place, so a spin box being edited keeps focus.
        m_refreshing = true;
        for (int row = 0; row < m_list->count(); ++row) {
            const SamplerSpec& spec = m_strategy.samplers[static_cast<std::size_t>(row)];
            m_list->item(row)->setText(QStringLiteral("%1. %2   %3").arg(row + 1).arg(spec.type, spec.summary()));
        }
        m_seed->setText(QString::number(seed()));
        m_stop->setText(stopText(m_strategy.stop));
        showJson();
        m_refreshing = false;
        updateFormValues();
    }
    showPreset();
    emit strategyChanged();
}

void StrategyEditor::refresh() {
    m_refreshing = true;
    const int current = std::max(0, m_list->currentRow());
    m_list->clear();
    for (std::size_t i = 0; i < m_strategy.samplers.size(); ++i) {
        const SamplerSpec& spec = m_strategy.samplers[i];
        auto* item = new QListWidgetItem(QStringLiteral("%1. %2   %3").arg(i + 1).arg(spec.type, spec.summary()));
        item->setData(Qt::UserRole, static_cast<int>(i));
        if (const SamplerDescriptor* d = findSamplerDescriptor(spec.type))
            item->setToolTip(QStringLiteral("%1\n(%2)").arg(samplerText(d->summary), d->engine));
        m_list->addItem(item);
    }
    m_list->setCurrentRow(std::min(current, m_list->count() - 1));
    m_seed->setText(QString::number(seed()));
    m_stop->setText(stopText(m_strategy.stop));
    showJson();
    m_refreshing = false;
    m_formStage = -2;
    rebuildForm();
}

// The JSON view follows every change of the strategy, focused or not, except the one its own text just
// made (rewriting that would move the cursor under the user's hands). A pending parse of older text is
// dropped: applied later, it would put the old strategy back.
void StrategyEditor::showJson() {
    if (m_applyingJson)
        return;
    m_jsonDebounce->stop();
    const QString text = jsonText();
    if (m_json->toPlainText() == text)
        return;
    const int position = m_json->textCursor().position();
    m_json->setPlainText(text);
    QTextCursor cursor = m_json->textCursor();
    cursor.setPosition(std::min(position, static_cast<int>(text.size())));
    m_json->setTextCursor(cursor);
}

bool StrategyEditor::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::ShortcutOverride) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Undo) || key->matches(QKeySequence::Redo)) {
            event->ignore(); // not the field's: the strategy's Undo/Redo shortcut takes it
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

QString StrategyEditor::jsonText() const {
    return QString::fromUtf8(QJsonDocument(m_strategy.toJson()).toJson(QJsonDocument::Indented));
}

bool StrategyEditor::applyJsonText(const QString& text) {
    QJsonParseError parseError;
    const QByteArray bytes = text.toUtf8();
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const auto [line, column] = jsonErrorLineColumn(bytes, parseError);
        m_error->setText(tr("JSON: %1 at line %2, column %3.").arg(parseError.errorString()).arg(line).arg(column));
        m_error->show();
        return false;
    }
    if (!document.isObject()) {
        m_error->setText(tr("JSON: a strategy is an object ({…}), not an array or a value."));
        m_error->show();
        return false;
    }
    Result<Strategy> strategy = Strategy::fromJson(document.object());
    if (!strategy) {
        m_error->setText(strategy.error().message);
        m_error->show();
        return false;
    }
    m_error->hide();
    m_applyingJson = true;
    commit(normalised(std::move(strategy).value()), tr("Edit JSON"));
    m_applyingJson = false;
    return true;
}

void StrategyEditor::setParameter(int stage, const QString& name, const QJsonValue& value) {
    if (stage < 0 || stage >= static_cast<int>(m_strategy.samplers.size()))
        return;
    std::vector<SamplerSpec> samplers = m_strategy.samplers;
    samplers[static_cast<std::size_t>(stage)].params.insert(name, value);
    QString error;
    if (auto next = rebuilt(m_strategy, samplers, &error)) {
        m_error->hide();
        commit(*next, tr("Set %1.%2").arg(samplers[static_cast<std::size_t>(stage)].type, name),
               stage * 64 + static_cast<int>(qHash(name) % 64));
    } else {
        m_error->setText(error);
        m_error->show();
        updateFormValues();
    }
}

void StrategyEditor::addSampler(const QString& type) {
    const SamplerDescriptor* descriptor = findSamplerDescriptor(type);
    if (!descriptor)
        return;
    std::vector<SamplerSpec> samplers = m_strategy.samplers;
    const bool selector = descriptor->selector;
    // A selector replaces the last one; any other sampler goes before it.
    if (selector && !samplers.empty() && findSamplerDescriptor(samplers.back().type)->selector)
        samplers.back() = {type, {}};
    else
        samplers.insert(samplers.end() - (samplers.empty() ? 0 : 1), {type, {}});
    QString error;
    if (auto next = rebuilt(m_strategy, samplers, &error)) {
        const int at = selector ? static_cast<int>(samplers.size()) - 1 : static_cast<int>(samplers.size()) - 2;
        commit(*next, tr("Add %1").arg(type));
        selectStage(std::max(0, at));
    } else {
        emit message(error);
    }
}

void StrategyEditor::removeStage(int stage) {
    if (stage < 0 || stage >= static_cast<int>(m_strategy.samplers.size()))
        return;
    std::vector<SamplerSpec> samplers = m_strategy.samplers;
    const QString type = samplers[static_cast<std::size_t>(stage)].type;
    samplers.erase(samplers.begin() + stage);
    QString error;
    if (auto next = rebuilt(m_strategy, samplers, &error))
        commit(*next, tr("Remove %1").arg(type));
    else
        emit message(error);
}

void StrategyEditor::moveStage(int from, int to) {
    const int n = static_cast<int>(m_strategy.samplers.size());
    if (from < 0 || from >= n || to < 0 || to >= n || from == to)
        return;
    std::vector<SamplerSpec> samplers = m_strategy.samplers;
    const SamplerSpec moved = samplers[static_cast<std::size_t>(from)];
    samplers.erase(samplers.begin() + from);
    samplers.insert(samplers.begin() + to, moved);
    QString error;
    if (auto next = rebuilt(m_strategy, samplers, &error)) {
        commit(*next, tr("Move %1").arg(moved.type));
        selectStage(to);
    } else {
        emit message(error);
    }
}

void StrategyEditor::rebuildForm() {
    const int stage = selectedStage();
    const QString type = stage >= 0 && stage < static_cast<int>(m_strategy.samplers.size())
                             ? m_strategy.samplers[static_cast<std::size_t>(stage)].type
                             : QString();
    if (stage == m_formStage && type == m_formType) {
        updateFormValues();
        return;
    }
    m_formStage = stage;
    m_formType = type;
    while (m_formLayout->rowCount() > 0)
        m_formLayout->removeRow(0);
    const SamplerDescriptor* descriptor = findSamplerDescriptor(type);
    if (!descriptor) {
        m_formTitle->setText(tr("Select a sampler to edit its parameters."));
        return;
    }
    m_formTitle->setText(
        tr("<b>%1</b> — %2 <i>(%3)</i>").arg(type, samplerText(descriptor->summary).toHtmlEscaped(), descriptor->engine));
    m_formTitle->setToolTip(samplerText(descriptor->summary));
    const QJsonObject& params = m_strategy.samplers[static_cast<std::size_t>(stage)].params;
    for (const ParamSpec& param : descriptor->params) {
        const QString tip = QStringLiteral("%1\n%2").arg(samplerText(param.doc), descriptor->engine);
        QWidget* editor = nullptr;
        const QJsonValue value = params.value(param.name);
        if (param.kind == ParamSpec::Kind::Real) {
            auto* spin = new QDoubleSpinBox(m_form);
            const double low = param.minExclusive ? param.min + 1e-4 : param.min;
            const double high = std::isinf(param.max) ? 1e9 : param.max;
            spin->setRange(low, high);
            spin->setDecimals(4);
            spin->setSingleStep(high - low <= 2.0 ? 0.01 : 0.1);
            spin->setValue(value.toDouble());
            spin->setKeyboardTracking(false);
            connect(spin, &QDoubleSpinBox::valueChanged, this, [this, stage, name = param.name](double v) {
                if (!m_refreshing)
                    setParameter(stage, name, v);
            });
            editor = spin;
        } else if (param.kind == ParamSpec::Kind::Integer) {
            auto* spin = new QSpinBox(m_form);
            spin->setRange(static_cast<int>(std::max(param.min, -1e9)),
                           static_cast<int>(std::min(param.max, static_cast<double>(std::numeric_limits<int>::max()))));
            spin->setValue(value.toInt());
            spin->setKeyboardTracking(false);
            connect(spin, &QSpinBox::valueChanged, this, [this, stage, name = param.name](int v) {
                if (!m_refreshing)
                    setParameter(stage, name, v);
            });
            editor = spin;
        } else if (param.kind == ParamSpec::Kind::Flag) {
            auto* box = new QCheckBox(m_form);
            box->setChecked(value.toBool());
            connect(box, &QCheckBox::toggled, this, [this, stage, name = param.name](bool on) {
                if (!m_refreshing)
                    setParameter(stage, name, on);
            });
            editor = box;
        } else if (param.kind == ParamSpec::Kind::Text || param.kind == ParamSpec::Kind::Schema) {
            editor = grammarTextField(stage, param, value);
        } else {
            auto* line = new QLineEdit(m_form);
            line->setText(QString::fromUtf8(value.isArray()
                                                ? QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact)
                                                : QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact)));
            line->setPlaceholderText(param.kind == ParamSpec::Kind::BiasMap ? QStringLiteral("{\"123\": -5}")
                                                                            : QStringLiteral("[...]"));
            connect(line, &QLineEdit::editingFinished, this, [this, stage, line, name = param.name] {
                const QJsonDocument doc = QJsonDocument::fromJson(line->text().toUtf8());
                if (doc.isArray())
                    setParameter(stage, name, doc.array());
                else if (doc.isObject())
                    setParameter(stage, name, doc.object());
                else {
                    m_error->setText(tr("%1: write a JSON list or object.").arg(name));
                    m_error->show();
                }
            });
            editor = line;
        }
        editor->setObjectName(QStringLiteral("param_%1").arg(param.name));
        editor->setToolTip(tip);
        auto* label = new QLabel(param.name, m_form);
        label->setToolTip(tip);
        m_formLayout->addRow(label, editor);
        // Ctrl+Z / Ctrl+Shift+Z in a field undo the strategy's edits, not the field's own typing.
        editor->installEventFilter(this);
        for (QWidget* child : editor->findChildren<QWidget*>())
            child->installEventFilter(this);
    }
}

// A grammar stage's GBNF or JSON schema: typed or loaded from a file, applied with the button or Ctrl+Return;
// an error puts the cursor at its line and column.
QWidget* StrategyEditor::grammarTextField(int stage, const ParamSpec& param, const QJsonValue& value) {
    const bool schema = param.kind == ParamSpec::Kind::Schema;
    auto* box = new QWidget(m_form);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* text = new QPlainTextEdit(box);
    text->setObjectName(QStringLiteral("text_%1").arg(param.name));
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFixedHeight(text->fontMetrics().lineSpacing() * 5 + 12);
    text->setPlaceholderText(schema ? QStringLiteral("{\"type\": \"object\", \"properties\": {…}}")
                                    : QStringLiteral("root ::= \"yes\" | \"no\""));
    text->setPlainText(
        schema ? (value.isObject() ? QString::fromUtf8(QJsonDocument(value.toObject()).toJson()) : QString())
               : value.toString());
    auto* buttons = new QHBoxLayout;
    auto* load = new QToolButton(box);
    load->setText(tr("Load file…"));
    load->setObjectName(QStringLiteral("load_%1").arg(param.name));
    auto* apply = new QToolButton(box);
    apply->setText(tr("Apply"));
    apply->setObjectName(QStringLiteral("apply_%1").arg(param.name));
    apply->setToolTip(tr("Apply the text to the strategy (Ctrl+Return)"));
    buttons->addWidget(load);
    buttons->addWidget(apply);
    buttons->addStretch(1);
    layout->addWidget(text);
    layout->addLayout(buttons);
    const auto applyText = [this, stage, text, schema, name = param.name] {
        const QString written = text->toPlainText();
        if (!schema) {
            setParameter(stage, name, written);
        } else if (written.trimmed().isEmpty()) {
            setParameter(stage, name, QJsonValue());
        } else {
            QJsonParseError error;
            const QByteArray bytes = written.toUtf8();
            const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
            if (!document.isObject()) {
                m_error->setText(error.error != QJsonParseError::NoError
                                     ? tr("%1: %2").arg(name, jsonErrorWhere(bytes, error))
                                     : tr("%1: a JSON schema is an object ({…}).").arg(name));
                m_error->show();
                placeCursorAtError(text, m_error->text());
                return;
            }
            setParameter(stage, name, document.object());
        }
        if (m_error->isVisible())
            placeCursorAtError(text, m_error->text());
    };
    connect(apply, &QToolButton::clicked, this, applyText);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), text);
    shortcut->setContext(Qt::WidgetShortcut);
    connect(shortcut, &QShortcut::activated, this, applyText);
    connect(load, &QToolButton::clicked, this, [this, text, schema, applyText] {
        const QString path = QFileDialog::getOpenFileName(
            this, schema ? tr("Load a JSON schema") : tr("Load a GBNF grammar"), QString(),
            schema ? tr("JSON schemas (*.json);;All files (*)") : tr("GBNF grammars (*.gbnf *.txt);;All files (*)"));
        if (path.isEmpty())
            return;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly) || file.size() > qint64(kMaxGbnfBytes)) {
            m_error->setText(file.isOpen() ? tr("%1 is larger than a grammar may be (1 MB).").arg(path)
                                           : tr("Cannot read %1: %2").arg(path, file.errorString()));
            m_error->show();
            return;
        }
        text->setPlainText(QString::fromUtf8(file.readAll()));
        applyText();
    });
    return box;
}

// "… line L, column C …" in an error: the text cursor there.
void StrategyEditor::placeCursorAtError(QPlainTextEdit* text, const QString& error) {
    static const QRegularExpression where(QStringLiteral("line (\\d+), column (\\d+)"));
    const QRegularExpressionMatch match = where.match(error);
    if (!match.hasMatch())
        return;
    const QTextBlock block = text->document()->findBlockByNumber(match.captured(1).toInt() - 1);
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor,
                        std::min(match.captured(2).toInt() - 1, std::max(0, block.length() - 1)));
    text->setTextCursor(cursor);
    text->setFocus();
}

void StrategyEditor::updateFormValues() {
    const int stage = m_formStage;
    if (stage < 0 || stage >= static_cast<int>(m_strategy.samplers.size()))
        return;
    const QJsonObject& params = m_strategy.samplers[static_cast<std::size_t>(stage)].params;
    m_refreshing = true;
    for (auto* spin : m_form->findChildren<QDoubleSpinBox*>())
        if (!spin->hasFocus())
            spin->setValue(params.value(spin->objectName().mid(6)).toDouble());
    for (auto* spin : m_form->findChildren<QSpinBox*>())
        if (!spin->hasFocus())
            spin->setValue(params.value(spin->objectName().mid(6)).toInt());
    m_refreshing = false;
}

StrategyFormatsDialog* StrategyEditor::openFormats() {
    if (!m_formats) {
        m_formats = new StrategyFormatsDialog(this);
        connect(m_formats, &StrategyFormatsDialog::strategyImported, this, [this](const Strategy& imported, const QString& format) {
            Strategy next = normalised(imported);
            if (!next.seed)
                next.seed = m_strategy.seed;
            commit(next, tr("Import from %1").arg(format));
        });
        connect(this, &StrategyEditor::strategyChanged, m_formats, [this] { m_formats->setStrategy(m_strategy); });
    }
    m_formats->setStrategy(m_strategy);
    m_formats->show();
    m_formats->raise();
    return m_formats;
}

} // namespace swb
