#pragma once
// The answer key `generate` writes (key.csv): every student's answers and numbers. `grade --key` reads it back
// (ClassVariants::from_key).

#include <generate/class_variants.hpp>
#include <solve/asks.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace headcount::generate {

/// The answer key of a class (`generate`'s key.csv): a header student,problem,part,answer,unit followed by one column
/// per given that varies in any of the problems (in the order the specs name them), then a row per student, problem
/// and part, in roster and spec order. A row's given columns hold that student's values for its problem (flags as
/// true/false) and are empty for givens its problem does not vary. `variants` is the roster's table of `problems`.
/// Errors: a student the table does not know.
Result<std::string> answer_key_csv(const std::vector<solve::SolvedProblem>& problems, const ClassVariants& variants,
                                   const std::vector<std::string>& roster);

} // namespace headcount::generate
