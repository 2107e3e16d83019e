#include "explore/BeamTreeView.h"

#include <algorithm>

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include "explore/DistributionModel.h"
#include "tokenizer/Tokenizer.h"

namespace swb {

namespace {

constexpr int kColumn = 104;
constexpr int kRow = 24;
constexpr int kLeft = 58;
constexpr int kTop = 18;
constexpr int kNodeWidth = 84;
constexpr int kNodeHeight = 18;
const QColor kContinued(0x1f, 0x4e, 0x9e);
const QColor kFinished(0x2e, 0x7d, 0x32);
const QColor kBest(0xe0, 0x6c, 0x00);
const QColor kPruned(0xb8, 0xbe, 0xc6);

} // namespace

BeamTreeView::BeamTreeView(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("beamTree"));
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void BeamTreeView::clear() {
    m_nodes.clear();
    m_beamRows.clear();
    m_firstOfStep.clear();
    m_steps = 0;
    m_maxRows = 0;
    m_groups = 1;
    m_selected = -1;
    resize(sizeHint()); // a scroll area's widget: its size is the tree's
    update();
}

void BeamTreeView::setTokenizer(std::shared_ptr<const Tokenizer> tokenizer) {
    m_tokenizer = std::move(tokenizer);
    update();
}

void BeamTreeView::appendStep(const BeamStep& step) {
    const int stepIndex = m_steps++;
    m_firstOfStep.push_back(static_cast<int>(m_nodes.size()));
    std::vector<int> rows;
    for (std::size_t r = 0; r < step.candidates.size(); ++r) {
        Node node;
        node.step = stepIndex;
        node.rank = static_cast<int>(r);
        node.candidate = step.candidates[r];
        const int beam = node.candidate.beam;
        node.parentRow = stepIndex == 0 ? -1
                         : beam < static_cast<int>(m_beamRows.back().size()) ? m_beamRows.back()[std::size_t(beam)]
                                                                                : -1;
        m_nodes.push_back(node);
    }
    // The beams the step leaves running, in their order (force_words may reorder them): each the row of the
    // continued candidate with its parent and token.
    for (std::size_t b = 0; b < step.tokens.size(); ++b) {
        int row = -1;
        for (std::size_t r = 0; r < step.candidates.size() && row < 0; ++r) {
            const BeamCandidate& c = step.candidates[r];
            if (c.fate == BeamCandidate::Fate::Continued && c.beam == step.parents[b] && c.token == step.tokens[b])
                row = static_cast<int>(r);
        }
        rows.push_back(row);
    }
    m_beamRows.push_back(std::move(rows));
    m_maxRows = std::max(m_maxRows, static_cast<int>(step.candidates.size()));
    for (const BeamCandidate& c : step.candidates)
        m_groups = std::max(m_groups, c.group + 1);
    resize(sizeHint());
    update();
}

void BeamTreeView::setResult(const BeamResult& result) {
    // Follow each returned hypothesis from the prompt: at step i the nodes with its i-th token that extend a
    // node found at step i - 1 (several groups may start alike, so every match is kept), then back from the
    // last step reached along the parents.
    for (std::size_t h = 0; h < result.hypotheses.size(); ++h) {
        const std::vector<TokenId>& tokens = result.hypotheses[h].tokens;
        std::vector<std::vector<int>> layers;
        for (std::size_t i = 0; i < tokens.size() && int(i) < m_steps; ++i) {
            const int begin = m_firstOfStep[i];
            const int end = int(i) + 1 < m_steps ? m_firstOfStep[i + 1] : static_cast<int>(m_nodes.size());
            std::vector<int> found;
            for (int n = begin; n < end; ++n) {
                const Node& node = m_nodes[std::size_t(n)];
                if (node.candidate.token != tokens[i] || node.candidate.fate == BeamCandidate::Fate::Pruned)
                    continue;
                const bool extends = i == 0 ? node.parentRow < 0
                                            : std::any_of(layers.back().begin(), layers.back().end(), [&](int p) {
                                                  return m_nodes[std::size_t(p)].rank == node.parentRow;
                                              });
                if (extends)
                    found.push_back(n);
            }
            if (found.empty())
                break;
            layers.push_back(std::move(found));
        }
        if (layers.empty())
            continue;
        int node = layers.back().front();
        if (m_nodes[std::size_t(node)].hypothesis < 0)
            m_nodes[std::size_t(node)].hypothesis = static_cast<int>(h);
        for (std::size_t i = layers.size(); i-- > 0;) {
            if (h == 0)
                m_nodes[std::size_t(node)].onBest = true;
            if (i == 0)
                break;
            const int parentRow = m_nodes[std::size_t(node)].parentRow;
            for (int p : layers[i - 1])
                if (m_nodes[std::size_t(p)].rank == parentRow)
                    node = p;
        }
    }
    update();
}

QSize BeamTreeView::sizeHint() const {
    return {kLeft + std::max(1, m_steps) * kColumn + 40, kTop + std::max(4, m_maxRows) * kRow + 12};
}

QSize BeamTreeView::minimumSizeHint() const {
    return sizeHint();
}

QPoint BeamTreeView::centre(int step, int row) const {
    if (step < 0)
        return {kLeft / 2, kTop + row * kRow + kRow / 2};
    return {kLeft + step * kColumn + kNodeWidth / 2, kTop + row * kRow + kRow / 2};
}

QRect BeamTreeView::nodeRect(int index) const {
    if (index < 0 || index >= static_cast<int>(m_nodes.size()))
        return {};
    const Node& node = m_nodes[std::size_t(index)];
    const QPoint c = centre(node.step, node.rank);
    return {c.x() - kNodeWidth / 2, c.y() - kNodeHeight / 2, kNodeWidth, kNodeHeight};
}

QString BeamTreeView::label(TokenId token) const {
    return tokenDisplayText(m_tokenizer.get(), token);
}

int BeamTreeView::nodeAt(const QPoint& point) const {
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (nodeRect(static_cast<int>(i)).contains(point))
            return static_cast<int>(i);
    return -1;
}

std::vector<TokenId> BeamTreeView::pathTokens(int index) const {
    std::vector<TokenId> path;
    if (index < 0 || index >= static_cast<int>(m_nodes.size()))
        return path;
    int step = m_nodes[std::size_t(index)].step;
    int row = m_nodes[std::size_t(index)].rank;
    while (step >= 0 && row >= 0) {
        const Node& node = m_nodes[std::size_t(m_firstOfStep[std::size_t(step)] + row)];
        path.insert(path.begin(), node.candidate.token);
        row = node.parentRow;
        --step;
    }
    return path;
}

QString BeamTreeView::describe(int index) const {
    if (index < 0 || index >= static_cast<int>(m_nodes.size()))
        return {};
    // The path: walk back through the parents.
    QStringList path;
    int step = m_nodes[std::size_t(index)].step;
    int row = m_nodes[std::size_t(index)].rank;
    while (step >= 0) {
        const Node& node = m_nodes[std::size_t(m_firstOfStep[std::size_t(step)] + row)];
        path.prepend(label(node.candidate.token));
        row = node.parentRow;
        --step;
        if (row < 0)
            break;
    }
    const Node& node = m_nodes[std::size_t(index)];
    const QString fate = node.candidate.fate == BeamCandidate::Fate::Continued ? tr("continues")
                         : node.candidate.fate == BeamCandidate::Fate::Finished ? tr("finished")
                                                                                 : tr("pruned");
    QString text = tr("Step %1, rank %2: “%3” — cumulative log p %4, %5. Path: %6")
                       .arg(node.step + 1)
                       .arg(node.rank + 1)
                       .arg(label(node.candidate.token))
                       .arg(node.candidate.score, 0, 'f', 3)
                       .arg(fate, path.join(QString()));
    if (node.candidate.forced)
        text += tr(" (offered by a forced word)");
    if (m_groups > 1)
        text += tr(" · group %1").arg(node.candidate.group + 1);
    return text;
}

void BeamTreeView::selectNode(int index) {
    if (index == m_selected)
        return;
    m_selected = index;
    update();
    emit nodeSelected(index);
}

void BeamTreeView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    if (m_nodes.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("A beam search shows here as it runs"));
        return;
    }
    // The prompt root.
    p.setPen(Qt::NoPen);
    p.setBrush(pal.color(QPalette::Mid));
    p.drawEllipse(centre(-1, 0), 6, 6);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(pal.color(QPalette::Text));
    p.drawText(QRect(0, 0, kLeft, kTop), Qt::AlignCenter, tr("prompt"));
    // Edges first, then nodes over them.
    for (const Node& node : m_nodes) {
        const QPoint from = node.step == 0 ? centre(-1, 0) + QPoint(6, 0)
                                           : centre(node.step - 1, node.parentRow) + QPoint(kNodeWidth / 2, 0);
        if (node.step > 0 && node.parentRow < 0)
            continue;
        const QPoint to = centre(node.step, node.rank) - QPoint(kNodeWidth / 2, 0);
        const bool pruned = node.candidate.fate == BeamCandidate::Fate::Pruned;
        QPen pen(node.onBest ? kBest : pruned ? kPruned : kContinued, node.onBest ? 2.2 : 1.0);
        if (pruned)
            pen.setStyle(Qt::DotLine);
        p.setPen(pen);
        QPainterPath curve(from);
        const int mid = (from.x() + to.x()) / 2;
        curve.cubicTo(QPoint(mid, from.y()), QPoint(mid, to.y()), to);
        p.setBrush(Qt::NoBrush);
        p.drawPath(curve);
    }
    // Diverse beam search: a dashed rule where a step's candidates pass from one group to the next.
    if (m_groups > 1) {
        p.setPen(QPen(pal.color(QPalette::Mid), 1.0, Qt::DashLine));
        for (std::size_t i = 1; i < m_nodes.size(); ++i) {
            const Node& node = m_nodes[i];
            if (node.rank > 0 && node.candidate.group != m_nodes[i - 1].candidate.group) {
                const int y = centre(node.step, node.rank).y() - kRow / 2;
                const int x = centre(node.step, node.rank).x();
                p.drawLine(x - kColumn / 2, y, x + kColumn / 2, y);
            }
        }
    }
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const Node& node = m_nodes[i];
        const QRect r = nodeRect(static_cast<int>(i));
        const bool pruned = node.candidate.fate == BeamCandidate::Fate::Pruned;
        const bool finished = node.candidate.fate == BeamCandidate::Fate::Finished;
        const QColor colour = node.onBest ? kBest : finished ? kFinished : pruned ? kPruned : kContinued;
        QColor fill = colour;
        fill.setAlpha(pruned ? 40 : 60);
        p.setPen(QPen(colour, static_cast<int>(i) == m_selected ? 2.5 : 1.0));
        p.setBrush(fill);
        if (finished) {
            // a finished hypothesis: a diamond-ended box
            QPolygon shape;
            shape << QPoint(r.left() - 5, r.center().y()) << QPoint(r.left() + 4, r.top()) << QPoint(r.right() - 4, r.top())
                  << QPoint(r.right() + 5, r.center().y()) << QPoint(r.right() - 4, r.bottom())
                  << QPoint(r.left() + 4, r.bottom());
            p.drawPolygon(shape);
        } else {
            p.drawRoundedRect(r, 4, 4);
        }
        p.setPen(pruned ? pal.color(QPalette::PlaceholderText) : pal.color(QPalette::Text));
        const QString text = p.fontMetrics().elidedText(label(node.candidate.token), Qt::ElideRight, kNodeWidth - 6);
        p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignCenter, text);
        if (node.hypothesis >= 0) {
            p.setPen(node.hypothesis == 0 ? kBest : kFinished);
            p.drawText(QRect(r.right() + 4, r.top() - 1, kColumn - kNodeWidth + 30, kNodeHeight + 2),
                       Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("#%1").arg(node.hypothesis + 1));
        }
    }
}

void BeamTreeView::mousePressEvent(QMouseEvent* event) {
    const int index = nodeAt(event->position().toPoint());
    if (index >= 0)
        selectNode(index);
    QWidget::mousePressEvent(event);
}

bool BeamTreeView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = nodeAt(help->pos());
        if (index >= 0)
            QToolTip::showText(help->globalPos(), describe(index), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace swb
