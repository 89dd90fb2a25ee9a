#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>

#include <render/solution.hpp>
#include <util/files.hpp>

#include <fmt/format.h>

#include <memory>

namespace headcount::cli {

namespace {

struct SolveOptions {
    std::vector<std::string> specs;
    std::string format = "markdown";
    std::string out;
    std::string templates;
};

Result<int> run_solve(const SolveOptions& options) {
    auto solved = load_and_solve(options.specs);
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
        auto templates = load_templates(options.templates);
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
        OutputFiles files;
        for (const auto& [name, content] : documents)
            files.emplace_back(std::filesystem::path(options.out) / name, content);
        if (auto ok = write_files(files); !ok)
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
    solve->add_option("--templates", options->templates, k_templates_help);
    solve->footer("Exit status: 0 solved, 2 bad input or usage (the reason is printed on stderr).");
    return {solve, [options] { return run_solve(*options); }};
}

} // namespace headcount::cli
