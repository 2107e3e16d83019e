#include "explore/DivergenceDialog.h"

#include <algorithm>
#include <numeric>

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <qcustomplot.h>

#include "explore/Palette.h"
#include "model/Model.h"
#include "quantization/ServedModel.h"
#include "sampling/Strategy.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb {

namespace {

constexpr int kLargestRows = 20;
constexpr int kOverlayTokens = 8; // of each model
constexpr int kServedTopN = 20;   // asked of a served model B a position (what OpenAI-style engines cap it at)

QString number(double v, int precision = 4) {
    return QString::number(v, 'g', precision);
}

// "top_k k=40 → top_p p=0.9 → dist": the chain in a line.
QString strategyWords(const Strategy& strategy) {
    QStringList stages;
    for (const SamplerSpec& spec : strategy.samplers) {
        const QString params = spec.summary();
        stages << (params.isEmpty() ? spec.type : spec.type + QLatin1Char(' ') + params);
    }
    return stages.join(QStringLiteral(" → "));
}

// A bar the strategy cut: the model's colour, faded.
QColor faded(QColor colour) {
    colour.setAlpha(70);
    return colour;
}

} // namespace

DivergenceDialog::DivergenceDialog(const QString& modelA, const QString& text, QWidget* parent)
    : QDialog(parent)
    , m_modelA(modelA) {
    setObjectName(QStringLiteral("divergenceDialog"));
    setWindowTitle(tr("Divergence"));
    auto* modelALabel = new QLabel(QDir::toNativeSeparators(modelA), this);
    modelALabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_modelB = new QLineEdit(this);
    m_modelB->setObjectName(QStringLiteral("divergenceModelB"));
    m_modelB->setPlaceholderText(
        tr("a model sharing A's tokenizer: its quantization, a fine-tune…, or a server's http://HOST:PORT/v1"));
    auto* browse = new QPushButton(tr("&Browse…"), this);
    auto* modelBRow = new QHBoxLayout;
    modelBRow->addWidget(m_modelB, 1);
    modelBRow->addWidget(browse);
    m_text = new QPlainTextEdit(text, this);
    m_text->setObjectName(QStringLiteral("divergenceText"));
    m_text->setPlaceholderText(tr("The text both models read, token by token"));
    m_text->setMaximumHeight(52);
    m_measure = new QPushButton(tr("&Measure"), this);
    m_measure->setObjectName(QStringLiteral("divergenceMeasure"));
    m_measure->setDefault(true);
    m_measure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_measure->setToolTip(tr("Score every token of the text with both models (Ctrl+Return)"));
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(200);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("divergenceStatus"));
    m_status->setWordWrap(true);
    auto* actionRow = new QHBoxLayout;
    actionRow->addWidget(m_measure);
    actionRow->addWidget(m_progress);
    actionRow->addWidget(m_status, 1);

    auto* form = new QFormLayout;
    form->addRow(tr("Model A:"), modelALabel);
    auto* modelBLabel = new QLabel(tr("Model &B:"), this);
    modelBLabel->setBuddy(m_modelB); // a row holding a layout gets no buddy of its own
    form->addRow(modelBLabel, modelBRow);
    form->addRow(tr("&Text:"), m_text);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("divergenceSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scale = new QLabel(this);
    m_scale->setObjectName(QStringLiteral("divergenceScale"));
    m_shaded = new QTextBrowser(this);
    m_shaded->setObjectName(QStringLiteral("divergenceShaded"));
    m_shaded->setOpenLinks(false);
    m_shaded->setToolTip(tr("Each token shaded by how far B's distribution before it is from A's; click one"));
    m_largest = new QTableWidget(0, 7, this);
    m_largest->setObjectName(QStringLiteral("divergenceLargest"));
    m_largest->setHorizontalHeaderLabels(
        {tr("At"), tr("Token"), tr("KL"), tr("A's top"), tr("B's top"), tr("ln p A"), tr("ln p B")});
    m_largest->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_largest->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_largest->setSelectionMode(QAbstractItemView::SingleSelection);
    m_largest->verticalHeader()->hide();
    m_largest->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_largest->horizontalHeader()->setStretchLastSection(true);
    m_largest->setToolTip(tr("The positions where the two models differ most"));

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("divergenceOverlay"));
    m_plot->setMinimumHeight(150);
    m_positionLabel = new QLabel(tr("Click a token to see both distributions before it."), this);
    m_positionLabel->setObjectName(QStringLiteral("divergencePosition"));
    m_positionLabel->setWordWrap(true);
    m_openPrefix = new QPushButton(tr("Open This Prefix in Explore with Model B"), this);
    m_openPrefix->setObjectName(QStringLiteral("divergenceOpenPrefix"));
    m_openPrefix->setEnabled(false);

    auto* textPane = new QWidget(this);
    auto* textLayout = new QVBoxLayout(textPane);
    textLayout->setContentsMargins(0, 0, 0, 0);
    textLayout->addWidget(m_summary);
    textLayout->addWidget(m_scale);
    textLayout->addWidget(m_shaded, 1);
    auto* top = new QSplitter(Qt::Horizontal, this);
    top->addWidget(textPane);
    top->addWidget(m_largest);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    auto* overlayPane = new QWidget(this);
    auto* overlayLayout = new QVBoxLayout(overlayPane);
    overlayLayout->setContentsMargins(0, 0, 0, 0);
    auto* overlayHead = new QHBoxLayout;
    overlayHead->addWidget(m_positionLabel, 1);
    overlayHead->addWidget(m_openPrefix);
    overlayLayout->addLayout(overlayHead);
    overlayLayout->addWidget(m_plot, 1);
    auto* results = new QSplitter(Qt::Vertical, this);
    results->addWidget(top);
    results->addWidget(overlayPane);
    results->setStretchFactor(0, 1);
    results->setStretchFactor(1, 1);

    m_close = new QPushButton(tr("Close"), this);
    auto* bottom = new QHBoxLayout;
    bottom->addStretch(1);
    bottom->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(actionRow);
    layout->addWidget(results, 1);
    layout->addLayout(bottom);
    resize(900, 660);

    auto* timer = new QTimer(this);
    timer->setInterval(100);
    connect(timer, &QTimer::timeout, this, [this] {
        if (m_total && *m_total > 0) {
            m_progress->setRange(0, static_cast<int>(*m_total));
            m_progress->setValue(static_cast<int>(*m_done));
        }
    });
    timer->start();
    connect(browse, &QPushButton::clicked, this, &DivergenceDialog::chooseModelB);
    connect(m_measure, &QPushButton::clicked, this, &DivergenceDialog::measure);
    connect(m_close, &QPushButton::clicked, this, &DivergenceDialog::reject);
    connect(m_shaded, &QTextBrowser::anchorClicked, this,
            [this](const QUrl& url) { selectPosition(url.fragment().toInt()); });
    connect(m_largest, &QTableWidget::itemSelectionChanged, this, [this] {
        const QList<QTableWidgetItem*> items = m_largest->selectedItems();
        if (!items.isEmpty())
            selectPosition(m_largest->item(items.first()->row(), 0)->data(Qt::UserRole).toInt());
    });
    connect(m_openPrefix, &QPushButton::clicked, this,
            [this] { emit openPrefixRequested(prefixBefore(m_selected), m_resultModelB); });
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &DivergenceDialog::finished);
}

DivergenceDialog::~DivergenceDialog() {
    if (m_cancel)
        *m_cancel = true;
    m_watcher.waitForFinished();
}

void DivergenceDialog::chooseModelB() {
    const QString path =
        !m_nextFileName.isEmpty()
            ? std::exchange(m_nextFileName, QString())
            : QFileDialog::getOpenFileName(this, tr("Choose Model B"), QFileInfo(m_modelA).absolutePath(),
                                           tr("Models (*.gguf *.bin config.json);;All files (*)"));
    if (path.isEmpty())
        return;
    // A Hugging Face folder is named by its config.json.
    m_modelB->setText(QDir::toNativeSeparators(
        QFileInfo(path).fileName() == QLatin1String("config.json") ? QFileInfo(path).absolutePath() : path));
}

void DivergenceDialog::measure() {
    if (isWorking())
        return;
    const QString modelB = QDir::fromNativeSeparators(m_modelB->text().trimmed());
    const QString text = m_text->toPlainText();
    if (modelB.isEmpty()) {
        m_status->setText(tr("Choose model B: the model to compare with A."));
        return;
    }
    if (text.trimmed().isEmpty()) {
        m_status->setText(tr("Type or paste the text both models should read."));
        return;
    }
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_done = std::make_shared<std::atomic<std::int64_t>>(0);
    m_total = std::make_shared<std::atomic<std::int64_t>>(0);
    m_working = true;
    m_measure->setEnabled(false);
    m_close->setText(tr("Cancel"));
    m_progress->setRange(0, 0);
    m_progress->show();
    m_status->setText(tr("Loading the two models…"));
    m_resultModelB = modelB;
    emit measured(modelB);
    std::optional<Strategy> strategy;
    if (m_strategySource)
        strategy = m_strategySource();
    m_resultStrategy = strategy ? strategyWords(*strategy) : QString();
    m_watcher.setFuture(QtConcurrent::run([modelA = m_modelA, modelB, text = text.toStdString(), cancel = m_cancel,
                                           done = m_done, total = m_total, strategy] {
        Outcome outcome;
        const auto progress = [&](std::int64_t n, std::int64_t all) {
            *done = n;
            *total = all;
            return !cancel->load();
        };
        if (isRemoteModelAddress(modelB)) {
            // A served B: its top N a position, the KL over them a lower bound (labelled when shown).
            Result<std::unique_ptr<Tokenizer>> tok = loadTokenizer(modelA);
            Result<std::unique_ptr<Model>> a = tok ? Model::load(modelA) : tok.error();
            if (!a) {
                outcome.error = a.error().message;
                return outcome;
            }
            Result<RemoteModel> remote =
                quantization::connectServedModelB(modelB, QString(), **tok, (*a)->info().vocabSize, &text);
            Result<quantization::DivergenceResult> result =
                remote ? quantization::measureDivergenceAgainstTopN(**a, (*tok)->encode(text, true, false),
                                                                    quantization::servedTopN(*remote, kServedTopN),
                                                                    progress, kOverlayTokens)
                       : Result<quantization::DivergenceResult>(remote.error());
            if (!result) {
                outcome.error = result.error().message;
                return outcome;
            }
            outcome.result = std::make_shared<quantization::DivergenceResult>(std::move(result).value());
            outcome.tokenizer = std::shared_ptr<const Tokenizer>(std::move(tok).value());
            outcome.servedTopN = kServedTopN;
            return outcome;
        }
        Result<std::unique_ptr<Tokenizer>> tokA = loadTokenizer(modelA);
        Result<std::unique_ptr<Tokenizer>> tokB = tokA ? loadTokenizer(modelB) : tokA.error();
        if (!tokA || !tokB) {
            outcome.error = (!tokA ? tokA : tokB).error().message;
            return outcome;
        }
        if (Status same = quantization::checkSameTokenizer(**tokA, **tokB); !same) {
            outcome.error = same.error().message;
            return outcome;
        }
        Result<std::unique_ptr<Model>> a = Model::load(modelA);
        Result<std::unique_ptr<Model>> b = a ? Model::load(modelB) : a.error();
        if (!a || !b) {
            outcome.error = (!a ? a : b).error().message;
            return outcome;
        }
        std::vector<TokenId> ids = (*tokA)->encode(text, true, false);
        Result<quantization::DivergenceResult> result = quantization::measureDivergence(
            **a, **b, std::move(ids), progress,
            quantization::DivergenceOptions{kOverlayTokens, strategy ? &*strategy : nullptr, tokA->get()});
        if (!result) {
            outcome.error = result.error().message;
            return outcome;
        }
        outcome.result = std::make_shared<quantization::DivergenceResult>(std::move(result).value());
        outcome.tokenizer = std::shared_ptr<const Tokenizer>(std::move(tokA).value());
        return outcome;
    }));
}

void DivergenceDialog::finished() {
    m_working = false;
    m_measure->setEnabled(true);
    m_close->setText(tr("Close"));
    m_progress->hide();
    const Outcome outcome = m_watcher.result();
    if (!outcome.result) {
        m_status->setText(outcome.error);
        return;
    }
    m_result = outcome.result;
    m_tokenizer = outcome.tokenizer;
    m_servedTopN = outcome.servedTopN;
    m_status->setText(tr("%n token(s) scored.", nullptr, static_cast<int>(m_result->perToken.size())));
    showResult();
}

QString DivergenceDialog::pieceText(TokenId id) const {
    const QString piece = QString::fromUtf8(m_tokenizer->piece(id));
    // A token that decodes to nothing (<unk>, a control token) or to characters that do not show (a control
    // byte, part of a UTF-8 sequence) is shown by its name.
    const bool visible = !piece.isEmpty() && std::all_of(piece.begin(), piece.end(), [](QChar c) {
        return c == QLatin1Char('\n') || (c.isPrint() && c != QChar::ReplacementCharacter);
    });
    if (!visible)
        return QString::fromUtf8(m_tokenizer->tokenText(id));
    if (piece.trimmed().isEmpty() && !piece.contains(QLatin1Char('\n')))
        return QString(piece.size(), QChar(0x2423)); // ␣: a token of spaces alone
    return QString(piece).replace(QLatin1Char('\n'), QStringLiteral("↵"));
}

QString DivergenceDialog::prefixBefore(int position) const {
    if (!m_result || position < 0)
        return {};
    // Scored token `position` is ids[position + 1]: the prefix is the text of the tokens before it, BOS left out.
    const std::vector<TokenId> before(m_result->ids.begin() + 1, m_result->ids.begin() + 1 + position);
    return QString::fromUtf8(m_tokenizer->decode(before));
}

void DivergenceDialog::showResult() {
    m_selected = -1;
    const quantization::DivergenceSummary& s = m_result->summary;
    const QString served = m_servedTopN > 0 ? tr("B is served, known by its top %1 a position: the KL is over those "
                                                 "tokens and the rest as one, a lower bound. ")
                                                  .arg(m_servedTopN)
                                            : QString();
    m_summary->setText(served +
                       tr("KL(A‖B) mean %1, median %2, p99 %3, max %4 nats · same top-1 %5% · perplexity A %6, "
                          "B %7 (%8%, 95% interval %9% to %10%)")
                           .arg(number(s.meanKl), number(s.medianKl), number(s.p99Kl), number(s.maxKl))
                           .arg(100.0 * s.sameTop1, 0, 'f', 1)
                           .arg(s.pplA, 0, 'f', 3)
                           .arg(s.pplB, 0, 'f', 3)
                           .arg(100.0 * s.deltaPplRelative, 0, 'f', 2)
                           .arg(100.0 * s.deltaPplLow, 0, 'f', 2)
                           .arg(100.0 * s.deltaPplHigh, 0, 'f', 2));
    // The darkest shade at the 99th percentile, so that one outlier does not wash the rest out.
    m_scaleTop = s.p99Kl > 0 ? s.p99Kl : std::max(s.maxKl, 1e-12);
    QString legend = tr("Shade: ");
    for (int i = 0; i <= 4; ++i)
        legend += QStringLiteral("<span style=\"background:%1\">&nbsp;%2&nbsp;</span>")
                      .arg(palette::divergence(i / 4.0).name(), number(m_scaleTop * i / 4.0, 2));
    m_scale->setText(legend + tr(" nats (darkest at the 99th percentile and past it)"));

    std::vector<int> order(m_result->perToken.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [this](int x, int y) { return m_result->perToken[x].kl > m_result->perToken[y].kl; });
    order.resize(std::min<std::size_t>(order.size(), kLargestRows));
    const QSignalBlocker block(m_largest);
    m_largest->setRowCount(static_cast<int>(order.size()));
    for (int row = 0; row < static_cast<int>(order.size()); ++row) {
        const quantization::TokenDivergence& d = m_result->perToken[static_cast<std::size_t>(order[row])];
        const QStringList cells = {QString::number(order[row] + 1),
                                   pieceText(d.token),
                                   number(d.kl),
                                   pieceText(d.topA),
                                   pieceText(d.topB),
                                   number(d.logpA),
                                   number(d.logpB)};
        for (int c = 0; c < cells.size(); ++c)
            m_largest->setItem(row, c, new QTableWidgetItem(cells[c]));
        m_largest->item(row, 0)->setData(Qt::UserRole, order[row]);
        m_largest->item(row, 2)->setBackground(palette::divergence(d.kl / m_scaleTop));
    }
    selectPosition(order.empty() ? -1 : order.front());
}

void DivergenceDialog::renderShaded() {
    QString html = QStringLiteral("<div style=\"line-height:150%\">");
    for (std::size_t i = 0; i < m_result->perToken.size(); ++i) {
        const quantization::TokenDivergence& d = m_result->perToken[i];
        QString piece = pieceText(d.token).toHtmlEscaped();
        piece.replace(QStringLiteral("↵"), QStringLiteral("↵<br>"));
        piece.replace(QChar(0x2423), QStringLiteral("&nbsp;"));
        piece.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
        const bool selected = static_cast<int>(i) == m_selected;
        html += QStringLiteral("<a href=\"#%1\" style=\"color:#000;text-decoration:%2;background:%3\">%4</a>")
                    .arg(i)
                    .arg(selected ? QStringLiteral("underline") : QStringLiteral("none"),
                         palette::divergence(d.kl / m_scaleTop).name(),
                         selected ? QStringLiteral("<b>%1</b>").arg(piece) : piece);
    }
    const int scroll = m_shaded->verticalScrollBar()->value();
    m_shaded->setHtml(html + QStringLiteral("</div>"));
    m_shaded->verticalScrollBar()->setValue(scroll);
}

void DivergenceDialog::selectPosition(int position) {
    if (!m_result || position < 0 || position >= static_cast<int>(m_result->top.size()))
        return;
    m_selected = position;
    const quantization::TokenDivergence& d = m_result->perToken[static_cast<std::size_t>(position)];
    const quantization::PositionTop& top = m_result->top[static_cast<std::size_t>(position)];
    QString label = tr("Before token %1 '%2': KL %3 nats; A's top '%4', B's top '%5'")
                        .arg(position + 1)
                        .arg(pieceText(d.token), number(d.kl), pieceText(d.topA), pieceText(d.topB));
    const bool cuts = top.keptCountA >= 0;
    if (m_servedTopN > 0)
        label += QLatin1Char('\n') + tr("B's bars: its top %1 as the server gave them (none where it did not list "
                                        "the token)")
                                         .arg(m_servedTopN);
    if (cuts)
        label += QLatin1Char('\n') + tr("Under %1: A keeps %2 tokens, B %3, %4 of them the same (faded bars: cut)")
                                         .arg(m_resultStrategy)
                                         .arg(top.keptCountA)
                                         .arg(top.keptCountB)
                                         .arg(top.keptBoth);
    m_positionLabel->setText(label);
    m_openPrefix->setEnabled(true);
    renderShaded();

    m_plot->clearPlottables();
    auto* a = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto* b = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    a->setName(tr("A"));
    b->setName(tr("B"));
    a->setBrush(palette::kept());
    a->setPen(Qt::NoPen);
    b->setBrush(palette::accent());
    b->setPen(Qt::NoPen);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double highest = 0;
    // Bars the strategy cut are drawn faded: one bars object per model and fate.
    auto* aCut = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    auto* bCut = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    aCut->setBrush(faded(palette::kept()));
    bCut->setBrush(faded(palette::accent()));
    for (QCPBars* bars : {aCut, bCut}) {
        bars->setPen(Qt::NoPen);
        bars->removeFromLegend();
    }
    for (std::size_t i = 0; i < top.tokens.size(); ++i) {
        const bool keptA = !cuts || top.keptA[i];
        const bool keptB = !cuts || top.keptB[i];
        // A's bar left of the token's place, B's right of it.
        (keptA ? a : aCut)->addData(static_cast<double>(i) - 0.2, top.pA[i]);
        (keptB ? b : bCut)->addData(static_cast<double>(i) + 0.2, top.pB[i]);
        QString label = pieceText(top.tokens[i]);
        if (top.tokens[i] == d.token)
            label = QStringLiteral("▶") + label; // the token that came
        ticker->addTick(static_cast<double>(i), label);
        highest = std::max({highest, static_cast<double>(top.pA[i]), static_cast<double>(top.pB[i])});
    }
    for (QCPBars* bars : {a, b, aCut, bCut})
        bars->setWidth(0.38);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLabelRotation(top.tokens.size() > 10 ? 45 : 0);
    m_plot->xAxis->setRange(-0.6, static_cast<double>(top.tokens.size()) - 0.4);
    m_plot->yAxis->setRange(0, std::max(0.05, highest * 1.1));
    m_plot->yAxis->setLabel(tr("p"));
    m_plot->legend->setVisible(true);
    m_plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_plot->replot();
}

void DivergenceDialog::reject() {
    if (isWorking()) {
        *m_cancel = true;
        m_status->setText(tr("Cancelling…"));
        return;
    }
    QDialog::reject();
}

} // namespace swb
