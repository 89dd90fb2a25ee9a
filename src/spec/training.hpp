#pragma once
// The asks of a course on training cost (memory.training, flops.training_run, time.training, mfu, params.lora, ...)
// are rows of headcount's catalogue (catalogue/training.yaml) over a transformer's built-in counts. A part that asks
// one gets it as a quantity beside the spec's own (exact, past 64 bits, with worked solutions, listed and derived
// mistakes, variants and every channel), made from its row for the training setup the spec gives (precision,
// optimizer, ZeRO stage, recomputation, LoRA targets). Internal to the spec reader (reader.cpp).

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

/// The numbers of a training setup in `given` (and hbm_bandwidth, the inference asks' memory bandwidth,
/// compute_budget, the scaling-law asks' FLOPs, and the parallelism asks' degrees, microbatches and interconnect),
/// read as the spec's values: in a spec without formulas of its own, any other number in `given` is an unknown key.
inline constexpr auto k_training_values = std::to_array<std::string_view>(
    {"tokens", "steps", "gpus", "peak_flops", "mfu", "step_time", "data_parallel", "lora_rank", "hbm_bandwidth",
     "compute_budget", "tensor_parallel", "pipeline_parallel", "microbatches", "interconnect_bandwidth"});

/// The name formulas use for a training ask: its id with dots as underscores (memory_training), and achieved_mfu
/// for mfu (a spec may give mfu, for time.training, and ask it).
std::string training_name(std::string_view ask);

/// Whether `given` holds any of k_training_keys.
bool has_training_keys(const YAML::Node& given);

/// The names formulas use for the training rows of the catalogue (memory_weights, achieved_mfu, ...).
std::vector<std::string> training_row_names();

/// The training setup in `given` read into problem.settings (the numbers the catalogue's conditions test), and the
/// quantities of the training asks `asked` (ids of training_asks(), each with the node of the part's `ask:` for
/// errors) and of the rows they use, made from their catalogue rows for that setup; the rows the spec `redefined`
/// are left to the spec. Errors name a given the asks need and the spec lacks, or a bad training word. Adds
/// memory_budget (a number of bytes, written with a unit: 80 GB, 80 GiB) to the problem's values.
Result<std::vector<Quantity>> training_quantities(const Reader& r, const YAML::Node& given, Problem& problem,
                                                  std::span<const std::pair<std::string, YAML::Node>> asked,
                                                  std::span<const std::string> redefined);

} // namespace headcount::spec::detail
