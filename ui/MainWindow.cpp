#include "MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QLayout>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include "AppInfo.h"
#include "InferenceSession.h"
#include "MessageBar.h"
#include "Settings.h"
#include "compare/CompareView.h"
#include "explore/ExploreView.h"
#include "explore/ModelBar.h"
#include "explore/StrategyEditor.h"
#include "reports/ReportsView.h"
#include "runs/RunsView.h"
#include "serving/RemoteEngine.h"
#include "storage/Database.h"
#include "sweep/SweepView.h"

namespace swb {

MainWindow::MainWindow(const QString& modelPath, const QString& tokenizerPath, const QString& apiKey, QWidget* parent)
    : QMainWindow(parent)
    , m_settings(std::make_unique<Settings>()) {
    setWindowTitle(tr("Sampling Workbench"));
    setObjectName(QStringLiteral("mainWindow"));

    const QString databasePath = Database::defaultPath();
    if (Result<std::unique_ptr<Database>> opened = Database::open(databasePath))
        m_database = std::move(opened).value();
    else
        m_databaseError = tr("The run store cannot be used, so runs will not be saved: %1").arg(opened.error().message);

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->setObjectName(QStringLiteral("mainTabs"));
    m_session = std::make_unique<InferenceSession>(*m_settings, databasePath);
    m_explore = new ExploreView(*m_settings, m_database.get(), *m_session, m_tabs);
    m_tabs->addTab(m_explore, tr("&Explore"));
    m_compare = new CompareView(*m_settings, m_database.get(), *m_session, *m_explore->strategyEditor(), m_tabs);
    m_tabs->addTab(m_compare, tr("&Compare"));
    connect(m_compare, &CompareView::openStep, this, [this](qint64 runId, int step) {
        if (m_explore->openRun(runId)) {
            m_explore->selectStep(step);
            selectTab(QStringLiteral("explore"));
        }
    });
    m_sweepView = new SweepView(*m_settings, m_database.get(), *m_session, *m_explore->strategyEditor(), m_tabs);
    m_tabs->addTab(m_sweepView, tr("S&weep"));
    m_runsView = new RunsView(m_database.get(), m_tabs);
    m_tabs->addTab(m_runsView, tr("&Runs"));
    connect(m_explore, &ExploreView::runSaved, m_runsView, &RunsView::refresh);
    connect(m_compare, &CompareView::comparisonsChanged, m_runsView, &RunsView::refresh);
    connect(m_sweepView, &SweepView::runsChanged, m_runsView, &RunsView::refresh);
    connect(m_explore, &ExploreView::comparisonMade, m_compare, &CompareView::reloadComparisons);
    const auto openInExplore = [this](qint64 id) {
        if (m_explore->openRun(id))
            selectTab(QStringLiteral("explore"));
    };
    connect(m_sweepView, &SweepView::openRun, this, openInExplore);
    connect(m_runsView, &RunsView::runDeleted, m_explore, &ExploreView::forgetDeletedRun);
    connect(m_runsView, &RunsView::runDeleted, m_compare, &CompareView::reloadComparisons);
    connect(m_runsView, &RunsView::openRequested, this, openInExplore);
    m_reportsView = new ReportsView(m_database.get(), m_tabs);
    m_reportsView->setSuggestionThresholds(m_settings->get(settings::reportsGoldThreshold),
                                           m_settings->get(settings::reportsAlphaRise));
    connect(m_reportsView, &ReportsView::suggestionThresholdsChanged, this, [this](double gold, double rise) {
        m_settings->set(settings::reportsGoldThreshold, gold);
        m_settings->set(settings::reportsAlphaRise, rise);
    });
    connect(m_reportsView, &ReportsView::openRun, this, openInExplore);
    m_tabs->addTab(m_reportsView, tr("Re&ports"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_explore->setFront(m_tabs->currentWidget() == m_explore);
        if (m_tabs->currentWidget() == m_reportsView)
            m_reportsView->refresh();
    });
    connect(m_session.get(), &InferenceSession::errorMessage, this, &MainWindow::showError);
    for (QObject* source : {static_cast<QObject*>(m_explore), static_cast<QObject*>(m_compare),
                            static_cast<QObject*>(m_sweepView), static_cast<QObject*>(m_runsView), static_cast<QObject*>(m_reportsView)}) {
        connect(source, SIGNAL(statusMessage(QString)), this, SLOT(showStatus(QString)));
        connect(source, SIGNAL(errorMessage(QString)), this, SLOT(showError(QString)));
    }
    // Errors stay above the tabs until closed; the status bar only passes messages.
    m_messageBar = new MessageBar(this);
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_messageBar);
    column->addWidget(m_tabs, 1);
    setCentralWidget(central);
    if (!m_databaseError.isEmpty())
        m_messageBar->showError(m_databaseError);

    createMenus();
    statusBar()->showMessage(m_databaseError.isEmpty() ? tr("Ready") : m_databaseError);

    resize(1280, 800);
    const QByteArray geometry = m_settings->get(settings::windowGeometry);
    if (!geometry.isEmpty())
        restoreGeometry(geometry);
    fitToScreen();
    selectTab(m_settings->get(settings::lastTab));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { m_settings->set(settings::lastTab, currentTabKey()); });

    if (modelPath.isEmpty())
        m_explore->openLastModel();
    else if (isRemoteModelAddress(modelPath))
        m_explore->openRemoteModel(modelPath, apiKey);
    else
        m_explore->openModel(QFileInfo(modelPath).absoluteFilePath(),
                             tokenizerPath.isEmpty() ? QString() : QFileInfo(tokenizerPath).absoluteFilePath());
}

MainWindow::~MainWindow() {
    // The views use the settings, the run store and the inference session: they go first.
    delete m_tabs;
}

QStringList MainWindow::tabKeys() {
    return {QStringLiteral("explore"), QStringLiteral("compare"), QStringLiteral("sweep"), QStringLiteral("runs"),
            QStringLiteral("reports")};
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

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    // Before the first show the widgets are not polished yet and ask for more room than they will: show()
    // can grow the window past the screen. Fit it again once they have settled.
    // The window manager's frame (its title bar) is known only once it has framed the window: fit again then.
    if (!m_fittedAfterShow) {
        m_fittedAfterShow = true;
        // A tab never shown asks for more height than it needs once laid out (its word-wrapped labels are
        // measured at their narrowest): opened on Sweep at 1024x700, Explore's page held the window at 725 px.
        // Each page is shown once, before anything is painted, so that it has been laid out at its width.
        {
            const QSignalBlocker quiet(m_tabs);
            const int start = m_tabs->currentIndex();
            for (int i = 0; i < m_tabs->count(); ++i) {
                m_tabs->setCurrentIndex(i);
                if (QLayout* layout = m_tabs->currentWidget()->layout())
                    layout->activate();
            }
            m_tabs->setCurrentIndex(start);
        }
        QTimer::singleShot(0, this, &MainWindow::fitToScreen);
        QTimer::singleShot(300, this, &MainWindow::fitToScreen);
    }
}

void MainWindow::fitToScreen() {
    // The default 1280x800, or a geometry saved on a larger screen, must not reach past this screen's edges
    // (at 1024x700 it hid the Generate button and the status bar).
    const QScreen* where = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!where)
        return;
    const QRect room = where->availableGeometry();
    const QSize frame = frameGeometry().size() - geometry().size(); // the window manager's borders
    const QSize fits = size().boundedTo(room.size() - frame);
    if (fits != size())
        resize(fits);
    QRect placed = frameGeometry();
    placed.moveRight(std::min(placed.right(), room.right()));
    placed.moveBottom(std::min(placed.bottom(), room.bottom()));
    placed.moveLeft(std::max(placed.left(), room.left()));
    placed.moveTop(std::max(placed.top(), room.top()));
    if (placed.topLeft() != frameGeometry().topLeft())
        move(placed.topLeft());
}

void MainWindow::showStatus(const QString& text) {
    statusBar()->showMessage(text, 15000);
}

void MainWindow::showError(const QString& text) {
    m_messageBar->showError(text);
    statusBar()->showMessage(text, 15000);
}

void MainWindow::saveWindowSettings() {
    m_explore->saveSettings();
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

    QMenu* generation = menuBar()->addMenu(tr("&Generation"));
    generation->addAction(m_explore->generateAction());
    generation->addAction(m_explore->stopAction());
    generation->addAction(m_explore->replayAction());
    addAction(m_explore->generateAction());
    addAction(m_explore->stopAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About Sampling Workbench"), this, &MainWindow::showAbout);
    about->setObjectName(QStringLiteral("actionAbout"));
}

void MainWindow::openModel() {
    selectTab(QStringLiteral("explore"));
    m_explore->modelBar()->chooseFile();
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
