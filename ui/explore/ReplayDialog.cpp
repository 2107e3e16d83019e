#include "explore/ReplayDialog.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "workflows/RunReplay.h"

namespace swb {

namespace {

// The steps' texts as HTML: the shared prefix plain, the rest from `from` on highlighted.
QString sideHtml(const QString& prompt, const QStringList& texts, int from, const QString& colour) {
    QString shared;
    QString rest;
    for (int i = 0; i < texts.size(); ++i)
        (from >= 0 && i >= from ? rest : shared) += texts.at(i);
    const auto html = [](const QString& text) { return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")); };
    return QStringLiteral("<span style='color:#6b7280'>%1</span>%2<span style='background:%3'>%4</span>")
        .arg(html(prompt), html(shared), colour, html(rest));
}

} // namespace

ReplayDialog::ReplayDialog(Database* database, QWidget* parent)
    : QDialog(parent)
    , m_database(database) {
    setWindowTitle(tr("Replay"));
    setObjectName(QStringLiteral("replayDialog"));
    resize(900, 520);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("replaySummary"));
    m_summary->setWordWrap(true);
    m_leftTitle = new QLabel(this);
    m_rightTitle = new QLabel(this);
    m_left = new QTextBrowser(this);
    m_right = new QTextBrowser(this);
    m_leftTitle->setWordWrap(true);
    m_rightTitle->setWordWrap(true);
    auto* grid = new QGridLayout;
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    grid->addWidget(m_leftTitle, 0, 0);
    grid->addWidget(m_rightTitle, 0, 1);
    grid->addWidget(m_left, 1, 0);
    grid->addWidget(m_right, 1, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_compare = buttons->addButton(tr("Make a &Comparison"), QDialogButtonBox::ActionRole);
    m_compare->setObjectName(QStringLiteral("replayMakeComparison"));
    m_compare->setToolTip(tr("Rate the two outputs blind in Compare"));
    connect(m_compare, &QPushButton::clicked, this, &ReplayDialog::makeComparison);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(grid, 1);
    layout->addWidget(buttons);
}

void ReplayDialog::setPair(const QString& prompt, const Side& original, const Side& replay) {
    m_original = original;
    m_replay = replay;
    m_divergence = firstDivergence(original.tokens, replay.tokens);
    m_leftTitle->setText(tr("<b>Run %1</b> · %2").arg(original.runId).arg(original.strategy.toHtmlEscaped()));
    m_rightTitle->setText(tr("<b>Replay, run %1</b> · %2").arg(replay.runId).arg(replay.strategy.toHtmlEscaped()));
    m_left->setHtml(sideHtml(prompt, original.texts, m_divergence, QStringLiteral("#fde2c4")));
    m_right->setHtml(sideHtml(prompt, replay.texts, m_divergence, QStringLiteral("#cfe3f7")));
    const auto textAt = [](const Side& side, int step) {
        return step < side.texts.size() ? QStringLiteral("“%1”").arg(side.texts.at(step)) : tr("its end");
    };
    if (m_divergence < 0)
        m_summary->setText(tr("The replay made the same %n token(s): this strategy draws what the run drew.", nullptr,
                              static_cast<int>(original.tokens.size())));
    else
        m_summary->setText(tr("The same for %n token(s); at step %1 the run has %2 and the replay %3. Highlighted: "
                              "where each goes from there.",
                              nullptr, m_divergence)
                               .arg(m_divergence + 1)
                               .arg(textAt(original, m_divergence), textAt(replay, m_divergence)));
    m_compare->setEnabled(m_database && m_divergence >= 0);
}

qint64 ReplayDialog::makeComparison() {
    if (!m_database)
        return 0;
    Result<qint64> id = saveReplayComparison(*m_database, m_original.runId, m_replay.runId);
    if (!id) {
        m_summary->setText(tr("Cannot make the comparison: %1").arg(id.error().message));
        return 0;
    }
    m_compare->setEnabled(false);
    m_summary->setText(m_summary->text() + QLatin1Char(' ') +
                       tr("Comparison %1 made: rate it blind in Compare.").arg(id.value()));
    emit comparisonMade(id.value());
    return id.value();
}

} // namespace swb
