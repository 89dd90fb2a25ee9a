#include <cli/app.hpp>
#include <cli/commands.hpp>
#include <command/problems.hpp>
#include <generate/class_variants.hpp>

#include <grade/feedback.hpp>
#include <grade/verdict_json.hpp>
#include <render/solution.hpp>
#include <spec/givens.hpp>
#include <util/ids.hpp>
#include <util/text.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>

namespace headcount::cli {

namespace {

struct CheckOptions {
    std::string spec;
    std::string part;
    std::string answer;
    std::string format = "text";
    bool reveal = false;
    std::string templates;
    std::string seed;
    std::string student;
    std::string roster;
};

/// The givens that vary between students, as this student has them: what a --seed check was checked against,
/// so a mistyped seed or id shows as numbers the student does not recognise, not as a wrong verdict.
nlohmann::ordered_json variant_givens(const solve::SolvedProblem& variant) {
    nlohmann::ordered_json givens = nlohmann::ordered_json::object();
    const spec::Givens values = spec::givens_of(variant.problem);
    for (const spec::Variation& v : variant.problem.vary) {
        const auto value = spec::given_value(values, v.key);
        if (!value)
            continue;
        if (spec::is_flag_key(v.key))
            givens[v.key] = *value != 0;
        else
            givens[v.key] = *value;
    }
    return givens;
}

std::string givens_line(const solve::SolvedProblem& variant, const CheckOptions& options) {
    std::string list;
    const spec::Givens values = spec::givens_of(variant.problem);
    for (const spec::Variation& v : variant.problem.vary)
        if (const auto text = spec::given_text(values, v.key))
            list += fmt::format("{}{} = {}", list.empty() ? "" : ", ", v.key, *text);
    if (list.empty())
        return fmt::format("Checked with seed '{}' for '{}': this problem gives every student the same numbers.\n\n",
                           printable(options.seed), printable(options.student));
    return fmt::format("Checked against the numbers of '{}' under seed '{}': {}. If these are not the numbers on your "
                       "sheet, check the seed and your id.\n\n",
                       printable(options.student), printable(options.seed), list);
}

Result<int> run_check(const CheckOptions& options) {
    auto solved = load_and_solve({options.spec});
    if (!solved)
        return std::unexpected(solved.error());
    if (solved->size() != 1)
        return std::unexpected(Error{options.spec, 0, 0, "check takes one spec file, not a directory of them"});
    const solve::SolvedProblem* chosen = &solved->front();
    std::optional<generate::ClassVariants> variants;
    if (!options.seed.empty()) {
        auto table = generate::ClassVariants::for_student(*solved, options.student, options.roster, options.seed);
        if (!table)
            return std::unexpected(table.error());
        variants = std::move(*table);
        auto found = variants->find(0, options.student);
        if (!found)
            return std::unexpected(Error{options.roster, 0, 0, found.error()});
        chosen = *found;
    }
    const solve::SolvedProblem& problem = *chosen;
    auto part = find_part(problem, options.part);
    if (!part)
        return std::unexpected(part.error());
    auto templates = load_templates(options.templates);
    if (!templates)
        return std::unexpected(templates.error());

    const grade::Verdict verdict = grade::grade_answer(problem, **part, options.answer);
    const spec::Reveal reveal = grade::effective_reveal(problem.problem, (*part)->part, options.reveal);
    auto feedback = grade::explain(problem, **part, verdict, *templates, reveal);
    if (!feedback)
        return std::unexpected(feedback.error());
    if (options.format == "json") {
        auto json = grade::verdict_json(problem, **part, verdict, *feedback, reveal);
        // Which definitions the answer was computed with, when the spec redefines one of headcount's built-ins.
        if (auto redefined = render::redefinitions_json(problem, **part); !redefined.empty())
            json["redefined"] = std::move(redefined);
        if (variants)
            json["variant"] = {
                {"seed", options.seed}, {"student", options.student}, {"givens", variant_givens(problem)}};
        fmt::print("{}\n", json.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    } else {
        fmt::print("{}{}", variants ? givens_line(problem, options) : std::string(), feedback->text);
    }
    return verdict.status == grade::Status::correct ? k_exit_ok : k_exit_incorrect;
}

} // namespace

Command add_check_command(CLI::App& app) {
    auto options = std::make_shared<CheckOptions>();
    CLI::App* check = app.add_subcommand("check", "Check one answer to one part, and name the mistake behind it.");
    check->add_option("spec", options->spec, "The problem spec (.yaml)")->required();
    check->add_option("--part", options->part, "The part's id, e.g. b")->required();
    check
        ->add_option(
            "--answer", options->answer,
            "Your answer as you would write it: 270900, 3*300*301, 3(300^2+300), 0.27M, 3 \\times 90{,}300; bytes as "
            "300 KiB; a time as 2.5 ms, 250 us or 18.0 years; a rate as 989 TFLOP/s or 3.35 TB/s; a percentage as "
            "45.5% or 0.455; a count with its noun as 85 chips (or 85 GPUs, for a count of devices); a shape as "
            "(2, 4, 16, 16); or the word asked for")
        ->required();
    check->add_option("--format", options->format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
    auto* seed = check->add_option("--seed", options->seed, "Check against your own variant: the class seed");
    auto* student = check->add_option("--student", options->student, "Check against your own variant: your id");
    check->add_option("--roster", options->roster, "The class roster (needed for problems with distinct: true)")
        ->needs(seed);
    seed->needs(student);
    student->needs(seed);
    check->add_flag("--reveal", options->reveal,
                    "Show the feedback in full, the expected value included, whatever the spec's feedback policy");
    check->add_option("--templates", options->templates, k_templates_help);
    check->footer(
        "A whole count is right with every digit; a value that is not whole, within half a unit in the "
        "last figure the part asks for (3 by default) of the exact value, in the unit written (18.0 years "
        "for 6,583.56 days); fewer figures are a rounding. A mistake is named when the answer gives its "
        "value by the same rule (right or a rounding, were it the right value), and only when it is the "
        "cause: when several slips give the number, they are listed as possibilities. What the feedback shows "
        "follows the spec's feedback policy: hints (default: the mistake named, no number derived from the "
        "answer), gaps (the difference too) or full. Exit status: 0 correct, 1 not correct (including "
        "rounded or unreadable answers), 2 bad input or usage.");
    return {check, [options] { return run_check(*options); }};
}

} // namespace headcount::cli
