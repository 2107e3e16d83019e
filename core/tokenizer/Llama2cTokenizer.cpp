#include "tokenizer/Llama2cTokenizer.h"

#include <cstring>
#include <queue>

#include <QFile>

#include "tokenizer/Utf8.h"

namespace swb {

namespace {

constexpr TokenId kBos = 1;
constexpr TokenId kEos = 2;
constexpr TokenId kFirstByteToken = 3; // run.c: byte b is token b + 3
constexpr float kNoMerge = -1e10f;     // run.c's starting best_score: pairs must beat it
constexpr int kMinimumVocab = 3 + 256; // <unk>, BOS, EOS and the 256 byte tokens run.c assumes

// run.c parses byte pieces with sscanf("<0x%02hhX>"); vocabularies spell them with upper-case hex.
int byteOf(std::string_view text) {
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

} // namespace

Result<std::unique_ptr<Llama2cTokenizer>> Llama2cTokenizer::load(const QString& path, int expectedVocabSize) {
    QFile file(path);
    if (!file.exists())
        return Error::badInput(QStringLiteral("%1 does not exist").arg(path));
    if (!file.open(QIODevice::ReadOnly))
        return Error::badInput(QStringLiteral("cannot open %1: %2").arg(path, file.errorString()));
    const QByteArray data = file.readAll();
    const char* p = data.constData();
    const auto size = static_cast<std::size_t>(data.size());
    std::size_t pos = 0;

    std::unique_ptr<Llama2cTokenizer> t(new Llama2cTokenizer);
    std::int32_t maxTokenLength = 0;
    if (size >= 4)
        std::memcpy(&maxTokenLength, p, 4);
    pos = 4;
    if (size < 4 || maxTokenLength <= 0)
        return Error::badInput(
            QStringLiteral("%1 is not a llama2.c tokenizer (no valid max_token_length header)").arg(path));
    const auto expected = static_cast<std::size_t>(expectedVocabSize < 0 ? 0 : expectedVocabSize);
    while (pos < size && (expectedVocabSize < 0 || t->m_tokens.size() < expected)) {
        const std::size_t index = t->m_tokens.size();
        float score = 0;
        std::int32_t length = 0;
        if (size - pos < 8)
            return Error::badInput(
                QStringLiteral("%1 is truncated: it ends inside the header of token %2").arg(path).arg(index));
        std::memcpy(&score, p + pos, 4);
        std::memcpy(&length, p + pos + 4, 4);
        pos += 8;
        if (length < 0 || static_cast<std::size_t>(length) > size - pos)
            return Error::badInput(QStringLiteral("%1 is truncated or corrupt: token %2 claims %3 bytes")
                                       .arg(path)
                                       .arg(index)
                                       .arg(length));
        t->m_tokens.emplace_back(p + pos, static_cast<std::size_t>(length));
        t->m_scores.push_back(score);
        pos += static_cast<std::size_t>(length);
    }
    if (expectedVocabSize >= 0 && t->m_tokens.size() < expected)
        return Error::badInput(QStringLiteral("%1 holds %2 tokens but the model's vocabulary has %3")
                                   .arg(path)
                                   .arg(t->m_tokens.size())
                                   .arg(expected));
    if (pos < size)
        return Error::badInput(QStringLiteral("%1 has %2 bytes after the %3 tokens the model expects (wrong tokenizer "
                                              "for this model?)")
                                   .arg(path)
                                   .arg(size - pos)
                                   .arg(t->m_tokens.size()));
    if (static_cast<int>(t->m_tokens.size()) < kMinimumVocab)
        return Error::badInput(QStringLiteral("%1 holds %2 tokens; a llama2.c vocabulary needs at least %3 "
                                              "(<unk>, BOS, EOS and 256 byte tokens)")
                                   .arg(path)
                                   .arg(t->m_tokens.size())
                                   .arg(kMinimumVocab));

    t->m_pieces.resize(t->m_tokens.size());
    for (std::size_t id = 0; id < t->m_tokens.size(); ++id) {
        const std::string& text = t->m_tokens[id];
        // run.c looks tokens up with bsearch over unique strings; with duplicates the first id wins here.
        t->m_ids.emplace(std::string_view(text), static_cast<TokenId>(id));
        if (id < static_cast<std::size_t>(kFirstByteToken))
            continue; // <unk>, BOS, EOS print nothing
        const int byte = byteOf(text);
        t->m_pieces[id] = byte >= 0 ? std::string(1, static_cast<char>(byte)) : text;
    }
    t->m_special.unk = 0;
    t->m_special.bos = kBos;
    t->m_special.eos = kEos;
    t->m_special.addBos = true; // run.c encodes prompts with bos=1, eos=0
    t->m_special.addEos = false;
    return t;
}

TokenId Llama2cTokenizer::find(std::string_view text) const {
    const auto it = m_ids.find(text);
    return it == m_ids.end() ? -1 : it->second;
}

std::vector<TokenId> Llama2cTokenizer::encode(const std::string& text, bool addSpecial, bool /*parseSpecial*/) const {
    std::vector<TokenId> tokens;
    tokens.reserve(text.size() + 3);
    if (addSpecial)
        tokens.push_back(kBos);
    if (!text.empty()) {
        const TokenId space = find(" ");
        tokens.push_back(space >= 0 ? space : kFirstByteToken + ' ');
    }
    // One token per UTF-8 character (run.c groups a byte with up to three following continuation bytes).
    for (std::size_t i = 0; i < text.size();) {
        std::size_t len = 1;
        while (len < 4 && i + len < text.size() && utf8::isContinuation(static_cast<unsigned char>(text[i + len])))
            ++len;
        const std::string_view ch(text.data() + i, len);
        const TokenId id = find(ch);
        if (id >= 0) {
            tokens.push_back(id);
        } else {
            for (const char c : ch)
                tokens.push_back(static_cast<unsigned char>(c) + kFirstByteToken);
        }
        i += len;
    }

    // run.c rescans the whole sequence for the best pair after every merge; a heap of candidate pairs keyed
    // by (score, position) picks the same pair each time (stale entries are skipped when popped).
    struct Candidate {
        float score;
        int left;
        TokenId leftId;
        TokenId rightId;
        TokenId merged;
    };
    struct Later {
        bool operator()(const Candidate& a, const Candidate& b) const {
            return a.score < b.score || (a.score == b.score && a.left > b.left);
        }
    };
    const int n = static_cast<int>(tokens.size());
    std::vector<int> next(static_cast<std::size_t>(n)), prev(static_cast<std::size_t>(n));
    std::vector<bool> alive(static_cast<std::size_t>(n), true);
    for (int i = 0; i < n; ++i) {
        next[static_cast<std::size_t>(i)] = i + 1 < n ? i + 1 : -1;
        prev[static_cast<std::size_t>(i)] = i - 1;
    }
    std::priority_queue<Candidate, std::vector<Candidate>, Later> queue;
    std::string joined;
    auto consider = [&](int left) {
        if (left < 0)
            return;
        const int right = next[static_cast<std::size_t>(left)];
        if (right < 0)
            return;
        const TokenId a = tokens[static_cast<std::size_t>(left)];
        const TokenId b = tokens[static_cast<std::size_t>(right)];
        joined.assign(m_tokens[static_cast<std::size_t>(a)]);
        joined += m_tokens[static_cast<std::size_t>(b)];
        const TokenId id = find(joined);
        if (id >= 0 && m_scores[static_cast<std::size_t>(id)] > kNoMerge)
            queue.push({m_scores[static_cast<std::size_t>(id)], left, a, b, id});
    };
    // run.c includes BOS in the scan; its text ("\n<s>\n") never forms a token with a neighbour.
    for (int i = 0; i + 1 < n; ++i)
        consider(i);
    while (!queue.empty()) {
        const Candidate c = queue.top();
        queue.pop();
        const int right = next[static_cast<std::size_t>(c.left)];
        if (!alive[static_cast<std::size_t>(c.left)] || right < 0 ||
            tokens[static_cast<std::size_t>(c.left)] != c.leftId ||
            tokens[static_cast<std::size_t>(right)] != c.rightId)
            continue;
        tokens[static_cast<std::size_t>(c.left)] = c.merged;
        alive[static_cast<std::size_t>(right)] = false;
        next[static_cast<std::size_t>(c.left)] = next[static_cast<std::size_t>(right)];
        if (next[static_cast<std::size_t>(right)] >= 0)
            prev[static_cast<std::size_t>(next[static_cast<std::size_t>(right)])] = c.left;
        consider(prev[static_cast<std::size_t>(c.left)]);
        consider(c.left);
    }
    std::vector<TokenId> out;
    out.reserve(tokens.size() + 1);
    for (int i = n > 0 ? 0 : -1; i >= 0; i = next[static_cast<std::size_t>(i)])
        out.push_back(tokens[static_cast<std::size_t>(i)]);
    return out;
}

std::string Llama2cTokenizer::decode(const std::vector<TokenId>& ids) const {
    std::string text;
    TokenId previous = kBos; // the start of a sequence behaves like the position after BOS
    for (const TokenId id : ids) {
        if (id < 0 || id >= vocabSize())
            continue;
        const std::string& p = m_pieces[static_cast<std::size_t>(id)];
        if (previous == kBos && !p.empty() && p.front() == ' ')
            text.append(p, 1, std::string::npos);
        else
            text += p;
        previous = id;
    }
    return text;
}

std::string Llama2cTokenizer::piece(TokenId id) const {
    if (id < 0 || id >= vocabSize())
        return {};
    return m_pieces[static_cast<std::size_t>(id)];
}

std::string Llama2cTokenizer::tokenText(TokenId id) const {
    if (id < 0 || id >= vocabSize())
        return {};
    return m_tokens[static_cast<std::size_t>(id)];
}

bool Llama2cTokenizer::isSpecial(TokenId id) const {
    return id >= 0 && id < kFirstByteToken;
}

} // namespace swb
