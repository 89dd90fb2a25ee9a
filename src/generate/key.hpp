#pragma once
// Reading back an answer key (`generate`'s key.csv) to grade against it without the seed.

#include <solve/asks.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::generate {

/// Each student's variant of each problem, recovered from a key: for every student and problem in the key, the
/// first valid variant (in valid_variants order) whose answers equal the key's for all of its parts. The
/// variant's givens then let the grader name mistakes in the student's own numbers. Errors: a malformed key,
/// a problem or part the specs do not have, or key answers no variant produces (the spec changed since).
Result<std::map<std::string, std::map<std::string, solve::SolvedProblem>>>
variants_from_key(const std::vector<solve::SolvedProblem>& problems, std::string_view key_csv, const std::string& file);

} // namespace headcount::generate
