#pragma once
// Each student's feedback file (feedback/STUDENT.md, and with --html STUDENT.html): rendered with a memo, since a
// class repeats a few answers, and written by a few threads, since creating files is most of the time.

#include <grade/class_grading.hpp>
#include <grade/feedback.hpp>
#include <render/templates.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace headcount::grade {

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

/// Writes every student's feedback file into the existing, empty folder `dir`: STUDENT.md, and with `html` also
/// STUDENT.html (KaTeX found in ../katex). `threads` (at least 1, at most one per student) render and create the
/// files; the bytes do not depend on how many. The error is the first failing student's in id order.
Result<void> write_feedback_files(const ClassResults& results, const render::TemplateSet& templates, bool reveal,
                                  const std::filesystem::path& dir, unsigned threads, bool html);

} // namespace headcount::grade
