#pragma once
// Exact fractions for reading answers: 1.050624e6 must come out as exactly 1050624, which a double cannot
// promise. Every operation checks for overflow and reports it instead of wrapping.

#include <util/wide.hpp>

#include <expected>

namespace headcount::answer::detail {

using Wide = headcount::Wide;

/// Largest magnitude a numerator or denominator may reach (10^36), leaving headroom below the 128-bit limit.
inline constexpr Wide k_rational_limit = k_count_limit;

/// Why an exact operation has no result: a numerator or a denominator grew past k_rational_limit, or x/0.
enum class RationalError { too_large, too_small, division_by_zero };

/// num/den in lowest terms with den > 0 and both within k_rational_limit; the operations below keep this.
struct Rational {
    Wide num = 0;
    Wide den = 1;
};

using RationalResult = std::expected<Rational, RationalError>;

/// num/den reduced; fails when den is 0 or either part exceeds k_rational_limit after reduction.
RationalResult make_rational(Wide num, Wide den);
/// a + b.
RationalResult add(const Rational& a, const Rational& b);
/// a - b.
RationalResult subtract(const Rational& a, const Rational& b);
/// a * b, cross-reducing first so exact results that fit are found.
RationalResult multiply(const Rational& a, const Rational& b);
/// a / b; division_by_zero when b is 0.
RationalResult divide(const Rational& a, const Rational& b);
/// base^exponent for any whole exponent; 0^0 is 1, 0^-n is division_by_zero.
RationalResult power(const Rational& base, Wide exponent);
/// -a (cannot overflow: magnitudes stay within k_rational_limit).
Rational negate(const Rational& a);
/// True when |a| > 1.
bool exceeds_one(const Rational& a);
/// The nearest double (exact for whole numbers up to 2^53).
double to_double(const Rational& a);

} // namespace headcount::answer::detail
