#pragma once
// Reading a spec's own formulas: the givens beyond an architecture (n_params: 175000000000, mfu: 0.45) and
// `quantities:`, each a formula over those givens, the other quantities and the kind's built-in quantities.
// Internal to the spec reader (reader.cpp).

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::spec::detail {

/// Keys of `quantities:` entries and of a listed mistake.
inline constexpr auto k_quantity_keys = std::to_array<std::string_view>(
    {"title", "unit", "formula", "mistakes", "explanation", "choices", "solve_for", "equation", "range"});
inline constexpr auto k_listed_mistake_keys = std::to_array<std::string_view>({"id", "formula", "feedback", "title"});

/// Where column `column` (1-based) of a formula written as `node`'s text stands in the file.
Mark formula_mark(const YAML::Node& node, int column = 1);

/// The formula written as `node`'s text, parsed; an error names it `where` and points at the column it fails at.
Result<formula::Node> read_formula(const Reader& r, const YAML::Node& node, std::string_view where);

/// A given written as a number and its unit (3.35 TB/s, 2.5 ms, 80 GB, 989 TFLOP/s, 45%), read exactly into the
/// unit's base (bytes, seconds, FLOP/s, a fraction); nullopt when `value` is not a number followed by a word, an
/// error when the word is no unit headcount knows. `key` names the given in the message.
std::optional<Result<Value>> read_value_with_unit(const Reader& r, const YAML::Node& value, std::string_view key);

/// The entries of `given` whose keys are not among `architecture` (the keys the kind reads itself): each an exact
/// number, integer or decimal (0.45 is 9/20), or a number and its unit, named like a formula's name.
Result<Values> read_values(const Reader& r, const YAML::Node& given, std::span<const std::string_view> architecture);

/// The names a formula may use besides the spec's values and quantities: `architecture_names` (the sizes the spec
/// gives: d_model, h, seq_len, ...) and `builtin_names` (the kind's asks, dots as underscores).
struct FormulaNames {
    std::vector<std::string> architecture;
    std::vector<std::string> builtin;
    std::vector<std::string> redefinable; ///< built-ins a quantity of the same name redefines (the training asks')
};

/// `quantities:` (`node`, undefined for none), checked (names, formulas, cycles, listed mistakes), with headcount's
/// own `builtins` (the training asks' for this spec, spec/training.hpp) after them, all put in dependency order.
Result<std::vector<Quantity>> read_quantities(const Reader& r, const YAML::Node& node, const Values& values,
                                              const FormulaNames& names, std::vector<Quantity> builtins = {});

/// An ask id as a formula names it: dots as underscores (flops.total -> flops_total).
std::string builtin_name(std::string_view ask_id);

/// The ids of the mistakes derived from a quantity's formula (formula::perturbations), for `credit:` keys.
std::vector<std::string> derived_mistake_ids(const Quantity& quantity);

} // namespace headcount::spec::detail
