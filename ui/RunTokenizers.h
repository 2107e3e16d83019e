#pragma once

#include <map>
#include <memory>
#include <set>

#include <QObject>
#include <QString>

namespace swb {

class Tokenizer;

// The tokenizers of the models that runs came from, by model content hash: a run's token texts come
// from its own model's tokenizer, never from whatever model happens to be loaded. The loaded model's
// tokenizer is added as it loads; any other is loaded from the model's files on a pool thread, once,
// after checking that the files there are still the same model (its content hash).
class RunTokenizers final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunTokenizers)

public:
    explicit RunTokenizers(QObject* parent = nullptr);
    ~RunTokenizers() override;

    void add(const QString& modelHash, std::shared_ptr<const Tokenizer> tokenizer);
    std::shared_ptr<const Tokenizer> find(const QString& modelHash) const;
    // The tokenizer of a stored model when known; else nullptr, and a load starts (once per model):
    // available() follows when it succeeds. tokenizerPath: the file recorded with the model, if any.
    std::shared_ptr<const Tokenizer> request(const QString& modelHash, const QString& modelPath,
                                             const QString& tokenizerPath = {});
    // Waits for the loads under way (tests, shutdown).
    void waitForLoads();

signals:
    void available(const QString& modelHash);

private:
    std::map<QString, std::shared_ptr<const Tokenizer>> m_tokenizers;
    std::set<QString> m_tried;
    std::map<QString, QObject*> m_pending; // the watchers of loads under way (children of this)
};

} // namespace swb
