#include "tokenizer/BpeTokenizer.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include <QString>
#include <QStringDecoder>

#include "tokenizer/ByteLevelAlphabet.h"
#include "tokenizer/Utf8.h"

namespace swb {

namespace {

constexpr std::string_view kMetaspace = "\xe2\x96\x81"; // U+2581, SentencePiece's visible space
constexpr std::size_t kCacheMaxPiece = 64;              // longer pieces rarely repeat
constexpr std::size_t kCacheMaxEntries = 1 << 17;

bool isAsciiSpace(char c) {
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool startsWithSpace(std::string_view s) {
    return !s.empty() && (s.front() == ' ' || s.substr(0, kMetaspace.size()) == kMetaspace);
}

void replaceAll(std::string& s, std::string_view from, std::string_view to) {
    std::string out;
    out.reserve(s.size() + s.size() / 4);
    std::size_t pos = 0;
    for (std::size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size()) {
        out.append(s, pos, hit - pos);
        out.append(to);
    }
    out.append(s, pos, std::string::npos);
    s.swap(out);
}

// "<0x0A>" -> 0x0A; -1 when text is not a byte token's spelling.
int parseByteToken(std::string_view text) {
    if (text.size() != 6 || text.substr(0, 3) != "<0x" || text[5] != '>')
        return -1;
    int value = 0;
    for (const char c : text.substr(3, 2)) {
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= c - '0';
        else if (c >= 'A' && c <= 'F')
            value |= c - 'A' + 10;
        else if (c >= 'a' && c <= 'f')
            value |= c - 'a' + 10;
        else
            return -1;
    }
    return value;
}

bool isAscii(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

QString quoted(std::string_view s) {
    return QStringLiteral("'%1'").arg(QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())));
}

} // namespace

BpeTokenizer::BpeTokenizer(Config config)
    : m_config(std::move(config)) {
    std::fill(std::begin(m_byteTokens), std::end(m_byteTokens), -1);
}

Result<std::unique_ptr<BpeTokenizer>> BpeTokenizer::create(Config config) {
    const QString source = config.source;
    if (config.tokens.empty())
        return Error::badInput(QStringLiteral("%1 has an empty vocabulary").arg(source));
    std::unique_ptr<BpeTokenizer> t(new BpeTokenizer(std::move(config)));
    const std::vector<Token>& tokens = t->m_config.tokens;
    const auto n = static_cast<TokenId>(tokens.size());

    t->m_ids.reserve(tokens.size());
    for (TokenId id = 0; id < n; ++id) {
        const std::string& text = tokens[static_cast<std::size_t>(id)].text;
        if (text.empty())
            continue; // holes in a vocabulary cannot be produced from text
        const TokenId first = t->m_ids.insert(std::string_view(text), id);
        if (first != id)
            return Error::badInput(QStringLiteral("%1: token %2 appears twice in the vocabulary (ids %3 and %4)")
                                       .arg(source, quoted(text))
                                       .arg(first)
                                       .arg(id));
    }

    t->m_merges.reserve(t->m_config.merges.size() + t->m_config.resolvedMerges.size());
    for (std::size_t rank = 0; rank < t->m_config.resolvedMerges.size(); ++rank) {
        const auto& [a, b, r] = t->m_config.resolvedMerges[rank];
        if (a < 0 || b < 0 || r < 0 || a >= n || b >= n || r >= n)
            return Error::badInput(QStringLiteral("%1: merge rule %2 names a token outside the vocabulary").arg(source).arg(rank + 1));
        t->m_merges.insert(a, b, {static_cast<std::int32_t>(rank), r});
    }
    t->m_config.resolvedMerges.clear();
    t->m_config.resolvedMerges.shrink_to_fit();
    std::string joined;
    for (std::size_t rank = 0; rank < t->m_config.merges.size(); ++rank) {
        const auto& [left, right] = t->m_config.merges[rank];
        joined = left + right;
        const TokenId a = t->find(left);
        const TokenId b = t->find(right);
        const TokenId r = t->find(joined);
        const std::string_view missing = a < 0 ? std::string_view(left) : b < 0 ? right : joined;
        if (a < 0 || b < 0 || r < 0)
            return Error::badInput(QStringLiteral("%1: merge rule %2 (%3) names %4, which is not in the vocabulary")
                                       .arg(source)
                                       .arg(rank + 1)
                                       .arg(quoted(left + " " + right), quoted(missing)));
        t->m_merges.insert(a, b, {static_cast<std::int32_t>(rank), r}); // a repeated pair keeps its first rank
    }
    // The rules live on as the table; their texts are not needed again.
    t->m_config.merges.clear();
    t->m_config.merges.shrink_to_fit();

    SpecialTokens& special = t->m_config.special;
    for (TokenId* id : {&special.bos, &special.eos, &special.unk, &special.pad})
        if (*id < -1 || *id >= n)
            return Error::badInput(QStringLiteral("%1: special token id %2 is outside the vocabulary of %3 tokens")
                                       .arg(source)
                                       .arg(*id)
                                       .arg(n));
    if (special.addBos && special.bos < 0)
        return Error::badInput(QStringLiteral("%1 asks for a BOS token at the start but names none").arg(source));
    if (special.addEos && special.eos < 0)
        return Error::badInput(QStringLiteral("%1 asks for an EOS token at the end but names none").arg(source));

    char spelling[8];
    for (int b = 0; b < 256; ++b) {
        std::snprintf(spelling, sizeof(spelling), "<0x%02X>", b);
        t->m_byteTokens[b] = t->find(spelling);
    }

    // What each token decodes to in the middle of a text.
    const ByteLevelAlphabet& alphabet = ByteLevelAlphabet::instance();
    t->m_pieces.resize(tokens.size());
    for (std::size_t id = 0; id < tokens.size(); ++id) {
        const Token& token = tokens[id];
        std::string& piece = t->m_pieces[id];
        switch (token.kind) {
        case TokenKind::Normal:
            if (t->m_config.byteLevel) {
                if (!alphabet.decode(token.text, piece))
                    piece = token.text; // not in the alphabet: show it as stored rather than lose it
            } else {
                piece = token.text;
                if (t->m_config.metaspace)
                    replaceAll(piece, kMetaspace, " ");
            }
            break;
        case TokenKind::Byte: {
            const int byte = parseByteToken(token.text);
            piece = byte >= 0 ? std::string(1, static_cast<char>(byte)) : token.text;
            break;
        }
        case TokenKind::UserDefined:
            piece = token.text;
            break;
        case TokenKind::Control:
        case TokenKind::Unknown:
        case TokenKind::Unused:
            break;
        }
        if (token.kind == TokenKind::Control || token.kind == TokenKind::UserDefined ||
            token.kind == TokenKind::Unknown) {
            if (!token.text.empty())
                t->m_addedTokens.push_back(static_cast<TokenId>(id));
        }
    }
    std::stable_sort(t->m_addedTokens.begin(), t->m_addedTokens.end(), [&](TokenId a, TokenId b) {
        return tokens[static_cast<std::size_t>(a)].text.size() > tokens[static_cast<std::size_t>(b)].text.size();
    });
    return t;
}

std::vector<std::pair<TokenId, TokenId>> BpeTokenizer::mergeRules() const {
    std::vector<std::pair<std::int32_t, std::pair<TokenId, TokenId>>> ranked;
    m_merges.forEach([&](TokenId left, TokenId right, const MergeTable::Merge& merge) {
        ranked.push_back({merge.rank, {left, right}});
    });
    std::sort(ranked.begin(), ranked.end());
    std::vector<std::pair<TokenId, TokenId>> rules;
    rules.reserve(ranked.size());
    for (const auto& [rank, rule] : ranked)
        rules.push_back(rule);
    return rules;
}

TokenId BpeTokenizer::find(std::string_view text) const {
    return m_ids.find(text);
}

std::string BpeTokenizer::piece(TokenId id) const {
    if (id < 0 || id >= vocabSize())
        return {};
    return m_pieces[static_cast<std::size_t>(id)];
}

std::string BpeTokenizer::tokenText(TokenId id) const {
    if (id < 0 || id >= vocabSize())
        return {};
    return m_config.tokens[static_cast<std::size_t>(id)].text;
}

bool BpeTokenizer::isSpecial(TokenId id) const {
    if (id < 0 || id >= vocabSize())
        return false;
    const TokenKind kind = m_config.tokens[static_cast<std::size_t>(id)].kind;
    return kind == TokenKind::Control || kind == TokenKind::Unknown || kind == TokenKind::Unused;
}

std::string BpeTokenizer::decode(const std::vector<TokenId>& ids) const {
    std::string text;
    // The encoder put a dummy space before the text; the first piece that carries text gives it back.
    bool first = m_config.spacePrefix != SpacePrefix::None;
    for (const TokenId id : ids) {
        if (id < 0 || id >= vocabSize())
            continue;
        const std::string& p = m_pieces[static_cast<std::size_t>(id)];
        if (p.empty())
            continue;
        if (first && p.front() == ' ')
            text.append(p, 1, std::string::npos);
        else
            text += p;
        first = false;
    }
    return text;
}

std::vector<BpeTokenizer::Fragment> BpeTokenizer::splitAddedTokens(const std::string& text, bool parseSpecial) const {
    std::vector<Fragment> fragments;
    if (text.empty())
        return fragments;
    fragments.push_back({0, text.size(), -1});
    std::vector<Fragment> next;
    for (const TokenId id : m_addedTokens) {
        const Token& token = m_config.tokens[static_cast<std::size_t>(id)];
        // Like llama.cpp: control and unknown tokens only when asked; user-defined (added) tokens always.
        if (!parseSpecial && token.kind != TokenKind::UserDefined)
            continue;
        const std::string_view needle = token.text;
        bool found = false;
        next.clear();
        for (const Fragment& f : fragments) {
            if (f.token >= 0) {
                next.push_back(f);
                continue;
            }
            std::size_t begin = f.begin;
            const std::size_t end = f.end;
            while (begin < end) {
                const std::size_t hit = std::string_view(text).substr(0, end).find(needle, begin);
                if (hit == std::string_view::npos) {
                    next.push_back({begin, end, -1});
                    break;
                }
                found = true;
                std::size_t leftEnd = hit;
                if (token.lstrip)
                    while (leftEnd > begin && isAsciiSpace(text[leftEnd - 1]))
                        --leftEnd;
                if (leftEnd > begin)
                    next.push_back({begin, leftEnd, -1});
                next.push_back({hit, hit + needle.size(), id});
                begin = hit + needle.size();
                if (token.rstrip)
                    while (begin < end && isAsciiSpace(text[begin]))
                        ++begin;
            }
        }
        if (found)
            fragments.swap(next);
    }
    return fragments;
}

std::vector<TokenId> BpeTokenizer::encode(const std::string& text, bool addSpecial, bool parseSpecial) const {
    std::vector<TokenId> out;
    out.reserve(text.size() / 3 + 4);
    const SpecialTokens& special = m_config.special;
    if (addSpecial && special.addBos)
        out.push_back(special.bos);
    for (const Fragment& f : splitAddedTokens(text, parseSpecial)) {
        if (f.token >= 0)
            out.push_back(f.token);
        else
            encodeSection(std::string_view(text).substr(f.begin, f.end - f.begin), f.begin == 0, out);
    }
    if (addSpecial && special.addEos)
        out.push_back(special.eos);
    return out;
}

void BpeTokenizer::encodeSection(std::string_view section, bool atTextStart, std::vector<TokenId>& out) const {
    std::string work;
    std::string_view text = section;
    const Normalization form = m_config.normalization;
    if (form != Normalization::None && !isAscii(section)) {
        const QString::NormalizationForm qtForm = form == Normalization::Nfc    ? QString::NormalizationForm_C
                                                  : form == Normalization::Nfkc ? QString::NormalizationForm_KC
                                                  : form == Normalization::Nfd  ? QString::NormalizationForm_D
                                                                                : QString::NormalizationForm_KD;
        // Not QString::fromUtf8, which drops a U+FEFF at the start (a token of its own in Llama's vocabulary).
        QStringDecoder toUtf16(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom);
        const QString decoded = toUtf16(QByteArrayView(section.data(), static_cast<qsizetype>(section.size())));
        const QByteArray normalized = decoded.normalized(qtForm).toUtf8();
        work.assign(normalized.constData(), static_cast<std::size_t>(normalized.size()));
        text = work;
    }
    bool prefix = false;
    switch (m_config.spacePrefix) {
    case SpacePrefix::None:
        break;
    case SpacePrefix::Always:
        prefix = true;
        break;
    case SpacePrefix::IfMissing:
        prefix = !startsWithSpace(text);
        break;
    case SpacePrefix::FirstIfMissing:
        prefix = atTextStart && !startsWithSpace(text);
        break;
    }
    if (m_config.byteLevelPrefixSpace && (text.empty() || text.front() != ' '))
        prefix = true;
    if (prefix || m_config.escapeSpaces) {
        std::string s;
        s.reserve(text.size() + 4);
        if (prefix)
            s += ' ';
        s.append(text);
        if (m_config.escapeSpaces)
            replaceAll(s, " ", kMetaspace);
        work.swap(s);
        text = work;
    }

    std::vector<PreTokenizer::Span> pieces;
    m_config.preTokenizer.split(text, pieces);
    for (const PreTokenizer::Span& p : pieces)
        encodePiece(text.substr(p.begin, p.end - p.begin), out);
}

void BpeTokenizer::encodePiece(std::string_view piece, std::vector<TokenId>& out) const {
    const bool cacheable = piece.size() <= kCacheMaxPiece;
    if (cacheable) {
        const std::lock_guard<std::mutex> lock(m_cacheMutex);
        const auto it = m_cache.find(piece);
        if (it != m_cache.end()) {
            out.insert(out.end(), it->second.begin(), it->second.end());
            return;
        }
    }
    const std::size_t start = out.size();
    thread_local std::string mapped; // reused: most pieces are short, and allocation would dominate
    std::string_view word = piece;
    if (m_config.byteLevel) {
        mapped.clear();
        ByteLevelAlphabet::instance().encode(piece, mapped);
        word = mapped;
    }
    const TokenId whole = m_config.ignoreMerges ? find(word) : -1;
    if (whole >= 0)
        out.push_back(whole);
    else
        mergeWord(word, out);
    if (cacheable) {
        const std::lock_guard<std::mutex> lock(m_cacheMutex);
        if (m_cache.size() >= kCacheMaxEntries)
            m_cache.clear();
        m_cache.emplace(std::string(piece),
                        std::vector<TokenId>(out.begin() + static_cast<std::ptrdiff_t>(start), out.end()));
    }
}

void BpeTokenizer::mergeWord(std::string_view word, std::vector<TokenId>& out) const {
    struct Symbol {
        std::uint32_t begin;
        std::uint32_t length; // 0 once merged into its left neighbour
        TokenId id;
        int prev;
        int next;
    };
    struct Candidate {
        double priority; // merge rank, or minus the merged token's score
        int left;
        int right;
        std::uint32_t leftLength;
        std::uint32_t rightLength;
        TokenId result;
    };
    struct Later {
        bool operator()(const Candidate& a, const Candidate& b) const {
            return a.priority > b.priority || (a.priority == b.priority && a.left > b.left);
        }
    };

    // Per-thread scratch, reused across words (mergeWord never recurses).
    thread_local std::vector<Symbol> symbols;
    thread_local std::vector<Candidate> heap;
    symbols.clear();
    heap.clear();
    for (std::size_t pos = 0; pos < word.size();) {
        const std::size_t len =
            std::min(utf8::sequenceLength(static_cast<unsigned char>(word[pos])), word.size() - pos);
        const int index = static_cast<int>(symbols.size());
        symbols.push_back({static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(len),
                           find(word.substr(pos, len)), index - 1, pos + len < word.size() ? index + 1 : -1});
        pos += len;
    }
    const std::size_t wordStart = out.size();
    if (symbols.size() > 1 && !m_config.withoutMerges) {
        const bool byRank = !m_merges.empty();
        const Later later;
        auto push = [&](const Candidate& c) {
            heap.push_back(c);
            std::push_heap(heap.begin(), heap.end(), later);
        };
        auto consider = [&](int left, int right) {
            if (left < 0 || right < 0)
                return;
            const Symbol& l = symbols[static_cast<std::size_t>(left)];
            const Symbol& r = symbols[static_cast<std::size_t>(right)];
            if (byRank) {
                if (l.id < 0 || r.id < 0)
                    return;
                if (const MergeTable::Merge* merge = m_merges.find(l.id, r.id))
                    push({double(merge->rank), left, right, l.length, r.length, merge->result});
            } else {
                const TokenId joined = find(word.substr(l.begin, l.length + r.length));
                if (joined >= 0)
                    push({-double(m_config.tokens[static_cast<std::size_t>(joined)].score), left, right, l.length,
                          r.length, joined});
            }
        };
        for (int i = 1; i < static_cast<int>(symbols.size()); ++i)
            consider(i - 1, i);
        while (!heap.empty()) {
            std::pop_heap(heap.begin(), heap.end(), later);
            const Candidate c = heap.back();
            heap.pop_back();
            Symbol& l = symbols[static_cast<std::size_t>(c.left)];
            Symbol& r = symbols[static_cast<std::size_t>(c.right)];
            // Stale: one side has merged with something else since this pair was queued.
            if (l.length != c.leftLength || r.length != c.rightLength || l.next != c.right)
                continue;
            l.length += r.length;
            l.id = c.result;
            r.length = 0;
            l.next = r.next;
            if (r.next >= 0)
                symbols[static_cast<std::size_t>(r.next)].prev = c.left;
            consider(l.prev, c.left);
            consider(c.left, l.next);
        }
    }
    for (int i = 0; i >= 0 && i < static_cast<int>(symbols.size()); i = symbols[static_cast<std::size_t>(i)].next) {
        const Symbol& s = symbols[static_cast<std::size_t>(i)];
        if (s.id >= 0) {
            out.push_back(s.id);
            continue;
        }
        const std::string_view text = word.substr(s.begin, s.length);
        bool bytes = m_config.byteFallback;
        for (const char ch : text)
            bytes = bytes && m_byteTokens[static_cast<unsigned char>(ch)] >= 0;
        if (bytes) {
            for (const char ch : text)
                out.push_back(m_byteTokens[static_cast<unsigned char>(ch)]);
            continue;
        }
        const TokenId unk = m_config.special.unk;
        if (unk < 0)
            continue; // nothing can stand for it (llama.cpp drops such bytes too)
        if (m_config.fuseUnknown && out.size() > wordStart && out.back() == unk)
            continue;
        out.push_back(unk);
    }
}

} // namespace swb
