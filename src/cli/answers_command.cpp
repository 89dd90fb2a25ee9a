#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <command/problems.hpp>

#include <generate/gradescope.hpp>
#include <generate/roster.hpp>
#include <spec/answers_file.hpp>
#include <util/csv.hpp>
#include <util/files.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

namespace headcount::cli {

namespace {

constexpr std::size_t k_max_metadata_bytes = 4u * 1024 * 1024;

struct AnswersOptions {
    std::vector<std::string> specs;
    std::string submission;
    std::string out;
    std::string student;
    std::string metadata;
    std::string roster;
    std::string results;
};

/// The submitter's email in Gradescope's submission_metadata.json (users[0].email).
Result<std::string> submitter_email(const std::string& path) {
    auto text = read_file_capped(path, k_max_metadata_bytes, "the submission metadata");
    if (!text)
        return std::unexpected(text.error());
    const auto json = nlohmann::json::parse(*text, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return std::unexpected(Error{path, 0, 0, "the submission metadata is not a JSON object"});
    const auto users = json.find("users");
    if (users == json.end() || !users->is_array() || users->empty() || !(*users)[0].is_object() ||
        !(*users)[0].contains("email") || !(*users)[0]["email"].is_string())
        return std::unexpected(Error{path, 0, 0, "the submission metadata names no submitter (users[0].email)"});
    return (*users)[0]["email"].get<std::string>();
}

/// The roster id of the student with this email: the row whose `email` column holds it (ignoring case), or, when the
/// roster has no email column, the email itself if it is a roster id.
Result<std::string> roster_id_for(const std::string& email, const std::string& roster_path) {
    auto text = read_file_capped(roster_path, generate::k_max_roster_bytes, "the roster");
    if (!text)
        return std::unexpected(text.error());
    auto table = parse_csv(*text, roster_path);
    if (!table)
        return std::unexpected(table.error());
    const auto student = table->column("student");
    if (!student)
        return std::unexpected(Error{roster_path, 1, 0, "the roster's header has no 'student' column"});
    const auto email_column = table->column("email");
    for (const CsvRecord& record : table->records) {
        const auto field = [&](std::size_t c) { return c < record.fields.size() ? record.fields[c] : std::string(); };
        if (email_column ? ascii_lowered(field(*email_column)) == ascii_lowered(email) : field(*student) == email)
            return field(*student);
    }
    return std::unexpected(Error{roster_path, 0, 0,
                                 fmt::format("no student on the roster has the email '{}'{}", printable(email),
                                             email_column ? ""
                                                          : " (the roster has no email column, "
                                                            "so ids must be emails)")});
}

Result<std::string> student_of(const AnswersOptions& options) {
    if (!options.student.empty())
        return options.student;
    auto email = submitter_email(options.metadata);
    if (!email)
        return email;
    if (options.roster.empty())
        return email;
    return roster_id_for(*email, options.roster);
}

Result<int> convert(const AnswersOptions& options) {
    auto problems = load_and_solve(options.specs);
    if (!problems)
        return std::unexpected(problems.error());
    auto path = spec::find_answers_file(options.submission);
    if (!path)
        return std::unexpected(path.error());
    auto text = read_file_capped(*path, spec::k_max_answers_file_bytes, "the answers file");
    if (!text)
        return std::unexpected(text.error());
    // Messages name the file as the student named it, not where the platform keeps it.
    const std::string name = path->filename().string();
    auto answers = spec::parse_answers_file(*text, name, path->extension() != ".csv");
    if (!answers)
        return std::unexpected(answers.error());
    auto student = student_of(options);
    if (!student)
        return std::unexpected(student.error());
    if (const auto why = student_id_problem(*student))
        return fail(fmt::format("student id '{}' {}", printable(*student), *why));

    std::string csv = csv_row(std::vector<std::string>{"student", "problem", "part", "answer"});
    for (const spec::SubmittedAnswer& a : *answers) {
        std::string problem = a.problem;
        if (problem.empty()) {
            if (problems->size() != 1)
                return std::unexpected(Error{name, a.line, 0,
                                             fmt::format("this assignment has {} problems: name the problem of part "
                                                         "'{}' (a problem column, or the problem id as a key)",
                                                         problems->size(), printable(a.part))});
            problem = problems->front().problem.id;
        }
        csv += csv_row(std::vector<std::string>{*student, problem, a.part, a.answer});
    }
    if (auto ok = write_file_atomic(options.out, csv); !ok)
        return std::unexpected(ok.error());
    fmt::print(stderr, "headcount: {} answer{} of '{}' from {}; wrote {}\n", answers->size(),
               answers->size() == 1 ? "" : "s", *student, name, options.out);
    return k_exit_ok;
}

Result<int> run_answers(const AnswersOptions& options) {
    auto result = convert(options);
    if (!result && !options.results.empty()) {
        // Gradescope shows the student this file, so the reason must be theirs to fix: it names their file only.
        if (auto ok =
                write_file_atomic(options.results, generate::unreadable_submission_results(result.error().to_string()));
            !ok)
            return std::unexpected(ok.error());
    }
    return result;
}

} // namespace

Command add_answers_command(CLI::App& app) {
    auto options = std::make_shared<AnswersOptions>();
    CLI::App* answers = app.add_subcommand("answers", "Read one student's answers file (answers.csv or answers.yaml) "
                                                      "into a submissions CSV for `headcount grade`.");
    add_specs_argument(*answers, options->specs);
    answers
        ->add_option("--submission", options->submission,
                     "The answers file, or a folder holding one (answers.csv, answers.yaml or answers.yml)")
        ->required();
    answers->add_option("--out", options->out, "The submissions CSV to write (student,problem,part,answer)")
        ->required();
    auto* student = answers->add_option("--student", options->student, "The student's id");
    auto* metadata = answers->add_option("--gradescope-metadata", options->metadata,
                                         "Gradescope's submission_metadata.json: the student is users[0].email");
    student->excludes(metadata);
    answers->add_option(
        "--roster", options->roster,
        "With --gradescope-metadata: map the email to the roster's student id through its email column");
    answers->add_option("--gradescope-results", options->results,
                        "When the submission cannot be read, also write Gradescope's results.json here, with the "
                        "reason for the student and no points");
    answers->footer("One of --student and --gradescope-metadata is needed. Exit status: 0 written, 2 bad input "
                    "(the reason on stderr, and in --gradescope-results).");
    return {answers, [options]() -> Result<int> {
                if (options->student.empty() && options->metadata.empty())
                    return fail("answers needs --student ID or --gradescope-metadata FILE");
                return run_answers(*options);
            }};
}

} // namespace headcount::cli
