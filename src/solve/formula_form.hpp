#pragma once
// A quantity written as one formula in the givens (an `answer: formula` part's right answer): every quantity its
// formula uses replaced by that quantity's formula, down to the givens, and what does not depend on the givens a
// student may name (flags, the dtype's bits, counts of 0) folded into numbers.

#include <solve/computation.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace headcount::solve {

/// The givens a formula answer to a problem may name, in the catalogue's order then the spec's: its architecture's
/// sizes (d_model, h, d_k, d_v, kdim, vdim, n_kv_heads, d_ff, layers, ..., vocab, experts, top_k), its workload's
/// (batch, seq_len, seq_len_kv), the dtype's bits and the spec's own values (gpus, tokens, peak_flops, ...): each
/// that has a value, and not a size of 0 (a part the model lacks). Flags are not among them: they are the problem's
/// settings, fixed.
std::vector<std::string> formula_answer_names(const Computation& computation, const spec::Problem& problem);

/// The names of formula_answer_names() whose values are not varied at a formula answer's random points: the dtype's
/// bits (a student writes 2 bytes for fp16, not bits / 8).
bool fixed_in_formula_answers(std::string_view name);

/// The names of formula_answer_names() the spec states (d_model, h; not d_k when it is d_model / h by default), but
/// not those fixed: what a question lists, and what the right formula is written in. The others are accepted too.
std::vector<std::string> stated_formula_names(const Computation& computation, const spec::Problem& problem);

/// The formula of slot `target` in the names `kept` alone: the formulas of the quantities it uses put in their
/// place, the givens of `defaulted` by their defaults (d_k by d_model / h), every other given by its value, constant
/// parts computed, like terms collected where it is a polynomial (else factors of 1 and terms of 0 left out).
/// Nullopt when that formula would pass formula::k_max_nodes (a whole model's count, spelled out), or when a slot it
/// needs has no formula here.
std::optional<formula::Node> in_givens(const Computation& computation, int target, const std::set<std::string>& kept,
                                       const std::set<std::string>& defaulted);

/// A formula as plain text formula::parse reads back: "4 * d_model^2 + 4 * d_model".
std::string formula_text(const formula::Node& formula);

} // namespace headcount::solve
