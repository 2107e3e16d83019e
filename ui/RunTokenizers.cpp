#include "RunTokenizers.h"

#include <QFutureWatcher>
#include <QtConcurrent>

#include "model/Model.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb {

using TokenizerWatcher = QFutureWatcher<std::shared_ptr<const Tokenizer>>;

RunTokenizers::RunTokenizers(QObject* parent)
    : QObject(parent) {}

RunTokenizers::~RunTokenizers() {
    waitForLoads();
}

void RunTokenizers::add(const QString& modelHash, std::shared_ptr<const Tokenizer> tokenizer) {
    if (modelHash.isEmpty() || !tokenizer)
        return;
    const bool known = m_tokenizers.count(modelHash) != 0;
    m_tokenizers[modelHash] = std::move(tokenizer);
    if (!known)
        emit available(modelHash);
}

std::shared_ptr<const Tokenizer> RunTokenizers::find(const QString& modelHash) const {
    const auto it = m_tokenizers.find(modelHash);
    return it == m_tokenizers.end() ? nullptr : it->second;
}

std::shared_ptr<const Tokenizer> RunTokenizers::request(const QString& modelHash, const QString& modelPath,
                                                        const QString& tokenizerPath) {
    if (auto known = find(modelHash))
        return known;
    if (modelHash.isEmpty() || modelPath.isEmpty() || !m_tried.insert(modelHash).second)
        return nullptr;
    auto* watcher = new TokenizerWatcher(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, modelHash, watcher] {
        m_pending.erase(modelHash);
        watcher->deleteLater();
        add(modelHash, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([modelHash, modelPath, tokenizerPath]() -> std::shared_ptr<const Tokenizer> {
        // The files at that path must still be the run's model: same identity hash.
        Result<ModelInfo> info = Model::inspect(modelPath);
        if (!info || info->contentHash != modelHash)
            return nullptr;
        Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(modelPath, tokenizerPath);
        if (!tokenizer)
            return nullptr;
        return std::shared_ptr<const Tokenizer>(std::move(tokenizer).value());
    }));
    m_pending.emplace(modelHash, watcher);
    return nullptr;
}

void RunTokenizers::waitForLoads() {
    for (auto& [hash, watcher] : m_pending)
        static_cast<TokenizerWatcher*>(watcher)->waitForFinished();
}

} // namespace swb
