#include "explore/StrategyFormatsDialog.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QTabWidget>
#include <QVBoxLayout>

#include "SaveFileDialog.h"
#include "interop/StrategyFormats.h"

namespace swb {

StrategyFormatsDialog::StrategyFormatsDialog(QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Other Tools' Settings"));
    setObjectName(QStringLiteral("strategyFormats"));
    resize(640, 520);
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("strategyFormat"));
    for (const QString& name : strategyFormatNames())
        m_format->addItem(strategyFormatTitle(*strategyFormatFromName(name)), name);
    auto* formatRow = new QHBoxLayout;
    auto* formatLabel = new QLabel(tr("&Format:"), this);
    formatLabel->setBuddy(m_format);
    formatRow->addWidget(formatLabel);
    formatRow->addWidget(m_format, 1);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_exported = new QPlainTextEdit(this);
    m_exported->setReadOnly(true);
    m_exported->setFont(mono);
    auto* copy = new QPushButton(tr("&Copy"), this);
    auto* save = new QPushButton(tr("&Save…"), this);
    auto* exportPage = new QWidget(this);
    auto* exportLayout = new QVBoxLayout(exportPage);
    exportLayout->addWidget(new QLabel(tr("The editor's strategy, with every other sampler of the tool switched off:"), this));
    exportLayout->addWidget(m_exported, 1);
    auto* exportButtons = new QHBoxLayout;
    exportButtons->addStretch();
    exportButtons->addWidget(copy);
    exportButtons->addWidget(save);
    exportLayout->addLayout(exportButtons);

    m_import = new QPlainTextEdit(this);
    m_import->setObjectName(QStringLiteral("importText"));
    m_import->setFont(mono);
    m_import->setPlaceholderText(tr("Paste the tool's settings here, or open a file"));
    auto* open = new QPushButton(tr("&Open File…"), this);
    m_use = new QPushButton(tr("&Use in the Editor"), this);
    m_use->setObjectName(QStringLiteral("importStrategy"));
    auto* importPage = new QWidget(this);
    auto* importLayout = new QVBoxLayout(importPage);
    importLayout->addWidget(new QLabel(tr("Fields the settings do not give take the tool's own defaults:"), this));
    importLayout->addWidget(m_import, 1);
    auto* importButtons = new QHBoxLayout;
    importButtons->addWidget(open);
    importButtons->addStretch();
    importButtons->addWidget(m_use);
    importLayout->addLayout(importButtons);

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(exportPage, tr("E&xport"));
    m_tabs->addTab(importPage, tr("&Import"));
    m_notes = new QLabel(this);
    m_notes->setObjectName(QStringLiteral("formatNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(formatRow);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_notes);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_format, &QComboBox::currentIndexChanged, this, &StrategyFormatsDialog::refresh);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { m_notes->clear(); refresh(); });
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_exported->toPlainText()); });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString format = m_format->currentData().toString();
        const QString suffix = format == QLatin1String("webui-yaml")       ? QStringLiteral("yaml")
                               : format == QLatin1String("llamacpp-flags") ? QStringLiteral("txt")
                                                                           : QStringLiteral("json");
        const QString path = getSaveFileName(this, tr("Save Settings"),
                                                          format == QLatin1String("generation-config")
                                                              ? QStringLiteral("generation_config.json")
                                                              : QStringLiteral("strategy.") + suffix);
        if (path.isEmpty())
            return;
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(m_exported->toPlainText().toUtf8()) < 0 || !file.commit())
            m_notes->setText(tr("Cannot write %1: %2").arg(path, file.errorString()));
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Settings"));
        if (path.isEmpty())
            return;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            m_notes->setText(tr("Cannot read %1: %2").arg(path, file.errorString()));
            return;
        }
        m_import->setPlainText(QString::fromUtf8(file.read(4 << 20)));
    });
    connect(m_use, &QPushButton::clicked, this, &StrategyFormatsDialog::importNow);
}

void StrategyFormatsDialog::setStrategy(const Strategy& strategy) {
    m_strategy = strategy;
    refresh();
}

void StrategyFormatsDialog::refresh() {
    if (m_tabs->currentIndex() != 0)
        return;
    Result<ExportedStrategy> exported =
        exportStrategy(m_strategy, *strategyFormatFromName(m_format->currentData().toString()));
    if (!exported) {
        m_exported->clear();
        m_notes->setText(exported.error().message);
        return;
    }
    m_exported->setPlainText(exported->text);
    m_notes->setText(exported->notes.isEmpty()
                         ? tr("Everything translates.")
                         : tr("Does not translate: %1.").arg(exported->notes.join(QStringLiteral("; "))));
}

bool StrategyFormatsDialog::importNow() {
    const QString format = m_format->currentData().toString();
    Result<ImportedStrategy> imported = importStrategy(m_import->toPlainText(), *strategyFormatFromName(format));
    if (!imported) {
        m_notes->setText(tr("Cannot import: %1").arg(imported.error().message));
        return false;
    }
    m_notes->setText(imported->notes.isEmpty()
                         ? tr("Imported into the editor (Undo brings back the strategy before).")
                         : tr("Imported into the editor (Undo brings back the strategy before). Notes: %1.")
                               .arg(imported->notes.join(QStringLiteral("; "))));
    emit strategyImported(imported->strategy, m_format->currentText());
    return true;
}

} // namespace swb
