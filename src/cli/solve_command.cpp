#include <cli/app.hpp>
#include <cli/commands.hpp>

#include <grade/mistakes.hpp>
#include <render/solution.hpp>
#include <spec/reader.hpp>
#include <util/files.hpp>

#include <fmt/format.h>

#include <memory>
#include <set>

namespace headcount::cli {

namespace {

struct SolveOptions {
    std::vector<std::string> specs;
    std::string format = "markdown";
    std::string out;
    std::string templates;
};

/// Loads and solves every spec named; the first bad one stops the run before anything is written.
Result<std::vector<solve::SolvedProblem>> solve_all(const std::vector<std::string>& arguments) {
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
        solved.push_back(std::move(*result));
    }
    return solved;
}

Result<int> run_solve(const SolveOptions& options) {
    auto solved = solve_all(options.specs);
    if (!solved)
        return std::unexpected(solved.error());

    // Render everything before writing anything: a template error must not leave half the files behind.
    std::vector<std::pair<std::string, std::string>> documents; // file name, content
    if (options.format == "json") {
        nlohmann::ordered_json all = nlohmann::ordered_json::array();
        for (const auto& problem : *solved) {
            all.push_back(render::json_answers(problem));
            documents.emplace_back(problem.problem.id + ".json", all.back().dump(2) + "\n");
        }
        if (options.out.empty())
            fmt::print("{}\n", solved->size() == 1 ? all.front().dump(2) : all.dump(2));
    } else {
        auto templates = render::TemplateSet::load(options.templates.empty() ? render::TemplateSet::default_dir()
                                                                             : std::filesystem::path(options.templates));
        if (!templates)
            return std::unexpected(templates.error());
        for (const auto& problem : *solved) {
            auto markdown = render::markdown_solution(problem, *templates);
            if (!markdown)
                return std::unexpected(markdown.error());
            documents.emplace_back(problem.problem.id + ".md", std::move(*markdown));
        }
        if (options.out.empty())
            for (std::size_t i = 0; i < documents.size(); ++i)
                fmt::print("{}{}", i == 0 ? "" : "\n---\n\n", documents[i].second);
    }

    if (!options.out.empty()) {
        if (auto ok = ensure_directory(options.out); !ok)
            return std::unexpected(ok.error());
        for (const auto& [name, content] : documents)
            if (auto ok = write_file_atomic(std::filesystem::path(options.out) / name, content); !ok)
                return std::unexpected(ok.error());
        fmt::print(stderr, "headcount: wrote {} file{} to {}\n", documents.size(), documents.size() == 1 ? "" : "s",
                   options.out);
    }
    return k_exit_ok;
}

} // namespace

Command add_solve_command(CLI::App& app) {
    auto options = std::make_shared<SolveOptions>();
    CLI::App* solve = app.add_subcommand("solve", "Solve problem specs exactly and print worked solutions.");
    solve->add_option("specs", options->specs, "Problem spec files (.yaml) or directories of them")->required();
    solve->add_option("--format", options->format, "markdown: worked solutions (default); json: the answers only")
        ->check(CLI::IsMember({"markdown", "json"}));
    solve->add_option("--out", options->out, "Write one file per problem (ID.md or ID.json) into this directory "
                                             "instead of printing");
    solve->add_option("--templates", options->templates,
                      "Use the Mustache templates in this directory instead of the shipped ones");
    solve->footer("Exit status: 0 solved, 2 bad input or usage (the reason is printed on stderr).");
    return {solve, [options] { return run_solve(*options); }};
}

} // namespace headcount::cli
