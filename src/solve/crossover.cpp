#include <solve/crossover.hpp>

#include <fmt/format.h>

#include <cmath>
#include <memory>

namespace headcount::solve {

namespace {

/// A - B of slot `index` with its given `given` set to `x` (followed through every slot between them), or nullopt
/// where it cannot be computed (a division by zero at that x).
std::optional<Number> difference_at(const Computation& c, int index, int given, const Number& x,
                                    const Computation::Change& defaults) {
    const Computation::Slot& s = c.slot(index);
    auto node = std::make_shared<formula::Node>();
    node->op = formula::Node::Op::number;
    node->value = x;
    node->text = x.get_str();
    Computation::Change change = defaults;
    change.formulas.emplace_back(given, node);
    std::vector<Number> values(s.uses.size());
    for (std::size_t k = 0; k < s.uses.size(); ++k) {
        if (s.uses[k] == given) {
            values[k] = x;
            continue;
        }
        auto value = c.value_under(s.uses[k], change);
        if (!value)
            return std::nullopt;
        values[k] = std::move(*value);
    }
    auto value = formula::evaluate(*s.formula, [&](std::string_view name) -> const Number* {
        for (std::size_t k = 0; k < s.names.size(); ++k)
            if (s.names[k] == name)
                return &values[k];
        return nullptr;
    });
    return value ? std::optional<Number>(std::move(*value)) : std::nullopt;
}

/// The square root of `x` (> 0): exact where it is rational, else to the formulas' 256 bits.
Number square_root(const Number& x) {
    static const formula::Node root = *formula::parse("sqrt(x)");
    auto value = formula::evaluate(root, [&](std::string_view) -> const Number* { return &x; });
    return value ? *value : Number(std::sqrt(formula::to_double(x)));
}

/// A value as a message shows it: exactly when its decimal ends within 12 figures, else to six.
std::string shown(const Number& value) {
    return formula::exact_decimal(value, 12).value_or(formula::rounded(value, 6));
}

std::string range_text(const spec::Crossover& x) { return fmt::format("({}, {}]", shown(x.low), shown(x.high)); }

} // namespace

Result<CrossoverWork> solve_crossover(const Computation& c, const spec::Problem& problem, int index) {
    const spec::Quantity& q = *c.slot(index).quantity;
    const spec::Crossover& x = *q.crossover;
    const int given = c.find_visible(x.given);
    const auto refuse = [&](std::string why) {
        return std::unexpected(Error{problem.file, x.equation_mark.line, x.equation_mark.column,
                                     fmt::format("equation of {}: {}", q.name, why)});
    };
    if (given < 0 || !c.slot(given).given)
        return refuse(fmt::format("'{}' is not a given of this problem", x.given));
    if (!c.available(given))
        return refuse(fmt::format("the problem gives no {} to solve for", x.given));
    const auto in_range = [&](const Number& root) { return root > x.low && root <= x.high; };
    CrossoverWork work;
    // The givens the spec leaves to their defaults follow the given solved for (seq_len_kv = seq_len, d_k =
    // d_model / h), as they would had the spec written that value.
    Computation::Change defaults;
    const GivenValues stated = given_values(problem);
    for (std::size_t i = 0; i < c.size(); ++i) {
        const Computation::Slot& s = c.slot(static_cast<int>(i));
        if (s.given && s.entry && !s.entry->formula.empty() && !stated.contains(s.name) &&
            c.available(static_cast<int>(i)))
            defaults.formulas.emplace_back(static_cast<int>(i), catalogue_formula(s.entry->formula));
    }

    // A - B = a x^2 + b x + c where its values at 1, 2 and 3 fix a, b and c and its values at other points agree.
    std::optional<Number> f[3];
    for (int k = 0; k < 3; ++k)
        f[k] = difference_at(c, index, given, Number(k + 1), defaults);
    bool polynomial = f[0] && f[1] && f[2];
    if (polynomial) {
        work.a = (*f[0] - 2 * *f[1] + *f[2]) / 2;
        work.b = *f[1] - *f[0] - 3 * work.a;
        work.c = *f[0] - work.a - work.b;
        for (const long point : {5L, 1000L, 1000003L, 1000000000039L}) {
            const Number at(point);
            const auto value = difference_at(c, index, given, at, defaults);
            if (!value || *value != work.a * at * at + work.b * at + work.c) {
                polynomial = false;
                break;
            }
        }
    }
    if (polynomial) {
        if (work.a == 0 && work.b == 0)
            return refuse(work.c == 0
                              ? fmt::format("the two sides are equal at every {}: there is no one crossover", x.given)
                              : fmt::format("the two sides never meet: they differ by the same amount at "
                                            "every {}",
                                            x.given));
        if (work.a == 0) {
            work.method = CrossoverWork::Method::linear;
            work.roots.push_back(-work.c / work.b);
        } else {
            work.method = CrossoverWork::Method::quadratic;
            work.discriminant = work.b * work.b - 4 * work.a * work.c;
            if (work.discriminant == 0)
                work.roots.push_back(-work.b / (2 * work.a));
            else if (work.discriminant > 0) {
                const Number root = square_root(work.discriminant);
                Number low = (-work.b - root) / (2 * work.a);
                Number high = (-work.b + root) / (2 * work.a);
                if (low > high)
                    std::swap(low, high);
                work.roots = {low, high};
            }
        }
        std::vector<Number> inside;
        for (const Number& root : work.roots)
            if (in_range(root))
                inside.push_back(root);
        if (inside.empty())
            return refuse(fmt::format("{} has no root for {} in {}{}", x.equation, x.given, range_text(x),
                                      work.roots.empty() ? std::string() : fmt::format(" (its roots: {})", [&] {
                                          std::string list;
                                          for (const Number& r : work.roots)
                                              list += (list.empty() ? "" : " and ") + shown(r);
                                          return list;
                                      }())));
        if (inside.size() > 1)
            return refuse(fmt::format("{} has two roots for {} in {}, {} and {}; give a range: [low, high] that "
                                      "holds one",
                                      x.equation, x.given, range_text(x), shown(inside[0]), shown(inside[1])));
        work.value = inside.front();
        return work;
    }

    // Otherwise: the sign of A - B at 241 points across the range (spaced evenly in the logarithm where the range
    // is positive), then bisection between the two where it changes.
    work.method = CrossoverWork::Method::bisection;
    const double high = formula::to_double(x.high);
    const double low = formula::to_double(x.low);
    const double start = low > 0 ? low : (low == 0 ? high * 1e-30 : low);
    const bool geometric = low >= 0 && high > 0;
    constexpr int k_samples = 240;
    std::vector<std::pair<Number, int>> signs; // a point and the sign of A - B there
    for (int k = 0; k <= k_samples; ++k) {
        const double t = static_cast<double>(k) / k_samples;
        const Number point = k == k_samples
                                 ? x.high
                                 : Number(geometric ? start * std::pow(high / start, t) : start + (high - start) * t);
        if (!in_range(point))
            continue;
        if (const auto value = difference_at(c, index, given, point, defaults))
            signs.emplace_back(point, sgn(*value));
    }
    std::vector<std::pair<Number, Number>> brackets;
    for (std::size_t k = 0; k < signs.size(); ++k) {
        if (signs[k].second == 0)
            brackets.emplace_back(signs[k].first, signs[k].first);
        else if (k + 1 < signs.size() && signs[k + 1].second != 0 && signs[k].second != signs[k + 1].second)
            brackets.emplace_back(signs[k].first, signs[k + 1].first);
    }
    if (brackets.empty())
        return refuse(fmt::format("{} has no root for {} in {} (A - B keeps one sign there)", x.equation, x.given,
                                  range_text(x)));
    if (brackets.size() > 1)
        return refuse(fmt::format("{} has two roots for {} in {}, near {} and {}; give a range: [low, high] that "
                                  "holds one",
                                  x.equation, x.given, range_text(x), formula::rounded(brackets[0].second, 3),
                                  formula::rounded(brackets[1].second, 3)));
    Number lo = brackets.front().first;
    Number hi = brackets.front().second;
    const int sign_lo = lo == hi ? 0 : sgn(*difference_at(c, index, given, lo, defaults));
    for (int step = 0; step < 200 && lo != hi; ++step) {
        const double width = formula::to_double(hi - lo);
        if (width <= std::abs(formula::to_double(hi)) * 1e-15)
            break;
        const Number middle(formula::to_double((lo + hi) / 2));
        if (middle <= lo || middle >= hi)
            break;
        const auto value = difference_at(c, index, given, middle, defaults);
        if (!value)
            break;
        if (sgn(*value) == 0) {
            lo = hi = middle;
            break;
        }
        (sgn(*value) == sign_lo ? lo : hi) = middle;
    }
    work.low = lo;
    work.high = hi;
    work.value = lo == hi ? lo : Number(formula::to_double((lo + hi) / 2));
    return work;
}

} // namespace headcount::solve
