#pragma once
// results.jsonl, the record of every input row of a class: written as rows arrive, with the superseded ones marked
// once grading knows them. Text only; the caller owns the stream.

#include <grade/class_grading.hpp>

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace headcount::grade {

/// results.jsonl: one JSON object per input row, in input order: line, outcome, the row's fields, and for graded
/// rows the status, score, points and mistake ids (and the reason when unreadable); for the others the reason.
/// Lines are written as rows arrive; which were superseded is known only at the end (mark_superseded).
class ResultsLog {
  public:
    /// How many formatted verdicts the log keeps (see m_verdicts).
    static constexpr std::size_t k_cached_verdicts = 16384;

    explicit ResultsLog(std::ostream& out) : m_out(out) {}
    /// Appends the row's line.
    void write(const RowResult& row);

  private:
    std::ostream& m_out;
    std::string m_line;
    /// The verdict part of a graded row's line, by table and answer: a class repeats a few verdicts. At most
    /// k_cached_verdicts are kept; in a class where answers rarely repeat the others are formatted each time.
    std::unordered_map<const VerdictTable*, std::unordered_map<std::uint32_t, std::string>> m_verdicts;
    std::size_t m_cached = 0;
    std::string m_uncached;
    Verdict m_scratch;
};

/// Copies a results log from `in` to `out`, rewriting the lines of the superseded rows (0-based data row numbers,
/// in any order) as "superseded by the answer on line N". Error: the log cannot be read or written.
Result<void> mark_superseded(std::istream& in, std::ostream& out, std::vector<Superseded> superseded);

/// A JSON string literal for `text`, escaped as nlohmann::json writes it; invalid UTF-8 becomes U+FFFD.
std::string json_string(std::string_view text);

} // namespace headcount::grade
