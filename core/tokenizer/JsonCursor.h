#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace swb {

// A pull reader over JSON text that keeps nothing: strings decode straight into the caller's buffer,
// whatever is not wanted is skipped, and a value's raw text can be taken whole. It reads the tens of
// megabytes of a large tokenizer.json (a 262k vocabulary, half a million merges) in one pass without
// building a document. Errors stop it: ok() turns false and error() says what and where.
class JsonCursor {
public:
    explicit JsonCursor(std::string_view text) : m_text(text) {}

    bool ok() const { return m_error.empty(); }
    // What went wrong and where, e.g. "expected ':' at byte 120".
    const std::string& error() const { return m_error; }

    // The type of the next value: '{', '[', '"', 'n' (number), 't'/'f' (true/false), 'N' (null), 0 at the end.
    char peekType();
    // Objects: beginObject(), then nextKey(&key) until it returns false (the closing brace is consumed).
    bool beginObject();
    bool nextKey(std::string* key);
    // Arrays: beginArray(), then nextElement() before each element until it returns false.
    bool beginArray();
    bool nextElement();
    bool readString(std::string* out);
    bool readInteger(long long* out);
    // Any number: *isInteger says whether it was written as one (no fraction or exponent) and fits.
    bool readNumber(double* real, long long* integer, bool* isInteger);
    bool readBool(bool* out);
    bool readNull();
    // Stops the reader with what went wrong (the position is added).
    bool fail(const std::string& what);
    // Skips the next value; rawValue also returns its text.
    bool skipValue();
    bool rawValue(std::string_view* out);
    std::size_t position() const { return m_pos; }
    // Whether only whitespace is left.
    bool atEnd();

private:
    void skipSpace();
    bool expect(char c);

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::string m_error;
    // Whether the container just opened has had an element yet (a small stack for the nesting).
    std::string m_firstStack;
};

} // namespace swb
