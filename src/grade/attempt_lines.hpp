#pragma once
// serve's attempt log read back as submissions: each line a JSON object with at least student, problem, part and
// answer, as serve's AttemptLog writes them (serve/attempt_log.hpp has the whole line):
//   {"time":"2026-11-22T09:15:02.345Z","student":"alice","problem":"week3-mha-params","part":"b",
//    "answer":"1,048,576","status":"incorrect","score":0,"points":3,"mistakes":["missing_biases"]}
// `student` is null when the server ran without a roster. Reading lives here, beside grading, so that grade needs
// nothing of the server.

#include <util/csv.hpp>
#include <util/error.hpp>

#include <cstddef>
#include <cstdint>
#include <expected>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::grade {

/// The longest attempt-log line read_attempt_line accepts: answers are capped well below it.
inline constexpr std::size_t k_max_attempt_line_bytes = 16 * 1024;

/// An attempt read back as a submission row, the shape `grade --submissions` grades.
struct LoggedSubmission {
    std::string student;
    std::string problem;
    std::string part;
    std::string answer;
};

/// One line of an attempt log (without its '\n') as a submission, or why it cannot be one, as a phrase for
/// grade's rejected rows: "is not JSON", "has no 'answer'", "'part' must be a string", "is an anonymous attempt
/// (the server ran without a roster)", "is longer than 16 KiB". Never throws.
std::expected<LoggedSubmission, std::string> read_attempt_line(std::string_view line);

/// An attempt log read one line at a time as the rows of a submissions file (student, problem, part, answer), so
/// `grade` streams it through the same grader as a CSV; a later attempt at a part supersedes an earlier one there.
/// Memory is bounded by the longest line kept (k_max_attempt_line_bytes); a longer line is skipped to its end and
/// comes back as a malformed record, as does any line read_attempt_line refuses. Blank lines are not rows.
class AttemptLogStream {
  public:
    /// Reads `in`; `file` names it in errors; more than `max_bytes` read is an error, checked as it reads.
    AttemptLogStream(std::istream& in, std::string file, std::uint64_t max_bytes = UINT64_MAX)
        : m_in(in), m_file(std::move(file)), m_max_bytes(max_bytes) {}

    /// The column names its records have: student, problem, part, answer.
    static std::vector<std::string> header() { return {"student", "problem", "part", "answer"}; }

    /// The next line as a record (line numbers are the file's, from 1), or nullopt at the end. Errors: only the
    /// size cap and read errors.
    Result<std::optional<CsvRecord>> next();

  private:
    std::istream& m_in;
    std::string m_file;
    std::uint64_t m_max_bytes;
    std::uint64_t m_bytes_read = 0;
    int m_line = 0;
};

} // namespace headcount::grade
