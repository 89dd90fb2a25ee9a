#pragma once
// Runs the built headcount binary for end-to-end tests and captures what a user would see.

#include <string>
#include <vector>

namespace headcount::testing {

/// What one run of the binary produced.
struct RunResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

/// Runs `headcount ARGS...` with the repository root as working directory and `input` on stdin.
RunResult run_headcount(const std::vector<std::string>& args, const std::string& input = "");

/// Reads a whole file (for golden files and outputs); fails the test if it cannot be read.
std::string read_text(const std::string& path);

/// The repository root, where problems/, templates/ and tests/ live.
std::string source_dir();

/// A fresh empty directory under the system temp dir, removed at exit of the test process is not promised.
std::string fresh_temp_dir(const std::string& name);

} // namespace headcount::testing
