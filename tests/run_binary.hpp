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

/// Runs `headcount ARGS...` with the repository root (or `cwd`) as working directory and `input` on stdin.
RunResult run_headcount(const std::vector<std::string>& args, const std::string& input = "",
                        const std::string& cwd = "");

/// Reads a whole file (for golden files and outputs); fails the test if it cannot be read.
std::string read_text(const std::string& path);

/// The repository root, where problems/, templates/ and tests/ live.
std::string source_dir();

/// A fresh empty directory under the system temp dir, removed at exit of the test process is not promised.
std::string fresh_temp_dir(const std::string& name);

/// The secret the tests key students' tokens with: 64 hex digits, written by write_secret.
inline constexpr const char* k_test_secret = "4f1c0e9a7b2d58e3c6a1f0b94d7e2c8a5b3f9e1d6c0a8b7f2e4d1c9a3b5e7f60";

/// Writes k_test_secret and a newline to DIR/secret with mode 0600, as `headcount` makes one; returns its path.
std::string write_secret(const std::string& dir);

/// A student's token as docs/operations.md defines it, computed with OpenSSL's HMAC (a second implementation of
/// Nettle's): the first 32 hex digits of HMAC-SHA-256 keyed by `secret` over "headcount-token-v2" NUL seed NUL student.
std::string openssl_token(const std::string& secret, const std::string& seed, const std::string& student);

} // namespace headcount::testing
