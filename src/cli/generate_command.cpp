#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>

#include <generate/moodle.hpp>
#include <generate/roster.hpp>
#include <render/answers.hpp>
#include <render/solution.hpp>
#include <util/csv.hpp>
#include <util/files.hpp>

#include <fmt/format.h>

#include <memory>

namespace headcount::cli {

namespace {

struct GenerateOptions {
    std::vector<std::string> specs;
    std::string roster;
    std::string seed;
    std::string out;
    std::string format = "markdown";
    std::string templates;
};

using Files = OutputFiles;

/// Documents joined as one Markdown file, separated by rules.
std::string join_documents(const std::vector<std::string>& documents) {
    std::string out;
    for (std::size_t i = 0; i < documents.size(); ++i)
        out += (i == 0 ? "" : "\n---\n\n") + documents[i];
    return out;
}

Result<Files> markdown_set(const std::vector<solve::SolvedProblem>& problems, const VariantTable& variants,
                           const std::vector<std::string>& roster, const render::TemplateSet& templates,
                           const std::filesystem::path& out) {
    Files files;
    std::vector<std::string> preview;
    for (const solve::SolvedProblem& problem : problems) {
        auto sheet = render::markdown_problem_sheet(problem, templates, "");
        if (!sheet)
            return std::unexpected(sheet.error());
        preview.push_back(*sheet);
    }
    files.emplace_back(out / "problems.md", join_documents(preview));

    std::string key = csv_row(std::vector<std::string>{"student", "problem", "part", "answer", "unit"});
    for (const std::string& student : roster) {
        std::vector<std::string> sheets, solutions;
        for (const solve::SolvedProblem& problem : problems) {
            const solve::SolvedProblem& mine = variants.at(problem.problem.id).at(student);
            auto sheet = render::markdown_problem_sheet(mine, templates, student);
            if (!sheet)
                return std::unexpected(sheet.error());
            auto solution = render::markdown_solution(mine, templates);
            if (!solution)
                return std::unexpected(solution.error());
            sheets.push_back(*sheet);
            solutions.push_back(*solution);
            for (const solve::SolvedPart& part : mine.parts)
                key += csv_row(std::vector<std::string>{student, mine.problem.id, part.part.id,
                                                        render::plain_answer(*part.ask, part.answer),
                                                        std::string(part.ask->unit)});
        }
        // Roster ids passed the grader's id rules, so they are safe folder names.
        files.emplace_back(out / student / "problems.md", join_documents(sheets));
        files.emplace_back(out / student / "solutions.md", join_documents(solutions));
    }
    files.emplace_back(out / "key.csv", key);
    return files;
}

Result<int> run_generate(const GenerateOptions& options) {
    auto problems = load_and_solve(options.specs);
    if (!problems)
        return std::unexpected(problems.error());
    auto roster = generate::load_roster(options.roster);
    if (!roster)
        return std::unexpected(roster.error());
    auto templates = load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());
    auto variants = class_variants(*problems, *roster, options.seed);
    if (!variants)
        return std::unexpected(variants.error());

    Files files;
    if (options.format == "moodle-xml") {
        std::vector<generate::StudentVariant> all;
        for (const solve::SolvedProblem& problem : *problems)
            for (const std::string& student : *roster)
                all.push_back({student, &variants->at(problem.problem.id).at(student)});
        auto xml = generate::moodle_question_bank(all, *templates);
        if (!xml)
            return std::unexpected(xml.error());
        files.emplace_back(std::filesystem::path(options.out) / "questions.xml", *xml);
    } else {
        auto set = markdown_set(*problems, *variants, *roster, *templates, options.out);
        if (!set)
            return std::unexpected(set.error());
        files = std::move(*set);
    }
    if (auto ok = write_files(files); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr, "headcount: {} problem{} for {} students; wrote {} file{} to {}\n", problems->size(),
               problems->size() == 1 ? "" : "s", roster->size(), files.size(), files.size() == 1 ? "" : "s", options.out);
    return k_exit_ok;
}

} // namespace

Command add_generate_command(CLI::App& app) {
    auto options = std::make_shared<GenerateOptions>();
    CLI::App* generate = app.add_subcommand("generate", "Generate a different, reproducible variant of each problem "
                                                        "for every student, with solutions and an answer key.");
    generate->add_option("specs", options->specs, "Problem spec files (.yaml) or directories of them")->required();
    generate->add_option("--roster", options->roster, "CSV with a 'student' column (other columns ignored)")
        ->required();
    generate->add_option("--seed", options->seed,
                         "The class seed (any text, e.g. fall-2026); the same seed gives the same numbers")
        ->required();
    generate->add_option("--out", options->out, "Output directory")->required();
    generate->add_option("--format", options->format,
                         "markdown (default): OUT/STUDENT/problems.md and solutions.md, OUT/key.csv, OUT/problems.md; "
                         "moodle-xml: OUT/questions.xml, a Moodle question bank")
        ->check(CLI::IsMember({"markdown", "moodle-xml"}));
    generate->add_option("--templates", options->templates, k_templates_help);
    generate->footer("A student's numbers depend only on the seed, their id and the problem id (see README). "
                     "Exit status: 0 written, 2 bad input or usage.");
    return {generate, [options] { return run_generate(*options); }};
}

} // namespace headcount::cli
