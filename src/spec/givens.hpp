#pragma once
// The rules an MHA block's givens obey, shared by the YAML reader (hand-written specs) and the variant
// generator (generated ones), so both are held to the same standard.

#include <spec/problem.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace headcount::spec {

/// What is wrong with a set of givens, and which given to point at.
struct GivensProblem {
    std::string key;     ///< "h" or "n_kv_heads"
    std::string message; ///< one sentence, without position
};

/// Why these givens do not describe an attention block (h not dividing d_model while d_k/d_v default,
/// n_kv_heads not dividing h), or nullopt when they do. Sizes are assumed positive (the reader checks that).
std::optional<GivensProblem> check_givens(const MhaGivens& given);

/// The givens a spec's `vary:` may name.
std::span<const std::string_view> varying_keys();

/// Whether a varying key is a true/false flag (bias, add_bias_kv) rather than a size.
bool is_flag_key(std::string_view key);

/// Sets the given named `key` (one of varying_keys(); flags take 0 or 1).
void set_given(MhaGivens& given, std::string_view key, std::int64_t value);

} // namespace headcount::spec
