#include <generate/moodle_numbers.hpp>

#include <formula/formula.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace headcount::generate {

namespace {

/// PHP's pow(10, -ini_get('precision')) with Moodle's precision of 14: the allowance get_tolerance_interval
/// adds.
constexpr double k_moodle_epsilon = 1e-14;

/// The whole numbers in `range`: [first, last] (first > last when there is none).
double first_whole(const NumberRange& range) { return range.lo_open ? std::floor(range.lo) + 1 : std::ceil(range.lo); }
double last_whole(const NumberRange& range) { return range.hi_open ? std::ceil(range.hi) - 1 : std::floor(range.hi); }

bool holds(const NumberRange& range, double x) {
    return (range.lo_open ? x > range.lo : x >= range.lo) && (range.hi_open ? x < range.hi : x <= range.hi);
}

bool accepts(MoodleNumber n, double x) {
    const auto [lo, hi] = moodle_interval(n);
    return lo <= x && x <= hi;
}

/// 10^exponent exactly.
formula::Number decimal_power(int exponent) {
    mpz_class power;
    mpz_ui_pow_ui(power.get_mpz_t(), 10, static_cast<unsigned long>(std::abs(exponent)));
    return exponent >= 0 ? formula::Number(power) : formula::Number(mpz_class(1), power);
}

/// The place of a value's first figure, e: 10^e <= |value| < 10^(e+1), from the exact value (log10 of a double can
/// land a hair either side of a power of ten).
int first_figure(const formula::Number& value) {
    int exponent = static_cast<int>(std::floor(std::log10(std::abs(formula::to_double(value)))));
    const formula::Number size = abs(value);
    while (exponent > -400 && size < decimal_power(exponent))
        --exponent;
    while (exponent < 400 && size >= decimal_power(exponent + 1))
        ++exponent;
    return exponent;
}

/// `value` rounded to a whole multiple of 10^exponent, as the double nearest that decimal (1.9321e-21 at -23 is
/// the double read from "193e-23"): short to write, and a number a student types.
double rounded_at(double value, int exponent) {
    const std::string text = fmt::format("{}e{}", std::round(value / std::pow(10.0, exponent)), exponent);
    double out = 0;
    std::from_chars(text.data(), text.data() + text.size(), out);
    return out;
}

int digits_of(Count value) {
    int digits = 1;
    for (Count v = value < 0 ? -value : value; v >= 10; v /= 10)
        ++digits;
    return digits;
}

/// The answer centred on `centre` reaching `reach` each way, or a little less where Moodle's 1e-14 allowance
/// would take an end outside `allowed`; 0 (the allowance alone) when nothing fits.
MoodleNumber fitted_answer(double centre, double reach, const NumberRange& allowed) {
    const MoodleNumber widest{moodle_stored(centre), std::max(reach, 0.0)};
    // Moodle's allowance takes an interval 10^-14 of its value past each end. Past a closed end of grade's band that
    // reaches only numbers nobody types (1,044,999.99999999), while giving the end up would cost a whole number grade
    // accepts (1,045,000, typed 1.045e6): the allowance's own reach past a closed end is let through.
    const double slack = 2 * k_moodle_epsilon * std::max({std::abs(allowed.lo), std::abs(allowed.hi), 1.0});
    NumberRange relaxed = allowed;
    if (!allowed.lo_open)
        relaxed.lo -= slack;
    if (!allowed.hi_open)
        relaxed.hi += slack;
    const auto inside = [&](MoodleNumber n) {
        const auto [lo, hi] = moodle_interval(n);
        return holds(relaxed, lo) && holds(relaxed, hi);
    };
    if (widest.tolerance == 0 || inside(widest))
        return widest;
    // Shave off the least power of ten that keeps both ends inside, starting near Moodle's own allowance.
    const double allowance = k_moodle_epsilon * std::max(widest.tolerance, std::abs(widest.value));
    for (double step = std::pow(10.0, std::floor(std::log10(allowance))); step < widest.tolerance; step *= 10) {
        const MoodleNumber shaved{widest.value, moodle_stored(widest.tolerance - step)};
        if (inside(shaved))
            return shaved;
    }
    return {widest.value, 0};
}

} // namespace

double moodle_stored(double value) {
    if (value == std::floor(value) && std::abs(value) < 9.2e18)
        return value; // qtype_numerical's "digits + 0" is a PHP integer: kept exactly
    const std::string text = fmt::format("{:.14g}", value);
    double stored = 0;
    std::from_chars(text.data(), text.data() + text.size(), stored);
    return stored;
}

std::pair<double, double> moodle_interval(MoodleNumber n) {
    const double value = moodle_stored(n.value);
    const double tolerance = std::abs(moodle_stored(n.tolerance));
    const double allowance = tolerance + k_moodle_epsilon * std::max({tolerance, std::abs(value), k_moodle_epsilon});
    return {value - allowance, value + allowance};
}

NumberRange right_band(Count value, const spec::Tolerance& tolerance) {
    const double v = static_cast<double>(value);
    double reach = 0.5; // exact: every digit, half a unit in the last
    if (tolerance.kind == spec::Tolerance::Kind::sigfigs)
        reach = value == 0 ? 0 : std::pow(10.0, digits_of(value) - tolerance.sigfigs) / 2;
    else if (tolerance.kind == spec::Tolerance::Kind::relative)
        reach = tolerance.relative * std::abs(v);
    return {v - reach, v + reach};
}

MoodleNumber widest_answer(const NumberRange& allowed, std::optional<double> value) {
    const double first = first_whole(allowed), last = last_whole(allowed);
    const double middle = (first + last) / 2, half = (last - first) / 2;
    // Reaching both whole ends can carry Moodle's allowance past a closed end and cost both after shaving;
    // giving up one end first often keeps the other.
    std::vector<std::pair<double, double>> tries{{middle, half}};
    if (half >= 0.5)
        tries.insert(tries.end(), {{middle + 0.5, half - 0.5}, {middle - 0.5, half - 0.5}});
    if (value)
        tries.emplace_back(*value, std::min(*value - first, last - *value));
    std::optional<MoodleNumber> best;
    double best_count = -1;
    for (const auto& [centre, reach] : tries) {
        const MoodleNumber n = fitted_answer(centre, reach, allowed);
        const auto [lo, hi] = moodle_interval(n);
        const double count = std::max(0.0, std::floor(hi) - std::ceil(lo) + 1);
        if ((!value || accepts(n, *value)) && count > best_count)
            best = n, best_count = count;
    }
    return best.value_or(MoodleNumber{value.value_or(first), 0});
}

NumberRange right_band_real(const formula::Number& value, const spec::Tolerance& tolerance) {
    const double v = formula::to_double(value);
    double reach = 0;
    switch (tolerance.kind) {
    case spec::Tolerance::Kind::relative:
        reach = tolerance.relative * std::abs(v);
        break;
    case spec::Tolerance::Kind::sigfigs: {
        if (value == 0)
            break;
        reach = std::pow(10.0, first_figure(value) - tolerance.sigfigs + 1) / 2;
        break;
    }
    case spec::Tolerance::Kind::exact: {
        // Every digit: half a unit in the last one when the digits end (a denominator of 2s and 5s), else none.
        mpz_class den = value.get_den();
        int twos = 0, fives = 0;
        while (den % 2 == 0)
            den /= 2, ++twos;
        while (den % 5 == 0)
            den /= 5, ++fives;
        if (den == 1)
            reach = std::pow(10.0, -std::max(twos, fives)) / 2;
        break;
    }
    }
    return {v - reach, v + reach};
}

namespace {

/// A defined quantity's answers, which need not be whole: the right value ± rule 1's reach; each other value its own
/// rule 1 interval, as check matches a mistake's value, less where another listed value's interval begins or ends.
ClozeNumbers real_cloze_numbers(const std::vector<PlatformAnswer>& answers, const spec::Tolerance& tolerance) {
    ClozeNumbers out;
    const auto value_of = [&](std::size_t i) {
        return answers[i].value.exact ? formula::to_double(*answers[i].value.exact)
                                      : static_cast<double>(answers[i].value.count);
    };
    const auto exact_of = [&](std::size_t i) {
        return answers[i].value.exact ? *answers[i].value.exact : formula::to_number(answers[i].value.count);
    };
    // The right value ± rule 1's reach: Moodle's interval is rule 1's, closed, and its allowance of 1e-14 of the
    // value past each end reaches only numbers nobody types.
    const NumberRange right = right_band_real(exact_of(0), tolerance);
    out.answers.push_back({0, {value_of(0), moodle_stored((right.hi - right.lo) / 2)}});
    for (std::size_t j = 1; j < answers.size(); ++j) {
        const double m = value_of(j);
        if (answers[j].status == grade::Status::rounded || m == 0) {
            out.answers.push_back({j, {m, 0}});
            continue;
        }
        // check names this value's mistakes wherever the answer is within rule 1's interval of it (issue 39, rule
        // 6), and also another value's wherever it is within that one's: the answer takes the numbers where check
        // says what it says of this value, its interval less those where one more or one fewer listed value's
        // interval holds the number (there check names both, which no one answer says).
        NumberRange allowed = right_band_real(exact_of(j), tolerance);
        for (std::size_t i = 0; i < answers.size(); ++i) {
            if (i == j)
                continue;
            const NumberRange other = answers[i].status == grade::Status::rounded
                                          ? NumberRange{value_of(i), value_of(i)}
                                          : right_band_real(exact_of(i), tolerance);
            if (holds(other, m)) {
                allowed.lo = std::max(allowed.lo, other.lo);
                allowed.hi = std::min(allowed.hi, other.hi);
            } else if (other.hi < m && other.hi >= allowed.lo) {
                allowed.lo = other.hi, allowed.lo_open = true;
            } else if (other.lo > m && other.lo <= allowed.hi) {
                allowed.hi = other.lo, allowed.hi_open = true;
            }
        }
        // The value to 14 figures (what Moodle keeps of a number, and few enough decimals for check to read: all
        // 17 digits of 1.93e-21 are more), reaching the nearer end of the interval; where another value cut one
        // side short, a second answer takes the rest of the longer side. Moodle's allowance, 10^-14 of the value,
        // covers what the 14 figures leave out, so Moodle names the mistake on the whole of the interval check does;
        // an end left out (open) is kept a hair inside, so that the allowance does not reach it.
        const double centre = rounded_at(m, first_figure(exact_of(j)) - 13);
        const double hair = 1e-9 * (allowed.hi - allowed.lo);
        const double below = centre - allowed.lo - (allowed.lo_open ? hair : 0);
        const double above = allowed.hi - centre - (allowed.hi_open ? hair : 0);
        // Both ends as far as 14 figures can place the centre (a few 10^-14 of the value) reach the farther one.
        const bool even = std::abs(below - above) <= 1e-9 * std::max(below, above);
        const double reach = even ? std::max(below, above) : std::min(below, above);
        if (reach <= 0) {
            out.answers.push_back({j, {m, 0}});
            continue;
        }
        out.answers.push_back({j, {centre, moodle_stored(reach)}});
        if (!even) {
            const double from = below > above ? centre - below : centre + reach;
            const double to = below > above ? centre - reach : centre + above;
            out.answers.push_back({j, {moodle_stored((from + to) / 2), moodle_stored((to - from) / 2)}});
        }
    }
    return out;
}

} // namespace

ClozeNumbers cloze_numbers(const std::vector<PlatformAnswer>& answers, const spec::Tolerance& tolerance) {
    ClozeNumbers out;
    if (answers.empty())
        return out;
    if (answers[0].value.exact)
        return real_cloze_numbers(answers, tolerance);
    const auto same = [&](std::size_t i, std::size_t j) {
        return answers[i].credit == answers[j].credit && answers[i].feedback == answers[j].feedback;
    };
    const auto value_of = [&](std::size_t i) { return static_cast<double>(answers[i].value.count); };

    // The right value ± rule 1's reach (right_band): Moodle's interval is rule 1's, closed, and its allowance of 1e-14
    // of the value past each end reaches only numbers nobody types (1,045,623.99999999).
    const NumberRange right = right_band(answers[0].value.count, tolerance);
    out.answers.push_back({0, {value_of(0), moodle_stored((right.hi - right.lo) / 2)}});

    for (std::size_t j = 1; j < answers.size(); ++j) {
        const double m = value_of(j);
        NumberRange allowed = answers[j].status == grade::Status::rounded
                                  ? NumberRange{m, m}
                                  : right_band(answers[j].value.count, tolerance);
        // Rule 1's interval of the value, where check names its mistakes (issue 39, rule 6). Moodle takes the first
        // interval that holds a number: stop short of every later value that says otherwise.
        for (std::size_t i = j + 1; i < answers.size(); ++i) {
            const double f = value_of(i);
            if (same(i, j) || !holds(allowed, f))
                continue;
            if (f > m)
                allowed.hi = f, allowed.hi_open = true;
            else
                allowed.lo = f, allowed.lo_open = true;
        }
        out.answers.push_back({j, widest_answer(allowed, m)});
    }

    // Where Moodle's allowance spans whole numbers (counts from about 10^14), a value can still fall to an
    // earlier answer that says something else: leave it out rather than give it that answer's feedback.
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t j = 0; j < answers.size() && !changed; ++j) {
            const auto first = std::find_if(out.answers.begin(), out.answers.end(),
                                            [&](const ClozeNumber& a) { return accepts(a.number, value_of(j)); });
            // A value within the right value's interval is right by rule 1, as Moodle says.
            if (first == out.answers.end() || first->entry == j || same(first->entry, j) ||
                (first->entry == 0 && holds(right, value_of(j))) ||
                std::find(out.dropped.begin(), out.dropped.end(), j) != out.dropped.end())
                continue;
            std::erase_if(out.answers, [&](const ClozeNumber& a) { return a.entry == j; });
            out.dropped.push_back(j);
            changed = true;
        }
    }
    return out;
}

bool needs_text(const std::vector<PlatformAnswer>& answers, const spec::Tolerance& tolerance) {
    if (answers.empty())
        return false;
    const solve::Answer& right = answers[0].value;
    if (right.exact && right.exact->get_den() != 1)
        return false; // a value that is not whole is no count: its interval is a float's
    constexpr Count k_doubles_exact = Count(1) << 53; // every whole number up to 2^53 is a double
    for (const PlatformAnswer& a : answers) {
        if (!a.value.exact ? wide_abs(a.value.count) > k_doubles_exact
                           : a.value.exact->get_den() == 1 && abs(*a.value.exact) > formula::to_number(k_doubles_exact))
            return true;
    }
    const Count value = right.exact ? formula::to_count(*right.exact).value_or(0) : right.count;
    // Moodle's allowance, 1e-14 of the value, matters where it takes in whole numbers rule 1 does not and is not
    // lost in the band: an exact count from 5·10^13 (± 0.5, the allowance half a unit or more) would take the next
    // whole numbers as right; 10^15 at three figures (± 5·10^12) would take numbers 10 past an edge nobody types.
    const NumberRange band = right_band(value, tolerance);
    const double reach = (band.hi - band.lo) / 2;
    const auto [lo, hi] = moodle_interval({static_cast<double>(value), reach});
    const bool more_whole = std::ceil(lo) != std::ceil(band.lo) || std::floor(hi) != std::floor(band.hi);
    return more_whole && k_moodle_epsilon * std::abs(static_cast<double>(value)) >= 1e-6 * reach;
}

std::string number_text(double value) {
    if (value == std::floor(value) && std::abs(value) < 9.0e15)
        return fmt::format("{}", static_cast<long long>(value));
    return fmt::format("{}", value);
}

} // namespace headcount::generate
