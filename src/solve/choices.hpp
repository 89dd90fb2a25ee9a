#pragma once
// A spec's quantity answered with a word (`choices:`): its conditions must name exactly one word.

#include <solve/computation.hpp>

#include <optional>

namespace headcount::solve {

/// Why slot `index`'s words (a spec quantity with `choices:`) do not name exactly one word here: two conditions
/// hold, or none does and no word is `otherwise`; nullopt when they do. Located at the condition at fault.
std::optional<Error> choice_problem(const Computation& c, const spec::Problem& problem, int index);

} // namespace headcount::solve
