#pragma once
// Reading a crossover (`solve_for:`): the value of a given at which an equation holds. Internal to the spec reader
// (quantities_reader.cpp).

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <string_view>

namespace headcount::spec::detail {

/// `solve_for:`, `equation:` and `range:` of quantity `quantity` (`body`): a given's name, `A = B`, and where a root
/// is looked for, (0, 10^15] unless `range: [low, high]` says (low, high].
Result<Crossover> read_crossover(const Reader& r, const YAML::Node& body, std::string_view quantity);

} // namespace headcount::spec::detail
