#pragma once
// The attempt log (`serve --log FILE`): one JSON object per line for every check a student makes, appended with
// one write(2) before the answer is sent, so a response is never seen without its line and a stopped or killed
// server loses nothing it answered. `grade` reads the same lines back as submissions (grade/attempt_lines.hpp).
//
// A line: {"time":"2026-11-22T09:15:02.345Z","student":"alice","problem":"week3-mha-params","part":"b",
//          "answer":"1,048,576","status":"incorrect","score":0,"points":3,"mistakes":["missing_biases"]}
// `student` is null when the server runs without a roster (nobody is identified).

#include <util/error.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace headcount::serve {

/// One check as logged.
struct Attempt {
    std::chrono::system_clock::time_point time;
    std::optional<std::string> student; ///< unset without a roster
    std::string problem;
    std::string part;
    std::string answer; ///< as typed (UTF-8: the server refuses other bytes)
    std::string status; ///< correct, rounded, incorrect, unreadable
    double score = 0;
    double points = 0;
    std::vector<std::string> mistakes; ///< ids of the mistakes named
};

/// `attempt` as one line of JSON, ending in '\n'; time in UTC with milliseconds ("2026-11-22T09:15:02.345Z").
std::string attempt_line(const Attempt& attempt);

/// An open attempt log. Thread-safe; each append is one write(2) of a whole line, in the order of the calls.
class AttemptLog {
  public:
    /// Opens `path` for appending (creating it, mode 0600: answers are student records). A last line without its
    /// line break (a crash or power cut mid-write) is cut away, as a short write is, unless it is a whole JSON
    /// object, which gets its line break; one longer than any line can be is an error (the wrong file, surely).
    static Result<std::unique_ptr<AttemptLog>> open(const std::filesystem::path& path);
    /// Bytes of an unfinished last line that open() cut away (0: none).
    [[nodiscard]] std::size_t cut_at_open() const { return m_cut_at_open; }
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
    std::size_t m_cut_at_open = 0;
};

} // namespace headcount::serve
