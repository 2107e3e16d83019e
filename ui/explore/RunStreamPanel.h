#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "evaluation/LoopRemedies.h"
#include "evaluation/Statistics.h"
#include "generation/BeamSearch.h"
#include "generation/Generator.h"

class QAction;
class QLabel;
class QRadioButton;
class QScrollArea;
class QStackedWidget;
class QToolButton;

namespace swb {

class BeamTreeView;
class Tokenizer;
class TokenStreamView;

// Explore's run area: a header (colour by raw or final p with its legend, Replay, Token probe and the run's
// progress line), the run's token chips or, for a beam search, the texts it returned above its tree, and under
// them a repetition loop found in the run with the remedies to try.
class RunStreamPanel final : public QWidget {
    Q_OBJECT

public:
    explicit RunStreamPanel(bool showFinal, QWidget* parent = nullptr);

    TokenStreamView* stream() const { return m_stream; }
    BeamTreeView* beamTree() const { return m_beamTree; }
    QWidget* loopPanel() const { return m_loopPanel; }
    // Replay Run with Edited Strategy (Ctrl+Shift+R), for the window's menu.
    QAction* replayAction() const { return m_replayAction; }
    bool showsFinal() const;
    // Whether the beam tree (a beam search) is shown rather than the chips.
    bool showsBeamTree() const;
    void setProgress(const QString& text);

    // The chips of a run's steps, with their texts from the run's tokenizer.
    void showSteps(std::shared_ptr<const Tokenizer> tokenizer, const QString& prompt,
                   const std::vector<GeneratedStep>& steps);
    // The beam tree, empty, for a beam search starting from `prompt`.
    void startBeamSearch(std::shared_ptr<const Tokenizer> tokenizer, const QString& prompt);
    // A finished beam search: its tree and the texts it returned.
    void showBeamSearch(std::shared_ptr<const Tokenizer> tokenizer, const BeamResult& result);
    // The texts the search returned, best first, above its tree (result null: none).
    void showBeamTexts(const BeamResult* result);
    // The search just made has ended: its result on the tree, its texts, and the best score in the progress line.
    void finishBeamSearch(const BeamResult& result);
    // The last chip in view (the stream follows a run while it grows).
    void followEnd();
    // Names the first loop and offers the remedies (none: the panel hidden).
    void showLoops(const std::vector<stats::RepetitionLoop>& loops, const std::vector<LoopRemedy>& remedies);

signals:
    void probeRequested();
    void replayRequested();
    void remedyChosen(int index);

private:
    QWidget* makeHeader(bool showFinal);
    QWidget* makeLoopPanel();

    QAction* m_replayAction = nullptr;
    QRadioButton* m_showFinal = nullptr;
    QLabel* m_progress = nullptr;
    TokenStreamView* m_stream = nullptr;
    QScrollArea* m_streamScroll = nullptr;
    QStackedWidget* m_stack = nullptr;
    QWidget* m_beamPage = nullptr;
    QLabel* m_beamTexts = nullptr;
    QScrollArea* m_beamScroll = nullptr;
    BeamTreeView* m_beamTree = nullptr;
    QWidget* m_loopPanel = nullptr;
    QLabel* m_loopLabel = nullptr;
    QToolButton* m_loopButton = nullptr;
};

} // namespace swb
