#pragma once
// The catalogue of asks: what a part may ask for, its unit, and how its answer is read off a solution.
// A new ask is one row here plus a template named after it.

#include <solve/mha.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::solve {

/// One askable quantity of an MHA block.
struct Ask {
    std::string_view id;   ///< as written in a spec's `ask:`, and the template's file name
    std::string_view unit; ///< "parameters", "dimensions", ...
    Count (*answer)(const MhaSolution&);
    std::string_view projections; ///< which of Q, K, V, O the answer counts ("QKVO", "QKV", "Q", "" for widths)
};

/// Every ask of kind mha, in the order the README lists them.
std::span<const Ask> mha_asks();

/// The ask with this id, or nullptr.
const Ask* find_ask(std::string_view id);

/// The ids of mha_asks(), for the spec reader's validation and did-you-mean.
std::vector<std::string_view> ask_ids();

/// A part with its answer.
struct SolvedPart {
    spec::Part part;
    const Ask* ask = nullptr;
    Count answer = 0;
};

/// A problem with its solution and every part answered.
struct SolvedProblem {
    spec::Problem problem;
    MhaSolution mha;
    std::vector<SolvedPart> parts;
};

/// Solves every part of a validated problem. Errors carry the spec file's name.
Result<SolvedProblem> solve_problem(const spec::Problem& problem);

} // namespace headcount::solve
