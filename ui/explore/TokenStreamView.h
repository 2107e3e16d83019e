#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "generation/Generator.h"

namespace swb {

class Tokenizer;

// The generated text as token chips coloured by probability (raw or final), after the prompt in
// plain text. Hover shows whitespace and a tooltip (text, id, raw p, final p, raw rank, entropy);
// click or ←/→/Home/End selects a step; the context menu branches from a step with any of its
// top candidates. Paints itself (no widget per token), so thousands of tokens stay cheap.
class TokenStreamView final : public QWidget {
    Q_OBJECT

public:
    explicit TokenStreamView(QWidget* parent = nullptr);

    // Shared, so that a model reload elsewhere cannot free it under the view.
    void setTokenizer(std::shared_ptr<const Tokenizer> tokenizer) { m_tokenizer = std::move(tokenizer); }
    void setPrompt(const QString& prompt);
    void clearSteps();
    void appendSteps(const std::vector<GeneratedStep>& steps);
    int stepCount() const { return static_cast<int>(m_chips.size()); }
    const GeneratedStep& step(int i) const { return m_steps[static_cast<std::size_t>(i)]; }

    int selectedStep() const { return m_selected; }
    void setSelectedStep(int step);
    void setShowFinal(bool final);
    bool showFinal() const { return m_final; }
    QRect chipRect(int step) const; // in widget coordinates, for tests

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

    // A chip's tooltip: its step, text, id, probabilities, rank, entropies and its top alternatives (at most
    // `alternatives`) with raw and final p.
    QString toolTipText(int step, int alternatives = 6) const;

signals:
    void stepSelected(int step);
    // The step's chip should be in view (it was selected, or selected again).
    void revealRequested(int step);
    void branchRequested(int step, swb::TokenId token);
    // "Edit text from here and continue": the run's text from this step on, to be edited and continued.
    void editRequested(int step);
    // "Probe a token…": follow one of this step's candidates through the whole run.
    void probeRequested(int step);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Chip {
        QString text;    // as decoded
        QString visible; // whitespace made visible
        QRect rect;
        bool lineBreak = false;
    };
    void layoutChips(int width);
    int chipAt(const QPoint& pos) const;
    int layoutHeight(int width) const;

    std::shared_ptr<const Tokenizer> m_tokenizer;
    QString m_prompt;
    std::vector<GeneratedStep> m_steps;
    std::vector<Chip> m_chips;
    QRect m_promptRect;
    int m_selected = -1;
    int m_hovered = -1;
    bool m_final = false;
    int m_laidOutWidth = -1;
    int m_height = 0;
};

} // namespace swb
