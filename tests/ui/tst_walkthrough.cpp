// What a first walk-through of Explore and Compare broke, each driven through the real widgets
// (offscreen): a llama2.c checkpoint opened with its tokenizer (picked, found beside it, or given on the
// command line); the JSON view following every change of the strategy; earlier runs keeping their own
// token texts after another model is loaded; and `swb export` from another process leaving the
// workbench's live run store intact.

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include "AppInfo.h"
#include "CheckpointWriters.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "compare/ComparePane.h"
#include "compare/CompareView.h"
#include "explore/DistributionModel.h"
#include "explore/DistributionPlot.h"
#include "explore/ExploreView.h"
#include "explore/ModelBar.h"
#include "explore/StrategyEditor.h"
#include "explore/TokenStreamView.h"
#include "runs/RunsView.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"

using namespace swb;
using swb::test::strategyFromJson;

namespace {

// Rows of a runs CSV, read by `swb export` in its own process.
int exportedRuns(const QString& store, const QString& out) {
    const auto result =
        swb::test::runSwbProcess({QStringLiteral("export"), QStringLiteral("--db"), store, QStringLiteral("--report"),
                                  QStringLiteral("runs"), QStringLiteral("--out"), out});
    if (result.status != 0)
        return -1;
    QFile file(out);
    return file.open(QIODevice::ReadOnly) ? static_cast<int>(file.readAll().count('\n')) - 1 : -1;
}

} // namespace

class TestWalkthrough : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    ExploreView* m_explore = nullptr;
    QString m_checkpoint; // a llama2.c checkpoint alone in its folder
    QString m_tokenizer;  // its tok.bin, kept elsewhere

    QString path(const QString& name) const { return m_dir.filePath(name); }

    qint64 generate(int maxTokens) {
        m_explore->maxTokens()->setValue(maxTokens);
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        m_explore->generate();
        return ended.wait(60000) ? ended.front().front().toLongLong() : -1;
    }

    // A comparison of two strategies on the loaded model, from the Compare tab's Run button.
    bool runComparison() {
        CompareView* compare = m_window->compare();
        compare->setStrategies({QStringLiteral("greedy"), QStringLiteral("creative")});
        compare->setPrompts({QStringLiteral("And God said")});
        compare->maxTokensBox()->setValue(6);
        QSignalSpy changed(compare, &CompareView::comparisonsChanged);
        QTest::mouseClick(compare->findChild<QPushButton*>(QStringLiteral("runComparison")), Qt::LeftButton);
        return changed.wait(120000);
    }

    // Runs in the Runs list from the llama2.c checkpoint (model.bin) and from the demo model.
    std::pair<int, int> runsByModel(int column) {
        QStandardItemModel* model = m_window->runs()->model();
        int checkpointRuns = 0, demoRuns = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            checkpointRuns += model->item(row, column)->text() == QStringLiteral("model.bin");
            demoRuns += model->item(row, column)->text() == QStringLiteral("kjv-tiny");
        }
        return {checkpointRuns, demoRuns};
    }

    bool loadDemo() {
        m_explore->openModel(bundledModelPath());
        return QTest::qWaitFor(
            [&] {
                return !m_explore->isModelLoading() && m_explore->isModelLoaded() &&
                       m_explore->loadedModel()->info.path == QFileInfo(bundledModelPath()).absoluteFilePath();
            },
            60000);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        for (const char* suffix : {"", "-wal", "-shm"})
            QFile::remove(Database::defaultPath() + QLatin1String(suffix));
        QSettings(applicationId(), QStringLiteral("settings")).clear();

        // A tiny llama2.c model whose vocabulary is the 259 base tokens plus 41 letters and pairs.
        auto tokens = swb::test::llama2cBaseVocab();
        for (char c = 'a'; c <= 'z'; ++c)
            tokens.emplace_back(std::string(1, c), -1.0f);
        for (const char* piece :
             {" a", " b", " c", " d", " e", "th", "he", "an", "in", "er", "on", "at", "en", "nd", "ti"})
            tokens.emplace_back(piece, -2.0f);
        swb::test::LlamaShape shape;
        shape.vocab = static_cast<int>(tokens.size());
        QVERIFY(QDir().mkpath(path(QStringLiteral("checkpoint"))));
        QVERIFY(QDir().mkpath(path(QStringLiteral("vocabulary"))));
        m_checkpoint = path(QStringLiteral("checkpoint/model.bin"));
        m_tokenizer = path(QStringLiteral("vocabulary/tok300.bin"));
        QVERIFY(swb::test::writeBytes(m_checkpoint, swb::test::llama2cBytes(swb::test::randomLlama(shape, 5), 0)));
        QVERIFY(swb::test::writeFile(m_tokenizer, swb::test::tokBin(tokens)));

        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QApplication::setActiveWindow(m_window.get());
        m_explore = m_window->explore();
        QTRY_VERIFY_WITH_TIMEOUT(m_explore->isModelLoaded() && !m_explore->isModelLoading(), 60000);
        m_explore->strategyEditor()->setStrategy(strategyFromJson(
            R"({"seed": 7, "samplers": [{"type": "top_k", "k": 5}, {"type": "top_p", "p": 0.9}, {"type": "dist"}]})"));
    }

    // 1. Opening the checkpoint alone fails with the Tokenizer button in the model bar; picking tok.bin
    // there opens the two, and the choice is remembered.
    void llama2cCheckpointAsksForItsTokenizer() {
        ModelBar* bar = m_explore->modelBar();
        auto* choose = bar->findChild<QToolButton*>(QStringLiteral("chooseTokenizer"));
        QVERIFY(choose);
        QVERIFY(choose->isHidden()); // the demo model has its own tokenizer
        m_explore->openModel(m_checkpoint);
        QTRY_VERIFY_WITH_TIMEOUT(!m_explore->isModelLoading(), 60000);
        QVERIFY(!choose->isHidden());
        QVERIFY(m_explore->loadedModel()->info.path != m_checkpoint); // the demo model stays loaded
        // The failure stays in the message bar above the tabs until closed (not only ~10 s in the status bar).
        MessageBar* message = m_window->messageBar();
        QVERIFY2(message->text().contains(QStringLiteral("tokenizer")), qPrintable(message->text()));
        QTest::qWait(50);
        QVERIFY(message->isVisible());
        QTest::mouseClick(message->findChild<QToolButton*>(QStringLiteral("messageClose")), Qt::LeftButton);
        QVERIFY(!message->isVisible());

        bar->setNextFileName(m_tokenizer);
        QTest::mouseClick(choose, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!m_explore->isModelLoading() && m_explore->loadedModel()->info.path == m_checkpoint,
                                 60000);
        QCOMPARE(m_explore->loadedModel()->info.tokenizerPath, m_tokenizer);
        QCOMPARE(m_explore->loadedModel()->tokenizer->vocabSize(), 300);
        QVERIFY(!choose->isHidden()); // to pick another one
        QVERIFY(generate(6) > 0);

        // The next time (the recent list, the next session) it opens without asking.
        QVERIFY(loadDemo());
        m_explore->openModel(m_checkpoint);
        QTRY_VERIFY_WITH_TIMEOUT(!m_explore->isModelLoading() && m_explore->loadedModel()->info.path == m_checkpoint,
                                 60000);
        QCOMPARE(m_explore->loadedModel()->info.tokenizerPath, m_tokenizer);
        QVERIFY(loadDemo());
    }

    // 1. A tokenizer.bin (or tok*.bin) beside the checkpoint is found without asking.
    void llama2cTokenizerBesideIsFound() {
        const QString folder = path(QStringLiteral("beside"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::copy(m_checkpoint, folder + QStringLiteral("/model.bin")));
        QVERIFY(QFile::copy(m_tokenizer, folder + QStringLiteral("/tok300.bin")));
        m_explore->openModel(folder + QStringLiteral("/model.bin"));
        QTRY_VERIFY_WITH_TIMEOUT(!m_explore->isModelLoading() &&
                                     m_explore->loadedModel()->info.path == folder + QStringLiteral("/model.bin"),
                                 60000);
        QCOMPARE(m_explore->loadedModel()->tokenizer->vocabSize(), 300);
        QVERIFY(loadDemo());
    }

    // 1. sampling-workbench --model M --tokenizer T opens them (here: generates and saves a screenshot).
    void commandLineTakesModelAndTokenizer() {
        QTemporaryDir home;
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(SWB_GUI_PATH),
                  {QStringLiteral("--model"), m_checkpoint, QStringLiteral("--tokenizer"), m_tokenizer,
                   QStringLiteral("--screenshot"), home.filePath(QStringLiteral("shot.png")), QStringLiteral("--tab"),
                   QStringLiteral("explore")});
        QVERIFY(gui.waitForFinished(90000));
        QCOMPARE(gui.exitCode(), 0);
        auto db = Database::open(home.filePath(QStringLiteral("data/%1/workbench.sqlite").arg(applicationId())));
        QVERIFY(db);
        RunRepository runs(*db.value());
        const auto list = runs.listRuns();
        QVERIFY(list && list->size() == 1);
        QCOMPARE(list->front().modelPath, m_checkpoint);
        // A missing file is one sentence and exit 2, before any window.
        const auto missing = swb::test::runProcess(QStringLiteral(SWB_GUI_PATH),
                                                   {QStringLiteral("--model"), path(QStringLiteral("none.bin"))});
        QCOMPARE(missing.status, 2);
        const QList<QByteArray> lines = missing.err.split('\n');
        QCOMPARE(std::count_if(lines.begin(), lines.end(),
                               [](const QByteArray& l) { return l.startsWith("sampling-workbench:"); }),
                 1);
        QVERIFY(missing.err.contains("none.bin"));
    }

    // 2. The JSON view follows Engine order while it has the focus, and typing in it afterwards keeps the
    // new order.
    void jsonFollowsEveryChange() {
        StrategyEditor* editor = m_explore->strategyEditor();
        editor->setStrategy(strategyFromJson(
            R"({"seed": 3, "samplers": [{"type": "temperature", "value": 0.8}, {"type": "top_k", "k": 40},
                {"type": "top_p", "p": 0.9}, {"type": "dist"}]})"));
        auto* tabs = editor->findChild<QTabWidget*>(QStringLiteral("strategyTabs"));
        auto* json = editor->findChild<QPlainTextEdit*>(QStringLiteral("strategyJson"));
        QVERIFY(tabs && json);
        tabs->setCurrentWidget(json);
        json->setFocus();
        QTRY_VERIFY(json->hasFocus());

        auto* order = editor->findChild<QToolButton*>(QStringLiteral("engineOrder"));
        QVERIFY(order && order->menu());
        QAction* llamaCpp = nullptr;
        for (QAction* action : order->menu()->actions())
            if (action->text().contains(QStringLiteral("llama.cpp")))
                llamaCpp = action;
        QVERIFY(llamaCpp);
        llamaCpp->trigger();
        QStringList types;
        for (const SamplerSpec& spec : editor->strategy().samplers)
            types << spec.type;
        // llama.cpp applies temperature after the cutoffs.
        QCOMPARE(types, QStringList({QStringLiteral("top_k"), QStringLiteral("top_p"), QStringLiteral("temperature"),
                                     QStringLiteral("dist")}));
        QVERIFY(json->hasFocus());
        QCOMPARE(json->toPlainText(), editor->jsonText());

        // A keystroke in the JSON applies that JSON, which now holds the new order.
        json->moveCursor(QTextCursor::End);
        QTest::keyClicks(json, QStringLiteral(" "));
        QTest::qWait(600);
        QStringList after;
        for (const SamplerSpec& spec : editor->strategy().samplers)
            after << spec.type;
        QCOMPARE(after, types);
        // Undo with the focus in the JSON goes back to the old order, and the JSON shows it.
        editor->undoStack()->undo();
        QCOMPARE(editor->strategy().samplers.front().type, QStringLiteral("temperature"));
        QCOMPARE(json->toPlainText(), editor->jsonText());
        tabs->setCurrentIndex(0);
    }

    // Ctrl+Z with the focus in a parameter field undoes the strategy's last edit (the field's own undo
    // took it before); the Undo button keeps its short label; the Add menu lists each engine once.
    void undoFromAFieldAndTheAddMenu() {
        StrategyEditor* editor = m_explore->strategyEditor();
        editor->setStrategy(
            strategyFromJson(R"({"seed": 3, "samplers": [{"type": "top_k", "k": 40}, {"type": "dist"}]})"));
        editor->selectStage(0);
        auto* k = editor->findChild<QSpinBox*>(QStringLiteral("param_k"));
        QVERIFY(k);
        k->setValue(7);
        QCOMPARE(editor->strategy().samplers.front().params.value(QStringLiteral("k")).toInt(), 7);
        k->setFocus();
        QTRY_VERIFY(k->hasFocus());
        QTest::keyClick(k, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->strategy().samplers.front().params.value(QStringLiteral("k")).toInt(), 40);
        auto* undo = editor->findChild<QAction*>(QStringLiteral("strategyUndo"));
        QVERIFY(undo);
        QCOMPARE(undo->text(), QStringLiteral("Undo"));

        auto* add = editor->findChild<QToolButton*>(QStringLiteral("addSampler"));
        QVERIFY(add && add->menu());
        QStringList engines;
        for (QAction* action : add->menu()->actions()) {
            QVERIFY2(action->menu(), "each entry of Add is an engine's submenu");
            engines << action->text();
        }
        QVERIFY(engines.size() >= 3);
        QCOMPARE(engines.removeDuplicates(), 0);
    }

    // The Preset box names the preset the strategy is, and "Preset…" once it is edited; Compare offers a
    // strategy saved in Explore a moment ago.
    void presetBoxAndSavedStrategies() {
        StrategyEditor* editor = m_explore->strategyEditor();
        auto* presets = editor->findChild<QComboBox*>(QStringLiteral("strategyPresets"));
        QVERIFY(presets);
        const int creative = presets->findData(QStringLiteral("creative"));
        QVERIFY(creative > 0);
        presets->setCurrentIndex(creative);
        emit presets->activated(creative);
        QCOMPARE(presets->currentIndex(), creative);
        editor->addSampler(QStringLiteral("top_k"));
        QCOMPARE(presets->currentIndex(), 0);
        editor->undoStack()->undo();
        QCOMPARE(presets->currentIndex(), creative);

        RunRepository runs(*m_window->database());
        QVERIFY(runs.saveNamedStrategy(editor->strategy(), QStringLiteral("walkthrough-mine")));
        QVERIFY(m_window->selectTab(QStringLiteral("compare")));
        auto* box = m_window->compare()->findChild<QComboBox*>(QStringLiteral("compareStrategy1"));
        QVERIFY(box);
        QVERIFY(box->findText(QStringLiteral("walkthrough-mine")) >= 0);
        QVERIFY(m_window->selectTab(QStringLiteral("explore")));
    }

    // Unprintable characters in a token show as codes, never as a font's empty box; emoji stay.
    void unprintableTokensShowCodes() {
        QCOMPARE(visibleTokenText(QString(QChar(0x7F))), QStringLiteral("<U+007F>"));
        QCOMPARE(visibleTokenText(QString(QChar(0x85))), QStringLiteral("<U+0085>"));
        QCOMPARE(visibleTokenText(QStringLiteral("a\u200Db")), QStringLiteral("a<U+200D>b"));
        QCOMPARE(visibleTokenText(QString(QChar(0x01))), QStringLiteral("<0x01>"));
        const QString emoji = QString::fromUtf8("\xF0\x9F\x98\x80");
        QCOMPARE(visibleTokenText(emoji), emoji);
        QCOMPARE(visibleTokenText(QStringLiteral(" a")), QString(QChar(0x00B7)) + QStringLiteral("a"));
    }

    // 3. After another model is loaded, the demo model's runs (in Explore and in Compare) still show their
    // own token texts, never ids, and the plot's bars are labelled by their own tokenizer.
    void earlierRunsKeepTheirTokenTexts() {
        QVERIFY(loadDemo());
        m_explore->strategyEditor()->setStrategy(
            strategyFromJson(R"({"seed": 7, "samplers": [{"type": "top_k", "k": 5}, {"type": "dist"}]})"));
        const qint64 runId = generate(8);
        QVERIFY(runId > 0);
        std::vector<std::string> texts;
        for (int i = 0; i < m_explore->stream()->stepCount(); ++i)
            texts.push_back(m_explore->stream()->step(i).text);
        QVERIFY(!texts.empty());
        CompareView* compare = m_window->compare();
        QVERIFY(runComparison());

        // Another model with another vocabulary.
        m_explore->openModel(m_checkpoint, m_tokenizer);
        QTRY_VERIFY_WITH_TIMEOUT(!m_explore->isModelLoading() && m_explore->loadedModel()->info.path == m_checkpoint,
                                 60000);

        QVERIFY(m_explore->openRun(runId));
        QCOMPARE(m_explore->stream()->stepCount(), static_cast<int>(texts.size()));
        for (int i = 0; i < m_explore->stream()->stepCount(); ++i)
            QCOMPARE(m_explore->stream()->step(i).text, texts[static_cast<std::size_t>(i)]);
        m_explore->selectStep(0);
        // The bars' labels come from the demo tokenizer, loaded from the run's model files.
        QTRY_VERIFY_WITH_TIMEOUT(!m_explore->distribution()->model().bars.empty() &&
                                     !m_explore->distribution()->model().bars.front().label.startsWith(u'#'),
                                 30000);

        QVERIFY(compare->showComparison(compare->comparisonCount() - 1));
        QVERIFY(compare->showComparison(compare->comparisonCount() - 1)); // rebuilt: nothing drawn twice
        QVERIFY(!compare->panes().empty());
        int preferenceLabels = 0;
        for (QLabel* label : compare->findChildren<QLabel*>())
            preferenceLabels += label->text() == QStringLiteral("Preference:");
        QCOMPARE(preferenceLabels, 1);
        RunRepository runs(*m_window->database());
        for (ComparePane* pane : compare->panes()) {
            QVERIFY(pane->stream()->stepCount() > 0);
            for (int i = 0; i < pane->stream()->stepCount(); ++i) {
                const std::string& text = pane->stream()->step(i).text;
                QVERIFY2(!text.empty() || pane->stream()->step(i).token == 0, "a chip without its text");
            }
        }
        QVERIFY(loadDemo());
    }

    // A digit typed into the first score box right after a comparison is shown scores it (was refused
    // until Tab had selected the box's "–").
    void firstScoreBoxTakesADigit() {
        CompareView* compare = m_window->compare();
        QVERIFY(m_window->selectTab(QStringLiteral("compare")));
        compare->setRater(QStringLiteral("ann"));
        if (compare->comparisonCount() == 0) // run alone
            QVERIFY(runComparison());
        QVERIFY(compare->comparisonCount() > 0);
        QVERIFY(compare->showComparison(0));
        QSpinBox* first = compare->panes().front()->scoreBox(0);
        QTRY_VERIFY(first->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_2);
        QCOMPARE(first->value(), 2);
        QVERIFY(m_window->selectTab(QStringLiteral("explore")));
    }

    // 4. `swb export` in another process while the workbench writes: the workbench's next run reaches the
    // file, where a third process sees it, and the WAL stays.
    void exportInAnotherProcessLeavesTheStoreIntact() {
        const QString store = Database::defaultPath();
        QVERIFY(generate(4) > 0);
        // Reports reads the store on a connection of its own, as it does when its tab is shown.
        QVERIFY(m_window->selectTab(QStringLiteral("reports")));
        QTest::qWait(500);
        QVERIFY(m_window->selectTab(QStringLiteral("explore")));
        const int before = exportedRuns(store, path(QStringLiteral("before.csv")));
        QVERIFY(before > 0);
        QVERIFY(QFile::exists(store + QStringLiteral("-wal")));
        QVERIFY(generate(4) > 0);
        QCOMPARE(exportedRuns(store, path(QStringLiteral("after.csv"))), before + 1);
    }

    // Runs name their model, and the filter picks out one model's runs (Runs no longer mixes models).
    void runsListNamesTheModel() {
        RunsView* list = m_window->runs();
        list->refresh();
        QStandardItemModel* model = list->model();
        int column = -1;
        for (int c = 0; c < model->columnCount(); ++c)
            if (model->horizontalHeaderItem(c)->text() == QStringLiteral("Model"))
                column = c;
        QVERIFY(column >= 0);
        auto [checkpointRuns, demoRuns] = runsByModel(column);
        if (checkpointRuns == 0 || demoRuns == 0) { // run alone: a run of each model
            m_explore->openModel(m_checkpoint, m_tokenizer);
            QTRY_VERIFY_WITH_TIMEOUT(
                !m_explore->isModelLoading() && m_explore->loadedModel()->info.path == m_checkpoint, 60000);
            QVERIFY(generate(4) > 0);
            QVERIFY(loadDemo());
            QVERIFY(generate(4) > 0);
            list->refresh();
            std::tie(checkpointRuns, demoRuns) = runsByModel(column);
        }
        QVERIFY(checkpointRuns > 0 && demoRuns > 0);
        list->setFilter(QStringLiteral("model.bin"));
        QCOMPARE(list->proxy()->rowCount(), checkpointRuns);
        list->setFilter(QString());
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestWalkthrough)
#include "tst_walkthrough.moc"
