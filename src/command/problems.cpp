#include <command/problems.hpp>

#include <solve/defined.hpp>

#include <grade/mistakes.hpp>
#include <spec/reader.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <cctype>
#include <set>

namespace headcount::command {

Result<std::vector<solve::SolvedProblem>> load_and_solve(const std::vector<std::string>& arguments) {
    auto paths = spec::expand_spec_paths(arguments);
    if (!paths)
        return std::unexpected(paths.error());
    const std::vector<std::string_view> asks = solve::ask_ids();
    const std::vector<std::string_view> mistakes = grade::mistake_ids();
    const spec::Vocabulary words{asks, mistakes};
    std::vector<solve::SolvedProblem> solved;
    std::set<std::string> ids;
    for (const auto& path : *paths) {
        auto problem = spec::load_problem(path, words);
        if (!problem)
            return std::unexpected(problem.error());
        if (!ids.insert(problem->id).second)
            return std::unexpected(
                Error{path.string(), 0, 0, fmt::format("problem id '{}' is used by another spec too", problem->id)});
        auto result = solve::solve_problem(*problem);
        if (!result)
            return std::unexpected(result.error());
        // Without vary: the givens as written are every student's, so a listed mistake that comes to the right
        // answer there can never be named.
        if (const auto problem_with = problem->vary.empty() ? solve::listed_mistake_problem(*result) : std::nullopt)
            return std::unexpected(*problem_with);
        solved.push_back(std::move(*result));
    }
    return solved;
}

Result<render::TemplateSet> load_templates(const std::string& dir) {
    if (dir.empty())
        return render::TemplateSet::builtin();
    return render::TemplateSet::builtin().overridden_by(dir);
}

Result<Course> load_course(const std::vector<std::string>& specs, const std::string& templates_dir) {
    auto problems = load_and_solve(specs);
    if (!problems)
        return std::unexpected(problems.error());
    auto templates = load_templates(templates_dir);
    if (!templates)
        return std::unexpected(templates.error());
    return Course{std::move(*problems), std::move(*templates)};
}

Result<const solve::SolvedPart*> find_part(const solve::SolvedProblem& solved, const std::string& id) {
    std::vector<std::string_view> ids;
    for (const solve::SolvedPart& part : solved.parts) {
        if (part.part.id == id)
            return &part;
        ids.push_back(part.part.id);
    }
    // Part ids are printed (a), (b): a student typing B means b, unless the spec has both.
    const solve::SolvedPart* folded = nullptr;
    for (const solve::SolvedPart& part : solved.parts)
        if (ascii_lowered(part.part.id) == ascii_lowered(id)) {
            if (folded)
                return std::unexpected(Error{solved.problem.file, 0, 0,
                                             fmt::format("problem '{}' has parts '{}' and '{}'; which is '{}'?",
                                                         solved.problem.id, folded->part.id, part.part.id, id)});
            folded = &part;
        }
    if (folded)
        return folded;
    std::string list;
    for (std::string_view known : ids)
        list += (list.empty() ? "" : ", ") + std::string(known);
    return std::unexpected(Error{solved.problem.file, 0, 0,
                                 fmt::format("problem '{}' has no part '{}'{}; its parts are: {}", solved.problem.id,
                                             id, did_you_mean(id, ids), list)});
}

} // namespace headcount::command
