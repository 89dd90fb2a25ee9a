#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <command/problems.hpp>
#include <command/secret_option.hpp>

#include <generate/class_variants.hpp>
#include <generate/export_formats.hpp>
#include <generate/key.hpp>
#include <generate/roster.hpp>
#include <generate/sheet_header.hpp>
#include <render/answers.hpp>
#include <render/pages.hpp>
#include <render/solution.hpp>
#include <util/csv.hpp>
#include <util/files.hpp>

#include <fmt/format.h>

#include <memory>
#include <optional>

namespace headcount::cli {

namespace {

struct GenerateOptions {
    std::vector<std::string> specs;
    std::string roster;
    std::string seed;
    std::string out;
    std::string format = "markdown";
    std::string templates;
    std::size_t variants = 0;
    std::string serve_url;
    std::string secret;
    bool solutions_in_bank = false;
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
/// written), as one Markdown file or, with `katex`, one HTML page. `header` (Markdown) starts the sheets.
Result<std::string> document_set(const std::vector<const solve::SolvedProblem*>& problems, bool solutions,
                                 const std::string& student, const render::TemplateSet& templates,
                                 const render::KatexLink* katex, const std::string& header = "") {
    if (katex)
        return solutions ? render::html_solutions(problems, templates, *katex)
                         : render::html_problem_sheets(problems, templates, *katex, student, header);
    std::vector<std::string> documents;
    for (const solve::SolvedProblem* problem : problems) {
        auto text = solutions ? render::markdown_solution(*problem, templates)
                              : render::markdown_problem_sheet(*problem, templates, student);
        if (!text)
            return text;
        documents.push_back(std::move(*text));
    }
    return (solutions || header.empty() ? "" : header + "\n") + join_documents(documents);
}

/// The sheets, solutions and key of every student, and the problems as written: Markdown files, or with `html`
/// HTML pages that find KaTeX in OUT/katex/.
Result<Files> document_files(const std::vector<solve::SolvedProblem>& problems, const generate::ClassVariants& variants,
                             const std::vector<std::string>& roster, const render::TemplateSet& templates,
                             const GenerateOptions& options, const TokenSecret* secret, bool html) {
    const std::filesystem::path out = options.out;
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

    for (const std::string& student : roster) {
        std::vector<const solve::SolvedProblem*> mine;
        for (std::size_t p = 0; p < problems.size(); ++p) {
            const auto variant = variants.find(p, student);
            if (!variant)
                return fail(variant.error());
            mine.push_back(*variant);
        }
        auto header = generate::sheet_header(student, options.seed, options.serve_url, secret, templates);
        if (!header)
            return std::unexpected(header.error());
        // Roster ids passed the grader's id rules, so they are safe folder names.
        for (const bool solutions : {false, true}) {
            auto document = document_set(mine, solutions, student, templates, html ? &below : nullptr, *header);
            if (!document)
                return std::unexpected(document.error());
            files.emplace_back(out / student / ((solutions ? "solutions" : "problems") + extension),
                               std::move(*document));
        }
    }
    auto key = generate::answer_key_csv(problems, variants, roster);
    if (!key)
        return std::unexpected(key.error());
    files.emplace_back(out / "key.csv", std::move(*key));
    return files;
}

/// `generate --format moodle-xml|qti`, the old spelling of `export moodle|canvas` (kept for one release, with a
/// note that it moved): generate's own checks, then the export.
Result<int> run_moved_export(const GenerateOptions& options) {
    const std::string_view moved_to = options.format == "qti" ? "canvas" : "moodle";
    fmt::print(stderr,
               "headcount: `generate --format {}` is now `headcount export {}`, with the same options; the "
               "old spelling goes in the next release\n",
               options.format, moved_to);
    if (!options.secret.empty() && options.serve_url.empty())
        return fail("--secret keys the links --serve-url prints: give both, or neither");
    if (options.solutions_in_bank && options.format != "qti")
        return fail("--solutions-in-bank goes with --format qti: a Moodle bank always holds the worked solutions, as "
                    "general feedback that the quiz's review options show or hide");
    if (!options.serve_url.empty())
        return fail("--serve-url puts a link on each student's sheet: it goes with the markdown and html formats");
    generate::ExportRequest request;
    request.out = options.out;
    request.seed = options.seed;
    request.roster = options.roster;
    request.variants = options.variants;
    request.solutions_in_bank = options.solutions_in_bank;
    request.templates_dir = options.templates;
    return run_export(*generate::find_export_format(moved_to), options.specs, std::move(request));
}

Result<int> run_generate(const GenerateOptions& options) {
    if (options.format == "moodle-xml" || options.format == "qti")
        return run_moved_export(options);
    if (options.roster.empty())
        return fail(fmt::format("the {} format writes a sheet per student: give --roster", options.format));
    if (!options.secret.empty() && options.serve_url.empty())
        return fail("--secret keys the links --serve-url prints: give both, or neither");
    if (options.solutions_in_bank)
        return fail(fmt::format("--solutions-in-bank goes with --format qti: the {} format writes solutions beside "
                                "the sheets",
                                options.format));
    if (!options.serve_url.empty()) {
        if (const auto why = generate::serve_url_problem(options.serve_url))
            return fail(fmt::format("--serve-url '{}' {}", options.serve_url, *why));
    }
    auto course = load_course(options.specs, options.templates);
    if (!course)
        return std::unexpected(course.error());
    const std::vector<solve::SolvedProblem>& problems = course->problems;
    const render::TemplateSet& templates = course->templates;
    auto roster = generate::load_roster(options.roster);
    if (!roster)
        return std::unexpected(roster.error());
    auto variants = generate::ClassVariants::seeded(problems, *roster, options.seed);
    if (!variants)
        return std::unexpected(variants.error());

    const bool html = options.format == "html";
    std::optional<TokenSecret> secret;
    if (!options.serve_url.empty()) {
        auto loaded = command_token_secret(
            options.secret, {{options.out, fmt::format("the output folder {}, which students receive", options.out)}});
        if (!loaded)
            return std::unexpected(loaded.error());
        secret = std::move(*loaded);
    }
    auto set = document_files(problems, *variants, *roster, templates, options, secret ? &*secret : nullptr, html);
    if (!set)
        return std::unexpected(set.error());
    Files files = std::move(*set);
    Files katex_files;
    if (html) {
        auto katex = render::load_katex();
        if (!katex)
            return std::unexpected(katex.error());
        katex_files = render::katex_folder(*katex, std::filesystem::path(options.out) / "katex");
    }
    const std::size_t written = files.size();
    files.insert(files.end(), katex_files.begin(), katex_files.end());
    if (auto ok = write_files(files); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr, "headcount: {} problem{} for {} students; wrote {} file{} to {}{}\n", problems.size(),
               problems.size() == 1 ? "" : "s", roster->size(), written, written == 1 ? "" : "s", options.out,
               katex_files.empty() ? "" : " (and KaTeX, which the pages use, in katex/)");
    return k_exit_ok;
}

} // namespace

Command add_generate_command(CLI::App& app) {
    auto options = std::make_shared<GenerateOptions>();
    CLI::App* generate = app.add_subcommand("generate", "Generate a different, reproducible variant of each problem "
                                                        "for every student, with solutions and an answer key.");
    add_specs_argument(*generate, options->specs);
    generate->add_option("--roster", options->roster, "CSV with a 'student' column (other columns ignored)");
    generate
        ->add_option("--seed", options->seed,
                     "The class seed (any text, e.g. fall-2026); the same seed gives the same numbers")
        ->required();
    generate->add_option("--out", options->out, "Output directory")->required();
    generate
        ->add_option("--format", options->format,
                     "markdown (default): OUT/STUDENT/problems.md and solutions.md, OUT/key.csv, OUT/problems.md; "
                     "html: the same set as printable web pages (problems.html, solutions.html) with the math "
                     "typeset by KaTeX, copied once into OUT/katex/; "
                     "moodle-xml and qti: moved to `headcount export moodle` and `headcount export canvas` "
                     "(accepted in this release, with a note)")
        ->check(CLI::IsMember({"markdown", "html", "moodle-xml", "qti"}));
    generate
        ->add_option("--variants", options->variants,
                     "moodle-xml and qti (moved to `headcount export`): N variants of each problem in the bank")
        ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
    generate->add_flag("--solutions-in-bank", options->solutions_in_bank,
                       "qti (moved to `headcount export canvas`): each variant's worked solution in the quiz");
    generate->add_option("--serve-url", options->serve_url,
                         "markdown and html: the address of `headcount serve` (e.g. https://hc.example.edu); each "
                         "sheet then shows the student's personal link, else the `check` command");
    generate->add_option("--secret", options->secret, std::string(k_secret_help) + " (used with --serve-url)");
    generate->add_option("--templates", options->templates, k_templates_help);
    generate->footer("A student's numbers depend only on the seed, their id and the problem id (docs/variants.md). "
                     "Exit status: 0 written, 2 bad input or usage.");
    return {generate, [options] { return run_generate(*options); }};
}

} // namespace headcount::cli
