#pragma once
// The catalogue of asks: what a part may ask for, its unit, and how its answer is read off a solution.
// A new ask is one row here plus a template named after it (templates/<kind>/<ask>.mustache).

#include <solve/flops.hpp>
#include <solve/mha.hpp>
#include <solve/model.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::solve {

struct SolvedProblem;

/// One askable quantity.
struct Ask {
    std::string_view id;   ///< as written in a spec's `ask:`, and the template's file name
    std::string_view unit; ///< "parameters", "dimensions", ...
    Count (*answer)(const SolvedProblem&);
    std::string_view projections; ///< which of Q, K, V, O the answer counts ("QKVO", "QKV", "Q", "" for widths)
    std::string_view kind;         ///< "mha": any problem (for a transformer, one layer's attention);
                                   ///< "transformer": only kind: transformer
    /// What the problem must give for this ask to have an answer.
    enum class Needs { nothing, workload, encoder_decoder };
    Needs needs = Needs::nothing;  ///< workload: seq_len (compute asks); encoder_decoder: decoder layers
};

/// Every ask of every kind, mha first.
std::span<const Ask> asks();

/// The ask with this id, or nullptr.
const Ask* find_ask(std::string_view id);

/// The ids of asks(), for the spec reader's validation and did-you-mean.
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
    MhaSolution mha;                   ///< the attention block (of every layer, for a transformer)
    std::optional<ModelSolution> model; ///< set for kind: transformer
    std::optional<FlopsSolution> flops; ///< set when the problem gives a workload (seq_len)
    std::vector<SolvedPart> parts;
};

/// Solves every part of a validated problem; with a recipe, the way a mistaken student would. Errors carry the
/// spec file's name: overflow, or an ask the problem's kind cannot answer (with the ask's position).
Result<SolvedProblem> solve_problem(const spec::Problem& problem, const Recipe& recipe = {});

} // namespace headcount::solve
