#include <solve/defined.hpp>

#include <formula/units.hpp>

#include <spec/givens.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <deque>
#include <mutex>

namespace headcount::solve {

namespace {

using D = UnitInfo::Dimension;

struct InternedAsk {
    std::string id, unit, noun, name;
    Ask row;
};

} // namespace

UnitInfo unit_info(std::string_view unit) {
    if (unit.empty())
        return {D::plain, 1, ""};
    if (auto known = formula::known_unit(unit))
        return *known;
    return {D::count, 1, unit};
}

namespace {

/// An answer's unit as asked: a percentage is the formula's fraction of one, shown times 100 (issue 39, rule 2).
UnitInfo as_asked(UnitInfo unit) {
    if (unit.dimension == D::plain && unit.scale == formula::Number(1, 100)) {
        unit.scale = 1;
        unit.fraction_as_percent = true;
    }
    return unit;
}

} // namespace

UnitInfo quantity_unit(const spec::Quantity& quantity) { return as_asked(unit_info(quantity.unit)); }

UnitInfo ask_unit(const spec::Problem& problem, const Ask& ask) {
    if (const spec::Quantity* quantity = defined_quantity(problem, ask))
        return quantity_unit(*quantity);
    return as_asked(unit_info(ask.unit == "number" ? "" : ask.unit));
}

spec::Tolerance tolerance_of(const SolvedPart& part) {
    if (part.part.tolerance)
        return *part.part.tolerance;
    if (part.part.inexact || (part.answer.exact && part.answer.exact->get_den() != 1))
        return spec::Tolerance{spec::Tolerance::Kind::sigfigs, 0, 3};
    return spec::Tolerance{};
}

std::optional<std::string> untypable(const formula::Number& value) {
    if (value == 0)
        return std::nullopt;
    const formula::Number size = abs(value);
    mpz_class large, small;
    mpz_ui_pow_ui(large.get_mpz_t(), 10, 33);
    mpz_ui_pow_ui(small.get_mpz_t(), 10, 15);
    if (size > formula::Number(large))
        return fmt::format("which comes to about {} here: past 10^33, more than an answer can be typed as; give it "
                           "in a larger unit",
                           formula::rounded(value, 3));
    if (size < formula::Number(1, small))
        return fmt::format("which comes to about {} here: under 10^-15, less than an answer can be typed as; give it "
                           "in a smaller unit",
                           formula::rounded(value, 3));
    return std::nullopt;
}

Answer exact_answer(formula::Number value) {
    Answer answer;
    if (const auto count = formula::to_count(value))
        answer.count = *count;
    answer.exact = std::move(value);
    return answer;
}

const Ask* quantity_ask(const spec::Quantity& quantity) {
    static std::mutex mutex;
    static std::deque<InternedAsk> rows; // a deque never moves what it holds
    const std::lock_guard lock(mutex);
    // A catalogue row's words, for one of headcount's own that is answered with a word (bound.decode_step).
    const std::span<const Choice> choices = quantity.row ? quantity.row->choices : std::span<const Choice>{};
    for (const InternedAsk& row : rows)
        if (row.id == quantity.ask && row.unit == quantity.unit && row.noun == quantity.title &&
            row.name == quantity.name && row.row.choices.data() == choices.data())
            return &row.row;
    InternedAsk& row =
        rows.emplace_back(InternedAsk{quantity.ask, quantity.unit, quantity.title, quantity.name, Ask{}});
    row.row = Ask{.id = row.id,
                  .unit = row.unit.empty() ? std::string_view("number") : std::string_view(row.unit),
                  .noun = row.noun,
                  .projections = "",
                  .kind = "defined",
                  .group = "",
                  .choices = choices,
                  .name = row.name};
    return &row.row;
}

const spec::Quantity* find_quantity(const spec::Problem& problem, std::string_view name) {
    if (problem.quantities)
        for (const spec::Quantity& q : *problem.quantities)
            if (q.ask == name || q.name == name)
                return &q;
    return nullptr;
}

const spec::Quantity* defined_quantity(const spec::Problem& problem, const Ask& ask) {
    return ask.kind == "defined" ? find_quantity(problem, ask.id) : nullptr;
}

std::optional<Error> listed_mistake_problem(const SolvedProblem& solved) {
    const spec::Problem& problem = solved.problem;
    if (!problem.quantities)
        return std::nullopt;
    const Computation& c = *solved.computation;
    for (const spec::Quantity& q : *problem.quantities) {
        if (q.builtin) // headcount's own: a slip that comes to the answer here (one layer of one) is just not named
            continue;
        const int slot = c.find_visible(q.name);
        if (!c.available(slot))
            continue;
        for (const spec::ListedMistake& m : q.mistakes) {
            const Computation::Change change{
                {{slot, std::shared_ptr<const formula::Node>(problem.quantities, &m.formula)}}};
            const auto value = c.value_under(slot, change);
            if (!value)
                return Error{problem.file, m.mark.line, m.mark.column,
                             fmt::format("formula of mistake {} cannot be evaluated here (a division by zero, or a "
                                         "number too large)",
                                         m.id)};
            if (*value == c.value(slot))
                return Error{problem.file, m.mark.line, m.mark.column,
                             fmt::format("mistake '{}' of {} comes to the right answer, so no student could be told "
                                         "they made it; change its formula",
                                         m.id, q.name)};
        }
    }
    return std::nullopt;
}

bool is_formula_error(const Error& error) {
    return error.message.starts_with("formula of ") || error.message.starts_with("equation of ") ||
           error.message.starts_with("choices of ") || error.message.starts_with("condition of ");
}

} // namespace headcount::solve
