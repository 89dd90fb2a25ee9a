// Exact values written out: as an exact decimal when there is a short one, rounded to significant figures (on the
// rational itself, never through a double), and as the nearest double.

#include <formula/formula.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace headcount::formula {

namespace {

mpz_class power_of_ten(unsigned long exponent) {
    mpz_class out;
    mpz_ui_pow_ui(out.get_mpz_t(), 10, exponent);
    return out;
}

/// 10^exponent as a rational, for a negative exponent too.
Number ten_to(long exponent) {
    const mpz_class magnitude = power_of_ten(static_cast<unsigned long>(exponent < 0 ? -exponent : exponent));
    Number out = exponent < 0 ? Number(mpz_class(1), magnitude) : Number(magnitude);
    out.canonicalize();
    return out;
}

/// Digits (no sign) with a decimal point placed so that `fraction` of them follow it: ("123", 5) -> "0.00123".
std::string with_point(std::string digits, std::size_t fraction) {
    if (fraction == 0)
        return digits;
    if (digits.size() <= fraction)
        digits.insert(0, fraction - digits.size() + 1, '0');
    digits.insert(digits.size() - fraction, 1, '.');
    return digits;
}

} // namespace

std::optional<std::string> exact_decimal(const Number& value, std::size_t max_digits) {
    const mpz_class& den = value.get_den();
    if (mpz_sizeinbase(den.get_mpz_t(), 2) > 4 * k_max_digits + 64)
        return std::nullopt;
    // den = 2^twos * 5^fives exactly, or there is no finite decimal.
    mpz_class rest = den;
    const unsigned long twos = mpz_sgn(rest.get_mpz_t()) == 0 ? 0 : mpz_scan1(rest.get_mpz_t(), 0);
    mpz_tdiv_q_2exp(rest.get_mpz_t(), rest.get_mpz_t(), twos);
    const mpz_class five = 5;
    const unsigned long fives = mpz_remove(rest.get_mpz_t(), rest.get_mpz_t(), five.get_mpz_t());
    if (rest != 1)
        return std::nullopt;
    const unsigned long fraction = std::max(twos, fives);
    const mpz_class scaled = abs(value.get_num()) * power_of_ten(fraction) / den; // exact: den divides 10^fraction
    const std::string digits = scaled.get_str();
    const std::size_t significant = digits == "0" ? 1 : digits.size();
    if (significant > max_digits)
        return std::nullopt;
    return (value < 0 ? "-" : "") + with_point(digits, fraction);
}

std::string rounded(const Number& value, int figures) {
    figures = std::clamp(figures, 1, 100);
    if (value == 0)
        return "0";
    const Number magnitude = abs(value);
    // The decimal exponent: 10^exponent <= magnitude < 10^(exponent + 1), first guessed from the digit counts.
    long exponent = static_cast<long>(mpz_sizeinbase(magnitude.get_num_mpz_t(), 10)) -
                    static_cast<long>(mpz_sizeinbase(magnitude.get_den_mpz_t(), 10));
    while (magnitude >= ten_to(exponent + 1))
        ++exponent;
    while (magnitude < ten_to(exponent))
        --exponent;
    // figures digits, rounded half away from zero: floor(magnitude * 10^(figures-1-exponent) + 1/2).
    const Number scaled = magnitude * ten_to(figures - 1 - exponent) + Number(1, 2);
    mpz_class digits_value;
    mpz_fdiv_q(digits_value.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
    if (digits_value == power_of_ten(static_cast<unsigned long>(figures))) { // 9.996 -> 10.0
        digits_value /= 10;
        ++exponent;
    }
    const std::string digits = digits_value.get_str();
    const std::string sign = value < 0 ? "-" : "";
    if (exponent >= -4 && exponent <= 15) {
        const long whole = exponent + 1; // digits before the point
        if (whole >= figures)
            return sign + digits + std::string(static_cast<std::size_t>(whole - figures), '0');
        return sign + with_point(digits, static_cast<std::size_t>(figures - whole));
    }
    std::string out = sign + digits.substr(0, 1);
    if (digits.size() > 1)
        out += "." + digits.substr(1);
    return out + "e" + std::to_string(exponent);
}

double to_double(const Number& value) {
    if (value == 0)
        return 0.0;
    // Parts of at most 53 bits are doubles exactly, and IEEE division rounds their quotient correctly: the common
    // case (a count, a small fraction), with no arithmetic on big integers.
    if (mpz_sizeinbase(value.get_num_mpz_t(), 2) <= 53 && mpz_sizeinbase(value.get_den_mpz_t(), 2) <= 53)
        return mpz_get_d(value.get_num_mpz_t()) / mpz_get_d(value.get_den_mpz_t());
    // n = floor(|value| * 2^shift) with 63 or 64 bits, its lowest bit set when anything was cut off, so the one
    // rounding to double (of a 64-bit integer) rounds as the whole value would.
    const long shift = 63 - (static_cast<long>(mpz_sizeinbase(value.get_num_mpz_t(), 2)) -
                             static_cast<long>(mpz_sizeinbase(value.get_den_mpz_t(), 2)));
    mpz_class numerator = abs(value.get_num());
    mpz_class denominator = value.get_den();
    if (shift >= 0)
        numerator <<= static_cast<mp_bitcnt_t>(shift);
    else
        denominator <<= static_cast<mp_bitcnt_t>(-shift);
    mpz_class quotient;
    mpz_class remainder;
    mpz_tdiv_qr(quotient.get_mpz_t(), remainder.get_mpz_t(), numerator.get_mpz_t(), denominator.get_mpz_t());
    auto bits = static_cast<std::uint64_t>(mpz_get_ui(quotient.get_mpz_t()));
    if (remainder != 0)
        bits |= 1;
    const long clamped = std::clamp(shift, -100000L, 100000L);
    const double magnitude = std::ldexp(static_cast<double>(bits), static_cast<int>(-clamped));
    return value < 0 ? -magnitude : magnitude;
}

Number to_number(Wide count) {
    // GMP reads 64-bit halves (unsigned long is 64 bits on the platforms headcount builds for).
    static_assert(sizeof(unsigned long) == 8);
    if (count >= std::numeric_limits<long>::min() && count <= std::numeric_limits<long>::max())
        return Number(static_cast<long>(count));
    const bool negative = count < 0;
    const auto magnitude = static_cast<UnsignedWide>(negative ? -count : count);
    mpz_class out(static_cast<unsigned long>(magnitude >> 64));
    out <<= 64;
    out += static_cast<unsigned long>(magnitude & 0xFFFF'FFFF'FFFF'FFFFu);
    return Number(negative ? mpz_class(-out) : out);
}

std::optional<Wide> to_count(const Number& value) {
    if (value.get_den() != 1)
        return std::nullopt;
    const mpz_class& whole = value.get_num();
    if (whole.fits_slong_p()) // below 2^63, well inside the limit
        return static_cast<Wide>(whole.get_si());
    static const mpz_class limit = to_number(k_count_limit).get_num();
    if (cmp(abs(whole), limit) > 0)
        return std::nullopt;
    const mpz_class magnitude = abs(whole);
    // Two 64-bit limbs hold any magnitude up to 10^36 < 2^120.
    const auto low = static_cast<UnsignedWide>(mpz_getlimbn(magnitude.get_mpz_t(), 0));
    const auto high = static_cast<UnsignedWide>(mpz_getlimbn(magnitude.get_mpz_t(), 1)); // 0 past the last limb
    const auto out = static_cast<Wide>(high << 64 | low);
    return sgn(whole) < 0 ? -out : out;
}

} // namespace headcount::formula
