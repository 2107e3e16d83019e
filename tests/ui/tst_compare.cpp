// The Compare view: a comparison set up and run through the GUI on the demo model, then rated blind
// entirely from the keyboard (scores, notes, preferences, navigation, reveal); the ratings and
// preferences are then read back from the run store.

#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFuture>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUrl>
#include <QtConcurrent/QtConcurrentRun>

#include "AppInfo.h"
#include "HttpSupport.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "compare/CampaignPanel.h"
#include "compare/ComparePane.h"
#include "compare/CompareView.h"
#include "compare/RubricDialog.h"
#include "explore/ExploreView.h"
#include "explore/TokenStreamView.h"
#include "storage/ComparisonRepository.h"
#include "storage/Database.h"
#include "storage/RatingRepository.h"
#include "storage/RunRepository.h"
#include "workflows/RunRecording.h"

using namespace swb;

class TestCompare : public QObject {
    Q_OBJECT

    std::unique_ptr<MainWindow> m_window;
    CompareView* m_compare = nullptr;

    static void press(Qt::Key key, Qt::KeyboardModifiers modifiers = {}, int times = 1) {
        for (int i = 0; i < times; ++i) {
            QWidget* focus = QApplication::focusWidget();
            QVERIFY2(focus, "no widget has the keyboard focus");
            QTest::keyClick(focus, key, modifiers);
        }
    }

    // The comparisons runsAComparisonFromTheGui makes (two strategies, three prompts, 12 tokens): made here
    // when a function that rates, shows or counts them runs alone.
    void ensureComparisons() {
        if (m_compare->comparisonCount() > 0)
            return;
        m_compare->setStrategies({QStringLiteral("greedy"), QStringLiteral("creative")});
        m_compare->setPrompts({QStringLiteral("And God said"), QStringLiteral("In the beginning"),
                               QStringLiteral("Blessed are the meek")});
        m_compare->maxTokensBox()->setValue(12);
        QSignalSpy changed(m_compare, &CompareView::comparisonsChanged);
        QTest::mouseClick(m_compare->findChild<QPushButton*>(QStringLiteral("runComparison")), Qt::LeftButton);
        QVERIFY(changed.wait(120000));
        QVERIFY(m_compare->showComparison(0));
    }

private slots:
    void initTestCase() {
        // Start from an empty run store and settings, also when the test runs again in the same home.
        for (const char* suffix : {"", "-wal", "-shm"})
            QFile::remove(Database::defaultPath() + QLatin1String(suffix));
        QSettings(applicationId(), QStringLiteral("settings")).clear();
        m_window = std::make_unique<MainWindow>();
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QApplication::setActiveWindow(m_window.get());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->explore()->isModelLoaded(), 60000);
        m_compare = m_window->compare();
        QVERIFY(m_window->selectTab(QStringLiteral("compare")));
    }

    void runsAComparisonFromTheGui() {
        QCOMPARE(m_compare->comparisonCount(), 0);
        ensureComparisons();
        QCOMPARE(m_compare->comparisonCount(), 3);
        RunRepository runs(*m_window->database());
        QCOMPARE(runs.listRuns()->size(), std::size_t(6));
        // Running the same setup again resumes: nothing new is generated.
        QSignalSpy changed(m_compare, &CompareView::comparisonsChanged);
        QTest::mouseClick(m_compare->findChild<QPushButton*>(QStringLiteral("runComparison")), Qt::LeftButton);
        QVERIFY(changed.wait(120000));
        QCOMPARE(runs.listRuns()->size(), std::size_t(6));
        QCOMPARE(m_compare->comparisonCount(), 3);
    }

    void ratesBlindEntirelyFromTheKeyboard() {
        ensureComparisons();
        // The rater types a name, then Ctrl+N goes to the first unrated comparison.
        auto* rater = m_compare->findChild<QComboBox*>(QStringLiteral("rater"));
        rater->setFocus();
        QTest::keyClicks(rater, QStringLiteral("alice"));
        QCOMPARE(m_compare->rater(), QStringLiteral("alice"));
        press(Qt::Key_N, Qt::ControlModifier);

        // Scores per pane: relevance, fluency, usefulness, then a note; comparison k prefers pane k % 2.
        const int scores[2][3] = {{2, 1, 3}, {1, 2, 0}};
        std::map<qint64, std::array<int, 3>> expected; // run -> scores
        std::map<qint64, QString> expectedWinner;      // comparison -> blind label
        for (int k = 0; k < 3; ++k) {
            const ComparisonRecord* comparison = m_compare->currentComparison();
            QVERIFY(comparison);
            QCOMPARE(m_compare->panes().size(), std::size_t(2));
            // Blind: panes show only their labels.
            for (ComparePane* pane : m_compare->panes())
                QVERIFY(!pane->findChild<QLabel*>()->text().contains(QStringLiteral("greedy")));
            QCOMPARE(QApplication::focusWidget(), m_compare->panes()[0]->scoreBox(0));
            for (int p = 0; p < 2; ++p) {
                for (int d = 0; d < 3; ++d) {
                    QCOMPARE(QApplication::focusWidget(), m_compare->panes()[p]->scoreBox(d));
                    press(Qt::Key_Up, {}, scores[p][d] + 1); // from "–" (unrated) up to the score
                    press(Qt::Key_Tab);
                }
                QCOMPARE(QApplication::focusWidget(), m_compare->panes()[p]->noteEdit());
                QTest::keyClicks(QApplication::focusWidget(), QStringLiteral("=note %1").arg(p));
                press(Qt::Key_Tab);
                expected[m_compare->panes()[p]->runId()] = {scores[p][0], scores[p][1], scores[p][2]};
            }
            const int winner = k % 2;
            press(winner == 0 ? Qt::Key_1 : Qt::Key_2, Qt::ControlModifier);
            expectedWinner[comparison->id] = m_compare->panes()[winner]->label();
            // Reveal, once a preference is given, names the strategies.
            press(Qt::Key_R, Qt::ControlModifier);
            QStringList titles;
            for (ComparePane* pane : m_compare->panes())
                titles << pane->findChild<QLabel*>()->text();
            QVERIFY2(titles.join(QLatin1Char(' ')).contains(QStringLiteral("greedy")) &&
                         titles.join(QLatin1Char(' ')).contains(QStringLiteral("creative")),
                     qPrintable(titles.join(QLatin1Char('|'))));
            QCOMPARE(m_compare->progressLabel()->text(), QStringLiteral("%1 of 3 rated").arg(k + 1));
            press(Qt::Key_N, Qt::ControlModifier);
        }

        // Everything is in the store, under alice.
        RatingRepository ratings(*m_window->database());
        const qint64 alice = ratings.findRater(QStringLiteral("alice"))->value();
        const std::vector<RatingRecord> all = ratings.listRatings().value();
        QCOMPARE(all.size(), std::size_t(18));
        const QStringList dimensions{QStringLiteral("relevance"), QStringLiteral("fluency"),
                                     QStringLiteral("usefulness")};
        for (const RatingRecord& rating : all) {
            QCOMPARE(rating.raterId, alice);
            QVERIFY(expected.count(rating.runId));
            QCOMPARE(rating.score,
                     double(expected[rating.runId][static_cast<std::size_t>(dimensions.indexOf(rating.dimension))]));
            QVERIFY(rating.note.startsWith(QStringLiteral("=note ")));
        }
        ComparisonRepository comparisons(*m_window->database());
        const std::vector<PreferenceRecord> preferences = ratings.listPreferences().value();
        QCOMPARE(preferences.size(), std::size_t(3));
        for (const PreferenceRecord& preference : preferences) {
            QCOMPARE(preference.winner, PreferenceWinner::Slot);
            const ComparisonRecord comparison = comparisons.loadComparison(preference.comparisonId).value();
            QString label;
            for (const auto& entry : comparison.entries)
                if (entry.slot == preference.winnerSlot)
                    label = entry.blindLabel;
            QCOMPARE(label, expectedWinner[preference.comparisonId]);
        }
        // Tie and both-bad from the keyboard overwrite the verdict of the comparison shown.
        press(Qt::Key_T, Qt::ControlModifier);
        QCOMPARE(ratings.preference(m_compare->currentComparison()->id, alice).value()->winner, PreferenceWinner::Tie);
        press(Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(ratings.preference(m_compare->currentComparison()->id, alice).value()->winner,
                 PreferenceWinner::BothBad);
    }

    void rubricsAreEditable() {
        ensureComparisons();
        RatingRepository ratings(*m_window->database());
        RubricDialog dialog(ratings, Rubric{0, QStringLiteral("strict"), {{QStringLiteral("accuracy"), 1, 5}}});
        QVERIFY(dialog.save());
        QVERIFY(m_compare->setRubric(QStringLiteral("strict")));
        ComparePane* pane = m_compare->panes().front();
        QCOMPARE(pane->scoreBox(0)->objectName(), QStringLiteral("score%1_accuracy").arg(pane->label()));
        QCOMPARE(pane->scoreBox(0)->maximum(), 5);
        QCOMPARE(pane->scoreBox(0)->minimum(), 0); // one below 1: "not rated"
        QVERIFY(!pane->scoreBox(1));
        // A score on the new rubric is stored under its dimension.
        m_compare->setRater(QStringLiteral("bob"));
        pane = m_compare->panes().front();
        pane->scoreBox(0)->setValue(4);
        const qint64 bob = ratings.findRater(QStringLiteral("bob"))->value();
        bool found = false;
        const std::vector<RatingRecord> ofRun = ratings.ratingsOfRun(pane->runId()).value();
        for (const RatingRecord& rating : ofRun)
            found = found ||
                    (rating.raterId == bob && rating.dimension == QStringLiteral("accuracy") && rating.score == 4.0);
        QVERIFY(found);
        // A broken rubric is refused with a reason, and nothing is saved.
        dialog.table()->item(0, 1)->setText(QStringLiteral("one"));
        QVERIFY(!dialog.save());
        dialog.table()->item(0, 1)->setText(QStringLiteral("6"));
        QVERIFY(!dialog.save()); // lowest above highest
        QCOMPARE(ratings.findRubric(QStringLiteral("strict"))->value().dimensions.front().min, 1.0);
    }

    // Issue 35: a score typed before the rater name was dropped. It is kept and saved under the name.
    void scoreBeforeTheRaterNameIsKept() {
        if (m_compare->comparisonCount() == 0) { // when it runs alone
            m_compare->setStrategies({QStringLiteral("greedy"), QStringLiteral("creative")});
            m_compare->setPrompts({QStringLiteral("And God said")});
            m_compare->maxTokensBox()->setValue(6);
            QSignalSpy changed(m_compare, &CompareView::comparisonsChanged);
            QTest::mouseClick(m_compare->findChild<QPushButton*>(QStringLiteral("runComparison")), Qt::LeftButton);
            QVERIFY(changed.wait(120000));
        }
        RatingRepository ratings(*m_window->database());
        m_compare->setRater(QString());
        auto* rater = m_compare->findChild<QComboBox*>(QStringLiteral("rater"));
        emit rater->lineEdit()->editingFinished();
        QVERIFY(!m_compare->panes().empty());
        ComparePane* pane = m_compare->panes().front();
        const qint64 run = pane->runId();
        const QString dimension = pane->scoreBox(0)->objectName().section('_', 1);
        pane->scoreBox(0)->setValue(pane->scoreBox(0)->minimum() + 2);
        const double score = pane->scoreBox(0)->value();
        QVERIFY(!ratings.findRater(QStringLiteral("carol"))->has_value());
        rater->setFocus();
        QTest::keyClicks(rater, QStringLiteral("carol"));
        emit rater->lineEdit()->editingFinished();
        const std::optional<qint64> carol = ratings.findRater(QStringLiteral("carol")).value();
        QVERIFY(carol.has_value());
        bool found = false;
        const std::vector<RatingRecord> ofRun = ratings.ratingsOfRun(run).value();
        for (const RatingRecord& rating : ofRun)
            found = found || (rating.raterId == *carol && rating.dimension == dimension && rating.score == score);
        QVERIFY2(found, qPrintable(dimension));
    }

    // Issue 35: the New Campaign dialog offered a gold share of 0.10 with no gold comparison in the store, which
    // could only fail ("needs gold comparisons"). Without gold it offers none; with some, 0.10.
    void campaignDialogOffersGoldOnlyWithGold() {
        int golds = 0;
        const std::vector<ComparisonRecord> all = ComparisonRepository(*m_window->database()).listComparisons().value();
        for (const ComparisonRecord& c : all)
            golds += c.isGold ? 1 : 0;
        double offered = -1;
        bool enabled = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            auto* share = dialog->findChild<QDoubleSpinBox*>(QStringLiteral("campaignGoldShare"));
            QVERIFY(share);
            offered = share->value();
            enabled = share->isEnabled();
            dialog->reject();
        });
        QTest::mouseClick(m_compare->campaigns()->findChild<QPushButton*>(QStringLiteral("newCampaign")), Qt::LeftButton);
        QCOMPARE(offered, golds > 0 ? 0.10 : 0.0);
        QCOMPARE(enabled, golds > 0);
    }

    void clickingATokenOpensItsStepInExplore() {
        ensureComparisons();
        ComparePane* pane = m_compare->panes().back();
        QVERIFY(pane->stream()->stepCount() > 2);
        QTest::mouseClick(pane->stream(), Qt::LeftButton, {}, pane->stream()->chipRect(2).center());
        QCOMPARE(m_window->currentTabKey(), QStringLiteral("explore"));
        QCOMPARE(m_window->explore()->run().runId, pane->runId());
        QCOMPARE(m_window->explore()->stream()->selectedStep(), 2);
    }

    // A beam search and contrastive search compared beside sampling, as any strategy: typed as JSON into a
    // strategy box; each run stored with what its decoder weighed.
    void comparesDecodersBesideSampling() {
        QVERIFY(m_window->selectTab(QStringLiteral("compare")));
        const QString beam =
            QStringLiteral(R"({"name": "beam3", "decoder": {"type": "beam", "beams": 3}, "samplers": []})");
        const QString search = QStringLiteral(
            R"({"name": "search", "decoder": {"type": "contrastive_search", "top_k": 3}, "samplers": []})");
        m_compare->setStrategies({beam, search, QStringLiteral("creative")});
        m_compare->setPrompts({QStringLiteral("And the earth was")});
        m_compare->maxTokensBox()->setValue(10);
        QSignalSpy changed(m_compare, &CompareView::comparisonsChanged);
        QTest::mouseClick(m_compare->findChild<QPushButton*>(QStringLiteral("runComparison")), Qt::LeftButton);
        QVERIFY(changed.wait(120000));
        RunRepository runs(*m_window->database());
        int decoded = 0;
        const Result<std::vector<RunSummary>> list = runs.listRuns();
        QVERIFY(list);
        for (const RunSummary& summary : list.value()) {
            if (summary.strategyName != QLatin1String("beam3") && summary.strategyName != QLatin1String("search"))
                continue;
            const Result<RunRecord> record = runs.loadRun(summary.id);
            QVERIFY2(record, qPrintable(record ? QString() : record.error().message));
            const Result<DecoderRecord> decoder = decoderRecord(record.value());
            QVERIFY2(decoder && !decoder->empty(), qPrintable(decoder ? QString() : decoder.error().message));
            QCOMPARE(decoder->type, summary.strategyName == QLatin1String("beam3")
                                        ? QStringLiteral("beam")
                                        : QStringLiteral("contrastive_search"));
            QVERIFY(record->tokenCount > 0);
            ++decoded;
        }
        QCOMPARE(decoded, 2);
        // The panes show their text like any other run's.
        for (ComparePane* pane : m_compare->panes()) {
            QVERIFY(pane->stream()->stepCount() > 0);
            QVERIFY(pane->entropyNote().isEmpty()); // local runs know their entropies
        }
    }

    // A campaign created in Compare over the store's comparisons, its progress read live from the store as
    // raters answer (here a preference saved as the rating server saves it).
    void campaignPanelShowsProgress() {
        ensureComparisons();
        QVERIFY(m_window->selectTab(QStringLiteral("compare")));
        CampaignPanel* panel = m_compare->campaigns();
        QVERIFY(panel);
        CampaignPlan plan;
        plan.ratingsPerItem = 2;
        plan.goldShare = 0.0;
        QVERIFY(!panel->createCampaign(QStringLiteral("pilot"), {QStringLiteral("ann")}, plan)
                     .ok()); // 2 per output, 1 rater
        QVERIFY(!panel
                     ->createCampaign(QStringLiteral("pilot"), {QStringLiteral("ann"), QStringLiteral("bob")}, plan, {},
                                      QStringLiteral("1=great"))
                     .ok()); // not a level
        QVERIFY(!panel
                     ->createCampaign(QStringLiteral("pilot"), {QStringLiteral("ann"), QStringLiteral("bob")}, plan,
                                      QStringLiteral("no such rubric"))
                     .ok());
        const Status created =
            panel->createCampaign(QStringLiteral("pilot"), {QStringLiteral("ann"), QStringLiteral("bob")}, plan);
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().message));
        QCOMPARE(panel->campaignBox()->currentText(), QStringLiteral("pilot"));
        ComparisonRepository comparisons(*m_window->database());
        const std::vector<ComparisonRecord> all = comparisons.listComparisons().value();
        QCOMPARE(panel->comparisonTable()->rowCount(), int(all.size()));
        QCOMPARE(panel->raterTable()->rowCount(), 2);
        for (int r = 0; r < 2; ++r)
            QCOMPARE(panel->raterTable()->item(r, 1)->text(), QStringLiteral("0 of %1").arg(all.size()));
        // Ann answers her first comparison: within the refresh interval the panel shows it.
        RatingRepository ratings(*m_window->database());
        swb::PreferenceRecord vote;
        vote.comparisonId = all.front().id;
        vote.raterId = ratings.raterId(QStringLiteral("ann")).value();
        vote.winner = swb::PreferenceWinner::Tie;
        QVERIFY(ratings.savePreference(vote).ok());
        QTRY_COMPARE_WITH_TIMEOUT(panel->raterTable()->item(0, 1)->text(), QStringLiteral("1 of %1").arg(all.size()),
                                  5000);
        QCOMPARE(panel->raterTable()->item(0, 0)->text(), QStringLiteral("ann"));
        QVERIFY(panel->raterTable()->item(0, 2)->text().startsWith(QStringLiteral("/rate/")));
        QVERIFY(panel->findChild<QLabel*>(QStringLiteral("campaignSummary"))
                    ->text()
                    .startsWith(QStringLiteral("1 of %1 answers").arg(2 * all.size())));
    }

    // Issue 35: rater links were bare "/rate/TOKEN" paths and the GUI could not serve them. Serve starts the
    // rating page on the chosen address (here loopback, any free port), the links name host and port and
    // open the rater's page; Stop ends it.
    void servesTheCampaignFromTheTab() {
        QVERIFY(m_window->selectTab(QStringLiteral("compare")));
        CampaignPanel* panel = m_compare->campaigns();
        QTemporaryDir dir;
        QFile prompts(dir.filePath(QStringLiteral("prompts.txt")));
        QVERIFY(prompts.open(QIODevice::WriteOnly));
        prompts.write("In the beginning\n");
        prompts.close();
        const auto batch = swb::test::runSwbProcess({"batch", "--db", Database::defaultPath(), "--prompts",
                                                     prompts.fileName(), "--strategy", "greedy", "--strategy", "chat",
                                                     "--max-tokens", "3"});
        QVERIFY2(batch.status == 0, batch.err.constData());
        CampaignPlan plan;
        plan.ratingsPerItem = 1;
        plan.goldShare = 0.0;
        const Status created = panel->createCampaign(QStringLiteral("served"), {QStringLiteral("cy")}, plan);
        QVERIFY2(created.ok(), qPrintable(created.ok() ? QString() : created.error().message));
        QCOMPARE(panel->campaignBox()->currentText(), QStringLiteral("served"));
        const QString path = panel->raterTable()->item(0, 2)->text();
        QVERIFY2(path.startsWith(QStringLiteral("/rate/")), qPrintable(path));

        const Status bad = panel->serve(QStringLiteral("127.0.0.256"), 0);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.contains(QStringLiteral("127.0.0.256")), qPrintable(bad.error().message));
        QVERIFY(!panel->isServing());

        const Status served = panel->serve(QStringLiteral("127.0.0.1"), 0);
        QVERIFY2(served.ok(), qPrintable(served.ok() ? QString() : served.error().message));
        QVERIFY(panel->isServing());
        const QUrl address(panel->serverAddress());
        QCOMPARE(address.scheme(), QStringLiteral("http"));
        QCOMPARE(address.host(), QStringLiteral("127.0.0.1"));
        QVERIFY(address.port() > 0);
        const QString link = panel->raterTable()->item(0, 2)->text();
        QCOMPARE(link, panel->serverAddress() + path);
        QCOMPARE(panel->raterTable()->item(0, 2)->toolTip(), link);
        // The server answers on the GUI thread: the client runs on another one.
        const auto get = [&](const QString& target) {
            QFuture<swb::test::HttpReply> reply = QtConcurrent::run([port = address.port(), target] {
                return swb::test::exchange(static_cast<quint16>(port),
                                           "GET " + target.toUtf8() + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            });
            [&] { QTRY_VERIFY_WITH_TIMEOUT(reply.isFinished(), 20000); }();
            return reply.result();
        };
        const swb::test::HttpReply page = get(path);
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.contains("<html"));
        const swb::test::HttpReply api = get(QStringLiteral("/api") + path);
        QCOMPARE(api.status, 200);
        QVERIFY2(api.body.contains("\"rater\":\"cy\"") && api.body.contains("\"prompt\":\"In the beginning\""), api.body.left(300).constData());
        QCOMPARE(get(QStringLiteral("/rate/not-a-token")).status, 403);

        panel->stopServing();
        QVERIFY(!panel->isServing());
        QCOMPARE(panel->raterTable()->item(0, 2)->text(), path);
        QCOMPARE(get(path).status, 0); // nobody listens any more
    }

    // The same setup on `swb serve` (the demo model) opened as a remote model: the engine generates each run,
    // the panes show them, and their texts are the local model's for the same strategies and seeds.
    void comparesOnARemoteModel() {
        ensureComparisons();
        swb::test::ServeProcess serve({});
        QVERIFY(serve.port() > 0);
        const QString address = QStringLiteral("http://127.0.0.1:%1/v1").arg(serve.port());
        QSignalSpy ready(m_window->explore(), &ExploreView::modelReady);
        m_window->explore()->openRemoteModel(address);
        QVERIFY(ready.wait(30000));
        QVERIFY(m_window->explore()->isRemoteModel());
        QVERIFY(m_window->selectTab(QStringLiteral("compare")));
        m_compare->setStrategies({QStringLiteral("greedy"), QStringLiteral("creative")});
        m_compare->setPrompts({QStringLiteral("And God said")});
        m_compare->maxTokensBox()->setValue(12);
        QSignalSpy changed(m_compare, &CompareView::comparisonsChanged);
        QTest::mouseClick(m_compare->findChild<QPushButton*>(QStringLiteral("runComparison")), Qt::LeftButton);
        QVERIFY(changed.wait(120000));
        RunRepository runs(*m_window->database());
        const Result<std::vector<RunSummary>> list = runs.listRuns();
        QVERIFY(list);
        std::map<QString, QString> local, remote; // strategy -> text, for the prompt of both
        for (const RunSummary& summary : list.value()) {
            if (summary.promptText != QLatin1String("And God said"))
                continue;
            (summary.modelPath == address ? remote : local)[summary.strategyName] = summary.text;
        }
        QCOMPARE(remote.size(), std::size_t(2));
        for (const auto& [strategy, text] : remote) {
            QVERIFY(!text.isEmpty());
            QCOMPARE(text, local.at(strategy));
        }
        for (ComparePane* pane : m_compare->panes()) {
            QVERIFY(pane->stream()->stepCount() > 0);
            // Issue 40: the engine gave no entropies; the pane says so (its plot was empty without a word).
            QVERIFY2(pane->entropyNote().contains("unknown"), qPrintable(pane->entropyNote()));
        }
    }

    // A comparison whose runs were computed differently (an exact run beside a fast-math one) says what differs,
    // not which output is which; one whose runs agree says nothing.
    void flagsRunsComputedDifferently() {
        ensureComparisons();
        const ModelInfo& info = m_window->explore()->loadedModel()->info;
        RunRepository runs(*m_window->database());
        const qint64 modelId =
            runs.saveModel({0, info.path, info.format, info.architecture, info.contentHash, info.parameters, {}})
                .value();
        const qint64 strategyId = runs.saveStrategy(Strategy::parse(QStringLiteral("greedy")).value()).value();
        const auto makeRun = [&](const RunSetup& setup) {
            RunRecord run;
            run.modelId = modelId;
            run.strategyId = strategyId;
            run.promptText = QStringLiteral("And God said");
            run.promptIds = {1, 2};
            run.text = QStringLiteral(" Let");
            run.finishReason = QStringLiteral("length");
            StepTrace step;
            step.chosen = 5;
            step.rawP = 0.5f;
            step.finalP = 1.0f;
            step.rawRank = 1;
            step.finalCount = 1;
            step.top = {{5, 1.0f, 0.5f, 1.0f}};
            run.steps = {step};
            run.setup = setup;
            return runs.saveRun(run).ok() ? run.id : 0;
        };
        RunSetup exact;
        exact.threads = 1;
        exact.fastMath = false;
        exact.computeDtype = QStringLiteral("f32");
        exact.device = QStringLiteral("cpu");
        exact.kernelPath = QStringLiteral("avx2");
        RunSetup fast = exact;
        fast.fastMath = true;
        ComparisonRepository comparisons(*m_window->database());
        const auto makeComparison = [&](qint64 a, qint64 b) {
            ComparisonRecord comparison;
            comparison.promptText = QStringLiteral("And God said");
            comparison.entries = {{0, a, QStringLiteral("A"), 0}, {1, b, QStringLiteral("B"), 1}};
            return comparisons.saveComparison(comparison).ok() ? comparison.id : 0;
        };
        const qint64 differing = makeComparison(makeRun(exact), makeRun(fast));
        const qint64 agreeing = makeComparison(makeRun(exact), makeRun(exact));
        QVERIFY(differing > 0 && agreeing > 0);
        m_compare->reloadComparisons();
        const auto show = [&](qint64 id) {
            for (int i = 0; i < m_compare->comparisonCount(); ++i)
                if (m_compare->showComparison(i) && m_compare->currentComparison()->id == id)
                    return true;
            return false;
        };
        auto* warning = m_compare->findChild<QLabel*>(QStringLiteral("setupWarning"));
        QVERIFY(warning);
        QVERIFY(show(differing));
        QVERIFY(!warning->isHidden());
        QCOMPARE(warning->text(),
                 QStringLiteral("These outputs were computed differently (fast math): they differ by more than their "
                                "strategies."));
        QVERIFY(show(agreeing));
        QVERIFY(warning->isHidden());
    }
};

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
