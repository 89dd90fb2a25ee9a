#pragma once
// Reading a spec's parts: each part's ask, points, tolerance, credit and check policy. Internal to the spec reader
// (reader.cpp), which reads the problem around them.

#include <spec/problem.hpp>
#include <spec/reader.hpp>
#include <spec/yaml_reader.hpp>

#include <optional>

namespace headcount::spec::detail {

/// `feedback:` and `attempts:`, which a problem sets for its parts and a part for itself; a key left out leaves
/// its slot as it is.
Result<void> read_check_policy(const Reader& r, const YAML::Node& node, std::optional<Reveal>& feedback,
                               std::optional<int>& attempts);

/// One entry of `parts:`, its ask one of `words`' asks and its credit's keys among `words`' mistakes; the givens an
/// `accept:` reads another way among `values`.
Result<Part> read_part(const Reader& r, const YAML::Node& node, const Vocabulary& words, const Values& values);

} // namespace headcount::spec::detail
