#include "fuzz_support.hpp"

#include <grade/mistakes.hpp>
#include <spec/reader.hpp>

#include <map>
#include <string>

namespace headcount::fuzz {

const solve::SolvedProblem& shipped_problem(std::string_view id) {
    static std::map<std::string, solve::SolvedProblem, std::less<>> solved;
    if (const auto it = solved.find(id); it != solved.end())
        return it->second;
    const std::vector<std::string_view> asks = solve::ask_ids();
    const std::vector<std::string_view> mistakes = grade::mistake_ids();
    const std::string path = std::string(HEADCOUNT_SOURCE_DIR) + "/problems/" + std::string(id) + ".yaml";
    auto problem = spec::load_problem(path, spec::Vocabulary{asks, mistakes});
    auto result = problem ? solve::solve_problem(*problem) : std::unexpected(problem.error());
    if (!result) {
        std::fprintf(stderr, "fuzz setup: %s\n", result.error().to_string().c_str());
        std::abort();
    }
    return solved.emplace(std::string(id), std::move(*result)).first->second;
}

void require_logged_round_trip(const grade::LoggedSubmission& submission) {
    const serve::Attempt attempt{
        {}, submission.student, submission.problem, submission.part, submission.answer, "incorrect", 0,
        1,  {"missing_biases"}};
    std::string line = serve::attempt_line(attempt);
    require(line.find('\n') == line.size() - 1, "an attempt line is not exactly one line");
    line.pop_back();
    if (line.size() > grade::k_max_attempt_line_bytes)
        return; // escaping grew it past the cap: refused by its size, which attempt_log_test checks
    const auto again = grade::read_attempt_line(line);
    require(again.has_value(), "a logged attempt does not read back");
    require(again->student == submission.student && again->problem == submission.problem &&
                again->part == submission.part && again->answer == submission.answer,
            "a logged attempt reads back different fields");
}

} // namespace headcount::fuzz
