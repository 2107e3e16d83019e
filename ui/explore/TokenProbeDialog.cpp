#include "explore/TokenProbeDialog.h"

#include <algorithm>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include "InferenceSession.h"
#include "RunTokenizers.h"
#include "explore/DistributionModel.h"
#include "explore/Palette.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

TokenProbeDialog::TokenProbeDialog(InferenceSession& session, QWidget* parent)
    : QDialog(parent)
    , m_session(session) {
    connect(this, &TokenProbeDialog::probeRequested, this, &TokenProbeDialog::requestProbe);
    connect(m_session.worker(), &InferenceWorker::tokenProbed, this, [this](quint64 id, const TokenProbe& probe) {
        if (id == m_probeId)
            showProbe(probe);
    });
    connect(m_session.worker(), &InferenceWorker::probeFailed, this, [this](quint64 id, const QString& message) {
        if (id == m_probeId)
            showFailure(message);
    });
    setWindowTitle(tr("Token Probe"));
    setObjectName(QStringLiteral("tokenProbe"));
    resize(760, 560);
    m_token = new QComboBox(this);
    m_token->setObjectName(QStringLiteral("probeToken"));
    m_token->setEditable(true);
    m_token->setMinimumContentsLength(24);
    m_token->setToolTip(tr("One of the selected step's candidates, a word (as it would appear inside a text), or "
                           "#id"));
    m_run = new QPushButton(tr("&Probe"), this);
    m_run->setDefault(true);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("&Token:"), this));
    static_cast<QLabel*>(row->itemAt(0)->widget())->setBuddy(m_token);
    row->addWidget(m_token, 1);
    row->addWidget(m_run);
    m_summary = new QLabel(tr("Pick a candidate or type a word, then Probe."), this);
    m_summary->setObjectName(QStringLiteral("probeSummary"));
    m_summary->setWordWrap(true);

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumHeight(180);
    m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_plot->yAxis->setLabel(tr("raw p"));
    m_plot->yAxis2->setVisible(true);
    m_plot->yAxis2->setScaleType(QCPAxis::stLogarithmic);
    m_plot->yAxis2->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_plot->yAxis2->setRangeReversed(true); // rank 1 on top
    m_plot->yAxis2->setLabel(tr("raw rank"));
    // Before a probe: ranks from 1 (QCustomPlot's default range would label the rank axis 0.001 to 1).
    m_plot->yAxis2->setRange(0.8, 10.0);
    m_plot->yAxis->setRange(1e-3, 1.0);
    m_plot->xAxis->setLabel(tr("step"));
    QFont legendFont = m_plot->legend->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    m_plot->legend->setFont(legendFont);
    // The legend in a row of its own above the curves, in one line.
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (!m_probe || m_probe->steps.empty())
            return;
        if (!m_plot->axisRect()->rect().contains(event->pos()))
            return;
        const auto step = static_cast<int>(std::lround(m_plot->xAxis->pixelToCoord(event->pos().x()))) - 1;
        emit stepActivated(std::clamp(step, 0, static_cast<int>(m_probe->steps.size()) - 1));
    });

    m_table = new QTableWidget(0, 6, this);
    m_table->setObjectName(QStringLiteral("probeTable"));
    m_table->setHorizontalHeaderLabels({tr("Step"), tr("Drawn"), tr("Raw p"), tr("Raw rank"), tr("Final p"), tr("Fate")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    connect(m_table, &QTableWidget::cellDoubleClicked, this, [this](int row, int) { emit stepActivated(row); });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_summary);
    layout->addWidget(m_plot, 2);
    layout->addWidget(m_table, 3);
    connect(m_run, &QPushButton::clicked, this, &TokenProbeDialog::probe);
    connect(m_token->lineEdit(), &QLineEdit::returnPressed, this, &TokenProbeDialog::probe);
}

void TokenProbeDialog::setRun(std::shared_ptr<const Tokenizer> tokenizer, const QStringList& stepTexts,
                              const std::vector<std::pair<TokenId, QString>>& candidates) {
    m_tokenizer = std::move(tokenizer);
    m_stepTexts = stepTexts;
    m_candidates = candidates;
    m_token->clear();
    for (const auto& [id, text] : candidates)
        m_token->addItem(QStringLiteral("“%1”  #%2").arg(text).arg(id), id);
    m_probe.reset();
    m_table->setRowCount(0);
    m_plot->clearGraphs();
    m_plot->legend->setVisible(false); // no empty legend box before the first probe
    m_plot->replot();
    m_summary->setText(tr("Pick a candidate or type a word, then Probe."));
}

QString TokenProbeDialog::tokenText(TokenId token) const {
    return visibleTokenText(tokenDisplayText(m_tokenizer.get(), token));
}

std::optional<TokenId> TokenProbeDialog::resolve(const QString& text, QString* note) const {
    note->clear();
    const int index = m_token->findText(text);
    if (index >= 0 && m_token->itemData(index).isValid())
        return static_cast<TokenId>(m_token->itemData(index).toInt());
    const QString trimmed = text.trimmed();
    if (trimmed.startsWith(QLatin1Char('#'))) {
        bool ok = false;
        const int id = trimmed.mid(1).toInt(&ok);
        if (ok && m_tokenizer && id >= 0 && id < m_tokenizer->vocabSize())
            return id;
        *note = tr("%1 is not a token id of this vocabulary.").arg(trimmed);
        return std::nullopt;
    }
    if (trimmed.isEmpty() || !m_tokenizer) {
        *note = tr("Type a word or pick a candidate.");
        return std::nullopt;
    }
    // A word inside a text follows a space: prefer that spelling when it is one token.
    const std::vector<TokenId> spaced = m_tokenizer->encode(" " + trimmed.toStdString(), false, false);
    if (spaced.size() == 1)
        return spaced.front();
    const std::vector<TokenId> plain = m_tokenizer->encode(trimmed.toStdString(), false, false);
    if (plain.empty()) {
        *note = tr("“%1” makes no token.").arg(trimmed);
        return std::nullopt;
    }
    if (plain.size() > 1)
        *note = tr("“%1” is %2 tokens; this probes the first, “%3”.").arg(trimmed).arg(plain.size()).arg(tokenText(plain.front()));
    return plain.front();
}

void TokenProbeDialog::probe() {
    QString note;
    const std::optional<TokenId> token = resolve(m_token->currentText(), &note);
    if (!token) {
        m_summary->setText(note);
        return;
    }
    m_note = note;
    m_summary->setText(tr("Probing “%1”…").arg(tokenText(*token)));
    emit probeRequested(*token);
}

void TokenProbeDialog::probeRun(const ExploreRun& run, int selected, TokenId token) {
    const std::shared_ptr<const Tokenizer> tokenizer = m_session.runTokenizers()->find(run.modelHash);
    QStringList texts;
    for (const GeneratedStep& step : run.steps)
        texts << visibleTokenText(tokenDisplayText(tokenizer.get(), step.token));
    std::vector<std::pair<TokenId, QString>> candidates;
    for (const TopCandidate& candidate : run.steps[static_cast<std::size_t>(selected)].trace.top) {
        if (candidates.size() >= 12)
            break;
        candidates.emplace_back(candidate.id, visibleTokenText(tokenDisplayText(tokenizer.get(), candidate.id)));
    }
    m_probed = run;
    setWindowTitle(tr("Token Probe: run %1").arg(run.runId));
    setRun(tokenizer, texts, candidates);
    for (int i = 0; token >= 0 && i < m_token->count(); ++i)
        if (m_token->itemData(i).toInt() == token)
            m_token->setCurrentIndex(i);
    show();
    raise();
}

void TokenProbeDialog::requestProbe(TokenId token) {
    // The run the dialog was opened for, on its own model (the loaded one may have changed since).
    if (!m_session.model() || m_probed.modelHash != m_session.model()->info.contentHash) {
        showFailure(tr("the run's model is no longer the loaded one; open it again to probe this run"));
        return;
    }
    m_probeId = m_session.nextId();
    QMetaObject::invokeMethod(m_session.worker(),
                              [worker = m_session.worker(), id = m_probeId, prompt = m_probed.promptIds,
                               tokens = m_probed.tokens(), strategy = m_probed.strategy, seed = m_probed.seed,
                               token] { worker->probe(id, prompt, tokens, strategy, seed, token); });
}

QString TokenProbeDialog::fate(const TokenProbeStep& step) const {
    if (step.drawn)
        return tr("drawn");
    if (step.cutBy < 0)
        return tr("survived, not drawn");
    const QString stage = m_probe && step.cutBy < m_probe->stages.size() ? m_probe->stages.at(step.cutBy) : QString();
    return tr("cut by %1 (stage %2)").arg(stage).arg(step.cutBy + 1);
}

void TokenProbeDialog::showFailure(const QString& message) {
    m_summary->setText(tr("The probe failed: %1").arg(message));
}

void TokenProbeDialog::showProbe(const TokenProbe& probe) {
    m_probe = probe;
    const int steps = static_cast<int>(probe.steps.size());
    int drawn = 0;
    int survived = 0;
    std::vector<int> cutBy(static_cast<std::size_t>(probe.stages.size()), 0);
    m_table->setRowCount(steps);
    QVector<double> x, rawP, rank, drawnX, drawnY, cutX, cutY;
    for (int i = 0; i < steps; ++i) {
        const TokenProbeStep& step = probe.steps[static_cast<std::size_t>(i)];
        drawn += step.drawn ? 1 : 0;
        survived += !step.drawn && step.cutBy < 0 ? 1 : 0;
        if (step.cutBy >= 0)
            ++cutBy[static_cast<std::size_t>(step.cutBy)];
        const QStringList cells{QString::number(i + 1),
                                i < m_stepTexts.size() ? m_stepTexts.at(i) : QString(),
                                QString::number(step.rawP, 'g', 3),
                                QString::number(step.rawRank),
                                step.cutBy >= 0 ? QStringLiteral("–") : QString::number(step.finalP, 'g', 3),
                                fate(step)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells.at(c));
            if (c >= 2 && c <= 4)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(i, c, item);
        }
        const double p = std::max(1e-12, static_cast<double>(step.rawP));
        x << i + 1;
        rawP << p;
        rank << step.rawRank;
        (step.cutBy >= 0 ? cutX : drawnX) << i + 1;
        (step.cutBy >= 0 ? cutY : drawnY) << p;
    }
    m_table->resizeColumnsToContents();

    m_plot->clearGraphs();
    m_plot->legend->setVisible(true);
    QCPGraph* pGraph = m_plot->addGraph();
    pGraph->setName(tr("raw p"));
    pGraph->setData(x, rawP, true);
    pGraph->setPen(QPen(palette::kept(), 1.5));
    QCPGraph* rankGraph = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    rankGraph->setName(tr("raw rank"));
    rankGraph->setData(x, rank, true);
    rankGraph->setPen(QPen(palette::marker(), 1.2, Qt::DashLine));
    QCPGraph* kept = m_plot->addGraph();
    kept->setName(tr("survived the chain"));
    kept->setData(drawnX, drawnY, true);
    kept->setLineStyle(QCPGraph::lsNone);
    kept->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, palette::accent(), 6));
    QCPGraph* cut = m_plot->addGraph();
    cut->setName(tr("cut by the chain"));
    cut->setData(cutX, cutY, true);
    cut->setLineStyle(QCPGraph::lsNone);
    cut->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(0x80, 0x80, 0x80), 6));
    m_plot->xAxis->setRange(0.5, std::max(10, steps) + 0.5);
    const double low = *std::min_element(rawP.begin(), rawP.end());
    m_plot->yAxis->setRange(std::max(1e-12, low / 2), 1.0);
    const double worst = *std::max_element(rank.begin(), rank.end());
    m_plot->yAxis2->setRange(0.8, std::max(10.0, worst * 1.5));
    m_plot->replot();

    QStringList cuts;
    for (std::size_t s = 0; s < cutBy.size(); ++s)
        if (cutBy[s] > 0)
            cuts << tr("%1 by %2").arg(cutBy[s]).arg(probe.stages.at(static_cast<qsizetype>(s)));
    QString text = tr("“%1” (#%2) over %3 steps: drawn at %4, survived the chain without being drawn at %5, cut at %6%7.")
                       .arg(tokenText(probe.token))
                       .arg(probe.token)
                       .arg(steps)
                       .arg(drawn)
                       .arg(survived)
                       .arg(steps - drawn - survived)
                       .arg(cuts.isEmpty() ? QString() : QStringLiteral(" (") + cuts.join(QStringLiteral(", ")) + QLatin1Char(')'));
    if (!m_note.isEmpty())
        text = m_note + QLatin1Char(' ') + text;
    m_summary->setText(text + QLatin1Char(' ') + tr("Double-click a row to select its step in Explore."));
}

} // namespace swb
