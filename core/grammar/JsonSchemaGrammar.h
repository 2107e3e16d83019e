#pragma once

#include <string>

#include <QJsonValue>

#include "Result.h"

namespace swb {

// GBNF for any JSON value (llama.cpp's json.gbnf in the rules its schema converter uses).
std::string anyJsonGbnf();

// A JSON schema as GBNF, the way llama.cpp's json-schema-to-grammar writes it for the same subset: type
// (and lists of types), properties, required, additionalProperties (absent means none, as llama.cpp
// reads it), enum, const, items and prefixItems, minItems, maxItems, minLength, maxLength, pattern (a
// regular expression of literals, classes, groups, alternatives and repetitions; unanchored ends may be
// anything), format date / time / date-time / uuid, anyOf, oneOf (as anyOf), and $ref to "#/..." within
// the schema. Annotations (title, description, default, examples, $schema, $id, $comment) are ignored;
// any other keyword is refused with one sentence naming it and its place ("/properties/age").
Result<std::string> jsonSchemaToGbnf(const QJsonValue& schema);

} // namespace swb
