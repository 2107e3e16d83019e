#include "InferenceSession.h"

#include <limits>

#include <QFileInfo>

#include "AppInfo.h"
#include "RunTokenizers.h"
#include "Settings.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb {

InferenceSession::InferenceSession(Settings& settings, const QString& databasePath, QObject* parent)
    : QObject(parent)
    , m_settings(settings) {
    m_worker = new InferenceWorker(databasePath);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &InferenceWorker::modelLoaded, this, &InferenceSession::onModelLoaded);
    connect(m_worker, &InferenceWorker::modelFailed, this, [this](quint64 id, const QString& message) {
        if (id != m_loadId)
            return;
        m_loadId = 0;
        emit loadFailed(message);
        emit stateChanged();
    });
    connect(m_worker, &InferenceWorker::loadProgress, this, [this](quint64 id, int done, int total) {
        if (id == m_loadId)
            emit loadProgress(done, total);
    });
    m_runTokenizers = new RunTokenizers(this);
    m_thread.setObjectName(QStringLiteral("inference"));
    m_thread.start();
}

InferenceSession::~InferenceSession() {
    // Nothing queued is wanted any more: stop a generation, a load and any replay.
    m_worker->requestStop();
    m_worker->requestCancelLoad();
    m_worker->setLatestInspect(std::numeric_limits<quint64>::max());
    m_thread.quit();
    m_thread.wait();
}

bool InferenceSession::isRemote() const {
    return m_model && m_model->info.format == QLatin1String("remote");
}

bool InferenceSession::openModel(const QString& path, const QString& tokenizerPath, const ModelOptions& options,
                                 QString* why) {
    if (m_holder != Holder::None) {
        if (why)
            *why = tr("Wait for %1 to finish (or stop it) before opening another model.").arg(holderJob());
        return false;
    }
    if (m_loadId != 0)
        m_worker->requestCancelLoad(); // the newer request replaces the load in flight
    QString tokenizer = tokenizerPath;
    if (tokenizer.isEmpty() && needsSeparateTokenizer(path)) {
        const QString remembered = m_settings.get(settings::modelTokenizers).value(path).toString();
        if (QFileInfo::exists(remembered))
            tokenizer = remembered;
    }
    m_loadId = nextId();
    m_loadingPath = path;
    m_loadingTokenizer = tokenizer;
    emit loadStarted(path, tokenizer);
    emit stateChanged();
    ModelOptions withTokenizer = options;
    withTokenizer.tokenizerPath = tokenizer;
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, id = m_loadId, ticket = m_worker->takeTicket(), path, withTokenizer,
                   key = m_remoteKeys.value(path)] { worker->loadModel(id, ticket, path, withTokenizer, key); });
    return true;
}

void InferenceSession::cancelLoad() {
    m_worker->requestCancelLoad();
    m_loadId = 0;
    emit loadCancelled();
    emit stateChanged();
}

void InferenceSession::onModelLoaded(quint64 id, const LoadedModelInfo& model) {
    // A load cancelled or replaced too late to stop finished anyway: the worker now holds this model, so everything
    // that shows or uses the model follows it (a newer load still running goes on).
    const bool late = id != m_loadId;
    if (!late)
        m_loadId = 0;
    m_model = model;
    m_runTokenizers->add(model.info.contentHash, model.tokenizer);
    if (!late)
        rememberModel(model);
    loadChatTemplate();
    emit modelLoaded(model, late);
    emit stateChanged();
}

// The recent models, the model of the next start and the tokenizer file chosen for this model.
void InferenceSession::rememberModel(const LoadedModelInfo& model) {
    if (QFileInfo(model.info.path) != QFileInfo(bundledModelPath())) {
        QStringList recent = m_settings.get(settings::recentModels);
        recent.removeAll(model.info.path);
        recent.prepend(model.info.path);
        while (recent.size() > 8)
            recent.removeLast();
        m_settings.set(settings::recentModels, recent);
    }
    m_settings.set(settings::modelPath, model.info.path);
    if (!model.info.tokenizerPath.isEmpty()) {
        QVariantMap tokenizers = m_settings.get(settings::modelTokenizers);
        tokenizers.insert(model.info.path, model.info.tokenizerPath);
        m_settings.set(settings::modelTokenizers, tokenizers);
    }
}

QString InferenceSession::chatTemplateText() const {
    return m_model ? m_settings.get(settings::modelChatTemplateTexts).value(m_model->info.path).toString() : QString();
}

void InferenceSession::setChatTemplateFile(const QString& path) {
    if (!m_model)
        return;
    QVariantMap chosen = m_settings.get(settings::modelChatTemplates);
    if (path.isEmpty())
        chosen.remove(m_model->info.path);
    else
        chosen.insert(m_model->info.path, path);
    m_settings.set(settings::modelChatTemplates, chosen);
    loadChatTemplate();
}

void InferenceSession::setChatTemplateText(const QString& text) {
    if (!m_model)
        return;
    QVariantMap texts = m_settings.get(settings::modelChatTemplateTexts);
    if (text.trimmed().isEmpty())
        texts.remove(m_model->info.path);
    else
        texts.insert(m_model->info.path, text);
    m_settings.set(settings::modelChatTemplateTexts, texts);
    loadChatTemplate();
}

void InferenceSession::loadChatTemplate() {
    const auto use = [this](std::optional<ChatTemplate> chosen, const QString& note) {
        m_chatTemplate = std::move(chosen);
        m_chatTemplateNote = note;
        emit chatTemplateChanged();
    };
    if (isRemote()) {
        // The engine renders conversations with its own template.
        use(std::nullopt, tr("The server applies its own chat template; the messages are sent as they are."));
        return;
    }
    if (const QString text = chatTemplateText(); !text.isEmpty()) {
        Result<ChatTemplate> own = ChatTemplate::fromText(text.toStdString(), tr("your template"));
        if (own) {
            // bos/eos strings still come from the model's files
            if (Result<std::optional<ChatTemplate>> model = ChatTemplate::forModel(m_model->info.path);
                model && model.value())
                own->setSpecialTokens(model.value()->bosToken(), model.value()->eosToken());
            use(std::move(own).value(), {});
            return;
        }
        emit errorMessage(own.error().message);
    }
    const QString chosen = m_settings.get(settings::modelChatTemplates).value(m_model->info.path).toString();
    if (!chosen.isEmpty()) {
        Result<ChatTemplate> file = ChatTemplate::fromFile(chosen, m_model->info.path);
        if (file) {
            use(std::move(file).value(), {});
            return;
        }
        emit errorMessage(file.error().message);
    }
    Result<std::optional<ChatTemplate>> model = ChatTemplate::forModel(m_model->info.path);
    if (!model) {
        // A broken template: the model still opens; chat falls back to raw text and says why.
        emit errorMessage(model.error().message);
        use(std::nullopt, model.error().message);
    } else {
        use(std::move(model).value(), tr("This model has no chat template"));
    }
}

QString InferenceSession::holderJob() const {
    switch (m_holder) {
    case Holder::Explore:
        return tr("Explore's generation");
    case Holder::Compare:
        return tr("the running comparison");
    case Holder::Sweep:
        return tr("the running sweep");
    case Holder::None:
        break;
    }
    return {};
}

bool InferenceSession::canAcquire(QString* why) const {
    QString reason;
    if (m_holder != Holder::None)
        reason = tr("Wait for %1 to finish (or stop it): the model does one job at a time.").arg(holderJob());
    else if (m_loadId != 0)
        reason = tr("Wait for the model to load.");
    else if (!m_model)
        reason = tr("Open a model first (Explore's model bar).");
    if (why)
        *why = reason;
    return reason.isEmpty();
}

bool InferenceSession::acquire(Holder who, QString* why) {
    if (!canAcquire(why))
        return false;
    m_holder = who;
    emit stateChanged();
    return true;
}

void InferenceSession::release(Holder who) {
    if (m_holder != who)
        return;
    m_holder = Holder::None;
    emit stateChanged();
}

void InferenceSession::stopJob() {
    m_worker->requestStop();
}

} // namespace swb
