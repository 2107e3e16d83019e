#include "compare/ComparePane.h"

#include <cmath>

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "explore/Palette.h"
#include "explore/TokenStreamView.h"

namespace swb {

ComparePane::ComparePane(const QString& label, const Rubric& rubric, QWidget* parent)
    : QWidget(parent)
    , m_label(label) {
    setObjectName(QStringLiteral("pane%1").arg(label));
    m_title = new QLabel(this);
    QFont font = m_title->font();
    font.setPointSizeF(font.pointSizeF() * 1.25);
    font.setBold(true);
    m_title->setFont(font);
    m_stream = new TokenStreamView(this);
    m_stream->setFocusPolicy(Qt::ClickFocus); // Tab goes from score to score, not through the text
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_stream);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumHeight(120);
    scroll->setFocusPolicy(Qt::NoFocus);
    connect(m_stream, &TokenStreamView::stepSelected, this, [this](int step) {
        if (!m_loading && step >= 0)
            emit stepActivated(m_runId, step);
    });

    m_entropy = new QCustomPlot(this);
    m_entropy->setFixedHeight(70);
    m_entropy->addGraph()->setPen(QPen(palette::kept(), 1.3));
    m_entropy->xAxis->setTickLabels(false);
    m_entropy->yAxis->setLabel(tr("entropy"));
    QFont small = m_entropy->yAxis->labelFont();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    m_entropy->yAxis->setLabelFont(small);
    m_entropy->yAxis->setTickLabelFont(small);
    m_entropy->yAxis->ticker()->setTickCount(2);
    m_entropy->setToolTip(tr("Raw entropy of each step (nats)"));
    m_entropyUnknown = new QCPItemText(m_entropy);
    m_entropyUnknown->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_entropyUnknown->position->setCoords(0.5, 0.5);
    m_entropyUnknown->setText(tr("entropy unknown: the engine does not give it"));
    m_entropyUnknown->setColor(QColor(0x6A, 0x6A, 0x6A));
    m_entropyUnknown->setFont(small);
    m_entropyUnknown->setVisible(false);

    m_rubricBox = new QWidget(this);
    auto* form = new QFormLayout(m_rubricBox);
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
    form->setContentsMargins(0, 0, 0, 0);
    // Created in Tab order: the scores, then the note.
    buildRubric(rubric);
    m_note = new QLineEdit(this);
    m_note->setObjectName(QStringLiteral("note%1").arg(label));
    m_note->setPlaceholderText(tr("Note (optional)"));
    connect(m_note, &QLineEdit::editingFinished, this, &ComparePane::saveNote);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_entropy);
    layout->addWidget(m_rubricBox);
    layout->addWidget(m_note);
    setRevealed(false);
}

void ComparePane::saveNote() {
    if (m_loading || !m_runId || m_note->text() == m_savedNote)
        return;
    m_savedNote = m_note->text();
    emit noteChanged(m_runId, m_savedNote);
}

QString ComparePane::entropyNote() const {
    return m_entropyUnknown->visible() ? m_entropyUnknown->text() : QString();
}

void ComparePane::setRun(qint64 runId, const QString& strategyName, const std::vector<GeneratedStep>& steps,
                         std::shared_ptr<const Tokenizer> tokenizer) {
    m_loading = true;
    m_runId = runId;
    m_strategy = strategyName;
    m_stream->setTokenizer(std::move(tokenizer));
    m_stream->clearSteps();
    m_stream->appendSteps(steps);
    QCPGraph* graph = m_entropy->graph(0);
    graph->data()->clear();
    double top = 1.0;
    bool known = false;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        graph->addData(static_cast<double>(i + 1), steps[i].trace.rawEntropy); // unknown (NaN): a gap
        if (!std::isnan(steps[i].trace.rawEntropy)) {
            known = true;
            top = std::max(top, steps[i].trace.rawEntropy);
        }
    }
    // A remote engine's run: say so rather than draw an empty plot.
    m_entropyUnknown->setVisible(!steps.empty() && !known);
    m_entropy->xAxis->setRange(0.5, std::max<double>(10.0, static_cast<double>(steps.size()) + 0.5));
    m_entropy->yAxis->setRange(0, top * 1.1);
    m_entropy->replot();
    setRevealed(m_revealed);
    m_loading = false;
}

void ComparePane::setRevealed(bool revealed) {
    m_revealed = revealed;
    m_title->setText(revealed && !m_strategy.isEmpty() ? tr("%1 — %2").arg(m_label, m_strategy) : m_label);
}

void ComparePane::buildRubric(const Rubric& rubric) {
    auto* form = static_cast<QFormLayout*>(m_rubricBox->layout());
    while (form->rowCount() > 0)
        form->removeRow(0);
    m_scores.clear();
    m_dimensions = rubric.dimensions;
    for (const RubricDimension& dimension : rubric.dimensions) {
        auto* box = new QSpinBox(m_rubricBox);
        // One below the minimum means "not rated yet".
        box->setRange(static_cast<int>(std::floor(dimension.min)) - 1, static_cast<int>(std::ceil(dimension.max)));
        box->setSpecialValueText(tr("–"));
        box->setValue(box->minimum());
        box->setMinimumWidth(90);
        box->setSuffix(tr(" / %1").arg(dimension.max));
        box->setObjectName(QStringLiteral("score%1_%2").arg(m_label, dimension.name));
        box->setAccessibleName(tr("%1 score of %2").arg(dimension.name, m_label));
        box->setToolTip(tr("%1 from %2 to %3; type a number or use the arrow keys").arg(dimension.name).arg(dimension.min).arg(dimension.max));
        connect(box, &QSpinBox::valueChanged, this, [this, box, name = dimension.name](int value) {
            if (!m_loading && m_runId)
                emit scoreChanged(m_runId, name, value, value == box->minimum());
        });
        form->addRow(dimension.name, box);
        m_scores.push_back(box);
    }
}

void ComparePane::setRatings(const std::vector<RatingRecord>& ratings) {
    m_loading = true;
    for (std::size_t i = 0; i < m_dimensions.size(); ++i) {
        QSpinBox* box = m_scores[i];
        box->setValue(box->minimum());
        for (const RatingRecord& rating : ratings)
            if (rating.dimension == m_dimensions[i].name)
                box->setValue(static_cast<int>(std::lround(rating.score)));
    }
    QString note;
    for (const RatingRecord& rating : ratings)
        if (!rating.note.isEmpty())
            note = rating.note;
    m_note->setText(note);
    m_savedNote = note;
    m_loading = false;
}

QSpinBox* ComparePane::scoreBox(int dimension) const {
    return dimension >= 0 && dimension < static_cast<int>(m_scores.size()) ? m_scores[static_cast<std::size_t>(dimension)] : nullptr;
}

} // namespace swb
