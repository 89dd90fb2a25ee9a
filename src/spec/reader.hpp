#pragma once
// Reads problem specs from YAML. The only place in headcount that touches yaml-cpp.

#include <spec/problem.hpp>
#include <util/error.hpp>

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace headcount::spec {

/// Parses and validates one spec. `file` is used only in error messages. Every error is "file:line:col: ...".
/// `known_asks` are the asks a part may name; any other is an error with a did-you-mean suggestion.
Result<Problem> parse_problem(std::string_view yaml, std::string file, std::span<const std::string_view> known_asks);

/// Reads `path` and parses it as above; an unreadable file is an error naming it.
Result<Problem> load_problem(const std::filesystem::path& path, std::span<const std::string_view> known_asks);

/// The spec files a command-line argument names: the file itself, or the *.yaml/*.yml files directly in a
/// directory, sorted by name so output order does not depend on the file system.
Result<std::vector<std::filesystem::path>> expand_spec_paths(std::span<const std::string> arguments);

} // namespace headcount::spec
