#pragma once
// Reading a spec's `given:`: the attention block's sizes and biases, a transformer's model, the workload and the
// dtype. Internal to the spec reader (reader.cpp), which reads the rest of the problem.

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <optional>
#include <span>
#include <string_view>

namespace headcount::spec::detail {

/// The attention block's givens, from a `given` whose keys must be among `keys` (an attention block's, or for a
/// transformer the model's too), checked as check_givens does.
Result<MhaGivens> read_mha_givens(const Reader& r, const YAML::Node& given,
                                  std::span<const std::string_view> keys = k_given_keys);

/// `dtype:` in a `given`, or nullopt when it has none.
Result<std::optional<Precision>> read_precision(const Reader& r, const YAML::Node& given);

/// The model part of a transformer's `given` (its attention keys are read by read_mha_givens).
Result<ModelGivens> read_model_givens(const Reader& r, const YAML::Node& given);

/// The workload keys of a `given` (batch, seq_len, ...), or nullopt when it has no seq_len.
Result<std::optional<Workload>> read_workload(const Reader& r, const YAML::Node& given);

/// Whether `causal: true` can halve the attention's counts of this workload and block: an error at `causal` when
/// MACs or the softmax come to an odd number (odd seq_len, batch and h).
Result<void> check_causal_halves(const Reader& r, const YAML::Node& given, const Workload& w, const MhaGivens& g);

} // namespace headcount::spec::detail
