// Grading one answer to one part, the one way for every ask, built-in or the spec's own: read it in the part's
// unit, compare it exactly at the part's tolerance, and find the mistakes that explain it (grade/mistakes.hpp: the
// catalogue's, listed and derived ones, another quantity's value, a rounding). Shapes and words are compared
// whole.

#include <grade/grader.hpp>

#include <grade/formula_answer.hpp>

#include <grade/byte_units.hpp>
#include <util/enum_names.hpp>

#include <solve/defined.hpp>

#include <fmt/format.h>

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

/// One mistake explains an answer more simply than two: keeps pairs only when no single mistake matches.
void keep_simplest(Verdict& verdict) {
    if (std::any_of(verdict.matches.begin(), verdict.matches.end(),
                    [](const Explanation& e) { return e.mistakes.size() == 1; }))
        std::erase_if(verdict.matches, [](const Explanation& e) { return e.mistakes.size() > 1; });
}

/// Issue 39's rule 6: more than two unrelated explanations (sharing no mistake) of one number assert none of them;
/// the first three become possibilities, listed as such.
void keep_only_causes(Verdict& verdict) {
    constexpr std::size_t k_most_possible = 3;
    std::vector<const Explanation*> unrelated;
    for (const Explanation& e : verdict.matches) {
        const auto shares = [&](const Explanation* other) {
            return std::any_of(e.mistakes.begin(), e.mistakes.end(), [&](const Mistake* m) {
                return std::find(other->mistakes.begin(), other->mistakes.end(), m) != other->mistakes.end();
            });
        };
        if (std::none_of(unrelated.begin(), unrelated.end(), shares))
            unrelated.push_back(&e);
    }
    if (unrelated.size() <= 2)
        return;
    // A given read in the other byte unit (80 GB as 80 GiB) is a slip in reading the question, the likeliest of
    // them: listed first.
    std::stable_partition(unrelated.begin(), unrelated.end(), [](const Explanation* e) {
        return std::any_of(e->mistakes.begin(), e->mistakes.end(),
                           [](const Mistake* m) { return m->id == "given_in_other_unit"; });
    });
    for (std::size_t i = 0; i < k_most_possible; ++i)
        verdict.possible.push_back(*unrelated[i]);
    verdict.matches.clear();
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

/// For a bytes answer written with a decimal unit meant as binary, or the other way round (16 MB for 16 MiB): the
/// factor that reads it the other way; nullopt when it has no such unit (rates are not read so).
std::optional<formula::Number> other_unit_factor(const ParsedAnswer& answer) {
    const auto other = answer.unit.ends_with("/s") ? std::nullopt : other_byte_unit(answer.unit);
    return other ? std::optional<formula::Number>(other->factor) : std::nullopt;
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

/// 10^k, exactly.
Number power_of_ten(long k) {
    mpz_class p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(k < 0 ? -k : k));
    return k < 0 ? Number(mpz_class(1), p) : Number(p);
}

/// Half a unit in the `figures`-th significant figure of `value` (0.0005 for 7/39 at three figures), or nullopt
/// when `value` is 0 or too far out for a double to place.
std::optional<Number> half_unit(const Number& value, int figures) {
    const Number size = abs(value);
    const double approximate = formula::to_double(size);
    if (size == 0 || !std::isfinite(approximate) || approximate == 0)
        return std::nullopt;
    auto exponent = static_cast<long>(std::floor(std::log10(approximate)));
    // The double's logarithm can be one off beside a power of ten: settle it exactly.
    while (power_of_ten(exponent) > size)
        --exponent;
    while (power_of_ten(exponent + 1) <= size)
        ++exponent;
    return power_of_ten(exponent - figures + 1) / 2;
}

/// Why a typed unit of bytes does not fit a part asking for a rate of bytes, or the other way round.
std::optional<std::string> rate_mismatch(const solve::UnitInfo& unit, std::string_view typed) {
    if (unit.dimension != solve::UnitInfo::Dimension::bytes || typed.empty())
        return std::nullopt;
    const bool rate_asked = unit.symbol.ends_with("/s");
    if (rate_asked == typed.ends_with("/s"))
        return std::nullopt;
    return rate_asked ? fmt::format("this part asks for a rate of bytes per second: write {}/s", typed)
                      : fmt::format("this part asks for bytes, not a rate ('{}')", typed);
}

/// An exact fraction read from an answer, as a GMP rational.
Number from_fraction(const answer::Fraction& f) {
    Number n(formula::to_number(f.num).get_num(), formula::to_number(f.den).get_num());
    n.canonicalize();
    return n;
}

/// The ids of the mistakes listed with the quantity `part` asks for: the spec's, or the catalogue entry's.
std::vector<std::string_view> listed_ids(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    std::vector<std::string_view> ids;
    const solve::Computation& c = *solved.computation;
    const int slot = slot_of(solved, part);
    if (!c.available(slot))
        return ids;
    const solve::Computation::Slot& s = c.slot(slot);
    if (s.quantity)
        for (const spec::ListedMistake& m : s.quantity->mistakes)
            ids.push_back(m.id);
    else if (s.entry)
        for (const solve::EntryMistake& m : s.entry->mistakes)
            ids.push_back(m.id);
    return ids;
}

/// The exact value of an answer (a count's, a defined quantity's).
Number exact_of(const solve::Answer& answer) { return answer.exact ? *answer.exact : formula::to_number(answer.count); }

/// An answer to a count ask (parameters, FLOPs, bytes, a time, any unit of the spec's own) typed in its unit or
/// another of the same dimension, graded against the exact value. The verdict's `parsed` holds the answer
/// converted to the question's unit.
Verdict grade_count(const MistakeTable& table, Verdict verdict) {
    const solve::SolvedPart& part = *table.part;
    const solve::UnitInfo unit = solve::ask_unit(table.solved->problem, *part.ask);
    using D = solve::UnitInfo::Dimension;
    const AnswerUnit mode = unit.dimension == D::bytes   ? AnswerUnit::bytes
                            : unit.dimension == D::time  ? AnswerUnit::time
                            : unit.dimension == D::plain ? AnswerUnit::plain
                                                         : AnswerUnit::count;
    const std::string_view noun = unit.dimension == D::count ? part.ask->unit : std::string_view();
    auto parsed = parse_answer(verdict.answer, mode, answer::ParseOptions{.wide = true, .noun = noun});
    if (parsed)
        if (auto refused = rate_mismatch(unit, parsed->unit))
            parsed = std::unexpected(*refused);
    if (!parsed) {
        verdict.status = Status::unreadable;
        verdict.unreadable_reason = parsed.error();
        return verdict;
    }
    // A unit typed makes the number one of the dimension's base unit (bytes, seconds, a plain fraction for %).
    Number factor = parsed->unit.empty() ? Number(1) : Number(1) / unit.scale;
    // A spec's percentage written without % may be the percentage (17.95) or the fraction (0.1795): the reading
    // nearer the value is the one meant.
    if (unit.fraction_as_percent && parsed->unit.empty() && parsed->exact) {
        const Number as_written = from_fraction(*parsed->exact);
        const Number right = exact_of(part.answer);
        if (cmp(abs(Number(as_written / 100 - right)), abs(Number(as_written - right))) < 0) {
            factor = Number(1, 100);
            parsed->unit = std::string(1, '%');
        }
    }
    std::optional<Number> typed;
    if (parsed->exact)
        typed = from_fraction(*parsed->exact) * factor;
    // The typed value as a double: equal values have equal doubles, so two that differ as doubles need no exact
    // comparison (a class whose answers all differ compares each with every mistake's value).
    const double typed_double = typed ? formula::to_double(*typed) : 0;
    const auto is_exactly_value = [&](const Number& value, double v) {
        return typed && typed_double == v && *typed == value;
    };
    const double to_unit = formula::to_double(factor);
    parsed->value *= to_unit;
    parsed->resolution *= to_unit;
    parsed->integer = typed ? formula::to_count(*typed) : std::nullopt;
    verdict.parsed = *parsed;
    if (typed)
        verdict.read = solve::exact_answer(*typed);

    const Number right = exact_of(part.answer);
    const spec::Tolerance tolerance = solve::tolerance_of(part);
    // The unit the student wrote in, in the question's unit: figures are counted in it (18.0 years has its three
    // figures in years, not in the days asked for).
    const Number typed_unit = parsed->unit.empty() ? Number(1) : solve::unit_info(parsed->unit).scale / unit.scale;
    const auto within_at = [&](const Number& value, double v) {
        switch (tolerance.kind) {
        case spec::Tolerance::Kind::exact:
            return is_exactly_value(value, v);
        case spec::Tolerance::Kind::relative:
            return std::abs(parsed->value - v) <= tolerance.relative * std::abs(v);
        case spec::Tolerance::Kind::sigfigs: {
            if (!typed || value == 0)
                return typed && *typed == value;
            // Half a unit in the n-th figure is at most half of 10^(1-n) of the value: far off by the doubles is
            // far off exactly, and the exact test is kept for values near it (a part has hundreds of mistakes).
            if (std::abs(parsed->value - v) > 0.6 * std::pow(10.0, 1 - tolerance.sigfigs) * std::abs(v))
                return false;
            // Rule 1: within half a unit in the last required figure of the exact value, never of a rounded one.
            const auto half = half_unit(Number(value / typed_unit), tolerance.sigfigs);
            return half && cmp(abs(Number(*typed - value)), Number(*half * typed_unit)) <= 0;
        }
        }
        return false;
    };
    const bool says_rounded = parsed->significant_figures > 0 || parsed->approximate;
    const double resolution = resolution_of(*parsed);
    const bool can_round = resolution > 0 && written_figures(*parsed) >= (says_rounded ? 2 : 3);
    const Number half_resolution = can_round && typed ? Number(resolution) / 2 : Number(0);
    const auto rounds_at = [&](const Number& value, double v) {
        if (!can_round)
            return false;
        if (typed) { // exactly: past 2^53 a double cannot tell the last digits apart
            // Far off by the doubles is far off exactly: the exact comparison only near the value.
            if (std::abs(parsed->value - v) > 4 * resolution + 1e-9 * std::abs(v))
                return false;
            return cmp(abs(Number(*typed - value)), half_resolution) <= 0;
        }
        return std::abs(parsed->value - v) <= resolution / 2;
    };
    const auto rounds = [&](const Number& value) { return rounds_at(value, formula::to_double(value)); };
    // Bytes written with a prefixed unit (16.8 MB, 16 MiB) or as a power of ten (1.68e7 bytes) are right to the
    // figures they give, three at least (issue 39, rule 4); plain digits are a count's, every one.
    const bool prefixed = !parsed->unit.empty() && parsed->unit != "B" && written_figures(*parsed) >= 3;
    const bool power_of_ten = parsed->unit.size() <= 1 && parsed->significant_figures >= 3; // 1.68e7, 1.68e7 B
    const bool bytes_at_figures = unit.dimension == solve::UnitInfo::Dimension::bytes && (prefixed || power_of_ten);
    // Fewer figures than the part asks for is a rounding, even when it lands near enough (0.17 for 0.17002 at
    // three figures), unless it is the exact value itself.
    const int figures = written_figures(*parsed);
    const bool too_few = tolerance.kind == spec::Tolerance::Kind::sigfigs && figures > 0 && figures < tolerance.sigfigs;
    // Rule 1 (issue 39): the answer is `value` when it is exactly that, or within half a unit in the part's last
    // required figure of it with at least the figures the part asks for, or bytes in a unit to the figures written.
    // The right value and an accepted reading are judged by this one test, and every mistake's value (rule 6) by it
    // and by the rounding test below.
    const auto gives = [&](const Number& value, double v) {
        return is_exactly_value(value, v) || (within_at(value, v) && !too_few) ||
               (bytes_at_figures && rounds_at(value, v));
    };
    if (gives(right, formula::to_double(right))) {
        verdict.status = Status::correct;
        verdict.score = verdict.points;
        return verdict;
    }
    // A reading the part accepts (issue 39, rule 7) is judged as the right value is, and names no mistake.
    for (const solve::AcceptedValue& a : part.accepted)
        if (gives(a.value, formula::to_double(a.value))) {
            verdict.status = a.credit >= 1 ? Status::correct : Status::incorrect;
            verdict.score = verdict.points * std::min(a.credit, 1.0);
            verdict.accepted = a.feedback;
            return verdict;
        }
    const auto is_exactly = [&](const Explanation& e) { return typed && *typed == exact_of(e.value); };
    const auto is_value = [&](const MistakeTable::Value& v) { return is_exactly_value(v.exact, v.approximate); };
    const bool is_a_mistake = std::any_of(table.explanation_values.begin(), table.explanation_values.end(), is_value) ||
                              std::any_of(table.other_values.begin(), table.other_values.end(), is_value);
    if (!is_a_mistake && rounds(right)) {
        verdict.status = Status::rounded;
        verdict.score = verdict.points * credit_for(part.part, *find_mistake(k_rounded));
        return verdict;
    }
    verdict.status = Status::incorrect;
    if (const auto factor = unit.dimension == D::bytes ? other_unit_factor(*parsed) : std::nullopt; factor && typed) {
        // GB written for GiB (or the other way round): the number read in the other family's unit is right, to
        // three figures, as a right answer in units is (17 MiB is too coarse to tell 16.78 MB from 17.8 MB).
        const Number other = *typed * *factor;
        const double resolution = resolution_of(*parsed) * formula::to_double(*factor);
        const bool exact = tolerance.kind == spec::Tolerance::Kind::exact && other == right;
        if (exact || (resolution > 0 && written_figures(*parsed) >= 3 &&
                      cmp(abs(Number(other - right)), Number(resolution) / 2) <= 0))
            verdict.matches.push_back({{find_mistake(k_unit_base)}, part.answer, {}});
    }
    // Rule 6: a mistake's value is matched by the rule a right value is judged by (rule 1): the answer would be right
    // or rounded were the mistake's value the right one. So at the part's figures or any coarser precision the
    // student wrote (1.2e3 for 1,234 at three figures), never finer than the part's: rounding alike is no match
    // (1.225e3 for 1,234 is 9 off). Moodle's bands of wrong values are rule 1's intervals too
    // (generate/moodle_numbers.hpp); the figures a number is written with are what Moodle cannot see.
    const auto matches = [&](const MistakeTable::Value& v) {
        return gives(v.exact, v.approximate) || rounds_at(v.exact, v.approximate);
    };
    for (std::size_t i = 0; i < table.explanations.size(); ++i)
        if (matches(table.explanation_values[i]))
            verdict.matches.push_back(table.explanations[i]);
    if (std::none_of(verdict.matches.begin(), verdict.matches.end(),
                     [](const Explanation& e) { return e.mistakes.size() == 1; }))
        for (std::size_t i = 0; i < table.others.size(); ++i)
            if (matches(table.other_values[i]))
                verdict.matches.push_back(table.others[i]);
    keep_simplest(verdict);
    // A listed mistake wins over the others that only come near its value: 46.7B for Mixtral's active parameters
    // is all experts counted, not also each small factor of the idle experts' term left out, which rounds alike.
    const std::vector<std::string_view> own = listed_ids(*table.solved, part);
    if (!own.empty()) {
        const auto listed = [&](const Explanation& e) {
            return e.mistakes.size() == 1 && std::find(own.begin(), own.end(), e.mistakes[0]->id) != own.end();
        };
        if (std::any_of(verdict.matches.begin(), verdict.matches.end(), listed))
            std::erase_if(verdict.matches, [&](const Explanation& e) { return !listed(e) && !is_exactly(e); });
    }
    keep_only_causes(verdict);
    score_matches(part, verdict);
    const double r = formula::to_double(right);
    if (verdict.matches.empty() && verdict.possible.empty() && r != 0) {
        const double off = (parsed->value - r) / r;
        if (std::abs(off) <= 0.05)
            verdict.near_miss = off;
    }
    return verdict;
}

} // namespace

MistakeTable mistake_table(const solve::SolvedProblem& solved, const solve::SolvedPart& part) {
    if (part.part.formula_answer && part.formula) {
        MistakeTable table{&solved, &part, {}, {}, {}, {}, formula_table(solved, part)};
        return table;
    }
    MistakeTable table{&solved, &part, explanations(solved, part), other_quantities(solved, part), {}, {}, {}};
    for (const auto& [from, to] :
         {std::pair{&table.explanations, &table.explanation_values}, std::pair{&table.others, &table.other_values}})
        for (const Explanation& e : *from) {
            Number exact = exact_of(e.value);
            const double approximate = formula::to_double(exact);
            to->push_back({std::move(exact), approximate});
        }
    return table;
}

Verdict grade_answer(const solve::SolvedProblem& solved, const solve::SolvedPart& part, std::string_view answer) {
    // An answer that is right, or cannot be read, is judged without the part's mistakes (grade_count and
    // grade_exact decide both before they look at the table): only another answer has every mistake solved, which
    // is most of a check's time.
    if (!(part.part.formula_answer && part.formula)) {
        Verdict first = grade_answer(MistakeTable{&solved, &part, {}, {}, {}, {}, {}}, answer);
        if (first.status == Status::correct || first.status == Status::unreadable)
            return first;
    }
    return grade_answer(mistake_table(solved, part), answer);
}

Verdict grade_answer(const MistakeTable& table, std::string_view answer) {
    const solve::SolvedPart& part = *table.part;
    Verdict verdict;
    verdict.answer = std::string(answer);
    verdict.expected = part.answer;
    verdict.points = part.part.points;
    const solve::Ask& ask = *part.ask;
    if (table.formula) {
        judge_formula(*table.formula, verdict);
        if (verdict.status == Status::incorrect) {
            keep_simplest(verdict);
            keep_only_causes(verdict);
            score_matches(part, verdict);
        }
        return verdict;
    }
    if (ask.type() == solve::Ask::Type::count)
        return grade_count(table, std::move(verdict));
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
    if (ask.type() == solve::Ask::Type::choice) {
        // A word has few values, and every slip that tips the comparison gives the other one: rule 6 holds as for a
        // small number, and the part's own listed mistakes are the likeliest of the possibilities.
        const std::vector<std::string_view> own = listed_ids(*table.solved, part);
        std::stable_partition(verdict.matches.begin(), verdict.matches.end(), [&](const Explanation& e) {
            return e.mistakes.size() == 1 && std::find(own.begin(), own.end(), e.mistakes[0]->id) != own.end();
        });
        keep_only_causes(verdict);
    }
    score_matches(part, verdict);
    return verdict;
}

} // namespace headcount::grade
