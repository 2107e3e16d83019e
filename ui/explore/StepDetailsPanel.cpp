#include "explore/StepDetailsPanel.h"

#include <cmath>

#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include "explore/DistributionModel.h"
#include "explore/SamplerTexts.h"
#include "sampling/DecoderRegistry.h"

namespace swb {

namespace {

QString tokenLabel(const Tokenizer* tokenizer, TokenId id) {
    return visibleTokenText(tokenDisplayText(tokenizer, id));
}

} // namespace

StepDetailsPanel::StepDetailsPanel(QWidget* parent)
    : QWidget(parent) {
    m_pipeline = new QTableWidget(0, 5, this);
    m_pipeline->setObjectName(QStringLiteral("pipeline"));
    m_pipeline->setHorizontalHeaderLabels(
        {tr("Sampler"), tr("Parameters"), tr("Kept"), tr("Kept mass"), tr("Threshold")});
    m_pipeline->verticalHeader()->setVisible(true);
    // Every column in view at 1024 px wide: the figures as wide as they need, the parameters the rest.
    for (int column : {0, 2, 3, 4})
        m_pipeline->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_pipeline->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_pipeline->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_pipeline->setSelectionMode(QAbstractItemView::SingleSelection);
    m_pipeline->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_pipeline->setToolTip(tr("Each stage of the chain at this step; select one to see the distribution after it"));
    connect(m_pipeline, &QTableWidget::itemSelectionChanged, this, &StepDetailsPanel::stageSelected);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("whatIf"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    // What a decoder other than sampling weighed at the selected step (contrastive decoding, contrastive
    // search, guidance); hidden for sampled and beam runs.
    m_decoderTable = new QTableWidget(0, 5, this);
    m_decoderTable->setObjectName(QStringLiteral("decoderCandidates"));
    m_decoderTable->verticalHeader()->hide();
    m_decoderTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_decoderTable->setSelectionMode(QAbstractItemView::NoSelection);
    m_decoderTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_decoderTable->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    layout->addWidget(m_pipeline, 1);
    layout->addWidget(m_decoderTable, 1);
}

int StepDetailsPanel::selectedStage() const {
    const QList<QTableWidgetItem*> selected = m_pipeline->selectedItems();
    return selected.isEmpty() ? -1 : selected.front()->row();
}

void StepDetailsPanel::clear() {
    m_pipeline->setRowCount(0);
    m_pipeline->show();
    m_decoderTable->setRowCount(0);
    m_decoderTable->hide();
    m_text->clear();
}

void StepDetailsPanel::setText(const QString& text) {
    m_text->setText(text);
}

void StepDetailsPanel::fillPipeline(const StepTrace& trace, const Strategy& strategy) {
    const QSignalBlocker blocker(m_pipeline);
    m_pipeline->clearSelection();
    m_pipeline->setRowCount(static_cast<int>(trace.stages.size()));
    for (std::size_t i = 0; i < trace.stages.size(); ++i) {
        const StageTrace& stage = trace.stages[i];
        const QString params = i < strategy.samplers.size() ? strategy.samplers[i].summary() : QString();
        const QStringList cells{stage.sampler, params, QString::number(stage.kept),
                                QStringLiteral("%1%").arg(stage.keptMass * 100.0, 0, 'f', 1),
                                std::isfinite(stage.threshold) ? QString::number(stage.threshold, 'g', 4)
                                                               : QStringLiteral("–")};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (i < strategy.samplers.size())
                item->setToolTip(describeStage(stage, &strategy.samplers[i]));
            m_pipeline->setItem(static_cast<int>(i), c, item);
        }
    }
    m_pipeline->resizeColumnsToContents();
    m_pipeline->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
}

void StepDetailsPanel::showSummary(const StepSummary& summary, const Tokenizer* tokenizer) {
    const StepTrace& actual = *summary.drawn;
    QString text = summary.remote ? tr("<b>Step %1</b>: the engine drew “%2” — raw p %3, %4 (its top %5 candidates "
                                       "shown, the rest as others)")
                                        .arg(summary.step + 1)
                                        .arg(tokenLabel(tokenizer, actual.chosen).toHtmlEscaped())
                                        .arg(actual.rawP, 0, 'g', 3)
                                        .arg(actual.finalP > 0.0f ? tr("final p %1").arg(actual.finalP, 0, 'g', 3)
                                                                  : tr("no final p (the engine does not give it)"))
                                        .arg(actual.top.size())
                                  : tr("<b>Step %1</b>: drew “%2” — raw p %3, final p %4, %n survivor(s)", nullptr,
                                       actual.finalCount)
                                        .arg(summary.step + 1)
                                        .arg(tokenLabel(tokenizer, actual.chosen).toHtmlEscaped())
                                        .arg(actual.rawP, 0, 'g', 3)
                                        .arg(actual.finalP, 0, 'g', 3);
    if (const StepTrace* replay = summary.whatIf) {
        text += (summary.remote ? tr("<br><span style='color:#e06c00'><b>What-if, top-N only</b> (edited chain, "
                                     "replayed on the candidates the engine gave, the rest unseen): would draw "
                                     "“%1” — final p %2 among them, %n survivor(s)</span>",
                                     nullptr, replay->finalCount)
                                : tr("<br><span style='color:#e06c00'><b>What-if</b> (edited chain, replayed on this "
                                     "step's logits): would draw “%1” — final p %2, %n survivor(s)</span>",
                                     nullptr, replay->finalCount))
                    .arg(tokenLabel(tokenizer, replay->chosen).toHtmlEscaped())
                    .arg(replay->finalP, 0, 'g', 3);
    } else if (summary.storedOnly) {
        text += tr("<br>Stored trace (the run's model is not loaded).");
    }
    if (summary.decoder)
        text += fillDecoderTable(*summary.decoder, summary.decoderType, tokenizer);
    m_text->setText(text);
}

QString StepDetailsPanel::fillDecoderTable(const DecoderStepTrace& decoder, const QString& type,
                                           const Tokenizer* tokenizer) {
    if (decoder.empty()) {
        m_decoderTable->hide();
        m_pipeline->show();
        return {};
    }
    // Its columns and how its score is made, from the decoder's registry entry, in the interface's language.
    const DecoderDescriptor* descriptor = findDecoder(type);
    if (!descriptor || descriptor->traceColumns.size() != 5) {
        m_decoderTable->hide();
        m_pipeline->show();
        return {};
    }
    QStringList headers;
    for (const QString& column : descriptor->traceColumns)
        headers << samplerText(column);
    QString note = samplerText(descriptor->traceNote);
    if (note.contains(QLatin1String("%1")))
        note = note.arg(decoder.threshold, 0, 'g', 3);
    const QString caption = QStringLiteral("<br>") + note.toHtmlEscaped();
    m_decoderTable->setHorizontalHeaderLabels(headers);
    m_decoderTable->setRowCount(static_cast<int>(decoder.candidates.size()));
    for (std::size_t r = 0; r < decoder.candidates.size(); ++r) {
        const DecoderCandidate& c = decoder.candidates[r];
        const QStringList cells = {tokenLabel(tokenizer, c.token), QString::number(c.first, 'g', 4),
                                   QString::number(c.second, 'g', 4),
                                   std::isfinite(c.score) ? QString::number(c.score, 'g', 4) : QStringLiteral("cut"),
                                   c.kept ? QStringLiteral("✓") : QString()};
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = new QTableWidgetItem(cells[col]);
            if (col > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!c.kept)
                item->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
            m_decoderTable->setItem(static_cast<int>(r), col, item);
        }
    }
    m_decoderTable->resizeColumnsToContents();
    m_decoderTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_decoderTable->show();
    m_pipeline->hide();
    return caption;
}

} // namespace swb
