#pragma once

#include <memory>
#include <vector>

#include <QWidget>

#include "generation/BeamSearch.h"

namespace swb {

class Tokenizer;

// A beam search drawn as it runs: steps left to right, each step's weighed candidates top to bottom in
// score order, an edge from each to the beam it extends; beams that continue in full colour, finished
// hypotheses as diamonds, pruned candidates faded; the best returned hypothesis's path in orange. Click
// a node to select it (its path and score show in the tooltip and in nodeSelected).
class BeamTreeView final : public QWidget {
    Q_OBJECT

public:
    struct Node {
        int step = 0;
        int rank = 0;       // row within its step (score order)
        int parentRow = -1; // row of the node it extends in the step before; -1: the prompt
        BeamCandidate candidate;
        bool onBest = false;
        int hypothesis = -1; // index among the returned hypotheses whose last node this is
    };

    explicit BeamTreeView(QWidget* parent = nullptr);

    void clear();
    void setTokenizer(std::shared_ptr<const Tokenizer> tokenizer);
    void appendStep(const BeamStep& step);
    void setResult(const BeamResult& result);

    const std::vector<Node>& nodes() const { return m_nodes; }
    int stepCount() const { return m_steps; }
    int selectedNode() const { return m_selected; }
    void selectNode(int index);
    QRect nodeRect(int index) const;
    // The text of the path that ends at a node, and its description (for the selection label).
    QString describe(int index) const;
    // The tokens of that path, the node's own last.
    std::vector<TokenId> pathTokens(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void nodeSelected(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    int nodeAt(const QPoint& point) const;
    QPoint centre(int step, int row) const;
    QString label(TokenId token) const;

    std::shared_ptr<const Tokenizer> m_tokenizer;
    std::vector<Node> m_nodes;
    std::vector<std::vector<int>> m_beamRows; // per step: row of each continuing beam
    std::vector<int> m_firstOfStep;           // index of each step's first node
    int m_steps = 0;
    int m_maxRows = 0;
    int m_groups = 1;
    int m_selected = -1;
};

} // namespace swb
