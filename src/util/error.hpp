#pragma once
// The one error type the library returns; only the CLI turns it into text on stderr and an exit code.

#include <expected>
#include <string>

namespace headcount {

/// Where and why something failed. line/column are 1-based; 0 means "unknown" and is left out of to_string().
struct Error {
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;

    /// "file:line:col: message", dropping the parts that are unknown.
    [[nodiscard]] std::string to_string() const;
};

/// The library's return type: a value or the reason there is none.
template <class T> using Result = std::expected<T, Error>;

/// An error with only a message (no file or position), for callers to locate later.
inline std::unexpected<Error> fail(std::string message) { return std::unexpected(Error{{}, 0, 0, std::move(message)}); }

} // namespace headcount
