#pragma once
// Reading a spec's `vary:`: which givens a class's variants change, and the values each takes. Internal to the spec
// reader (reader.cpp), which reads the givens first: they decide which keys may vary.

#include <spec/problem.hpp>
#include <spec/yaml_reader.hpp>

#include <vector>

namespace headcount::spec::detail {

/// `vary:` maps givens to the values they take: a list, or for sizes {from, to, step}. `problem` holds the givens
/// already read, which decide the keys it may name (cannot_vary).
Result<std::vector<Variation>> read_vary(const Reader& r, const YAML::Node& node, const Problem& problem);

} // namespace headcount::spec::detail
