#pragma once

// The parsed form of a template, made by the parser (JinjaParser.cpp) and run by the renderer
// (JinjaRenderer.cpp); the filters and tests by name (JinjaBuiltins.cpp).

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "chat/JinjaValue.h"

namespace swb::jinja {

// Thrown inside the engine only; Template::parse/render turn it into an Error naming the line.
struct TemplateError {
    std::string message;
    int line = 0;
};

// What one render may spend, far above what real chat templates need (the held-out templates of
// tests/data/chat-templates take two loop iterations a message and under 40 KB of strings for a conversation
// of 101 messages): templates arrive inside downloaded model files, so one that loops, grows or recurses
// without end is refused with a sentence naming its line instead of hanging or exhausting memory.
constexpr std::size_t kMaxStringBytes = 16u << 20;     // any one string, the output included
constexpr std::uint64_t kMaxMadeBytes = 128ull << 20;  // all the strings a render builds
constexpr std::int64_t kMaxSteps = 20'000;             // loop iterations and macro calls
constexpr std::size_t kMaxListItems = 1'000'000;       // any one list built by the template
constexpr int kMaxValueDepth = 256;                    // lists and mappings inside each other, as walked

struct RenderBudget {
    std::uint64_t madeBytes = 0;
    std::int64_t steps = 0;
};
inline thread_local RenderBudget t_renderBudget;

// A string of `bytes` is about to be built.
inline void chargeBytes(std::size_t bytes)
{
    if (bytes > kMaxStringBytes)
        throw TemplateError{"a string grows beyond 16 MB", 0};
    t_renderBudget.madeBytes += bytes;
    if (t_renderBudget.madeBytes > kMaxMadeBytes)
        throw TemplateError{"the template builds more than 128 MB of text", 0};
}

// One loop iteration or macro call.
inline void chargeStep()
{
    if (++t_renderBudget.steps > kMaxSteps)
        throw TemplateError{"the template runs more than 20,000 loop iterations and macro calls", 0};
}

// A filter or a test (JinjaBuiltins.cpp): name is the one it was called by (some have several).
using Filter = Value (*)(const std::string& name, Value subject, CallArgs& args, int line);
using Test = bool (*)(const std::string& name, const Value& subject, CallArgs& args, int line);
// The filter or test of a name; null when there is none by that name (JinjaParser.cpp says when that is an error).
Filter findFilter(const std::string& name);
Test findTest(const std::string& name);

struct Expr {
    enum class Op {
        Literal, Name, List, Dict, Attr, Index, Slice, Call, Filter, Test, Not, Negate, Binary, And, Or, Conditional
    };
    Op op = Op::Literal;
    int line = 0;
    Value literal;
    std::string name; // Name, Attr, Filter, Test; Binary: the operator
    Filter filter = nullptr; // Filter: found by the parser (null: unknown, in an if's branch)
    Test test = nullptr;     // Test: the same
    bool negated = false; // Test: "is not"; Binary "in": "not in"
    std::vector<std::unique_ptr<Expr>> children;
    std::vector<std::pair<std::string, std::unique_ptr<Expr>>> keywords;
};

struct Node;
using Body = std::vector<std::unique_ptr<Node>>;

struct Node {
    enum class Type { Text, Output, If, For, Set, SetBlock, Macro, Break, Continue, FilterBlock, Do };
    Type type = Type::Text;
    int line = 0;
    std::string text;                           // Text; Macro: its name
    std::unique_ptr<Expr> expr;                 // Output, For (iterable), Set (value), Do
    std::vector<std::unique_ptr<Expr>> conditions; // If (one per branch), For (the inline if, optional)
    std::vector<Body> bodies;                   // If: one per condition, then else; For: body, else
    std::vector<std::string> targets;           // For, Set, SetBlock: names (several: unpacking)
    std::unique_ptr<Expr> attributeTarget;      // Set ns.attr = ...: the namespace expression
    std::string attribute;
    std::vector<std::pair<std::string, std::unique_ptr<Expr>>> parameters; // Macro (default may be null)
    std::unique_ptr<Expr> filter;               // SetBlock / FilterBlock: a Filter expr whose subject is null
};

struct Program {
    Body body;
};

// Methods and globals (JinjaBuiltins.cpp).
// A bound method (str.strip, dict.items...), or undefined when the value has no such method.
Value method(const Value& self, const std::string& name, int line);
Value makeGlobals();

// Helpers shared with the builtins.
Value getItem(const Value& object, const Value& key);
// markupsafe.escape: & < > ' " as HTML entities.
std::string escapeHtml(const std::string& text);
bool contains(const Value& container, const Value& item, int line);
std::vector<Value> iterate(const Value& value, int line);
int compare(const Value& a, const Value& b, int line);

} // namespace swb::jinja
