#pragma once
// A class roster: the student ids a problem set is generated for and graded against.

#include <util/error.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::generate {

/// Largest roster file read, in bytes (a million students fit many times over).
inline constexpr std::size_t k_max_roster_bytes = 64 * 1024 * 1024;

/// The ids in a roster CSV's `student` column (other columns ignored), in file order, without blanks around
/// them (trim_id). Every row must hold a usable id (the grader's rules: it becomes a folder name) and appear
/// once, also when case and Unicode form are ignored (id_key: "Alice" after "alice" is refused, naming both);
/// otherwise an error naming the line.
Result<std::vector<std::string>> parse_roster(std::string_view csv, const std::string& file);

/// Reads (at most k_max_roster_bytes) and parses a roster file.
Result<std::vector<std::string>> load_roster(const std::string& path);

} // namespace headcount::generate
