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

NumberRange grade_band(Count value, const spec::Tolerance& tolerance) {
    if (tolerance.kind != spec::Tolerance::Kind::sigfigs || value == 0)
        return grade_band_real(static_cast<double>(value), tolerance);
    // Issue 39's rule 1: within half a unit in the last required figure of the exact value, both ends included.
    const double half = std::pow(10.0, digits_of(value) - tolerance.sigfigs) / 2;
    const auto centre = static_cast<double>(value);
    return {centre - half, centre + half, false, false};
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

NumberRange grade_band_real(double v, const spec::Tolerance& tolerance) {
    switch (tolerance.kind) {
    case spec::Tolerance::Kind::relative: {
        const double width = tolerance.relative * std::abs(v);
        return {v - width, v + width};
    }
    case spec::Tolerance::Kind::sigfigs: {
        if (v == 0)
            return {0, 0};
        // Issue 39's rule 1: within half a unit in the last required figure of the exact value, both ends included.
        const double exponent = std::floor(std::log10(std::abs(v))) - tolerance.sigfigs + 1;
        const double place = std::pow(10.0, exponent);
        return {v - place / 2, v + place / 2, false, false};
    }
    case spec::Tolerance::Kind::exact:
        break;
    }
    return {v, v};
}

namespace {

/// The band a wrong value's answer takes under {sigfigs: n}: what rounds to that value at n figures, as check
/// matches a mistake's value (grade/grader.cpp); the right value's band is rule 1's (grade_band_real).
NumberRange rounding_band_real(double v, const spec::Tolerance& tolerance) {
    if (tolerance.kind != spec::Tolerance::Kind::sigfigs || v == 0)
        return grade_band_real(v, tolerance);
    const double exponent = std::floor(std::log10(std::abs(v))) - tolerance.sigfigs + 1;
    const double place = std::pow(10.0, exponent);
    // Below 1 a place is not a double (0.1), its inverse is: 254 / 10 is the double nearest 25.4, 254 * 0.1 is not.
    const double centre =
        exponent < 0 ? std::round(v / place) / std::pow(10.0, -exponent) : std::round(v / place) * place;
    return {centre - place / 2, centre + place / 2, false, true};
}

/// A defined quantity's answers, which need not be whole: each its band, centred, a hair inside grade's so that
/// Moodle's 10^-14 allowance never reaches past it, and stopping short of later values that say otherwise.
ClozeNumbers real_cloze_numbers(const std::vector<PlatformAnswer>& answers, const spec::Tolerance& tolerance) {
    ClozeNumbers out;
    const auto value_of = [&](std::size_t i) {
        return answers[i].value.exact ? formula::to_double(*answers[i].value.exact)
                                      : static_cast<double>(answers[i].value.count);
    };
    const auto band_number = [](const NumberRange& r) {
        const double centre = (r.lo + r.hi) / 2;
        return MoodleNumber{centre, moodle_stored((r.hi - r.lo) / 2 * (1 - 1e-9))};
    };
    const NumberRange right = grade_band_real(value_of(0), tolerance);
    out.answers.push_back({0, {value_of(0), 0}});
    if (right.hi > right.lo)
        out.answers.push_back({0, band_number(right)});
    for (std::size_t j = 1; j < answers.size(); ++j) {
        const double m = value_of(j);
        NumberRange allowed =
            answers[j].status == grade::Status::rounded ? NumberRange{m, m} : rounding_band_real(m, tolerance);
        for (std::size_t i = 0; i < answers.size(); ++i) {
            const double f = value_of(i);
            if (i == j || f < allowed.lo || f > allowed.hi)
                continue;
            if (f > m)
                allowed.hi = (m + f) / 2;
            else if (f < m)
                allowed.lo = (m + f) / 2;
        }
        out.answers.push_back({j, allowed.hi > allowed.lo ? band_number(allowed) : MoodleNumber{m, 0}});
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

    // The right value: the band grade accepts (under {sigfigs: n} centred on the rounded value), after the
    // value itself when that is not the band's centre, so that Moodle shows it as the right answer and always
    // takes it.
    const MoodleNumber band = widest_answer(grade_band(answers[0].value.count, tolerance), std::nullopt);
    if (band.value != value_of(0))
        out.answers.push_back({0, {value_of(0), 0}});
    out.answers.push_back({0, band});

    for (std::size_t j = 1; j < answers.size(); ++j) {
        const double m = value_of(j);
        NumberRange allowed = answers[j].status == grade::Status::rounded
                                  ? NumberRange{m, m}
                                  : grade_band(answers[j].value.count, tolerance);
        // Moodle takes the first interval that holds a number: stop short of every later value that says
        // otherwise.
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
            if (first == out.answers.end() || first->entry == j || same(first->entry, j) ||
                std::find(out.dropped.begin(), out.dropped.end(), j) != out.dropped.end())
                continue;
            std::erase_if(out.answers, [&](const ClozeNumber& a) { return a.entry == j; });
            out.dropped.push_back(j);
            changed = true;
        }
    }
    return out;
}

std::string number_text(double value) {
    if (value == std::floor(value) && std::abs(value) < 9.0e15)
        return fmt::format("{}", static_cast<long long>(value));
    return fmt::format("{}", value);
}

} // namespace headcount::generate
