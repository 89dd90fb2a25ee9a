#pragma once
// Splits a typed answer into tokens. Everything about characters lives here: UTF-8, Unicode operators and
// spaces, superscript exponents, digit-group separators and the TeX students paste from their notes ($...$,
// \times, \cdot, ^{...}, 262{,}656, \frac, \text{...}); the parser in answer.cpp only sees tokens.

#include <answer/rational.hpp>

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::answer::detail {

enum class TokenKind {
    number,
    word,
    plus,
    minus,
    times,
    divide,
    power,
    open,
    close,
    equals,
    approx,
    dot,
    frac,    ///< TeX's \frac: the two groups after it are numerator and denominator
    percent, ///< %, only when lex_answer is asked for it
    end
};

/// A decimal literal as written, before any arithmetic: 1.050624e6 is digits 1050624, decimals 6, exponent 6.
struct NumberLiteral {
    Wide digits = 0;        ///< every digit written, point and separators removed
    int decimals = 0;       ///< digits after the decimal point
    int exponent = 0;       ///< the e-notation exponent, clamped to ±k_max_literal_exponent; 0 without one
    int significant = 0;    ///< digits from the first non-zero one (at least 1)
    bool has_point = false; ///< a decimal point was written
    bool has_exponent = false;
};

/// One token of an answer.
struct Token {
    TokenKind kind = TokenKind::end;
    int position = 0;     ///< 1-based, in characters (code points) of the original text
    std::string text;     ///< as typed, for messages; "" for end
    NumberLiteral number; ///< only for TokenKind::number
    bool spaced = false;  ///< whitespace stands before it: 4(5) is a product, 1050624 (4*262656) a second number
};

/// Exponents are clamped here; anything this far out overflows (or underflows) later with a proper reason.
inline constexpr int k_max_literal_exponent = 100'000;

/// The tokens of `text` ending with one TokenKind::end; or a reason: "not valid UTF-8", a NUL byte, a
/// misplaced group separator, a hexadecimal literal, an exponent without digits, an unknown TeX command, or an
/// unexpected character and its position. Superscript exponents (10⁶) come out as power and number tokens; TeX
/// braces as parentheses, except those of \text{...} and its kin, whose words stand as typed. '%' (and TeX's \%)
/// is a percent token when `percent` is set, and otherwise the unexpected character it always was.
std::expected<std::vector<Token>, std::string> lex_answer(std::string_view text, bool percent = false);

} // namespace headcount::answer::detail
