#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <command/problems.hpp>

#include <generate/class_variants.hpp>
#include <grade/class_folder.hpp>
#include <grade/submissions.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <thread>

namespace headcount::cli {

namespace {

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
    std::string problems;
    std::string feedback = "files";
    unsigned threads = 0;
    bool html = false;
};

/// The problems --problems names, as indices, in spec order; empty when it is not given.
Result<std::vector<std::size_t>> scope_of(const std::vector<solve::SolvedProblem>& problems, const std::string& list) {
    std::vector<std::size_t> scope;
    if (list.empty())
        return scope;
    std::vector<std::string_view> ids;
    for (const auto& p : problems)
        ids.push_back(p.problem.id);
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string id(list.substr(start, comma - start));
        const auto it = std::find(ids.begin(), ids.end(), id);
        if (it == ids.end())
            return fail(fmt::format("--problems names '{}', which none of the specs has{}", printable(id),
                                    did_you_mean(id, ids)));
        scope.push_back(static_cast<std::size_t>(it - ids.begin()));
        start = comma + 1;
    }
    std::sort(scope.begin(), scope.end());
    scope.erase(std::unique(scope.begin(), scope.end()), scope.end());
    return scope;
}

Result<int> run_grade(const GradeOptions& options) {
    auto course = load_course(options.specs, options.templates);
    if (!course)
        return std::unexpected(course.error());
    const std::vector<solve::SolvedProblem>& problems = course->problems;
    const render::TemplateSet& templates = course->templates;
    auto scope = scope_of(problems, options.problems);
    if (!scope)
        return std::unexpected(scope.error());
    if (options.format == "gradescope" && scope->empty()) // the assignment is every spec given
        for (std::size_t p = 0; p < problems.size(); ++p)
            scope->push_back(p);

    std::optional<generate::ClassVariants> variants;
    if (!options.key.empty() || !options.seed.empty()) {
        auto table = options.key.empty()
                         ? generate::ClassVariants::seeded_for_roster_file(problems, options.roster, options.seed)
                         : generate::ClassVariants::from_key_file(problems, options.key);
        if (!table)
            return std::unexpected(table.error());
        variants = std::move(*table);
    }
    grade::VariantLookup lookup;
    grade::RosterCheck roster;
    if (variants) {
        lookup = [&](std::size_t problem, std::string_view student) { return variants->find(problem, student); };
        roster = [&](std::string_view student) { return variants->unknown_student(student); };
    }

    auto submissions = grade::SubmissionsFile::open(options.submissions);
    if (!submissions)
        return std::unexpected(submissions.error());
    grade::ClassGrader grader(problems, std::move(lookup), *scope, std::move(roster));
    if (auto ok = grader.set_header((*submissions)->header(), options.submissions); !ok)
        return std::unexpected(ok.error());

    const bool gradescope = options.format == "gradescope";
    std::unique_ptr<grade::ClassFolder> folder;
    if (!gradescope) {
        auto opened = grade::ClassFolder::open(options.out);
        if (!opened)
            return std::unexpected(opened.error());
        folder = std::move(*opened);
    }
    // One pass: each row is graded and logged as it is read; only per-student state is kept.
    for (;;) {
        auto record = (*submissions)->next();
        if (!record)
            return std::unexpected(record.error());
        if (!*record)
            break;
        const grade::RowResult& row = grader.add(std::move(**record));
        if (folder)
            folder->record(row);
    }
    std::vector<grade::Superseded> superseded = grader.superseded();
    const grade::ClassResults results = grader.finish();

    if (gradescope) {
        if (auto ok =
                grade::write_gradescope_results(results, templates, options.reveal, options.out, options.submissions);
            !ok)
            return std::unexpected(ok.error());
    } else {
        grade::ClassFolderOptions written;
        written.feedback_files = options.feedback == "files";
        written.html = options.html;
        written.reveal = options.reveal;
        written.threads = options.threads ? options.threads : std::min(8u, std::thread::hardware_concurrency());
        if (auto ok = folder->finish(results, std::move(superseded), templates, written); !ok)
            return std::unexpected(ok.error());
    }
    const std::uint64_t rejected = results.rejected().size();
    fmt::print(stderr, "headcount: {} row{} in: {} graded, {} rejected, {} superseded; {} student{}; wrote {}\n",
               results.rows, results.rows == 1 ? "" : "s", results.graded, rejected, results.superseded,
               results.students(), results.students() == 1 ? "" : "s", options.out);
    return k_exit_ok;
}

} // namespace

Command add_grade_command(CLI::App& app) {
    auto options = std::make_shared<GradeOptions>();
    CLI::App* grade = app.add_subcommand(
        "grade", "Grade a class's answers (a CSV or serve's attempt log) and write gradebook, feedback "
                 "and a class report.");
    add_specs_argument(*grade, options->specs);
    grade
        ->add_option("--submissions", options->submissions,
                     "CSV with a header row and columns student, problem, part, answer (others ignored), or the "
                     "attempt log of `headcount serve --log` (each student's latest attempt at a part counts)")
        ->required();
    grade
        ->add_option("--out", options->out,
                     "Output directory: gradebook.csv, results.jsonl, report.md, feedback/STUDENT.md "
                     "(with --format gradescope: results.json)")
        ->required();
    grade
        ->add_option("--format", options->format,
                     "class (default): files for the whole class; gradescope: one student's results.json")
        ->check(CLI::IsMember({"class", "gradescope"}));
    grade->add_option("--problems", options->problems,
                      "Grade these problems (ids, comma-separated); default: those the submissions name (gradescope: "
                      "every spec given)");
    grade
        ->add_option("--feedback", options->feedback,
                     "files (default): a feedback file per student; none: only gradebook, results and report")
        ->check(CLI::IsMember({"files", "none"}));
    grade->add_flag("--html", options->html,
                    "Also write report.html and feedback/STUDENT.html: printable pages with the math typeset by KaTeX "
                    "(copied into OUT/katex) and the charts drawn in them");
    grade
        ->add_option("--threads", options->threads,
                     "Threads that write feedback files (default: the machine's "
                     "cores, at most 8); the files are the same for any number")
        ->check(CLI::Range(1u, 64u));
    auto* seed = grade->add_option("--seed", options->seed,
                                   "Grade each student against their own variant from `headcount generate --seed`");
    auto* roster = grade->add_option("--roster", options->roster, "The roster the variants were generated for");
    seed->needs(roster);
    roster->needs(seed);
    grade
        ->add_option("--key", options->key,
                     "Grade each student against their row of a key.csv from `headcount generate` (instead of "
                     "--seed and --roster); their numbers are recovered from the spec's variants")
        ->excludes(seed);
    grade->add_flag("--reveal", options->reveal,
                    "Feedback in full, expected values included, whatever the specs' feedback policy (default: each "
                    "part's policy, hints unless the spec says otherwise)");
    grade->add_option("--templates", options->templates, k_templates_help);
    grade->footer("Every input row is graded or rejected with a reason (see results.jsonl); a repeated "
                  "(student, problem, part) counts on its last row. The files appear together when grading is done: "
                  "an error or an interrupted run leaves the previous ones as they were. Exit status: 0 graded, 2 bad "
                  "input or usage.");
    return {grade, [options] { return run_grade(*options); }};
}

} // namespace headcount::cli
