#pragma once
// The formula reader's tokens (private to src/formula): numbers with their exact values, names, operators.

#include <formula/formula.hpp>

#include <expected>
#include <optional>
#include <vector>

namespace headcount::formula::detail {

enum class Tok {
    number,
    name,
    plus,
    minus,
    times,
    divide,
    power,
    lparen,
    rparen,
    comma,
    compare, ///< < <= > >= == != (and = ≤ ≥ ≠): the token's `comparison` says which
    end
};

struct Token {
    Tok kind = Tok::end;
    std::size_t begin = 0; ///< byte offsets into the formula
    std::size_t end = 0;
    int column = 1;              ///< 1-based, in code points
    std::optional<Number> value; ///< for a number (empty otherwise: a rational costs an allocation)
    std::string_view comparison; ///< for Tok::compare: "<", "<=", ">", ">=", "==" or "!="
};

/// The formula's tokens, the last one Tok::end (at the column after the text); fails on a character that is no
/// token, malformed UTF-8, or a number past k_max_digits. ASCII whitespace, no-break and thin spaces separate.
std::expected<std::vector<Token>, Problem> lex(std::string_view text);

} // namespace headcount::formula::detail
