#pragma once
// The answer key `generate` writes (key.csv): every student's answers and numbers. `grade --key` reads it back
// (ClassVariants::from_key).

#include <solve/asks.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::generate {

/// The answer key of a class (`generate`'s key.csv): a header student,problem,part,answer,unit followed by one column
/// per given that varies in any of the problems (in the order the specs name them), then a row per student, problem
/// and part, in roster and spec order. A row's given columns hold that student's values for its problem (flags as
/// true/false) and are empty for givens its problem does not vary. `variants` maps problem id -> student -> variant.
std::string answer_key_csv(const std::vector<solve::SolvedProblem>& problems,
                           const std::map<std::string, std::map<std::string, solve::SolvedProblem>>& variants,
                           const std::vector<std::string>& roster);

} // namespace headcount::generate
