// The Explore view on the bundled demo model, driven through its real widgets (offscreen):
// streaming generation, step selection and the distribution plot's content, what-if replay of an
// edited chain, branching into a child run, Stop, and the GUI thread's responsiveness.

#include <functional>
#include <numbers>

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTranslator>
#include <QUndoStack>

#include <qcustomplot.h>

#include "AppInfo.h"
#include "InferenceSession.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "compare/CompareView.h"
#include "evaluation/Statistics.h"
#include "explore/BeamTreeView.h"
#include "explore/DistributionModel.h"
#include "explore/DistributionPlot.h"
#include "explore/DivergenceDialog.h"
#include "explore/ExploreView.h"
#include "explore/ModelBar.h"
#include "explore/QuantizeDialog.h"
#include "explore/ReplayDialog.h"
#include "explore/SamplerTexts.h"
#include "explore/StrategyEditor.h"
#include "explore/StrategyFormatsDialog.h"
#include "explore/TimelinePlot.h"
#include "explore/TokenProbeDialog.h"
#include "explore/TokenStreamView.h"
#include "formats/GgufFile.h"
#include "model/kernels/WeightType.h"
#include "runs/RunSetupText.h"
#include "runs/RunsView.h"
#include "sampling/DecoderRegistry.h"
#include "sampling/SamplerRegistry.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "workflows/RunReplay.h"

using namespace swb;
using swb::test::strategyFromJson;

namespace {

// Survivors of top-k then top-p on the raw probabilities of the top candidates, computed here from
// first principles: keep the k most likely, renormalise, keep the smallest prefix reaching p.
int expectedTopKTopP(const StepTrace& trace, int k, double p) {
    double total = 0.0;
    for (int i = 0; i < k; ++i)
        total += trace.top[static_cast<std::size_t>(i)].rawP;
    double cumulative = 0.0;
    for (int i = 0; i < k; ++i) {
        cumulative += trace.top[static_cast<std::size_t>(i)].rawP / total;
        if (cumulative >= p - 1e-6)
            return i + 1;
    }
    return k;
}

// Greedy under a grammar of a few words (issue 36).
constexpr const char* kGrammarChain =
    "{\"samplers\": [{\"type\": \"grammar\", \"gbnf\": \"root ::= (\\\" the\\\" | \\\" LORD\\\" | \\\" God\\\" | "
    "\\\",\\\")+ \\\".\\\"\"}, {\"type\": \"greedy\"}]}";

} // namespace

class TestExplore : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    ExploreView* m_explore = nullptr;
    qint64 m_runId = 0;

    // The chain every test starts from: top-k 5, top-p 0.9, a seeded draw.
    static constexpr const char* kChain =
        R"({"seed": 7, "samplers": [{"type": "top_k", "k": 5}, {"type": "top_p", "p": 0.9}, {"type": "dist"}]})";

    qint64 generate(int maxTokens, const char* chain = kChain) {
        m_explore->strategyEditor()->setStrategy(strategyFromJson(chain));
        m_explore->maxTokens()->setValue(maxTokens);
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        // Ctrl+Return is the window's shortcut: the window must be the active one (a dialog an earlier test
        // showed may have been).
        QApplication::setActiveWindow(m_window.get());
        QTest::keyClick(m_explore->promptEdit(), Qt::Key_Return, Qt::ControlModifier);
        if (!ended.wait(60000))
            return -1;
        return ended.front().front().toLongLong();
    }

    // The tests that look at "the shown run" make one of kChain when run alone (issue 33: they needed an
    // earlier test's run).
    bool ensureShownRun() {
        if (m_explore->run().runId > 0 && m_explore->run().steps.size() >= 8)
            return true;
        return generate(40) > 0 && m_explore->run().steps.size() >= 8;
    }

private slots:
    void initTestCase() {
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QApplication::setActiveWindow(m_window.get());
        m_explore = m_window->explore();
        QVERIFY(m_window->database());
        QTRY_VERIFY_WITH_TIMEOUT(m_explore->isModelLoaded(), 60000);
        m_explore->promptEdit()->setPlainText(QStringLiteral("And God said"));
        m_explore->promptEdit()->setFocus();
    }

    void generatesAndStreamsTokens() {
        QSignalSpy workerSteps(m_explore->worker(), &InferenceWorker::stepGenerated);
        int appendsWhileGenerating = 0;
        const auto connection = connect(m_explore, &ExploreView::stepsAppended, this, [&] {
            if (m_explore->isGenerating())
                ++appendsWhileGenerating;
        });
        m_runId = generate(40);
        disconnect(connection);
        QVERIFY(m_runId > 0);
        const int steps = m_explore->stream()->stepCount();
        QVERIFY(steps > 0);
        QCOMPARE(workerSteps.count(), steps);
        QCOMPARE(m_explore->timeline()->pointCount(), steps);
        // Tokens reached the screen before the run ended, unless it was over within one frame.
        QVERIFY(appendsWhileGenerating > 0 || steps < 8);

        RunRepository runs(*m_window->database());
        Result<RunRecord> saved = runs.loadRun(m_runId);
        QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().message));
        QCOMPARE(static_cast<int>(saved->steps.size()), steps);
        for (int i = 0; i < steps; ++i) {
            QCOMPARE(saved->steps[static_cast<std::size_t>(i)].chosen, m_explore->stream()->step(i).token);
            QVERIFY(saved->steps[static_cast<std::size_t>(i)].finalCount <= 5);
        }
    }

    void selectingAStepUpdatesThePlot() {
        if (m_explore->stream()->stepCount() < 4) // run alone: the run generatesAndStreamsTokens makes
            QVERIFY(generate(40) > 0);
        QVERIFY(m_explore->stream()->stepCount() >= 4);
        const int step = 2;
        QSignalSpy inspected(m_explore, &ExploreView::inspectionUpdated);
        QTest::mouseClick(m_explore->stream(), Qt::LeftButton, {}, m_explore->stream()->chipRect(step).center());
        QCOMPARE(m_explore->stream()->selectedStep(), step);
        QVERIFY(inspected.wait(30000) || m_explore->inspectedStep() == step);
        QCOMPARE(m_explore->inspectedStep(), step);

        const StepTrace& stored = m_explore->run().steps[step].trace;
        // The replay with the run's own strategy and seed reproduces the recorded step.
        QCOMPARE(m_explore->inspection()->trace.chosen, stored.chosen);
        QCOMPARE(m_explore->inspection()->trace.finalCount, stored.finalCount);
        QCOMPARE(m_explore->inspection()->trace.draw, stored.draw);

        const DistributionModel& plot = m_explore->distribution()->model();
        QCOMPARE(static_cast<int>(plot.bars.size()), std::min<int>(32, static_cast<int>(stored.top.size())));
        for (std::size_t i = 0; i < plot.bars.size(); ++i)
            QCOMPARE(plot.bars[i].id, stored.top[i].id);
        QVERIFY(plot.chosenBar >= 0);
        QCOMPARE(plot.bars[static_cast<std::size_t>(plot.chosenBar)].id, stored.chosen);
        QVERIFY(plot.bars[static_cast<std::size_t>(plot.chosenBar)].chosen);
        const int survivors = expectedTopKTopP(stored, 5, 0.9);
        QCOMPARE(plot.keptBars, survivors);
        QCOMPARE(stored.finalCount, survivors);
        // One marker for top-k at 5, and one for top-p where it cut further.
        QVERIFY(!plot.markers.empty());
        QCOMPARE(plot.markers.front().position, 5);
        QCOMPARE(plot.markers.front().label, QStringLiteral("top-k = 5"));
        if (survivors < 5) {
            QCOMPARE(static_cast<int>(plot.markers.size()), 2);
            QCOMPARE(plot.markers[1].position, survivors);
            QVERIFY(plot.markers[1].label.startsWith(QStringLiteral("top-p 0.9: %1 token").arg(survivors)));
        }
        // The pipeline lists each stage with its survivors; picking one shows the distribution after it.
        QTableWidget* pipeline = m_explore->pipeline();
        QCOMPARE(pipeline->rowCount(), 3);
        QCOMPARE(pipeline->item(0, 2)->text(), QStringLiteral("5"));
        QCOMPARE(pipeline->item(1, 2)->text(), QString::number(survivors));
        pipeline->selectRow(0);
        QCOMPARE(m_explore->distribution()->model().keptBars, 5);
        pipeline->clearSelection();

        // The keyboard moves between steps.
        QTest::keyClick(m_explore->stream(), Qt::Key_Right);
        QCOMPARE(m_explore->stream()->selectedStep(), step + 1);
        QTest::keyClick(m_explore->stream(), Qt::Key_Left);
        QCOMPARE(m_explore->stream()->selectedStep(), step);
    }

    // Issue 35: at 1024 px the plot's slanted token labels overlapped, and the cutoff labels sat on each other
    // (they were spaced for the height the plot had when drawn). Bars are as many as their labels have room
    // for, and each cutoff label hangs under the one before, at any window size.
    void plotLabelsNeverOverlap() {
        QVERIFY(generate(8, R"({"seed": 5, "samplers": [{"type": "top_k", "k": 20}, {"type": "top_p", "p": 0.6}, )"
                            R"({"type": "min_p", "p": 0.2}, {"type": "dist"}]})") > 0);
        const QSize size = m_window->size();
        DistributionPlot* distribution = m_explore->distribution();
        QCustomPlot* plot = distribution->plot();
        for (const QSize window : {QSize(1024, 700), QSize(1600, 1000)}) {
            m_window->resize(window);
            for (int step = 0; step < 4; ++step) {
                m_explore->selectStep(step);
                QTest::qWait(60); // the redraw for a new width is queued
                plot->replot(QCustomPlot::rpImmediateRefresh);
                const QString where = QStringLiteral("%1x%2, step %3").arg(window.width()).arg(window.height()).arg(step);
                std::vector<QRectF> labels;
                for (int i = 0; i < plot->itemCount(); ++i)
                    if (auto* text = qobject_cast<QCPItemText*>(plot->item(i)))
                        labels.emplace_back(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition());
                QVERIFY2(labels.size() >= 2, qPrintable(where)); // top-k and at least one more stage cut
                const QRect area = plot->axisRect()->rect();
                for (std::size_t a = 0; a < labels.size(); ++a) {
                    // Wrapped to stay within the plot's width.
                    QVERIFY2(labels[a].left() >= area.left() - 1 && labels[a].right() <= area.right() + 1,
                             qPrintable(QStringLiteral("%1: a label spans %2 to %3, the plot %4 to %5")
                                            .arg(where)
                                            .arg(labels[a].left())
                                            .arg(labels[a].right())
                                            .arg(area.left())
                                            .arg(area.right())));
                    for (std::size_t b = a + 1; b < labels.size(); ++b)
                        QVERIFY2(!labels[a].intersects(labels[b]), qPrintable(where));
                }
                // Neighbouring tick labels are a text line apart across their 60-degree slant.
                const double spacing = plot->xAxis->coordToPixel(1) - plot->xAxis->coordToPixel(0);
                QVERIFY2(spacing * std::sin(std::numbers::pi / 3) >= QFontMetrics(plot->xAxis->tickLabelFont()).height(),
                         qPrintable(QStringLiteral("%1: %2 px between %3 bars").arg(where).arg(spacing).arg(distribution->shownBars())));
                QVERIFY(distribution->shownBars() >= 6);
            }
        }
        QVERIFY(distribution->shownBars() > 20); // at 1600 px the plot has room for more than at 1024
        m_window->resize(size);
    }

    // Issue 35: a short run's step axis was ticked at 2.5, 7.5, 12.5, and the rotated axis titles ran into
    // each other ("survivors entropy (nats"). Ticks are whole steps; a title no longer than its axis.
    void timelineTicksAreWholeStepsAndTitlesFit() {
        QVERIFY(generate(12) > 0);
        const QSize size = m_window->size();
        QCustomPlot* plot = m_explore->timeline()->plot();
        for (const QSize window : {QSize(1024, 700), QSize(1600, 1000)}) {
            m_window->resize(window);
            QTest::qWait(60);
            plot->replot(QCustomPlot::rpImmediateRefresh);
            for (int r = 0; r < plot->axisRectCount(); ++r) {
                QCPAxisRect* rect = plot->axisRect(r);
                const auto step = qSharedPointerDynamicCast<QCPAxisTickerFixed>(rect->axis(QCPAxis::atBottom)->ticker());
                QVERIFY(step);
                QVERIFY2(step->tickStep() >= 1 && step->tickStep() == std::floor(step->tickStep()),
                         qPrintable(QString::number(step->tickStep())));
                for (const QCPAxis::AxisType side : {QCPAxis::atLeft, QCPAxis::atRight}) {
                    QCPAxis* axis = rect->axis(side);
                    if (!axis->visible() || axis->label().isEmpty())
                        continue;
                    QVERIFY2(QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label()) <= rect->height(),
                             qPrintable(QStringLiteral("'%1' on a %2 px axis").arg(axis->label()).arg(rect->height())));
                }
            }
        }
        m_window->resize(size);
    }

    void whatIfEditChangesSurvivorCount() {
        QVERIFY(generate(40) > 0); // a run of its own (top-k 5, top-p 0.9), so that this test runs alone too
        QVERIFY(m_explore->stream()->stepCount() >= 3);
        m_explore->selectStep(2);
        const int step = m_explore->stream()->selectedStep();
        QVERIFY(step >= 0);
        QTRY_COMPARE_WITH_TIMEOUT(m_explore->inspectedStep(), step, 30000);
        StrategyEditor* editor = m_explore->strategyEditor();
        editor->selectStage(0);
        auto* k = editor->findChild<QSpinBox*>(QStringLiteral("param_k"));
        QVERIFY(k);
        QCOMPARE(k->value(), 5);
        QSignalSpy inspected(m_explore, &ExploreView::inspectionUpdated);
        k->setValue(2);
        QVERIFY(inspected.wait(30000));
        QCOMPARE(m_explore->inspection()->trace.finalCount,
                 expectedTopKTopP(m_explore->run().steps[step].trace, 2, 0.9));
        QVERIFY(m_explore->inspection()->trace.finalCount <= 2);
        QCOMPARE(m_explore->distribution()->model().keptBars, m_explore->inspection()->trace.finalCount);
        QCOMPARE(m_explore->distribution()->model().markers.front().position, 2);
        // The run itself is untouched: it still shows what was drawn.
        QCOMPARE(m_explore->run().steps[step].trace.finalCount,
                 expectedTopKTopP(m_explore->run().steps[step].trace, 5, 0.9));
        // Undo restores k = 5 and the original cut.
        editor->undoStack()->undo();
        QVERIFY(inspected.wait(30000));
        QCOMPARE(k->value(), 5);
        QCOMPARE(m_explore->inspection()->trace.finalCount, m_explore->run().steps[step].trace.finalCount);
    }

    void samplerTextsAreTranslated() {
        // Every sampler's summary and parameter texts are in the list the interface translates, and the
        // Simplified Chinese translation has each of them (they were shown in English in zh_CN before).
        const QStringList sources = samplerTextSources();
        int texts = 0;
        for (const SamplerDescriptor& descriptor : samplerDescriptors()) {
            QVERIFY2(sources.contains(descriptor.summary), qPrintable(descriptor.summary));
            ++texts;
            for (const ParamSpec& param : descriptor.params) {
                QVERIFY2(sources.contains(param.doc),
                         qPrintable(descriptor.type + "." + param.name + ": " + param.doc));
                ++texts;
            }
        }
        for (const DecoderDescriptor& descriptor : decoderDescriptors())
            for (const QString& text : descriptor.traceColumns + QStringList{descriptor.traceNote})
                if (!text.isEmpty()) {
                    QVERIFY2(sources.contains(text), qPrintable(descriptor.type + ": " + text));
                    ++texts;
                }
        QVERIFY(texts > 60);
        QTranslator chinese;
        QVERIFY(chinese.load(QLocale(QLocale::Chinese, QLocale::China), QStringLiteral("sampling-workbench"),
                             QStringLiteral("_"), QStringLiteral(":/i18n")));
        QCoreApplication::installTranslator(&chinese);
        QStringList untranslated;
        for (const QString& text : sources)
            if (samplerText(text) == text)
                untranslated << text;
        QCoreApplication::removeTranslator(&chinese);
        QVERIFY2(untranslated.isEmpty(), qPrintable(untranslated.join('\n')));
        QCOMPARE(samplerText(QStringLiteral("Temperature T.")), QStringLiteral("Temperature T.")); // English again
    }

    void otherToolsSettingsBothWays() {
        StrategyEditor* editor = m_explore->strategyEditor();
        editor->setStrategy(strategyFromJson(kChain));
        StrategyFormatsDialog* dialog = editor->openFormats();
        QVERIFY(dialog->isVisible());
        dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("llamacpp-flags")));
        const QString flags = dialog->exported()->toPlainText();
        for (const char* flag :
             {"--top-k 5", "--top-p 0.9", "--seed 7", "--samplers 'top_k;top_p'", "--temp 1", "--min-p 0"})
            QVERIFY2(flags.contains(QLatin1String(flag)), qPrintable(flags));
        QCOMPARE(dialog->notes()->text(), QStringLiteral("Everything translates."));
        // It follows the editor.
        editor->setStrategy(strategyFromJson(R"({"seed": 7, "samplers": [{"type": "top_k", "k": 9}]})"));
        QVERIFY(dialog->exported()->toPlainText().contains(QStringLiteral("--top-k 9")));
        editor->setStrategy(strategyFromJson(kChain));

        // Import a transformers generation_config: transformers' order, its top-k, the editor's seed kept; Undo.
        dialog->tabs()->setCurrentIndex(1);
        dialog->formatBox()->setCurrentIndex(dialog->formatBox()->findData(QStringLiteral("generation-config")));
        dialog->importText()->setPlainText(
            QStringLiteral(R"({"do_sample": true, "temperature": 0.6, "top_k": 20, "max_new_tokens": 50})"));
        QVERIFY(dialog->importNow());
        const Strategy now = editor->strategy();
        QCOMPARE(now.samplers.size(), std::size_t(3)); // in transformers' order: temperature, then top-k
        QCOMPARE(now.samplers[0].type, QStringLiteral("temperature"));
        QCOMPARE(now.samplers[1].params.value("k").toInt(), 20);
        QCOMPARE(now.seed, std::optional<std::uint64_t>(7));
        QVERIFY2(dialog->notes()->text().contains(QStringLiteral("max_new_tokens")),
                 qPrintable(dialog->notes()->text()));
        editor->undoStack()->undo();
        QCOMPARE(editor->strategy().samplers.front().type, QStringLiteral("top_k"));
        dialog->importText()->setPlainText(QStringLiteral("{\"temperature\": "));
        QVERIFY(!dialog->importNow());
        QVERIFY(dialog->notes()->text().startsWith(QStringLiteral("Cannot import: not valid JSON")));
        dialog->close();
        QApplication::setActiveWindow(m_window.get());
        m_explore->promptEdit()->setFocus();
    }

    void strategyJsonRoundTripsAndRejectsBadInput() {
        StrategyEditor* editor = m_explore->strategyEditor();
        editor->setStrategy(strategyFromJson(
            R"({"seed": 11, "samplers": [{"type": "min_p", "p": 0.05}, {"type": "temperature", "value": 0.8}, {"type": "dist"}]})"));
        const Strategy before = editor->strategy();
        const QString text = editor->jsonText();
        // The JSON view's text parses back to the same strategy, seed included.
        QCOMPARE(Strategy::parse(text).value(), before);
        QVERIFY(editor->applyJsonText(text));
        QCOMPARE(editor->strategy(), before);
        // Broken JSON and out-of-range parameters are refused with a message; nothing changes.
        QVERIFY(!editor->applyJsonText(QStringLiteral("{\"samplers\": [")));
        QVERIFY(!editor->applyJsonText(QStringLiteral(R"({"samplers": [{"type": "top_p", "p": 1.5}]})")));
        auto* error = editor->findChild<QLabel*>(QStringLiteral("strategyError"));
        QVERIFY(error && !error->isHidden());
        QVERIFY(error->text().contains(QStringLiteral("top_p")));
        QCOMPARE(editor->strategy(), before);
        // Adding, moving and removing samplers are undoable edits.
        const int depth = editor->undoStack()->index();
        editor->addSampler(QStringLiteral("top_k"));
        QCOMPARE(editor->strategy().samplers.size(), std::size_t(4));
        QCOMPARE(editor->strategy().samplers[2].type, QStringLiteral("top_k"));
        editor->moveStage(2, 0);
        QCOMPARE(editor->strategy().samplers[0].type, QStringLiteral("top_k"));
        editor->removeStage(1);
        QCOMPARE(editor->strategy().samplers[1].type, QStringLiteral("temperature"));
        while (editor->undoStack()->index() > depth)
            editor->undoStack()->undo();
        QCOMPARE(editor->strategy(), before);
    }

    void branchCreatesAChildRun() {
        QVERIFY(ensureShownRun());
        const ExploreRun parent = m_explore->run();
        const int step = 1;
        const TopCandidate& other =
            parent.steps[step].trace.top[parent.steps[step].trace.top[0].id == parent.steps[step].token ? 1 : 0];
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        m_explore->branch(step, other.id);
        QVERIFY(ended.wait(60000));
        const qint64 child = ended.front().front().toLongLong();
        QVERIFY(child > 0 && child != parent.runId);

        RunRepository runs(*m_window->database());
        Result<RunRecord> record = runs.loadRun(child);
        QVERIFY(record);
        QCOMPARE(record->parentRunId, std::optional<qint64>(parent.runId));
        QCOMPARE(record->branchStep, std::optional<int>(step));
        std::vector<TokenId> expectedPrompt = parent.promptIds;
        expectedPrompt.push_back(parent.steps[0].token);
        expectedPrompt.push_back(other.id);
        QCOMPARE(record->promptIds, expectedPrompt);

        // The Runs tab shows the branch under its parent.
        RunsView* list = m_window->runs();
        list->refresh();
        QStandardItemModel* model = list->model();
        QStandardItem* parentRow = nullptr;
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->item(row, 0)->data(Qt::UserRole + 1).toLongLong() == parent.runId)
                parentRow = model->item(row, 0);
        QVERIFY(parentRow);
        QCOMPARE(parentRow->rowCount(), 1);
        QCOMPARE(parentRow->child(0, 0)->data(Qt::UserRole + 1).toLongLong(), child);
        // Filtering keeps a matching branch with its parent; opening a run loads it into Explore.
        QVERIFY(m_explore->openRun(parent.runId));
        QCOMPARE(m_explore->run().runId, parent.runId);
        QCOMPARE(m_explore->stream()->stepCount(), static_cast<int>(parent.steps.size()));
    }

    void alternativesAndEditedTextBranch() {
        QVERIFY(ensureShownRun());
        // Every chip's tooltip lists its top alternatives with raw and final p, the chosen one in bold.
        const ExploreRun parent = m_explore->run();
        QVERIFY(parent.steps.size() > 3);
        const StepTrace& trace = parent.steps[2].trace;
        const QString tip = m_explore->stream()->toolTipText(2);
        for (int i = 0; i < 6 && i < int(trace.top.size()); ++i) {
            QVERIFY2(tip.contains(QString::number(trace.top[i].rawP, 'g', 3)), qPrintable(tip));
            if (trace.top[i].finalP > 0)
                QVERIFY2(tip.contains(QString::number(trace.top[i].finalP, 'g', 3)), qPrintable(tip));
        }
        QVERIFY(tip.contains(QStringLiteral("<b>")));
        QVERIFY(tip.contains(QStringLiteral("cut"))); // top-k 5, top-p 0.9: the sixth raw candidate is cut

        // Edit the text from step 3 on and continue: a branch whose prompt is the parent's up to step 3, then the
        // edited text as the tokenizer splits it.
        const QString edited = QStringLiteral(" the LORD spake unto Moses");
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        m_explore->branchWithText(2, edited);
        QVERIFY(ended.wait(60000));
        const qint64 child = ended.front().front().toLongLong();
        QVERIFY(child > 0);
        RunRepository runs(*m_window->database());
        Result<RunRecord> record = runs.loadRun(child);
        QVERIFY(record);
        QCOMPARE(record->parentRunId, std::optional<qint64>(parent.runId));
        QCOMPARE(record->branchStep, std::optional<int>(2));
        std::vector<TokenId> expected = parent.promptIds;
        expected.push_back(parent.steps[0].token);
        expected.push_back(parent.steps[1].token);
        for (TokenId id : m_explore->loadedModel()->tokenizer->encode(edited.toStdString(), false, false))
            expected.push_back(id);
        QVERIFY(expected.size() > parent.promptIds.size() + 3);
        QCOMPARE(record->promptIds, expected);
        QVERIFY(record->promptText.endsWith(edited));
        QVERIFY(m_explore->openRun(parent.runId));
    }

    void tokenProbeFollowsATokenThroughTheRun() {
        // The run of kChain (top-k 5, top-p 0.9) is shown; probe the seventh raw candidate of step 1.
        QVERIFY(ensureShownRun());
        m_explore->selectStep(0);
        const ExploreRun& run = m_explore->run();
        TokenProbeDialog* probe = m_explore->openTokenProbe();
        QVERIFY(probe);
        QVERIFY(probe->tokenBox()->count() >= 7);
        const TokenId seventh = run.steps[0].trace.top[6].id;
        QCOMPARE(probe->tokenBox()->itemData(6).toInt(), seventh);
        probe->tokenBox()->setCurrentIndex(6);
        probe->probe();
        QTRY_VERIFY_WITH_TIMEOUT(probe->result() && probe->result()->token == seventh, 30000);
        QCOMPARE(probe->table()->rowCount(), static_cast<int>(run.steps.size()));
        QCOMPARE(probe->table()->item(0, 5)->text(), QStringLiteral("cut by top_k (stage 1)"));
        // Every row agrees with the stored trace where the token is among the step's top candidates: a raw rank
        // above 5 is top-k's cut.
        for (int i = 0; i < probe->table()->rowCount(); ++i) {
            const TokenProbeStep& step = probe->result()->steps[std::size_t(i)];
            if (step.rawRank > 5)
                QCOMPARE(step.cutBy, 0);
            for (const TopCandidate& c : run.steps[std::size_t(i)].trace.top)
                if (c.id == seventh)
                    QVERIFY(std::abs(c.rawP - step.rawP) < 1e-5);
        }
        // The drawn token, typed as #id: drawn at step 1.
        probe->tokenBox()->setEditText(QStringLiteral("#%1").arg(run.steps[0].token));
        probe->probe();
        QTRY_VERIFY_WITH_TIMEOUT(probe->result() && probe->result()->token == run.steps[0].token, 30000);
        QCOMPARE(probe->table()->item(0, 5)->text(), QStringLiteral("drawn"));
        QVERIFY(probe->summary()->text().contains(QStringLiteral("drawn at ")));
        // A typed word is the token it makes after a space when that is one token.
        QString note;
        const auto& tokenizer = m_explore->loadedModel()->tokenizer;
        const std::vector<TokenId> spaced = tokenizer->encode(" LORD", false, false);
        const std::vector<TokenId> plain = tokenizer->encode("LORD", false, false);
        QCOMPARE(probe->resolve(QStringLiteral("LORD"), &note).value(), spaced.size() == 1 ? spaced[0] : plain[0]);
        QVERIFY(!probe->resolve(QStringLiteral("#999999"), &note));
        QVERIFY(note.contains(QStringLiteral("not a token id")));
        // Double-clicking a row selects its step in Explore.
        emit probe->table()->cellDoubleClicked(3, 0);
        QCOMPARE(m_explore->stream()->selectedStep(), 3);
        // The dialog follows one run: showing another closes it.
        QVERIFY(probe->windowTitle().endsWith(QString::number(run.runId)));
        QVERIFY(m_explore->openRun(run.runId));
        QVERIFY(!probe->isVisible());
        probe->close();
        QApplication::setActiveWindow(m_window.get()); // as the window manager does when the dialog closes
        m_explore->promptEdit()->setFocus();
    }

    void replayPartsWhereTheStrategiesDiffer() {
        QVERIFY(ensureShownRun());
        const ExploreRun original = m_explore->run();
        QVERIFY(original.runId > 0);
        m_explore->strategyEditor()->setStrategy(strategyFromJson(
            R"({"samplers": [{"type": "top_k", "k": 40}, {"type": "temperature", "value": 1.5}, {"type": "dist"}]})"));
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        m_explore->replayAction()->trigger();
        QVERIFY(ended.wait(60000));
        const qint64 replayId = ended.front().front().toLongLong();
        QVERIFY(replayId > 0 && replayId != original.runId);
        RunRepository runs(*m_window->database());
        Result<RunRecord> replay = runs.loadRun(replayId);
        QVERIFY(replay);
        QCOMPARE(replay->seed, original.seed);           // the run's seed, whatever the editor's
        QCOMPARE(replay->promptIds, original.promptIds); // and its prompt
        std::vector<TokenId> replayTokens;
        for (const StepTrace& step : replay->steps)
            replayTokens.push_back(step.chosen);
        ReplayDialog* dialog = m_explore->replayDialog();
        QVERIFY(dialog && dialog->isVisible());
        const int at = firstDivergence(original.tokens(), replayTokens);
        QCOMPARE(dialog->divergence(), at);
        QVERIFY(at >= 0); // top-k 40 at temperature 1.5 against top-k 5, top-p 0.9: they part somewhere
        QVERIFY2(dialog->summary()->text().contains(QStringLiteral("at step %1").arg(at + 1)),
                 qPrintable(dialog->summary()->text()));
        // The pair becomes a blind comparison, and Compare lists it.
        QSignalSpy made(m_explore, &ExploreView::comparisonMade);
        const int before = m_window->compare()->comparisonCount();
        const qint64 comparison = dialog->makeComparison();
        QVERIFY(comparison > 0);
        QCOMPARE(made.size(), 1);
        QCOMPARE(m_window->compare()->comparisonCount(), before + 1);
        ComparisonRepository comparisons(*m_window->database());
        const Result<ComparisonRecord> stored = comparisons.loadComparison(comparison);
        QVERIFY(stored);
        QCOMPARE(stored->entries.size(), std::size_t(2));
        QCOMPARE(stored->entries[0].runId, original.runId);
        QCOMPARE(stored->entries[1].runId, replayId);
        dialog->close();
        QApplication::setActiveWindow(m_window.get());
        QVERIFY(m_explore->openRun(original.runId));
        m_explore->promptEdit()->setFocus();
    }

    void stopEndsGenerationWithinOneStep() {
        // Ban the end-of-text token so the run would go on to the context limit.
        m_explore->strategyEditor()->setStrategy(strategyFromJson(
            R"({"seed": 3, "samplers": [{"type": "banned_tokens", "ids": [0]}, {"type": "top_k", "k": 40}, {"type": "dist"}]})"));
        m_explore->maxTokens()->setValue(100);
        // At step 3 the worker waits until the GUI thread has clicked Stop, as a user would.
        int seen = 0;
        QSemaphore clicked;
        auto* stopButton = m_explore->findChild<QPushButton*>(QStringLiteral("stop"));
        const auto connection = connect(
            m_explore->worker(), &InferenceWorker::stepGenerated, m_explore->worker(),
            [&](quint64, const GeneratedStep&) {
                if (++seen != 3)
                    return;
                QMetaObject::invokeMethod(stopButton, [&] {
                    QTest::mouseClick(stopButton, Qt::LeftButton);
                    clicked.release();
                });
                clicked.acquire();
            },
            Qt::DirectConnection);
        QVERIFY(m_explore->findChild<QPushButton*>(QStringLiteral("stop")));
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        m_explore->generate();
        QVERIFY(m_explore->findChild<QPushButton*>(QStringLiteral("stop"))->isEnabled());
        QVERIFY(ended.wait(60000));
        disconnect(connection);
        QCOMPARE(m_explore->run().finish, QStringLiteral("cancelled"));
        QCOMPARE(static_cast<int>(m_explore->run().steps.size()), 3);
        QVERIFY(!m_explore->findChild<QPushButton*>(QStringLiteral("stop"))->isEnabled());
    }

    void stopReachesAGenerationStillQueued() {
        // The worker is held busy by another job; Stop is clicked while the generation waits behind it.
        m_explore->strategyEditor()->setStrategy(
            strategyFromJson(R"({"seed": 3, "samplers": [{"type": "banned_tokens", "ids": [0]}, {"type": "dist"}]})"));
        m_explore->maxTokens()->setValue(100);
        QSemaphore release;
        QSemaphore holding;
        QMetaObject::invokeMethod(m_explore->worker(), [&] {
            holding.release();
            release.acquire();
        });
        holding.acquire();
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        m_explore->generate();
        auto* stopButton = m_explore->findChild<QPushButton*>(QStringLiteral("stop"));
        QVERIFY(stopButton->isEnabled());
        QTest::mouseClick(stopButton, Qt::LeftButton);
        release.release();
        QVERIFY(ended.wait(60000));
        QCOMPARE(m_explore->run().finish, QStringLiteral("cancelled"));
        QCOMPARE(static_cast<int>(m_explore->run().steps.size()), 0);
    }

    void guiThreadStaysResponsive() {
        // A timer-latency probe: the largest gap between 5 ms ticks on the GUI thread while the demo
        // model generates two runs of 124 traced tokens (the end token banned), and each run's wall time from
        // Generate to its end, on the default ("auto") threads. The gap is bounded loosely (issue 33: it was
        // only printed): 250 ms, 1 s under the sanitizers. Measured on the 2-core machine: 12-13 ms idle, 17-140
        // ms beside two busy processes (the scheduler, not us, at the top end), so a tighter bound would flake
        // beside the suite's other test.
        m_explore->strategyEditor()->setStrategy(strategyFromJson(
            R"({"seed": 5, "samplers": [{"type": "banned_tokens", "ids": [0]}, {"type": "top_k", "k": 40}, {"type": "dist"}]})"));
        m_explore->maxTokens()->setValue(124);
        QElapsedTimer clock;
        qint64 last = 0;
        qint64 worst = 0;
        QTimer probe;
        probe.setInterval(5);
        connect(&probe, &QTimer::timeout, this, [&] {
            const qint64 now = clock.nsecsElapsed();
            if (m_explore->isGenerating() && last > 0)
                worst = std::max(worst, now - last);
            last = now;
        });
        int tokens = 0;
        int appendsWhileGenerating = 0;
        const auto connection = connect(m_explore, &ExploreView::stepsAppended, this,
                                        [&] { appendsWhileGenerating += m_explore->isGenerating() ? 1 : 0; });
        clock.start();
        probe.start();
        QStringList runs; // "tokens in ms" per run
        for (int run = 0; run < 2; ++run) {
            QSignalSpy ended(m_explore, &ExploreView::generationEnded);
            const qint64 started = clock.nsecsElapsed();
            m_explore->generate();
            QVERIFY(ended.wait(60000));
            const int steps = static_cast<int>(m_explore->run().steps.size());
            QCOMPARE(steps, 124);
            runs << QStringLiteral("\"%1 tokens in %2 ms\"")
                        .arg(steps)
                        .arg((clock.nsecsElapsed() - started) / 1e6, 0, 'f', 1);
            tokens += steps;
        }
        probe.stop();
        disconnect(connection);
        QVERIFY(appendsWhileGenerating > 0); // tokens reached the screen while the runs went on
        qInfo("{\"gui_probe\": \"5 ms timer\", \"tokens\": %d, \"max_gui_stall_ms\": %.1f, \"runs\": [%s]}", tokens,
              worst / 1e6, qPrintable(runs.join(QStringLiteral(", "))));
#if defined(__SANITIZE_ADDRESS__)
        constexpr double kStallBoundMs = 1000.0;
#else
        constexpr double kStallBoundMs = 250.0;
#endif
        QVERIFY2(worst / 1e6 <= kStallBoundMs, qPrintable(QStringLiteral("the GUI thread stalled %1 ms").arg(worst / 1e6)));
    }

    void repetitionLoopIsMarkedWithRemedies() {
        // Greedy on "In the beginning" falls into a loop on the demo model ("and in the midst of the earth, ...").
        m_explore->promptEdit()->setPlainText(QStringLiteral("In the beginning"));
        const qint64 runId = generate(120, R"({"samplers": [{"type": "greedy"}]})");
        QVERIFY(runId > 0);
        RunRepository runs(*m_window->database());
        std::vector<int> tokens;
        {
            const Result<RunRecord> run = runs.loadRun(runId);
            QVERIFY(run.ok());
            for (const StepTrace& step : run->steps)
                tokens.push_back(step.chosen);
        }
        const std::vector<stats::RepetitionLoop> expected = stats::findRepetitionLoops(tokens);
        QVERIFY(!expected.empty());
        QCOMPARE(m_explore->loops(), expected);
        QVERIFY(m_explore->loopPanel()->isVisible());
        QCOMPARE(m_explore->timeline()->loopCount(), static_cast<int>(expected.size()));
        // Every token of the loop's span repeats the one a period earlier.
        const stats::RepetitionLoop& loop = expected.front();
        for (int i = loop.start + loop.period; i < loop.end; ++i)
            QCOMPARE(tokens[std::size_t(i)], tokens[std::size_t(i - loop.period)]);

        // The repetition penalty remedy: the editor takes it, the first repeated step is selected, and the what-if
        // at that step runs through the penalty.
        const std::vector<LoopRemedy> remedies = m_explore->loopRemediesOffered();
        QCOMPARE(remedies.front().kind, LoopRemedy::Kind::RepetitionPenalty);
        QCOMPARE(remedies.back().kind, LoopRemedy::Kind::SampleInsteadOfGreedy);
        QSignalSpy inspected(m_explore, &ExploreView::inspectionUpdated);
        m_explore->tryLoopRemedy(0);
        QCOMPARE(m_explore->stream()->selectedStep(), loop.start + loop.period);
        QCOMPARE(m_explore->strategyEditor()->strategy().samplers.front().type, QStringLiteral("repetition_penalty"));
        QTRY_VERIFY_WITH_TIMEOUT(m_explore->inspection() && m_explore->inspectedStep() == loop.start + loop.period &&
                                     m_explore->inspection()->trace.stages.size() == 2,
                                 30000);
        QCOMPARE(m_explore->inspection()->trace.stages.front().sampler, QStringLiteral("repetition_penalty"));
        // A run without a loop hides the panel.
        m_explore->promptEdit()->setPlainText(QStringLiteral("And God said"));
        QVERIFY(generate(6) > 0);
        QVERIFY(m_explore->loops().empty());
        QVERIFY(!m_explore->loopPanel()->isVisible());
        QCOMPARE(m_explore->timeline()->loopCount(), 0);
    }

    void beamSearchDrawsATree() {
        m_explore->strategyEditor()->setStrategy(strategyFromJson(
            R"({"decoder": {"type": "beam", "beams": 3, "return": 2}, "samplers": [{"type": "repetition_penalty", "penalty": 1.1}, {"type": "dist"}]})"));
        m_explore->maxTokens()->setValue(8);
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        QTest::keyClick(m_explore->promptEdit(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(ended.wait(60000));
        QVERIFY(m_explore->showsBeamTree());
        const qint64 beamRun = ended.front().front().toLongLong();
        QVERIFY(beamRun > 0); // saved, with the whole search
        BeamTreeView* tree = m_explore->beamTree();
        QVERIFY(tree->stepCount() >= 1 && tree->stepCount() <= 8);
        // Each step weighs 2 x beams candidates (one end token), three of which continue (or finish).
        int continued = 0, onBest = 0, marked = 0;
        for (const BeamTreeView::Node& node : tree->nodes()) {
            continued += node.candidate.fate == BeamCandidate::Fate::Continued;
            onBest += node.onBest;
            marked += node.hypothesis >= 0;
        }
        QCOMPARE(static_cast<int>(tree->nodes().size()), tree->stepCount() * 6);
        QVERIFY(continued >= tree->stepCount() * 2);
        QVERIFY(onBest >= 1 && onBest <= tree->stepCount()); // the best path, one node a step
        QVERIFY(marked >= 1);
        // Issue 35: the returned texts, best first, as the stored run keeps them (its text is the best's).
        auto* texts = m_explore->findChild<QLabel*>(QStringLiteral("beamTexts"));
        QVERIFY(texts && texts->isVisibleTo(m_window.get()));
        const RunRecord stored = RunRepository(*m_window->database()).loadRun(beamRun).value();
        QVERIFY2(texts->text().startsWith(QStringLiteral("<b>Best</b> (score ")) &&
                     texts->text().section(QStringLiteral("<br>"), 0, 0).endsWith(stored.text.toHtmlEscaped()),
                 qPrintable(texts->text() + " / " + stored.text));
        QCOMPARE(texts->text().count(QStringLiteral("<br>")), 1); // "return": 2
        // A click on a node describes it and its path.
        const QRect first = tree->nodeRect(0);
        QTest::mouseClick(tree, Qt::LeftButton, {}, first.center());
        QCOMPARE(tree->selectedNode(), 0);
        QVERIFY(m_explore->findChild<QLabel*>(QStringLiteral("whatIf"))
                    ->text()
                    .startsWith(QStringLiteral("Step 1, rank 1")));
        // ... and shows the distribution that beam weighed there, with its pipeline, as for a sampled step.
        m_explore->pipeline()->setRowCount(0);
        const int last = static_cast<int>(tree->nodes().size()) - 1;
        QTest::mouseClick(tree, Qt::LeftButton, {}, tree->nodeRect(last).center());
        QTRY_VERIFY_WITH_TIMEOUT(m_explore->pipeline()->rowCount() == 1, 10000); // the one logits processor
        QCOMPARE(m_explore->pipeline()->item(0, 0)->text(), QStringLiteral("repetition_penalty"));
        const std::vector<TokenId> path = tree->pathTokens(last);
        QCOMPARE(static_cast<int>(path.size()), tree->nodes()[std::size_t(last)].step + 1);
        QCOMPARE(path.back(), tree->nodes()[std::size_t(last)].candidate.token);
        if (const QByteArray dir = qgetenv("SWB_SCREENSHOT_DIR"); !dir.isEmpty()) {
            for (const QSize size : {QSize(1280, 800), QSize(1600, 1000)}) {
                m_window->resize(size);
                QTest::qWait(50);
                m_window->grab().save(
                    QStringLiteral("%1/explore-beam-%2.png").arg(QString::fromLocal8Bit(dir)).arg(size.width()));
            }
        }
        // A sampled run shows the token stream again; opening the beam run shows its tree again.
        const int steps = tree->stepCount();
        const std::size_t nodes = tree->nodes().size();
        QVERIFY(generate(4) > 0);
        QVERIFY(!m_explore->showsBeamTree());
        QVERIFY(m_explore->openRun(beamRun));
        QVERIFY(m_explore->showsBeamTree());
        QCOMPARE(tree->stepCount(), steps);
        QCOMPARE(tree->nodes().size(), nodes);
        QVERIFY(generate(4) > 0);
    }

    void diverseBeamSearchMarksItsBestPathWholly() {
        // Two groups start alike (both extend the prompt with the same best token); the best hypothesis may come
        // from the second: its path is marked from the prompt to its end, one node a step. The first of these
        // prompts where the second group's search wins is the case looked at (which one depends on the model).
        const QString prompt = m_explore->promptEdit()->toPlainText();
        bool fromSecondGroup = false;
        for (const char* text : {"And God said", "In the beginning", "And the LORD spake", "Blessed are the",
                                 "And he said unto them", "The word of the LORD", "Then", "And it came to pass"}) {
            m_explore->promptEdit()->setPlainText(QString::fromUtf8(text));
            const qint64 run = generate(
                64,
                R"({"decoder": {"type": "group_beam", "beams": 4, "groups": 2, "diversity_penalty": 1.0, "return": 2}, "samplers": []})");
            QVERIFY(run > 0);
            QVERIFY(m_explore->showsBeamTree());
            BeamTreeView* tree = m_explore->beamTree();
            std::vector<int> bestPerStep(std::size_t(tree->stepCount()), 0);
            for (const BeamTreeView::Node& node : tree->nodes()) {
                bestPerStep[std::size_t(node.step)] += node.onBest;
                fromSecondGroup |= node.onBest && node.step == 0 && node.candidate.group == 1;
            }
            if (!fromSecondGroup)
                continue;
            const int tokens = m_explore->stream()->stepCount();
            QVERIFY(tokens >= 1);
            for (int step = 0; step < tokens; ++step)
                QCOMPARE(bestPerStep[std::size_t(step)], 1);
            break;
        }
        m_explore->promptEdit()->setPlainText(prompt);
        QVERIFY2(fromSecondGroup, "on none of the prompts did the second group's search win");
    }

    void contrastiveDecodersShowTheirCandidates() {
        // Contrastive search: each step's candidates with p, the degeneration penalty and the score; the chosen
        // one marked. The table takes the pipeline's place, and a sampled run brings the pipeline back.
        QVERIFY(
            generate(
                5, R"({"decoder": {"type": "contrastive_search", "penalty_alpha": 0.6, "top_k": 3}, "samplers": []})") >
            0);
        m_explore->selectStep(1);
        QTableWidget* table = m_explore->decoderTable();
        QTRY_VERIFY(table->isVisible());
        QVERIFY(!m_explore->pipeline()->isVisible());
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->horizontalHeaderItem(2)->text(), QStringLiteral("Degeneration penalty"));
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("✓")); // best score first, and chosen
        QVERIFY(m_explore->findChild<QLabel*>(QStringLiteral("whatIf"))
                    ->text()
                    .contains(QStringLiteral("Contrastive search")));
        // Contrastive decoding with the demo model as its own amateur: expert and amateur p, the plausibility cut.
        const QString amateur = QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
        const QByteArray cd =
            QStringLiteral(
                R"({"decoder": {"type": "contrastive_decoding", "amateur": "%1", "alpha": 0.1}, "samplers": [{"type": "greedy"}]})")
                .arg(amateur)
                .toUtf8();
        QVERIFY(generate(4, cd.constData()) > 0);
        m_explore->selectStep(0);
        QTRY_VERIFY(table->isVisible());
        QCOMPARE(table->horizontalHeaderItem(1)->text(), QStringLiteral("Expert p"));
        QVERIFY(table->rowCount() >= 1);
        if (const QByteArray dir = qgetenv("SWB_SCREENSHOT_DIR"); !dir.isEmpty()) {
            m_explore->selectStep(0);
            m_window->resize(1280, 800);
            QTest::qWait(50);
            m_window->grab().save(QStringLiteral("%1/explore-contrastive-1280.png").arg(QString::fromLocal8Bit(dir)));
        }
        // Issue 35: the candidate table stayed on screen while a new sampled run generated. It goes at the start.
        m_explore->selectStep(0);
        QTRY_VERIFY(table->isVisible());
        m_explore->strategyEditor()->setStrategy(strategyFromJson(kChain));
        m_explore->maxTokens()->setValue(4);
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        QTest::keyClick(m_explore->promptEdit(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY(!table->isVisible());
        QVERIFY(m_explore->pipeline()->isVisible());
        QVERIFY(ended.wait(60000));
        m_explore->selectStep(0);
        QTRY_VERIFY(!table->isVisible());
        QVERIFY(m_explore->pipeline()->isVisible());
    }

    // The fast-math switch: off by default, reloads the model when flipped, and a model loaded with it
    // says so on the bar; flipping it back says f32 arithmetic again.
    // A run generated here records how it was computed, and the Runs tab and Explore's run header say so: the
    // demo model with default settings is one thread (its step is too small to split), exact, f32, on the CPU
    // kernels' widest path.
    void runsSayHowTheyWereComputed() {
        const qint64 id = generate(4);
        QVERIFY(id > 0);
        const QString path = QString::fromLatin1(kernels::kernelPathName(kernels::kernelPath()));
        RunRepository runs(*m_window->database());
        const RunSetup setup = runs.loadRun(id, false)->setup;
        QCOMPARE(setup.threads, std::optional<int>(1));
        QCOMPARE(setup.fastMath, std::optional<bool>(false));
        QCOMPARE(setup.computeDtype, QStringLiteral("f32"));
        QCOMPARE(setup.device, QStringLiteral("cpu"));
        QCOMPARE(setup.kernelPath, path);
        const QString expected = QStringLiteral("1 thread · exact · f32 · cpu · %1").arg(path);
        RunsView* list = m_window->runs();
        list->refresh();
        QStandardItemModel* model = list->model();
        QCOMPARE(model->headerData(model->columnCount() - 1, Qt::Horizontal).toString(),
                 QStringLiteral("Computed with"));
        QString shown;
        for (int row = 0; row < model->rowCount(); ++row)
            if (model->item(row, 0)->data(Qt::UserRole + 1).toLongLong() == id)
                shown = model->item(row, model->columnCount() - 1)->text();
        QCOMPARE(shown, expected);
        QVERIFY(m_explore->openRun(id));
        auto* header = m_explore->findChild<QLabel*>(QStringLiteral("generationProgress"));
        QVERIFY2(header->text().endsWith(QStringLiteral(" · computed with ") + expected), qPrintable(header->text()));
    }

    // Issue 35: "1 tokens", "1 survivors" and "0 tok/s" for 0.27 tokens a second; "53.8%" over a bar of raw
    // p 0.337 (the mass is of what the stage got, after temperature). Read as the app shows them: with the
    // English translation, which holds the plural forms.
    void pluralsAndSlowRates() {
        QTranslator english;
        QVERIFY(english.load(QLocale(QLocale::English), QStringLiteral("sampling-workbench"), QStringLiteral("_"),
                             QStringLiteral(":/i18n")));
        QCoreApplication::installTranslator(&english);
        SamplerSpec spec;
        spec.type = QStringLiteral("top_p");
        spec.params.insert(QStringLiteral("p"), 0.5);
        StageTrace stage;
        stage.sampler = QStringLiteral("top_p");
        stage.kept = 1;
        stage.keptMass = 0.538;
        QCOMPARE(describeStage(stage, &spec), QStringLiteral("top-p 0.5: 1 token, 53.8% of the p it got"));
        stage.kept = 3;
        QCOMPARE(describeStage(stage, &spec), QStringLiteral("top-p 0.5: 3 tokens, 53.8% of the p it got"));
        spec.type = stage.sampler = QStringLiteral("min_p");
        stage.kept = 1;
        stage.threshold = 0.25;
        QCOMPARE(describeStage(stage, &spec), QStringLiteral("min-p 0.5: threshold p \u2265 0.25, 1 token"));
        QCoreApplication::removeTranslator(&english);
        QCOMPARE(rateText(0.27), QStringLiteral("0.27"));
        QCOMPARE(rateText(3.42), QStringLiteral("3.4"));
        QCOMPARE(rateText(27.4), QStringLiteral("27"));
    }

    // Issue 35: max 200 tokens on a model whose context holds 128 was taken silently; the run ended at 124.
    void maxTokensPastTheContextIsFlagged() {
        const int context = m_explore->loadedModel()->info.contextLength;
        QVERIFY(context > 1);
        auto* warning = m_explore->findChild<QLabel*>(QStringLiteral("contextWarning"));
        QVERIFY(warning);
        m_explore->maxTokens()->setValue(context + 72);
        QVERIFY(warning->isVisibleTo(m_window.get()));
        QVERIFY2(warning->text().contains(QString::number(context)), qPrintable(warning->text()));
        m_explore->maxTokens()->setValue(context / 2);
        QVERIFY(!warning->isVisibleTo(m_window.get()));
    }

    // Issue 35: after a restart the preset box said "Preset…" while the editor held "chat". A restart saves the
    // strategy as JSON and sets it back; every preset must come back named in the box.
    void presetBoxSurvivesARestart() {
        for (const QString& name : strategyPresetNames()) {
            StrategyEditor before;
            auto* box = before.findChild<QComboBox*>(QStringLiteral("strategyPresets"));
            QVERIFY(box);
            box->setCurrentIndex(box->findData(name));
            emit box->activated(box->currentIndex());
            QCOMPARE(before.strategy().name, name);
            const QByteArray saved = QJsonDocument(before.strategy().toJson()).toJson(QJsonDocument::Compact);
            StrategyEditor after;
            after.setStrategy(Strategy::parse(QString::fromUtf8(saved)).value());
            QCOMPARE(after.findChild<QComboBox*>(QStringLiteral("strategyPresets"))->currentText(), name);
        }
    }

    // Issue 35: the empty probe chart's rank axis was labelled 0.001 to 1; ranks start at 1.
    void emptyProbeChartRanksFromOne() {
        TokenProbeDialog dialog(*m_window->session());
        auto* plot = dialog.findChild<QCustomPlot*>();
        QVERIFY(plot);
        QVERIFY(plot->yAxis2->range().lower >= 0.5);
        QVERIFY(plot->yAxis2->range().upper >= 10.0);
    }

    // Issue 35: the stream showed about three rows of chips with no scrollbar, and End selected the last step
    // without bringing it into view.
    void longRunScrollsAndTheSelectedChipStaysInView() {
        const QSize size = m_window->size();
        m_window->resize(1024, 700);
        // The end token banned, so the run fills the context whatever the kernels round (an early end left 20
        // steps under the sanitizers' build).
        const TokenId eos = m_explore->loadedModel()->tokenizer->specialTokens().eos;
        QVERIFY(eos >= 0);
        const QByteArray chain = QStringLiteral(R"({"seed": 7, "samplers": [{"type": "banned_tokens", "ids": [%1]}, )"
                                                R"({"type": "top_k", "k": 5}, {"type": "dist"}]})")
                                     .arg(eos)
                                     .toUtf8();
        QVERIFY(generate(120, chain.constData()) > 0);
        QVERIFY2(m_explore->stream()->stepCount() >= 100, qPrintable(QString::number(m_explore->stream()->stepCount())));
        auto* scroll = m_explore->findChild<QScrollArea*>(QStringLiteral("streamScroll"));
        QVERIFY(scroll);
        TokenStreamView* stream = m_explore->stream();
        QCoreApplication::processEvents();
        const int content = stream->heightForWidth(scroll->viewport()->width());
        QVERIFY2(content > scroll->viewport()->height(),
                 qPrintable(QStringLiteral("%1 steps fit in %2 px").arg(stream->stepCount()).arg(scroll->viewport()->height())));
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
        const auto chipInView = [&](int step) {
            const QRect chip = stream->chipRect(step);
            return scroll->viewport()->rect().contains(QRect(stream->mapTo(scroll->viewport(), chip.topLeft()), chip.size()));
        };
        stream->setFocus();
        QTest::keyClick(stream, Qt::Key_Home);
        QTRY_VERIFY(chipInView(0));
        QTest::keyClick(stream, Qt::Key_End);
        QCOMPARE(stream->selectedStep(), stream->stepCount() - 1);
        QTRY_VERIFY(chipInView(stream->stepCount() - 1));
        m_window->resize(size);
    }

    // Issue 35: the selected step's title said "Would draw" for what the run drew, with nothing edited, and
    // "Chose" after Stop. The run's own chain says "Drew"; an edited one says what it would draw.
    void plotTitleSaysDrewUnlessEdited() {
        QVERIFY(generate(8) > 0);
        QVERIFY(m_explore->stream()->stepCount() >= 3);
        QSignalSpy inspected(m_explore, &ExploreView::inspectionUpdated);
        m_explore->stream()->setSelectedStep(2);
        QVERIFY(inspected.wait(20000));
        const QString drawn = tokenDisplayText(m_explore->loadedModel()->tokenizer.get(), m_explore->stream()->step(2).token);
        QVERIFY2(m_explore->distribution()->model().title.startsWith(QStringLiteral("Drew \u201c%1\u201d").arg(visibleTokenText(drawn))),
                 qPrintable(m_explore->distribution()->model().title));
        m_explore->strategyEditor()->setStrategy(strategyFromJson(
            R"({"seed": 7, "samplers": [{"type": "top_k", "k": 2}, {"type": "top_p", "p": 0.9}, {"type": "dist"}]})"));
        QVERIFY(inspected.wait(20000));
        QVERIFY2(m_explore->distribution()->model().title.startsWith(QStringLiteral("Would draw ")),
                 qPrintable(m_explore->distribution()->model().title));
        m_explore->strategyEditor()->setStrategy(strategyFromJson(kChain));
    }

    // Issue 35: an edited preset ("chat" at another temperature) was stored still named "chat", so Reports
    // showed "chat #1" and "chat #2". It becomes "chat (edited)"; the preset itself keeps its name.
    void editedPresetIsRenamed() {
        StrategyEditor editor;
        auto* box = editor.findChild<QComboBox*>(QStringLiteral("strategyPresets"));
        box->setCurrentIndex(box->findData(QStringLiteral("chat")));
        emit box->activated(box->currentIndex());
        QCOMPARE(editor.strategy().name, QStringLiteral("chat"));
        int temperature = -1;
        for (std::size_t i = 0; i < editor.strategy().samplers.size(); ++i)
            if (editor.strategy().samplers[i].type == QLatin1String("temperature"))
                temperature = static_cast<int>(i);
        QVERIFY(temperature >= 0);
        editor.setParameter(temperature, QStringLiteral("value"), 1.3);
        QCOMPARE(editor.strategy().name, QStringLiteral("chat (edited)"));
        QCOMPARE(box->currentIndex(), 0); // "Preset…": no longer the preset
        editor.setSeed(99); // a seed alone does not make another strategy
        box->setCurrentIndex(box->findData(QStringLiteral("chat")));
        emit box->activated(box->currentIndex());
        editor.setSeed(5);
        QCOMPARE(editor.strategy().name, QStringLiteral("chat"));
    }

    // Issue 35: the count said "244 runs" while a filter showed three.
    void runsCountFollowsTheFilter() {
        QVERIFY(generate(3) > 0);
        RunsView* list = m_window->runs();
        list->setFilter(QString());
        list->refresh();
        auto* count = list->findChild<QLabel*>(QStringLiteral("runCount"));
        QVERIFY(count);
        int all = 0; // runs and their branches (child rows)
        std::function<void(const QStandardItem*)> countUnder = [&](const QStandardItem* item) {
            for (int r = 0; r < item->rowCount(); ++r) {
                ++all;
                countUnder(item->child(r, 0));
            }
        };
        countUnder(list->model()->invisibleRootItem());
        QVERIFY(all >= 1);
        // (No translation is loaded here, so the plural reads "run(s)".)
        QCOMPARE(count->text(), QStringLiteral("%1 run(s)").arg(all));
        list->setFilter(QStringLiteral("zz-no-run-holds-this-zz"));
        QCOMPARE(count->text(), QStringLiteral("0 of %1 run(s)").arg(all));
        list->setFilter(QString());
        QCOMPARE(count->text(), QStringLiteral("%1 run(s)").arg(all));
    }

    void fastMathIsAnExplicitLabelledSwitch() {
        ModelBar bar;
        QSignalSpy changed(&bar, &ModelBar::optionsChanged);
        bar.setOptions(ModelOptions{});
        auto* toggle = bar.findChild<QToolButton*>(QStringLiteral("fastMath"));
        QVERIFY(toggle);
        QVERIFY(!toggle->isChecked());
        QVERIFY(!bar.options().fastMath);
        toggle->click();
        QCOMPARE(changed.count(), 1);
        QVERIFY(bar.options().fastMath);
        ModelInfo info;
        info.path = QStringLiteral("/models/tiny.gguf");
        info.architecture = QStringLiteral("llama");
        info.fileDtype = QStringLiteral("q4_k");
        info.device = QStringLiteral("cpu");
        info.storedWeights = true;
        info.fastMath = true;
        bar.setLoaded(info);
        auto* details = bar.findChild<QLabel*>(QStringLiteral("modelDetails"));
        QVERIFY(details->text().contains(QStringLiteral("q4_k as stored, FAST MATH: 8-bit activations")));
        info.fastMath = false;
        bar.setLoaded(info);
        QVERIFY(details->text().contains(QStringLiteral("q4_k as stored, f32 arithmetic")));
        // Setting the same options again is not a change.
        ModelOptions same = bar.options();
        bar.setOptions(same);
        QCOMPARE(changed.count(), 1);
    }

    void quantizeFromTheModelBar() {
        QTemporaryDir dir;
        const QString input = dir.filePath(QStringLiteral("tiny-f16.gguf"));
        const test::ProcessResult written =
            test::runSwbProcess({"bench", "decode", "--write-random-model", input, "--weight-type", "f16",
                                 "--random-shape", "256,2,4,256,64,64", "--seed", "3"});
        QVERIFY2(written.status == 0, written.err.constData());
        ModelBar bar;
        bar.setLoading(dir.path()); // a folder without a model: nothing to quantize
        QVERIFY(!bar.quantizeAction()->isEnabled());
        bar.setLoading(QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny")); // a Hugging Face folder
        QVERIFY(bar.quantizeAction()->isEnabled());
        bar.setLoading(input);
        QVERIFY(bar.quantizeAction()->isEnabled());
        QSignalSpy opened(&bar, &ModelBar::openRequested);
        bar.quantizeAction()->trigger();
        QuantizeDialog* dialog = bar.quantizeDialog();
        QVERIFY(dialog);
        // The output is suggested beside the input, named for the recipe, and follows the recipe.
        QCOMPARE(dialog->recipeBox()->currentData().toString(), QStringLiteral("q4_k_m"));
        QCOMPARE(QDir::fromNativeSeparators(dialog->outputEdit()->text()),
                 dir.filePath(QStringLiteral("tiny-q4_k_m.gguf")));
        dialog->setRecipe(QStringLiteral("Q5_K_M")); // the one last used, as the model bar remembers it
        QCOMPARE(dialog->recipeBox()->currentData().toString(), QStringLiteral("q5_k_m"));
        dialog->setRecipe(QStringLiteral("q8_0"));
        const QString output = dir.filePath(QStringLiteral("tiny-q8_0.gguf"));
        QSignalSpy started(dialog, &QuantizeDialog::started);
        QCOMPARE(QDir::fromNativeSeparators(dialog->outputEdit()->text()), output);

        // Cancelled at once: nothing written, the dialog stays for another try.
        dialog->start();
        QVERIFY(dialog->isWorking());
        QCOMPARE(started.count(), 1);
        QCOMPARE(started.first().first().toString(), QStringLiteral("q8_0"));
        QVERIFY(!dialog->startButton()->isEnabled());
        dialog->reject();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isWorking(), 20000);
        if (dialog->statusLabel()->text().startsWith(QLatin1String("quantization cancelled"))) {
            QVERIFY(!QFile::exists(output));
            QVERIFY(dialog->isVisible());
            QVERIFY(dialog->startButton()->isEnabled());
        } // (a machine fast enough may finish first; then the file is there and opened below)

        if (!QFile::exists(output)) {
            dialog->start();
            QTRY_VERIFY_WITH_TIMEOUT(opened.count() == 1, 30000);
        }
        QCOMPARE(opened.count(), 1);
        QCOMPARE(opened.first().first().toString(), output);
        Result<GgufFile> file = GgufFile::open(output);
        QVERIFY(file);
        QCOMPARE(file->tensor("blk.0.attn_q.weight")->type, 8u); // Q8_0
        QCOMPARE(file->integer("general.file_type"), std::optional<std::int64_t>(7));
    }

    void divergenceShadesEveryTokenAndOpensAPrefix() {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("tiny-f16.gguf"));
        const QString b = dir.filePath(QStringLiteral("tiny-q2_k.gguf"));
        test::ProcessResult r = test::runSwbProcess({"bench", "decode", "--write-random-model", a, "--weight-type",
                                                     "f16", "--random-shape", "256,2,4,256,64,64", "--seed", "3"});
        QVERIFY2(r.status == 0, r.err.constData());
        r = test::runSwbProcess({"quantize", a, b, "--type", "q2_k"});
        QVERIFY2(r.status == 0, r.err.constData());
        // The random model reads bytes up to 0x3C as their own tokens (its vocabulary is 64 tokens).
        const QString text = QStringLiteral("12,34+56=78;9/0(1)*2-3.4");
        DivergenceDialog dialog(a, text);
        dialog.setStrategySource([] { return strategyFromJson(R"({"samplers": [{"type": "top_k", "k": 2}]})"); });
        dialog.show();
        dialog.measure(); // no model B yet
        QVERIFY(dialog.statusLabel()->text().startsWith(QLatin1String("Choose model B")));
        dialog.modelBEdit()->setText(b);
        dialog.measure();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isWorking(), 60000);
        const quantization::DivergenceResult* result = dialog.result();
        QVERIFY2(result, qPrintable(dialog.statusLabel()->text()));
        const int n = static_cast<int>(result->perToken.size());
        QVERIFY(n > 5);
        // Every scored token is a link in the shaded text; the table lists the largest first.
        QCOMPARE(dialog.shadedText()->toHtml().count(QStringLiteral("href=\"#")), n);
        QTableWidget* table = dialog.largestTable();
        QCOMPARE(table->rowCount(), std::min(n, 20));
        double maxKl = 0;
        for (const auto& d : result->perToken)
            maxKl = std::max(maxKl, d.kl);
        const int first = table->item(0, 0)->data(Qt::UserRole).toInt();
        QCOMPARE(result->perToken[static_cast<std::size_t>(first)].kl, maxKl);
        QCOMPARE(dialog.selectedPosition(), first);
        // The overlay: both models' bars over the same tokens, A's top first.
        // Kept and cut bars of each model, the cut ones faded; the strategy's cut in words above.
        QCOMPARE(dialog.overlayPlot()->plottableCount(), 4);
        QVERIFY2(dialog.findChild<QLabel*>(QStringLiteral("divergencePosition"))
                     ->text()
                     .contains(QStringLiteral("Under top_k k=2 → dist: A keeps 2 tokens, B 2")),
                 qPrintable(dialog.findChild<QLabel*>(QStringLiteral("divergencePosition"))->text()));
        const quantization::PositionTop& top = result->top[static_cast<std::size_t>(first)];
        QCOMPARE(top.tokens.front(), result->perToken[static_cast<std::size_t>(first)].topA);
        QCOMPARE(qobject_cast<QCPBars*>(dialog.overlayPlot()->plottable(0))->data()->size() +
                     qobject_cast<QCPBars*>(dialog.overlayPlot()->plottable(2))->data()->size(),
                 static_cast<int>(top.tokens.size()));
        QCOMPARE(qobject_cast<QCPBars*>(dialog.overlayPlot()->plottable(0))->data()->size(), 2); // A's kept
        // Clicking a token in the text selects it; its prefix opens with model B.
        dialog.shadedText()->anchorClicked(QUrl(QStringLiteral("#3")));
        QCOMPARE(dialog.selectedPosition(), 3);
        QSignalSpy open(&dialog, &DivergenceDialog::openPrefixRequested);
        dialog.findChild<QPushButton*>(QStringLiteral("divergenceOpenPrefix"))->click();
        QCOMPARE(open.count(), 1);
        QCOMPARE(open.first().at(1).toString(), b);
        const QString prefix = open.first().at(0).toString();
        QVERIFY2(text.startsWith(prefix.trimmed()) && !prefix.isEmpty(), qPrintable(prefix));
    }

    // Model B served (swb serve with the demo model, A the same model here): its top 20 a position, the KL
    // labelled a lower bound, zero to rounding; the overlay says what B's bars are.
    void divergenceWithAServedModelB() {
        test::ServeProcess serve({});
        QVERIFY(serve.port() > 0);
        const QString demo = QStringLiteral(SWB_SOURCE_DIR "/resources/models/kjv-tiny");
        DivergenceDialog dialog(demo, QStringLiteral("And God said, Let there be light: and there was light."));
        dialog.show();
        dialog.modelBEdit()->setText(QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port()));
        dialog.measure();
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isWorking(), 60000);
        const quantization::DivergenceResult* result = dialog.result();
        QVERIFY2(result, qPrintable(dialog.statusLabel()->text()));
        QVERIFY(result->perToken.size() > 10);
        QCOMPARE(result->summary.sameTop1, 1.0);
        QVERIFY(result->summary.maxKl < 1e-9);
        QVERIFY2(dialog.summaryLabel()->text().startsWith(QStringLiteral("B is served, known by its top 20")),
                 qPrintable(dialog.summaryLabel()->text()));
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("divergencePosition"))
                    ->text()
                    .contains(QStringLiteral("B's bars: its top 20")));
    }

    void screenshotShowsAFinishedGeneration() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("explore.png"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.filePath(QStringLiteral("data")));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SWB_GUI_PATH),
                      {QStringLiteral("--screenshot"), path, QStringLiteral("--tab"), QStringLiteral("explore")});
        QVERIFY(process.waitForFinished(90000));
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(QImage(path).size(), QSize(1280, 800));
        // The generation it shows was saved.
        Result<std::unique_ptr<Database>> db =
            Database::open(dir.filePath(QStringLiteral("data/%1/workbench.sqlite").arg(applicationId())));
        QVERIFY(db);
        RunRepository runs(*db.value());
        Result<std::vector<RunSummary>> list = runs.listRuns();
        QVERIFY(list);
        QCOMPARE(list->size(), std::size_t(1));
        QVERIFY(list->front().tokenCount > 0);
    }

    // An OpenAI-compatible server as the model: `swb serve` on the demo model, opened as a remote model.
    // The engine's tokens, texts and top-N raw probabilities are the local model's for the same strategy and
    // seed; the alternatives' texts come with the answer; what-if replays an edited chain over the top-N the
    // engine gave (with top-k 20 and 20 candidates, the run's own chain reproduces the engine's draw).
    // Issue 40: what a remote engine did not give reads "unknown" (or "n/a" for a candidate), never 0 or "nan":
    // the chip's tooltip, the plot's title, the timeline (a gap, not one survivor).
    // Issue 36: a grammar stage is traced like any stage: the timeline draws the mass it removed at each step, the
    // step header says when the model's top choice was refused because of it, and the editor takes GBNF typed
    // (an error puts the cursor at its line and column).
    void grammarStageShowsWhatItRemoved() {
        QVERIFY(generate(24, kGrammarChain) > 0);
        const std::vector<GeneratedStep>& steps = m_explore->run().steps;
        QVERIFY(!steps.empty());
        QVERIFY(m_explore->timeline()->showsGrammarSeries());
        int refusedTop = -1;
        double mostRemoved = 0.0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const StepTrace& trace = steps[i].trace;
            QCOMPARE(trace.stages.front().sampler, QStringLiteral("grammar"));
            QCOMPARE(m_explore->timeline()->grammarRemovedAt(int(i)), 1.0 - trace.stages.front().keptMass);
            mostRemoved = std::max(mostRemoved, 1.0 - trace.stages.front().keptMass);
            if (refusedTop < 0 && trace.chosen != trace.top.front().id)
                refusedTop = int(i);
        }
        QVERIFY2(mostRemoved > 0.5, qPrintable(QString::number(mostRemoved)));
        QVERIFY(refusedTop >= 0); // greedy under the grammar left the model's choice somewhere
        QSignalSpy inspected(m_explore, &ExploreView::inspectionUpdated);
        m_explore->stream()->setSelectedStep(refusedTop);
        QVERIFY(inspected.wait(20000));
        QVERIFY2(m_explore->distribution()->model().title.contains(
                     QStringLiteral("the grammar refused the model's top choice")),
                 qPrintable(m_explore->distribution()->model().title));
        // The editor: a syntax error names its line and column and puts the cursor there; a good grammar is applied.
        StrategyEditor* editor = m_explore->strategyEditor();
        editor->selectStage(0);
        auto* text = editor->findChild<QPlainTextEdit*>(QStringLiteral("text_gbnf"));
        auto* apply = editor->findChild<QToolButton*>(QStringLiteral("apply_gbnf"));
        QVERIFY(text && apply);
        text->setPlainText(QStringLiteral("root ::= item\nitem ::= [a-"));
        QTest::mouseClick(apply, Qt::LeftButton);
        auto* error = editor->findChild<QLabel*>(QStringLiteral("strategyError"));
        QVERIFY(error && error->isVisible());
        QVERIFY2(error->text().contains(QStringLiteral("grammar line 2, column")), qPrintable(error->text()));
        QCOMPARE(text->textCursor().blockNumber(), 1);
        text->setPlainText(QStringLiteral("root ::= \" the\"+"));
        QTest::mouseClick(apply, Qt::LeftButton);
        QVERIFY(!error->isVisible());
        QCOMPARE(editor->strategy().samplers.front().params.value("gbnf").toString(),
                 QStringLiteral("root ::= \" the\"+"));
        m_explore->strategyEditor()->setStrategy(strategyFromJson(kChain));
    }

    void remoteUnknownsReadUnknown() {
        GeneratedStep step;
        step.token = 5;
        step.text = "x";
        step.shown = "x";
        step.trace.chosen = 5;
        step.trace.rawP = 0.5f;
        step.trace.finalP = NAN;
        step.trace.rawRank = 1;
        step.trace.rawEntropy = NAN;
        step.trace.finalEntropy = NAN;
        step.trace.finalCount = -1;
        for (int id : {5, 7}) {
            TopCandidate c;
            c.id = id;
            c.rawP = id == 5 ? 0.5f : 0.25f;
            c.logit = std::log(c.rawP);
            c.finalP = NAN;
            step.trace.top.push_back(c);
        }
        TokenStreamView stream;
        stream.appendSteps({step});
        const QString tip = stream.toolTipText(0);
        QVERIFY2(tip.contains("final p unknown") && tip.contains("n/a") && !tip.contains("nan"), qPrintable(tip));
        const DistributionModel plot = buildDistributionModel(step.trace, Strategy{}, nullptr, -1, nullptr, 512);
        QVERIFY2(plot.title.contains("final p unknown"), qPrintable(plot.title));
        QCOMPARE(plot.bars.size(), std::size_t(2));
        QCOMPARE(plot.bars[0].shownP, 0.0);
        TimelinePlot timeline;
        timeline.appendSteps({step, step});
        bool sawSurvivorGap = false;
        for (int g = 0; g < timeline.plot()->graphCount(); ++g)
            if (timeline.plot()->graph(g)->name().isEmpty() || timeline.plot()->graph(g)->name() == "survivors")
                for (auto it = timeline.plot()->graph(g)->data()->begin();
                     it != timeline.plot()->graph(g)->data()->end(); ++it)
                    sawSurvivorGap |= std::isnan(it->value);
        QVERIFY(sawSurvivorGap);
    }

    void remoteModelThroughSwbServe() {
        static constexpr const char* chain =
            R"({"seed": 5, "samplers": [{"type": "top_k", "k": 20}, {"type": "temperature", "value": 0.9}, {"type": "dist"}]})";
        QVERIFY(generate(12, chain) > 0);
        const ExploreRun local = m_explore->run();
        const std::shared_ptr<const Tokenizer> demo = m_explore->loadedModel()->tokenizer;
        QCOMPARE(local.steps.size(), std::size_t(12));

        swb::test::ServeProcess serve({});
        QVERIFY(serve.port() > 0);
        const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
        QSignalSpy ready(m_explore, &ExploreView::modelReady);
        m_explore->openRemoteModel(address);
        QVERIFY(ready.wait(30000));
        QVERIFY(m_explore->isRemoteModel());
        QCOMPARE(m_explore->modelBar()->findChild<QLabel*>(QStringLiteral("modelName"))->text(),
                 QStringLiteral("127.0.0.1:%1").arg(serve.port()));
        QVERIFY(!m_explore->modelBar()->findChild<QWidget*>(QStringLiteral("device"))->isEnabled());

        const qint64 runId = generate(12, chain);
        QVERIFY(runId > 0);
        const ExploreRun& remote = m_explore->run();
        QVERIFY(remote.remote);
        QCOMPARE(remote.steps.size(), local.steps.size());
        for (std::size_t i = 0; i < local.steps.size(); ++i) {
            const StepTrace& r = remote.steps[i].trace;
            const StepTrace& l = local.steps[i].trace;
            QCOMPARE(r.chosen, l.chosen);
            QCOMPARE(remote.steps[i].text, local.steps[i].text);
            QVERIFY(std::abs(r.rawP - l.rawP) < 1e-5);
            QVERIFY(std::abs(r.finalP - l.finalP) < 1e-5); // swb serve gives the post-chain probability
            QCOMPARE(r.top.size(), std::size_t(20));
            for (std::size_t c = 0; c < r.top.size(); ++c) {
                QCOMPARE(r.top[c].id, l.top[c].id);
                QVERIFY(std::abs(r.top[c].rawP - l.top[c].rawP) < 1e-5);
            }
        }

        // The step's bars carry the alternatives' own texts, the unseen mass as others.
        const int step = 3;
        QSignalSpy inspected(m_explore, &ExploreView::inspectionUpdated);
        m_explore->selectStep(step);
        QVERIFY(inspected.wait(30000) || m_explore->inspectedStep() == step);
        const DistributionModel& plot = m_explore->distribution()->model();
        const StepTrace& trace = remote.steps[step].trace;
        double shown = 0.0;
        for (std::size_t i = 0; i < plot.bars.size(); ++i) {
            QCOMPARE(plot.bars[i].label, visibleTokenText(tokenDisplayText(demo.get(), trace.top[i].id)));
            shown += trace.top[i].rawP;
        }
        QVERIFY(std::abs(plot.othersRawP - (1.0 - shown)) < 1e-6);
        // The run's own chain over the 20 candidates draws what the engine drew, with its probability.
        QCOMPARE(m_explore->inspection()->trace.chosen, trace.chosen);
        QVERIFY(std::abs(m_explore->inspection()->trace.finalP - trace.finalP) < 1e-5);
        // An edited chain (greedy) is replayed on them and labelled as seeing only them.
        m_explore->strategyEditor()->setStrategy(strategyFromJson(R"({"samplers": [{"type": "greedy"}]})"));
        QVERIFY(inspected.wait(30000));
        QCOMPARE(m_explore->inspection()->trace.chosen, trace.top.front().id);
        QVERIFY(m_explore->findChild<QLabel*>(QStringLiteral("whatIf"))->text().contains(QStringLiteral("top-N only")));

        // Saved as a run of the server's model.
        RunRepository runs(*m_window->database());
        Result<RunRecord> saved = runs.loadRun(runId);
        QVERIFY(saved);
        Result<ModelRecord> model = runs.loadModel(saved->modelId);
        QVERIFY(model);
        QCOMPARE(model->format, QStringLiteral("remote"));
        QCOMPARE(model->path, address);
    }
};

QTEST_MAIN(TestExplore)
#include "tst_explore.moc"
