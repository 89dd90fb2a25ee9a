#pragma once
// Values that may be irrational (private to src/formula): sqrt, cbrt, exp, ln, log2, log10 and powers whose exponent
// is not whole. Exact where the value is rational and cheap to find, else computed with MPFR to k_irrational_bits
// and made the exact rational of that value, so the rest of the engine keeps one value type.

#include <formula/formula.hpp>

#include <expected>
#include <optional>
#include <string>

namespace headcount::formula::detail {

/// How a node is quoted in messages: as written, with its parentheses.
inline std::string quoted(const Node& node) { return node.parenthesized ? "(" + node.source + ")" : node.source; }

/// A value as messages show it: exactly when it has at most 12 figures, else to four ("-976", "0.3333").
std::string value_text(const Number& value);

/// The value of `call` (a call of a function of irrational()) at `x`, its argument's value. Fails on a value outside
/// the function's domain (at the argument's column) and on one past k_max_digits, refused before it is computed
/// (at the call's column).
std::expected<Number, Problem> irrational_call(const Node& call, const Number& x);

/// The exact `n`-th root of `x` (n >= 2, x >= 0), or nullopt when it is not rational: 16/9 and 2 give 4/3.
std::optional<Number> exact_root(const Number& x, unsigned long n);

/// base ^ exponent for `power` (a power node) with an exponent that is not whole and a positive base whose root is
/// not rational, to k_irrational_bits; refused before it is computed when the value would pass k_max_digits.
std::expected<Number, Problem> irrational_power(const Node& power, const Number& base, const Number& exponent);

/// evaluate() without its path for whole numbers: every step over rationals. For tests, which check that the two
/// give the same value or the same error.
std::expected<Number, Problem> evaluate_rational(const Node& formula, const Lookup& lookup);

} // namespace headcount::formula::detail
