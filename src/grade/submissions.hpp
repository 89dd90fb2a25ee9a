#pragma once
// A class's submissions as rows, whichever file they came in: a CSV with a header (student, problem, part, answer;
// other columns ignored) or serve's attempt log (JSON lines, attempt_lines.hpp), told apart by the first byte that
// is not blank, since a CSV never starts with '{'. Read as a stream: memory does not grow with the file.

#include <grade/attempt_lines.hpp>
#include <util/csv.hpp>
#include <util/error.hpp>

#include <cstdint>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace headcount::grade {

/// A submissions file past this is not a class (a disk image, /dev/zero); a million rows are about 40 MiB.
inline constexpr std::uint64_t k_max_submissions_bytes = std::uint64_t{4} << 30;

/// An open submissions file, read one row at a time.
class SubmissionsFile {
  public:
    /// Opens `path` and reads the header (a CSV's first row; an attempt log's columns are fixed). Errors: the file
    /// cannot be read, is empty or blank ("there is nothing to grade yet"), or its header is malformed.
    static Result<std::unique_ptr<SubmissionsFile>> open(const std::string& path,
                                                         std::uint64_t max_bytes = k_max_submissions_bytes);

    /// The rows' column names.
    [[nodiscard]] const std::vector<std::string>& header() const { return m_header; }

    /// The next row (a malformed one with its reason), or nullopt at the end. Errors: the size cap, read errors.
    Result<std::optional<CsvRecord>> next() { return m_csv ? m_csv->next() : m_log->next(); }

  private:
    SubmissionsFile() = default;
    std::ifstream m_in; ///< what the streams read; the object stays put (unique_ptr), so they may refer to it
    std::optional<CsvStream> m_csv;
    std::optional<AttemptLogStream> m_log;
    std::vector<std::string> m_header;
};

} // namespace headcount::grade
