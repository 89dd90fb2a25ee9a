#pragma once
// The data the templates see for one solved problem: the givens, every number the solver derived (formatted, never
// computed here) and yes/no facts about them. Worked solutions, problem sheets, feedback under `gaps` and `full`,
// and the self-check page render from it.

#include <render/mustache.hpp>
#include <solve/asks.hpp>

namespace headcount::render {

/// The data the templates see for one solved problem (without part bodies). Numbers carry thousands separators.
View problem_view(const solve::SolvedProblem& solved);

} // namespace headcount::render
