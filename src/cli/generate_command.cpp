#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>
#include <cli/secret_option.hpp>

#include <generate/bank.hpp>
#include <generate/key.hpp>
#include <generate/moodle.hpp>
#include <generate/qti.hpp>
#include <generate/roster.hpp>
#include <generate/sheet_header.hpp>
#include <render/answers.hpp>
#include <render/pages.hpp>
#include <render/solution.hpp>
#include <util/csv.hpp>
#include <util/files.hpp>
#include <util/zip.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

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
Result<Files> document_files(const std::vector<solve::SolvedProblem>& problems, const VariantTable& variants,
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
        for (const solve::SolvedProblem& problem : problems)
            mine.push_back(&variants.at(problem.problem.id).at(student));
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
    files.emplace_back(out / "key.csv", generate::answer_key_csv(problems, variants, roster));
    return files;
}
/// Each problem's variants for a question bank: `--variants N` drawn under the seed, or those the roster was handed.
Result<std::vector<generate::ProblemBank>> banks_of(const std::vector<solve::SolvedProblem>& problems,
                                                    const VariantTable* handed_out, const GenerateOptions& options) {
    std::vector<generate::ProblemBank> banks;
    for (const solve::SolvedProblem& problem : problems) {
        auto variants = handed_out
                            ? generate::class_variants_bank(problem.problem, handed_out->at(problem.problem.id))
                            : generate::drawn_variants(problem.problem, options.variants, options.seed);
        if (!variants)
            return std::unexpected(variants.error());
        if (!handed_out && !problem.problem.vary.empty() && variants->size() < options.variants)
            fmt::print(stderr, "headcount: '{}' has {} valid variant{}; the bank holds all of them\n",
                       problem.problem.id, variants->size(), variants->size() == 1 ? "" : "s");
        banks.push_back({&problem, std::move(*variants)});
    }
    return banks;
}

/// The question bank files: OUT/questions.xml for Moodle, OUT/qti.zip for Canvas.
Result<Files> bank_files(const std::vector<generate::ProblemBank>& banks, const render::TemplateSet& templates,
                         const GenerateOptions& options) {
    const std::filesystem::path out = options.out;
    if (options.format == "moodle-xml") {
        auto bank = generate::moodle_question_bank(banks, templates);
        if (!bank)
            return std::unexpected(bank.error());
        if (!bank->left_out.empty())
            fmt::print(stderr, "headcount: Moodle would read these values as an earlier answer with other credit or "
                               "feedback, so the bank leaves them out: {}\n",
                       fmt::join(bank->left_out, "; "));
        return Files{{out / "questions.xml", std::move(bank->xml)}};
    }
    const std::string title = banks.size() == 1 ? banks.front().problem->problem.title
                                                : fmt::format("headcount: {} problems", banks.size());
    auto package = generate::qti_package(banks, title, templates, options.solutions_in_bank);
    if (!package)
        return std::unexpected(package.error());
    auto zip = zip_archive(*package);
    if (!zip)
        return std::unexpected(zip.error());
    return Files{{out / "qti.zip", std::move(*zip)}};
}


Result<int> run_generate(const GenerateOptions& options) {
    const bool bank = options.format == "moodle-xml" || options.format == "qti";
    if (!bank && options.roster.empty())
        return std::unexpected(Error{{}, 0, 0, fmt::format("the {} format writes a sheet per student: give --roster", options.format)});
    if (bank && options.roster.empty() == (options.variants == 0))
        return std::unexpected(Error{{}, 0, 0, fmt::format("--format {} needs either --variants N (a bank of N "
                                                           "variants per problem) or --roster (the variants a class "
                                                           "was handed), not both",
                                                           options.format)});
    if (!options.secret.empty() && options.serve_url.empty())
        return fail("--secret keys the links --serve-url prints: give both, or neither");
    if (options.solutions_in_bank && options.format != "qti")
        return std::unexpected(Error{{}, 0, 0, options.format == "moodle-xml"
                                                   ? "--solutions-in-bank goes with --format qti: a Moodle bank always "
                                                     "holds the worked solutions, as general feedback that the quiz's "
                                                     "review options show or hide"
                                                   : fmt::format("--solutions-in-bank goes with --format qti: the {} "
                                                                 "format writes solutions beside the sheets",
                                                                 options.format)});
    if (!options.serve_url.empty()) {
        if (bank)
            return std::unexpected(Error{{}, 0, 0, "--serve-url puts a link on each student's sheet: it goes with "
                                                   "the markdown and html formats"});
        if (const auto why = generate::serve_url_problem(options.serve_url))
            return std::unexpected(Error{{}, 0, 0, fmt::format("--serve-url '{}' {}", options.serve_url, *why)});
    }
    auto problems = load_and_solve(options.specs);
    if (!problems)
        return std::unexpected(problems.error());
    auto templates = load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());
    std::vector<std::string> roster;
    std::optional<VariantTable> variants;
    if (!options.roster.empty()) {
        auto loaded = generate::load_roster(options.roster);
        if (!loaded)
            return std::unexpected(loaded.error());
        roster = std::move(*loaded);
        auto table = class_variants(*problems, roster, options.seed);
        if (!table)
            return std::unexpected(table.error());
        variants = std::move(*table);
    }

    Files files;
    if (bank) {
        auto banks = banks_of(*problems, variants ? &*variants : nullptr, options);
        if (!banks)
            return std::unexpected(banks.error());
        auto written = bank_files(*banks, *templates, options);
        if (!written)
            return std::unexpected(written.error());
        files = std::move(*written);
        std::size_t questions = 0;
        for (const generate::ProblemBank& b : *banks)
            questions += b.variants.size();
        if (auto ok = write_files(files); !ok)
            return std::unexpected(ok.error());
        fmt::print(stderr, "headcount: {} problem{}, {} question{} (one per variant); wrote {}\n", problems->size(),
                   problems->size() == 1 ? "" : "s", questions, questions == 1 ? "" : "s",
                   files.front().first.string());
        return k_exit_ok;
    }
    const bool html = options.format == "html";
    std::optional<TokenSecret> secret;
    if (!options.serve_url.empty()) {
        auto loaded = command_token_secret(options.secret, options.out);
        if (!loaded)
            return std::unexpected(loaded.error());
        secret = std::move(*loaded);
    }
    auto set = document_files(*problems, *variants, roster, *templates, options, secret ? &*secret : nullptr, html);
    if (!set)
        return std::unexpected(set.error());
    files = std::move(*set);
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
    fmt::print(stderr, "headcount: {} problem{} for {} students; wrote {} file{} to {}{}\n", problems->size(),
               problems->size() == 1 ? "" : "s", roster.size(), written, written == 1 ? "" : "s", options.out,
               katex_files.empty() ? "" : " (and KaTeX, which the pages use, in katex/)");
    return k_exit_ok;
}

} // namespace

Command add_generate_command(CLI::App& app) {
    auto options = std::make_shared<GenerateOptions>();
    CLI::App* generate = app.add_subcommand("generate", "Generate a different, reproducible variant of each problem "
                                                        "for every student, with solutions and an answer key.");
    generate->add_option("specs", options->specs, "Problem spec files (.yaml) or directories of them")->required();
    generate->add_option("--roster", options->roster,
                         "CSV with a 'student' column (other columns ignored); for moodle-xml and qti, the bank holds "
                         "the variants these students were handed");
    generate->add_option("--seed", options->seed,
                         "The class seed (any text, e.g. fall-2026); the same seed gives the same numbers")
        ->required();
    generate->add_option("--out", options->out, "Output directory")->required();
    generate->add_option("--format", options->format,
                         "markdown (default): OUT/STUDENT/problems.md and solutions.md, OUT/key.csv, OUT/problems.md; "
                         "html: the same set as printable web pages (problems.html, solutions.html) with the math "
                         "typeset by KaTeX, copied once into OUT/katex/; "
                         "moodle-xml: OUT/questions.xml, a Moodle bank (a category per problem, a Cloze question per "
                         "variant); qti: OUT/qti.zip, a Canvas quiz (a question group per problem)")
        ->check(CLI::IsMember({"markdown", "html", "moodle-xml", "qti"}));
    generate->add_option("--variants", options->variants,
                         "moodle-xml and qti: put N variants of each problem in the bank, drawn under --seed (all of "
                         "them when a problem has fewer)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{10000}));
    generate->add_flag("--solutions-in-bank", options->solutions_in_bank,
                       "qti: put each variant's worked solution in the quiz as its question's general comment, which "
                       "Canvas shows the student under the question after every submission (even with correct answers "
                       "hidden); without it the quiz holds no solution");
    generate->add_option("--serve-url", options->serve_url,
                         "markdown and html: the address of `headcount serve` (e.g. https://hc.example.edu); each "
                         "sheet then shows the student's personal link, else the `check` command");
    generate->add_option("--secret", options->secret, std::string(k_secret_help) + " (used with --serve-url)");
    generate->add_option("--templates", options->templates, k_templates_help);
    generate->footer("A student's numbers depend only on the seed, their id and the problem id (see README). "
                     "Exit status: 0 written, 2 bad input or usage.");
    return {generate, [options] { return run_generate(*options); }};
}

} // namespace headcount::cli
