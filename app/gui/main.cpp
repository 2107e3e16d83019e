#include <csignal>

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>
#include <QWindow>

#include "AppInfo.h"
#include "MainWindow.h"
#include "explore/ExploreView.h"
#include "explore/TokenStreamView.h"
#include "reports/ReportsView.h"
#include "serving/RemoteEngine.h"
#include "sweep/SweepView.h"

namespace {

// Saves the window as PNG once it is exposed and painted, then quits with 0 (1 if it cannot be saved).
void takeScreenshotWhenPainted(swb::MainWindow* window, const QString& path) {
    auto* poll = new QTimer(window);
    poll->setInterval(50);
    QObject::connect(poll, &QTimer::timeout, window, [window, path, poll, waited = 0]() mutable {
        waited += poll->interval();
        const bool exposed = window->windowHandle() && window->windowHandle()->isExposed();
        if (!exposed && waited < 10000)
            return;
        poll->stop();
        // Let pending layout and paint events run so the grab shows the settled window.
        QCoreApplication::processEvents();
        const bool saved = window->grab().save(path, "PNG");
        if (!saved)
            fprintf(stderr, "sampling-workbench: cannot write the screenshot to %s\n", qPrintable(path));
        QCoreApplication::exit(saved ? 0 : 1);
    });
    poll->start();
}

// For a screenshot of Explore: generate on the loaded model, select the step the chain cut most
// interestingly, wait for its replay, then shoot.
void screenshotAfterDemoGeneration(swb::MainWindow* window, const QString& path) {
    swb::ExploreView* explore = window->explore();
    const auto shoot = [window, path] { takeScreenshotWhenPainted(window, path); };
    QObject::connect(explore, &swb::ExploreView::inspectionUpdated, window, shoot, Qt::SingleShotConnection);
    QObject::connect(explore, &swb::ExploreView::generationEnded, window, [explore, shoot](qint64 runId) {
        const auto& steps = explore->run().steps;
        if (runId == 0 || steps.empty()) {
            shoot();
            return;
        }
        // The most uncertain of the first 40 steps whose survivors fit on the plot.
        int best = -1;
        for (int i = 0; i < static_cast<int>(std::min<std::size_t>(steps.size(), 40)); ++i) {
            const swb::StepTrace& trace = steps[static_cast<std::size_t>(i)].trace;
            if (trace.finalCount <= 24 &&
                (best < 0 || trace.rawEntropy > steps[static_cast<std::size_t>(best)].trace.rawEntropy))
                best = i;
        }
        explore->selectStep(std::max(best, 0));
    });
    const auto start = [explore] { explore->generate(); };
    if (explore->isModelLoaded())
        QTimer::singleShot(0, explore, start);
    else
        QObject::connect(explore, &swb::ExploreView::modelReady, explore, start, Qt::SingleShotConnection);
    // Whatever happens, never hang: shoot what is there after 60 s.
    QTimer::singleShot(60000, window, shoot);
}

// For a screenshot of Sweep: run the sweep the form holds on the loaded model, show its middle cell, shoot.
void screenshotAfterSweep(swb::MainWindow* window, const QString& path) {
    swb::SweepView* sweep = window->sweep();
    const auto shoot = [window, path] { takeScreenshotWhenPainted(window, path); };
    QObject::connect(sweep, &swb::SweepView::runsChanged, window, [sweep, shoot] {
        if (const auto& done = sweep->result(); done && !done->outcome.cells.empty()) {
            const swb::SweepCellRuns& last = done->outcome.cells.back();
            sweep->showCell(last.column / 2, last.row / 2);
        }
        shoot();
    });
    const auto start = [sweep, shoot] {
        sweep->run();
        if (!sweep->isRunning())
            shoot(); // the form does not hold a sweep: show why
    };
    if (window->explore()->isModelLoaded())
        QTimer::singleShot(0, sweep, start);
    else
        QObject::connect(window->explore(), &swb::ExploreView::modelReady, sweep, start, Qt::SingleShotConnection);
    QTimer::singleShot(120000, window, shoot);
}

} // namespace

int main(int argc, char* argv[]) {
    std::signal(SIGXFSZ, SIG_IGN); // a file-size limit fails the write with a message instead of killing the GUI
    QApplication app(argc, argv);
    swb::initApplicationInfo();
    QApplication::setApplicationDisplayName(QObject::tr("Sampling Workbench"));
    QApplication::setDesktopFileName(swb::applicationId());

    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    // The interface in the user's language; otherwise English, whose translation holds the plural forms
    // ("1 token", "2 tokens"; a C or POSIX locale would otherwise show "token(s)").
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("sampling-workbench"), QStringLiteral("_"), QStringLiteral(":/i18n")) ||
        translator.load(QLocale(QLocale::English), QStringLiteral("sampling-workbench"), QStringLiteral("_"),
                        QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr("Study LLM decoding step by step."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QObject::tr("Save the window as a PNG at PATH once painted, then exit."),
                                        QStringLiteral("PATH"));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QObject::tr("Open on tab NAME: explore, compare, sweep, runs or reports."),
                                 QStringLiteral("NAME"));
    parser.addOption(screenshot);
    const QCommandLineOption model(QStringLiteral("model"),
                                   QObject::tr("Open the model at PATH: a Hugging Face folder, a .gguf file, a "
                                               "llama2.c .bin checkpoint, or an OpenAI-compatible server's address "
                                               "(http://host:port/v1)."),
                                   QStringLiteral("PATH"));
    const QCommandLineOption tokenizer(
        QStringLiteral("tokenizer"),
        QObject::tr("The tokenizer file of the model (tok.bin for a llama2.c checkpoint)."), QStringLiteral("PATH"));
    parser.addOption(tab);
    parser.addOption(model);
    const QCommandLineOption apiKey(QStringLiteral("api-key"),
                                    QObject::tr("The key of the server given with --model (sent as a Bearer token)."),
                                    QStringLiteral("KEY"));
    parser.addOption(tokenizer);
    parser.addOption(apiKey);
    parser.process(app);
    for (const QCommandLineOption* option : {&model, &tokenizer}) {
        const QString path = parser.value(*option);
        if (option == &model && swb::isRemoteModelAddress(path))
            continue;
        if (parser.isSet(*option) && !QFileInfo::exists(path)) {
            fprintf(stderr, "sampling-workbench: --%s %s does not exist.\n", qPrintable(option->names().front()),
                    qPrintable(path));
            return 2;
        }
    }
    if (parser.isSet(tokenizer) && !parser.isSet(model)) {
        fprintf(stderr, "sampling-workbench: --tokenizer needs --model.\n");
        return 2;
    }

    if (parser.isSet(apiKey) && !swb::isRemoteModelAddress(parser.value(model))) {
        fprintf(stderr, "sampling-workbench: --api-key needs --model with a server's address (http://host:port/v1).\n");
        return 2;
    }
    swb::MainWindow window(parser.value(model), parser.value(tokenizer), parser.value(apiKey));
    if (parser.isSet(tab) && !window.selectTab(parser.value(tab).toLower())) {
        fprintf(stderr, "sampling-workbench: unknown tab '%s'; choose one of %s.\n", qPrintable(parser.value(tab)),
                qPrintable(swb::MainWindow::tabKeys().join(QStringLiteral(", "))));
        return 2;
    }
    window.show();
    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        if (window.currentTabKey() == QLatin1String("explore"))
            screenshotAfterDemoGeneration(&window, path);
        else if (window.currentTabKey() == QLatin1String("sweep"))
            screenshotAfterSweep(&window, path);
        else if (window.currentTabKey() == QLatin1String("reports"))
            // The summary is computed off the GUI thread: wait for it.
            QObject::connect(
                window.reports(), &swb::ReportsView::reportUpdated, &window,
                [&window, path] { takeScreenshotWhenPainted(&window, path); }, Qt::SingleShotConnection),
                window.reports()->refresh();
        else if (window.currentTabKey() == QLatin1String("compare") && !window.explore()->isModelLoaded())
            // Outputs are shown with the model's tokenizer: wait for it.
            QObject::connect(
                window.explore(), &swb::ExploreView::modelReady, &window,
                [&window, path] { takeScreenshotWhenPainted(&window, path); }, Qt::SingleShotConnection);
        else
            takeScreenshotWhenPainted(&window, path);
    }
    return QApplication::exec();
}
