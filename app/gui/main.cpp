#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>
#include <QWindow>

#include "AppInfo.h"
#include "MainWindow.h"

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

} // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    swb::initApplicationInfo();
    QApplication::setApplicationDisplayName(QObject::tr("Sampling Workbench"));
    QApplication::setDesktopFileName(swb::applicationId());

    QTranslator qtTranslator;
    if (qtTranslator.load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                          QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(&qtTranslator);
    QTranslator translator;
    if (translator.load(QLocale(), QStringLiteral("sampling-workbench"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(QObject::tr("Study LLM decoding step by step."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QObject::tr("Save the window as a PNG at PATH once painted, then exit."),
                                        QStringLiteral("PATH"));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QObject::tr("Open on tab NAME: explore, compare, runs or reports."),
                                 QStringLiteral("NAME"));
    parser.addOption(screenshot);
    parser.addOption(tab);
    parser.process(app);

    swb::MainWindow window;
    if (parser.isSet(tab) && !window.selectTab(parser.value(tab).toLower())) {
        fprintf(stderr, "sampling-workbench: unknown tab '%s'; choose one of %s.\n", qPrintable(parser.value(tab)),
                qPrintable(swb::MainWindow::tabKeys().join(QStringLiteral(", "))));
        return 2;
    }
    window.show();
    if (parser.isSet(screenshot))
        takeScreenshotWhenPainted(&window, parser.value(screenshot));
    return QApplication::exec();
}
