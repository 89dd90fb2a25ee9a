#pragma once
// What feedback may show a student under each reveal policy. Under `hints` a template sees only the hint view:
// the givens the spec states, the names of things and yes/no facts about the block, never a number computed from
// them, so no template (shipped or an instructor's) can print the answer, a gap to it, or sums that add up to it.
// The derived numbers sit in a list named `numbers` that is empty under `hints` (the strict template check skips
// what stands inside a section over an always-empty list) and holds one item under `gaps` and `full`.

#include <render/templates.hpp>
#include <solve/asks.hpp>

#include <span>
#include <string>

namespace headcount::render {

/// The hint view of a solved problem: id, title, stated givens (d_model, h, n_kv, kdim, vdim, model sizes,
/// workload, dtype), flags (no_bias, grouped, multi_query, cross, ...), the projections' names and whether each
/// has a bias, and `biases_present` ("$b_Q$, $b_K$ and $b_V$"). Numbers carry thousands separators.
View hint_view(const solve::SolvedProblem& solved);

/// The projections of `projections` ("QKV") that carry a bias, as "$b_Q$, $b_K$ and $b_V$" ("" for none).
std::string bias_names(const solve::MhaSolution& mha, std::string_view projections);

/// `items` joined for prose: "a", "a and b", "a, b and c".
std::string join_words(std::span<const std::string> items, std::string_view last_separator = " and ");

} // namespace headcount::render
