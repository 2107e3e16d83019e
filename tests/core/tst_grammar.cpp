// The grammar stage. GBNF grammars written by hand with the strings they accept and refuse worked out by
// hand; the refusals (syntax at line and column, undefined rules, left recursion, a grammar that accepts
// nothing, size); the token mask at the byte level on a vocabulary made for it (tokens ending inside a
// UTF-8 character, spanning several grammar elements, byte tokens, special tokens, the end token only
// where the text is complete); the stage's kept mass against the removed tokens' probabilities summed
// here; its place in the chain; a dead end ending a run.

#include <cmath>
#include <set>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "JsonSchemaCheck.h"
#include "TestSupport.h"
#include "cli/RandomModelWriter.h"
#include "generation/Generator.h"
#include "grammar/Grammar.h"
#include "grammar/GrammarAutomaton.h"
#include "grammar/JsonSchemaGrammar.h"
#include "model/Model.h"
#include "sampling/SamplerChain.h"
#include "sampling/Strategy.h"
#include "tokenizer/TokenizerLoader.h"

using namespace swb;

namespace {

// A vocabulary given by its pieces; ids 0 and 1 are the special <s> and </s> (EOS).
class PieceTokenizer final : public Tokenizer {
public:
    explicit PieceTokenizer(std::vector<std::string> pieces)
        : m_pieces(std::move(pieces)) {
        m_pieces.insert(m_pieces.begin(), {"<s>", "</s>"});
        m_special.bos = 0;
        m_special.eos = 1;
    }
    QString kind() const override { return QStringLiteral("test pieces"); }
    int vocabSize() const override { return static_cast<int>(m_pieces.size()); }
    const SpecialTokens& specialTokens() const override { return m_special; }
    std::vector<TokenId> encode(const std::string&, bool, bool) const override { return {}; }
    std::string decode(const std::vector<TokenId>& ids) const override {
        std::string out;
        for (TokenId id : ids)
            out += piece(id);
        return out;
    }
    std::string piece(TokenId id) const override {
        return id < 2 ? std::string() : m_pieces[static_cast<std::size_t>(id)];
    }
    std::string tokenText(TokenId id) const override { return m_pieces[static_cast<std::size_t>(id)]; }
    bool isSpecial(TokenId id) const override { return id < 2; }

private:
    std::vector<std::string> m_pieces;
    SpecialTokens m_special;
};

Grammar grammarOf(const std::string& gbnf) {
    Result<Grammar> grammar = parseGbnf(gbnf);
    if (!grammar)
        qFatal("%s", qPrintable(grammar.error().message));
    return std::move(grammar).value();
}

// Whether the grammar accepts text as a whole string.
bool accepts(GrammarAutomaton& automaton, const std::string& text) {
    const GrammarAutomaton::State state = automaton.advance(automaton.start(), text);
    return !GrammarAutomaton::dead(state) && automaton.complete(state);
}

SamplerChain grammarChain(const Tokenizer& tokenizer, const QJsonArray& samplers) {
    Result<Strategy> strategy = Strategy::fromJson(QJsonObject{{"samplers", samplers}});
    if (!strategy)
        qFatal("%s", qPrintable(strategy.error().message));
    Result<SamplerChain> chain = SamplerChain::build(strategy.value(), &tokenizer, 7);
    if (!chain)
        qFatal("%s", qPrintable(chain.error().message));
    return std::move(chain).value();
}

QJsonObject gbnfStage(const char* gbnf) {
    return QJsonObject{{"type", "grammar"}, {"gbnf", gbnf}};
}

// The ids the chain's stages before the selector let through on a row of equal logits.
std::vector<TokenId> allowedIds(SamplerChain& chain, int vocab) {
    Candidates candidates(std::vector<float>(static_cast<std::size_t>(vocab), 0.0f));
    chain.process(candidates, {});
    std::vector<TokenId> ids(candidates.ids().begin(), candidates.ids().end());
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace

class GrammarTest : public QObject {
    Q_OBJECT

private slots:
    void handWrittenGrammars_data();
    void handWrittenGrammars();
    void partialCharacters();
    void refusals_data();
    void refusals();
    void tokenMaskAtTheByteLevel();
    void endTokenOnlyWhereComplete();
    void keptMassIsTheMassLeft();
    void placeInTheChain();
    void deadEndStopsTheSample();
    void ambiguityWithoutBoundStopsCleanly();
    void jsonSchemaRefusesWhatItDoesNotKnow_data();
    void jsonSchemaRefusesWhatItDoesNotKnow();
    void jsonSchemaGrammarsByHand();
    void seededRunsFollowTheirSchemas_data();
    void seededRunsFollowTheirSchemas();
};

void GrammarTest::handWrittenGrammars_data() {
    QTest::addColumn<QString>("gbnf");
    QTest::addColumn<QStringList>("accepted");
    QTest::addColumn<QStringList>("refused");
    QTest::newRow("alternatives") << "root ::= \"a\" | \"b\" \"c\"" << QStringList{"a", "bc"}
                                  << QStringList{"", "b", "ac", "abc", "bcc"};
    QTest::newRow("counted") << "root ::= [0-9]{2,3}" << QStringList{"12", "123", "000"}
                             << QStringList{"1", "1234", "1a", ""};
    QTest::newRow("at least") << "root ::= \"ab\"{2,}" << QStringList{"abab", "ababab"} << QStringList{"ab", "aba", ""};
    QTest::newRow("at most") << "root ::= \"x\"{,2} \"y\"" << QStringList{"y", "xy", "xxy"} << QStringList{"xxxy", "x"};
    QTest::newRow("star plus optional") << "root ::= \"x\"* \"y\"+ \"z\"?" << QStringList{"y", "xxy", "yyyz", "xyz"}
                                        << QStringList{"x", "z", "yzz", "zy"};
    QTest::newRow("negated class and escapes")
        << "root ::= [^a-c\\n]+ \"\\x41\" \"\\u00e9\"" << QStringList{"dzA\u00e9", "!!A\u00e9"}
        << QStringList{"aA\u00e9", "dA", "\nA\u00e9", "A\u00e9"};
    QTest::newRow("any character") << "root ::= . \"!\"" << QStringList{"\u00e9!", "a!", "\u4e2d!"}
                                   << QStringList{"ab!", "!"};
    QTest::newRow("groups, rules and comments")
        << "# a list of words\nroot ::= word (\",\" word)* end # then a dot\n\nword ::= [a-z]+\nend ::= \".\""
        << QStringList{"a.", "ab,c.", "x,y,z."} << QStringList{"a", ",a.", "a,.", "A."};
    QTest::newRow("alternatives over lines")
        << "root ::= (\n  \"yes\" |\n  \"no\"\n)" << QStringList{"yes", "no"} << QStringList{"yesno", ""};
    QTest::newRow("empty alternative") << "root ::= \"a\" opt\nopt ::= \"b\" | " << QStringList{"a", "ab"}
                                       << QStringList{"b", "abb"};
    QTest::newRow("range and alternatives in a class")
        << "root ::= [a-cx0-1_]+" << QStringList{"ax0_", "b1"} << QStringList{"d", "2", "-"};
    QTest::newRow("right recursion") << "root ::= \"(\" root \")\" | \"\"" << QStringList{"", "()", "(())"}
                                     << QStringList{"(", "())", ")("};
    QTest::newRow("astral plane") << "root ::= [\\U0001F600-\\U0001F64F]" << QStringList{"\U0001F60A"}
                                  << QStringList{"\U0001F680", "a"};
}

void GrammarTest::handWrittenGrammars() {
    QFETCH(QString, gbnf);
    QFETCH(QStringList, accepted);
    QFETCH(QStringList, refused);
    GrammarAutomaton automaton(grammarOf(gbnf.toStdString()), nullptr);
    for (const QString& text : accepted)
        QVERIFY2(accepts(automaton, text.toStdString()), qPrintable("refused: " + text));
    for (const QString& text : refused)
        QVERIFY2(!accepts(automaton, text.toStdString()), qPrintable("accepted: " + text));
}

void GrammarTest::partialCharacters() {
    // é is C3 A9: after C3 the grammar waits; a byte that cannot finish a character it allows is refused.
    GrammarAutomaton automaton(grammarOf("root ::= \"\u00e9\" | \"\u00c0x\""), nullptr);
    const GrammarAutomaton::State half = automaton.advance(automaton.start(), "\xC3");
    QVERIFY(!GrammarAutomaton::dead(half));
    QVERIFY(!automaton.complete(half));
    QVERIFY(automaton.complete(automaton.advance(half, "\xA9")));
    QVERIFY(GrammarAutomaton::dead(automaton.advance(half, "\xA8")));                  // U+00E8 is not in the grammar
    QVERIFY(GrammarAutomaton::dead(automaton.advance(automaton.start(), "\xC4")));     // U+0100..U+013F: none allowed
    QVERIFY(GrammarAutomaton::dead(automaton.advance(automaton.start(), "\xA9")));     // a continuation byte first
    QVERIFY(GrammarAutomaton::dead(automaton.advance(automaton.start(), "\xC3\x28"))); // not a continuation
    QVERIFY(!automaton.complete(automaton.advance(automaton.start(), "\xC3\x80")));
    QVERIFY(automaton.complete(automaton.advance(automaton.start(), "\xC3\x80x")));
}

void GrammarTest::refusals_data() {
    QTest::addColumn<QString>("gbnf");
    QTest::addColumn<QString>("message");
    QTest::newRow("no ::=") << "root \"a\""
                            << "grammar line 1, column 6: expected '::=' after the rule name 'root'";
    QTest::newRow("unclosed literal") << "root ::= x\nx ::= \"abc"
                                      << "grammar line 2, column 7: the string literal is not closed";
    QTest::newRow("unclosed class") << "root ::= [a-z"
                                    << "grammar line 1, column 10: the character class is not closed";
    QTest::newRow("unclosed group") << "root ::= (\"a\"\n"
                                    << "grammar line 1, column 10: the group opened here is not closed";
    QTest::newRow("bad escape") << "root ::= \"\\q\""
                                << "grammar line 1, column 11: unknown escape '\\q'";
    QTest::newRow("undefined rule") << "root ::= item\nitem ::= \"i\"\nother ::= missing"
                                    << "grammar line 3, column 11: rule 'missing' is used but never defined";
    QTest::newRow("no root") << "start ::= \"a\""
                             << "the grammar has no rule named 'root'";
    QTest::newRow("left recursion") << "root ::= root \"a\" | \"b\""
                                    << "left-recursive: rule 'root'";
    QTest::newRow("left recursion through a nullable rule")
        << "root ::= a\na ::= b c\nb ::= \"x\"?\nc ::= a \"y\" | \"z\""
        << "left-recursive";
    QTest::newRow("accepts nothing") << "root ::= \"a\" root"
                                     << "the grammar accepts no string";
    QTest::newRow("repeats nothing") << "root ::= * \"a\""
                                     << "grammar line 1, column 10: '*' repeats nothing";
    QTest::newRow("max below min") << "root ::= \"a\"{3,2}"
                                   << "the repetition's maximum 2 is below its minimum 3";
    QTest::newRow("huge count") << "root ::= \"a\"{1000000}"
                                << "a repetition count is at most 10000";
    QTest::newRow("defined twice") << "root ::= \"a\"\nroot ::= \"b\""
                                   << "rule 'root' is defined twice";
    QTest::newRow("empty") << "  # nothing\n"
                           << "the grammar is empty";
    QTest::newRow("10 MB") << QString("root ::= \"") + QString(10 << 20, 'a') + "\""
                           << "the grammar is 10485771 bytes; at most 1048576 are accepted";
}

void GrammarTest::refusals() {
    QFETCH(QString, gbnf);
    QFETCH(QString, message);
    Result<Grammar> grammar = parseGbnf(gbnf.toStdString());
    QVERIFY(!grammar);
    QVERIFY2(grammar.error().message.contains(message), qPrintable(grammar.error().message));
    QCOMPARE(grammar.error().kind, ErrorKind::BadInput);
}

void GrammarTest::tokenMaskAtTheByteLevel() {
    // ids:            2    3     4     5      6       7       8        9      10    11     12
    PieceTokenizer vocab({"{", "\"", "\"a", "ab", "\xC3", "\xA9", "\xC3\xA9", "\"}", "{\"", "b\"}", "}"});
    SamplerChain chain =
        grammarChain(vocab, {gbnfStage(R"(root ::= "{" "\"" [a-b]* "é"? "\"" "}")"), QJsonObject{{"type", "greedy"}}});
    // At the start only "{" and "{\"" (spanning two elements).
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{2, 10}));
    chain.accept(2);
    // After "{": the quote, and the quote with a (spanning); not quote-brace (a brace inside the string).
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{3, 4}));
    chain.accept(3);
    // Inside the string: the closing quote alone or with the brace, ab, the first byte of é or all of it, b"}.
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{3, 5, 6, 8, 9, 11}));
    chain.accept(6);
    // Half of é taken: only its continuation byte.
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{7}));
    chain.accept(7);
    // After é: no more letters; the closing quote, alone or with the brace.
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{3, 9}));
    chain.accept(9);
    // Complete: only the end token.
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{1}));
    chain.reset(7);
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{2, 10}));
}

void GrammarTest::endTokenOnlyWhereComplete() {
    PieceTokenizer vocab({"a", "b"});
    SamplerChain chain = grammarChain(vocab, {gbnfStage("root ::= \"a\"+ \"b\"?"), QJsonObject{{"type", "greedy"}}});
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{2}));
    chain.accept(2);
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{1, 2, 3}));
    chain.accept(3);
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{1}));
    // The chain's own end tokens (the model's) replace the tokenizer's.
    chain.setEndTokens({0});
    QCOMPARE(allowedIds(chain, vocab.vocabSize()), (std::vector<TokenId>{0}));
}

void GrammarTest::keptMassIsTheMassLeft() {
    PieceTokenizer vocab({"1", "2", "x", "12", "y1", "3"});
    SamplerChain chain = grammarChain(vocab, {QJsonObject{{"type", "temperature"}, {"value", 0.7}},
                                              gbnfStage("root ::= [0-9]+"), QJsonObject{{"type", "dist"}}});
    const std::vector<float> logits = {0.3f, -1.0f, 2.0f, 1.5f, 2.5f, -0.5f, 3.0f, 0.1f};
    Result<StepTrace> trace = chain.sample(logits, {}, TraceLevel::Full);
    QVERIFY(trace);
    // After the temperature: softmax of logits / 0.7 in double; the grammar removes ids 0, 1 (special), 4
    // ("x") and 6 ("y1").
    double z = 0.0;
    std::vector<double> p(logits.size());
    for (std::size_t i = 0; i < logits.size(); ++i)
        z += p[i] = std::exp(logits[i] / 0.7);
    const double removed = (p[0] + p[1] + p[4] + p[6]) / z;
    const StageTrace& stage = trace->stages[1];
    QCOMPARE(stage.sampler, QStringLiteral("grammar"));
    QCOMPARE(stage.kept, 4);
    QVERIFY2(std::abs((1.0 - stage.keptMass) - removed) < 1e-6,
             qPrintable(QString("removed %1, expected %2").arg(1.0 - stage.keptMass).arg(removed)));
    // The refused tokens, most probable first: y1 (logit 3), x (2.5), <s> (0.3), </s> (-1).
    QCOMPARE(stage.refused, (std::vector<TokenId>{6, 4, 0, 1}));
    QVERIFY(std::isnan(stage.threshold));
}

void GrammarTest::placeInTheChain() {
    PieceTokenizer vocab({"a", "b", "c", "d"}); // ids 2..5
    const std::vector<float> logits = {-9.0f, -9.0f, 4.0f, 3.0f, 2.0f, 1.0f};
    // Grammar first (llama.cpp's place): top-2 of what the grammar allows (c, d).
    SamplerChain first = grammarChain(
        vocab, {gbnfStage("root ::= [cd]"), QJsonObject{{"type", "top_k"}, {"k", 1}}, QJsonObject{{"type", "greedy"}}});
    Result<StepTrace> a = first.sample(logits, {});
    QVERIFY(a);
    QCOMPARE(a->chosen, 4);
    // After top-k 3: the grammar sees a, b, c and keeps c only.
    SamplerChain after = grammarChain(
        vocab, {QJsonObject{{"type", "top_k"}, {"k", 3}}, gbnfStage("root ::= [cd]"), QJsonObject{{"type", "greedy"}}});
    Result<StepTrace> b = after.sample(logits, {});
    QVERIFY(b);
    QCOMPARE(b->chosen, 4);
    QCOMPARE(b->finalCount, 1);
    // After top-k 2: nothing the grammar allows is left: a dead end, said as such.
    SamplerChain tight = grammarChain(
        vocab, {QJsonObject{{"type", "top_k"}, {"k", 2}}, gbnfStage("root ::= [cd]"), QJsonObject{{"type", "greedy"}}});
    Result<StepTrace> c = tight.sample(logits, {});
    QVERIFY(!c);
    QCOMPARE(tight.deadEnd(), QStringLiteral("the grammar allows none of the 2 tokens the stages before it left"));
}

void GrammarTest::deadEndStopsTheSample() {
    PieceTokenizer vocab({"a", "b"});
    SamplerChain chain = grammarChain(vocab, {gbnfStage("root ::= \"ab\""), QJsonObject{{"type", "greedy"}}});
    chain.accept(3); // "b" forced where only "a" may come
    Result<StepTrace> trace = chain.sample(std::vector<float>(4, 0.0f), {});
    QVERIFY(!trace);
    QVERIFY2(chain.deadEnd().contains("cannot continue"), qPrintable(chain.deadEnd()));
    chain.reset(0);
    QVERIFY(chain.sample(std::vector<float>(4, 0.0f), {}));
    QVERIFY(chain.deadEnd().isEmpty());
}

void GrammarTest::ambiguityWithoutBoundStopsCleanly() {
    // Found by fuzz_gbnf (a 27 s timeout): nested repetitions of a nullable rule read "aaaa…" in more ways
    // at every character. The automaton gives up past its bound and the run stops saying why.
    PieceTokenizer vocab({"a", "aa", "aaaa"});
    SamplerChain chain =
        grammarChain(vocab, {gbnfStage("root ::= | \"a\" | [^b] root{2,4}"), QJsonObject{{"type", "greedy"}}});
    const std::vector<float> logits = {0.0f, 0.0f, 0.0f, 0.0f, 5.0f}; // "aaaa" whenever allowed
    QString deadEnd;
    for (int step = 0; step < 200 && deadEnd.isEmpty(); ++step) {
        Result<StepTrace> trace = chain.sample(logits, {});
        if (!trace)
            deadEnd = chain.deadEnd();
        else
            chain.accept(trace->chosen);
    }
    QVERIFY2(deadEnd.contains("too ambiguous to follow: more than 2048 ways"), qPrintable(deadEnd));
}

void GrammarTest::jsonSchemaRefusesWhatItDoesNotKnow_data() {
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("message");
    QTest::newRow("minimum") << R"({"type":"object","properties":{"age":{"type":"integer","minimum":0}}})"
                             << "json_schema at /properties/age: the keyword 'minimum' is not supported";
    QTest::newRow("not") << R"({"not":{"type":"string"}})"
                         << "json_schema at /: the keyword 'not' is not supported";
    QTest::newRow("remote ref") << R"({"$ref":"https://example.com/s.json"})"
                                << "only references within the schema";
    QTest::newRow("missing ref") << R"({"$ref":"#/$defs/nothing"})"
                                 << "'#/$defs/nothing' names nothing in the schema";
    QTest::newRow("unknown type") << R"({"type":"date"})"
                                  << "json_schema at /type: unknown type 'date'";
    QTest::newRow("format") << R"({"type":"string","format":"email"})"
                            << "the format 'email' is not supported";
    QTest::newRow("lookahead") << R"({"type":"string","pattern":"^(?=a)b$"})"
                               << "a group kind other than (?:...)";
    QTest::newRow("false") << R"({"type":"array","items":false})"
                           << "json_schema at /items: the schema false accepts nothing";
    // Found by fuzz_json_schema: each once gave GBNF that did not parse.
    QTest::newRow("range out of order") << R"({"type":"string","pattern":"^[0-,]$"})"
                                        << "a range whose end comes before its start";
    QTest::newRow("dash range out of order") << R"({"type":"string","pattern":"^[9e0--g]$"})"
                                             << "a range whose end comes before its start";
    QTest::newRow("repeated empty group") << R"({"type":"string","pattern":"^a(?:)+$"})"
                                          << "an unbounded repetition of a part that can match nothing";
    QTest::newRow("counts reversed") << R"({"type":"string","pattern":"^a{20,3}$"})"
                                     << "whose maximum is below its minimum";
    QTest::newRow("empty type") << R"({"type":[""]})"
                                << "unknown type ''";
    QTest::newRow("huge minItems") << R"({"type":"array","items":{},"minItems":1e300})"
                                   << "minItems must be a whole number from 0 to 10000";
    QTest::newRow("required not defined") << R"({"type":"object","properties":{"a":{}},"required":["b"]})"
                                          << "'b' is required but not among the properties";
}

void GrammarTest::jsonSchemaRefusesWhatItDoesNotKnow() {
    QFETCH(QString, schema);
    QFETCH(QString, message);
    Result<std::string> gbnf = jsonSchemaToGbnf(QJsonDocument::fromJson(schema.toUtf8()).object());
    QVERIFY(!gbnf);
    QVERIFY2(gbnf.error().message.contains(message), qPrintable(gbnf.error().message));
}

void GrammarTest::jsonSchemaGrammarsByHand() {
    // Strings worked out by hand for small schemas, through the grammar the converter writes.
    const auto check = [](const char* schema, const QStringList& accepted, const QStringList& refused) {
        Result<std::string> gbnf = jsonSchemaToGbnf(QJsonDocument::fromJson(schema).object());
        QVERIFY2(gbnf, gbnf ? "" : qPrintable(gbnf.error().message));
        GrammarAutomaton automaton(grammarOf(gbnf.value()), nullptr);
        for (const QString& text : accepted)
            QVERIFY2(
                accepts(automaton, text.toStdString()),
                qPrintable(QString("refused %1 for %2\n%3").arg(text, schema, QString::fromStdString(gbnf.value()))));
        for (const QString& text : refused)
            QVERIFY2(!accepts(automaton, text.toStdString()),
                     qPrintable(QString("accepted %1 for %2").arg(text, schema)));
    };
    check(R"({"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"boolean"}},"required":["a"]})",
          {R"({"a":1})", R"({ "a": -12, "b": true })", R"({"a":0,"b":false})"},
          {R"({"b":true})", R"({"a":01})", R"({"a":1,"c":2})", R"({"b":true,"a":1})", R"({"a":1.5})"});
    check(R"({"enum":["red","green",3,null]})", {R"("red")", "3", "null"}, {R"("blue")", "red", "4"});
    check(R"({"type":"array","items":{"type":"string","maxLength":2},"minItems":1,"maxItems":2})",
          {R"(["ab"])", R"(["", "x"])", R"(["\n"])"}, {"[]", R"(["abc"])", R"(["a","b","c"])"});
    check(R"({"type":"string","pattern":"^[A-Z]{2}-\\d+$"})", {R"("AB-1")", R"("XY-123")"},
          {R"("ab-1")", R"("AB-")", R"("AB-1x")"});
    check(R"({"type":"string","pattern":"b+"})", {R"("b")", R"("abbc")"}, {R"("ac")", R"("")"});
    check(
        R"({"anyOf":[{"type":"null"},{"$ref":"#/$defs/pair"}],"$defs":{"pair":{"type":"array","prefixItems":[{"type":"number"},{"const":"x"}]}}})",
        {"null", R"([1.5e3, "x"])"}, {R"([1, "y"])", "[1]"});
    check(R"({"type":"object","properties":{"k":{"type":"null"}},"additionalProperties":{"type":"integer"}})",
          {R"({"k":null,"n":1})", R"({"n":1,"m":2})", "{}", R"({"ka":3})"}, {R"({"k":1})", R"({"n":"x"})"});
    check(
        R"({"type":"object","properties":{"b":{"const":1},"a":{"const":2}},"required":["a","b"],"propertyOrdering":["b","a"]})",
        {R"({"b":1,"a":2})"}, {R"({"a":2,"b":1})"});
    check(R"({"type":"string","pattern":"^[é-ü]x\\.(?:ab)*$"})", {"\"\u00e9x.\"", "\"\u00f6x.abab\""},
          {"\"ex.\"", "\"\u00e9x.a\""});
    check(R"({"type":"string","format":"date"})", {R"("2026-12-07")"}, {R"("2026-13-07")", R"("07.12.2026")"});
}

void GrammarTest::seededRunsFollowTheirSchemas_data() {
    QTest::addColumn<bool>("random");
    QTest::newRow("demo model") << false;
    QTest::newRow("random 32k-vocabulary model") << true;
}

// 200 seeded runs per schema of tests/data/grammar/schemas, each read back and validated by the test's own
// reader and validator (JsonSchemaCheck.h).
void GrammarTest::seededRunsFollowTheirSchemas() {
    QFETCH(bool, random);
    QTemporaryDir dir;
    QString path = test::demoModel();
    if (random) {
        path = dir.filePath("random-32k.gguf");
        cli::RandomShape shape;
        shape.dim = 64;
        shape.layers = 1;
        shape.heads = 2;
        shape.hidden = 128;
        shape.vocab = 32000;
        QCOMPARE(cli::writeRandomGguf(path, shape, QStringLiteral("f32"), 3), QString());
    }
    Result<std::unique_ptr<Model>> model = Model::load(path);
    QVERIFY(model);
    Result<std::unique_ptr<Tokenizer>> tokenizer = loadTokenizer(path);
    QVERIFY(tokenizer);
    Generator generator(*model.value(), *tokenizer.value());
    const QDir schemas(QStringLiteral(SWB_TEST_DATA_DIR "/grammar/schemas"));
    const QStringList files = schemas.entryList({"*.json"}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 10);
    for (const QString& file : files) {
        QFile in(schemas.filePath(file));
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QJsonObject schema = QJsonDocument::fromJson(in.readAll()).object();
        std::vector<GenerationRequest> requests(200);
        for (std::size_t i = 0; i < requests.size(); ++i) {
            Result<Strategy> strategy =
                Strategy::fromJson({{"seed", int(i)},
                                    {"samplers", QJsonArray{QJsonObject{{"type", "grammar"}, {"json_schema", schema}},
                                                            QJsonObject{{"type", "dist"}}}}});
            QVERIFY2(strategy, qPrintable(file));
            requests[i].prompt = "Data:";
            requests[i].strategy = strategy.value();
            requests[i].maxTokens = 400;
            requests[i].traceLevel = TraceLevel::Scalars;
        }
        std::set<std::string> distinct;
        const std::vector<Result<GenerationResult>> results = generator.generateBatch(requests);
        for (std::size_t i = 0; i < results.size(); ++i) {
            QVERIFY2(results[i], qPrintable(file + ": " + (results[i] ? QString() : results[i].error().message)));
            const GenerationResult& run = results[i].value();
            std::string text;
            for (const GeneratedStep& step : run.steps)
                text += tokenizer.value()->piece(step.token);
            QVERIFY2(run.finish == FinishReason::Eos,
                     qPrintable(QString("%1, seed %2: finished %3 after %4")
                                    .arg(file)
                                    .arg(i)
                                    .arg(finishReasonName(run.finish), QString::fromStdString(text))));
            test::JsonReader reader;
            const std::optional<test::JsonNode> value = reader.read(text);
            QVERIFY2(value, qPrintable(QString("%1, seed %2: %3 in %4")
                                           .arg(file)
                                           .arg(i)
                                           .arg(QString::fromStdString(reader.error()), QString::fromStdString(text))));
            const std::string problem = test::validate(*value, schema, schema);
            QVERIFY2(problem.empty(),
                     qPrintable(QString("%1, seed %2: %3 in %4")
                                    .arg(file)
                                    .arg(i)
                                    .arg(QString::fromStdString(problem), QString::fromStdString(text))));
            distinct.insert(text);
        }
        QVERIFY2(distinct.size() > 1, qPrintable(file)); // the seeds draw different documents
    }
}

QTEST_GUILESS_MAIN(GrammarTest)
#include "tst_grammar.moc"
