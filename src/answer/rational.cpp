#include <answer/rational.hpp>

namespace headcount::answer::detail {

namespace {

Wide magnitude(Wide v) { return v < 0 ? -v : v; }

Wide gcd(Wide a, Wide b) {
    a = magnitude(a);
    b = magnitude(b);
    while (b != 0) {
        const Wide rest = a % b;
        a = b;
        b = rest;
    }
    return a;
}

// Callers pass products that did not overflow 128 bits but may exceed the limit until reduced. Anything past
// k_unreduced_limit is refused before magnitude(), so -2^127 (whose negation overflows) never reaches it.
constexpr Wide k_unreduced_limit = k_rational_limit * 100;

RationalResult reduced(Wide num, Wide den) {
    if (den == 0)
        return std::unexpected(RationalError::division_by_zero);
    if (num < -k_unreduced_limit || num > k_unreduced_limit)
        return std::unexpected(RationalError::too_large);
    if (den < -k_unreduced_limit || den > k_unreduced_limit)
        return std::unexpected(RationalError::too_small);
    if (den < 0) {
        num = -num;
        den = -den;
    }
    const Wide common = gcd(num, den);
    if (common > 1) {
        num /= common;
        den /= common;
    }
    if (magnitude(num) > k_rational_limit)
        return std::unexpected(RationalError::too_large);
    if (den > k_rational_limit)
        return std::unexpected(RationalError::too_small);
    return Rational{num, den};
}

} // namespace

RationalResult make_rational(Wide num, Wide den) { return reduced(num, den); }

RationalResult add(const Rational& a, const Rational& b) {
    const Wide common = gcd(a.den, b.den);
    const Wide a_factor = b.den / common;
    const Wide b_factor = a.den / common;
    Wide left = 0, right = 0, num = 0, den = 0;
    if (__builtin_mul_overflow(a.num, a_factor, &left) || __builtin_mul_overflow(b.num, b_factor, &right) ||
        __builtin_add_overflow(left, right, &num))
        return std::unexpected(RationalError::too_large);
    if (__builtin_mul_overflow(a.den, a_factor, &den))
        return std::unexpected(RationalError::too_small);
    return reduced(num, den);
}

RationalResult subtract(const Rational& a, const Rational& b) { return add(a, negate(b)); }

RationalResult multiply(const Rational& a, const Rational& b) {
    // gcd(0, d) is d, which turns 0/1 * x into 0 * x/d cleanly.
    const Wide g1 = gcd(a.num, b.den);
    const Wide g2 = gcd(b.num, a.den);
    Wide num = 0, den = 0;
    if (__builtin_mul_overflow(a.num / g1, b.num / g2, &num))
        return std::unexpected(RationalError::too_large);
    if (__builtin_mul_overflow(a.den / g2, b.den / g1, &den))
        return std::unexpected(RationalError::too_small);
    return reduced(num, den);
}

RationalResult divide(const Rational& a, const Rational& b) {
    if (b.num == 0)
        return std::unexpected(RationalError::division_by_zero);
    const Rational reciprocal = b.num < 0 ? Rational{-b.den, -b.num} : Rational{b.den, b.num};
    return multiply(a, reciprocal);
}

RationalResult power(const Rational& base, Wide exponent) {
    if (exponent == 0)
        return Rational{1, 1};
    if (base.num == 0) {
        if (exponent < 0)
            return std::unexpected(RationalError::division_by_zero);
        return Rational{0, 1};
    }
    if (base.den == 1 && magnitude(base.num) == 1)
        return Rational{(base.num < 0 && exponent % 2 != 0) ? -1 : 1, 1};

    Rational factor = base;
    if (exponent < 0) {
        factor = base.num < 0 ? Rational{-base.den, -base.num} : Rational{base.den, base.num};
        exponent = -exponent;
    }
    // Past ±1 one of num, den is at least 2, so an exponent above 127 overflows whatever the base.
    const RationalError overflow = exceeds_one(factor) ? RationalError::too_large : RationalError::too_small;
    if (exponent > 127)
        return std::unexpected(overflow);

    // num and den stay coprime under powers, so they are raised separately and need no reduction.
    Wide num = 1, den = 1, num_square = factor.num, den_square = factor.den;
    while (true) {
        if (exponent % 2 != 0) {
            if (__builtin_mul_overflow(num, num_square, &num) || __builtin_mul_overflow(den, den_square, &den) ||
                magnitude(num) > k_rational_limit || den > k_rational_limit)
                return std::unexpected(overflow);
        }
        exponent /= 2;
        if (exponent == 0)
            break;
        if (__builtin_mul_overflow(num_square, num_square, &num_square) ||
            __builtin_mul_overflow(den_square, den_square, &den_square) || magnitude(num_square) > k_rational_limit ||
            den_square > k_rational_limit)
            return std::unexpected(overflow);
    }
    return Rational{num, den};
}

Rational negate(const Rational& a) { return Rational{-a.num, a.den}; }

bool exceeds_one(const Rational& a) { return magnitude(a.num) > a.den; }

double to_double(const Rational& a) { return static_cast<double>(a.num) / static_cast<double>(a.den); }

} // namespace headcount::answer::detail
