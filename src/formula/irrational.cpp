// Irrational values: MPFR computes each at k_irrational_bits, rounding to nearest, and mpfr_get_q makes it an exact
// rational (a whole number times a power of two), so evaluate() keeps GMP's rationals throughout. Sizes are
// estimated with doubles before anything is computed: exp(1e9) would be a number of 1.4e9 bits, which is refused,
// not allocated.

#include <formula/irrational.hpp>

#include <fmt/format.h>
#include <mpfr.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace headcount::formula {

namespace {

constexpr auto k_irrational = std::to_array<std::string_view>({"sqrt", "cbrt", "exp", "ln", "log2", "log10"});

constexpr int k_max_exponent_depth = 4 * k_max_formula_depth + 16;

/// Digits the rational of an MPFR value of binary exponent `e` has (the whole number, or the power of two under it).
double digits_of_binary_exponent(double e) {
    return std::max(e, static_cast<double>(k_irrational_bits) - e) * std::log10(2.0);
}

/// MPFR keeps constants (log 2, for exp and ln) per thread: freed when the thread ends, as GMP's blocks are.
struct LocalCaches {
    LocalCaches() = default;
    LocalCaches(const LocalCaches&) = delete;
    LocalCaches& operator=(const LocalCaches&) = delete;
    ~LocalCaches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
};

/// An MPFR number at k_irrational_bits.
class Real {
  public:
    Real() {
        thread_local LocalCaches caches;
        mpfr_init2(m_value, k_irrational_bits);
    }
    explicit Real(const Number& value) : Real() { mpfr_set_q(m_value, value.get_mpq_t(), MPFR_RNDN); }
    Real(const Real&) = delete;
    Real& operator=(const Real&) = delete;
    ~Real() { mpfr_clear(m_value); }
    mpfr_ptr get() { return m_value; }

    /// The exact rational of this value, or nullopt when it is not a finite number or is past k_max_digits.
    std::optional<Number> exact() const {
        if (!mpfr_number_p(m_value))
            return std::nullopt;
        if (mpfr_zero_p(m_value))
            return Number(0);
        if (digits_of_binary_exponent(static_cast<double>(mpfr_get_exp(m_value))) > static_cast<double>(k_max_digits))
            return std::nullopt;
        Number out;
        mpfr_get_q(out.get_mpq_t(), m_value);
        return out;
    }

  private:
    mpfr_t m_value;
};

/// log10 |x| for a nonzero x, from its numerator and denominator (each may be past a double's range).
double log10_of(const Number& x) {
    const auto log2_of = [](const mpz_class& z) {
        long exponent = 0;
        const double mantissa = std::fabs(mpz_get_d_2exp(&exponent, z.get_mpz_t()));
        return std::log2(mantissa) + static_cast<double>(exponent);
    };
    return (log2_of(x.get_num()) - log2_of(x.get_den())) * std::log10(2.0);
}

/// Whether a value of about 10^±digits, with the digits of its k_irrational_bits, stays within k_max_digits (false
/// for NaN: a size that is not a number is refused too).
bool fits(double digits) {
    return digits + static_cast<double>(k_irrational_bits) * std::log10(2.0) <= static_cast<double>(k_max_digits);
}

/// k when `z` is 2^k (z > 0), else nullopt.
std::optional<long> power_of_two(const mpz_class& z) {
    if (sgn(z) <= 0 || mpz_popcount(z.get_mpz_t()) != 1)
        return std::nullopt;
    return static_cast<long>(mpz_sizeinbase(z.get_mpz_t(), 2)) - 1;
}

/// k when `z` is 10^k (z > 0), else nullopt.
std::optional<long> power_of_ten(const mpz_class& z) {
    if (sgn(z) <= 0)
        return std::nullopt;
    const std::string digits = z.get_str();
    if (digits[0] != '1' || digits.find_first_not_of('0', 1) != std::string::npos)
        return std::nullopt;
    return static_cast<long>(digits.size()) - 1;
}

/// k when x is base^k for a whole k (base 2 or 10), else nullopt: log2(1/8) is -3.
std::optional<long> whole_logarithm(const Number& x, int base) {
    const auto power = [&](const mpz_class& z) { return base == 2 ? power_of_two(z) : power_of_ten(z); };
    if (x.get_den() == 1)
        return power(x.get_num());
    if (x.get_num() == 1)
        if (const auto k = power(x.get_den()))
            return -*k;
    return std::nullopt;
}

std::string too_many_digits(const Node& node, double digits) {
    return fmt::format("{} would have about {:.0f} digits (at most {})", detail::quoted(node), digits, k_max_digits);
}

/// Whether an exponent is whole in every variant: built of whole literals and names (counts) with + - * and signs.
bool whole_exponent(const Node& node, int depth) {
    if (depth > k_max_exponent_depth)
        return false;
    switch (node.op) {
    case Node::Op::number:
        return node.value && node.value->get_den() == 1;
    case Node::Op::name:
        return true;
    case Node::Op::negate:
    case Node::Op::sum:
    case Node::Op::product:
        for (std::size_t i = 0; i < node.children.size(); ++i)
            if ((node.op == Node::Op::product && i < node.inverse.size() && node.inverse[i]) ||
                !whole_exponent(node.children[i], depth + 1))
                return false;
        return true;
    case Node::Op::call:
        return node.text == "floor" || node.text == "ceil";
    default:
        return false;
    }
}

bool inexact_at(const Node& node, int depth) {
    if (depth > k_max_exponent_depth)
        return true;
    if (node.op == Node::Op::call && irrational(node.text))
        return true;
    if (node.op == Node::Op::power && node.children.size() == 2 && !whole_exponent(node.children[1], 0))
        return true;
    return std::any_of(node.children.begin(), node.children.end(),
                       [&](const Node& child) { return inexact_at(child, depth + 1); });
}

} // namespace

bool irrational(std::string_view function) {
    return std::find(k_irrational.begin(), k_irrational.end(), function) != k_irrational.end();
}

bool inexact(const Node& formula) { return inexact_at(formula, 0); }

namespace detail {

std::string value_text(const Number& value) {
    if (auto decimal = exact_decimal(value, 12))
        return *decimal;
    return rounded(value, 4);
}

std::optional<Number> exact_root(const Number& x, unsigned long n) {
    mpz_class numerator, denominator;
    if (mpz_root(numerator.get_mpz_t(), x.get_num_mpz_t(), n) == 0 ||
        mpz_root(denominator.get_mpz_t(), x.get_den_mpz_t(), n) == 0)
        return std::nullopt;
    return Number(numerator, denominator); // in lowest terms, as x is
}

std::expected<Number, Problem> irrational_call(const Node& call, const Number& x) {
    const std::string& name = call.text;
    const Node& argument = call.children.at(0);
    const auto outside = [&](std::string_view what) {
        return std::unexpected(
            Problem{fmt::format("{}: {} is {} here", what, quoted(argument), value_text(x)), argument.column});
    };
    Real result;
    if (name == "sqrt" || name == "cbrt") {
        if (name == "sqrt" && x < 0)
            return outside("the square root of a negative number");
        if (auto root = exact_root(abs(x), name == "sqrt" ? 2 : 3))
            return x < 0 ? Number(-*root) : *root;
        if (name == "sqrt")
            mpfr_sqrt(result.get(), Real(x).get(), MPFR_RNDN);
        else
            mpfr_cbrt(result.get(), Real(x).get(), MPFR_RNDN);
    } else if (name == "exp") {
        if (x == 0)
            return Number(1);
        // e^x has |x|·log10(e) digits, before or after the point.
        const double digits = std::fabs(to_double(x)) * std::log10(std::exp(1.0));
        if (!fits(digits))
            return std::unexpected(Problem{too_many_digits(call, digits), call.column});
        mpfr_exp(result.get(), Real(x).get(), MPFR_RNDN);
    } else {
        if (x <= 0)
            return outside("the logarithm of a number that is not positive");
        if (x == 1)
            return Number(0);
        if (name == "log2" || name == "log10")
            if (const auto k = whole_logarithm(x, name == "log2" ? 2 : 10))
                return Number(*k);
        if (name == "ln")
            mpfr_log(result.get(), Real(x).get(), MPFR_RNDN);
        else if (name == "log2")
            mpfr_log2(result.get(), Real(x).get(), MPFR_RNDN);
        else if (name == "log10")
            mpfr_log10(result.get(), Real(x).get(), MPFR_RNDN);
        else
            return std::unexpected(Problem{fmt::format("unknown function '{}'", name), call.column});
    }
    if (auto value = result.exact())
        return *value;
    // A logarithm of a number a hair from 1 is itself tiny: a value past k_max_digits once made a rational.
    return std::unexpected(Problem{fmt::format("{} has more than {} digits", quoted(call), k_max_digits), call.column});
}

std::expected<Number, Problem> irrational_power(const Node& power, const Number& base, const Number& exponent) {
    // base^y has |y·log10(base)| digits, before or after the point.
    const double digits = std::fabs(to_double(exponent) * log10_of(base));
    if (!fits(digits))
        return std::unexpected(Problem{too_many_digits(power, digits), power.column});
    Real result;
    mpfr_pow(result.get(), Real(base).get(), Real(exponent).get(), MPFR_RNDN);
    if (auto value = result.exact())
        return *value;
    return std::unexpected(
        Problem{fmt::format("{} has more than {} digits", quoted(power), k_max_digits), power.column});
}

} // namespace detail

} // namespace headcount::formula
