#pragma once
// A spec's training setup (precision, optimizer, recomputation, ZeRO stage, LoRA targets, memory budget): read from
// `given`, and said in words for the givens a sheet lists. Internal to the training asks (training.cpp), whose
// formulas it decides.

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

namespace headcount::spec::detail {

enum class Precision { fp32, mixed };
enum class Optimizer { adamw, adam, sgd_momentum, sgd };
enum class Recompute { none, selective, full };

/// A LoRA target: the matrix's names in a spec (Hugging Face's module name too), and its input and output widths as
/// a formula writes them.
struct Target {
    std::string_view names;
    std::string_view label;   ///< as the solution lists it
    std::string_view setting; ///< the flag the catalogue's formulas test (catalogue/training.yaml)
    bool ffn;
};
inline constexpr auto k_targets = std::to_array<Target>({
    {"q q_proj", "$W_Q$", "lora_q", false},
    {"k k_proj", "$W_K$", "lora_k", false},
    {"v v_proj", "$W_V$", "lora_v", false},
    {"o o_proj", "$W_O$", "lora_o", false},
    {"gate gate_proj", "the FFN's gate matrix", "lora_gate", true},
    {"up up_proj", "the FFN's up matrix", "lora_up", true},
    {"down down_proj", "the FFN's down matrix", "lora_down", true},
});

/// The training setup a spec gives, with its defaults: fp32, AdamW, no recomputation, no ZeRO.
struct Setup {
    Precision precision = Precision::fp32;
    Optimizer optimizer = Optimizer::adamw;
    Recompute recompute = Recompute::none;
    int zero_stage = 0;
    std::vector<std::size_t> lora_targets; ///< indices into k_targets, in spec order
};

/// The training setup in `given`, each word checked against the ones headcount knows.
Result<Setup> read_setup(const Reader& r, const YAML::Node& given);
/// A memory budget in bytes: a number and a byte unit (80 GB, 80 GiB, 81920 MiB), or bytes alone.
Result<Value> read_budget(const Reader& r, const YAML::Node& node);
/// The setup and the run's numbers in words, for the givens a sheet lists; the setup's words only when it
/// matters, to memory (`about_memory`).
void describe_setup(const Setup& s, Problem& problem, bool about_memory);

} // namespace headcount::spec::detail
