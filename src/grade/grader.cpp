// Grading one answer to one part: read it in the part's unit, compare it at the part's tolerance, and find the
// mistakes that explain it (built-in recipes, listed and derived ones, another quantity's value, a rounding). Just
// over 400 lines: counts, defined quantities, and shapes and words share the rounding, matching and scoring steps
// that keep them in one file.

#include <grade/grader.hpp>
#include <util/enum_names.hpp>

#include <grade/defined_mistakes.hpp>
#include <solve/defined.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace headcount::grade {

using answer::AnswerUnit;
using answer::parse_answer;
using answer::parse_choice;
using answer::parse_shape;

namespace {
double resolution_of(const ParsedAnswer& answer);
} // namespace

int written_figures(const ParsedAnswer& answer) {
    if (answer.significant_figures > 0)
        return answer.significant_figures;
    if (resolution_of(answer) == 0)
        return 0;
    int figures = 0;
    for (Count v = *answer.integer; v != 0; v /= 10)
        ++figures;
    for (Count v = *answer.integer; v % 10 == 0; v /= 10)
        --figures;
    return figures;
}

namespace {

/// How finely the student wrote the number: the place value of the last digit they meant, 0 when exact.
/// "1.05M" -> 10,000; a plain "1,050,000" -> 10,000 too, since its trailing zeros look like rounding; but the
/// result of arithmetic ("4*1000^2") is exact, whatever its zeros.
double resolution_of(const ParsedAnswer& answer) {
    if (answer.significant_figures > 0)
        return answer.resolution;
    if (!answer.literal || !answer.integer || *answer.integer == 0)
        return 0;
    double place = 1;
    for (Count v = *answer.integer; v % 10 == 0; v /= 10)
        place *= 10;
    return place > 1 ? place : 0;
}

/// `resolution` (a place value of at least 1) as a whole number: a power of ten when it is one to a double's
/// precision (the double nearest 10^23 is not 10^23), else the double's own value.
Count whole_place(double resolution) {
    Count ten = 1;
    while (static_cast<double>(ten) < resolution / 2)
        ten *= 10;
    for (const Count power : {ten / 10, ten})
        if (power > 0 && std::abs(static_cast<double>(power) - resolution) <= resolution * 1e-12)
            return power;
    return static_cast<Count>(resolution);
}

/// Whether the answer, written to `figures` or more significant figures, is `value` rounded at its last digit.
/// Past 2^53 a double cannot tell the last digits apart (3.6117099072668565e19 is 36,117,099,072,668,565,504 and
/// 36,117,099,072,668,565,000 alike), so a whole answer is compared exactly there.
bool rounds_at(const ParsedAnswer& answer, Count value, int figures) {
    const double resolution = resolution_of(answer);
    if (resolution <= 0 || written_figures(answer) < figures)
        return false;
    constexpr Count k_exact_in_double = Count{1} << 53;
    if (answer.integer && resolution >= 1 &&
        (wide_abs(value) > k_exact_in_double || wide_abs(*answer.integer) > k_exact_in_double))
        return 2 * wide_abs(*answer.integer - value) <= whole_place(resolution);
    return std::abs(answer.value - static_cast<double>(value)) <= resolution / 2;
}

/// Whether `answer` is `value` written as a rounded number. A mantissa with a point or a scale (1.1M, 1.1e6) or an
/// answer marked approximate says "rounded" by itself and needs two figures; trailing zeros alone (1,050,000)
/// could as well be a wrong count, so they need three (130 is not 128 rounded); one figure (1M) is never enough.
bool rounds_to(const ParsedAnswer& answer, Count value) {
    const bool says_rounded = answer.significant_figures > 0 || answer.approximate;
    return rounds_at(answer, value, says_rounded ? 2 : 3);
}

/// Whether `answer` is `value` under the part's tolerance.
bool within_tolerance(const ParsedAnswer& answer, Count value, const spec::Tolerance& tolerance) {
    const double v = static_cast<double>(value);
    switch (tolerance.kind) {
    case spec::Tolerance::Kind::exact:
        return answer.integer && *answer.integer == value;
    case spec::Tolerance::Kind::relative:
        return std::abs(answer.value - v) <= tolerance.relative * std::abs(v);
    case spec::Tolerance::Kind::sigfigs: {
        if (value == 0)
            return answer.value == 0;
        // Both round to the same figures at the expected value's magnitude: 1,054,999 and 1,050,624 are 1.05M.
        const double place = std::pow(10.0, std::floor(std::log10(std::abs(v))) - tolerance.sigfigs + 1);
        return std::round(answer.value / place) == std::round(v / place);
    }
    }
    return false;
}

/// One mistake explains an answer more simply than two: keeps pairs only when no single mistake matches.
void keep_simplest(Verdict& verdict) {
    if (std::any_of(verdict.matches.begin(), verdict.matches.end(),
                    [](const Explanation& e) { return e.mistakes.size() == 1; }))
        std::erase_if(verdict.matches, [](const Explanation& e) { return e.mistakes.size() > 1; });
}

/// The best credit among the matching explanations; a pair earns the smaller of its two mistakes' credits.
void score_matches(const solve::SolvedPart& part, Verdict& verdict) {
    for (const Explanation& e : verdict.matches) {
        double credit = 1;
        for (const Mistake* m : e.mistakes)
            credit = std::min(credit, credit_for(part.part, *m));
        verdict.score = std::max(verdict.score, verdict.points * credit);
    }
}

} // namespace

namespace {
constexpr auto k_status_names = std::to_array<std::string_view>({"correct", "rounded", "incorrect", "unreadable"});
static_assert(names_every(Status::unreadable, k_status_names));
} // namespace

std::string_view status_name(Status status) { return enum_name(status, k_status_names, "unreadable"); }

std::vector<const Mistake*> named_mistakes(const Verdict& verdict) {
    std::vector<const Mistake*> out;
    if (verdict.status == Status::rounded)
        out.push_back(find_mistake(k_rounded));
    for (const Explanation& e : verdict.matches)
        for (const Mistake* m : e.mistakes)
            if (std::find(out.begin(), out.end(), m) == out.end())
                out.push_back(m);
    return out;
}

double credit_for(const spec::Part& part, const Mistake& mistake) {
    const auto it = part.credit.find(std::string(mistake.id));
    return it != part.credit.end() ? it->second : mistake.credit;
}

namespace {

/// A bytes answer whose decimal unit was meant as binary or the other way round (16 MB for 16 MiB), read the
/// other way; nullopt when it has no such unit.
std::optional<ParsedAnswer> other_unit_base(const ParsedAnswer& answer) {
    constexpr std::array<std::pair<std::string_view, std::string_view>, 4> k_pairs{
        {{"KB", "KiB"}, {"MB", "MiB"}, {"GB", "GiB"}, {"TB", "TiB"}}};
    for (std::size_t level = 0; level < k_pairs.size(); ++level) {
        const auto [decimal, binary] = k_pairs[level];
        if (answer.unit != decimal && answer.unit != binary)
            continue;
        const double power = static_cast<double>(level + 1);
        const double ratio = std::pow(1024.0, power) / std::pow(1000.0, power);
        const double factor = answer.unit == decimal ? ratio : 1 / ratio;
        ParsedAnswer other = answer;
        other.unit = answer.unit == decimal ? binary : decimal;
        other.value = answer.value * factor;
        other.resolution = answer.resolution * factor;
        other.integer.reset();
        if (std::abs(other.value) < 9.0e15 && other.value == std::floor(other.value))
            other.integer = static_cast<Count>(other.value);
        return other;
    }
    return std::nullopt;
}

/// Whether a bytes answer written with a unit (16.8 MB, 16 MiB) is `value` to the figures it gives.
bool in_units(const solve::Ask& ask, const ParsedAnswer& answer, Count value) {
    return ask.in_bytes() && !answer.unit.empty() && answer.unit != "B" && rounds_at(answer, value, 3);
}

/// Adds the other quantities whose right answer the student gave, when no catalogued mistake already explains it
/// (the catalogue names the idea; "that is the whole block's count" only describes the number).
template <class Matches> void add_other_quantities(const MistakeTable& table, Verdict& verdict, Matches matches) {
    if (std::any_of(verdict.matches.begin(), verdict.matches.end(),
                    [](const Explanation& e) { return e.mistakes.size() == 1; }))
        return;
    for (const Explanation& e : table.others)
        if (matches(e.value))
            verdict.matches.push_back(e);
}

/// Grades an answer that is exact by nature (a shape or a word), read into `verdict.read`.
void grade_exact(const MistakeTable& table, Verdict& verdict) {
    const solve::SolvedPart& part = *table.part;
    if (*verdict.read == part.answer) {
        verdict.status = Status::correct;
        verdict.score = verdict.points;
        return;
    }
    verdict.status = Status::incorrect;
    for (const Explanation& e : table.explanations)
        if (e.value == *verdict.read)
            verdict.matches.push_back(e);
    add_other_quantities(table, verdict, [&](const solve::Answer& value) { return value == *verdict.read; });
}

using formula::Number;

/// An exact fraction read from an answer, as a GMP rational.
Number from_fraction(const answer::Fraction& f) {
    Number n(formula::to_number(f.num).get_num(), formula::to_number(f.den).get_num());
    n.canonicalize();
    return n;
}

/// A defined quantity's answer typed in its unit (or another of the same dimension), graded against the exact
/// value. The verdict's `parsed` holds the answer converted to the question's unit.
Verdict grade_defined(const MistakeTable& table, Verdict verdict) {
    const solve::SolvedPart& part = *table.part;
    const spec::Quantity* quantity = solve::defined_quantity(table.solved->problem, *part.ask);
    const solve::UnitInfo unit = solve::unit_info(quantity ? quantity->unit : std::string_view());
    using D = solve::UnitInfo::Dimension;
    const AnswerUnit mode = unit.dimension == D::bytes   ? AnswerUnit::bytes
                            : unit.dimension == D::time  ? AnswerUnit::time
                            : unit.dimension == D::plain ? AnswerUnit::plain
                                                         : AnswerUnit::count;
    auto parsed = parse_answer(verdict.answer, mode, answer::ParseOptions{.wide = true});
    if (!parsed) {
        verdict.status = Status::unreadable;
        verdict.unreadable_reason = parsed.error();
        return verdict;
    }
    // A unit typed makes the number one of the dimension's base unit (bytes, seconds, a plain fraction for %).
    const Number factor = parsed->unit.empty() ? Number(1) : Number(1) / unit.scale;
    std::optional<Number> typed;
    if (parsed->exact)
        typed = from_fraction(*parsed->exact) * factor;
    const double to_unit = formula::to_double(factor);
    parsed->value *= to_unit;
    parsed->resolution *= to_unit;
    parsed->integer = typed ? formula::to_count(*typed) : std::nullopt;
    verdict.parsed = *parsed;
    if (typed)
        verdict.read = solve::exact_answer(*typed);

    const Number& right = *part.answer.exact;
    const spec::Tolerance tolerance = solve::tolerance_of(part);
    const auto within = [&](const Number& value) {
        const double v = formula::to_double(value);
        switch (tolerance.kind) {
        case spec::Tolerance::Kind::exact:
            return typed && *typed == value;
        case spec::Tolerance::Kind::relative:
            return std::abs(parsed->value - v) <= tolerance.relative * std::abs(v);
        case spec::Tolerance::Kind::sigfigs: {
            if (value == 0)
                return parsed->value == 0;
            const double place = std::pow(10.0, std::floor(std::log10(std::abs(v))) - tolerance.sigfigs + 1);
            return std::round(parsed->value / place) == std::round(v / place);
        }
        }
        return false;
    };
    const auto rounds = [&](const Number& value) {
        const bool says_rounded = parsed->significant_figures > 0 || parsed->approximate;
        const double resolution = resolution_of(*parsed);
        if (resolution <= 0 || written_figures(*parsed) < (says_rounded ? 2 : 3))
            return false;
        if (typed) // exactly: past 2^53 a double cannot tell the last digits apart
            return cmp(abs(Number(*typed - value)), Number(resolution) / 2) <= 0;
        return std::abs(parsed->value - formula::to_double(value)) <= resolution / 2;
    };
    if (within(right)) {
        verdict.status = Status::correct;
        verdict.score = verdict.points;
        return verdict;
    }
    const auto is_exactly = [&](const Explanation& e) { return typed && e.value.exact && *typed == *e.value.exact; };
    const bool is_a_mistake = std::any_of(table.explanations.begin(), table.explanations.end(), is_exactly) ||
                              std::any_of(table.others.begin(), table.others.end(), is_exactly);
    if (!is_a_mistake && rounds(right)) {
        verdict.status = Status::rounded;
        verdict.score = verdict.points * credit_for(part.part, *find_mistake(k_rounded));
        return verdict;
    }
    verdict.status = Status::incorrect;
    const auto matches = [&](const solve::Answer& value) {
        return value.exact && (within(*value.exact) || rounds(*value.exact));
    };
    for (const Explanation& e : table.explanations)
        if (matches(e.value))
            verdict.matches.push_back(e);
    add_other_quantities(table, verdict, matches);
    keep_simplest(verdict);
    // A listed mistake wins over the others that only come near its value: 46.7B for Mixtral's active parameters
    // is all experts counted, not also each small factor of the idle experts' term left out, which rounds alike.
    if (quantity) {
        const auto listed = [&](const Explanation& e) {
            return e.mistakes.size() == 1 &&
                   std::any_of(quantity->mistakes.begin(), quantity->mistakes.end(),
                               [&](const spec::ListedMistake& m) { return m.id == e.mistakes[0]->id; });
        };
        if (std::any_of(verdict.matches.begin(), verdict.matches.end(), listed))
            std::erase_if(verdict.matches, [&](const Explanation& e) { return !listed(e) && !is_exactly(e); });
    }
    score_matches(part, verdict);
    const double r = formula::to_double(right);
    if (verdict.matches.empty() && r != 0) {
        const double off = (parsed->value - r) / r;
        if (std::abs(off) <= 0.05)
            verdict.near_miss = off;
    }
    return verdict;
}

} // namespace

MistakeTable mistake_table(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    if (part.ask->kind == "defined") {
        const spec::Quantity* q = exactly_defined(solved, part);
        if (!q)
            return MistakeTable{&solved, &part, {}, {}};
        return MistakeTable{&solved, &part, defined_explanations(solved, part, *q), defined_others(solved, part, *q)};
    }
    return MistakeTable{&solved, &part, explanations(solved.problem, *part.ask, part.answer),
                        other_quantities(solved, *part.ask)};
}

Verdict grade_answer(const solve::SolvedProblem& solved, const solve::SolvedPart& part, std::string_view answer) {
    return grade_answer(mistake_table(solved, part), answer);
}

Verdict grade_answer(const MistakeTable& table, std::string_view answer) {
    const solve::SolvedPart& part = *table.part;
    Verdict verdict;
    verdict.answer = std::string(answer);
    verdict.expected = part.answer;
    verdict.points = part.part.points;
    const solve::Ask& ask = *part.ask;
    if (ask.kind == "defined")
        return grade_defined(table, std::move(verdict));

    if (ask.type() != solve::Ask::Type::count) {
        if (ask.type() == solve::Ask::Type::shape) {
            auto shape = parse_shape(answer);
            if (shape) {
                Count elements = 1;
                CheckedArithmetic math;
                for (Count axis : *shape)
                    elements = math.mul(elements, axis, "the shape's elements");
                verdict.read = solve::Answer{math.ok() ? elements : 0, *shape, {}};
            } else
                verdict.unreadable_reason = shape.error();
        } else {
            auto choice = parse_choice(answer, ask.choices);
            if (choice)
                verdict.read = solve::Answer{static_cast<Count>(*choice), {}, {}};
            else
                verdict.unreadable_reason = choice.error();
        }
        if (!verdict.read) {
            verdict.status = Status::unreadable;
            return verdict;
        }
        grade_exact(table, verdict);
        keep_simplest(verdict);
        score_matches(part, verdict);
        return verdict;
    }

    const Count right = part.answer.count;
    auto parsed = parse_answer(answer, ask.in_bytes() ? AnswerUnit::bytes : AnswerUnit::count);
    if (!parsed) {
        verdict.status = Status::unreadable;
        verdict.unreadable_reason = parsed.error();
        return verdict;
    }
    verdict.parsed = *parsed;
    if (parsed->integer)
        verdict.read = solve::Answer{*parsed->integer, {}, {}};
    const spec::Tolerance tolerance = part.part.tolerance.value_or(spec::Tolerance{});

    if (within_tolerance(*parsed, right, tolerance) || in_units(ask, *parsed, right)) {
        verdict.status = Status::correct;
        verdict.score = verdict.points;
        return verdict;
    }
    const auto& candidates = table.explanations;
    const auto is_exactly = [&](const Explanation& e) { return parsed->integer && *parsed->integer == e.value.count; };
    const auto& others = table.others;
    const bool is_a_mistake = std::any_of(candidates.begin(), candidates.end(), is_exactly) ||
                              std::any_of(others.begin(), others.end(), is_exactly);
    if (!is_a_mistake && rounds_to(*parsed, right)) {
        verdict.status = Status::rounded;
        verdict.score = verdict.points * credit_for(part.part, *find_mistake(k_rounded));
        return verdict;
    }

    verdict.status = Status::incorrect;
    if (const auto other = other_unit_base(*parsed);
        // Three figures, as for a right answer in units: 17 MiB is too coarse to tell 16.78 MB from 17.8 MB.
        other && (within_tolerance(*other, right, tolerance) || rounds_at(*other, right, 3)))
        verdict.matches.push_back({{find_mistake(k_unit_base)}, part.answer, {}});
    const auto matches = [&](const solve::Answer& value) {
        return within_tolerance(*parsed, value.count, tolerance) || rounds_to(*parsed, value.count);
    };
    for (const Explanation& e : candidates)
        if (matches(e.value))
            verdict.matches.push_back(e);
    add_other_quantities(table, verdict, matches);
    keep_simplest(verdict);
    score_matches(part, verdict);
    if (verdict.matches.empty() && right != 0) {
        const double off = (parsed->value - static_cast<double>(right)) / static_cast<double>(right);
        if (std::abs(off) <= 0.05)
            verdict.near_miss = off;
    }
    return verdict;
}

} // namespace headcount::grade
