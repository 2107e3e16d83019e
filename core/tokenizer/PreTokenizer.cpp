#include "tokenizer/PreTokenizer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <QString>

#include "tokenizer/Utf8.h"

namespace swb {

namespace {

// Unicode White_Space, as llama.cpp's unicode tables and Oniguruma define \s (PCRE2's \s leaves out U+0085).
constexpr const char* kWhiteSpace =
    R"(\t\n\x{0B}\f\r\x{20}\x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000})";

// Rewrites \s and \S in terms of kWhiteSpace: outside a class "\s" becomes a class, inside one it adds
// the members ("[^\s\p{L}]" stays one class).
std::string expandWhiteSpace(const std::string& pattern) {
    std::string out;
    out.reserve(pattern.size() + 64);
    bool inClass = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            const char next = pattern[i + 1];
            if (next == 's') {
                if (inClass)
                    out += kWhiteSpace;
                else
                    out += std::string("[") + kWhiteSpace + "]";
            } else if (next == 'S' && !inClass) {
                out += std::string("[^") + kWhiteSpace + "]";
            } else {
                out += c;
                out += next;
            }
            ++i;
            continue;
        }
        if (!inClass && c == '[') {
            inClass = true;
            out += c;
            // A ']' right after '[' or '[^' is a literal member, not the end of the class.
            if (i + 1 < pattern.size() && pattern[i + 1] == '^') {
                out += '^';
                ++i;
            }
            if (i + 1 < pattern.size() && pattern[i + 1] == ']') {
                out += ']';
                ++i;
            }
            continue;
        }
        if (inClass && c == '[' && i + 1 < pattern.size() && pattern[i + 1] == ':') {
            // POSIX class such as [:alpha:]: copy through its closing ":]".
            const std::size_t close = pattern.find(":]", i + 2);
            if (close != std::string::npos) {
                out.append(pattern, i, close + 2 - i);
                i = close + 1;
                continue;
            }
        }
        if (inClass && c == ']')
            inClass = false;
        out += c;
    }
    return out;
}

// llama.cpp's chains per tokenizer.ggml.pre (src/llama-vocab.cpp, llm_tokenizer_bpe).
constexpr const char* kGpt2 = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))";
constexpr const char* kLlama3 =
    R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr const char* kQwen2 =
    R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
// DeepSeek LLM's letter class: cased letters as explicit ranges (from its tokenizer.json), written as
// escapes because several of them (U+1F7D, U+1FBE, U+2126, U+212A ...) change under NFC in an editor.
constexpr const char* kDeepSeekLetters =
    R"(\x{41}-\x{5A}\x{61}-\x{7A}\x{B5}\x{C0}-\x{D6}\x{D8}-\x{F6}\x{F8}-\x{1BA}\x{1BC}-\x{1BF}\x{1C4}-\x{293})"
    R"(\x{295}-\x{2AF}\x{370}-\x{373}\x{376}\x{377}\x{37B}-\x{37D}\x{37F}\x{386}\x{388}-\x{38A}\x{38C})"
    R"(\x{38E}-\x{3A1}\x{3A3}-\x{3F5}\x{3F7}-\x{481}\x{48A}-\x{52F}\x{531}-\x{556}\x{10A0}-\x{10C5})"
    R"(\x{13A0}-\x{13F5}\x{13F8}-\x{13FD}\x{1C90}-\x{1CBA}\x{1CBD}-\x{1CBF}\x{1D00}-\x{1D2B}\x{1D6B}-\x{1D77})"
    R"(\x{1D79}-\x{1D9A}\x{1E00}-\x{1F15}\x{1F18}-\x{1F1D}\x{1F20}-\x{1F45}\x{1F48}-\x{1F4D}\x{1F50}-\x{1F57})"
    R"(\x{1F59}\x{1F5B}\x{1F5D}\x{1F5F}-\x{1F7D}\x{1F80}-\x{1FB4}\x{1FB6}-\x{1FBC}\x{1FBE}\x{1FC2}-\x{1FC4})"
    R"(\x{1FC6}-\x{1FCC}\x{1FD0}-\x{1FD3}\x{1FD6}-\x{1FDB}\x{1FE0}-\x{1FEC}\x{1FF2}-\x{1FF4}\x{1FF6}-\x{1FFC})"
    R"(\x{2102}\x{2107}\x{210A}-\x{2113}\x{2115}\x{2119}-\x{211D}\x{2124}\x{2126}\x{2128}\x{212A}-\x{212D})"
    R"(\x{212F}-\x{2134}\x{2139}\x{213C}-\x{213F}\x{2145}-\x{2149}\x{214E}\x{2183}\x{2184}\x{2C00}-\x{2C7B})"
    R"(\x{2C7E}-\x{2CE4}\x{2CEB}-\x{2CEE}\x{2CF2}\x{2CF3}\x{A640}-\x{A66D}\x{A680}-\x{A69B}\x{A722}-\x{A76F})"
    R"(\x{A771}-\x{A787}\x{A78B}-\x{A78E}\x{AB70}-\x{ABBF}\x{FB00}-\x{FB06}\x{FB13}-\x{FB17}\x{FF21}-\x{FF3A})"
    R"(\x{FF41}-\x{FF5A}\x{10400}-\x{1044F}\x{104B0}-\x{104D3}\x{104D8}-\x{104FB}\x{10C80}-\x{10CB2})"
    R"(\x{10CC0}-\x{10CF2}\x{118A0}-\x{118DF}\x{1E900}-\x{1E943})";
constexpr const char* kCjk = R"([\x{4E00}-\x{9FA5}\x{0800}-\x{4E00}\x{AC00}-\x{D7FF}]+)";

struct NamedChain {
    std::vector<const char*> names;
    std::vector<std::string> patterns;
};

const std::vector<NamedChain>& namedChains() {
    static const std::vector<NamedChain> chains = {
        {{"default"}, {R"([\p{P}\$\+<=>\^~\|]+)", kGpt2, R"(\p{N}+)", R"([0-9][0-9][0-9])"}},
        {{"gpt-2", "phi-2", "mpt", "olmo", "jais", "jina-es", "jina-de", "jina-v2-es", "jina-v2-de"}, {kGpt2}},
        {{"llama-bpe", "llama3", "llama-v3", "falcon3", "dbrx", "smaug-bpe", "chatglm-bpe", "glm4"}, {kLlama3}},
        {{"qwen2", "stablelm2", "deepseek-r1-qwen", "megrez"}, {kQwen2}},
        {{"deepseek-llm"},
         {R"([\r\n])", std::string(R"(\s?[)") + kDeepSeekLetters + "]+",
          R"(\s?[!-/:-~\x{FF01}-\x{FF0F}\x{FF1A}-\x{FF5E}\x{2018}-\x{201F}\x{3000}-\x{3002}]+)", R"(\s+$)", kCjk,
          R"(\p{N}+)"}},
        {{"deepseek-coder"}, {R"([\r\n])", R"(\s?\p{L}+)", R"(\s?\p{P}+)", kCjk, R"(\p{N})"}},
        {{"falcon"}, {R"([\p{P}\$\+<=>\^~\|`]+)", kGpt2, R"([0-9][0-9][0-9])"}},
        {{"starcoder", "refact", "smollm", "command-r", "codeshell", "exaone", "minerva-7b"}, {R"(\p{N})", kGpt2}},
    };
    return chains;
}

// Per-thread match state: PCRE2 match data is not shareable between threads, compiled code is.
struct MatchScratch {
    pcre2_match_data* data = nullptr;
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* jitStack = nullptr;

    MatchScratch() {
        data = pcre2_match_data_create(1, nullptr);
        context = pcre2_match_context_create(nullptr);
        // The default 32 KiB JIT stack overflows on long runs of one class (\s+ over a page of spaces).
        jitStack = pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, nullptr);
        if (context && jitStack)
            pcre2_jit_stack_assign(context, nullptr, jitStack);
    }
    ~MatchScratch() {
        pcre2_jit_stack_free(jitStack);
        pcre2_match_context_free(context);
        pcre2_match_data_free(data);
    }
    MatchScratch(const MatchScratch&) = delete;
    MatchScratch& operator=(const MatchScratch&) = delete;
};

MatchScratch& scratch() {
    thread_local MatchScratch s;
    return s;
}

struct Segment {
    std::size_t begin;
    std::size_t end;
    bool isMatch;
};

} // namespace

struct PreTokenizer::Step {
    pcre2_code* code = nullptr;
    Behavior behavior = Behavior::Isolated;
    bool invert = false;

    ~Step() { pcre2_code_free(code); }

    // Matches and the text between them, covering [0, length) of subject.
    void segments(const char* subject, std::size_t length, std::vector<Segment>& out) const {
        out.clear();
        MatchScratch& s = scratch();
        const auto* text = reinterpret_cast<PCRE2_SPTR>(subject);
        std::size_t start = 0;
        std::size_t previousEnd = 0;
        while (start <= length) {
            const int rc = pcre2_match(code, text, length, start, 0, s.data, s.context);
            if (rc < 0)
                break; // no further match (or a resource limit): the rest stays one piece
            const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(s.data);
            const std::size_t b = ov[0];
            const std::size_t e = ov[1];
            if (e <= b) {
                // An empty match splits nothing; step over one character and search on.
                if (b >= length)
                    break;
                start = b + std::min(utf8::sequenceLength(static_cast<unsigned char>(subject[b])), length - b);
                continue;
            }
            if (b > previousEnd)
                out.push_back({previousEnd, b, false});
            out.push_back({b, e, true});
            previousEnd = e;
            start = e;
        }
        if (previousEnd < length)
            out.push_back({previousEnd, length, false});
        if (invert)
            for (Segment& seg : out)
                seg.isMatch = !seg.isMatch;
    }

    // Applies the behaviour (Hugging Face's SplitDelimiterBehavior) to the segments of one piece.
    void apply(const std::vector<Segment>& segs, std::size_t offset, std::vector<Span>& out) const {
        switch (behavior) {
        case Behavior::Isolated:
            for (const Segment& seg : segs)
                out.push_back({offset + seg.begin, offset + seg.end});
            break;
        case Behavior::Removed:
            for (const Segment& seg : segs)
                if (!seg.isMatch)
                    out.push_back({offset + seg.begin, offset + seg.end});
            break;
        case Behavior::MergedWithPrevious: {
            const std::size_t first = out.size();
            bool previousMatch = false;
            for (const Segment& seg : segs) {
                if (seg.isMatch && !previousMatch && out.size() > first)
                    out.back().end = offset + seg.end;
                else
                    out.push_back({offset + seg.begin, offset + seg.end});
                previousMatch = seg.isMatch;
            }
            break;
        }
        case Behavior::MergedWithNext: {
            std::vector<Span> reversed;
            bool nextMatch = false;
            for (auto it = segs.rbegin(); it != segs.rend(); ++it) {
                if (it->isMatch && !nextMatch && !reversed.empty())
                    reversed.back().begin = offset + it->begin;
                else
                    reversed.push_back({offset + it->begin, offset + it->end});
                nextMatch = it->isMatch;
            }
            out.insert(out.end(), reversed.rbegin(), reversed.rend());
            break;
        }
        case Behavior::Contiguous: {
            const std::size_t first = out.size();
            bool previousMatch = false;
            for (const Segment& seg : segs) {
                if (seg.isMatch == previousMatch && out.size() > first)
                    out.back().end = offset + seg.end;
                else
                    out.push_back({offset + seg.begin, offset + seg.end});
                previousMatch = seg.isMatch;
            }
            break;
        }
        }
    }
};

PreTokenizer::PreTokenizer() = default;
PreTokenizer::~PreTokenizer() = default;
PreTokenizer::PreTokenizer(const PreTokenizer&) = default;
PreTokenizer& PreTokenizer::operator=(const PreTokenizer&) = default;
PreTokenizer::PreTokenizer(PreTokenizer&&) noexcept = default;
PreTokenizer& PreTokenizer::operator=(PreTokenizer&&) noexcept = default;

const char* PreTokenizer::gpt2Pattern() {
    return R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
}

Result<PreTokenizer> PreTokenizer::forGgufType(const std::string& name) {
    for (const NamedChain& chain : namedChains()) {
        if (std::find_if(chain.names.begin(), chain.names.end(), [&](const char* n) { return name == n; }) ==
            chain.names.end())
            continue;
        PreTokenizer pre;
        for (const std::string& pattern : chain.patterns) {
            Status added = pre.addSplit(pattern, false, Behavior::Isolated, false, Dialect::LlamaCpp);
            if (!added)
                return Error::internal(added.error().message); // our own table: a bad pattern is our bug
        }
        return pre;
    }
    return Error::badInput(QStringLiteral("unknown pre-tokenizer type '%1'").arg(QString::fromStdString(name)));
}

Status PreTokenizer::addSplit(const std::string& pattern, bool literal, Behavior behavior, bool invert,
                              Dialect dialect) {
    std::uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
    std::string source = pattern;
    if (literal) {
        options |= PCRE2_LITERAL;
    } else {
        options |= PCRE2_UCP;
        options |= dialect == Dialect::LlamaCpp ? PCRE2_DOLLAR_ENDONLY : PCRE2_MULTILINE;
        source = expandWhiteSpace(pattern);
    }
    int errorCode = 0;
    PCRE2_SIZE errorOffset = 0;
    pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(source.data()), source.size(), options, &errorCode,
                                     &errorOffset, nullptr);
    if (!code) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(errorCode, message, sizeof(message));
        return Error::badInput(
            QStringLiteral("the pre-tokenizer pattern '%1' is not a valid regular expression (%2)")
                .arg(QString::fromStdString(pattern), QString::fromUtf8(reinterpret_cast<const char*>(message))));
    }
    pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); // on failure PCRE2 interprets the pattern instead
    auto step = std::make_shared<Step>();
    step->code = code;
    step->behavior = behavior;
    step->invert = invert;
    m_steps.push_back(std::move(step));
    return {};
}

Status PreTokenizer::addDigits(bool individual) {
    return addSplit(individual ? R"(\p{N})" : R"(\p{N}+)", false, Behavior::Isolated, false, Dialect::HuggingFace);
}

void PreTokenizer::split(std::string_view text, std::vector<Span>& pieces) const {
    pieces.clear();
    if (text.empty())
        return;
    pieces.push_back({0, text.size()});
    std::vector<Span> next;
    std::vector<Segment> segs;
    for (const auto& step : m_steps) {
        next.clear();
        next.reserve(pieces.size() * 2);
        for (const Span& piece : pieces) {
            step->segments(text.data() + piece.begin, piece.end - piece.begin, segs);
            step->apply(segs, piece.begin, next);
        }
        pieces.swap(next);
    }
}

} // namespace swb
