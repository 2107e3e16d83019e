// Explore's conversation mode through the real widgets (offscreen): a two-turn conversation on the demo
// model with a chat template chosen for it, the rendered prompt, "continue from here", a branch of a
// reply, and a stored conversation opened again. The template is hand-written, so the expected prompts
// are worked out here by hand.

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>
#include <QUndoStack>
#include <QToolButton>

#include "InferenceSession.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "explore/ConversationPanel.h"
#include "explore/ExploreView.h"
#include "explore/StrategyEditor.h"
#include "storage/RunRepository.h"

using namespace swb;

class TestConversation : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
    ExploreView* m_explore = nullptr;
    ConversationPanel* m_chat = nullptr;

    qint64 send(const QString& message) {
        m_chat->messageEdit()->setFocus();
        QTest::keyClicks(m_chat->messageEdit(), message);
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        QTest::keyClick(m_chat->messageEdit(), Qt::Key_Return, Qt::ControlModifier);
        return ended.wait(60000) ? ended.front().front().toLongLong() : -1;
    }
    QString turn(int row) const { return m_chat->turns()->item(row)->data(Qt::UserRole + 1).toString(); }
    RunRecord load(qint64 id) const {
        RunRepository runs(*m_window->database());
        return runs.loadRun(id, false).value();
    }

    // Explore in chat mode (the Conversation tab), as withoutATemplateTheUiSaysSo leaves it.
    void openChat() {
        auto* tabs = m_explore->findChild<QTabWidget*>(QStringLiteral("inputMode"));
        QVERIFY(tabs);
        QTest::mouseClick(tabs->tabBar(), Qt::LeftButton, {}, tabs->tabBar()->tabRect(1).center());
        QVERIFY(m_explore->isChatMode());
    }

    // A template that names each role, so the tests can read the rendered prompt.
    QString useRolesTemplate() {
        const QString templatePath = m_dir.filePath(QStringLiteral("roles.jinja"));
        if (!swb::test::writeFile(
                templatePath, "{% for m in messages %}{{ m.role | upper }}: {{ m.content }}<|endoftext|>\n{% endfor %}"
                              "{% if add_generation_prompt %}ASSISTANT:{% endif %}"))
            return {};
        m_explore->setChatTemplateFile(templatePath);
        return templatePath;
    }

private slots:
    void initTestCase() {
        m_window = std::make_unique<MainWindow>();
        m_window->resize(1440, 900);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QApplication::setActiveWindow(m_window.get());
        m_explore = m_window->explore();
        m_chat = m_explore->conversation();
        QTRY_VERIFY_WITH_TIMEOUT(m_explore->isModelLoaded(), 60000);
        m_explore->strategyEditor()->setStrategy(swb::test::strategyFromJson(R"({"samplers": [{"type": "greedy"}]})"));
        m_explore->maxTokens()->setValue(12);
    }

    void withoutATemplateTheUiSaysSo() {
        openChat();
        // The demo model ships no chat template: raw text, and the panel says so.
        QVERIFY(!m_chat->hasTemplate());
        QVERIFY2(m_chat->templateNote()->text().contains(QStringLiteral("no chat template")),
                 qPrintable(m_chat->templateNote()->text()));
    }

    void twoTurnConversation() {
        openChat();
        const QString templatePath = useRolesTemplate();
        QVERIFY(!templatePath.isEmpty() && m_chat->hasTemplate());
        QCOMPARE(m_chat->templateNote()->text(), QStringLiteral("Chat template: %1").arg(templatePath));

        QTest::keyClicks(m_chat->systemEdit(), QStringLiteral("Speak as the prophets."));
        const qint64 first = send(QStringLiteral("Who made the heaven?"));
        QVERIFY(first > 0);
        QCOMPARE(m_chat->turns()->count(), 2);
        QCOMPARE(turn(0), QStringLiteral("Who made the heaven?"));
        QVERIFY(m_chat->messageEdit()->toPlainText().isEmpty());
        const RunRecord one = load(first);
        QCOMPARE(one.promptText,
                 QStringLiteral("SYSTEM: Speak as the prophets.<|endoftext|>\nUSER: Who made the heaven?<|endoftext|>\n"
                                "ASSISTANT:"));
        QCOMPARE(turn(1), one.text); // the reply is the run's text
        QCOMPARE(QJsonDocument::fromJson(one.messagesJson.toUtf8()).array().size(), 2);

        const qint64 second = send(QStringLiteral("And the earth?"));
        QVERIFY(second > 0 && second != first);
        QCOMPARE(m_chat->turns()->count(), 4);
        const RunRecord two = load(second);
        QCOMPARE(two.promptText, QStringLiteral("SYSTEM: Speak as the prophets.<|endoftext|>\nUSER: Who made the "
                                                "heaven?<|endoftext|>\nASSISTANT: %1<|endoftext|>\nUSER: And the "
                                                "earth?<|endoftext|>\nASSISTANT:")
                                     .arg(one.text));
        const QJsonArray messages = QJsonDocument::fromJson(two.messagesJson.toUtf8()).array();
        QCOMPARE(messages.size(), 4);
        QCOMPARE(messages.at(2).toObject().value("role").toString(), QStringLiteral("assistant"));
        QCOMPARE(turn(3), two.text);

        // The rendered prompt of what would be sent next, with the tokenizer's count.
        auto* show = m_chat->findChild<QToolButton*>(QStringLiteral("showRenderedPrompt"));
        QVERIFY(show);
        QTest::mouseClick(show, Qt::LeftButton);
        QVERIFY(m_chat->renderedView()->isVisible());
        QVERIFY(m_chat->renderedView()->toPlainText().contains(QStringLiteral("USER: And the earth?")));
        QVERIFY(m_chat->renderedView()->toPlainText().contains(QStringLiteral("5 special")));
        QVERIFY(m_chat->renderedView()->toHtml().contains(QStringLiteral("&lt;|endoftext|&gt;</span>")));

        if (const QByteArray dir = qgetenv("SWB_SCREENSHOT_DIR"); !dir.isEmpty())
            m_window->grab().save(QString::fromLocal8Bit(dir) + QStringLiteral("/explore-chat.png"));
        QTest::mouseClick(show, Qt::LeftButton);

        // Continue from the first reply: what came after it goes.
        m_chat->turns()->setCurrentRow(1);
        auto* continueButton = m_chat->findChild<QToolButton*>(QStringLiteral("continueFromHere"));
        QVERIFY(continueButton && continueButton->isEnabled());
        QTest::mouseClick(continueButton, Qt::LeftButton);
        QCOMPARE(m_chat->turns()->count(), 2);
    }

    void branchingAReplyReplacesIt() {
        if (m_explore->run().conversationJson.isEmpty()) { // run alone: a conversation of one turn to branch
            openChat();
            QVERIFY(!useRolesTemplate().isEmpty());
            QVERIFY(send(QStringLiteral("Who made the heaven?")) > 0);
        }
        const ExploreRun parent = m_explore->run();
        QVERIFY(!parent.conversationJson.isEmpty());
        QVERIFY(parent.steps.size() > 3);
        const int step = 2;
        const auto& top = parent.steps[step].trace.top;
        const TokenId other = top[0].id == parent.steps[step].token ? top[1].id : top[0].id;
        QSignalSpy ended(m_explore, &ExploreView::generationEnded);
        m_explore->branch(step, other);
        QVERIFY(ended.wait(60000));
        const qint64 child = ended.front().front().toLongLong();
        QVERIFY(child > 0);
        const RunRecord record = load(child);
        QCOMPARE(record.messagesJson, parent.conversationJson);
        // The reply: the parent's text up to the step, the chosen token, then the branch's own text.
        const QString reply = turn(m_chat->turns()->count() - 1);
        QVERIFY2(reply.endsWith(record.text), qPrintable(reply));
        QString prefix;
        for (int i = 0; i < step; ++i)
            prefix += QString::fromStdString(parent.steps[static_cast<std::size_t>(i)].text);
        QVERIFY2(reply.startsWith(prefix), qPrintable(reply));
        // Opened again from the store, the branch shows the same reply.
        m_chat->clear();
        QVERIFY(m_explore->openRun(child));
        QCOMPARE(turn(m_chat->turns()->count() - 1), reply);
    }

    void templateTextOfYourOwn() {
        m_chat->clear();
        m_chat->systemEdit()->clear();
        m_explore->setChatTemplateText(QStringLiteral("[{{ messages | length }}]{{ messages[-1].content }}=>"));
        QVERIFY(m_chat->hasTemplate());
        QCOMPARE(m_chat->templateNote()->text(), QStringLiteral("Chat template: your template"));
        m_chat->messageEdit()->setPlainText(QStringLiteral("Hello"));
        Result<ConversationPanel::Prepared> prepared = m_chat->prepare();
        QVERIFY(prepared);
        QCOMPARE(QString::fromStdString(prepared->prompt), QStringLiteral("[1]Hello=>"));
        // A broken text: one sentence in the message bar, and the next choice down is used.
        QSignalSpy errors(m_window->session(), &InferenceSession::errorMessage);
        m_explore->setChatTemplateText(QStringLiteral("{% if %}"));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.front().front().toString().contains(QStringLiteral("does not parse: line 1")));
        // Back to the model's own (the demo model has none) through the Template menu.
        auto* button = m_chat->findChild<QToolButton*>(QStringLiteral("chatTemplateButton"));
        QVERIFY(button && button->menu());
        button->menu()->actions().at(2)->trigger();
        QVERIFY(!m_chat->hasTemplate());
        QVERIFY(m_chat->templateNote()->text().contains(QStringLiteral("no chat template")));
    }

    void stopStringsInTheEditor() {
        auto* field = m_explore->strategyEditor()->findChild<QLineEdit*>(QStringLiteral("stopStrings"));
        QVERIFY(field);
        field->setFocus();
        field->selectAll();
        QTest::keyClicks(field, QStringLiteral("the LORD | \\n\\n | a\\|b |\\ sp\\ "));
        QTest::keyClick(field, Qt::Key_Return);
        const std::vector<std::string> expected{"the LORD", "\n\n", "a|b", " sp "};
        QCOMPARE(m_explore->strategyEditor()->strategy().stop, expected);
        // Shown back the same way, and the JSON has them.
        QCOMPARE(field->text(), QStringLiteral("the LORD | \\n\\n | a\\|b | \\ sp\\ "));
        const QJsonArray stops = m_explore->strategyEditor()->strategy().toJson().value("stop").toArray();
        QCOMPARE(stops.size(), 4);
        // Undo takes them away again.
        m_explore->strategyEditor()->undoStack()->undo();
        QVERIFY(m_explore->strategyEditor()->strategy().stop.empty());
        QVERIFY(field->text().isEmpty());
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestConversation)
#include "tst_conversation.moc"
