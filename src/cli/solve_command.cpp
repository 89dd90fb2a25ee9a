#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <command/problems.hpp>

#include <render/pages.hpp>
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
    OutputFiles extra;                                          // files the documents use (KaTeX), relative
    render::TemplateSet templates;
    if (options.format != "json") {
        auto loaded = load_templates(options.templates);
        if (!loaded)
            return std::unexpected(loaded.error());
        templates = std::move(*loaded);
    }
    if (options.format == "json") {
        nlohmann::ordered_json all = nlohmann::ordered_json::array();
        for (const auto& problem : *solved) {
            all.push_back(render::json_answers(problem));
            documents.emplace_back(problem.problem.id + ".json", all.back().dump(2) + "\n");
        }
        if (options.out.empty())
            fmt::print("{}\n", solved->size() == 1 ? all.front().dump(2) : all.dump(2));
    } else if (options.format == "html") {
        auto katex = render::load_katex();
        if (!katex)
            return std::unexpected(katex.error());
        if (options.out.empty()) {
            // One page on stdout carries KaTeX itself, so it can be saved and opened anywhere.
            std::vector<const solve::SolvedProblem*> all;
            for (const auto& problem : *solved)
                all.push_back(&problem);
            auto page = render::html_solutions(all, templates, render::KatexLink{&*katex, ""});
            if (!page)
                return std::unexpected(page.error());
            fmt::print("{}", *page);
        } else {
            // Pages in a folder share one copy of KaTeX beside them.
            for (const auto& problem : *solved) {
                auto page = render::html_solutions({&problem}, templates, render::KatexLink{nullptr, "katex"});
                if (!page)
                    return std::unexpected(page.error());
                documents.emplace_back(problem.problem.id + ".html", std::move(*page));
            }
            for (auto& [path, content] : render::katex_folder(*katex, "katex"))
                extra.emplace_back(path, std::move(content));
        }
    } else {
        for (const auto& problem : *solved) {
            auto markdown = render::markdown_solution(problem, templates);
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
        for (const auto& [name, content] : extra)
            files.emplace_back(std::filesystem::path(options.out) / name, content);
        if (auto ok = write_files(files); !ok)
            return std::unexpected(ok.error());
        fmt::print(stderr, "headcount: wrote {} file{} to {}{}\n", documents.size(), documents.size() == 1 ? "" : "s",
                   options.out, extra.empty() ? "" : " (and KaTeX, which the pages use, in katex/)");
    }
    return k_exit_ok;
}

} // namespace

Command add_solve_command(CLI::App& app) {
    auto options = std::make_shared<SolveOptions>();
    CLI::App* solve = app.add_subcommand("solve", "Solve problem specs exactly and print worked solutions.");
    add_specs_argument(*solve, options->specs);
    solve
        ->add_option("--format", options->format,
                     "markdown: worked solutions (default); html: the same as a printable web page with the math "
                     "typeset (KaTeX inside the page, or in OUT/katex/ with --out); json: the answers only")
        ->check(CLI::IsMember({"markdown", "html", "json"}));
    solve->add_option("--out", options->out,
                      "Write one file per problem (ID.md, ID.html or ID.json) into this "
                      "directory instead of printing");
    solve->add_option("--templates", options->templates, k_templates_help);
    solve->footer("Exit status: 0 solved, 2 bad input or usage (the reason is printed on stderr).");
    return {solve, [options] { return run_solve(*options); }};
}

} // namespace headcount::cli
