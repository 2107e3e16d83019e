// JSON schemas: converted to GBNF; whatever the converter writes must parse (a failure there is ours, not
// the schema's), and its automaton must start.
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "FuzzSupport.h"
#include "grammar/Grammar.h"
#include "grammar/GrammarAutomaton.h"
#include "grammar/JsonSchemaGrammar.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size)));
    if (document.isNull())
        return 0;
    const QJsonValue schema = document.isObject() ? QJsonValue(document.object()) : QJsonValue(document.array());
    swb::Result<std::string> gbnf = swb::jsonSchemaToGbnf(schema);
    if (!gbnf)
        return 0;
    swb::Result<swb::Grammar> grammar = swb::parseGbnf(gbnf.value());
    if (!grammar) {
        // The converter's own output refused: only a schema that accepts nothing may be (e.g. an object
        // whose required property is false is refused before); anything else is a bug.
        if (!grammar.error().message.contains(QStringLiteral("accepts no string")))
            __builtin_trap();
        return 0;
    }
    swb::GrammarAutomaton automaton(std::move(grammar).value(), nullptr);
    (void)automaton.complete(automaton.advance(automaton.start(), "{\"a\": [1, \"x\", null]}"));
    return 0;
}
