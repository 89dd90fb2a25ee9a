// A formula's value over GMP rationals, and the names it uses. Every value computed is checked against k_max_digits,
// and a power's size is estimated before it is computed, so 10^10^10 fails at once. Irrational values
// (formula/irrational.cpp) are computed with MPFR and come back as rationals.

#include <formula/formula.hpp>
#include <formula/irrational.hpp>
#include <formula/whole.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace headcount::formula {

namespace {

template <class Name> void collect_names(const Node& node, std::vector<Name>& out, int depth) {
    if (depth > 4 * k_max_formula_depth + 16)
        return;
    // A formula names a handful of quantities: a linear search beats hashing each name.
    if (node.op == Node::Op::name && std::find(out.begin(), out.end(), node.text) == out.end())
        out.push_back(node.text);
    for (const Node& child : node.children)
        collect_names(child, out, depth + 1);
}

using detail::quoted;

class Evaluator {
  public:
    explicit Evaluator(const Lookup& lookup) : m_lookup(lookup), m_limit(limit()) {}

    std::expected<Number, Problem> value(const Node& node, int depth) {
        if (depth > 4 * k_max_formula_depth + 16)
            return std::unexpected(Problem{"nested too deeply", node.column});
        auto result = compute(node, depth);
        if (result && too_large(*result))
            return std::unexpected(
                Problem{fmt::format("{} has more than {} digits", quoted(node), k_max_digits), node.column});
        return result;
    }

  private:
    const Lookup& m_lookup;
    const mpz_class& m_limit; // 10^k_max_digits

    /// 10^k_max_digits, computed once: every evaluation checks against it, and a catalogue is thousands of them.
    static const mpz_class& limit() {
        static const mpz_class value = [] {
            mpz_class out;
            mpz_ui_pow_ui(out.get_mpz_t(), 10, k_max_digits);
            return out;
        }();
        return value;
    }

    bool too_large(const Number& v) const {
        return cmpabs(v.get_num(), m_limit) >= 0 || cmpabs(v.get_den(), m_limit) >= 0;
    }

    static int cmpabs(const mpz_class& a, const mpz_class& b) { return mpz_cmpabs(a.get_mpz_t(), b.get_mpz_t()); }

    /// The value of a node of one operand (-x, floor(x), abs(x)).
    std::expected<Number, Problem> only_child(const Node& node, int depth) {
        if (node.children.size() != 1)
            return std::unexpected(Problem{"malformed formula", node.column});
        return value(node.children[0], depth + 1);
    }

    std::expected<Number, Problem> compute(const Node& node, int depth) {
        switch (node.op) {
        case Node::Op::number:
            if (!node.value)
                return std::unexpected(Problem{"malformed formula", node.column});
            return *node.value;
        case Node::Op::name: {
            const Number* found = m_lookup ? m_lookup(node.text) : nullptr;
            if (!found)
                return std::unexpected(Problem{fmt::format("unknown name '{}'", node.text), node.column});
            return *found;
        }
        case Node::Op::negate: {
            auto inner = only_child(node, depth);
            if (!inner)
                return inner;
            return Number(-*inner);
        }
        case Node::Op::call:
            return call(node, depth);
        case Node::Op::compare: {
            if (node.children.size() != 2)
                return std::unexpected(Problem{"malformed formula", node.column});
            auto left = value(node.children[0], depth + 1);
            if (!left)
                return left;
            auto right = value(node.children[1], depth + 1);
            if (!right)
                return right;
            return Number(whole::holds(node.text, cmp(*left, *right)) ? 1 : 0);
        }
        case Node::Op::sum:
        case Node::Op::product:
            return combine(node, depth);
        case Node::Op::power:
            return power(node, depth);
        }
        return std::unexpected(Problem{"malformed formula", node.column});
    }

    /// A function's value: if() evaluates its condition and then only the branch it takes.
    std::expected<Number, Problem> call(const Node& node, int depth) {
        const std::string& name = node.text;
        if (node.children.empty())
            return std::unexpected(Problem{"malformed formula", node.column});
        if (name == "if") {
            if (node.children.size() != 3)
                return std::unexpected(Problem{"malformed formula", node.column});
            auto condition = value(node.children[0], depth + 1);
            if (!condition)
                return condition;
            return value(node.children[*condition != 0 ? 1 : 2], depth + 1);
        }
        if (name == "min" || name == "max") {
            std::optional<Number> best;
            for (const Node& argument : node.children) {
                auto v = value(argument, depth + 1);
                if (!v)
                    return v;
                if (!best || (name == "min" ? *v < *best : *v > *best))
                    best = std::move(*v);
            }
            return *best;
        }
        auto inner = only_child(node, depth);
        if (!inner)
            return inner;
        if (name == "abs")
            return Number(abs(*inner));
        if (irrational(name))
            return detail::irrational_call(node, *inner);
        mpz_class whole;
        if (name == "floor")
            mpz_fdiv_q(whole.get_mpz_t(), inner->get_num_mpz_t(), inner->get_den_mpz_t());
        else if (name == "ceil")
            mpz_cdiv_q(whole.get_mpz_t(), inner->get_num_mpz_t(), inner->get_den_mpz_t());
        else
            return std::unexpected(Problem{fmt::format("unknown function '{}'", name), node.column});
        return Number(whole);
    }

    /// The value of an operand where it lies: a literal's own, or a name's in the lookup (no copy: a catalogue is
    /// evaluated thousands of times a check), else computed into `scratch`.
    std::expected<const Number*, Problem> operand(const Node& node, int depth, Number& scratch) {
        if (node.op == Node::Op::number && node.value)
            return &*node.value;
        if (node.op == Node::Op::name) {
            const Number* found = m_lookup ? m_lookup(node.text) : nullptr;
            if (!found)
                return std::unexpected(Problem{fmt::format("unknown name '{}'", node.text), node.column});
            return found;
        }
        auto computed = value(node, depth);
        if (!computed)
            return std::unexpected(computed.error());
        scratch = std::move(*computed);
        return &scratch;
    }

    std::expected<Number, Problem> combine(const Node& node, int depth) {
        const bool sum = node.op == Node::Op::sum;
        Number total = sum ? 0 : 1;
        Number scratch;
        for (std::size_t i = 0; i < node.children.size(); ++i) {
            const Node& child = node.children[i];
            auto part = operand(child, depth + 1, scratch);
            if (!part)
                return std::unexpected(part.error());
            const bool inverse = i < node.inverse.size() && node.inverse[i];
            const Number& term = **part;
            // Whole numbers (nearly every count) by GMP's integer operations: a rational's would look for a
            // common factor to cancel at every step.
            const bool whole = total.get_den() == 1 && term.get_den() == 1;
            if (whole && (sum || !inverse)) {
                mpz_ptr t = total.get_num_mpz_t();
                if (sum && inverse)
                    mpz_sub(t, t, term.get_num_mpz_t());
                else if (sum)
                    mpz_add(t, t, term.get_num_mpz_t());
                else
                    mpz_mul(t, t, term.get_num_mpz_t());
            } else if (sum && inverse)
                total -= term;
            else if (sum)
                total += term;
            else if (!inverse)
                total *= term;
            else if (term == 0)
                return std::unexpected(
                    Problem{fmt::format("division by zero: {} is 0 here", quoted(child)), child.column});
            else
                total /= term;
            if (too_large(total))
                return std::unexpected(
                    Problem{fmt::format("{} has more than {} digits", quoted(node), k_max_digits), node.column});
        }
        return total;
    }

    std::expected<Number, Problem> power(const Node& node, int depth) {
        if (node.children.size() != 2)
            return std::unexpected(Problem{"malformed formula", node.column});
        auto base = value(node.children[0], depth + 1);
        if (!base)
            return base;
        const Node& exponent_node = node.children[1];
        auto exponent = value(exponent_node, depth + 1);
        if (!exponent)
            return exponent;
        if (exponent->get_den() != 1)
            return fractional_power(node, *base, *exponent);
        if (!mpz_fits_slong_p(exponent->get_num_mpz_t()))
            return std::unexpected(
                Problem{fmt::format("the exponent {} is too large", quoted(exponent_node)), exponent_node.column});
        return whole_power(node, *base, mpz_get_si(exponent->get_num_mpz_t()));
    }

    /// base ^ (p/q) for q > 1: exact when the q-th root of the base is rational (27^(1/3), (16/9)^0.5), else MPFR's.
    std::expected<Number, Problem> fractional_power(const Node& node, const Number& base, const Number& exponent) {
        if (base == 0) {
            if (exponent < 0)
                return std::unexpected(Problem{
                    fmt::format("division by zero: {} raises 0 to a negative power", quoted(node)), node.column});
            return Number(0);
        }
        const Node& base_node = node.children[0];
        if (base < 0)
            return std::unexpected(Problem{fmt::format("a negative number to a power that is not whole: {} is {} here",
                                                       quoted(base_node), detail::value_text(base)),
                                           base_node.column});
        if (base == 1)
            return Number(1);
        if (mpz_fits_ulong_p(exponent.get_den_mpz_t()) && mpz_fits_slong_p(exponent.get_num_mpz_t()))
            if (auto root = detail::exact_root(base, mpz_get_ui(exponent.get_den_mpz_t())))
                return whole_power(node, *root, mpz_get_si(exponent.get_num_mpz_t()));
        return detail::irrational_power(node, base, exponent);
    }

    /// base ^ n, its size estimated before it is computed.
    std::expected<Number, Problem> whole_power(const Node& node, const Number& base_value, long n) {
        const Number* base = &base_value;
        if (*base == 0) {
            if (n < 0)
                return std::unexpected(Problem{
                    fmt::format("division by zero: {} raises 0 to a negative power", quoted(node)), node.column});
            return Number(n == 0 ? 1 : 0);
        }
        if (abs(*base) == 1)
            return Number(*base < 0 && n % 2 != 0 ? -1 : 1);
        // Digits of the larger of numerator and denominator, times |n|: refused before anything is computed.
        const mpz_class& larger = cmpabs(base->get_num(), base->get_den()) > 0 ? base->get_num() : base->get_den();
        long binary_exponent = 0;
        const double mantissa = std::fabs(mpz_get_d_2exp(&binary_exponent, larger.get_mpz_t()));
        const double digits =
            (std::log2(mantissa) + static_cast<double>(binary_exponent)) * std::log10(2.0) * std::fabs(double(n));
        if (digits > static_cast<double>(k_max_digits) + 1)
            return std::unexpected(Problem{
                fmt::format("{} would have about {:.0f} digits (at most {})", quoted(node), digits, k_max_digits),
                node.column});
        const unsigned long magnitude = n < 0 ? 0UL - static_cast<unsigned long>(n) : static_cast<unsigned long>(n);
        mpz_class numerator;
        mpz_class denominator;
        mpz_pow_ui(numerator.get_mpz_t(), base->get_num_mpz_t(), magnitude);
        mpz_pow_ui(denominator.get_mpz_t(), base->get_den_mpz_t(), magnitude);
        Number result = n < 0 ? Number(denominator, numerator) : Number(numerator, denominator);
        result.canonicalize();
        return result;
    }
};

/// A formula's value when every step of it is a whole number that fits in a long (formula/whole.hpp): nearly every
/// count of the catalogue, computed without making a rational (each costs GMP an allocation) until the end. Gives
/// nullopt at the first step that is not (a fraction, a division that is not exact, an overflow, a name whose value
/// is not such a number, any error): Evaluator then computes the whole formula over rationals, with its messages.
class WholeEvaluator {
  public:
    explicit WholeEvaluator(const Lookup& lookup) : m_lookup(lookup) {}

    std::optional<long> value(const Node& node, int depth) {
        if (depth > 4 * k_max_formula_depth + 16)
            return std::nullopt;
        switch (node.op) {
        case Node::Op::number:
            return node.value ? whole::of(*node.value) : std::nullopt;
        case Node::Op::name: {
            const Number* found = m_lookup ? m_lookup(node.text) : nullptr;
            return found ? whole::of(*found) : std::nullopt;
        }
        case Node::Op::negate: {
            const auto inner = node.children.size() == 1 ? value(node.children[0], depth + 1) : std::nullopt;
            long out = 0;
            return inner && whole::step(out, *inner, true, true) ? std::optional<long>(out) : std::nullopt;
        }
        case Node::Op::compare:
        case Node::Op::power: {
            if (node.children.size() != 2)
                return std::nullopt;
            const auto first = value(node.children[0], depth + 1);
            const auto second = first ? value(node.children[1], depth + 1) : std::nullopt;
            if (!second)
                return std::nullopt;
            if (node.op == Node::Op::power)
                return whole::power(*first, *second);
            return whole::holds(node.text, (*first > *second) - (*first < *second)) ? 1 : 0;
        }
        case Node::Op::sum:
        case Node::Op::product: {
            const bool sum = node.op == Node::Op::sum;
            long total = sum ? 0 : 1;
            for (std::size_t i = 0; i < node.children.size(); ++i) {
                const auto term = value(node.children[i], depth + 1);
                if (!term || !whole::step(total, *term, sum, i < node.inverse.size() && node.inverse[i]))
                    return std::nullopt;
            }
            return total;
        }
        case Node::Op::call:
            return call(node, depth);
        }
        return std::nullopt;
    }

  private:
    const Lookup& m_lookup;

    std::optional<long> call(const Node& node, int depth) {
        const std::string& name = node.text;
        if (node.children.empty())
            return std::nullopt;
        if (name == "if") {
            if (node.children.size() != 3)
                return std::nullopt;
            const auto condition = value(node.children[0], depth + 1);
            if (!condition)
                return std::nullopt;
            return value(node.children[*condition != 0 ? 1 : 2], depth + 1);
        }
        if (name == "min" || name == "max") {
            std::optional<long> best;
            for (const Node& argument : node.children) {
                const auto v = value(argument, depth + 1);
                if (!v)
                    return std::nullopt;
                if (!best || (name == "min" ? *v < *best : *v > *best))
                    best = *v;
            }
            return best;
        }
        if (node.children.size() != 1)
            return std::nullopt;
        const auto inner = value(node.children[0], depth + 1);
        return inner ? whole::function_of_one(name, *inner) : std::nullopt;
    }
};

} // namespace

std::vector<std::string> names(const Node& formula) {
    std::vector<std::string> out;
    collect_names(formula, out, 0);
    return out;
}

std::vector<std::string_view> name_views(const Node& formula) {
    std::vector<std::string_view> out;
    collect_names(formula, out, 0);
    return out;
}

namespace {

std::expected<Number, Problem> evaluated(const Node& formula, const Lookup& lookup, bool whole_first) {
    use_small_block_memory();
    try {
        if (whole_first)
            if (const auto whole = WholeEvaluator(lookup).value(formula, 0))
                return std::expected<Number, Problem>(std::in_place, *whole); // made in place: no second rational
        return Evaluator(lookup).value(formula, 0);
    } catch (const std::exception& error) {
        return std::unexpected(Problem{fmt::format("could not evaluate: {}", error.what()), formula.column});
    }
}

} // namespace

std::expected<Number, Problem> evaluate(const Node& formula, const Lookup& lookup) {
    return evaluated(formula, lookup, true);
}

namespace whole {

std::optional<long> of(const Number& v) {
    if (mpz_cmp_ui(v.get_den_mpz_t(), 1) != 0 || !mpz_fits_slong_p(v.get_num_mpz_t()))
        return std::nullopt;
    return mpz_get_si(v.get_num_mpz_t());
}

bool step(long& total, long term, bool sum, bool inverse) {
    if (sum)
        return !(inverse ? __builtin_sub_overflow(total, term, &total) : __builtin_add_overflow(total, term, &total));
    if (!inverse)
        return !__builtin_mul_overflow(total, term, &total);
    // A division by zero, an overflow (checked before %, which traps on it), a fraction.
    if (term == 0 || (term == -1 && total == std::numeric_limits<long>::min()) || total % term != 0)
        return false;
    total /= term;
    return true;
}

std::optional<long> power(long base, long exponent) {
    if (exponent < 0)
        return std::nullopt;
    long out = 1;
    for (long n = 0; n < exponent; ++n) {
        if (base == 0 || base == 1)
            return base; // 0^n and 1^n for n >= 1
        if (base == -1)
            return exponent % 2 == 0 ? 1 : -1;
        if (__builtin_mul_overflow(out, base, &out))
            return std::nullopt; // |base| >= 2: at most 63 steps
    }
    return out;
}

bool holds(std::string_view op, int order) {
    return op == "<"    ? order < 0
           : op == "<=" ? order <= 0
           : op == ">"  ? order > 0
           : op == ">=" ? order >= 0
           : op == "==" ? order == 0
                        : order != 0;
}

std::optional<long> function_of_one(std::string_view name, long x) {
    if (name == "floor" || name == "ceil")
        return x; // of a whole number, itself
    if (name == "abs" && x != std::numeric_limits<long>::min())
        return x < 0 ? -x : x;
    return std::nullopt; // sqrt and the others may not be whole
}

} // namespace whole

namespace detail {

std::expected<Number, Problem> evaluate_rational(const Node& formula, const Lookup& lookup) {
    return evaluated(formula, lookup, false);
}

} // namespace detail

} // namespace headcount::formula
