#pragma once
// Turns solved problems into worked Markdown (through templates) or JSON answers. Computes no number: every
// figure comes from the solver and is only formatted here.

#include <render/html.hpp>
#include <render/problem_view.hpp>
#include <render/templates.hpp>
#include <solve/asks.hpp>

#include <span>
#include <string>

namespace headcount::render {

/// The template of `ask`'s worked solution: "<kind>/<id>" (templates/mha/q_params.mustache).
std::string solution_template(const solve::Ask& ask);

/// The template of `ask`'s question on a problem sheet: "partials/question_<id>".
std::string question_template(const solve::Ask& ask);

/// The worked solution of one problem: templates/solution.mustache framing one templates/mha/<ask>.mustache per
/// part, tidied (no trailing spaces, at most one blank line in a row). Errors come from the templates (see
/// TemplateSet::render). Pictures are for HTML: with `figures`, each {{{figures.NAME}}} a template places is a
/// paragraph holding a token, and the picture is appended to `figures` for markdown_to_html; without, it is "".
Result<std::string> markdown_solution(const solve::SolvedProblem& solved, const TemplateSet& templates,
                                      std::vector<HtmlBlock>* figures = nullptr);

/// The givens a formula part's answer may name, for prose: "`d_model`, `h` and `d_ff`" ("" for none).
std::string formula_names_text(const solve::SolvedPart& part);

/// The view of a formula part's right answer (`answer: formula`) for templates/partials/formula_answer.mustache:
/// tex, text, value (at the problem's givens), has_fixed and fixed (the dtype's bits, kept as numbers).
View formula_answer_view(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

/// One part's question as the problem sheet prints it (Markdown): the spec's `text:`, else
/// templates/partials/question_<ask>.mustache rendered with `view`, the problem_view of the same problem. A part
/// answered with a formula says so, and which names the formula may use.
Result<std::string> part_question(const solve::SolvedPart& part, const TemplateSet& templates, const View& view);

/// The problem as handed out (templates/problem_sheet.mustache): title, the givens the spec states, and each
/// part's question, with no answer or derived value. `student` names whose numbers these are ("" for none).
Result<std::string> markdown_problem_sheet(const solve::SolvedProblem& solved, const TemplateSet& templates,
                                           const std::string& student);

/// Mustache leaves blank lines where a false section or a partial stood: strips trailing spaces, keeps at most
/// one blank line in a row, and ends with exactly one newline, so templates can be laid out for reading.
std::string tidy_markdown(const std::string& text);

/// {"id", "title", "parts": [{"id", "ask", "answer", "unit"}]} with `answer` as json_answer writes it.
nlohmann::ordered_json json_answers(const solve::SolvedProblem& solved);

/// What the question of a defined quantity reads (partials/question_quantity): its `title`, its `unit` and whether to
/// ask for it (`has_unit`: not when the title says it, "the cost in dollars"), whether to ask `how_many` (a title that
/// is a count of the unit's noun: "LoRA adapter parameters" in parameters), and the `article` before the title ("the
/// ", or "" when the title has its own), the `verb` ("is", "are" for "all weights") and the worked solution's `opening`
/// ("All weights are").
nlohmann::ordered_json question_words(std::string_view title, std::string_view unit);

/// The spec's redefinitions of headcount's built-ins that `part` is computed with (solve::redefinitions), as JSON:
/// [{"name", "formula", "defined_by": "spec"}]; empty when it uses headcount's own alone.
nlohmann::ordered_json redefinitions_json(const solve::SolvedProblem& solved, const solve::SolvedPart& part);

} // namespace headcount::render
