#include <solve/choices.hpp>

#include <fmt/format.h>

namespace headcount::solve {

namespace {

/// A value as a message shows it: exactly when its decimal ends within 12 figures, else to six.
std::string shown(const Number& value) {
    return formula::exact_decimal(value, 12).value_or(formula::rounded(value, 6));
}

} // namespace

std::optional<Error> choice_problem(const Computation& c, const spec::Problem& problem, int index) {
    const spec::Quantity& q = *c.slot(index).quantity;
    const auto lookup = [&](std::string_view name) -> const Number* {
        const int used = c.find_visible(name);
        return c.available(used) ? &c.value(used) : nullptr;
    };
    // The two sides of a comparison, as the message shows them.
    const auto sides = [&](const formula::Node& condition) {
        if (condition.op != formula::Node::Op::compare)
            return std::string();
        std::string out;
        for (const formula::Node& side : condition.children) {
            const auto value = formula::evaluate(side, lookup);
            out += fmt::format("{}{} is {}", out.empty() ? " (" : ", ", side.source,
                               value ? shown(*value) : std::string("?"));
        }
        return out + ")";
    };
    const spec::WordChoice* first = nullptr;
    for (const spec::WordChoice& choice : q.choices) {
        if (!choice.condition)
            continue;
        const auto holds = formula::evaluate(*choice.condition, lookup);
        if (!holds)
            return Error{problem.file, choice.mark.line, choice.mark.column + std::max(holds.error().column, 1) - 1,
                         fmt::format("condition of {} in {}: {}", choice.word, q.name, holds.error().message)};
        if (*holds == 0)
            continue;
        if (first)
            return Error{problem.file, choice.mark.line, choice.mark.column,
                         fmt::format("choices of {}: the conditions of {} and {} both hold here{}{}; the conditions "
                                     "must not overlap",
                                     q.name, first->word, choice.word, sides(*first->condition),
                                     sides(*choice.condition))};
        first = &choice;
    }
    if (!first && q.choices.back().condition)
        return Error{problem.file, q.formula_mark.line, q.formula_mark.column,
                     fmt::format("choices of {}: no condition holds here{}; give every case a word, or make the "
                                 "last one otherwise",
                                 q.name, sides(*q.choices.front().condition))};
    return std::nullopt;
}

} // namespace headcount::solve
