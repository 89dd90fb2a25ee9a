#pragma once
// The asks of a course on training cost (memory.training, flops.training_run, time.training, mfu, params.lora, ...)
// are headcount's own formulas over a transformer's built-in counts: quantities as a spec would define them (exact,
// past 64 bits, with worked solutions, listed and derived mistakes, variants and every channel), written here for
// the training setup the spec gives (precision, optimizer, ZeRO stage, recomputation, LoRA targets) and added to the
// problem when a part asks for one. Internal to the spec reader (reader.cpp).

#include <spec/problem.hpp>
#include <spec/training_asks.hpp>
#include <spec/yaml_reader.hpp>

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::spec::detail {

/// The words of a training setup in `given` (the numbers, tokens or gpus, are the spec's values).
inline constexpr auto k_training_keys = std::to_array<std::string_view>(
    {"optimizer", "precision", "recompute", "zero_stage", "lora_targets", "memory_budget"});

/// The numbers of a training setup in `given`, read as the spec's values: in a spec without formulas of its own,
/// any other number in `given` is an unknown key.
inline constexpr auto k_training_values = std::to_array<std::string_view>(
    {"tokens", "steps", "gpus", "peak_flops", "mfu", "step_time", "data_parallel", "lora_rank"});

/// The name formulas use for a training ask: its id with dots as underscores (memory_training), and achieved_mfu
/// for mfu (a spec may give mfu, for time.training, and ask it).
std::string training_name(std::string_view ask);

/// Whether `given` holds any of k_training_keys.
bool has_training_keys(const YAML::Node& given);

/// The `quantities:` entries (a YAML mapping, as a spec would write them) for the training asks `asked` (ids of
/// training_asks(), each with the node of the part's `ask:` for errors) and those they use, in the words of the
/// training setup in `given`. Errors name a given the asks need and the spec lacks, or a bad training word.
/// Adds memory_budget (a number of bytes, written with a unit: 80 GB, 80 GiB) to the problem's values.
Result<YAML::Node> training_quantities(const Reader& r, const YAML::Node& given, Problem& problem,
                                       std::span<const std::pair<std::string, YAML::Node>> asked);

} // namespace headcount::spec::detail
