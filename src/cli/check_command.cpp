#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <cli/problems.hpp>

#include <grade/feedback.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>

namespace headcount::cli {

namespace {

struct CheckOptions {
    std::string spec;
    std::string part;
    std::string answer;
    std::string format = "text";
    bool reveal = false;
    std::string templates;
};

nlohmann::ordered_json check_json(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                  const grade::Verdict& verdict, const grade::Feedback& feedback, bool reveal) {
    nlohmann::ordered_json out{{"problem", solved.problem.id}, {"part", part.part.id}, {"answer", verdict.answer}};
    if (!verdict.parsed)
        out["value"] = nullptr;
    else if (verdict.parsed->integer)
        out["value"] = *verdict.parsed->integer;
    else
        out["value"] = verdict.parsed->value;
    out["status"] = grade::status_name(verdict.status);
    out["correct"] = verdict.status == grade::Status::correct;
    out["score"] = verdict.score;
    out["points"] = verdict.points;
    if (verdict.status == grade::Status::unreadable)
        out["reason"] = verdict.unreadable_reason;
    nlohmann::ordered_json mistakes = nlohmann::ordered_json::array();
    for (const grade::MistakeNote& note : feedback.notes)
        mistakes.push_back({{"id", note.id}, {"title", note.title}, {"feedback", note.feedback}});
    out["mistakes"] = mistakes;
    if (reveal)
        out["expected"] = verdict.expected;
    return out;
}

Result<int> run_check(const CheckOptions& options) {
    auto solved = load_and_solve({options.spec});
    if (!solved)
        return std::unexpected(solved.error());
    if (solved->size() != 1)
        return std::unexpected(Error{options.spec, 0, 0, "check takes one spec file, not a directory of them"});
    const solve::SolvedProblem& problem = solved->front();
    auto part = find_part(problem, options.part);
    if (!part)
        return std::unexpected(part.error());
    auto templates = load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());

    const grade::Verdict verdict = grade::grade_answer(problem, **part, options.answer);
    auto feedback = grade::explain(problem, **part, verdict, *templates, options.reveal);
    if (!feedback)
        return std::unexpected(feedback.error());
    if (options.format == "json")
        fmt::print("{}\n", check_json(problem, **part, verdict, *feedback, options.reveal).dump(2));
    else
        fmt::print("{}", feedback->text);
    return verdict.status == grade::Status::correct ? k_exit_ok : k_exit_incorrect;
}

} // namespace

Command add_check_command(CLI::App& app) {
    auto options = std::make_shared<CheckOptions>();
    CLI::App* check = app.add_subcommand("check", "Check one answer to one part, and name the mistake behind it.");
    check->add_option("spec", options->spec, "The problem spec (.yaml)")->required();
    check->add_option("--part", options->part, "The part's id, e.g. b")->required();
    check->add_option("--answer", options->answer, "Your answer as you would write it: 1050624, 1,050,624, 4*512*513, 1.05M")
        ->required();
    check->add_option("--format", options->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
    check->add_flag("--reveal", options->reveal, "Also show the expected value");
    check->add_option("--templates", options->templates, "Use the Mustache templates in this directory");
    check->footer("Exit status: 0 correct, 1 not correct (including rounded or unreadable answers), 2 bad input or "
                  "usage.");
    return {check, [options] { return run_check(*options); }};
}

} // namespace headcount::cli
