#pragma once

#include <optional>

#include <QHash>
#include <QObject>
#include <QThread>

#include "InferenceWorker.h"
#include "chat/ChatTemplate.h"

namespace swb {

class RunTokenizers;
class Settings;

// The model the views work with: the inference thread and its worker, the loaded model, the chat template
// conversations are rendered with, the tokenizers of the models runs came from, and a lease saying which view
// holds the worker for a long job (Explore's generation, a comparison, a sweep): the model does one at a time.
// Owned by the main window and handed to Explore, Compare and Sweep.
class InferenceSession final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InferenceSession)

public:
    // Who holds the worker for a long job. Quick jobs (a step's replay, a token probe) take no lease.
    enum class Holder { None, Explore, Compare, Sweep };

    // databasePath: where the worker saves runs.
    InferenceSession(Settings& settings, const QString& databasePath, QObject* parent = nullptr);
    // Stops every job and load and joins the inference thread.
    ~InferenceSession() override;

    InferenceWorker* worker() const { return m_worker; }
    RunTokenizers* runTokenizers() const { return m_runTokenizers; }
    // A fresh job id: answers carry it, so a stale job's are told apart.
    quint64 nextId() { return m_nextId++; }

    const std::optional<LoadedModelInfo>& model() const { return m_model; }
    bool isLoading() const { return m_loadId != 0; }
    // The loaded model is a remote engine's.
    bool isRemote() const;
    // The model loading now (empty when none) and its tokenizer file.
    const QString& loadingPath() const { return m_loadingPath; }
    const QString& loadingTokenizer() const { return m_loadingTokenizer; }
    // Loads a model (a newer request replaces a load in flight); tokenizerPath empty: the one chosen for this model
    // before. False, with the reason in `why`, while a view holds the worker.
    bool openModel(const QString& path, const QString& tokenizerPath, const ModelOptions& options, QString* why);
    // The API key of an OpenAI-compatible server (kept until the app quits, never saved).
    void setRemoteKey(const QString& address, const QString& apiKey) { m_remoteKeys.insert(address, apiKey); }
    // The load stops at its next layer; the model loaded before stays in use.
    void cancelLoad();

    // The chat template of the loaded model: the user's own text, else a chosen file, else the model's own (each
    // remembered per model); none, with `chatTemplateNote` saying why, when there is none or a remote engine
    // renders conversations itself.
    const std::optional<ChatTemplate>& chatTemplate() const { return m_chatTemplate; }
    const QString& chatTemplateNote() const { return m_chatTemplateNote; }
    // The user's template text for the loaded model, as saved (empty: none).
    QString chatTemplateText() const;
    void setChatTemplateFile(const QString& path);
    void setChatTemplateText(const QString& text);

    Holder holder() const { return m_holder; }
    bool holds(Holder who) const { return m_holder == who; }
    // Whether a long job can start now: false, with one sentence saying what to wait for in `why`, while no model
    // is ready or a view holds the worker.
    bool canAcquire(QString* why = nullptr) const;
    // Takes the worker for a long job when canAcquire.
    bool acquire(Holder who, QString* why = nullptr);
    void release(Holder who);
    // Stops the long job running and any queued (within a step).
    void stopJob();

signals:
    void loadStarted(const QString& path, const QString& tokenizerPath);
    void loadProgress(int done, int total);
    // The worker now holds this model. late: a load cancelled or replaced too late to stop that finished anyway.
    void modelLoaded(const LoadedModelInfo& model, bool late);
    void loadFailed(const QString& message);
    void loadCancelled();
    void chatTemplateChanged();
    // The lease or the model's readiness changed.
    void stateChanged();
    // A failure the user should see (a chat template that cannot be used).
    void errorMessage(const QString& text);

private:
    void onModelLoaded(quint64 id, const LoadedModelInfo& model);
    void rememberModel(const LoadedModelInfo& model);
    void loadChatTemplate();
    // What the holder is doing, as the object of "Wait for …".
    QString holderJob() const;

    Settings& m_settings;
    QThread m_thread;
    InferenceWorker* m_worker = nullptr;
    RunTokenizers* m_runTokenizers = nullptr;
    std::optional<LoadedModelInfo> m_model;
    std::optional<ChatTemplate> m_chatTemplate;
    QString m_chatTemplateNote;
    QString m_loadingPath;
    QString m_loadingTokenizer;
    QHash<QString, QString> m_remoteKeys; // API keys by server address, for this session only
    quint64 m_nextId = 1;
    quint64 m_loadId = 0;
    Holder m_holder = Holder::None;
};

} // namespace swb
