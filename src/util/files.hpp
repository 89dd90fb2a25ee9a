#pragma once
// File output that never leaves a half-written file: write to a temporary name beside the target, then rename.

#include <util/error.hpp>

#include <filesystem>
#include <string_view>

namespace headcount {

/// Writes `content` to `path` atomically (temporary file + rename). Errors name the path.
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// Creates `dir` and its parents if missing. Errors name the directory.
Result<void> ensure_directory(const std::filesystem::path& dir);

} // namespace headcount
