#pragma once
// Reading back an answer key (`generate`'s key.csv) to grade against it without the seed.

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

/// Each student's variant of each problem, recovered from a key: for every student and problem in the key, the
/// valid variant whose givens are the key's given columns (key.csv since they were added), else the first valid
/// variant (in valid_variants order) whose answers equal the key's for all of its parts; either way its answers
/// must equal the key's. The variant's givens then let the grader name mistakes in the student's own numbers.
/// Errors: a malformed key, a problem or part the specs do not have, or key answers no variant produces (the
/// spec changed since).
Result<std::map<std::string, std::map<std::string, solve::SolvedProblem>>>
variants_from_key(const std::vector<solve::SolvedProblem>& problems, std::string_view key_csv, const std::string& file);

} // namespace headcount::generate
