#include "chat/JinjaTemplate.h"

#include <algorithm>

#include "chat/JinjaParser.h"
#include "chat/JinjaRenderer.h"

namespace swb::jinja {

namespace {

// The offset of the first byte that keeps `text` from being UTF-8 text (a malformed or overlong sequence, a
// surrogate, a NUL byte), or npos.
std::size_t firstNonText(const std::string& text)
{
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        if (c == 0)
            return i;
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t code = 0;
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
            code = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            code = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            code = c & 0x07;
        } else {
            return i;
        }
        if (i + length > n)
            return i;
        for (std::size_t k = 1; k < length; ++k) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            code = (code << 6) | (s[i + k] & 0x3F);
        }
        if ((length == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) ||
            (length == 4 && (code < 0x10000 || code > 0x10FFFF)))
            return i;
        i += length;
    }
    return std::string::npos;
}

} // namespace

Result<Template> Template::parse(const std::string& source)
{
    if (const std::size_t at = firstNonText(source); at != std::string::npos) {
        const auto line = 1 + std::count(source.begin(), source.begin() + std::ptrdiff_t(at), '\n');
        return Error::badInput(QStringLiteral("line %1: the template is not text: byte %2 is %3")
                                   .arg(line)
                                   .arg(at)
                                   .arg(source[at] == 0 ? QStringLiteral("a NUL byte")
                                                        : QStringLiteral("not valid UTF-8")));
    }
    try {
        auto program = std::make_shared<Program>();
        program->body = parseTokens(tokenize(source));
        return Template(std::move(program));
    } catch (const TemplateError& error) {
        return Error::badInput(QStringLiteral("line %1: %2").arg(error.line).arg(QString::fromStdString(error.message)));
    } catch (const std::exception& error) { // as in render: an error, never an abort
        return Error::badInput(QStringLiteral("the template does not parse: %1").arg(QString::fromUtf8(error.what())));
    }
}

Result<std::string> Template::render(const Value& context) const
{
    try {
        t_renderBudget = RenderBudget{};
        return renderProgram(*m_program, context);
    } catch (const TemplateError& error) {
        return Error::badInput(QStringLiteral("line %1: %2").arg(error.line).arg(QString::fromStdString(error.message)));
    } catch (const std::bad_alloc&) {
        return Error::badInput(QStringLiteral("the template needs more memory than there is"));
    } catch (const std::exception& error) { // a value of a type no check above expected: an error, never an abort
        return Error::badInput(QStringLiteral("the template failed: %1").arg(QString::fromUtf8(error.what())));
    }
}

} // namespace swb::jinja
