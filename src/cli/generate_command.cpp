#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>

#include <generate/moodle.hpp>
#include <generate/roster.hpp>
#include <render/answers.hpp>
#include <render/pages.hpp>
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

/// The problems' sheets (`solutions` false) or worked solutions for one student ("" for the problems as
/// written), as one Markdown file or, with `katex`, one HTML page.
Result<std::string> document_set(const std::vector<const solve::SolvedProblem*>& problems, bool solutions,
                                 const std::string& student, const render::TemplateSet& templates,
                                 const render::KatexLink* katex) {
    if (katex)
        return solutions ? render::html_solutions(problems, templates, *katex)
                         : render::html_problem_sheets(problems, templates, *katex, student);
    std::vector<std::string> documents;
    for (const solve::SolvedProblem* problem : problems) {
        auto text = solutions ? render::markdown_solution(*problem, templates)
                              : render::markdown_problem_sheet(*problem, templates, student);
        if (!text)
            return text;
        documents.push_back(std::move(*text));
    }
    return join_documents(documents);
}

/// The sheets, solutions and key of every student, and the problems as written: Markdown files, or with `html`
/// HTML pages that find KaTeX in OUT/katex/.
Result<Files> document_files(const std::vector<solve::SolvedProblem>& problems, const VariantTable& variants,
                             const std::vector<std::string>& roster, const render::TemplateSet& templates,
                             const std::filesystem::path& out, bool html) {
    Files files;
    const std::string extension = html ? ".html" : ".md";
    const render::KatexLink top{nullptr, "katex"}, below{nullptr, "../katex"};

    std::vector<const solve::SolvedProblem*> as_written;
    for (const solve::SolvedProblem& problem : problems)
        as_written.push_back(&problem);
    auto preview = document_set(as_written, false, "", templates, html ? &top : nullptr);
    if (!preview)
        return std::unexpected(preview.error());
    files.emplace_back(out / ("problems" + extension), std::move(*preview));

    std::string key = csv_row(std::vector<std::string>{"student", "problem", "part", "answer", "unit"});
    for (const std::string& student : roster) {
        std::vector<const solve::SolvedProblem*> mine;
        for (const solve::SolvedProblem& problem : problems) {
            mine.push_back(&variants.at(problem.problem.id).at(student));
            for (const solve::SolvedPart& part : mine.back()->parts)
                key += csv_row(std::vector<std::string>{student, mine.back()->problem.id, part.part.id,
                                                        render::plain_answer(*part.ask, part.answer),
                                                        std::string(part.ask->unit)});
        }
        // Roster ids passed the grader's id rules, so they are safe folder names.
        for (const bool solutions : {false, true}) {
            auto document = document_set(mine, solutions, student, templates, html ? &below : nullptr);
            if (!document)
                return std::unexpected(document.error());
            files.emplace_back(out / student / ((solutions ? "solutions" : "problems") + extension),
                               std::move(*document));
        }
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

    Files files, katex_files;
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
        const bool html = options.format == "html";
        auto set = document_files(*problems, *variants, *roster, *templates, options.out, html);
        if (!set)
            return std::unexpected(set.error());
        files = std::move(*set);
        if (html) {
            auto katex = render::load_katex();
            if (!katex)
                return std::unexpected(katex.error());
            katex_files = render::katex_folder(*katex, std::filesystem::path(options.out) / "katex");
        }
    }
    const std::size_t written = files.size();
    files.insert(files.end(), katex_files.begin(), katex_files.end());
    if (auto ok = write_files(files); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr, "headcount: {} problem{} for {} students; wrote {} file{} to {}{}\n", problems->size(),
               problems->size() == 1 ? "" : "s", roster->size(), written, written == 1 ? "" : "s", options.out,
               katex_files.empty() ? "" : " (and KaTeX, which the pages use, in katex/)");
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
                         "html: the same set as printable web pages (problems.html, solutions.html) with the math "
                         "typeset by KaTeX, copied once into OUT/katex/; "
                         "moodle-xml: OUT/questions.xml, a Moodle question bank")
        ->check(CLI::IsMember({"markdown", "html", "moodle-xml"}));
    generate->add_option("--templates", options->templates, k_templates_help);
    generate->footer("A student's numbers depend only on the seed, their id and the problem id (see README). "
                     "Exit status: 0 written, 2 bad input or usage.");
    return {generate, [options] { return run_generate(*options); }};
}

} // namespace headcount::cli
