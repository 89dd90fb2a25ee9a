#pragma once
// The one error type the library returns; only the CLI turns it into text on stderr and an exit code.

#include <expected>
#include <string>
#include <string_view>

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

/// A source line quoted under an error, as compilers do: the line's number and text, and a caret under byte column
/// `column` (1-based) of it:
///     "    4 | parts: [{id: a, ask: d_k, feedback: all}]\n      |                                     ^\n"
/// Control characters and bytes that are not UTF-8 are shown as '?'; a line longer than 100 characters is cut to
/// the 100 around the column, with "..." where it was cut.
std::string source_excerpt(std::string_view line_text, int line, int column);

/// The library's return type: a value or the reason there is none.
template <class T> using Result = std::expected<T, Error>;

/// An error with only a message (no file or position), for callers to locate later.
inline std::unexpected<Error> fail(std::string message) { return std::unexpected(Error{{}, 0, 0, std::move(message)}); }

} // namespace headcount
