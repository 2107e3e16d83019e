#include "explore/QuantizeDialog.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "SaveFileDialog.h"

namespace swb {

namespace {

double bitsPerWeight(kernels::WeightType type) {
    const kernels::WeightTraits& t = kernels::traits(type);
    return 8.0 * t.blockBytes / t.blockElements;
}

} // namespace

QuantizeDialog::QuantizeDialog(const QString& input, QWidget* parent)
    : QDialog(parent)
    , m_input(input) {
    setObjectName(QStringLiteral("quantizeDialog"));
    setWindowTitle(tr("Quantize Model"));
    auto* inputLabel = new QLabel(QDir::toNativeSeparators(input), this);
    inputLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    inputLabel->setWordWrap(true);

    m_recipe = new QComboBox(this);
    m_recipe->setObjectName(QStringLiteral("quantizeRecipe"));
    for (const QString& name : quantization::recipeNames()) {
        if (name == QLatin1String("q3_k") || name == QLatin1String("q4_k") || name == QLatin1String("q5_k"))
            continue; // llama-quantize's short names for the _m recipes, offered under those
        m_recipe->addItem(name, name);
    }
    m_recipe->setCurrentIndex(m_recipe->findData(QStringLiteral("q4_k_m")));
    m_recipe->setToolTip(tr("llama.cpp's recipes, as llama-quantize names them: the _s, _m and _l mixes give the "
                            "tensors that matter most (attention values, feed-forward outputs) more bits"));
    m_recipeNote = new QLabel(this);
    m_recipeNote->setObjectName(QStringLiteral("quantizeRecipeNote"));
    m_recipeNote->setWordWrap(true);

    m_output = new QLineEdit(this);
    m_output->setObjectName(QStringLiteral("quantizeOutput"));
    m_output->setMinimumWidth(360);
    m_browse = new QPushButton(tr("&Browse…"), this);
    auto* outputRow = new QHBoxLayout;
    outputRow->addWidget(m_output, 1);
    outputRow->addWidget(m_browse);
    m_open = new QCheckBox(tr("&Open the new model when done"), this);
    m_open->setChecked(true);

    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("quantizeProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_status = new QLabel(QFileInfo(input).isDir()
                              ? tr("Converted as llama.cpp's convert_hf_to_gguf.py converts a Hugging Face folder, "
                                   "then quantized as its quantizer does (no importance matrix): the same blocks "
                                   "llama-quantize writes.")
                              : tr("Quantized as llama.cpp's quantizer does (no importance matrix): the same blocks "
                                   "llama-quantize writes."),
                          this);
    m_status->setObjectName(QStringLiteral("quantizeStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(this);
    m_start = buttons->addButton(tr("&Quantize"), QDialogButtonBox::AcceptRole);
    m_start->setObjectName(QStringLiteral("quantizeStart"));
    m_start->setDefault(true);
    m_close = buttons->addButton(QDialogButtonBox::Close);

    auto* form = new QFormLayout;
    form->addRow(tr("Model:"), inputLabel);
    form->addRow(tr("&Recipe:"), m_recipe);
    form->addRow(QString(), m_recipeNote);
    auto* outputLabel = new QLabel(tr("O&utput:"), this);
    outputLabel->setBuddy(m_output); // a row holding a layout gets no buddy of its own
    form->addRow(outputLabel, outputRow);
    form->addRow(QString(), m_open);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addWidget(buttons);

    m_timer = new QTimer(this);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, &QuantizeDialog::showProgress);
    connect(m_recipe, &QComboBox::currentIndexChanged, this, &QuantizeDialog::suggestOutput);
    connect(m_output, &QLineEdit::textEdited, this, [this] { m_outputEdited = true; });
    connect(m_browse, &QPushButton::clicked, this, &QuantizeDialog::chooseOutput);
    connect(m_start, &QPushButton::clicked, this, &QuantizeDialog::start);
    connect(m_close, &QPushButton::clicked, this, &QuantizeDialog::reject);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, &QuantizeDialog::finished);
    suggestOutput();
}

QuantizeDialog::~QuantizeDialog() {
    cancel();
    m_watcher.waitForFinished();
}

void QuantizeDialog::suggestOutput() {
    const QString recipe = m_recipe->currentData().toString();
    if (Result<quantization::Recipe> r = quantization::recipeNamed(recipe))
        m_recipeNote->setText(tr("Most tensors %1 (%2 bits per weight); the output matrix and, in the mixes, some "
                                 "layers get more.")
                                  .arg(QLatin1String(kernels::traits(r->base).name))
                                  .arg(bitsPerWeight(r->base), 0, 'f', 2));
    if (m_outputEdited)
        return;
    const QFileInfo in(m_input);
    QString base = in.completeBaseName();
    // "model-f16" becomes "model-q4_k_m", not "model-f16-q4_k_m".
    for (const char* suffix : {"-f32", "-f16", "-bf16", ".f32", ".f16", ".bf16", "-F32", "-F16", "-BF16"})
        if (base.endsWith(QLatin1String(suffix)))
            base.chop(static_cast<int>(qstrlen(suffix)));
    // Beside the input, unless that folder is read-only (the installed demo model): then the documents folder.
    const QDir folder = QFileInfo(in.absolutePath()).isWritable()
                            ? in.absoluteDir()
                            : QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation));
    m_output->setText(
        QDir::toNativeSeparators(folder.filePath(base + QLatin1Char('-') + recipe + QStringLiteral(".gguf"))));
}

void QuantizeDialog::chooseOutput() {
    const QString path = !m_nextFileName.isEmpty() ? std::exchange(m_nextFileName, QString())
                                                   : getSaveFileName(this, tr("Save Quantized Model"), m_output->text(),
                                                                     tr("GGUF models (*.gguf)"));
    if (path.isEmpty())
        return;
    m_output->setText(QDir::toNativeSeparators(path));
    m_outputEdited = true;
}

void QuantizeDialog::setRecipe(const QString& name) {
    if (const int index = m_recipe->findData(name.toLower()); index >= 0)
        m_recipe->setCurrentIndex(index);
}

void QuantizeDialog::setWorking(bool working) {
    m_working = working;
    m_recipe->setEnabled(!working);
    m_output->setEnabled(!working);
    m_browse->setEnabled(!working);
    m_start->setEnabled(!working);
    m_close->setText(working ? tr("Cancel") : tr("Close"));
    if (working)
        m_timer->start();
    else
        m_timer->stop();
}

void QuantizeDialog::start() {
    if (isWorking())
        return;
    quantization::QuantizeOptions options;
    options.input = m_input;
    options.output = QDir::fromNativeSeparators(m_output->text().trimmed());
    if (options.output.isEmpty()) {
        m_status->setText(tr("Name the file to write."));
        return;
    }
    if (const QString refused = refusedSaveTarget(options.output); !refused.isEmpty()) {
        m_status->setText(refused);
        return;
    }
    Result<quantization::Recipe> recipe = quantization::recipeNamed(m_recipe->currentData().toString());
    if (!recipe) {
        m_status->setText(recipe.error().message);
        return;
    }
    options.recipe = *recipe;
    emit started(recipe->name);
    m_shared = std::make_shared<Shared>();
    setWorking(true);
    m_progress->setValue(0);
    m_status->setText(tr("Reading %1…").arg(QFileInfo(m_input).fileName()));
    m_watcher.setFuture(QtConcurrent::run([options, shared = m_shared] {
        return std::make_shared<Result<quantization::QuantizeReport>>(
            quantization::quantizeModel(options, [shared](const quantization::QuantizeProgress& p) {
                shared->done = p.bytesRead;
                shared->total = p.bytesTotal;
                {
                    const std::lock_guard lock(shared->mutex);
                    shared->tensor = QStringLiteral("[%1/%2] %3 %4 → %5")
                                         .arg(p.tensor)
                                         .arg(p.tensors)
                                         .arg(QString::fromStdString(p.name), p.from, p.to);
                }
                return !shared->cancel.load();
            }));
    }));
}

void QuantizeDialog::showProgress() {
    if (!m_shared)
        return;
    const std::uint64_t total = m_shared->total;
    if (total > 0)
        m_progress->setValue(
            static_cast<int>(1000.0 * static_cast<double>(m_shared->done) / static_cast<double>(total)));
    const std::lock_guard lock(m_shared->mutex);
    if (!m_shared->tensor.isEmpty())
        m_status->setText(m_shared->tensor);
}

void QuantizeDialog::finished() {
    setWorking(false);
    const std::shared_ptr<Result<quantization::QuantizeReport>> result = m_watcher.result();
    if (!result->ok()) {
        m_progress->setValue(0);
        m_status->setText(result->error().message);
        return;
    }
    const quantization::QuantizeReport& report = result->value();
    m_progress->setValue(1000);
    const QString output = QDir::fromNativeSeparators(m_output->text().trimmed());
    QString text = tr("Wrote %1: %2 MiB, %3 bits per weight.")
                       .arg(QFileInfo(output).fileName())
                       .arg(static_cast<double>(report.outputFileBytes) / (1024.0 * 1024.0), 0, 'f', 1)
                       .arg(report.bitsPerWeight(), 0, 'f', 2);
    if (!report.notes.isEmpty())
        text += QLatin1Char(' ') + tr("%n tensor(s) fell back to another type (rows not whole blocks).", nullptr,
                                      static_cast<int>(report.notes.size()));
    m_status->setText(text);
    m_status->setToolTip(report.notes.join(QLatin1Char('\n')));
    if (m_open->isChecked()) {
        emit quantized(output);
        accept();
    }
}

void QuantizeDialog::cancel() {
    if (m_shared)
        m_shared->cancel = true;
}

void QuantizeDialog::reject() {
    if (isWorking()) {
        cancel(); // finished() shows the cancel; the dialog stays for another try
        m_status->setText(tr("Cancelling…"));
        return;
    }
    QDialog::reject();
}

void QuantizeDialog::closeEvent(QCloseEvent* event) {
    if (m_watcher.isRunning()) {
        cancel();
        m_watcher.waitForFinished();
    }
    event->accept();
    QDialog::closeEvent(event);
}

} // namespace swb
