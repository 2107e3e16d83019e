#include "explore/ModelBar.h"

#include <utility>

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QUrl>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QProgressBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>

#include "AppInfo.h"
#include "InferenceSession.h"
#include "Settings.h"
#include "explore/QuantizeDialog.h"
#include "serving/RemoteEngine.h"
#include "tokenizer/TokenizerLoader.h"

namespace swb {

namespace {
QString displayName(const QString& path) {
    if (isRemoteModelAddress(path)) {
        const QUrl url(path);
        return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
    }
    const QFileInfo info(path);
    if (info.fileName() == QLatin1String("config.json"))
        return info.dir().dirName();
    return info.fileName().isEmpty() ? path : info.fileName();
}
} // namespace

namespace {

// A one-line label that ends in "…" when the room is too short ("· vocabula" said less than it cut), its text
// and tooltip whole.
class ElidedLabel final : public QLabel {
public:
    using QLabel::QLabel;

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        const QRect area = contentsRect();
        painter.drawText(area, Qt::AlignVCenter | Qt::AlignLeft,
                         fontMetrics().elidedText(text(), Qt::ElideRight, area.width()));
    }
};

} // namespace

ModelBar::ModelBar(QWidget* parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("modelBar"));
    m_name = new QLabel(tr("No model"), this);
    m_name->setObjectName(QStringLiteral("modelName"));
    QFont bold = m_name->font();
    bold.setBold(true);
    m_name->setFont(bold);
    m_details = new ElidedLabel(this);
    m_details->setObjectName(QStringLiteral("modelDetails"));
    m_details->setTextFormat(Qt::PlainText);
    // A long path or error must not widen the window: the label takes the room left, its tooltip the rest.
    m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_open = new QToolButton(this);
    m_open->setText(tr("Open Model"));
    m_open->setObjectName(QStringLiteral("openModel"));
    m_open->setPopupMode(QToolButton::InstantPopup);
    m_open->setToolTipDuration(5000);
    m_open->setToolTip(
        tr("Open a Hugging Face folder, a .gguf file or a llama2.c .bin checkpoint (or drop one on the window)"));
    m_menu = new QMenu(m_open);
    m_open->setMenu(m_menu);
    rebuildMenu();

    m_device = new QComboBox(this);
    m_device->setObjectName(QStringLiteral("device"));
    m_device->addItem(tr("CPU"), QStringLiteral("cpu"));
    m_device->addItem(tr("CUDA"), QStringLiteral("cuda"));
    m_device->setToolTip(
        tr("Where the model runs; CUDA needs a CUDA build of libtorch (falls back to the CPU with a warning)"));
    m_dtype = new QComboBox(this);
    m_dtype->setObjectName(QStringLiteral("dtype"));
    for (const char* dtype : {"f32", "f16", "bf16"})
        m_dtype->addItem(QLatin1String(dtype), QLatin1String(dtype));
    m_dtype->setToolTip(tr("The dtype the model computes in"));
    m_threads = new QSpinBox(this);
    m_threads->setObjectName(QStringLiteral("threads"));
    m_threads->setRange(0, 256);
    m_threads->setSpecialValueText(tr("auto"));
    m_threads->setPrefix(tr("threads "));
    m_threads->setToolTip(tr("CPU threads for the model (auto: the CPUs this process may use; one for a model too "
                             "small to split)"));
    // Off by default and never implied: the probabilities shown are then no longer exact.
    m_fastMath = new QToolButton(this);
    m_fastMath->setObjectName(QStringLiteral("fastMath"));
    m_fastMath->setText(tr("Fast math"));
    m_fastMath->setCheckable(true);
    m_fastMath->setToolTip(tr("Quantized weights take activations rounded to 8 bits, as llama.cpp computes them: "
                              "faster, but probabilities move by up to about 0.01. Off, every product is exact "
                              "float32 arithmetic (within 1e-4 of a float64 computation)."));
    connect(m_fastMath, &QToolButton::toggled, this, &ModelBar::emitIfOptionsChanged);
    for (QComboBox* combo : {m_device, m_dtype})
        connect(combo, &QComboBox::activated, this, &ModelBar::emitIfOptionsChanged);
    connect(m_threads, &QSpinBox::editingFinished, this, &ModelBar::emitIfOptionsChanged);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("modelProgress"));
    m_progress->setRange(0, 0);
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelLoad"));
    m_cancel->hide();
    connect(m_cancel, &QToolButton::clicked, this, &ModelBar::cancelRequested);

    // A llama2.c checkpoint carries no vocabulary: this button appears for one and picks its tok.bin.
    m_tokenizer = new QToolButton(this);
    m_tokenizer->setObjectName(QStringLiteral("chooseTokenizer"));
    m_tokenizer->setText(tr("&Tokenizer…"));
    m_tokenizer->setToolTip(tr("Choose the tokenizer file (tok.bin) of this llama2.c checkpoint"));
    m_tokenizer->hide();
    connect(m_tokenizer, &QToolButton::clicked, this, &ModelBar::chooseTokenizer);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_name);
    layout->addWidget(m_details, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_cancel);
    layout->addWidget(m_tokenizer);
    layout->addWidget(m_device);
    layout->addWidget(m_dtype);
    layout->addWidget(m_threads);
    layout->addWidget(m_fastMath);
    layout->addWidget(m_open);
}

void ModelBar::follow(InferenceSession& session, Settings& settings) {
    m_settings = &settings;
    ModelOptions saved;
    saved.device = settings.get(settings::modelDevice);
    saved.dtype = settings.get(settings::modelDtype);
    saved.threads = settings.get(settings::modelThreads);
    saved.fastMath = settings.get(settings::modelFastMath);
    setOptions(saved);
    setRecent(settings.get(settings::recentModels));
    connect(&session, &InferenceSession::loadStarted, this, &ModelBar::setLoading);
    connect(&session, &InferenceSession::loadProgress, this, &ModelBar::setProgress);
    connect(&session, &InferenceSession::loadCancelled, this, [this, &session] {
        if (session.model())
            setLoaded(session.model()->info);
        else
            setFailed(tr("Loading cancelled."));
    });
    connect(&session, &InferenceSession::loadFailed, this, [this, &session](const QString& message) {
        setFailed(message);
        // A checkpoint that needs its tokenizer keeps the failure and the Tokenizer button in the bar.
        if (session.model() && !needsSeparateTokenizer(session.loadingPath()))
            setLoaded(session.model()->info);
    });
    connect(&session, &InferenceSession::modelLoaded, this,
            [this, &session, &settings](const LoadedModelInfo& model, bool late) {
                // A load that finished after its cancel: a newer load still running keeps its bar.
                if (!late || !session.isLoading())
                    setLoaded(model.info);
                if (!late)
                    setRecent(settings.get(settings::recentModels));
            });
}

void ModelBar::saveOptions(Settings& settings) const {
    const ModelOptions chosen = options();
    settings.set(settings::modelDevice, chosen.device);
    settings.set(settings::modelDtype, chosen.dtype);
    settings.set(settings::modelThreads, chosen.threads);
    settings.set(settings::modelFastMath, chosen.fastMath);
}

ModelOptions ModelBar::options() const {
    ModelOptions options;
    options.device = m_device->currentData().toString();
    options.dtype = m_dtype->currentData().toString();
    options.threads = m_threads->value();
    options.fastMath = m_fastMath->isChecked();
    return options;
}

void ModelBar::setOptions(const ModelOptions& options) {
    m_device->setCurrentIndex(std::max(0, m_device->findData(options.device)));
    m_dtype->setCurrentIndex(std::max(0, m_dtype->findData(options.dtype)));
    m_threads->setValue(options.threads);
    {
        const QSignalBlocker quiet(m_fastMath);
        m_fastMath->setChecked(options.fastMath);
    }
    m_applied = this->options();
}

// Picking the same item again or leaving the threads box unchanged must not reload the model.
void ModelBar::emitIfOptionsChanged() {
    const ModelOptions now = options();
    if (now.device == m_applied.device && now.dtype == m_applied.dtype && now.threads == m_applied.threads &&
        now.fastMath == m_applied.fastMath)
        return;
    m_applied = now;
    emit optionsChanged();
}

void ModelBar::setRecent(const QStringList& paths) {
    m_recent = paths;
    rebuildMenu();
}

void ModelBar::rebuildMenu() {
    m_menu->clear();
    m_menu->addAction(tr("Open F&older…"), this, &ModelBar::chooseFolder);
    m_menu->addAction(tr("Open &File…"), this, &ModelBar::chooseFile);
    m_menu->addAction(tr("OpenAI-compatible &Server…"), this, &ModelBar::chooseServer);
    m_menu->addAction(tr("&Bundled Demo Model"), this, [this] { emit openRequested(bundledModelPath()); });
    m_menu->addSeparator();
    m_quantize = m_menu->addAction(tr("&Quantize This Model…"), this, &ModelBar::quantize);
    m_quantize->setObjectName(QStringLiteral("quantizeModel"));
    m_divergence = m_menu->addAction(tr("Compare &With Another Model…"), this, &ModelBar::divergenceRequested);
    m_divergence->setObjectName(QStringLiteral("divergenceModel"));
    updateQuantizeAction();
    if (!m_recent.isEmpty()) {
        m_menu->addSection(tr("Recent"));
        for (const QString& path : m_recent)
            m_menu->addAction(QDir::toNativeSeparators(path), this, [this, path] { emit openRequested(path); });
    }
}

void ModelBar::chooseServer() {
    QDialog dialog(this);
    dialog.setWindowTitle(tr("OpenAI-compatible Server"));
    auto* address = new QLineEdit(&dialog);
    address->setObjectName(QStringLiteral("serverAddress"));
    address->setPlaceholderText(QStringLiteral("http://127.0.0.1:8080/v1"));
    address->setText(isRemoteModelAddress(m_modelPath) ? m_modelPath : QStringLiteral("http://127.0.0.1:8080/v1"));
    auto* key = new QLineEdit(&dialog);
    key->setObjectName(QStringLiteral("serverApiKey"));
    key->setEchoMode(QLineEdit::Password);
    key->setPlaceholderText(tr("none"));
    auto* note = new QLabel(tr("swb serve, llama.cpp's server, vLLM or any server with /v1/completions. The engine "
                               "samples; each token comes with its top-20 log-probabilities, and what-if replays "
                               "only those. The key is kept until the app quits, never saved."),
                            &dialog);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, &dialog);
    auto* problem = new QLabel(&dialog);
    problem->setObjectName(QStringLiteral("serverProblem"));
    problem->setStyleSheet(QStringLiteral("color: #b00020"));
    problem->hide();
    connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        // An address the dialog cannot use stays in it, with why.
        if (isRemoteModelAddress(address->text().trimmed())) {
            dialog.accept();
            return;
        }
        problem->setText(tr("An address starts with http:// or https://, e.g. http://127.0.0.1:8080/v1."));
        problem->show();
    });
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* form = new QFormLayout(&dialog);
    form->addRow(tr("&Address:"), address);
    form->addRow(tr("API &key:"), key);
    form->addRow(note);
    form->addRow(problem);
    form->addRow(buttons);
    dialog.resize(520, dialog.sizeHint().height());
    if (dialog.exec() != QDialog::Accepted)
        return;
    emit openRemoteRequested(address->text().trimmed(), key->text().trimmed());
}

QString ModelBar::fileName(const QString& caption, const QString& filter) {
    if (!m_nextFileName.isEmpty())
        return std::exchange(m_nextFileName, QString());
    return QFileDialog::getOpenFileName(this, caption, QFileInfo(m_modelPath).absolutePath(), filter);
}

void ModelBar::chooseFolder() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Model Folder"));
    if (!dir.isEmpty())
        emit openRequested(dir);
}

void ModelBar::chooseFile() {
    QString file =
        fileName(tr("Open Model File"), tr("Models (*.gguf *.bin config.json *.safetensors);;All files (*)"));
    if (file.isEmpty())
        return;
    // A Hugging Face model is its folder.
    if (file.endsWith(QLatin1String(".json")) || file.endsWith(QLatin1String(".safetensors")))
        file = QFileInfo(file).absolutePath();
    // A checkpoint without a tokenizer beside it: ask for one right away rather than fail first.
    if (needsSeparateTokenizer(file) && llama2cTokenizerBeside(file).isEmpty()) {
        m_modelPath = file;
        const QString tokenizer = fileName(tr("Choose the Tokenizer of %1").arg(displayName(file)),
                                           tr("llama2.c tokenizers (*.bin);;All files (*)"));
        emit openRequested(file, tokenizer); // without one, the load explains what is missing
        return;
    }
    emit openRequested(file);
}

void ModelBar::chooseTokenizer() {
    if (m_modelPath.isEmpty())
        return;
    const QString file = fileName(tr("Choose the Tokenizer of %1").arg(displayName(m_modelPath)),
                                  tr("llama2.c tokenizers (*.bin);;All files (*)"));
    if (!file.isEmpty())
        emit openRequested(m_modelPath, file);
}

void ModelBar::updateQuantizeAction() {
    const bool local = !m_modelPath.isEmpty() && !isRemoteModelAddress(m_modelPath);
    m_divergence->setEnabled(local);
    m_divergence->setToolTip(local ? tr("Where another model sharing this one's tokenizer parts from it on a text, "
                                        "token by token")
                                   : tr("Open a model here first (a served one reports no whole distributions)"));
    const QFileInfo info(m_modelPath);
    const bool quantizable =
        (m_modelPath.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive) && info.isFile()) ||
        (info.isDir() && QFileInfo::exists(QDir(m_modelPath).filePath(QStringLiteral("config.json"))));
    m_quantize->setEnabled(quantizable);
    m_quantize->setToolTip(
        quantizable ? tr("Make a quantized GGUF of %1 with one of llama.cpp's recipes").arg(displayName(m_modelPath))
                    : tr("Quantizing starts from a float model (a GGUF file or a Hugging Face folder; f32, f16 or "
                         "bf16): open one first"));
}

QuantizeDialog* ModelBar::quantizeDialog() const {
    return m_quantizeDialog;
}

void ModelBar::quantize() {
    if (m_quantizeDialog) {
        m_quantizeDialog->raise();
        m_quantizeDialog->activateWindow();
        return;
    }
    m_quantizeDialog = new QuantizeDialog(m_modelPath, this);
    m_quantizeDialog->setAttribute(Qt::WA_DeleteOnClose);
    if (m_settings) {
        m_quantizeDialog->setRecipe(m_settings->get(settings::quantizeRecipe));
        connect(m_quantizeDialog, &QuantizeDialog::started, this,
                [this](const QString& recipe) { m_settings->set(settings::quantizeRecipe, recipe); });
    }
    connect(m_quantizeDialog, &QuantizeDialog::quantized, this,
            [this](const QString& output) { emit openRequested(output); });
    m_quantizeDialog->show();
}

void ModelBar::showModelPath(const QString& path, const QString& tokenizerPath) {
    m_modelPath = path;
    updateQuantizeAction();
    m_tokenizer->setVisible(needsSeparateTokenizer(path));
    m_tokenizer->setToolTip(tokenizerPath.isEmpty()
                                ? tr("Choose the tokenizer file (tok.bin) of this llama2.c checkpoint")
                                : tr("Tokenizer: %1\nChoose another").arg(QDir::toNativeSeparators(tokenizerPath)));
}

bool ModelBar::isLoading() const {
    return m_progress->isVisible();
}

void ModelBar::setProgress(int done, int total) {
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setToolTip(tr("Layer %1 of %2").arg(done).arg(total));
}

void ModelBar::setLoading(const QString& path, const QString& tokenizerPath) {
    showModelPath(path, tokenizerPath);
    m_name->setText(isRemoteModelAddress(path) ? tr("Connecting to %1…").arg(displayName(path))
                                               : tr("Loading %1…").arg(displayName(path)));
    m_progress->setRange(0, 0); // busy until the first layer reports
    m_details->setText(QDir::toNativeSeparators(path));
    m_progress->show();
    m_cancel->show();
    m_open->setEnabled(false);
}

void ModelBar::setLoaded(const ModelInfo& info) {
    showModelPath(info.path, info.tokenizerPath);
    m_progress->hide();
    m_cancel->hide();
    m_open->setEnabled(true);
    m_name->setText(displayName(info.path));
    const bool remote = info.format == QLatin1String("remote");
    for (QWidget* local : {static_cast<QWidget*>(m_device), static_cast<QWidget*>(m_dtype),
                           static_cast<QWidget*>(m_threads), static_cast<QWidget*>(m_fastMath)})
        local->setEnabled(!remote);
    if (remote) {
        m_details->setText(tr("%1 · the engine samples; top-20 log-probabilities per token").arg(info.architecture));
        m_details->setToolTip(info.path);
        return;
    }
    // What "auto" chose, in the box itself.
    m_threads->setSpecialValueText(info.device == QLatin1String("cpu") ? tr("auto: %n", nullptr, info.threads)
                                                                        : tr("auto"));
    m_threads->setToolTip(tr("CPU threads for the model: %1 now (%2). Auto takes the CPUs this process may use, "
                             "and one for a model too small to split.")
                              .arg(info.threads)
                              .arg(info.threadsAutomatic ? tr("chosen automatically") : tr("set here")));
    const double millions = static_cast<double>(info.parameters) / 1e6;
    // The CPU kernels keep the weights as stored and compute in f32; otherwise they become the compute dtype.
    const QString weights = info.fastMath        ? tr("%1 as stored, FAST MATH: 8-bit activations").arg(info.fileDtype)
                            : info.storedWeights ? tr("%1 as stored, f32 arithmetic").arg(info.fileDtype)
                                                 : tr("%1 → %2").arg(info.fileDtype, info.computeDtype);
    m_details->setText(tr("%1 · %2M parameters · %3 · %4 · context %5 · vocabulary %6")
                           .arg(info.architecture)
                           .arg(millions, 0, 'f', millions < 10 ? 2 : 0)
                           .arg(weights, info.device)
                           .arg(info.contextLength)
                           .arg(info.vocabSize));
    m_details->setToolTip(m_details->text() + QLatin1Char('\n') + QDir::toNativeSeparators(info.path));
}

void ModelBar::setFailed(const QString& message) {
    m_progress->hide();
    m_cancel->hide();
    m_open->setEnabled(true);
    m_name->setText(m_tokenizer->isVisible() ? tr("%1 not loaded").arg(displayName(m_modelPath)) : tr("No model"));
    m_details->setText(message);
    m_details->setToolTip(message);
}

} // namespace swb
