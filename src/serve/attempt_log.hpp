#pragma once
// The attempt log (`serve --log FILE`): one JSON object per line for every check a student makes, appended with
// one write(2) before the answer is sent, so a response is never seen without its line and a stopped or killed
// server loses nothing it answered. `grade` reads the same lines back as submissions (read_attempt_line).
//
// A line: {"time":"2026-11-22T09:15:02.345Z","student":"alice","problem":"week3-mha-params","part":"b",
//          "answer":"1,048,576","status":"incorrect","score":0,"points":3,"mistakes":["missing_biases"]}
// `student` is null when the server runs without a roster (nobody is identified).

#include <util/csv.hpp>
#include <util/error.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <filesystem>
#include <istream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headcount::serve {

/// One check as logged.
struct Attempt {
    std::chrono::system_clock::time_point time;
    std::optional<std::string> student; ///< unset without a roster
    std::string problem;
    std::string part;
    std::string answer;                 ///< as typed (UTF-8: the server refuses other bytes)
    std::string status;                 ///< correct, rounded, incorrect, unreadable
    double score = 0;
    double points = 0;
    std::vector<std::string> mistakes;  ///< ids of the mistakes named
};

/// The longest line read_attempt_line accepts: answers are capped well below it.
inline constexpr std::size_t k_max_attempt_line_bytes = 16 * 1024;

/// `attempt` as one line of JSON, ending in '\n'; time in UTC with milliseconds ("2026-11-22T09:15:02.345Z").
std::string attempt_line(const Attempt& attempt);

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

/// An open attempt log. Thread-safe; each append is one write(2) of a whole line, in the order of the calls.
class AttemptLog {
  public:
    /// Opens `path` for appending (creating it, mode 0600: answers are student records). A file whose last line
    /// was cut off (a crash mid-write under another program) gets a newline first, so lines never merge.
    static Result<std::unique_ptr<AttemptLog>> open(const std::filesystem::path& path);
    ~AttemptLog();
    AttemptLog(const AttemptLog&) = delete;
    AttemptLog& operator=(const AttemptLog&) = delete;

    /// Writes the attempt's line to the kernel before returning (no user-space buffer: it survives the process
    /// dying, though not a power cut). Errors (a full disk) name the file; a line that could not be written whole
    /// is truncated away, so the log always ends in a whole line (if even that fails, no line is appended until
    /// it succeeds).
    Result<void> append(const Attempt& attempt);

  private:
    explicit AttemptLog(int fd, std::string path) : m_fd(fd), m_path(std::move(path)) {}
    int m_fd;
    std::string m_path;
    std::mutex m_mutex;
    std::optional<std::int64_t> m_cut_from; ///< where a cut-off line starts that ftruncate could not remove yet
};

} // namespace headcount::serve
