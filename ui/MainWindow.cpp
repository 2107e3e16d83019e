#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QTabWidget>

#include "AppInfo.h"
#include "EmptyStatePage.h"
#include "Settings.h"

namespace swb {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_settings(std::make_unique<Settings>()) {
    setWindowTitle(tr("Sampling Workbench"));
    setObjectName(QStringLiteral("mainWindow"));

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    const auto addPage = [this](const QString& key, const QString& label, const QString& title,
                                const QString& explanation) {
        auto* page = new EmptyStatePage(title, explanation, m_tabs);
        page->setObjectName(key);
        m_tabs->addTab(page, label);
    };
    addPage(QStringLiteral("explore"), tr("&Explore"), tr("Explore a model, one token at a time"),
            tr("Type a prompt and generate: every step shows the whole next-token distribution, where each "
               "sampler in the chain cut it, and which token was drawn. Re-run a step with an edited chain, "
               "or branch from any token."));
    addPage(QStringLiteral("compare"), tr("&Compare"), tr("Compare strategies side by side"),
            tr("Run two to four sampling strategies on the same prompts and rate their outputs blind, on a "
               "rubric and pairwise."));
    addPage(QStringLiteral("runs"), tr("&Runs"), tr("No runs yet"),
            tr("Every generation is saved here with its strategy, seed and per-step trace. Branches appear "
               "under the run they came from."));
    addPage(QStringLiteral("reports"), tr("Re&ports"), tr("No ratings yet"),
            tr("Once outputs are rated, this view summarises each strategy: rubric means with confidence "
               "intervals, win rates, Bradley-Terry scores and automatic metrics, exportable as CSV."));
    setCentralWidget(m_tabs);

    createMenus();
    statusBar()->showMessage(tr("Ready"));

    resize(1280, 800);
    const QByteArray geometry = m_settings->get(settings::windowGeometry);
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    selectTab(m_settings->get(settings::lastTab));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { m_settings->set(settings::lastTab, currentTabKey()); });
}

MainWindow::~MainWindow() = default;

QStringList MainWindow::tabKeys() {
    return {QStringLiteral("explore"), QStringLiteral("compare"), QStringLiteral("runs"), QStringLiteral("reports")};
}

QString MainWindow::currentTabKey() const {
    const QWidget* page = m_tabs->currentWidget();
    return page ? page->objectName() : QString();
}

bool MainWindow::selectTab(const QString& key) {
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->objectName() == key) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveWindowSettings();
    event->accept();
}

void MainWindow::saveWindowSettings() {
    m_settings->set(settings::windowGeometry, saveGeometry());
    m_settings->set(settings::lastTab, currentTabKey());
    m_settings->sync();
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Model…"), this, &MainWindow::openModel);
    open->setShortcut(QKeySequence::Open);
    open->setObjectName(QStringLiteral("actionOpenModel"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setObjectName(QStringLiteral("actionQuit"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About Sampling Workbench"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("actionAbout"));
}

void MainWindow::openModel() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Model"), QString(), tr("Models (config.json *.gguf *.bin *.safetensors);;All files (*)"));
    if (!path.isEmpty())
        statusBar()->showMessage(tr("Selected %1").arg(QDir::toNativeSeparators(path)));
}

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About Sampling Workbench"),
                       tr("<h3>Sampling Workbench %1</h3>"
                          "<p>Watch every decoding step of a real language model: the whole next-token "
                          "distribution, each sampler's cut and the token drawn. Compare strategies side by "
                          "side and rate them blind.</p><p>MIT licence.</p>")
                           .arg(applicationVersion()));
}

} // namespace swb
