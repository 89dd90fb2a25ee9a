#pragma once
// A student's formula answer (12*layers*d_model^2, 12 L d_{model}^2, \frac{2 N T}{10^9}) rewritten as the text
// formula::parse reads, so that a formula answer is checked by the same engine as the instructor's formula. Only the
// spelling changes here: TeX becomes arithmetic, juxtaposition becomes '*'; what the formula means is formula's.

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>

namespace headcount::answer {

/// Longest formula answer read, in bytes of UTF-8.
inline constexpr std::size_t k_max_formula_answer_bytes = 400;
/// Deepest nesting of groups ((), [], {}, \lceil \rceil, ...) and of functions written without parentheses.
inline constexpr int k_max_formula_answer_depth = 48;

/// A student's formula answer, typed as arithmetic or as TeX, rewritten as the text formula::parse reads.
/// Untrusted input: never throws, linear time, and a short human reason on failure ("answer longer than 400 bytes",
/// "unbalanced braces", "\foo is not a TeX command headcount reads").
/// - Arithmetic passes through: numbers (0.45, 1e9, 3.12e14, 262{,}656), names, + - * / ^ ** , comparisons, the
///   functions of formula::functions(); − × · ⋅ ÷ ≤ ≥ ≠ become ASCII, ² ³ (any superscript digits) become ^2 ^3.
/// - Juxtaposition is a product: 2 N T -> 2*N*T, 12layers -> 12*layers, 2(a+b) -> 2*(a+b); a function's name
///   followed by a group is a call (sqrt(x), max(a, b)); 2e followed by a letter is 2 times a name.
/// - TeX: $...$, $$...$$, \(...\), \[...\] are stripped; \cdot \times \ast -> *, \div -> /, \frac{a}{b} (and
///   \dfrac, \tfrac, \frac12) -> (a/b); \sqrt{x} -> sqrt(x), \sqrt[3]{x} -> cbrt(x); ^{...} and every {...}, [...],
///   \left( \right), \bigl( ... -> parentheses; d_{model}, d_{\text{model}}, \mathrm{d\_model}, \text{layers},
///   \operatorname{...} -> names; \ln, \exp, \log_2, \log_{10}, \max, \min, \lceil x \rceil, \lfloor x \rfloor,
///   √, ∛ -> calls; \, \; \! \ ~ -> spaces.
/// - A function without parentheses takes the next atom (\ln N -> ln(N), \sqrt x -> sqrt(x), √2 -> sqrt(2)).
/// - One leading "NAME =" (or a bare leading "=") is dropped: "FLOPs = 6ND" -> 6*N*D.
/// Refused, as ambiguous rather than guessed: a division by an implicit product (a/2N: a/(2N) or a/2*N?), a
/// function without parentheses whose argument is followed by a power or a product (\ln N^2, \sqrt 2 N), \log
/// without a base, and roots other than square and cube.
std::expected<std::string, std::string> formula_answer_text(std::string_view typed);

} // namespace headcount::answer
