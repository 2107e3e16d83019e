#pragma once

#include <optional>
#include <utility>
#include <variant>

#include <QString>

namespace swb {

// Why an operation failed: the user's input (exit status 2 in the CLI) or our own fault (exit status 1).
enum class ErrorKind { BadInput, Internal };

// One clear sentence naming what is wrong, meant to be shown to the user as is.
struct Error {
    QString message;
    ErrorKind kind = ErrorKind::BadInput;

    static Error badInput(QString message) { return {std::move(message), ErrorKind::BadInput}; }
    static Error internal(QString message) { return {std::move(message), ErrorKind::Internal}; }
};

// A value or an Error; core returns these instead of throwing across its boundary. Dropping one unread is a
// build error (-Werror=unused-result).
template <typename T> class [[nodiscard]] Result {
public:
    Result(T value)
        : m_state(std::move(value)) {}
    Result(Error error)
        : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_state); }
    const T& value() const& { return std::get<T>(m_state); }
    T&& value() && { return std::get<T>(std::move(m_state)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }

    const Error& error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

// Result of an operation that returns nothing on success.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error)
        : m_error(std::move(error)) {}
    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace swb
