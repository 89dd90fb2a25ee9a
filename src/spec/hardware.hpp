#pragma once
// `hardware:` in a spec's `given`: the numbers of one accelerator from its vendor's datasheet (docs/spec.md cites
// each), as givens with their units: peak_flops (dense BF16), hbm_bandwidth, memory_budget, interconnect_bandwidth.
// Internal to the spec reader (reader.cpp).

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <array>
#include <span>
#include <string_view>

namespace headcount::spec::detail {

/// One accelerator's datasheet numbers, each as a given is written (a number and its unit).
struct Hardware {
    std::string_view name;  ///< as a spec writes it: h100-sxm
    std::string_view title; ///< as a sheet names it: NVIDIA H100 SXM
    std::string_view peak_flops, hbm_bandwidth, memory_budget, interconnect_bandwidth;
    std::string_view link; ///< the interconnect's name: NVLink, ICI
};

/// The accelerators `hardware:` knows.
std::span<const Hardware> hardware_presets();

/// Adds the givens of `given`'s `hardware:` preset to `problem`'s values, with their meanings for the sheet; a
/// given the spec writes itself beside it stays the spec's. Nothing when `given` has no `hardware:`.
Result<void> read_hardware(const Reader& r, const YAML::Node& given, Problem& problem);

} // namespace headcount::spec::detail
