#pragma once
// What every subcommand does first: read and solve the specs it was given, and load the templates.

#include <render/templates.hpp>
#include <solve/asks.hpp>

#include <string>
#include <vector>

namespace headcount::command {

/// Loads and solves every spec named (files or directories); the first bad one stops the run.
/// Problem ids must be unique across the specs.
Result<std::vector<solve::SolvedProblem>> load_and_solve(const std::vector<std::string>& arguments);

/// The built-in templates, with those in `dir` (when given) replacing the ones of the same name.
Result<render::TemplateSet> load_templates(const std::string& dir);

/// The solved specs and the templates their documents use: where grade, generate and the exports start.
struct Course {
    std::vector<solve::SolvedProblem> problems;
    render::TemplateSet templates;
};

/// load_and_solve(specs), then load_templates(templates_dir): the first error of either.
Result<Course> load_course(const std::vector<std::string>& specs, const std::string& templates_dir);

/// The part with this id, or an error listing the problem's parts (with a did-you-mean).
Result<const solve::SolvedPart*> find_part(const solve::SolvedProblem& solved, const std::string& id);

} // namespace headcount::command
