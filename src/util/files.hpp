#pragma once
// File input that never loads more than a cap, and file output that never leaves a half-written file (write
// to a temporary name beside the target, then rename).

#include <util/error.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace headcount {

/// The whole of `path`, read without ever holding more than `cap` bytes: a longer file, or an endless one
/// such as /dev/zero, is an error naming the cap ("the roster is larger than 64 MiB, the most headcount
/// reads"). `what` names the file in messages ("the roster"); an unreadable file is "cannot read the roster:
/// <reason>".
Result<std::string> read_file_capped(const std::filesystem::path& path, std::size_t cap, std::string_view what);

/// A byte count as a cap is stated in messages: "64 MiB", "512 KiB", "100 bytes".
std::string describe_cap(std::size_t bytes);

/// Writes `content` to `path` atomically (temporary file + rename). Errors name the path.
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// Creates `dir` and its parents if missing. Errors name the directory.
Result<void> ensure_directory(const std::filesystem::path& dir);

/// Output files, path and content, rendered in full before any is written.
using OutputFiles = std::vector<std::pair<std::filesystem::path, std::string>>;

/// Writes each file atomically, creating its directory first; stops at the first failure.
Result<void> write_files(const OutputFiles& files);

} // namespace headcount
