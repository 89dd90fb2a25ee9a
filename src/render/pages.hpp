#pragma once
// Worked solutions and problem sheets as standalone HTML pages, printable, with the math typeset by KaTeX and
// the pictures the solutions draw (see html.hpp for the page itself).

#include <render/html.hpp>
#include <render/katex.hpp>
#include <solve/asks.hpp>

#include <string>
#include <vector>

namespace headcount::render {

/// The worked solutions of `problems` as one page, an article per problem (markdown_solution with its figures).
/// The page's title is the problem's title, or "Worked solutions" for several. Errors come from the templates.
Result<std::string> html_solutions(const std::vector<const solve::SolvedProblem*>& problems,
                                   const TemplateSet& templates, const KatexLink& katex);

/// The problem sheets of `problems` as one page (markdown_problem_sheet), with `student`'s numbers ("" for the
/// problems as written), `preface` (Markdown, e.g. the student's sheet header) before the first. Errors come from
/// the templates.
Result<std::string> html_problem_sheets(const std::vector<const solve::SolvedProblem*>& problems,
                                        const TemplateSet& templates, const KatexLink& katex,
                                        const std::string& student, const std::string& preface = "");

} // namespace headcount::render
