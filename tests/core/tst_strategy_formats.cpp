// Strategies in other tools' settings formats (interop/StrategyFormats.h): exports checked field by field,
// imports against the chains the tools' documented defaults and orders make (worked by hand), round trips,
// what does not translate, and bad input.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "TestSupport.h"
#include "interop/StrategyFormats.h"

using namespace swb;

namespace {

// "top_k k=40 | temperature value=0.7 | dist": each sampler with its parameters that are numbers.
QString chain(const Strategy& strategy) {
    QStringList stages;
    for (const SamplerSpec& sampler : strategy.samplers) {
        QStringList params;
        for (const QString& key : {"k", "p", "value", "penalty", "frequency", "presence", "epsilon", "z", "tau", "eta", "n"})
            if (sampler.params.value(key).isDouble())
                params << QStringLiteral("%1=%2").arg(key).arg(sampler.params.value(key).toDouble(), 0, 'g', 6);
        stages << (params.isEmpty() ? sampler.type : sampler.type + QLatin1Char(' ') + params.join(QLatin1Char(' ')));
    }
    return stages.join(QStringLiteral(" | "));
}

ImportedStrategy imported(const QString& text, StrategyFormat format) {
    Result<ImportedStrategy> result = importStrategy(text, format);
    if (!result)
        qFatal("import failed: %s", qPrintable(result.error().message));
    return result.value();
}

} // namespace

class TestStrategyFormats : public QObject {
    Q_OBJECT

private slots:
    void exportsLlamaCppJsonWithEveryDefaultSwitchedOff() {
        const Strategy strategy = test::strategyFromJson(
            R"({"seed": 5, "samplers": [{"type":"top_k","k":40},{"type":"top_p","p":0.9},{"type":"temperature","value":0.7}]})");
        Result<ExportedStrategy> out = exportStrategy(strategy, StrategyFormat::LlamaCppJson);
        QVERIFY(out.ok());
        QVERIFY2(out->notes.isEmpty(), qPrintable(out->notes.join('\n')));
        const QJsonObject json = QJsonDocument::fromJson(out->text.toUtf8()).object();
        const QJsonObject expected{{"temperature", 0.7}, {"top_k", 40}, {"top_p", 0.9}, {"min_p", 0}, {"typical_p", 1},
                                   {"top_n_sigma", -1}, {"xtc_probability", 0}, {"dry_multiplier", 0},
                                   {"repeat_penalty", 1}, {"frequency_penalty", 0}, {"presence_penalty", 0},
                                   {"mirostat", 0}, {"repeat_last_n", -1}, {"seed", 5},
                                   {"samplers", QJsonArray{"top_k", "top_p", "temperature"}}};
        QCOMPARE(json, expected);
    }

    void exportsLlamaCppFlags() {
        const Strategy strategy = test::strategyFromJson(
            R"({"samplers": [{"type":"min_p","p":0.1},{"type":"temperature","value":1.2}]})");
        Result<ExportedStrategy> out = exportStrategy(strategy, StrategyFormat::LlamaCppFlags);
        QVERIFY(out.ok());
        for (const char* flag : {"--temp 1.2", "--top-k 0", "--top-p 1", "--min-p 0.1", "--typical 1", "--repeat-penalty 1",
                                 "--mirostat 0", "--repeat-last-n -1", "--samplers 'min_p;temperature'"})
            QVERIFY2(out->text.contains(QLatin1String(flag)), qPrintable(out->text));
    }

    void importsLlamaCppWithItsDefaults_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("note"); // a note that must be there ("" for none)
        const int json = int(StrategyFormat::LlamaCppJson);
        const int flags = int(StrategyFormat::LlamaCppFlags);
        // llama.cpp's defaults: top-k 40, top-p 0.95, min-p 0.05, temperature 0.8, in its order.
        QTest::newRow("temperature only") << R"({"temperature": 0.5})" << json
                                          << "top_k k=40 | top_p p=0.95 | min_p p=0.05 | temperature value=0.5 | dist" << "";
        QTest::newRow("temperature 0 is greedy") << R"({"temperature": 0})" << json
                                                 << "top_k k=40 | top_p p=0.95 | min_p p=0.05 | greedy" << "";
        QTest::newRow("listed samplers only")
            << R"({"samplers": ["temperature", "top_k"], "top_k": 10, "n_predict": 128})" << json
            << "temperature value=0.8 | top_k k=10 | dist" << "top_p, min_p left out";
        QTest::newRow("unknown field named") << R"({"top_k": 0, "top_p": 1, "min_p": 0, "n_predict": 128})" << json
                                             << "temperature value=0.8 | dist" << "n_predict";
        QTest::newRow("mirostat 2") << R"({"mirostat": 2, "mirostat_tau": 4, "temperature": 0.9})" << json
                                    << "temperature value=0.9 | mirostat_v2 tau=4 eta=0.1" << "uses only the temperature";
        QTest::newRow("flags") << "--temp 0.7 --top-k 20 --min-p 0 --top-p 1 --repeat-penalty 1.1 --repeat-last-n -1 -n 64"
                               << flags << "repetition_penalty penalty=1.1 | top_k k=20 | temperature value=0.7 | dist" << "-n";
        QTest::newRow("flags, sampler order") << "--samplers 'temperature;top_p' --top-p=0.8 --temp 1.1 --seed 3" << flags
                                              << "temperature value=1.1 | top_p p=0.8 | dist" << "";
        QTest::newRow("frequency penalty") << R"({"frequency_penalty": 0.5, "top_k": 0, "top_p": 1, "min_p": 0})" << json
                                           << "penalties frequency=0.5 presence=0 | temperature value=0.8 | dist" << "";
    }
    void importsLlamaCppWithItsDefaults() {
        QFETCH(QString, text);
        QFETCH(int, format);
        QFETCH(QString, expected);
        QFETCH(QString, note);
        const ImportedStrategy in = imported(text, StrategyFormat(format));
        QCOMPARE(chain(in.strategy), expected);
        if (!note.isEmpty())
            QVERIFY2(in.notes.join('\n').contains(note), qPrintable(in.notes.join('\n')));
    }

    void importsWebuiAndSillyTavern() {
        // sampler_priority orders; the webui's epsilon cutoff counts in units of 1e-4.
        ImportedStrategy in = imported("temperature: 0.7\ntop_p: 0.9\nrepetition_penalty: 1.15\nepsilon_cutoff: 3  # 3e-4\n"
                                       "sampler_priority:\n  - temperature\n  - top_p\n  - epsilon_cutoff\n  - repetition_penalty\n",
                                       StrategyFormat::WebuiYaml);
        QCOMPARE(chain(in.strategy), QStringLiteral("temperature value=0.7 | top_p p=0.9 | epsilon epsilon=0.0003 | "
                                                    "repetition_penalty penalty=1.15 | dist"));
        // No priority list: the webui's own order; temperature_last moves temperature after min-p.
        in = imported("temperature: 1.5\nmin_p: 0.1\ntemperature_last: true\n", StrategyFormat::WebuiYaml);
        QCOMPARE(chain(in.strategy), QStringLiteral("min_p p=0.1 | temperature value=1.5 | dist"));
        in = imported("temperature: 1.5\nmin_p: 0.1\n", StrategyFormat::WebuiYaml);
        QCOMPARE(chain(in.strategy), QStringLiteral("temperature value=1.5 | min_p p=0.1 | dist"));
        // SillyTavern's names; every sampler off unless set.
        in = imported(R"({"temp": 0.8, "rep_pen": 1.1, "top_k": 0, "min_p": 0.05, "nsigma": 0, "genamt": 300})",
                      StrategyFormat::SillyTavern);
        QCOMPARE(chain(in.strategy), QStringLiteral("repetition_penalty penalty=1.1 | temperature value=0.8 | min_p p=0.05 | dist"));
        QVERIFY(in.notes.join(' ').contains("genamt"));
    }

    void importsGenerationConfig() {
        // transformers: do_sample false by default (greedy, warpers unused); top_k 50 unless set.
        ImportedStrategy in = imported(R"({"temperature": 0.6, "top_p": 0.9, "repetition_penalty": 1.2})",
                                       StrategyFormat::GenerationConfig);
        QCOMPARE(chain(in.strategy), QStringLiteral("repetition_penalty penalty=1.2 | greedy"));
        QVERIFY(in.notes.join(' ').contains("never applies"));
        in = imported(R"({"do_sample": true, "temperature": 0.6, "top_p": 0.9, "bos_token_id": 1})", StrategyFormat::GenerationConfig);
        QCOMPARE(in.strategy.order, EngineOrder::HuggingFace);
        QCOMPARE(chain(in.strategy), QStringLiteral("temperature value=0.6 | top_k k=50 | top_p p=0.9 | dist"));
        QVERIFY(in.notes.join(' ').contains("bos_token_id"));
        in = imported(R"({"num_beams": 4})", StrategyFormat::GenerationConfig);
        QCOMPARE(in.strategy.decoder.type, QStringLiteral("beam"));
        QCOMPARE(in.strategy.decoder.params.value("beams").toInt(), 4);
    }

    void roundTrips_data() {
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("strategy");
        QTest::newRow("llama.cpp json") << int(StrategyFormat::LlamaCppJson)
                                        << R"({"seed": 9, "samplers":[{"type":"penalties","frequency":0.1,"presence":0.2},{"type":"dry","multiplier":0.8},{"type":"top_k","k":40},{"type":"top_p","p":0.9},{"type":"xtc","threshold":0.2,"probability":0.5},{"type":"temperature","value":0.7}]})";
        QTest::newRow("llama.cpp flags") << int(StrategyFormat::LlamaCppFlags)
                                         << R"({"samplers":[{"type":"top_n_sigma","n":1.5},{"type":"min_p","p":0.02},{"type":"temperature","value":1.3}]})";
        QTest::newRow("llama.cpp mirostat") << int(StrategyFormat::LlamaCppJson)
                                            << R"({"samplers":[{"type":"temperature","value":0.9},{"type":"mirostat","tau":3,"eta":0.2}]})";
        QTest::newRow("webui") << int(StrategyFormat::WebuiYaml)
                               << R"({"samplers":[{"type":"temperature","value":0.7},{"type":"top_k","k":20},{"type":"tfs","z":0.95},{"type":"eta","epsilon":0.0009},{"type":"smoothing","factor":0.3,"curve":1}]})";
        QTest::newRow("sillytavern") << int(StrategyFormat::SillyTavern)
                                     << R"({"samplers":[{"type":"repetition_penalty","penalty":1.05},{"type":"top_a","a":0.2},{"type":"min_p","p":0.05},{"type":"greedy"}]})";
        // Issue 36: a grammar stage as the tools carry it (llama.cpp's json_schema and grammar, the webui's
        // grammar_string).
        QTest::newRow("llama.cpp json schema")
            << int(StrategyFormat::LlamaCppJson)
            << R"({"samplers":[{"type":"grammar","json_schema":{"type":"object","properties":{"a":{"type":"integer"}}}},{"type":"top_k","k":40},{"type":"temperature","value":0.7}]})";
        QTest::newRow("llama.cpp flags grammar")
            << int(StrategyFormat::LlamaCppFlags)
            << R"({"samplers":[{"type":"grammar","gbnf":"root ::= [a-z]+ [0-9]?"},{"type":"min_p","p":0.1},{"type":"temperature","value":0.8}]})";
        QTest::newRow("llama.cpp flags schema")
            << int(StrategyFormat::LlamaCppFlags)
            << R"({"samplers":[{"type":"grammar","json_schema":{"enum":["a b","c"]}},{"type":"temperature","value":0.8}]})";
        QTest::newRow("webui grammar")
            << int(StrategyFormat::WebuiYaml)
            << R"({"samplers":[{"type":"grammar","gbnf":"root ::= [a-z]+"},{"type":"temperature","value":0.7}]})";
        QTest::newRow("transformers") << int(StrategyFormat::GenerationConfig)
                                      << R"({"order":"hf","samplers":[{"type":"repetition_penalty","penalty":1.2},{"type":"no_repeat_ngram","n":3},{"type":"temperature","value":0.7},{"type":"top_k","k":20},{"type":"top_p","p":0.9},{"type":"min_p","p":0.05}]})";
    }
    void roundTrips() {
        QFETCH(int, format);
        QFETCH(QString, strategy);
        const Strategy original = Strategy::parse(strategy).value();
        Result<ExportedStrategy> out = exportStrategy(original, StrategyFormat(format));
        QVERIFY(out.ok());
        QVERIFY2(out->notes.isEmpty(), qPrintable(out->notes.join('\n')));
        const ImportedStrategy back = imported(out->text, StrategyFormat(format));
        QCOMPARE(chain(back.strategy), chain(original));
        QCOMPARE(back.strategy.canonicalSamplersJson(), original.canonicalSamplersJson());
        QCOMPARE(back.strategy.seed, original.seed);
    }

    void saysWhatDoesNotTranslate() {
        const Strategy strategy = test::strategyFromJson(
            R"({"seed": 4, "samplers":[{"type":"xtc","threshold":0.1,"probability":0.5},{"type":"top_k","k":10},{"type":"temperature","value":0.8},{"type":"mirostat_v2","tau":5,"eta":0.1}]})");
        Result<ExportedStrategy> hf = exportStrategy(strategy, StrategyFormat::GenerationConfig);
        QVERIFY(hf.ok());
        const QString notes = hf->notes.join('\n');
        QVERIFY2(notes.contains("no xtc sampler"), qPrintable(notes));
        QVERIFY2(notes.contains("no mirostat_v2"), qPrintable(notes));
        QVERIFY2(notes.contains("no seed"), qPrintable(notes));
        QVERIFY2(notes.contains("fixed order"), qPrintable(notes)); // top_k before temperature is not transformers' order
        Result<ExportedStrategy> webui = exportStrategy(
            test::strategyFromJson(R"({"samplers":[{"type":"top_p","p":0.9,"min_keep":5},{"type":"banned_tokens","ids":[1,2]}]})"),
            StrategyFormat::WebuiYaml);
        QVERIFY(webui.ok());
        QVERIFY2(webui->notes.join('\n').contains("no field for top_p's min_keep (5 here)"), qPrintable(webui->notes.join('\n')));
        QVERIFY2(webui->notes.join('\n').contains("no banned_tokens sampler"), qPrintable(webui->notes.join('\n')));
        Result<ExportedStrategy> beam = exportStrategy(
            test::strategyFromJson(R"({"decoder":{"type":"beam","beams":4},"samplers":[]})"), StrategyFormat::LlamaCppJson);
        QVERIFY(beam->notes.join('\n').contains("no beam decoder"));
        Result<ExportedStrategy> grammar =
            exportStrategy(test::strategyFromJson(
                               R"({"samplers":[{"type":"grammar","json_schema":{"type":"integer"}},{"type":"dist"}]})"),
                           StrategyFormat::GenerationConfig);
        QVERIFY2(grammar->notes.join('\n').contains("transformers has no grammar; it is left out"),
                 qPrintable(grammar->notes.join('\n')));
        Result<ExportedStrategy> asGbnf =
            exportStrategy(test::strategyFromJson(
                               R"({"samplers":[{"type":"grammar","json_schema":{"type":"integer"}},{"type":"dist"}]})"),
                           StrategyFormat::WebuiYaml);
        QVERIFY2(asGbnf->notes.join('\n').contains("written as the GBNF it converts to"),
                 qPrintable(asGbnf->notes.join('\n')));
        QVERIFY2(asGbnf->text.contains("grammar_string: "), qPrintable(asGbnf->text));
    }

    void reviewFindings() {
        // llama.cpp's "penalties" stands for both penalty samplers: neither is dropped.
        ImportedStrategy in = imported(R"({"repeat_penalty": 1.1, "presence_penalty": 0.5, "top_k": 0, "top_p": 1, "min_p": 0})",
                                       StrategyFormat::LlamaCppJson);
        QCOMPARE(chain(in.strategy), QStringLiteral("repetition_penalty penalty=1.1 | penalties frequency=0 presence=0.5 | "
                                                    "temperature value=0.8 | dist"));
        QVERIFY(in.notes.join(' ').contains("last 64 tokens"));
        // Greedy lives in llama.cpp's temperature sampler: exported, temperature is listed; imported without it in
        // the list, a temperature of 0 does nothing.
        Result<ExportedStrategy> out =
            exportStrategy(test::strategyFromJson(R"({"samplers":[{"type":"top_k","k":5},{"type":"greedy"}]})"), StrategyFormat::LlamaCppJson);
        QCOMPARE(QJsonDocument::fromJson(out->text.toUtf8()).object().value("samplers").toArray(), (QJsonArray{"top_k", "temperature"}));
        QCOMPARE(chain(imported(out->text, StrategyFormat::LlamaCppJson).strategy), QStringLiteral("top_k k=5 | greedy"));
        QCOMPARE(chain(imported(R"({"temperature": 0, "samplers": ["top_k"], "top_k": 5})", StrategyFormat::LlamaCppJson).strategy),
                 QStringLiteral("top_k k=5 | dist"));
        // Mirostat: the other samplers would not act, said on export; the webui keeps only the temperature.
        out = exportStrategy(test::strategyFromJson(
                                 R"({"samplers":[{"type":"top_k","k":40},{"type":"temperature","value":0.8},{"type":"mirostat_v2","tau":5,"eta":0.1}]})"),
                             StrategyFormat::LlamaCppJson);
        QVERIFY2(out->notes.join(' ').contains("uses only the temperature; top_k would not act"), qPrintable(out->notes.join(' ')));
        in = imported("mirostat_mode: 2\ntemperature: 0.9\ntop_k: 40\n", StrategyFormat::WebuiYaml);
        QCOMPARE(chain(in.strategy), QStringLiteral("temperature value=0.9 | mirostat_v2 tau=5 eta=0.1"));
        // DRY's breakers are not written as a stray flag.
        out = exportStrategy(test::strategyFromJson(R"({"samplers":[{"type":"dry","multiplier":0.8}]})"), StrategyFormat::LlamaCppFlags);
        QVERIFY2(!out->text.contains(QStringLiteral("  ")) && out->text.count('\'') % 2 == 0, qPrintable(out->text));
        QVERIFY(out->notes.join(' ').contains("sequence breakers"));
        // The webui's penalty range: 0 is the whole context, 1024 when not given; do_sample false is greedy.
        const auto lastN = [](const Strategy& strategy) {
            for (const SamplerSpec& sampler : strategy.samplers)
                if (sampler.type == QLatin1String("penalties"))
                    return sampler.params.value("last_n").toInt();
            return -2;
        };
        QCOMPARE(lastN(imported("presence_penalty: 0.5\nrepetition_penalty_range: 0\n", StrategyFormat::WebuiYaml).strategy), -1);
        QCOMPARE(lastN(imported("presence_penalty: 0.5\n", StrategyFormat::WebuiYaml).strategy), 1024);
        QCOMPARE(chain(imported("do_sample: false\ntemperature: 0.7\n", StrategyFormat::WebuiYaml).strategy), QStringLiteral("greedy"));
        // sampler_priority as the webui saves it: one string, names on lines (and folded over indented lines).
        QCOMPARE(chain(imported("temperature: 0.7\ntop_p: 0.9\nsampler_priority: \"top_p\\ntemperature\"\n", StrategyFormat::WebuiYaml).strategy),
                 QStringLiteral("top_p p=0.9 | temperature value=0.7 | dist"));
        QCOMPARE(chain(imported("temperature: 0.7\nmin_p: 0.1\ntop_p: 0.9\nsampler_priority: \"top_p\\n\n  temperature\\nmin_p\"\n",
                                StrategyFormat::WebuiYaml).strategy),
                 QStringLiteral("top_p p=0.9 | temperature value=0.7 | min_p p=0.1 | dist"));
        // Values that are not numbers, and Mirostat modes the tools do not have.
        QCOMPARE(importStrategy(R"({"temperature": "0.7"})", StrategyFormat::LlamaCppJson).error().message,
                 QStringLiteral("temperature must be a finite number"));
        QCOMPARE(importStrategy("mirostat_mode: nan\n", StrategyFormat::WebuiYaml).error().message,
                 QStringLiteral("mirostat_mode must be a finite number"));
        QCOMPARE(importStrategy(R"({"mirostat": 3})", StrategyFormat::LlamaCppJson).error().message,
                 QStringLiteral("mirostat must be 0, 1 or 2"));
        QCOMPARE(importStrategy(R"({"mirostat": 1e20})", StrategyFormat::LlamaCppJson).error().message,
                 QStringLiteral("mirostat must be 0, 1 or 2"));
    }

    void badInputIsOneSentence() {
        QVERIFY(importStrategy("{\"temperature\": ", StrategyFormat::LlamaCppJson).error().message.contains("line 1"));
        QCOMPARE(importStrategy("[1]", StrategyFormat::SillyTavern).error().message,
                 QStringLiteral("SillyTavern settings are a JSON object"));
        QCOMPARE(importStrategy("--temp warm", StrategyFormat::LlamaCppFlags).error().message,
                 QStringLiteral("--temp takes a number, not 'warm'"));
        QCOMPARE(importStrategy("--top-k", StrategyFormat::LlamaCppFlags).error().message, QStringLiteral("--top-k needs a value"));
        QVERIFY(importStrategy("temperature: 1\n  - x\n", StrategyFormat::WebuiYaml).error().message.contains("line 2"));
        QVERIFY(importStrategy(R"({"temperature": 5, "top_p": 2})", StrategyFormat::SillyTavern)
                    .error().message.startsWith("these SillyTavern settings make no valid strategy"));
        QVERIFY(!strategyFormatFromName("ollama"));
        QCOMPARE(strategyFormatNames().size(), 5);
    }
};

QTEST_GUILESS_MAIN(TestStrategyFormats)
#include "tst_strategy_formats.moc"
