#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>

#include <generate/key.hpp>
#include <generate/roster.hpp>
#include <grade/class_reports.hpp>
#include <util/files.hpp>

#include <fmt/format.h>

#include <memory>
#include <optional>

namespace headcount::cli {

namespace {

/// A class's submissions (or key) are small; a file past this is a mistake (a wrong file), not a class.
constexpr std::size_t k_max_submissions_bytes = 64u * 1024 * 1024;

struct GradeOptions {
    std::vector<std::string> specs;
    std::string submissions;
    std::string out;
    std::string format = "class";
    bool reveal = false;
    std::string templates;
    std::string seed;
    std::string roster;
    std::string key;
};

/// Every output file, rendered before any is written, so a template error leaves the folder as it was.
Result<std::vector<std::pair<std::filesystem::path, std::string>>>
class_outputs(const grade::ClassResults& results, const std::vector<solve::SolvedProblem>& problems,
              const render::TemplateSet& templates, const GradeOptions& options) {
    namespace fs = std::filesystem;
    const fs::path out = options.out;
    std::vector<std::pair<fs::path, std::string>> files;
    grade::FeedbackCache cache;
    if (options.format == "gradescope") {
        if (results.students.size() > 1)
            return std::unexpected(Error{options.submissions, 0, 0,
                                         fmt::format("--format gradescope grades one student's submission; this file "
                                                     "has {} students",
                                                     results.students.size())});
        const std::string student = results.students.empty() ? std::string() : results.students.front();
        auto json = grade::gradescope_results(results, problems, student, templates, options.reveal, cache);
        if (!json)
            return std::unexpected(json.error());
        files.emplace_back(out / "results.json", json->dump(2) + "\n");
        return files;
    }
    files.emplace_back(out / "gradebook.csv", grade::gradebook_csv(results, problems));
    files.emplace_back(out / "results.jsonl", grade::results_jsonl(results));
    auto report = grade::class_report(results, problems, templates);
    if (!report)
        return std::unexpected(report.error());
    files.emplace_back(out / "report.md", *report);
    for (const std::string& student : results.students) {
        // Ids were checked by grade_class (no '/', '..', NUL, reserved names), so this stays in feedback/.
        auto text = grade::student_feedback(results, problems, student, templates, options.reveal, cache);
        if (!text)
            return std::unexpected(text.error());
        files.emplace_back(out / "feedback" / (student + ".md"), *text);
    }
    return files;
}

Result<int> run_grade(const GradeOptions& options) {
    auto problems = load_and_solve(options.specs);
    if (!problems)
        return std::unexpected(problems.error());
    auto templates = load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());
    auto text = read_file_capped(options.submissions, k_max_submissions_bytes, "the submissions file");
    if (!text)
        return std::unexpected(text.error());
    auto table = parse_csv(*text, options.submissions);
    if (!table)
        return std::unexpected(table.error());
    std::optional<VariantTable> variants;
    if (!options.key.empty()) {
        auto key_text = read_file_capped(options.key, k_max_submissions_bytes, "the key");
        if (!key_text)
            return std::unexpected(key_text.error());
        auto from_key = generate::variants_from_key(*problems, *key_text, options.key);
        if (!from_key)
            return std::unexpected(from_key.error());
        variants = std::move(*from_key);
    } else if (!options.seed.empty()) {
        auto roster = generate::load_roster(options.roster);
        if (!roster)
            return std::unexpected(roster.error());
        auto table_of_variants = class_variants(*problems, *roster, options.seed);
        if (!table_of_variants)
            return std::unexpected(table_of_variants.error());
        variants = std::move(*table_of_variants);
    }
    auto results = grade::grade_class(*problems, *table, options.submissions, variants ? &*variants : nullptr);
    if (!results)
        return std::unexpected(results.error());

    auto files = class_outputs(*results, *problems, *templates, options);
    if (!files)
        return std::unexpected(files.error());
    if (auto ok = write_files(*files); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr, "headcount: {} row{} in: {} graded, {} rejected, {} superseded; {} student{}; wrote {}\n",
               results->rows.size(), results->rows.size() == 1 ? "" : "s", results->count(grade::RowOutcome::graded),
               results->count(grade::RowOutcome::rejected), results->count(grade::RowOutcome::superseded),
               results->students.size(), results->students.size() == 1 ? "" : "s", options.out);
    return k_exit_ok;
}

} // namespace

Command add_grade_command(CLI::App& app) {
    auto options = std::make_shared<GradeOptions>();
    CLI::App* grade = app.add_subcommand("grade", "Grade a class's answers from a CSV and write gradebook, feedback "
                                                  "and a class report.");
    grade->add_option("specs", options->specs, "Problem spec files (.yaml) or directories of them")->required();
    grade->add_option("--submissions", options->submissions,
                      "CSV with a header row and columns student, problem, part, answer (others ignored)")
        ->required();
    grade->add_option("--out", options->out,
                      "Output directory: gradebook.csv, results.jsonl, report.md, feedback/STUDENT.md "
                      "(with --format gradescope: results.json)")
        ->required();
    grade->add_option("--format", options->format,
                      "class (default): files for the whole class; gradescope: one student's results.json")
        ->check(CLI::IsMember({"class", "gradescope"}));
    auto* seed = grade->add_option("--seed", options->seed,
                                   "Grade each student against their own variant from `headcount generate --seed`");
    auto* roster = grade->add_option("--roster", options->roster, "The roster the variants were generated for");
    seed->needs(roster);
    roster->needs(seed);
    grade->add_option("--key", options->key,
                      "Grade each student against their row of a key.csv from `headcount generate` (instead of "
                      "--seed and --roster); their numbers are recovered from the spec's variants")
        ->excludes(seed);
    grade->add_flag("--reveal", options->reveal, "State the expected values in the feedback");
    grade->add_option("--templates", options->templates, k_templates_help);
    grade->footer("Every input row is graded or rejected with a reason (see results.jsonl); a repeated "
                  "(student, problem, part) counts on its last row. Exit status: 0 graded, 2 bad input or usage.");
    return {grade, [options] { return run_grade(*options); }};
}

} // namespace headcount::cli
