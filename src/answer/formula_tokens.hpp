#pragma once
// The tokens of a student's formula answer (private to formula_text.cpp): every spelling of the same thing, ASCII,
// Unicode or TeX, made one token, so that the reader in formula_text.cpp sees only structure.

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::answer::detail {

/// What a FormulaToken is (named apart from answer/lexer.hpp's TokenKind, which shares the namespace).
enum class FormulaTokenKind {
    number,    ///< text: the digits as written (a leading '.' gets a 0)
    name,      ///< text: a name, \_ read as _
    op,        ///< text: + - * / ^ , = == < <= > >= !=
    open,      ///< closer: the character that closes it; text: the function it calls ("ceil" for \lceil), or ""
    close,     ///< closer: as for open
    subscript, ///< '_' between a name and what is appended to it
    function,  ///< text: frac, sqrt, cbrt, ln, exp, log2, log10, max, min; display: as written (\ln, √)
    end,
};

/// One token of a formula answer. Closers: ')' ']' '}' for themselves, 'B' for \}, 'C' for \rceil and ⌉, 'F' for
/// \rfloor and ⌋.
struct FormulaToken {
    FormulaTokenKind kind = FormulaTokenKind::end;
    std::string text;
    char closer = 0;
    std::string display;
    bool tex_index = false; ///< \sqrt, which may be followed by [3]
};

/// The tokens of `typed`, its math delimiters ($...$, $$...$$, \(...\), \[...\]) left out, ending with one of
/// kind end; fails with a reason on a character or TeX command that is not read, or malformed UTF-8.
std::expected<std::vector<FormulaToken>, std::string> lex_formula_answer(std::string_view typed);

} // namespace headcount::answer::detail
