#include "explore/RunStreamPanel.h"

#include <QAction>
#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QRadioButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "explore/BeamTreeView.h"
#include "explore/Palette.h"
#include "explore/TokenStreamView.h"

namespace swb {

namespace {

// A legend for the chip colours: a gradient from p = 0 to p = 1.
class ProbabilityLegend final : public QWidget {
public:
    explicit ProbabilityLegend(QWidget* parent)
        : QWidget(parent) {
        setFixedSize(150, 22);
        setToolTip(QObject::tr("Chip colour: the token's probability"));
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        QLinearGradient gradient(30, 0, width() - 24, 0);
        for (int i = 0; i <= 10; ++i)
            gradient.setColorAt(i / 10.0, palette::probability(i / 10.0));
        painter.fillRect(QRect(30, 4, width() - 54, height() - 8), gradient);
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRect(0, 0, 28, height()), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("p 0"));
        painter.drawText(QRect(width() - 22, 0, 22, height()), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("1"));
    }
};

} // namespace

RunStreamPanel::RunStreamPanel(bool showFinal, QWidget* parent)
    : QWidget(parent) {
    m_replayAction = new QAction(tr("&Replay Run with Edited Strategy"), this);
    m_replayAction->setObjectName(QStringLiteral("actionReplay"));
    m_replayAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_replayAction->setToolTip(tr("Decode the shown run again with the strategy in the editor (same model, prompt and "
                                  "seed) and see where the two part (Ctrl+Shift+R)"));
    connect(m_replayAction, &QAction::triggered, this, &RunStreamPanel::replayRequested);
    addAction(m_replayAction);
    QWidget* header = makeHeader(showFinal);

    m_stream = new TokenStreamView(this);
    m_stream->setShowFinal(showFinal);
    connect(m_showFinal, &QRadioButton::toggled, m_stream, &TokenStreamView::setShowFinal);
    m_streamScroll = new QScrollArea(this);
    m_streamScroll->setObjectName(QStringLiteral("streamScroll"));
    m_streamScroll->setWidget(m_stream);
    m_streamScroll->setWidgetResizable(true);
    m_streamScroll->setMinimumHeight(72); // three rows of chips
    m_streamScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The selected chip in view (End, Home, the arrows, a replay's highlight).
    connect(m_stream, &TokenStreamView::revealRequested, this, [this](int step) {
        const QRect chip = m_stream->chipRect(step);
        if (chip.isValid())
            m_streamScroll->ensureVisible(chip.center().x(), chip.center().y(), 8, chip.height());
    });
    m_beamTree = new BeamTreeView(this);
    m_beamScroll = new QScrollArea(this);
    m_beamScroll->setWidget(m_beamTree);
    m_beamScroll->setWidgetResizable(false);
    m_beamScroll->setMinimumHeight(72);
    // Above the tree, the texts the search returned, best first (the tree alone showed none of them).
    m_beamTexts = new QLabel(this);
    m_beamTexts->setObjectName(QStringLiteral("beamTexts"));
    m_beamTexts->setWordWrap(true);
    m_beamTexts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_beamPage = new QWidget(this);
    auto* beamColumn = new QVBoxLayout(m_beamPage);
    beamColumn->setContentsMargins(0, 0, 0, 0);
    beamColumn->addWidget(m_beamTexts);
    beamColumn->addWidget(m_beamScroll, 1);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_streamScroll);
    m_stack->addWidget(m_beamPage);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(header);
    layout->addWidget(m_stack, 1);
    layout->addWidget(makeLoopPanel());
}

QWidget* RunStreamPanel::makeHeader(bool showFinal) {
    auto* header = new QWidget(this);
    auto* row = new QHBoxLayout(header);
    row->setContentsMargins(0, 0, 0, 0);
    auto* showRaw = new QRadioButton(tr("raw p"), header);
    m_showFinal = new QRadioButton(tr("final p"), header);
    showRaw->setToolTip(tr("Colour tokens by their probability under the model's raw logits"));
    m_showFinal->setToolTip(tr("Colour tokens by their probability in the distribution the selector drew from"));
    auto* group = new QButtonGroup(header);
    group->addButton(showRaw);
    group->addButton(m_showFinal);
    (showFinal ? m_showFinal : showRaw)->setChecked(true);
    row->addWidget(new QLabel(tr("Colour by"), header));
    row->addWidget(showRaw);
    row->addWidget(m_showFinal);
    row->addWidget(new ProbabilityLegend(header));
    row->addStretch();
    auto* replayButton = new QToolButton(header);
    replayButton->setObjectName(QStringLiteral("replayRun"));
    replayButton->setDefaultAction(m_replayAction);
    replayButton->setText(tr("Replay…"));
    auto* probeButton = new QToolButton(header);
    probeButton->setObjectName(QStringLiteral("openTokenProbe"));
    probeButton->setText(tr("Token probe…"));
    probeButton->setToolTip(tr("Why is a token never chosen? Follow one through every step of the run: its raw p "
                               "and rank, and the stage of the chain that cut it"));
    connect(probeButton, &QToolButton::clicked, this, &RunStreamPanel::probeRequested);
    m_progress = new QLabel(header);
    m_progress->setObjectName(QStringLiteral("generationProgress"));
    // Wraps: one line of "124 tokens · max_tokens, 1540 tok/s · computed with …" widened the whole window past a
    // 1024 px screen after generating.
    m_progress->setWordWrap(true);
    m_progress->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    row->addWidget(replayButton);
    row->addWidget(probeButton);
    row->addWidget(m_progress);
    return header;
}

// A run caught in a repetition loop says so under the stream, with the samplers that address it.
QWidget* RunStreamPanel::makeLoopPanel() {
    m_loopPanel = new QWidget(this);
    m_loopPanel->setObjectName(QStringLiteral("loopPanel"));
    auto* row = new QHBoxLayout(m_loopPanel);
    row->setContentsMargins(0, 0, 0, 0);
    m_loopLabel = new QLabel(m_loopPanel);
    m_loopLabel->setWordWrap(true);
    m_loopButton = new QToolButton(m_loopPanel);
    m_loopButton->setText(tr("Try a remedy"));
    m_loopButton->setToolTip(tr("Put a sampler that addresses the loop into the editor and select the step where it "
                                "can act: the what-if shows whether it breaks the loop there"));
    m_loopButton->setPopupMode(QToolButton::InstantPopup);
    m_loopButton->setMenu(new QMenu(m_loopButton));
    row->addWidget(m_loopLabel, 1);
    row->addWidget(m_loopButton);
    m_loopPanel->hide();
    return m_loopPanel;
}

bool RunStreamPanel::showsFinal() const {
    return m_showFinal->isChecked();
}

bool RunStreamPanel::showsBeamTree() const {
    return m_stack->currentWidget() == m_beamPage;
}

void RunStreamPanel::setProgress(const QString& text) {
    m_progress->setText(text);
}

void RunStreamPanel::showSteps(std::shared_ptr<const Tokenizer> tokenizer, const QString& prompt,
                               const std::vector<GeneratedStep>& steps) {
    m_stack->setCurrentWidget(m_streamScroll);
    m_stream->setTokenizer(std::move(tokenizer));
    m_stream->clearSteps();
    m_stream->setPrompt(prompt);
    m_stream->appendSteps(steps);
}

void RunStreamPanel::startBeamSearch(std::shared_ptr<const Tokenizer> tokenizer, const QString& prompt) {
    m_stream->clearSteps();
    m_stream->setPrompt(prompt);
    m_beamTree->clear();
    m_beamTree->setTokenizer(std::move(tokenizer));
    showBeamTexts(nullptr);
    m_stack->setCurrentWidget(m_beamPage);
}

void RunStreamPanel::showBeamSearch(std::shared_ptr<const Tokenizer> tokenizer, const BeamResult& result) {
    m_beamTree->clear();
    m_beamTree->setTokenizer(std::move(tokenizer));
    for (const BeamStep& step : result.steps)
        m_beamTree->appendStep(step);
    m_beamTree->setResult(result);
    showBeamTexts(&result);
    m_stack->setCurrentWidget(m_beamPage);
}

void RunStreamPanel::showBeamTexts(const BeamResult* result) {
    QString html;
    if (result) {
        for (std::size_t i = 0; i < result->hypotheses.size(); ++i) {
            const BeamHypothesis& h = result->hypotheses[i];
            const QString score = QString::number(h.score, 'f', 3);
            const QString text = QString::fromStdString(h.text).toHtmlEscaped();
            html += i == 0 ? tr("<b>Best</b> (score %1): %2").arg(score, text)
                           : QStringLiteral("<br>") + tr("%1. (score %2): %3").arg(QString::number(i + 1), score, text);
        }
    }
    m_beamTexts->setText(html);
    m_beamTexts->setVisible(!html.isEmpty());
}

void RunStreamPanel::finishBeamSearch(const BeamResult& result) {
    m_beamTree->setResult(result);
    showBeamTexts(&result);
    if (!result.hypotheses.empty())
        setProgress(tr("Beam search: %n step(s), best score %1", nullptr, m_beamTree->stepCount())
                        .arg(result.hypotheses.front().score, 0, 'f', 3));
}

void RunStreamPanel::followEnd() {
    QTimer::singleShot(0, this, [this] {
        const QRect last = m_stream->chipRect(m_stream->stepCount() - 1);
        if (last.isValid())
            m_streamScroll->ensureVisible(last.center().x(), last.bottom(), 0, 8);
    });
}

void RunStreamPanel::showLoops(const std::vector<stats::RepetitionLoop>& loops,
                               const std::vector<LoopRemedy>& remedies) {
    m_loopPanel->setVisible(!loops.empty());
    if (loops.empty())
        return;
    const stats::RepetitionLoop& loop = loops.front();
    QString text =
        tr("<b>Repetition loop</b>: steps %1–%2 repeat a cycle of %n token(s) %3 times.", nullptr, loop.period)
            .arg(loop.start + 1)
            .arg(loop.end)
            .arg(loop.repeats);
    if (loops.size() > 1)
        text += QLatin1Char(' ') +
                tr("%n more loop(s) marked on the timeline.", nullptr, static_cast<int>(loops.size() - 1));
    m_loopLabel->setText(text);
    QMenu* menu = m_loopButton->menu();
    menu->clear();
    for (std::size_t i = 0; i < remedies.size(); ++i) {
        const LoopRemedy& remedy = remedies[i];
        QString name;
        switch (remedy.kind) {
        case LoopRemedy::Kind::RepetitionPenalty:
            name = tr("Repetition penalty %1 (transformers)").arg(remedy.value);
            break;
        case LoopRemedy::Kind::Dry:
            name = tr("DRY, multiplier %1 (llama.cpp)").arg(remedy.value);
            break;
        case LoopRemedy::Kind::NoRepeatNgram:
            name = tr("No repeated %1-grams (transformers)").arg(remedy.value);
            break;
        case LoopRemedy::Kind::Temperature:
            name = tr("Temperature %1").arg(remedy.value);
            break;
        case LoopRemedy::Kind::SampleInsteadOfGreedy:
            name = tr("Sample at temperature %1 instead of greedy").arg(remedy.value);
            break;
        }
        menu->addAction(tr("%1 — what-if at step %2").arg(name).arg(remedy.step + 1), this,
                        [this, index = static_cast<int>(i)] { emit remedyChosen(index); });
    }
    m_loopButton->setEnabled(!remedies.empty());
}

} // namespace swb
