#pragma once
// File output that never leaves a half-written file: write to a temporary name beside the target, then rename.

#include <util/error.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace headcount {

/// Writes `content` to `path` atomically (temporary file + rename). Errors name the path.
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// Creates `dir` and its parents if missing. Errors name the directory.
Result<void> ensure_directory(const std::filesystem::path& dir);

/// Output files, path and content, rendered in full before any is written.
using OutputFiles = std::vector<std::pair<std::filesystem::path, std::string>>;

/// Writes each file atomically, creating its directory first; stops at the first failure.
Result<void> write_files(const OutputFiles& files);

} // namespace headcount
