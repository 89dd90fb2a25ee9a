#pragma once
// Turns solved problems into worked Markdown (through templates) or JSON answers. Computes no number: every
// figure comes from the solver and is only formatted here.

#include <render/html.hpp>
#include <render/templates.hpp>
#include <solve/asks.hpp>

#include <span>
#include <string>

namespace headcount::render {

/// The data the templates see for one solved problem (without part bodies). Numbers carry thousands separators.
View problem_view(const solve::SolvedProblem& solved);

/// The worked solution of one problem: templates/solution.mustache framing one templates/mha/<ask>.mustache per
/// part, tidied (no trailing spaces, at most one blank line in a row). Errors come from the templates (see
/// TemplateSet::render). Pictures are for HTML: with `figures`, each {{{figures.NAME}}} a template places is a
/// paragraph holding a token, and the picture is appended to `figures` for markdown_to_html; without, it is "".
Result<std::string> markdown_solution(const solve::SolvedProblem& solved, const TemplateSet& templates,
                                      std::vector<HtmlBlock>* figures = nullptr);

/// The problem as handed out (templates/problem_sheet.mustache): title, the givens the spec states, and each
/// part's question, with no answer or derived value. `student` names whose numbers these are ("" for none).
Result<std::string> markdown_problem_sheet(const solve::SolvedProblem& solved, const TemplateSet& templates,
                                           const std::string& student);

/// Mustache leaves blank lines where a false section or a partial stood: strips trailing spaces, keeps at most
/// one blank line in a row, and ends with exactly one newline, so templates can be laid out for reading.
std::string tidy_markdown(const std::string& text);

/// {"id", "title", "parts": [{"id", "ask", "answer", "unit"}]} with `answer` as json_answer writes it.
nlohmann::ordered_json json_answers(const solve::SolvedProblem& solved);

} // namespace headcount::render
