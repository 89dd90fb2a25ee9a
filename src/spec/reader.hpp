#pragma once
// Reads problem specs from YAML. The only place in headcount that touches yaml-cpp.

#include <spec/problem.hpp>
#include <util/error.hpp>

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace headcount::spec {

/// The words a spec may use that higher layers define: the asks (solve) and the mistake ids (grade).
/// Anything else is an error with a did-you-mean suggestion.
struct Vocabulary {
    std::span<const std::string_view> asks;
    std::span<const std::string_view> mistakes;
};

/// Largest spec file read, in bytes; the shipped specs are under 2 KiB.
inline constexpr std::size_t k_max_spec_bytes = 1024 * 1024;

/// Parses and validates one spec. `file` is used only in error messages. Every error is "file:line:col: ...".
Result<Problem> parse_problem(std::string_view yaml, std::string file, const Vocabulary& words);

/// Reads `path` (at most k_max_spec_bytes) and parses it as above; an unreadable or larger file is an error
/// naming it.
Result<Problem> load_problem(const std::filesystem::path& path, const Vocabulary& words);

/// The spec files a command-line argument names: the file itself, or the *.yaml/*.yml files directly in a
/// directory, sorted by name so output order does not depend on the file system.
Result<std::vector<std::filesystem::path>> expand_spec_paths(std::span<const std::string> arguments);

} // namespace headcount::spec
