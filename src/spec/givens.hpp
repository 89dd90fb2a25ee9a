#pragma once
// The rules a spec's givens obey, and which of them `vary:` may change, shared by the YAML reader (hand-written
// specs) and the variant generator (generated ones), so both are held to the same standard.

#include <spec/problem.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace headcount::spec {

/// A transformer's size as a spec gives it: the key under `given:` and the field it fills.
struct ModelSizeKey {
    std::string_view key;
    Count ModelGivens::*field;
};

/// Every size of a transformer's `given:` (d_ff, which is required, first): the list the reader fills and
/// `vary:` and the variants look sizes up in. A size may be 0 only where ModelGivens says what 0 means (vocab,
/// max_positions, ...).
inline constexpr auto k_model_sizes = std::to_array<ModelSizeKey>({
    {"d_ff", &ModelGivens::d_ff},
    {"layers", &ModelGivens::layers},
    {"encoder_layers", &ModelGivens::encoder_layers},
    {"decoder_layers", &ModelGivens::decoder_layers},
    {"vocab", &ModelGivens::vocab},
    {"max_positions", &ModelGivens::max_positions},
    {"type_vocab", &ModelGivens::type_vocab},
    {"experts", &ModelGivens::experts},
    {"top_k", &ModelGivens::top_k},
});

/// The attention block's sizes every block has (d_model, h), by their key under `given:`.
inline constexpr auto k_block_sizes = std::to_array<std::pair<std::string_view, Count MhaGivens::*>>(
    {{"d_model", &MhaGivens::d_model}, {"h", &MhaGivens::h}});

/// The attention block's widths a spec may give or leave to their default (d_k and d_v are d_model / h, kdim and
/// vdim d_model, n_kv_heads h): the list the reader fills and `vary:` looks them up in.
inline constexpr auto k_block_defaults = std::to_array<std::pair<std::string_view, std::optional<Count> MhaGivens::*>>(
    {{"d_k", &MhaGivens::d_k},
     {"d_v", &MhaGivens::d_v},
     {"kdim", &MhaGivens::kdim},
     {"vdim", &MhaGivens::vdim},
     {"n_kv_heads", &MhaGivens::n_kv_heads}});

/// What is wrong with a set of givens, and which given to point at.
struct GivensProblem {
    std::string key;     ///< "h" or "n_kv_heads"
    std::string message; ///< one sentence, without position
};

/// Why these givens do not describe an attention block (h not dividing d_model while d_k/d_v default,
/// n_kv_heads not dividing h), or nullopt when they do. Sizes are assumed positive (the reader checks that).
std::optional<GivensProblem> check_givens(const MhaGivens& given);

/// The givens a spec's `vary:` may name: the attention block's, a transformer's sizes (d_ff, layers, vocab, ...)
/// and the workload's (batch, seq_len, seq_len_kv). Which of them a particular spec admits is cannot_vary's call.
std::span<const std::string_view> varying_keys();

/// The givens `vary:` may name, as a Markdown table (`headcount catalogue vary`, docs/variants.md): what each is a
/// given of, and its values.
std::string vary_markdown();

/// Why `key` (one of varying_keys()) cannot vary in `problem`, as one sentence without position, or nullopt when it
/// can: a key the spec's kind cannot give, or a model or workload size the spec does not give (batch needs only
/// seq_len, as it defaults to 1). Vary changes the sizes a spec gives; it never adds one, so a variant keeps the
/// spec's shape (one stack or encoder-decoder, which embeddings, whether there is a workload).
std::optional<std::string> cannot_vary(const Problem& problem, std::string_view key);

/// Whether a varying key is a true/false flag (bias, add_bias_kv) rather than a size.
bool is_flag_key(std::string_view key);

/// Sets the given named `key` (flags take 0 or 1). The key must be one cannot_vary admits for the problem these
/// givens come from; a model or workload key on givens without a model or workload changes nothing.
void set_given(Givens& givens, std::string_view key, std::int64_t value);

/// The value of the given named `key` (flags as 0/1), or nullopt when these givens do not have it.
std::optional<std::int64_t> given_value(const Givens& givens, std::string_view key);

/// The given named `key` as a sheet writes it: digits with thousands separators, true or false for a flag, and a
/// given with a unit in its unit (2 TB/s); nullopt when these givens do not have it.
std::optional<std::string> given_text(const Givens& givens, std::string_view key);

/// The givens of `problem` (what its variants change).
Givens givens_of(const Problem& problem);

/// `problem` with `givens` in place of its own: one variant of it.
Problem with_givens(Problem problem, const Givens& givens);

/// The givens of a problem by the names formulas use (d_model, bias_q, seq_len, bits, ...): its architecture,
/// workload and dtype, flags as 1 or 0, its training settings (mixed_precision, zero_stage, ...), and its values,
/// each exact. Defaults (d_k = d_model / h) are the catalogue's, filled in by the computation.
using FormulaGivens = std::map<std::string, formula::Number, std::less<>>;
FormulaGivens formula_givens(const Problem& problem);

} // namespace headcount::spec
