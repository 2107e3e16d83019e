#pragma once

#include <vector>

#include <QString>

#include "generation/StepReplay.h"
#include "sampling/StepTrace.h"
#include "sampling/Strategy.h"

namespace swb {

class Tokenizer;

// What the distribution plot shows for one step, independent of how it is drawn (tests read it).
struct DistributionBar {
    TokenId id = -1;
    QString label;       // token text with whitespace made visible
    double rawP = 0.0;   // softmax of the raw logits
    double shownP = 0.0; // the probability after the shown stage (the final one unless a stage is picked)
    bool kept = false;   // survived up to the shown stage
    bool chosen = false;
};

// A cutoff drawn between bars: survivors of the stage are the bars left of position (when they are
// the top raw candidates; samplers that reorder, e.g. penalties, make it approximate).
struct CutMarker {
    int stage = 0;      // index in the chain
    int position = 0;   // number of survivors; the line sits at x = position - 0.5
    bool onPlot = true; // false when the survivors outnumber the bars shown
    QString label;
};

struct DistributionModel {
    std::vector<DistributionBar> bars; // by raw probability, highest first
    double othersRawP = 0.0;           // raw mass of every token not shown as a bar
    double othersShownP = 0.0;
    std::vector<CutMarker> markers;
    int chosenBar = -1; // index into bars, -1 when the chosen token is not among them
    int keptBars = 0;
    QString title;
    QString finalLabel; // the legend of the dark ticks: after the chain, or after the selected stage
};

// Builds the plot's content from a step's trace. stages, when given (a replay), supply the
// distribution after each stage; stage selects which (-1 = final, 0.. = after that stage). whatIf: the trace is
// an edited chain's replay, so the title says what it would draw; otherwise what the run drew.
DistributionModel buildDistributionModel(const StepTrace& trace, const Strategy& strategy,
                                         const std::vector<StageDistribution>* stages, int stage,
                                         const Tokenizer* tokenizer, int vocabSize, bool whatIf = false,
                                         int maxBars = 32);

// Token text for display: spaces as ·, newlines as ↵, tabs as →, C0 controls as <0xNN>, other
// unprintable characters (DEL, C1, format, unassigned) as <U+XXXX>: never a font's empty box.
QString visibleTokenText(const QString& text);
QString tokenDisplayText(const Tokenizer* tokenizer, TokenId id);

// One-line description of what a stage did, e.g. "top-p 0.9: 17 tokens, 90.3%".
QString describeStage(const StageTrace& stage, const SamplerSpec* spec);

} // namespace swb
