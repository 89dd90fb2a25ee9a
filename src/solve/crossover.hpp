#pragma once
// A spec's quantity whose value is not its formula's: a crossover (`solve_for:`), the value of a given at which two
// formulas are equal.

#include <solve/computation.hpp>

namespace headcount::solve {

/// The root of slot `index`'s crossover (a spec quantity with `solve_for:`, its formula A - B) in its range, given
/// every slot it uses is computed: exact where A - B is linear or quadratic in the given (found from its values at
/// whole points), else by bisection to about 15 figures between the samples where it changes sign. Fails, at the
/// equation, when there is no root in the range or more than one.
Result<CrossoverWork> solve_crossover(const Computation& c, const spec::Problem& problem, int index);

} // namespace headcount::solve
