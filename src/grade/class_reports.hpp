#pragma once
// The files an instructor gets from grading a class: results.jsonl (written as rows arrive), the gradebook, each
// student's feedback, the class report, and Gradescope's results.json. Text only; the CLI writes the files.

#include <grade/class_grading.hpp>
#include <grade/feedback.hpp>
#include <render/katex.hpp>
#include <render/templates.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <unordered_map>

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

/// Writes the gradebook: a header (student, each scope part as problem/part, total, max) and a row per student
/// with each part's score. Cells from input are neutralised against spreadsheet formulas.
void write_gradebook(const ClassResults& results, std::ostream& out);

/// Students' feedback files (templates/student_feedback.mustache): every part in scope, answered or not, explained
/// under its reveal policy (or in full when `reveal`), and the student's rejected rows. Students whose answers are
/// the same get the same text but for their id, so a class renders each combination once (a bounded cache). One per
/// thread: it is not shared.
class FeedbackRenderer {
  public:
    FeedbackRenderer(const ClassResults& results, const render::TemplateSet& templates, bool reveal);
    /// Student i's feedback file.
    Result<std::string> render(std::size_t i);

  private:
    Result<std::string> render_whole(std::size_t i, std::string_view student);
    Result<const std::string*> part_feedback(const Answered& answered);

    const ClassResults& m_results;
    const render::TemplateSet& m_templates;
    bool m_reveal;
    std::map<std::pair<const VerdictTable*, std::uint32_t>, std::string> m_parts;
    std::unordered_map<std::string, std::string> m_documents; ///< by the answers' signature
    std::string m_overflow; ///< the last feedback rendered once the cache was full, or not memoised
    Verdict m_scratch;
};

/// The class summary and its pictures.
struct ClassReport {
    std::string markdown; ///< report.md, linking the charts as charts/NAME.svg
    std::vector<std::pair<std::string, std::string>> charts; ///< file name in charts/, SVG
    std::string html;     ///< report.html with the charts inside it, when asked for
};

/// The class summary (templates/report.mustache): score distribution, and per part the outcomes and the mistakes
/// by frequency; then the rows that were not graded (the first 1,000; results.jsonl has them all). The score
/// histogram and each part's mistakes are drawn as SVG (render/charts.hpp). With `katex`, also as a page.
Result<ClassReport> class_report(const ClassResults& results, const render::TemplateSet& templates,
                                 const render::KatexLink* katex = nullptr);

/// Gradescope's results.json for student i: a test per part in scope with the feedback as Markdown.
Result<nlohmann::ordered_json> gradescope_results(const ClassResults& results, std::size_t i,
                                                  const render::TemplateSet& templates, bool reveal);

} // namespace headcount::grade
