#pragma once
// A class roster: the student ids a problem set is generated for and graded against.

#include <util/error.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace headcount::generate {

/// The ids in a roster CSV's `student` column (other columns ignored), in file order. Every row must hold a
/// usable id (the grader's rules: it becomes a folder name) and appear once; otherwise an error naming the line.
Result<std::vector<std::string>> parse_roster(std::string_view csv, const std::string& file);

/// Reads and parses a roster file.
Result<std::vector<std::string>> load_roster(const std::string& path);

} // namespace headcount::generate
