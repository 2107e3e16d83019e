// Chat around the template engine: finding a model's template (Hugging Face files, GGUF metadata), stop
// strings across token boundaries (in the matcher, through the streaming decoder, and in the generation
// loop on the demo model), end-of-turn tokens, and the CLI (render-template, generate --chat/--messages).

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "GgufWriter.h"
#include "TestSupport.h"
#include "TinyVocabularies.h"
#include "chat/ChatTemplate.h"
#include "chat/StopStrings.h"
#include "generation/Generator.h"
#include "model/Model.h"
#include "storage/Database.h"
#include "storage/RunRepository.h"
#include "tokenizer/TokenizerLoader.h"

using namespace swb;
using swb::test::demoModel;

namespace {

QString templatesDir()
{
    return QStringLiteral(SWB_TEST_DATA_DIR "/chat-templates");
}

bool writeText(const QString& path, const QByteArray& text)
{
    return swb::test::writeFile(path, text);
}

// The reference rendering of one case of tests/data/chat-templates/expected.json.
QString expectedRendering(const QString& family, const QString& conversation, bool addGenerationPrompt)
{
    QFile file(templatesDir() + "/expected.json");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    for (const QJsonValue& c : QJsonDocument::fromJson(file.readAll()).object().value("cases").toArray()) {
        const QJsonObject o = c.toObject();
        if (o.value("template").toString() == family && o.value("conversation").toString() == conversation
            && o.value("add_generation_prompt").toBool() == addGenerationPrompt)
            return o.value("output").toString();
    }
    return {};
}

QByteArray conversationJson(const QString& name)
{
    QFile file(templatesDir() + "/conversations.json");
    if (!file.open(QIODevice::ReadOnly))
        return {};
    // Re-serialising through QJsonDocument would sort keys; cut the object out of the text instead is
    // brittle, so only conversations without tools (whose key order does not show) are taken this way.
    for (const QJsonValue& c : QJsonDocument::fromJson(file.readAll()).array())
        if (c.toObject().value("name").toString() == name)
            return QJsonDocument(c.toObject().value("messages").toArray()).toJson(QJsonDocument::Compact);
    return {};
}

} // namespace

class TestChat : public QObject {
    Q_OBJECT

private slots:
    // Issue 39: without tools the template sees tools = None, as transformers passes it (Phi-4-mini's
    // template tests `tools is not none`), and the tools it is given when there are some.
    void toolsAreNoneWithoutTools() {
        Result<ChatTemplate> t = ChatTemplate::fromText(
            "{% if tools is not none %}tools:{{ tools | length }}{% else %}no tools{% endif %}", "t");
        QVERIFY(t);
        QCOMPARE(t->render(R"([{"role": "user", "content": "hi"}])", false).value(), std::string("no tools"));
        QCOMPARE(t->render(R"({"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function"}]})",
                           false)
                     .value(),
                 std::string("tools:1"));
    }
    void stopStrings_data();
    void stopStrings();
    void stopStringAcrossASplitCharacter();
    void generationStopsAtStrings();
    void templateFromHuggingFaceFiles();
    void templateFromGguf();
    void badTemplateIsOneSentence();
    void endOfTurnTokensFromGguf();
    void renderTemplateCommand();
    void generateFromAConversation();
    void batchRunsConversations();
    void chatInTheTerminal();
    void modelWithABadTemplateStillOpens();
};

void TestChat::stopStrings_data()
{
    QTest::addColumn<QStringList>("stops");
    QTest::addColumn<QStringList>("pieces");
    QTest::addColumn<QStringList>("shown"); // what each push returns, then what flush returns
    QTest::addColumn<QString>("matched");
    QTest::newRow("inside one piece") << QStringList{"END"} << QStringList{"hello END world"}
                                      << QStringList{"hello ", ""} << "END";
    QTest::newRow("across two pieces") << QStringList{"END"} << QStringList{"hel", "lo E", "ND x"}
                                       << QStringList{"hel", "lo ", "", ""} << "END";
    QTest::newRow("across three pieces") << QStringList{"<|end|>"} << QStringList{"a<", "|e", "nd|>b"}
                                         << QStringList{"a", "", "", ""} << "<|end|>";
    QTest::newRow("held back, then released") << QStringList{"END"} << QStringList{"ab E", "NX"}
                                              << QStringList{"ab ", "ENX", ""} << "";
    QTest::newRow("held at the end, flushed") << QStringList{"END"} << QStringList{"x EN"} << QStringList{"x ", "EN"}
                                              << "";
    QTest::newRow("earliest match wins") << QStringList{"world", "lo w"} << QStringList{"hello world"}
                                         << QStringList{"hel", ""} << "lo w";
    QTest::newRow("nothing after a match") << QStringList{"."} << QStringList{"a.", "more"} << QStringList{"a", "", ""}
                                           << ".";
    QTest::newRow("no stops") << QStringList{} << QStringList{"a", "b"} << QStringList{"a", "b", ""} << "";
}

void TestChat::stopStrings()
{
    QFETCH(QStringList, stops);
    QFETCH(QStringList, pieces);
    QFETCH(QStringList, shown);
    QFETCH(QString, matched);
    std::vector<std::string> s;
    for (const QString& stop : stops)
        s.push_back(stop.toStdString());
    StopStrings matcher(s);
    QStringList got;
    for (const QString& piece : pieces)
        got << QString::fromStdString(matcher.push(piece.toStdString()));
    got << QString::fromStdString(matcher.flush());
    QCOMPARE(got, shown);
    QCOMPARE(matcher.stopped(), !matched.isEmpty());
    QCOMPARE(QString::fromStdString(matcher.matched()), matched);
}

void TestChat::stopStringAcrossASplitCharacter()
{
    // Byte-level vocabulary: token b is byte b, so "é" (C3 A9) comes as two tokens, each half a character.
    QTemporaryDir dir;
    QVERIFY(swb::test::writeTinyVocabularies(dir.path()));
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(dir.filePath("tiny-bpe.gguf"));
    QVERIFY(tokenizer);
    for (const char* stop : {"\xc3\xa9!", "\xc3\xa9"}) {
        StreamingDecoder decoder(*tokenizer.value());
        StopStrings matcher({stop});
        std::string shown;
        std::vector<std::string> perToken;
        for (TokenId id : {TokenId('a'), TokenId(0xC3), TokenId(0xA9), TokenId('!'), TokenId('b')}) {
            if (matcher.stopped())
                break;
            const std::string text = decoder.push(id);
            perToken.push_back(text);
            shown += matcher.push(text);
        }
        QCOMPARE(perToken[1], std::string()); // half a character is held by the decoder
        QCOMPARE(shown, std::string("a"));
        QVERIFY(matcher.stopped());
    }
}

void TestChat::generationStopsAtStrings()
{
    Result<std::unique_ptr<Model>> model = Model::load(demoModel());
    QVERIFY(model);
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(demoModel());
    QVERIFY(tokenizer);
    Generator generator(*model.value(), *tokenizer.value());
    GenerationRequest request;
    request.prompt = "And God said unto Moses";
    request.strategy = Strategy::parse("greedy").value();
    request.maxTokens = 60;
    const Result<GenerationResult> free = generator.generate(request);
    QVERIFY(free);
    const std::string& full = free->text;
    // Stop strings made of the free run's own text that span two and three tokens.
    std::vector<std::size_t> starts; // byte offset where each step's text begins
    std::size_t offset = 0;
    for (const GeneratedStep& step : free->steps) {
        starts.push_back(offset);
        offset += step.text.size();
    }
    for (int span : {2, 3}) {
        std::size_t first = 0;
        while (first + span < free->steps.size() && free->steps[first].text.size() < 2)
            ++first;
        QVERIFY(first + span < free->steps.size());
        // From the middle of step `first` to the middle of step first+span-1.
        const std::size_t from = starts[first] + 1;
        const std::size_t to = starts[first + span - 1] + std::max<std::size_t>(1, free->steps[first + span - 1].text.size() / 2);
        const std::string stop = full.substr(from, to - from);
        for (const GeneratedStep& step : free->steps)
            QVERIFY(step.text.find(stop) == std::string::npos); // it really spans tokens
        GenerationRequest stopping = request;
        stopping.strategy.stop = {stop};
        const Result<GenerationResult> cut = generator.generate(stopping);
        QVERIFY(cut);
        QCOMPARE(cut->finish, FinishReason::StopString);
        QCOMPARE(cut->stopString, stop);
        QCOMPARE(cut->text, full.substr(0, full.find(stop)));
        QCOMPARE(cut->steps.size(), first + span); // stopped at the token that completed it
        std::string shown;
        for (const GeneratedStep& step : cut->steps)
            shown += step.shown;
        QCOMPARE(shown, cut->text);
    }
    // A stop string found only in the prompt does not stop the run.
    GenerationRequest inPrompt = request;
    inPrompt.strategy.stop = {"God said"};
    QVERIFY(full.find("God said") == std::string::npos);
    const Result<GenerationResult> notCut = generator.generate(inPrompt);
    QVERIFY(notCut);
    QCOMPARE(notCut->text, full);
    QCOMPARE(notCut->finish, free->finish);
    // The batched loop cuts the same way.
    GenerationRequest batched = request;
    batched.strategy.stop = {full.substr(3, 5)};
    const auto results = generator.generateBatch({batched, request});
    QVERIFY(results[0] && results[1]);
    QCOMPARE(results[0]->text, full.substr(0, full.find(full.substr(3, 5))));
    QCOMPARE(results[0]->finish, FinishReason::StopString);
    QCOMPARE(results[1]->text, full);
}

void TestChat::templateFromHuggingFaceFiles()
{
    QTemporaryDir dir;
    // A list of named templates: "default" is the one; tokens as AddedToken objects.
    QVERIFY(writeText(dir.filePath("tokenizer_config.json"), R"({
        "bos_token": {"content": "<s>", "lstrip": false}, "eos_token": "</s>",
        "chat_template": [{"name": "tool_use", "template": "TOOLS"},
                          {"name": "default", "template": "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{{ eos_token }}{% endfor %}"}]})"));
    Result<std::optional<ChatTemplate>> found = ChatTemplate::forModel(dir.path());
    QVERIFY(found && found.value());
    QCOMPARE(found.value()->origin(), QStringLiteral("tokenizer_config.json"));
    Result<std::string> out = found.value()->render(R"([{"role": "user", "content": "hi"}])", false);
    QVERIFY(out);
    QCOMPARE(QString::fromStdString(out.value()), QStringLiteral("<s>[user]hi</s>"));
    // chat_template.jinja beside it wins, as in transformers.
    QVERIFY(writeText(dir.filePath("chat_template.jinja"), "J{{ messages | length }}{% if add_generation_prompt %}>{% endif %}\n"));
    found = ChatTemplate::forModel(dir.path());
    QVERIFY(found && found.value());
    QCOMPARE(found.value()->origin(), QStringLiteral("chat_template.jinja"));
    out = found.value()->render(R"({"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]})", true);
    QVERIFY(out);
    QCOMPARE(QString::fromStdString(out.value()), QStringLiteral("J2>"));
    // No template at all: nullopt, not an error.
    QTemporaryDir bare;
    QVERIFY(writeText(bare.filePath("tokenizer_config.json"), R"({"eos_token": "</s>"})"));
    found = ChatTemplate::forModel(bare.path());
    QVERIFY(found && !found.value());
    // A conversation that is not one: a sentence.
    QCOMPARE(ChatTemplate::fromText("x", "t").value().render(R"([{"content": "no role"}])", false).error().message,
        QStringLiteral("message 1 of the conversation has no \"role\""));
    QCOMPARE(ChatTemplate::fromText("x", "t").value().render("[1, 2", false).error().message,
        QStringLiteral("the conversation is not valid JSON: expected ',' at byte 5"));
}

void TestChat::templateFromGguf()
{
    QTemporaryDir dir;
    swb::test::GgufWriter w;
    w.addString("general.architecture", "llama");
    w.addStringArray("tokenizer.ggml.tokens", {"<unk>", "<|begin|>", "<|end|>"});
    w.addUint32("tokenizer.ggml.bos_token_id", 1);
    w.addUint32("tokenizer.ggml.eos_token_id", 2);
    w.addString("tokenizer.chat_template", "{{ bos_token }}{{ messages[0]['content'] | upper }}{{ eos_token }}");
    QVERIFY(w.write(dir.filePath("m.gguf")));
    Result<std::optional<ChatTemplate>> found = ChatTemplate::forModel(dir.filePath("m.gguf"));
    QVERIFY(found && found.value());
    QCOMPARE(found.value()->origin(), QStringLiteral("GGUF tokenizer.chat_template"));
    QCOMPARE(QString::fromStdString(found.value()->render(R"([{"role": "user", "content": "loud"}])", false).value()),
        QStringLiteral("<|begin|>LOUD<|end|>"));
}

void TestChat::badTemplateIsOneSentence()
{
    QTemporaryDir dir;
    QVERIFY(writeText(dir.filePath("tokenizer_config.json"), R"({"chat_template": "line one\n{% for m in messages %}\n{{ m | nosuch }}"})"));
    Result<std::optional<ChatTemplate>> found = ChatTemplate::forModel(dir.path());
    QVERIFY(!found);
    QCOMPARE(found.error().message,
        QStringLiteral("the chat template of tokenizer_config.json does not parse: line 2: '{% for %}' is never closed with '{% endfor %}'"));
    // An unknown filter is found when parsing, naming the line.
    Result<ChatTemplate> t = ChatTemplate::fromText("a\n{{ messages | nosuch }}", "mine.jinja");
    QVERIFY(!t);
    QCOMPARE(t.error().message,
             QStringLiteral("the chat template of mine.jinja does not parse: line 2: unknown filter 'nosuch'"));
    // The CLI says the same and exits 2; generating from a raw prompt still works with that model.
    QVERIFY(writeText(dir.filePath("bad.jinja"), "{% if %}"));
    QVERIFY(writeText(dir.filePath("c.json"), R"([{"role": "user", "content": "x"}])"));
    const auto run = swb::test::runSwbProcess({"render-template", "--messages", dir.filePath("c.json"), "--chat-template",
        dir.filePath("bad.jinja")});
    QCOMPARE(run.status, 2);
    QCOMPARE(run.err.trimmed().count('\n'), 0);
    QVERIFY2(run.err.contains("does not parse: line 1: expected a value but found the end of the tag"), run.err.constData());
}

void TestChat::endOfTurnTokensFromGguf()
{
    QTemporaryDir dir;
    const auto write = [&](const QString& name, bool withEotId) {
        swb::test::GgufWriter w;
        w.addString("general.architecture", "gpt2");
        w.addString("tokenizer.ggml.model", "gpt2");
        w.addString("tokenizer.ggml.pre", "gpt-2");
        w.addStringArray("tokenizer.ggml.tokens", {"a", "b", "<|im_start|>", "<|im_end|>", "<|endoftext|>", "ab"});
        w.addInt32Array("tokenizer.ggml.token_type", {1, 1, 3, 3, 3, 1});
        w.addStringArray("tokenizer.ggml.merges", {"a b"});
        w.addUint32("tokenizer.ggml.eos_token_id", 4);
        if (withEotId)
            w.addUint32("tokenizer.ggml.eot_token_id", 2);
        return w.write(dir.filePath(name));
    };
    QVERIFY(write("spelled.gguf", false));
    QVERIFY(write("named.gguf", true));
    Result<std::unique_ptr<Tokenizer>> spelled = loadTokenizer(dir.filePath("spelled.gguf"));
    QVERIFY2(spelled, qPrintable(spelled ? QString() : spelled.error().message));
    QCOMPARE(spelled.value()->specialTokens().endOfTurn, std::vector<TokenId>{3}); // <|im_end|>; EOS is 4
    Result<std::unique_ptr<Tokenizer>> named = loadTokenizer(dir.filePath("named.gguf"));
    QVERIFY(named);
    QCOMPARE(named.value()->specialTokens().endOfTurn, std::vector<TokenId>{2}); // what the file says wins
}

void TestChat::renderTemplateCommand()
{
    QTemporaryDir dir;
    const QByteArray conversation = conversationJson("multi_turn");
    QVERIFY(!conversation.isEmpty());
    QVERIFY(writeText(dir.filePath("c.json"), conversation));
    for (bool generationPrompt : {false, true}) {
        QStringList args{"render-template", "--messages", dir.filePath("c.json"), "--chat-template",
            templatesDir() + "/templates/qwen2_5.jinja"};
        if (generationPrompt)
            args << "--add-generation-prompt";
        const auto run = swb::test::runSwbProcess(args);
        QCOMPARE(run.status, 0);
        const QString expected = expectedRendering("qwen2_5", "multi_turn", generationPrompt);
        QVERIFY(!expected.isEmpty());
        QCOMPARE(QString::fromUtf8(run.out), expected);
    }
    // The demo model has no template: one sentence, exit 2.
    const auto none = swb::test::runSwbProcess({"render-template", "--messages", dir.filePath("c.json")});
    QCOMPARE(none.status, 2);
    QVERIFY2(none.err.contains("has no chat template; give one with --chat-template"), none.err.constData());
    // Malformed conversations.
    QVERIFY(writeText(dir.filePath("bad.json"), R"({"messages": "no"})"));
    const auto bad = swb::test::runSwbProcess({"render-template", "--messages", dir.filePath("bad.json"), "--chat-template",
        templatesDir() + "/templates/qwen2_5.jinja"});
    QCOMPARE(bad.status, 2);
    QVERIFY2(bad.err.contains("bad.json: the conversation has no \"messages\" array"), bad.err.constData());
}

void TestChat::generateFromAConversation()
{
    QTemporaryDir dir;
    QVERIFY(writeText(dir.filePath("t.jinja"),
        "{% for m in messages %}{{ m.role | upper }}: {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}ASSISTANT:{% endif %}"));
    QVERIFY(writeText(dir.filePath("c.json"), R"([{"role": "system", "content": "Speak as the prophets."}, {"role": "user", "content": "Who made the heaven?"}])"));
    const QString db = dir.filePath("runs.sqlite");
    const auto run = swb::test::runSwbProcess({"generate", "--messages", dir.filePath("c.json"), "--chat-template",
        dir.filePath("t.jinja"), "--max-tokens", "12", "--json", "--db", db});
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    const QString rendered = QStringLiteral("SYSTEM: Speak as the prophets.\nUSER: Who made the heaven?\nASSISTANT:");
    QCOMPARE(out.value("prompt").toString(), rendered);
    // The run store keeps the messages and the rendered prompt.
    Result<std::unique_ptr<Database>> store = Database::open(db, Database::Access::ReadOnly);
    QVERIFY(store);
    RunRepository runs(*store.value());
    Result<RunRecord> saved = runs.loadRun(out.value("run_id").toInteger(), false);
    QVERIFY(saved);
    QCOMPARE(saved->promptText, rendered);
    QCOMPARE(QJsonDocument::fromJson(saved->messagesJson.toUtf8()).array().at(1).toObject().value("content").toString(),
        QStringLiteral("Who made the heaven?"));
    // --chat wraps --prompt as the user's message, after --system; the result equals --messages.
    const auto wrapped = swb::test::runSwbProcess({"generate", "--prompt", "Who made the heaven?", "--system",
        "Speak as the prophets.", "--chat-template", dir.filePath("t.jinja"), "--max-tokens", "12", "--json"});
    QCOMPARE(wrapped.status, 0);
    const QJsonObject again = QJsonDocument::fromJson(wrapped.out).object();
    QCOMPARE(again.value("prompt").toString(), rendered);
    QCOMPARE(again.value("text").toString(), out.value("text").toString());
    // --stop on the command line ends the text before it.
    const QString text = out.value("text").toString();
    QVERIFY(text.size() > 6);
    const QString stop = text.mid(2, 3);
    const auto stopped = swb::test::runSwbProcess({"generate", "--messages", dir.filePath("c.json"), "--chat-template",
        dir.filePath("t.jinja"), "--max-tokens", "12", "--stop", stop});
    QCOMPARE(stopped.status, 0);
    QCOMPARE(QString::fromUtf8(stopped.out), text.left(text.indexOf(stop)) + "\n");
}

void TestChat::batchRunsConversations()
{
    QTemporaryDir dir;
    QVERIFY(writeText(dir.filePath("t.jinja"), "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}<assistant>"));
    QVERIFY(writeText(dir.filePath("prompts.jsonl"),
        "{\"prompt\": \"And God said\"}\n"
        "{\"messages\": [{\"role\": \"user\", \"content\": \"Who is the LORD?\"}], \"id\": 7}\n"));
    const QString db = dir.filePath("runs.sqlite");
    // Without a template, nothing runs: one sentence, exit 2, no run saved.
    const auto refused = swb::test::runSwbProcess({"batch", "--prompts", dir.filePath("prompts.jsonl"), "--strategy",
        "greedy", "--max-tokens", "6", "--db", db});
    QCOMPARE(refused.status, 2);
    QVERIFY2(refused.err.contains("prompts.jsonl holds conversations, but") && refused.err.contains("has no chat template"),
        refused.err.constData());
    QVERIFY(!QFile::exists(db));
    const auto run = swb::test::runSwbProcess({"batch", "--prompts", dir.filePath("prompts.jsonl"), "--strategy",
        "greedy", "--max-tokens", "6", "--db", db, "--chat-template", dir.filePath("t.jinja")});
    QVERIFY2(run.status == 0, run.err.constData());
    Result<std::unique_ptr<Database>> store = Database::open(db, Database::Access::ReadOnly);
    QVERIFY(store);
    RunRepository runs(*store.value());
    Result<std::vector<RunSummary>> list = runs.listRuns();
    QVERIFY(list && list->size() == 2);
    int conversations = 0;
    for (const RunSummary& summary : list.value()) {
        const RunRecord record = runs.loadRun(summary.id, false).value();
        if (record.messagesJson.isEmpty()) {
            QCOMPARE(record.promptText, QStringLiteral("And God said"));
            continue;
        }
        ++conversations;
        QCOMPARE(record.promptText, QStringLiteral("<user>Who is the LORD?<assistant>"));
        QVERIFY(record.messagesJson.contains("\"id\": 7"));
    }
    QCOMPARE(conversations, 1);
    // A conversation line that is not one names its line.
    QVERIFY(writeText(dir.filePath("bad.jsonl"), "{\"prompt\": \"x\"}\n{\"messages\": [{\"content\": \"no role\"}]}\n"));
    const auto bad = swb::test::runSwbProcess({"batch", "--prompts", dir.filePath("bad.jsonl"), "--strategy", "greedy",
        "--db", dir.filePath("other.sqlite")});
    QCOMPARE(bad.status, 2);
    QVERIFY2(bad.err.contains("bad.jsonl, line 2: message 1 of the conversation has no \"role\""), bad.err.constData());
}

void TestChat::chatInTheTerminal()
{
    QTemporaryDir dir;
    QVERIFY(writeText(dir.filePath("t.jinja"),
        "{% for m in messages %}{{ m.role | upper }}: {{ m.content }}\n{% endfor %}{% if add_generation_prompt %}ASSISTANT:{% endif %}"));
    // Two turns, a reset, a system prompt, and one more turn; greedy, so each reply equals `generate` on the
    // same conversation.
    const QByteArray input = "Who made the heaven?\nAnd the earth?\n/reset\n/system Speak as the prophets.\nWho made the heaven?\n/quit\n";
    const auto run = swb::test::runProcess(QStringLiteral(SWB_CLI_PATH),
        {"chat", "--chat-template", dir.filePath("t.jinja"), "--max-tokens", "10"}, 120000, input);
    QVERIFY2(run.status == 0, run.err.constData());
    const QList<QByteArray> replies = run.out.split('\n');
    QVERIFY(replies.size() >= 3);
    const auto expected = [&](const QByteArray& messages) {
        writeText(dir.filePath("c.json"), messages);
        const auto g = swb::test::runSwbProcess({"generate", "--messages", dir.filePath("c.json"), "--chat-template",
            dir.filePath("t.jinja"), "--max-tokens", "10", "--json"});
        return QJsonDocument::fromJson(g.out).object().value("text").toString().toUtf8();
    };
    const QByteArray first = expected(R"([{"role": "user", "content": "Who made the heaven?"}])");
    QCOMPARE(replies[0], first);
    QJsonArray second{QJsonObject{{"role", "user"}, {"content", "Who made the heaven?"}},
        QJsonObject{{"role", "assistant"}, {"content", QString::fromUtf8(first)}},
        QJsonObject{{"role", "user"}, {"content", "And the earth?"}}};
    QCOMPARE(replies[1], expected(QJsonDocument(second).toJson(QJsonDocument::Compact)));
    QCOMPARE(replies[2], expected(R"([{"role": "system", "content": "Speak as the prophets."}, {"role": "user", "content": "Who made the heaven?"}])"));
    QVERIFY(run.err.contains("(conversation cleared)"));
}

void TestChat::modelWithABadTemplateStillOpens()
{
    // The demo model with a tokenizer_config.json whose template does not parse, and one with a 1 MB template.
    QTemporaryDir dir;
    for (const QString& name : QDir(demoModel()).entryList(QDir::Files))
        QVERIFY(QFile::copy(demoModel() + "/" + name, dir.filePath(name)));
    QVERIFY(writeText(dir.filePath("tokenizer_config.json"), R"({"chat_template": "{% for m in messages %}{{ m.content }"})"));
    // Raw prompts generate as before.
    const auto raw = swb::test::runSwbProcess({"generate", "--model", dir.path(), "--prompt", "And God said", "--max-tokens", "4"});
    QVERIFY2(raw.status == 0, raw.err.constData());
    // The template's problem is one sentence where a template is needed...
    QVERIFY(writeText(dir.filePath("c.json"), R"([{"role": "user", "content": "hi"}])"));
    const auto render = swb::test::runSwbProcess({"render-template", "--model", dir.path(), "--messages", dir.filePath("c.json")});
    QCOMPARE(render.status, 2);
    QVERIFY2(render.err.startsWith("swb: the chat template of tokenizer_config.json does not parse: line 1:"), render.err.constData());
    QCOMPARE(render.err.trimmed().count('\n'), 0);
    // ...and swb chat says so and goes on with raw prompts.
    const auto chat = swb::test::runProcess(QStringLiteral(SWB_CLI_PATH), {"chat", "--model", dir.path(), "--max-tokens", "4"},
        60000, "And God said\n");
    QVERIFY2(chat.status == 0, chat.err.constData());
    QVERIFY(chat.err.contains("does not parse") && chat.err.contains("used as a raw prompt"));
    QVERIFY(!chat.out.trimmed().isEmpty());

    // A 1 MB template (a long system text in a macro, called once) renders like a small one.
    std::string big = "{% macro preamble() %}";
    while (big.size() < (1u << 20))
        big += "Thou shalt render this line exactly. ";
    big += "{% endmacro %}{{ preamble() | length > 0 }}|{{ messages[0].content }}";
    QVERIFY(writeText(dir.filePath("big.jinja"), QByteArray::fromStdString(big)));
    const auto large = swb::test::runSwbProcess({"render-template", "--model", dir.path(), "--messages", dir.filePath("c.json"),
        "--chat-template", dir.filePath("big.jinja")});
    QVERIFY2(large.status == 0, large.err.constData());
    QCOMPARE(large.out, QByteArray("True|hi"));
}

QTEST_GUILESS_MAIN(TestChat)
#include "tst_chat.moc"
