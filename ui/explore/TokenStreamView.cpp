#include "explore/TokenStreamView.h"

#include <algorithm>
#include <cmath>

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "explore/DistributionModel.h"
#include "explore/Palette.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

namespace {
constexpr int kMargin = 8;
constexpr int kChipPadX = 3;
constexpr int kChipGap = 2;
constexpr int kLineGap = 4;
} // namespace

TokenStreamView::TokenStreamView(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("tokenStream"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    // Height for width: the scroll area sizes the view to its chips' height (not to the viewport's), so a long
    // run scrolls instead of being cut off after three rows.
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setAccessibleName(tr("Generated tokens"));
}

void TokenStreamView::setPrompt(const QString& prompt) {
    m_prompt = prompt;
    m_laidOutWidth = -1;
    updateGeometry();
    update();
}

void TokenStreamView::clearSteps() {
    m_steps.clear();
    m_chips.clear();
    m_selected = -1;
    m_hovered = -1;
    m_laidOutWidth = -1;
    updateGeometry();
    update();
}

void TokenStreamView::appendSteps(const std::vector<GeneratedStep>& steps) {
    for (const GeneratedStep& step : steps) {
        Chip chip;
        chip.text = QString::fromStdString(step.text);
        if (chip.text.isEmpty())
            chip.text = tokenDisplayText(m_tokenizer.get(), step.token);
        chip.lineBreak = chip.text.endsWith(u'\n');
        chip.visible = visibleTokenText(chip.text);
        m_chips.push_back(std::move(chip));
        m_steps.push_back(step);
    }
    m_laidOutWidth = -1;
    updateGeometry();
    update();
}

void TokenStreamView::setSelectedStep(int step) {
    step = m_chips.empty() ? -1 : std::clamp(step, 0, stepCount() - 1);
    if (step != m_selected) {
        m_selected = step;
        update();
        emit stepSelected(step);
    }
    if (step >= 0)
        emit revealRequested(step); // Home on the selected first step still brings it into view
}

void TokenStreamView::setShowFinal(bool final) {
    m_final = final;
    update();
}

int TokenStreamView::layoutHeight(int width) const {
    // Same walk as layoutChips, without storing.
    const QFontMetrics fm(font());
    const int lineHeight = fm.height() + 4;
    int x = kMargin;
    int y = kMargin;
    const int right = std::max(width - kMargin, kMargin + 40);
    const QRect prompt = fm.boundingRect(QRect(kMargin, kMargin, right - kMargin, 100000), Qt::TextWordWrap, m_prompt);
    if (!m_prompt.isEmpty())
        y = prompt.bottom() + kLineGap + 2;
    for (const Chip& chip : m_chips) {
        const int w = fm.horizontalAdvance(chip.visible) + 2 * kChipPadX;
        if (x + w > right && x > kMargin) {
            x = kMargin;
            y += lineHeight + kLineGap;
        }
        x += w + kChipGap;
        if (chip.lineBreak) {
            x = kMargin;
            y += lineHeight + kLineGap;
        }
    }
    return y + lineHeight + kMargin;
}

void TokenStreamView::layoutChips(int width) {
    if (width == m_laidOutWidth)
        return;
    m_laidOutWidth = width;
    const QFontMetrics fm(font());
    const int lineHeight = fm.height() + 4;
    const int right = std::max(width - kMargin, kMargin + 40);
    int x = kMargin;
    int y = kMargin;
    m_promptRect = {};
    if (!m_prompt.isEmpty()) {
        m_promptRect = fm.boundingRect(QRect(kMargin, kMargin, right - kMargin, 100000), Qt::TextWordWrap, m_prompt);
        y = m_promptRect.bottom() + kLineGap + 2;
    }
    for (Chip& chip : m_chips) {
        const int w = fm.horizontalAdvance(chip.visible) + 2 * kChipPadX;
        if (x + w > right && x > kMargin) {
            x = kMargin;
            y += lineHeight + kLineGap;
        }
        chip.rect = QRect(x, y, w, lineHeight);
        x += w + kChipGap;
        if (chip.lineBreak) {
            x = kMargin;
            y += lineHeight + kLineGap;
        }
    }
    m_height = y + lineHeight + kMargin;
}

QSize TokenStreamView::sizeHint() const { return {600, std::max(120, layoutHeight(600))}; }

// The chips' own height (the scroll area shows no scroll bar for an empty or short stream).
int TokenStreamView::heightForWidth(int width) const { return layoutHeight(width); }

QRect TokenStreamView::chipRect(int step) const {
    const_cast<TokenStreamView*>(this)->layoutChips(width());
    return step >= 0 && step < stepCount() ? m_chips[static_cast<std::size_t>(step)].rect : QRect();
}

void TokenStreamView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    m_laidOutWidth = -1;
}

void TokenStreamView::paintEvent(QPaintEvent* event) {
    layoutChips(width());
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(rect(), palette().base());
    if (!m_prompt.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(m_promptRect.adjusted(0, 0, 0, 2), Qt::TextWordWrap, m_prompt);
    }
    if (m_chips.empty() && m_prompt.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Generated tokens appear here, coloured by probability."));
        return;
    }
    const QRect dirty = event->rect();
    for (int i = 0; i < stepCount(); ++i) {
        const Chip& chip = m_chips[static_cast<std::size_t>(i)];
        if (!chip.rect.intersects(dirty))
            continue;
        const StepTrace& trace = m_steps[static_cast<std::size_t>(i)].trace;
        const double p = m_final ? trace.finalP : trace.rawP;
        QPainterPath path;
        path.addRoundedRect(QRectF(chip.rect).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
        painter.fillPath(path, std::isnan(p) ? QColor(0xE4, 0xE6, 0xEA) : palette::probability(p)); // grey: unknown
        if (i == m_selected) {
            painter.setPen(QPen(palette::accent(), 2));
            painter.drawPath(path);
        } else if (i == m_hovered) {
            painter.setPen(QPen(QColor(0, 0, 0, 90), 1));
            painter.drawPath(path);
        }
        painter.setPen(Qt::black);
        const bool showWhitespace = i == m_hovered || i == m_selected;
        painter.drawText(chip.rect.adjusted(kChipPadX, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                         showWhitespace ? chip.visible : QString(chip.text).replace(u'\n', QChar(0x21B5)));
    }
}

int TokenStreamView::chipAt(const QPoint& pos) const {
    for (int i = 0; i < stepCount(); ++i)
        if (m_chips[static_cast<std::size_t>(i)].rect.contains(pos))
            return i;
    return -1;
}

void TokenStreamView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    const int chip = chipAt(event->pos());
    if (chip >= 0 && event->button() == Qt::LeftButton)
        setSelectedStep(chip);
    QWidget::mousePressEvent(event);
}

void TokenStreamView::mouseMoveEvent(QMouseEvent* event) {
    const int chip = chipAt(event->pos());
    if (chip != m_hovered) {
        m_hovered = chip;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void TokenStreamView::leaveEvent(QEvent* event) {
    m_hovered = -1;
    update();
    QWidget::leaveEvent(event);
}

void TokenStreamView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Left:
        setSelectedStep(m_selected < 0 ? stepCount() - 1 : m_selected - 1);
        return;
    case Qt::Key_Right:
        setSelectedStep(m_selected + 1);
        return;
    case Qt::Key_Home:
        setSelectedStep(0);
        return;
    case Qt::Key_End:
        setSelectedStep(stepCount() - 1);
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

void TokenStreamView::contextMenuEvent(QContextMenuEvent* event) {
    const int chip = chipAt(event->pos());
    if (chip < 0)
        return;
    setSelectedStep(chip);
    const StepTrace& trace = m_steps[static_cast<std::size_t>(chip)].trace;
    // On the heap and without a parent: the view may be rebuilt (and deleted) while the menu is open;
    // its actions then lose their receiver and do nothing.
    auto* menu = new QMenu;
    menu->setAttribute(Qt::WA_DeleteOnClose);
    QMenu* branch = menu->addMenu(tr("&Branch from step %1 with").arg(chip + 1));
    const std::size_t count = std::min<std::size_t>(trace.top.size(), 12);
    for (std::size_t i = 0; i < count; ++i) {
        const TopCandidate& candidate = trace.top[i];
        const QString label = tr("“%1”  raw p %2%3")
                                  .arg(visibleTokenText(tokenDisplayText(m_tokenizer.get(), candidate.id)))
                                  .arg(candidate.rawP, 0, 'g', 3)
                                  .arg(candidate.id == trace.chosen ? tr("  (chosen)") : QString());
        branch->addAction(label, this, [this, chip, id = candidate.id] { emit branchRequested(chip, id); });
    }
    branch->setEnabled(count > 0);
    menu->addAction(tr("&Edit text from here and continue…"), this, [this, chip] { emit editRequested(chip); });
    menu->addAction(tr("&Probe a token…"), this, [this, chip] { emit probeRequested(chip); });
    menu->popup(event->globalPos());
}

QString TokenStreamView::toolTipText(int chip, int alternatives) const {
    if (chip < 0 || chip >= static_cast<int>(m_steps.size()))
        return {};
    const GeneratedStep& step = m_steps[static_cast<std::size_t>(chip)];
    const StepTrace& t = step.trace;
    const auto cell = [](const QString& text, bool right = false) {
        return QStringLiteral("<td%1>%2</td>").arg(right ? QStringLiteral(" align='right'") : QString(), text);
    };
    QString html = tr("<b>Step %1</b>: “%2” (id %3)<br>raw p %4 · final p %5 · raw rank %6<br>entropy raw %7 · final "
                      "%8 nats")
                       .arg(chip + 1)
                       .arg(m_chips[static_cast<std::size_t>(chip)].visible.toHtmlEscaped())
                       .arg(step.token)
                       .arg(t.rawP, 0, 'g', 4)
                       .arg(std::isnan(t.finalP) ? tr("unknown") : QString::number(t.finalP, 'g', 4))
                       .arg(t.rawRank > 0 ? QString::number(t.rawRank) : tr("unknown"))
                       .arg(std::isnan(t.rawEntropy) ? tr("unknown") : QString::number(t.rawEntropy, 'f', 3))
                       .arg(std::isnan(t.finalEntropy) ? tr("unknown") : QString::number(t.finalEntropy, 'f', 3));
    const int shown = std::min(alternatives, static_cast<int>(t.top.size()));
    if (shown > 0) {
        html += QStringLiteral("<table cellspacing='0' cellpadding='2'><tr>") + cell(tr("<i>candidate</i>")) +
                cell(tr("<i>raw p</i>"), true) + cell(tr("<i>final p</i>"), true) + QStringLiteral("</tr>");
        for (int i = 0; i < shown; ++i) {
            const TopCandidate& candidate = t.top[static_cast<std::size_t>(i)];
            QString text = visibleTokenText(tokenDisplayText(m_tokenizer.get(), candidate.id)).toHtmlEscaped();
            if (candidate.id == t.chosen)
                text = QStringLiteral("<b>%1</b>").arg(text);
            html += QStringLiteral("<tr>") + cell(text) + cell(QString::number(candidate.rawP, 'g', 3), true) +
                    cell(std::isnan(candidate.finalP) ? tr("n/a")
                         : candidate.finalP > 0       ? QString::number(candidate.finalP, 'g', 3)
                                                      : tr("cut"),
                         true) +
                    QStringLiteral("</tr>");
        }
        html += QStringLiteral("</table>");
    }
    html += tr("<i>Right-click to branch with another token, or to edit the text from here.</i>");
    return html;
}

bool TokenStreamView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int chip = chipAt(help->pos());
        if (chip < 0) {
            QToolTip::hideText();
            return true;
        }
        QToolTip::showText(help->globalPos(), toolTipText(chip),
                           this, m_chips[static_cast<std::size_t>(chip)].rect);
        return true;
    }
    return QWidget::event(event);
}

} // namespace swb
