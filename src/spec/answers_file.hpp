#pragma once
// A student's answers file, as a student submits it (to Gradescope's autograder, or by hand): answers.csv with a
// row per part, or answers.yaml with a key per part. Untrusted input: bounded, never throws, errors at line:col.

#include <util/error.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::spec {

/// Largest answers file read, in bytes, and most answers in one.
inline constexpr std::size_t k_max_answers_file_bytes = 256 * 1024;
inline constexpr std::size_t k_max_answers = 2000;

/// One answer of a student's file. `problem` is empty when the file names no problem (one-problem assignments).
struct SubmittedAnswer {
    std::string problem;
    std::string part;
    std::string answer;
    int line = 0;
};

/// Reads an answers file's text. CSV (`yaml` false): a header with `part` and `answer` columns and optionally
/// `problem` (other columns ignored), a row per answer. YAML: a mapping of part ids to answers (`a: 1050624`), or of
/// problem ids to such mappings; a flow sequence of numbers is a shape (`a: [32, 8, 128]` reads as "[32, 8, 128]").
/// Answers are kept as written (a YAML scalar's text, so `b: 1,050,624` and `c: yes` stay text). Errors name the
/// file, line and column: a malformed file, a missing column, an empty part id, a value that is a mapping where an
/// answer belongs, the same part answered twice, more than k_max_answers answers or more than
/// k_max_answers_file_bytes of answer text (YAML aliases repeat text), none at all.
Result<std::vector<SubmittedAnswer>> parse_answers_file(std::string_view text, const std::string& file, bool yaml);

/// The answers file in a submission: `path` itself when it is a file, else the one answers.csv, answers.yaml or
/// answers.yml in the folder or, when the folder holds none, in its only subfolder (an uploaded folder). Errors:
/// none found (listing what was), several found, unreadable, or larger than k_max_answers_file_bytes.
Result<std::filesystem::path> find_answers_file(const std::filesystem::path& path);

} // namespace headcount::spec
