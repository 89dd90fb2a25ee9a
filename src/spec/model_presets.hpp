#pragma once
// `model:` in a spec's `given`: the architecture of a published model, from the shipped spec
// problems/model-NAME.yaml of that name (compiled into the binary by cmake/embed_templates.cmake). Internal to the
// spec reader (reader.cpp).

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <span>
#include <string_view>

namespace headcount::spec::detail {

/// One preset: its name as a spec writes it (llama-2-7b) and the text of its spec, byte for byte.
struct ModelPreset {
    std::string_view name;
    std::string_view text;
};

/// Every preset, sorted by name (generated at build time).
std::span<const ModelPreset> builtin_model_presets();

/// When `given` has `model:`, writes into `given` each architecture given of that preset the spec does not write
/// itself, and takes `model:` out; the problem's kind becomes `transformer` unless the spec says otherwise. The
/// preset's workload (batch, seq_len, dtype, causal, tokens) is not filled: it is the problem's own. An unknown name,
/// or a `kind: mha` problem, is an error at `model:`.
Result<void> apply_model_preset(const Reader& r, const YAML::Node& root, YAML::Node given, Problem& problem);

} // namespace headcount::spec::detail
