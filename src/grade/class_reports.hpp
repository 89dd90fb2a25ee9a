#pragma once
// The summaries an instructor gets from grading a class: the gradebook, the class report and its charts, and
// Gradescope's results.json. Text only; results_log.hpp has results.jsonl, feedback_files.hpp the students' files.

#include <grade/class_grading.hpp>
#include <render/katex.hpp>
#include <render/templates.hpp>

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace headcount::grade {

/// Writes the gradebook: a header (student, each scope part as problem/part, total, max) and a row per student
/// with each part's score. Cells from input are neutralised against spreadsheet formulas.
void write_gradebook(const ClassResults& results, std::ostream& out);

/// The class summary and its pictures.
struct ClassReport {
    std::string markdown;                                    ///< report.md, linking the charts as charts/NAME.svg
    std::vector<std::pair<std::string, std::string>> charts; ///< file name in charts/, SVG
    std::string html;                                        ///< report.html with the charts inside it, when asked for
};

/// The class summary (templates/report.mustache): score distribution, and per part the outcomes and the mistakes
/// by frequency; then the rows that were not graded (the first 1,000; results.jsonl has them all). The score
/// histogram and each part's mistakes are drawn as SVG (render/charts.hpp). With `katex`, also as a page.
Result<ClassReport> class_report(const ClassResults& results, const render::TemplateSet& templates,
                                 const render::KatexLink* katex = nullptr);

/// Gradescope's results.json for student i: a test per part in scope with the feedback as Markdown, and the rows
/// that could not be graded (every rejected row when i is past the students: a file of one submission whose id is
/// no student of the class).
Result<nlohmann::ordered_json> gradescope_results(const ClassResults& results, std::size_t i,
                                                  const render::TemplateSet& templates, bool reveal);

} // namespace headcount::grade
