#pragma once

#include <QWidget>

#include "generation/DecoderTrace.h"
#include "sampling/StepTrace.h"
#include "sampling/Strategy.h"

class QLabel;
class QTableWidget;

namespace swb {

class Tokenizer;

// What the shown step drew and what the edited chain would draw there (the what-if).
struct StepSummary {
    int step = 0;
    const StepTrace* drawn = nullptr;
    bool remote = false; // a remote engine's step: its top-N candidates only
    // The edited chain's replay of the step, when it differs from the run's own chain.
    const StepTrace* whatIf = nullptr;
    bool storedOnly = false; // the run's model is not loaded: only its stored trace
    const DecoderStepTrace* decoder = nullptr;
    QString decoderType;
};

// Beside the distribution: the selected step in words with its what-if, and either the chain's stages at that
// step (select one to see the distribution after it) or, for a decoder other than sampling, the candidates the
// decoder weighed.
class StepDetailsPanel final : public QWidget {
    Q_OBJECT

public:
    explicit StepDetailsPanel(QWidget* parent = nullptr);

    QTableWidget* pipeline() const { return m_pipeline; }
    QTableWidget* decoderTable() const { return m_decoderTable; }
    QLabel* text() const { return m_text; }
    // The stage selected in the pipeline; -1 when none.
    int selectedStage() const;
    // No step shown: the stage table empty and in view, no decoder table, no text.
    void clear();
    void fillPipeline(const StepTrace& trace, const Strategy& strategy);
    void showSummary(const StepSummary& summary, const Tokenizer* tokenizer);
    // Plain text in place of a step's summary (a beam node, a failed replay).
    void setText(const QString& text);

signals:
    void stageSelected();

private:
    // Fills the decoder table for a step (hidden when the step has no decoder trace); returns its caption.
    QString fillDecoderTable(const DecoderStepTrace& decoder, const QString& type, const Tokenizer* tokenizer);

    QLabel* m_text = nullptr;
    QTableWidget* m_pipeline = nullptr;
    QTableWidget* m_decoderTable = nullptr;
};

} // namespace swb
