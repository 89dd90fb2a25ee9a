#pragma once
// The files an instructor gets from grading a class: gradebook, per-row results, per-student feedback, the
// class report, and Gradescope's results.json. Text only; the CLI writes them.

#include <grade/class_grading.hpp>
#include <grade/feedback.hpp>
#include <render/templates.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace headcount::grade {

/// One row per student: each part's score, the total and the maximum. Cells from input are neutralised
/// against spreadsheet formulas.
std::string gradebook_csv(const ClassResults& results, const std::vector<solve::SolvedProblem>& problems);

/// One JSON object per input row, in input order: line, outcome, the row's fields, and for graded rows the
/// status, score, points and mistake ids; for the others the reason.
std::string results_jsonl(const ClassResults& results);

/// One student's feedback (templates/student_feedback.mustache): every part, answered or not, explained under
/// each part's reveal policy, or in full when `reveal` (the instructor's --reveal).
Result<std::string> student_feedback(const ClassResults& results, const std::vector<solve::SolvedProblem>& problems,
                                     const std::string& student, const render::TemplateSet& templates, bool reveal,
                                     FeedbackCache& cache);

/// The class summary (templates/report.mustache): score distribution, and per part the outcomes and the
/// mistakes by frequency; then the rows that were not graded.
Result<std::string> class_report(const ClassResults& results, const std::vector<solve::SolvedProblem>& problems,
                                 const render::TemplateSet& templates);

/// Gradescope's results.json for one student: a test per part with the feedback as Markdown.
Result<nlohmann::ordered_json> gradescope_results(const ClassResults& results,
                                                  const std::vector<solve::SolvedProblem>& problems,
                                                  const std::string& student, const render::TemplateSet& templates,
                                                  bool reveal, FeedbackCache& cache);

} // namespace headcount::grade
