#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QDialog>

#include "explore/ExploreRun.h"
#include "generation/TokenProbe.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace swb {

class InferenceSession;
class Tokenizer;

// "Why is this token never chosen?": pick one of a step's candidates or type a word, and see the token at
// every step of the run: its raw p and rank (a timeline), and whether the run drew it, it survived the chain
// without being drawn, or which stage cut it. Non-modal; the session's worker recomputes the run.
class TokenProbeDialog final : public QDialog {
    Q_OBJECT

public:
    explicit TokenProbeDialog(InferenceSession& session, QWidget* parent = nullptr);

    // Probes `run` (made on the loaded model), offering the candidates of its step `selected`, `token` chosen
    // when it is among them; shows the dialog.
    void probeRun(const ExploreRun& run, int selected, TokenId token = -1);

    // The run being probed: its tokenizer (for typed words and texts), the texts of its steps' tokens, and
    // the candidates offered (id, text), the first one chosen.
    void setRun(std::shared_ptr<const Tokenizer> tokenizer, const QStringList& stepTexts,
                const std::vector<std::pair<TokenId, QString>>& candidates);
    // The token the box names: a candidate offered, "#id", or a word (with a leading space where that is
    // one token, as words inside a text are); nullopt with the reason in note when it names none.
    std::optional<TokenId> resolve(const QString& text, QString* note) const;
    void probe();
    void showProbe(const TokenProbe& probe);
    void showFailure(const QString& message);

    QComboBox* tokenBox() const { return m_token; }
    QTableWidget* table() const { return m_table; }
    QLabel* summary() const { return m_summary; }
    const std::optional<TokenProbe>& result() const { return m_probe; }
    // A step's fate in words: "drawn", "survived, not drawn", "cut by top_k (stage 1)".
    QString fate(const TokenProbeStep& step) const;

signals:
    void probeRequested(swb::TokenId token);
    void stepActivated(int step);

private:
    QString tokenText(TokenId token) const;
    void requestProbe(TokenId token);

    InferenceSession& m_session;
    ExploreRun m_probed; // the run the dialog was opened for
    quint64 m_probeId = 0;

    std::shared_ptr<const Tokenizer> m_tokenizer;
    QStringList m_stepTexts;
    std::vector<std::pair<TokenId, QString>> m_candidates;
    QComboBox* m_token = nullptr;
    QPushButton* m_run = nullptr;
    QLabel* m_summary = nullptr;
    QCustomPlot* m_plot = nullptr;
    QTableWidget* m_table = nullptr;
    QString m_note;
    std::optional<TokenProbe> m_probe;
};

} // namespace swb
